// Node, CommonJS: `require()` resolves the package's `node` → `require` entry (dist/node.cjs,
// the wasm-bindgen nodejs glue), a second copy of the module with its own wasm instance.
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { test } from "node:test";
import * as esm from "turnwire";
import { nodeHost } from "./node-host.mjs";
import { defineSuite } from "./suite.mjs";

const require = createRequire(import.meta.url);
const api = require("turnwire");

test("require resolves dist/node.cjs", () => {
  assert.match(require.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/node\.cjs$/);
});

test("errors from one copy are recognised by the other", () => {
  let error;
  try {
    api.renderBody("[{", { provider: "anthropic", model: "m" });
  } catch (e) {
    error = e;
  }
  assert.ok(esm.isTurnwireError(error));
  assert.ok(api.isTurnwireError(error));
});

defineSuite(api, "node cjs", nodeHost("node cjs"));
