// Deno: `import "turnwire"` resolves the package's `deno` entry (dist/deno.mjs, the wasm-bindgen
// `module` glue: `import source` of the wasm, so no permission is needed). Run by run.mjs as
//   deno run --no-prompt --v8-flags=--expose-gc deno.run.mjs      (no --allow-* flags at all)
import assert from "node:assert/strict";
import * as api from "turnwire";
import fixtures from "./fixtures.json" with { type: "json" };
import { createHarness } from "./harness.mjs";
import { runAndPrint } from "./report.mjs";
import { defineSuite } from "./suite.mjs";

const harness = createHarness();
const report = {};

harness.test("import resolves dist/deno.mjs", () => {
  assert.match(import.meta.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/deno\.mjs$/);
});

harness.test("Deno granted no permissions", async () => {
  for (const name of ["read", "write", "net", "env", "run", "ffi", "sys"]) {
    assert.equal((await Deno.permissions.query({ name })).state, "prompt", name);
  }
});

defineSuite(api, "deno", {
  describe: harness.describe,
  test: harness.test,
  assert,
  fixtures,
  gc: globalThis.gc,
  heapUsed: () => Deno.memoryUsage().heapUsed,
  report: (key, value) => (report[key] = value),
});

await runAndPrint(harness, {
  runtime: `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`,
  report,
  exit: (code) => Deno.exit(code),
});
