// `turnwire/init` (the raw web glue, for hosts that load the wasm themselves) used before and
// after initialisation. Needs a fresh module graph in which no other entry has initialised the
// glue: Node runs it as its own test file (init.test.mjs), Chromium on its own page.
// `load()` initialises the glue the host's way and returns what init/initSync returned.
export function defineInitSuite(glue, load, label, host) {
  const { describe, test, assert } = host;
  const history = [{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }];
  const options = { provider: "openai-chat", model: "gpt-5.2" };
  const expected = '{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}]}';

  describe(`turnwire/init (${label})`, () => {
    test("used before init: every call throws a TypeError and nothing is half-initialised", () => {
      for (const call of [
        () => glue.renderBody(history, options),
        () => glue.renderForProvider(history, options),
        () => glue.validateRequest("openai-chat", "{}"),
        () => glue.isTurnwireError(new Error("x")),
        () => glue.wasmMemoryBytes(),
        () => new glue.Conversation(history),
      ]) {
        assert.throws(call, TypeError);
      }
      // still not initialised: the failed calls must not have left a broken instance behind
      assert.throws(() => glue.renderBody(history, options), TypeError);
    });

    test("after init the API works and its errors are TurnwireErrors", async () => {
      const exports = await load();
      assert.ok(exports.memory instanceof WebAssembly.Memory);
      assert.equal(new TextDecoder().decode(glue.renderBody(history, options)), expected);
      const c = new glue.Conversation(history);
      assert.equal(c.length, 1);
      c.free();
      let error;
      try {
        glue.renderBody("[", options);
      } catch (e) {
        error = e;
      }
      assert.ok(error instanceof Error && error.name === "TurnwireError" && error.code === "invalid_json", String(error));
      assert.ok(glue.isTurnwireError(error));
    });

    test("init and initSync again return the instance already loaded", async () => {
      const first = await load();
      assert.equal(await glue.default(), first);
      assert.equal(glue.initSync({ module: new Uint8Array() }), first);
      assert.equal(first.memory.buffer.byteLength, glue.wasmMemoryBytes());
    });
  });
}
