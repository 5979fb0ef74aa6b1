// Issue 30, point 6: the provider table (js/provider-http.mts, internal: read here from the
// installed package's dist/) is what providerRequest, countTokensRequest and the mock providers
// say, for every provider: the table's rows and what they produce agree.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { countTokensRequest, DEFAULT_BASE_URLS, providerRequest, StreamDecoder, streamTurn } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const table = await import(new URL("provider-http.mjs", dist).href);
const routes = await import(new URL("mock/routes.mjs", dist).href);
const { PROVIDER_HTTP, PROVIDERS, WIRE_HTTP, WIRES } = table;
/** Every wire API of the table (WIRES: only those repairingFetch recognises by path). */
const ALL_WIRES = Object.keys(WIRE_HTTP);

const BASE = "http://127.0.0.1:9/base";
const MODEL = "models/gemini 3 pro";

describe("the provider table", () => {
  test("has one row per provider, in the mock providers' order, each on a wire API of WIRE_HTTP", () => {
    const order = ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible", "bedrock-converse", "ollama"];
    assert.deepEqual([...PROVIDERS], order);
    assert.deepEqual([...MOCK_PROVIDERS], order);
    assert.ok(Object.isFrozen(MOCK_PROVIDERS));
    for (const p of PROVIDERS) assert.ok(ALL_WIRES.includes(PROVIDER_HTTP[p].wire), p);
    for (const w of ALL_WIRES) assert.equal(PROVIDER_HTTP[WIRE_HTTP[w].defaultProvider].wire, w, w);
    // repairingFetch leaves Converse (a SigV4 signature covers the body) and Ollama alone
    assert.deepEqual([...WIRES], ["generate-content", "messages", "responses", "chat-completions"]);
  });

  test("each row's wire is the wire API Rust gives the provider (vocab/wire_api.rs): the two tables never drift", () => {
    for (const p of PROVIDERS) {
      const decoder = new StreamDecoder(p, { model: "m" });
      try {
        assert.equal(decoder.finish().message.metadata.api, PROVIDER_HTTP[p].wire, p);
      } finally {
        decoder.free();
      }
    }
  });

  test("DEFAULT_BASE_URLS are the rows' base URLs", () => {
    const expected = Object.fromEntries(PROVIDERS.filter((p) => PROVIDER_HTTP[p].baseURL !== undefined).map((p) => [p, PROVIDER_HTTP[p].baseURL]));
    assert.deepEqual({ ...DEFAULT_BASE_URLS }, expected);
    assert.equal(DEFAULT_BASE_URLS.anthropic, "https://api.anthropic.com");
  });

  test("providerRequest sends each provider's row: path, key placement, version headers, streaming switches", () => {
    for (const provider of PROVIDERS) {
      const row = PROVIDER_HTTP[provider];
      const wire = WIRE_HTTP[row.wire];
      const r = providerRequest({ provider, model: MODEL, apiKey: "k", baseURL: BASE });
      assert.equal(r.url, BASE + table.withModel(wire.streamPath, MODEL), provider);
      assert.equal(r.headers[wire.keyHeader], wire.keyHeader === "authorization" ? "Bearer k" : "k", provider);
      for (const [name, value] of Object.entries(wire.versionHeaders)) assert.equal(r.headers[name], value, provider);
      assert.deepEqual(r.extra, table.streamSwitches(provider), provider);
      assert.equal(r.extra.stream, wire.streamField ? true : undefined, provider);
      assert.equal(r.extra.stream_options?.include_usage, row.usageOption ? true : undefined, provider);
    }
  });

  test("the facts the README states: Anthropic, Gemini, chat and Responses", () => {
    assert.equal(providerRequest({ provider: "anthropic", model: "m", apiKey: "k" }).headers["anthropic-version"], "2023-06-01");
    assert.equal(
      providerRequest({ provider: "gemini", model: "models/gemini-2.5-flash", apiKey: "k" }).url,
      "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
    );
    assert.equal(providerRequest({ provider: "kimi", model: "m" }).url, "https://api.moonshot.ai/v1/chat/completions");
    assert.equal(providerRequest({ provider: "openai-responses", model: "m" }).url, "https://api.openai.com/v1/responses");
  });

  test("countTokensRequest goes to the wire's counting path, and only where there is one", () => {
    for (const provider of PROVIDERS) {
      const path = WIRE_HTTP[PROVIDER_HTTP[provider].wire].countTokensPath;
      if (path === undefined) {
        assert.throws(() => countTokensRequest({ provider, model: MODEL, baseURL: BASE }), /has no token-counting endpoint \(anthropic, openai-responses and gemini have one\)/);
      } else {
        assert.equal(countTokensRequest({ provider, model: MODEL, baseURL: BASE }).url, BASE + table.withModel(path, MODEL), provider);
      }
    }
  });

  test("the mock serves, at its baseURL, the path providerRequest gives (and only its own)", async () => {
    const mock = await startMockProviders();
    try {
      for (const provider of PROVIDERS) {
        const baseURL = mock.baseURL(provider);
        const origin = new URL(baseURL).origin;
        assert.equal(baseURL, table.mockBaseURL(provider, origin), provider);
        assert.equal(baseURL.endsWith("/v1"), PROVIDER_HTTP[provider].v1InBase, provider);
        const url = new URL(providerRequest({ provider, model: "m", baseURL }).url);
        assert.notEqual(routes.route(provider, url.pathname, url.searchParams), null, `${provider} ${url.pathname}`);
        for (const other of ALL_WIRES.filter((w) => w !== PROVIDER_HTTP[provider].wire)) {
          const path = new URL(baseURL + table.withModel(WIRE_HTTP[other].streamPath, "m")).pathname;
          assert.equal(routes.route(provider, path, new URLSearchParams()), null, `${provider} ${path}`);
        }
      }
    } finally {
      await mock.close();
    }
  });
});

describe("issue 31, ANT-42: the headers a body needs go with it", () => {
  test("withBodyHeaders joins anthropic-beta values once each and sets the others", () => {
    const base = { "x-api-key": "k", "anthropic-version": "2023-06-01", "Anthropic-Beta": "a,b" };
    assert.deepEqual(table.withBodyHeaders(base, { "anthropic-beta": "b,c", "anthropic-user-profile-id": "up_1" }), {
      "x-api-key": "k", "anthropic-version": "2023-06-01", "Anthropic-Beta": "a,b,c", "anthropic-user-profile-id": "up_1",
    });
    assert.deepEqual(table.withBodyHeaders(base, undefined), base);
  });

  test("streamTurn sends betas and user_profile_id given as providerOptions as headers, not in the body", async () => {
    let sent;
    const fetch = async (url, init) => {
      sent = init;
      return new Response(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "stop here" } }), { status: 400, headers: { "content-type": "application/json" } });
    };
    await assert.rejects(async () => {
      await streamTurn({
        provider: "anthropic", model: "claude-opus-5", apiKey: "k", fetch,
        transcript: [{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }],
        render: { maxTokens: 100, providerOptions: { anthropic: { betas: ["fast-mode-2026-02-01"], user_profile_id: "up_1" } } },
      });
    });
    const headers = Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [k.toLowerCase(), v]));
    assert.equal(headers["anthropic-beta"], "fast-mode-2026-02-01");
    assert.equal(headers["anthropic-user-profile-id"], "up_1");
    const body = JSON.parse(typeof sent.body === "string" ? sent.body : new TextDecoder().decode(sent.body));
    assert.equal(body.betas, undefined);
    assert.equal(body.user_profile_id, undefined);
  });
});
