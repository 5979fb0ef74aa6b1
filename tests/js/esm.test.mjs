// Node, ESM: `import` resolves the package's `node` → `import` entry (dist/node.mjs).
import assert from "node:assert/strict";
import { test } from "node:test";
import * as api from "turnwire";
import { nodeHost } from "./node-host.mjs";
import { defineSuite } from "./suite.mjs";

test("import resolves dist/node.mjs", () => {
  assert.match(import.meta.resolve("turnwire"), /\/node_modules\/turnwire\/dist\/node\.mjs$/);
});

test("turnwire/init is the same module instance, already initialised", async () => {
  const init = await import("turnwire/init");
  assert.equal(init.renderBody, api.renderBody);
  assert.equal(typeof init.default, "function");
  // initSync on an initialised module returns the existing instance's exports
  const exports = init.initSync({ module: new Uint8Array() });
  assert.ok(exports.memory instanceof WebAssembly.Memory);
  assert.equal(exports.memory.buffer.byteLength, api.wasmMemoryBytes());
});

defineSuite(api, "node esm", nodeHost("node esm"));
