// Bun: `import "turnwire"` and `require("turnwire")` resolve the package's `bun` entry
// (dist/node.mjs: readFileSync + initSync). Run by run.mjs as `bun bun.run.mjs`.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import * as api from "turnwire";
import fixtures from "./fixtures.json" with { type: "json" };
import { createHarness } from "./harness.mjs";
import { runAndPrint } from "./report.mjs";
import { defineSuite } from "./suite.mjs";

const harness = createHarness();
const report = {};
const require = createRequire(import.meta.url);

harness.test("import and require resolve dist/node.mjs, one instance", () => {
  assert.match(import.meta.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/node\.mjs$/);
  assert.match(require.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/node\.mjs$/);
  assert.equal(require("turnwire").renderBody, api.renderBody);
});

defineSuite(api, "bun", {
  describe: harness.describe,
  test: harness.test,
  assert,
  fixtures,
  gc: () => Bun.gc(true),
  heapUsed: () => process.memoryUsage().heapUsed,
  report: (key, value) => (report[key] = value),
});

await runAndPrint(harness, {
  runtime: `Bun ${Bun.version} (JavaScriptCore)`,
  report,
  exit: (code) => process.exit(code),
});
