// The Vite recipe's page: `import "turnwire"` as a Vite app would (Vite resolves the `browser`
// entry and emits the .wasm as a hashed asset). run.mjs builds it with `vite build`, serves dist/
// with /fixtures.json and /mock.json beside it, opens it in headless Chromium and reads
// window.__turnwire; then the same under `vite dev`. No vite.config.js: neither needs one.
import * as api from "turnwire";
import assert from "./lib/assert.mjs";
import { createHarness } from "./lib/harness.mjs";
import { defineSuite } from "./lib/suite.mjs";

const harness = createHarness();
const report = {};
const fixtures = await (await fetch("/fixtures.json")).json();
const mockAnswer = await fetch("/mock.json");
const mock = mockAnswer.ok ? await mockAnswer.json() : undefined;

harness.test("the page fetched the wasm once: the asset vite build emitted, or (vite dev) the package's file", () => {
  const file = import.meta.env.DEV ? /\/node_modules\/turnwire\/dist\/turnwire_bg\.wasm$/ : /\/assets\/turnwire_bg-[\w-]+\.wasm$/;
  const wasm = performance.getEntriesByType("resource").filter((e) => e.name.includes(".wasm"));
  assert.equal(wasm.length, 1, `the wasm is fetched once: ${wasm.map((e) => e.name)}`);
  assert.match(new URL(wasm[0].name).pathname, file);
});

defineSuite(api, "vite", {
  describe: harness.describe,
  test: harness.test,
  assert,
  fixtures,
  mock,
  gc: globalThis.gc,
  heapUsed: performance.memory ? () => performance.memory.usedJSHeapSize : undefined,
  report: (key, value) => (report[key] = value),
});

window.__turnwire = { runtime: import.meta.env.DEV ? "vite dev" : "vite build", ...(await harness.run()), report };
