// Chromium: the page's import map sends "turnwire" where the package's exports resolve under
// the `browser` condition (run.mjs computes it from the installed package.json), so this loads
// dist/browser.mjs, which fetches and instantiates the wasm before the module finishes loading.
// /mock.json names the strict mock providers run.mjs started, for streamTurn from the page.
// The summary goes to window.__turnwire for run.mjs to read.
import * as api from "turnwire";
import assert from "./assert.mjs";
import { createHarness } from "./harness.mjs";
import { defineSuite } from "./suite.mjs";

const harness = createHarness();
const report = {};
const fixtures = await (await fetch("/fixtures.json")).json();
const mockAnswer = await fetch("/mock.json");
const mock = mockAnswer.ok ? await mockAnswer.json() : undefined;

harness.test("import resolves dist/browser.mjs, which fetched the wasm once", () => {
  assert.match(import.meta.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/browser\.mjs$/);
  const wasm = performance.getEntriesByType("resource").filter((e) => e.name.endsWith("/turnwire_bg.wasm"));
  assert.equal(wasm.length, 1, "the wasm is fetched once");
});

defineSuite(api, "chromium", {
  describe: harness.describe,
  test: harness.test,
  assert,
  fixtures,
  mock, // the strict mock providers run.mjs started (another origin: CORS)
  // run.mjs starts Chromium with --js-flags=--expose-gc and --enable-precise-memory-info
  gc: globalThis.gc,
  heapUsed: performance.memory ? () => performance.memory.usedJSHeapSize : undefined,
  report: (key, value) => (report[key] = value),
});

window.__turnwire = { runtime: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]}`, ...(await harness.run()), report };
