// ORT-03: OpenRouter wraps an upstream provider's error (`{"error": {"message": "Provider
// returned error", "code", "metadata": {"raw", "provider_name"}}}`, microsoft/agent-framework#2947;
// typed `metadata.error_type`, OpenRouter "Errors and Debugging"): the error is classified by the
// upstream's type and status where the body gives them.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { Conversation, isProviderError, streamTurn } from "turnwire";

const GEMINI_RAW =
  'Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks. Upstream error: {\n  "error": {\n    "code": 400,\n    "message": "Function call is missing a thought_signature in functionCall parts.",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n';

/** path → [status, body] */
const ANSWERS = {
  "gemini-wrapped": [400, { error: { message: "Provider returned error", code: 400, metadata: { raw: GEMINI_RAW, provider_name: "Google AI Studio" } }, user_id: "user_1" }],
  "upstream-overloaded": [
    400,
    { error: { message: "Provider returned error", code: 400, metadata: { raw: JSON.stringify({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } }), provider_name: "Anthropic" } } },
  ],
  "upstream-429-in-502": [502, { error: { message: "Provider returned error", code: 502, metadata: { raw: { error: { code: 429, message: "Resource exhausted", status: "RESOURCE_EXHAUSTED" } }, provider_name: "Google" } } }],
  "typed": [429, { error: { code: 429, message: "Rate limit exceeded", metadata: { error_type: "rate_limit_exceeded", provider_code: "rate_limited" } } }],
};

let server;
let base;
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    const [status, body] = ANSWERS[req.url.split("/")[1]] ?? [404, { error: { message: "no route", code: 404 } }];
    res.writeHead(status, { "content-type": "application/json" });
    res.end(JSON.stringify(body));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(async () => {
  await new Promise((resolve) => server.close(resolve));
});

async function fail(path) {
  const conversation = new Conversation([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }]);
  try {
    await streamTurn({ provider: "openai-compatible", model: "google/gemini-3-pro-preview", apiKey: "k", baseURL: `${base}/${path}`, conversation });
  } catch (e) {
    return e;
  } finally {
    conversation.free();
  }
  assert.fail("the turn resolved");
}

describe("ORT-03: OpenRouter's wrapped upstream errors", () => {
  test("a Gemini 400 inside OpenRouter's error: Google's status, both messages, not retryable", async () => {
    const e = await fail("gemini-wrapped");
    assert.ok(isProviderError(e));
    assert.equal(e.status, 400);
    assert.equal(e.errorType, "INVALID_ARGUMENT");
    assert.equal(e.retryable, false);
    assert.match(e.message, /\[Google AI Studio\]/);
    assert.match(e.message, /Gemini models require OpenRouter reasoning details to be preserved in each request/);
  });
  test("an upstream overload wrapped in a 400 is retryable by its type", async () => {
    const e = await fail("upstream-overloaded");
    assert.equal(e.errorType, "overloaded_error");
    assert.equal(e.retryable, true);
    assert.match(e.message, /\[Anthropic\] Overloaded/);
  });
  test("the upstream status decides over OpenRouter's: a 429 inside a 502 is retryable", async () => {
    const e = await fail("upstream-429-in-502");
    assert.equal(e.errorType, "RESOURCE_EXHAUSTED");
    assert.equal(e.retryable, true);
  });
  test("OpenRouter's typed error_type is the error type", async () => {
    const e = await fail("typed");
    assert.equal(e.errorType, "rate_limit_exceeded");
    assert.equal(e.retryable, true);
  });
});
