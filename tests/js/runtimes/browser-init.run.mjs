// Chromium, a page of its own: `turnwire/init` before and after `await init(...)`, the wasm URL
// taken from the `turnwire/wasm` export (import map).
import * as glue from "turnwire/init";
import assert from "./assert.mjs";
import { createHarness } from "./harness.mjs";
import { defineInitSuite } from "./init-suite.mjs";

const harness = createHarness();
const load = () => glue.default({ module_or_path: new URL(import.meta.resolve("turnwire/wasm")) });
defineInitSuite(glue, load, "chromium", { describe: harness.describe, test: harness.test, assert });
window.__turnwire = { runtime: `Chromium ${navigator.userAgent.match(/Chrome\/([\d.]+)/)?.[1]} (turnwire/init)`, ...(await harness.run()), report: {} };
