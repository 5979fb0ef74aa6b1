// The code run inside the edge VM (edge.run.mjs bundles it with esbuild under the `edge-light`
// condition, as Next's and Vercel's edge compilers do): `import "turnwire"` as an edge function
// would. It runs the suite and leaves the summary, as JSON text, where the outer realm reads it.
import * as api from "turnwire";
import assert from "./lib/assert.mjs";
import edgeAssert from "./lib/edge-assert.mjs";
import { createHarness } from "./lib/harness.mjs";
import { defineSuite } from "./lib/suite.mjs";

globalThis.__turnwireRun = async (fixturesText, mockText) => {
  const harness = createHarness();
  const report = {};
  harness.test("runs in the edge VM: no Buffer, no process, no require", () => {
    assert.equal(typeof globalThis.Buffer, "undefined");
    assert.equal(typeof globalThis.process, "undefined");
    assert.equal(typeof globalThis.require, "undefined");
    assert.equal(typeof globalThis.EdgeRuntime, "string");
  });
  harness.test("TextEncoder's arrays come from another realm than turnwire's (why edge-assert.mjs exists)", () => {
    assert.notEqual(Object.getPrototypeOf(new TextEncoder().encode("x")), Uint8Array.prototype);
    assert.equal(Object.getPrototypeOf(api.renderBody([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }], { provider: "openai-chat", model: "gpt-5.2" })), Uint8Array.prototype);
  });
  harness.test("code generation is off here: eval and wasm from bytes throw", () => {
    assert.throws(() => (0, eval)("1"), EvalError);
    // the smallest valid module: "\0asm", version 1
    const bytes = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]);
    assert.throws(() => new WebAssembly.Module(bytes), WebAssembly.CompileError);
  });
  defineSuite(api, "edge-light", {
    describe: harness.describe,
    test: harness.test,
    assert: edgeAssert,
    fixtures: JSON.parse(fixturesText),
    mock: mockText ? JSON.parse(mockText) : undefined,
    report: (key, value) => (report[key] = value),
  });
  return JSON.stringify({ ...(await harness.run()), report });
};
