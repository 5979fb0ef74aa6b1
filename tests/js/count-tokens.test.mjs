// Issue 14, point 3: token-counting requests. `renderCountTokens` gives the body of Anthropic
// `count_tokens`, OpenAI Responses `input_tokens` and Gemini `countTokens` for what a render
// would send; `countTokensRequest` gives the URL and headers. The official SDKs (pinned in
// tests/js/mock-sdk) send the same bodies to the same paths: a local server captures both.
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { contextWindow, countTokensRequest, isTurnwireError, renderCountTokens, renderForProvider } from "turnwire";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const sdk = createRequire(join(SDK_DIR, "package.json"));
const { default: Anthropic } = sdk("@anthropic-ai/sdk");
const { default: OpenAI } = sdk("openai");

const FIXTURE = join(process.env.TURNWIRE_FIXTURES ?? "", "01-clean-multi-turn-tools");
const history = readFileSync(join(FIXTURE, "transcript.json"), "utf8");
const rendered = JSON.parse(readFileSync(join(FIXTURE, "options.json"), "utf8"));
const MODELS = { anthropic: "claude-sonnet-4-6", "openai-responses": "gpt-5.2", gemini: "gemini-3-pro-preview" };
const options = (provider) => ({ ...rendered, provider, model: MODELS[provider] });

describe("token counting", () => {
  let server;
  let base;
  const seen = [];
  before(async () => {
    server = createServer((req, res) => {
      let text = "";
      req.on("data", (c) => (text += c));
      req.on("end", () => {
        seen.push({ path: req.url, body: JSON.parse(text || "null") });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify(req.url.includes("countTokens") ? { totalTokens: 42 } : { input_tokens: 42, object: "response.input_tokens" }));
      });
    });
    await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
    base = `http://127.0.0.1:${server.address().port}`;
  });
  after(() => server.close());

  test("the bodies hold what each endpoint takes of the request a render sends", () => {
    const a = renderCountTokens(history, options("anthropic"));
    const full = renderForProvider(history, options("anthropic"));
    assert.deepEqual(a.body.messages, full.body.messages);
    assert.equal(a.body.max_tokens, undefined);
    const r = renderCountTokens(history, options("openai-responses"));
    assert.equal(r.body.store, undefined);
    assert.deepEqual(r.body.input, renderForProvider(history, options("openai-responses")).body.input);
    const g = renderCountTokens(history, options("gemini"));
    assert.equal(g.body.generateContentRequest.model, "models/gemini-3-pro-preview");
    assert.deepEqual(g.body.generateContentRequest.contents, renderForProvider(history, options("gemini")).body.contents);
    assert.ok(contextWindow("anthropic", "claude-sonnet-4-6") > 0);
  });

  test("the official SDKs send the same bodies to the paths countTokensRequest gives", async () => {
    const anthropic = new Anthropic({ apiKey: "k", baseURL: base, maxRetries: 0 });
    const a = renderCountTokens(history, options("anthropic")).body;
    assert.equal((await anthropic.messages.countTokens(a)).input_tokens, 42);
    const openai = new OpenAI({ apiKey: "k", baseURL: `${base}/v1`, maxRetries: 0 });
    const r = renderCountTokens(history, options("openai-responses")).body;
    assert.equal((await openai.responses.inputTokens.count(r)).input_tokens, 42);
    const g = renderCountTokens(history, options("gemini")).body;
    const gemini = countTokensRequest({ provider: "gemini", model: MODELS.gemini, apiKey: "k", baseURL: base });
    assert.equal((await (await fetch(gemini.url, { method: "POST", headers: gemini.headers, body: JSON.stringify(g) })).json()).totalTokens, 42);
    const paths = [
      new URL(countTokensRequest({ provider: "anthropic", model: MODELS.anthropic, baseURL: base }).url).pathname,
      new URL(countTokensRequest({ provider: "openai-responses", model: MODELS["openai-responses"], baseURL: `${base}/v1` }).url).pathname,
      new URL(gemini.url).pathname,
    ];
    assert.deepEqual(seen.map((s) => s.path.split("?")[0]), paths);
    assert.deepEqual(seen.map((s) => s.body), [a, r, g]);
    assert.equal(gemini.headers["x-goog-api-key"], "k");
  });

  test("a provider without a counting endpoint is an unsupported_option error; a TypeError for its URL", () => {
    assert.throws(
      () => renderCountTokens(history, { ...rendered, provider: "openai-chat", model: "gpt-5.2" }),
      (e) => isTurnwireError(e) && e.code === "unsupported_option" && e.path === "$.provider",
    );
    assert.throws(() => countTokensRequest({ provider: "mistral", model: "mistral-large-latest" }), TypeError);
  });
});
