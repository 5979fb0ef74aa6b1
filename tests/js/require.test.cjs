// A plain CommonJS consumer: require() at the top level, nothing else.
const assert = require("node:assert/strict");
const { test } = require("node:test");
const { renderBody, renderForProvider, isTurnwireError, Conversation } = require("turnwire");

test("a CommonJS file can require the package and render", () => {
  const history = [{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }];
  const options = { provider: "openai-chat", model: "gpt-5.2" };
  assert.equal(
    new TextDecoder().decode(renderBody(history, options)),
    '{"model":"gpt-5.2","messages":[{"role":"user","content":"hi"}]}',
  );
  assert.deepEqual(renderForProvider(history, options).idMap, {});
  const c = new Conversation(history);
  assert.equal(c.length, 1);
  c.free();
  assert.throws(() => renderBody("[", options), (e) => isTurnwireError(e) && e.code === "invalid_json");
});
