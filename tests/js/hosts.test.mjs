// Hosts from JavaScript (issue 32): `providerRequest`'s URL and headers for every row of the host
// table (the rows come from the installed package's table, the expected URLs are literals read
// at each host's source: a row without an expectation fails), the typed `$.host` errors, and
// streamTurn against the strict mock's host paths (Vertex Claude, Bedrock InvokeModel with SigV4
// and with a Bedrock API key, Azure OpenAI Chat and Responses, OpenRouter, xAI).
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { Conversation, isProviderError, providerRequest, repairingFetch, streamTurn } from "turnwire";
import { startMockProviders } from "turnwire/mock";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { HOST_TABLE } = await import(new URL("hosts.generated.mjs", dist).href);
const { MOCK_AWS_CREDENTIALS } = await import(new URL("mock/auth.mjs", dist).href);

const BEDROCK_CLAUDE = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const VERTEX_CLAUDE = "claude-sonnet-4-5@20250929";
const CHAT_USAGE = { stream: true, stream_options: { include_usage: true } };

/**
 * The expected request per `host wire provider`: model, the options beyond it, URL, auth and
 * version headers, streaming switches. Sources (read 2026-11-28): @anthropic-ai/bedrock-sdk and
 * vertex-sdk client.ts (anthropics/anthropic-sdk-typescript 00da52f), openai 6.49.0 azure.js,
 * @google/genai 2.32.0, and docs/provider-rules-added.md §15 for the rest.
 */
const EXPECTED = {
  "anthropic messages anthropic": ["claude-sonnet-4-5", {}, "https://api.anthropic.com/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "openai chat-completions openai-chat": ["gpt-5.2", {}, "https://api.openai.com/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "openai chat-completions openai-compatible": ["gpt-5.2", {}, "https://api.openai.com/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "openai responses openai-responses": ["gpt-5.2", {}, "https://api.openai.com/v1/responses", { authorization: "Bearer k" }, { stream: true }],
  "google generate-content gemini": ["gemini-3-pro-preview", {}, "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse", { "x-goog-api-key": "k" }, {}],
  "mistral chat-completions mistral": ["mistral-large-latest", {}, "https://api.mistral.ai/v1/chat/completions", { authorization: "Bearer k" }, { stream: true }],
  "mistral chat-completions openai-compatible": ["mistral-large-latest", {}, "https://api.mistral.ai/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "bedrock messages anthropic": [BEDROCK_CLAUDE, { region: "us-east-1" }, "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream", { authorization: "Bearer k" }, {}],
  "bedrock converse bedrock-converse": [BEDROCK_CLAUDE, { region: "eu-west-1" }, "https://bedrock-runtime.eu-west-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream", { authorization: "Bearer k" }, {}],
  "bedrock-mantle messages anthropic": ["anthropic.claude-sonnet-4-5", { region: "us-east-1" }, "https://bedrock-mantle.us-east-1.api.aws/anthropic/v1/messages", { authorization: "Bearer k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "bedrock-mantle responses openai-responses": ["openai.gpt-oss-120b", { region: "us-west-2" }, "https://bedrock-mantle.us-west-2.api.aws/openai/v1/responses", { authorization: "Bearer k" }, { stream: true }],
  "bedrock-mantle chat-completions openai-compatible": ["openai.gpt-oss-120b", { region: "us-west-2" }, "https://bedrock-mantle.us-west-2.api.aws/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "vertex messages anthropic": [VERTEX_CLAUDE, { region: "us-east5", project: "my-proj" }, "https://us-east5-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict", { authorization: "Bearer k" }, { stream: true }],
  "vertex generate-content gemini": ["gemini-3-pro-preview", { region: "us-central1", project: "my-proj" }, "https://us-central1-aiplatform.googleapis.com/v1/projects/my-proj/locations/us-central1/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse", { authorization: "Bearer k" }, {}],
  "azure chat-completions openai-chat": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.openai.azure.com/openai/v1/chat/completions", { "api-key": "k" }, CHAT_USAGE],
  "azure chat-completions openai-compatible": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.openai.azure.com/openai/v1/chat/completions", { "api-key": "k" }, CHAT_USAGE],
  "azure responses openai-responses": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.openai.azure.com/openai/v1/responses", { "api-key": "k" }, { stream: true }],
  "foundry messages anthropic": ["claude-sonnet-4-5", { resource: "my-res" }, "https://my-res.services.ai.azure.com/anthropic/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "foundry chat-completions openai-chat": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.services.ai.azure.com/openai/v1/chat/completions", { "api-key": "k" }, CHAT_USAGE],
  "foundry chat-completions openai-compatible": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.services.ai.azure.com/openai/v1/chat/completions", { "api-key": "k" }, CHAT_USAGE],
  "foundry responses openai-responses": ["my-gpt-deployment", { resource: "my-res" }, "https://my-res.services.ai.azure.com/openai/v1/responses", { "api-key": "k" }, { stream: true }],
  "openrouter chat-completions openai-chat": ["anthropic/claude-sonnet-4.5", {}, "https://openrouter.ai/api/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "openrouter chat-completions openai-compatible": ["anthropic/claude-sonnet-4.5", {}, "https://openrouter.ai/api/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "xai chat-completions openai-compatible": ["grok-4", {}, "https://api.x.ai/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "xai responses openai-responses": ["grok-4", {}, "https://api.x.ai/v1/responses", { authorization: "Bearer k" }, { stream: true }],
  "deepseek chat-completions deepseek": ["deepseek-chat", {}, "https://api.deepseek.com/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "deepseek chat-completions openai-compatible": ["deepseek-chat", {}, "https://api.deepseek.com/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "deepseek messages anthropic": ["deepseek-chat", {}, "https://api.deepseek.com/anthropic/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "kimi chat-completions kimi": ["kimi-k2-thinking", {}, "https://api.moonshot.ai/v1/chat/completions", { authorization: "Bearer k" }, { stream: true }],
  "kimi chat-completions openai-compatible": ["kimi-k2-thinking", {}, "https://api.moonshot.ai/v1/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "kimi messages anthropic": ["kimi-k2-thinking", {}, "https://api.moonshot.ai/anthropic/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "zai chat-completions openai-compatible": ["glm-4.6", {}, "https://api.z.ai/api/paas/v4/chat/completions", { authorization: "Bearer k" }, CHAT_USAGE],
  "zai messages anthropic": ["glm-4.6", {}, "https://api.z.ai/api/anthropic/v1/messages", { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
  "ollama chat-completions openai-compatible": ["qwen3:8b", {}, "http://localhost:11434/v1/chat/completions", {}, CHAT_USAGE],
  "ollama ollama-chat ollama": ["qwen3:8b", {}, "http://localhost:11434/api/chat", {}, { stream: true }],
};

const AUTH_AND_VERSION = ["authorization", "x-api-key", "api-key", "x-goog-api-key", "anthropic-version"];

describe("providerRequest with a host", () => {
  const rows = HOST_TABLE.rows.flatMap((r) => r.providers.map((p) => [`${r.host} ${r.wire} ${p}`, r, p]));
  test("every (host, wire, provider) of the table has an expected request here", () => {
    assert.ok(rows.length >= 30, String(rows.length));
    assert.deepEqual(rows.map(([k]) => k).filter((k) => !(k in EXPECTED)), []);
  });
  for (const [key, row, provider] of rows) {
    test(`${key}: URL, auth and version headers, streaming switches`, () => {
      const [model, extra, url, headers, switches] = EXPECTED[key];
      const req = providerRequest({ provider, model, apiKey: "k", host: row.host, ...extra });
      assert.equal(req.url, url);
      assert.equal(req.host, row.host);
      const got = Object.fromEntries(AUTH_AND_VERSION.filter((h) => h in req.headers).map((h) => [h, req.headers[h]]));
      assert.deepEqual(got, headers);
      assert.deepEqual(req.extra, switches);
      // AWS event-stream frames on Bedrock, NDJSON from Ollama's native wire, SSE elsewhere
      assert.equal(req.headers.accept, row.host === "bedrock" ? "application/vnd.amazon.eventstream" : row.wire === "ollama-chat" ? "application/x-ndjson" : "text/event-stream");
      assert.equal(req.framing, row.host === "bedrock" ? "event-stream" : undefined);
    });
  }

  test("the first-party hosts give the same request as no host", () => {
    for (const [provider, model] of [["anthropic", "claude-sonnet-4-5"], ["openai-chat", "gpt-5.2"], ["openai-responses", "gpt-5.2"], ["gemini", "gemini-3-pro-preview"]]) {
      const host = HOST_TABLE.defaults[provider];
      const a = providerRequest({ provider, model, apiKey: "k" });
      const b = providerRequest({ provider, model, apiKey: "k", host });
      assert.equal(b.url, a.url, provider);
      assert.deepEqual({ ...b.headers }, { ...a.headers }, provider);
      assert.deepEqual(b.extra, a.extra, provider);
    }
  });

  test("Vertex: region global and the multi-regions, express mode, a caller's base URL", () => {
    const claude = (o) => providerRequest({ provider: "anthropic", model: VERTEX_CLAUDE, apiKey: "t", host: "vertex", project: "p", ...o }).url;
    assert.equal(claude({ region: "global" }), "https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
    assert.equal(claude({ region: "eu" }), "https://aiplatform.eu.rep.googleapis.com/v1/projects/p/locations/eu/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
    assert.equal(claude({ region: "us-east5", baseURL: "http://127.0.0.1:9/v1/" }), "http://127.0.0.1:9/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
    const express = providerRequest({ provider: "gemini", model: "gemini-3-pro-preview", apiKey: "AQ.k", host: "vertex" });
    assert.equal(express.url, "https://aiplatform.googleapis.com/v1/publishers/google/models/gemini-3-pro-preview:streamGenerateContent?alt=sse");
    assert.equal(express.headers["x-goog-api-key"], "AQ.k");
    assert.equal(express.headers.authorization, undefined);
  });

  test("a missing or bent placeholder is a TypeError naming the option, never a URL built from it", () => {
    assert.throws(() => providerRequest({ provider: "anthropic", model: "m", host: "vertex", region: "us-east5" }), { name: "TypeError", message: /vertex needs a project/ });
    assert.throws(() => providerRequest({ provider: "anthropic", model: "m", host: "vertex", project: "p" }), { name: "TypeError", message: /vertex needs a region/ });
    assert.throws(() => providerRequest({ provider: "openai-chat", model: "m", host: "azure" }), { name: "TypeError", message: /azure needs a resource/ });
    assert.throws(() => providerRequest({ provider: "openai-chat", model: "m", host: "azure", resource: "evil.com/x#" }), { name: "TypeError", message: /azure needs a resource/ });
    assert.throws(() => providerRequest({ provider: "anthropic", model: "m", host: "bedrock", region: "us-east-1.evil.com" }), { name: "TypeError", message: /bedrock needs a region/ });
  });

  test("an unknown host, or one that does not serve the provider: invalid_value at $.host", () => {
    assert.throws(() => providerRequest({ provider: "anthropic", model: "m", host: "aws" }), (e) => {
      assert.equal(e.name, "TurnwireError");
      assert.equal(e.code, "invalid_value");
      assert.equal(e.path, "$.host");
      assert.match(e.message, /unknown host `aws`; expected one of anthropic, openai, google, mistral, bedrock, /);
      return true;
    });
    assert.throws(() => providerRequest({ provider: "openai-chat", model: "m", host: "vertex", region: "us-east5", project: "p" }), (e) => {
      assert.equal(e.code, "invalid_value");
      assert.equal(e.path, "$.host");
      assert.equal(e.message, "host `vertex` does not serve provider `openai-chat`; vertex serves anthropic, gemini");
      return true;
    });
    assert.throws(() => providerRequest({ provider: "gemini", model: "m", host: "bedrock", region: "us-east-1" }), { code: "invalid_value", path: "$.host" });
  });
});

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const TOOLS = [{ name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }];

describe("streamTurn with a host, against the mock", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders({ apiKey: "test-key" });
  });
  after(async () => {
    await mock?.close();
  });
  beforeEach(() => mock.reset());

  const origin = (provider) => new URL(mock.baseURL(provider)).origin;
  const accepted = (provider) => {
    const stats = mock.endpoint(provider).stats;
    assert.equal(stats.rejected, 0, JSON.stringify(mock.endpoint(provider).log.filter((e) => e.outcome === "rejected").map((e) => [e.path, e.error, e.violations])));
  };
  async function run(options) {
    const conversation = new Conversation([human("What is in src/?")]);
    const t = streamTurn({ conversation, ...options });
    const deltas = [];
    for await (const d of t) deltas.push(d);
    const result = await t;
    return { result, deltas, conversation };
  }

  test("Vertex Claude: :streamRawPredict with the access token as Bearer, the body with anthropic_version and no model", async () => {
    const { result, deltas } = await run({ provider: "anthropic", model: VERTEX_CLAUDE, apiKey: "test-key", host: "vertex", region: "us-east5", project: "my-proj", baseURL: `${origin("anthropic")}/v1` });
    assert.ok(deltas.some((d) => d.type === "text"));
    assert.equal(result.message.metadata.host, "vertex");
    const [entry] = mock.endpoint("anthropic").log;
    assert.equal(entry.path, "/v1/projects/my-proj/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict");
    assert.equal(entry.body.anthropic_version, "vertex-2023-10-16");
    assert.equal(entry.body.model, undefined);
    assert.equal(entry.body.stream, true);
    assert.equal(entry.headers["anthropic-version"], undefined);
    accepted("anthropic");
    // the next turn, with tools, continues the same conversation on the same host
    mock.script("anthropic", { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a.txt" } }] });
    const next = await run({ provider: "anthropic", model: VERTEX_CLAUDE, apiKey: "test-key", host: "vertex", region: "us-east5", project: "my-proj", baseURL: `${origin("anthropic")}/v1`, render: { tools: TOOLS } });
    assert.equal(next.result.message.blocks[0].type, "tool_call");
    accepted("anthropic");
  });

  test("Vertex Claude without or with a wrong access token: Google's 401", async () => {
    for (const apiKey of [undefined, "wrong"]) {
      mock.reset();
      await assert.rejects(run({ provider: "anthropic", model: VERTEX_CLAUDE, apiKey, host: "vertex", region: "us-east5", project: "p", baseURL: `${origin("anthropic")}/v1` }), (e) => {
        assert.ok(isProviderError(e));
        assert.equal(e.status, 401);
        assert.match(e.message, /authentication credential/);
        return true;
      });
    }
  });

  for (const auth of ["bearer", "sigv4"]) {
    test(`Bedrock InvokeModel (${auth}): /invoke-with-response-stream, event-stream chunk frames decoded, the body with bedrock-2023-05-31 and no model or stream`, async () => {
      const credentials = auth === "bearer" ? { apiKey: "test-key", region: "us-east-1" } : { aws: { ...MOCK_AWS_CREDENTIALS, region: "us-east-1" } };
      mock.script("anthropic", {
        blocks: [
          { type: "thinking", thinking: "Look first." },
          { type: "text", text: "Let me look." },
          { type: "tool_call", name: "read_file", arguments: { path: "a.txt" } },
        ],
      });
      const { result, deltas } = await run({ provider: "anthropic", model: BEDROCK_CLAUDE, host: "bedrock", baseURL: origin("anthropic"), render: { tools: TOOLS, thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 }, ...credentials });
      assert.ok(deltas.some((d) => d.type === "text"), JSON.stringify(deltas));
      assert.deepEqual(result.message.blocks.map((b) => b.type), ["thinking", "text", "tool_call"]);
      assert.equal(result.stopReason, "tool_use");
      assert.equal(result.message.metadata.host, "bedrock");
      const [entry] = mock.endpoint("anthropic").log;
      assert.equal(entry.path, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream");
      assert.equal(entry.body.anthropic_version, "bedrock-2023-05-31");
      assert.equal(entry.body.model, undefined);
      assert.equal(entry.body.stream, undefined);
      accepted("anthropic");
    });
  }

  test("Bedrock InvokeModel with a wrong secret: 403 InvalidSignatureException, nothing sent twice", async () => {
    await assert.rejects(
      run({ provider: "anthropic", model: BEDROCK_CLAUDE, host: "bedrock", baseURL: origin("anthropic"), aws: { ...MOCK_AWS_CREDENTIALS, secretAccessKey: "not-the-secret", region: "us-east-1" } }),
      (e) => {
        assert.ok(isProviderError(e));
        assert.equal(e.status, 403);
        assert.equal(e.errorType, "InvalidSignatureException");
        return true;
      },
    );
  });

  test("Bedrock InvokeModel: a body the host refuses is AWS's 400 ValidationException (x-amzn-errortype), a Vertex one Anthropic's 400", async () => {
    const bad = JSON.stringify({ max_tokens: 64, messages: [{ role: "user", content: "hi" }] }); // no anthropic_version
    const bedrock = await fetch(`${origin("anthropic")}/model/${encodeURIComponent(BEDROCK_CLAUDE)}/invoke`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer test-key" }, body: bad });
    assert.equal(bedrock.status, 400);
    assert.match(bedrock.headers.get("x-amzn-errortype") ?? "", /^ValidationException:/);
    assert.match((await bedrock.json()).message, /anthropic_version/);
    const vertex = await fetch(`${origin("anthropic")}/v1/projects/p/locations/us-east5/publishers/anthropic/models/${VERTEX_CLAUDE}:rawPredict`, { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer test-key" }, body: bad });
    assert.equal(vertex.status, 400);
    assert.equal((await vertex.json()).type, "error");
  });

  for (const provider of ["openai-chat", "openai-responses"]) {
    test(`Azure OpenAI (${provider}): /openai/v1 with the key in api-key, the deployment as model`, async () => {
      const { result } = await run({ provider, model: "my-gpt-deployment", apiKey: "test-key", host: "azure", baseURL: `${origin(provider)}/openai/v1` });
      assert.ok(result.message.blocks.length > 0);
      assert.equal(result.message.metadata.host, "azure");
      const [entry] = mock.endpoint(provider).log;
      assert.equal(entry.path, provider === "openai-chat" ? "/openai/v1/chat/completions" : "/openai/v1/responses");
      assert.equal(entry.headers["api-key"], "***");
      assert.equal(entry.headers.authorization, undefined);
      assert.equal(entry.body.model, "my-gpt-deployment");
      accepted(provider);
    });
  }

  test("Azure with a wrong key: Azure's 401", async () => {
    await assert.rejects(run({ provider: "openai-chat", model: "d", apiKey: "wrong", host: "azure", baseURL: `${origin("openai-chat")}/openai/v1` }), (e) => {
      assert.equal(e.status, 401);
      assert.match(e.message, /invalid subscription key/);
      return true;
    });
  });

  test("OpenRouter (Chat) and xAI (Responses): Bearer at the base URL given, the host on the message", async () => {
    const or = await run({ provider: "openai-chat", model: "anthropic/claude-sonnet-4.5", apiKey: "test-key", host: "openrouter", baseURL: mock.baseURL("openai-chat") });
    assert.equal(or.result.message.metadata.host, "openrouter");
    assert.equal(mock.endpoint("openai-chat").log[0].path, "/v1/chat/completions");
    accepted("openai-chat");
    const xai = await run({ provider: "openai-responses", model: "grok-4", apiKey: "test-key", host: "xai", baseURL: mock.baseURL("openai-responses") });
    assert.equal(xai.result.message.metadata.host, "xai");
    accepted("openai-responses");
  });

  test("a host that does not serve the provider rejects the turn with invalid_value at $.host, nothing sent", async () => {
    await assert.rejects(run({ provider: "openai-chat", model: "m", apiKey: "k", host: "bedrock", region: "us-east-1", baseURL: mock.baseURL("openai-chat") }), { code: "invalid_value", path: "$.host" });
    assert.equal(mock.endpoint("openai-chat").log.length, 0);
  });
});

describe("repairingFetch recognises host URLs", () => {
  // an Anthropic body with a tool call left without its result: the repair answers it
  const body = (envelope) =>
    JSON.stringify({
      ...envelope,
      max_tokens: 256,
      messages: [
        { role: "user", content: "list src" },
        { role: "assistant", content: [{ type: "tool_use", id: "toolu_01", name: "ls", input: {} }] },
        { role: "user", content: "never mind, say hi" },
      ],
    });
  async function through(url, sent, headers = { "content-type": "application/json" }) {
    const seen = [];
    const errors = [];
    const diagnostics = [];
    const f = repairingFetch({
      fetch: async (u, init) => {
        seen.push({ url: String(u), body: init.body });
        return new Response("{}", { status: 200, headers: { "content-type": "application/json" } });
      },
      onDiagnostics: (d, info) => diagnostics.push(info),
      onError: (e) => errors.push(e),
    });
    await f(url, { method: "POST", headers, body: sent });
    const out = seen[0].body;
    return { forwarded: typeof out === "string" ? out : new TextDecoder().decode(out), errors, diagnostics };
  }

  test("Vertex :streamRawPredict: repaired as anthropic on vertex, the envelope kept (anthropic_version, no model)", async () => {
    const url = "https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict";
    const { forwarded, diagnostics } = await through(url, body({ anthropic_version: "vertex-2023-10-16", stream: true }));
    const b = JSON.parse(forwarded);
    assert.equal(b.anthropic_version, "vertex-2023-10-16");
    assert.equal(b.model, undefined);
    assert.equal(b.stream, true);
    assert.ok(JSON.stringify(b.messages).includes("tool_result"), forwarded);
    assert.equal(diagnostics[0]?.provider, "anthropic");
    assert.equal(diagnostics[0]?.model, "claude-sonnet-4-5@20250929");
  });

  test("Bedrock InvokeModel with a Bedrock API key: repaired, bedrock-2023-05-31 and no stream field", async () => {
    const url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream";
    const { forwarded } = await through(url, body({ anthropic_version: "bedrock-2023-05-31" }), { "content-type": "application/json", authorization: "Bearer k" });
    const b = JSON.parse(forwarded);
    assert.equal(b.anthropic_version, "bedrock-2023-05-31");
    assert.equal(b.model, undefined);
    assert.equal(b.stream, undefined);
    assert.ok(JSON.stringify(b.messages).includes("tool_result"), forwarded);
  });

  test("Bedrock InvokeModel signed with SigV4: sent as it is (the signature covers the body), with an onError", async () => {
    const url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/invoke";
    const sent = body({ anthropic_version: "bedrock-2023-05-31" });
    const auth = "AWS4-HMAC-SHA256 Credential=AKID/20261128/us-east-1/bedrock/aws4_request, SignedHeaders=host;x-amz-date, Signature=" + "0".repeat(64);
    const { forwarded, errors } = await through(url, sent, { "content-type": "application/json", authorization: auth });
    assert.equal(forwarded, sent);
    assert.match(String(errors[0]?.message), /SigV4/);
  });
});
