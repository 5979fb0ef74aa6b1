// turnwire/mock against the installed tarball (scripts/test-js.sh runs it in the scratch
// consumer): the strict local mock providers accept what turnwire renders, answer broken bodies
// with the provider's own 400, play scripted turns back in each provider's stream format, and
// count what they answered.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, beforeEach, describe, test } from "node:test";
import { isValidToolId, renderBody } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { authHeaders, decode, decodeJSON, MODELS, parseEventStream, parseNdjson, parseSSE, post, streamEvents } from "./mock-helpers.mjs";

const FIXTURE = join(process.env.TURNWIRE_FIXTURES ?? "", "01-clean-multi-turn-tools");
const TRANSCRIPT = readFileSync(join(FIXTURE, "transcript.json"), "utf8");
const OPTIONS = JSON.parse(readFileSync(join(FIXTURE, "options.json"), "utf8"));
const PRIOR_CALLS = 3; // tool calls in the fixture's history (Kimi numbers new ones after them)

/** The fixture rendered by turnwire for `provider`, streaming or not. */
function rendered(provider, { stream = true, model = MODELS[provider] } = {}) {
  const extra = {};
  // Ollama streams unless told otherwise; Gemini and Bedrock say it in the URL
  if (provider === "ollama") extra.stream = stream;
  else if (stream && provider !== "gemini" && provider !== "bedrock-converse") extra.stream = true;
  if (stream && (provider === "openai-chat" || provider === "deepseek" || provider === "openai-compatible"))
    extra.stream_options = { include_usage: true };
  return renderBody(TRANSCRIPT, { provider, model, ...OPTIONS, extra });
}

const TEXT = "The edition is 2021 — see Cargo.toml. ✓";
const TOOL_TURN = {
  blocks: [
    { type: "text", text: "Reading both." },
    { type: "tool_call", name: "read_file", arguments: { path: "Cargo.toml" } },
    { type: "tool_call", name: "read_file", arguments: { path: "README.md", maxLines: 3 } },
  ],
};

/** Each provider's own tool-call id format (turnwire's isValidToolId formats). */
const ID_FORMAT = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  "openai-responses": "responses",
  mistral: "mistral",
  kimi: "kimi",
  deepseek: "openai",
  "openai-compatible": "openai",
};
/** The id formats isValidToolId has no name for. */
const ID_PATTERN = { "bedrock-converse": /^tooluse_[A-Za-z0-9_-]{22}$/, ollama: /^call_[a-z0-9]{8}$/ };

/** A streamed answer's events: SSE, NDJSON (Ollama) or AWS event-stream messages (Bedrock). */
async function streamed(res) {
  assert.equal(res.status, 200, await res.clone().text());
  return streamEvents(res);
}

let mock;
before(async () => {
  mock = await startMockProviders();
});
after(async () => {
  await mock?.close();
});
beforeEach(() => {
  mock.reset();
});

describe("servers", () => {
  test("one server per wire format on 127.0.0.1, with the documented base URLs", () => {
    assert.deepEqual([...mock.providers], [...MOCK_PROVIDERS]);
    assert.equal(MOCK_PROVIDERS.length, 10);
    const ports = new Set();
    for (const p of MOCK_PROVIDERS) {
      const e = mock.endpoint(p);
      assert.match(e.origin, /^http:\/\/127\.0\.0\.1:\d+$/);
      assert.equal(e.origin, `http://127.0.0.1:${e.port}`);
      ports.add(e.port);
      const bare = p === "anthropic" || p === "gemini" || p === "deepseek" || p === "bedrock-converse" || p === "ollama";
      assert.equal(e.baseURL, bare ? e.origin : `${e.origin}/v1`, p);
      assert.equal(mock.baseURL(p), e.baseURL);
    }
    assert.equal(ports.size, 10);
    assert.throws(() => mock.endpoint("bedrock"), RangeError);
  });

  test("CORS: a browser preflight is allowed and not counted; answers carry allow-origin", async () => {
    const pre = await fetch(`${mock.baseURL("openai-chat")}/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:5173", "access-control-request-method": "POST", "access-control-request-headers": "authorization,content-type" },
    });
    assert.equal(pre.status, 204);
    assert.equal(pre.headers.get("access-control-allow-origin"), "*");
    assert.equal(pre.headers.get("access-control-allow-headers"), "authorization,content-type");
    const res = await post(mock, "openai-chat", rendered("openai-chat"), { stream: true });
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    await res.text();
    assert.deepEqual(mock.stats, { accepted: 1, rejected: 0, scriptedErrors: 0 });
  });

  test("a subset of providers, and an unknown one refused", async () => {
    const two = await startMockProviders({ providers: ["gemini", "anthropic"] });
    try {
      assert.deepEqual([...two.providers], ["gemini", "anthropic"]);
      assert.throws(() => two.script("openai-chat", { text: "x" }), /not running/);
    } finally {
      await two.close();
    }
    await assert.rejects(startMockProviders({ providers: ["openai-chat", "cohere"] }), RangeError);
  });
});

describe("every provider accepts turnwire's body and streams back parseably", () => {
  for (const provider of MOCK_PROVIDERS) {
    test(`${provider}: text turn, streamed`, async () => {
      mock.script(provider, { text: TEXT });
      const events = await streamed(await post(mock, provider, rendered(provider), { stream: true }));
      const got = decode(provider, events);
      assert.equal(got.text, TEXT);
      assert.equal(got.calls.length, 0);
      assert.ok(got.done, "the stream ends the provider's way");
      assert.ok(got.usage, "usage is reported");
      if (["openai-chat", "mistral", "kimi", "deepseek", "openai-compatible"].includes(provider)) {
        assert.equal(events.at(-1).data, "[DONE]");
        assert.equal(got.finish, "stop");
      }
      assert.ok(events.length > 3, "text arrives in several deltas");
      assert.deepEqual(mock.endpoint(provider).stats, { accepted: 1, rejected: 0, scriptedErrors: 0 });
      const [entry] = mock.log;
      assert.equal(entry.outcome, "accepted");
      assert.equal(entry.stream, true);
      assert.deepEqual(entry.violations, []);
      assert.equal(entry.scripted, true);
    });

    test(`${provider}: parallel tool calls, streamed, ids in the provider's format`, async () => {
      mock.script(provider, TOOL_TURN);
      const got = decode(provider, await streamed(await post(mock, provider, rendered(provider), { stream: true })));
      assert.equal(got.text, "Reading both.");
      assert.deepEqual(
        got.calls.map((c) => [c.name, JSON.parse(c.arguments)]),
        [
          ["read_file", { path: "Cargo.toml" }],
          ["read_file", { path: "README.md", maxLines: 3 }],
        ],
      );
      const finish = { anthropic: "tool_use", "openai-responses": "completed", gemini: "STOP", "bedrock-converse": "tool_use", ollama: "stop" }[provider] ?? "tool_calls";
      assert.equal(got.finish, finish);
      const ids = got.calls.map((c) => c.id);
      if (provider === "gemini") {
        assert.deepEqual(ids, [null, null], "Gemini calls carry no id unless scripted");
        assert.ok(got.calls[0].signature, "gemini-3: the first parallel call is signed");
        assert.equal(got.calls[1].signature, null, "gemini-3: only the first parallel call is signed");
        return;
      }
      assert.notEqual(ids[0], ids[1]);
      for (const id of ids) assert.ok(ID_PATTERN[provider]?.test(id) ?? isValidToolId(ID_FORMAT[provider], id), `${provider} id ${id}`);
      if (provider === "anthropic") for (const id of ids) assert.match(id, /^toolu_01[A-Za-z0-9]{22}$/);
      if (provider === "mistral") for (const id of ids) assert.match(id, /^[A-Za-z0-9]{9}$/);
      if (provider === "kimi") assert.deepEqual(ids, [`functions.read_file:${PRIOR_CALLS}`, `functions.read_file:${PRIOR_CALLS + 1}`]);
      if (provider === "deepseek") assert.deepEqual(ids.map((id) => id.slice(0, 8)), ["call_00_", "call_01_"]);
      if (provider === "openai-chat" || provider === "openai-compatible") for (const id of ids) assert.match(id, /^call_[A-Za-z0-9]{24}$/);
      if (provider === "openai-responses") for (const c of got.calls) assert.match(c.itemId, /^fc_[0-9a-f]+$/);
    });

    test(`${provider}: non-streaming JSON answer`, async () => {
      mock.script(provider, TOOL_TURN);
      const res = await post(mock, provider, rendered(provider, { stream: false }));
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type"), /^application\/json/);
      const got = decodeJSON(provider, await res.json());
      assert.equal(got.text, "Reading both.");
      assert.equal(got.calls.length, 2);
      assert.ok(got.usage);
      assert.equal(mock.log[0].stream, false);
    });
  }
});

describe("strict validation: a broken body gets the provider's own 400", () => {
  const CALL = { id: "call_1", type: "function", function: { name: "ls", arguments: "{}" } };
  const unanswered = (model) => ({
    model,
    messages: [{ role: "user", content: "hi" }, { role: "assistant", content: null, tool_calls: [CALL] }, { role: "user", content: "next" }],
  });
  const CASES = [
    {
      provider: "anthropic",
      what: "a tool_use without its tool_result",
      body: {
        model: "claude-sonnet-4-5",
        max_tokens: 100,
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "ls", input: {} }] },
          { role: "user", content: "next" },
        ],
      },
      rule: "ANT-04",
      check(body) {
        assert.equal(body.type, "error");
        assert.equal(body.error.type, "invalid_request_error");
        assert.match(body.error.message, /^messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1\./);
        assert.match(body.request_id, /^req_/);
      },
    },
    {
      provider: "openai-chat",
      what: "a tool call without its result",
      body: unanswered("gpt-5.2"),
      rule: "OAC-02",
      check(body) {
        assert.deepEqual(Object.keys(body.error).sort(), ["code", "message", "param", "type"]);
        assert.equal(body.error.type, "invalid_request_error");
        assert.equal(body.error.param, "messages.[1]");
        assert.match(body.error.message, /did not have response messages: call_1/);
      },
    },
    {
      provider: "openai-responses",
      what: "an output whose call is missing",
      body: { model: "gpt-5.2", input: [{ type: "message", role: "user", content: "hi" }, { type: "function_call_output", call_id: "call_x", output: "ok" }] },
      rule: "ORS-01",
      check(body) {
        assert.equal(body.error.message, "No tool call found for function call output with call_id call_x.");
        assert.equal(body.error.param, "input.[1].call_id");
      },
    },
    {
      provider: "gemini",
      what: "a Gemini 3 function call without its thought signature",
      body: {
        contents: [
          { role: "user", parts: [{ text: "hi" }] },
          { role: "model", parts: [{ functionCall: { name: "ls", args: {} } }] },
          { role: "user", parts: [{ functionResponse: { name: "ls", response: { ok: true } } }] },
        ],
      },
      rule: "GEM-05",
      check(body) {
        assert.equal(body.error.code, 400);
        assert.equal(body.error.status, "INVALID_ARGUMENT");
        assert.match(body.error.message, /^Function call is missing a thought_signature in functionCall parts/);
      },
    },
    {
      provider: "mistral",
      what: "a foreign tool call id",
      body: {
        model: "mistral-large-latest",
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: null, tool_calls: [{ id: "toolu_01VpEm654Hvf", type: "function", function: { name: "ls", arguments: "{}" } }] },
          { role: "tool", tool_call_id: "toolu_01VpEm654Hvf", name: "ls", content: "ok" },
        ],
      },
      rule: "MIS-01",
      check(body) {
        assert.deepEqual(body, {
          object: "error",
          message: "Tool call id was toolu_01VpEm654Hvf but must be a-z, A-Z, 0-9, with a length of 9.",
          type: "invalid_function_call",
          param: null,
          code: "3280",
        });
      },
    },
    {
      provider: "kimi",
      what: "a tool call without its result",
      body: unanswered("kimi-k2-thinking"),
      rule: "OAC-02",
      check(body) {
        assert.deepEqual(Object.keys(body.error).sort(), ["message", "type"]);
        assert.equal(body.error.type, "invalid_request_error");
      },
    },
    {
      provider: "deepseek",
      what: "successive user messages to deepseek-reasoner",
      body: { model: "deepseek-reasoner", messages: [{ role: "user", content: "a" }, { role: "user", content: "b" }] },
      rule: "DSK-01",
      check(body) {
        assert.match(body.error.message, /^deepseek-reasoner does not support successive user or assistant messages/);
        assert.equal(body.error.type, "invalid_request_error");
        assert.equal(body.error.code, "invalid_request_error");
        assert.equal(body.error.param, null);
      },
    },
    {
      provider: "openai-compatible",
      what: "a tool call without its result",
      body: unanswered("llama-3.3-70b-versatile"),
      rule: "OAC-02",
      check(body) {
        assert.equal(body.error.type, "invalid_request_error");
      },
    },
    {
      provider: "bedrock-converse",
      what: "a toolUse without its toolResult",
      body: {
        messages: [
          { role: "user", content: [{ text: "hi" }] },
          { role: "assistant", content: [{ toolUse: { toolUseId: "tooluse_1", name: "ls", input: {} } }] },
          { role: "user", content: [{ text: "next" }] },
        ],
        toolConfig: { tools: [{ toolSpec: { name: "ls", inputSchema: { json: { type: "object" } } } }] },
      },
      rule: "BDR-01",
      check(body, headers) {
        assert.deepEqual(body, { message: "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1" });
        assert.match(headers.get("x-amzn-errortype"), /^ValidationException:/);
      },
    },
    {
      provider: "ollama",
      what: "call arguments as a JSON string",
      body: {
        model: "qwen3:8b",
        messages: [
          { role: "user", content: "hi" },
          { role: "assistant", content: "", tool_calls: [{ function: { name: "ls", arguments: "{}" } }] },
          { role: "tool", tool_name: "ls", content: "ok" },
        ],
      },
      rule: "OLL-02",
      check(body) {
        assert.deepEqual(body, {
          error: "json: cannot unmarshal string into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
        });
      },
    },
  ];

  for (const c of CASES) {
    test(`${c.provider}: ${c.what} → 400 ${c.rule}`, async () => {
      mock.script(c.provider, { text: "never sent" });
      const res = await post(mock, c.provider, c.body, { model: c.provider === "gemini" ? "gemini-3-pro-preview" : undefined });
      assert.equal(res.status, 400);
      assert.match(res.headers.get("x-turnwire-mock-rules"), new RegExp(`(^|,)${c.rule}(,|$)`));
      c.check(await res.json(), res.headers);
      assert.deepEqual(mock.stats, { accepted: 0, rejected: 1, scriptedErrors: 0 });
      const [entry] = mock.log;
      assert.equal(entry.outcome, "rejected");
      assert.equal(entry.status, 400);
      assert.ok(entry.violations.some((v) => v.rule === c.rule));
      assert.equal(mock.pending(c.provider), 1, "a rejected request takes no scripted turn");
    });
  }

  test("not JSON, and a Gemini body with a field the API does not know", async () => {
    let res = await post(mock, "openai-chat", "{ not json");
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /^We could not parse the JSON body of your request/);
    const gemini = JSON.parse(new TextDecoder().decode(rendered("gemini")));
    res = await post(mock, "gemini", { ...gemini, stream: true });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.message, 'Invalid JSON payload received. Unknown name "stream": Cannot find field.');
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 2, scriptedErrors: 0 });
  });

  test("a missing model is a 400 in the provider's words", async () => {
    const res = await post(mock, "anthropic", { max_tokens: 10, messages: [{ role: "user", content: "hi" }] });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.message, "model: Field required");
  });

  test("validate: false lets anything well-formed through", async () => {
    const lax = await startMockProviders({ providers: ["mistral"], validate: false });
    try {
      const res = await post(lax, "mistral", CASES.find((c) => c.provider === "mistral").body);
      assert.equal(res.status, 200);
      assert.deepEqual(lax.stats, { accepted: 1, rejected: 0, scriptedErrors: 0 });
    } finally {
      await lax.close();
    }
  });
});

describe("credentials", () => {
  test("a missing key is answered the provider's way and counted as rejected", async () => {
    const expected = {
      anthropic: [401, (b) => assert.deepEqual(b.error, { type: "authentication_error", message: "x-api-key header is required" })],
      "openai-chat": [401, (b) => assert.match(b.error.message, /^You didn't provide an API key/)],
      "openai-responses": [401, (b) => assert.equal(b.error.type, "invalid_request_error")],
      gemini: [403, (b) => assert.equal(b.error.status, "PERMISSION_DENIED")],
      mistral: [401, (b) => assert.equal(b.message, "Unauthorized")],
      kimi: [401, (b) => assert.deepEqual(b.error, { message: "Invalid Authentication", type: "invalid_authentication_error" })],
      deepseek: [401, (b) => assert.equal(b.error.message, "Authentication Fails (auth header format should be Bearer sk-...)")],
      "openai-compatible": [401, (b) => assert.match(b.error.message, /API key/)],
      "bedrock-converse": [403, (b) => assert.deepEqual(b, { message: "Missing Authentication Token" })],
    };
    // a local Ollama takes any request (no key): left out
    for (const p of MOCK_PROVIDERS.filter((x) => x !== "ollama")) {
      const res = await post(mock, p, rendered(p), { headers: null, stream: true });
      const [status, check] = expected[p];
      assert.equal(res.status, status, p);
      check(await res.json());
    }
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 9, scriptedErrors: 0 });
  });

  test("Anthropic: anthropic-version required; Bearer keys and API version 2026-10-21 accepted", async () => {
    const body = rendered("anthropic", { stream: false });
    let res = await post(mock, "anthropic", body, { headers: { "x-api-key": "k" } });
    assert.equal(res.status, 400);
    assert.equal((await res.json()).error.message, "anthropic-version: header is required");
    res = await post(mock, "anthropic", body, { headers: { "x-api-key": "k", "anthropic-version": "2024-01-01" } });
    assert.equal((await res.json()).error.message, 'anthropic-version: "2024-01-01" is not a valid version');
    res = await post(mock, "anthropic", body, { headers: { authorization: "Bearer k", "anthropic-version": "2026-10-21" } });
    assert.equal(res.status, 200);
    // 2026-10-21 removed the sampling parameters.
    const withTemperature = renderBody(TRANSCRIPT, { provider: "anthropic", model: MODELS.anthropic, ...OPTIONS, temperature: 0.2 });
    res = await post(mock, "anthropic", withTemperature, { headers: { authorization: "Bearer k", "anthropic-version": "2026-10-21" } });
    assert.equal(res.status, 400);
    assert.match((await res.json()).error.message, /^temperature: /);
    res = await post(mock, "anthropic", withTemperature);
    assert.equal(res.status, 200, "2023-06-01 still takes temperature");
  });

  test("apiKey option: a wrong key is refused, the right one passes, Gemini takes ?key=", async () => {
    const strict = await startMockProviders({ providers: ["openai-chat", "gemini", "deepseek"], apiKey: "sk-right-key-1234" });
    try {
      let res = await post(strict, "openai-chat", rendered("openai-chat"), { headers: authHeaders("openai-chat", "sk-wrong-key-9999") });
      assert.equal(res.status, 401);
      const body = await res.json();
      assert.equal(body.error.code, "invalid_api_key");
      assert.match(body.error.message, /^Incorrect API key provided: sk-\*+9999\./);
      res = await post(strict, "deepseek", rendered("deepseek"), { headers: authHeaders("deepseek", "sk-wrong-key-9999") });
      assert.equal((await res.json()).error.message, "Authentication Fails, Your api key: ****9999 is invalid");
      res = await post(strict, "gemini", rendered("gemini"), { headers: authHeaders("gemini", "nope") });
      assert.equal(res.status, 400);
      assert.equal((await res.json()).error.details[0].reason, "API_KEY_INVALID");
      res = await post(strict, "gemini", rendered("gemini", { stream: false }), {
        headers: {},
        path: `/v1beta/models/${MODELS.gemini}:generateContent?key=sk-right-key-1234`,
      });
      assert.equal(res.status, 200);
      assert.equal(strict.log.at(-1).path, `/v1beta/models/${MODELS.gemini}:generateContent?key=***`);
      res = await post(strict, "openai-chat", rendered("openai-chat"), { headers: authHeaders("openai-chat", "sk-right-key-1234") });
      assert.equal(res.status, 200);
      assert.equal(strict.log.at(-1).headers.authorization, "***", "keys are masked in the log");
      assert.deepEqual(strict.stats, { accepted: 2, rejected: 3, scriptedErrors: 0 });
    } finally {
      await strict.close();
    }
  });
});

describe("scripted HTTP errors", () => {
  test("429 / 500 / 529 / 503 in each provider's shape count as scriptedErrors, then the next turn plays", async () => {
    const cases = [
      ["anthropic", 529, (b, h) => {
        assert.deepEqual(b.error, { type: "overloaded_error", message: "Overloaded" });
        assert.equal(h.get("x-should-retry"), "true");
      }],
      ["anthropic", 429, (b, h) => {
        assert.equal(b.error.type, "rate_limit_error");
        assert.equal(h.get("retry-after"), "1");
      }],
      ["openai-chat", 500, (b) => assert.deepEqual(b.error, { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: null })],
      ["openai-responses", 429, (b, h) => {
        assert.equal(b.error.code, "rate_limit_exceeded");
        assert.equal(h.get("retry-after"), "1");
      }],
      ["gemini", 503, (b) => assert.deepEqual(b.error, { code: 503, message: "The model is overloaded. Please try again later.", status: "UNAVAILABLE" })],
      ["gemini", 429, (b) => assert.equal(b.error.status, "RESOURCE_EXHAUSTED")],
      ["mistral", 429, (b) => assert.deepEqual(b, { object: "error", message: "Rate limit exceeded", type: "rate_limited", param: null, code: "1300" })],
      ["kimi", 429, (b) => assert.equal(b.error.type, "rate_limit_reached_error")],
      ["deepseek", 500, (b) => assert.equal(b.error.message, "Server Error")],
      ["openai-compatible", 503, (b) => assert.equal(b.error.type, "server_error")],
      ["bedrock-converse", 429, (b, h) => {
        assert.deepEqual(b, { message: "Too many requests, please wait before trying again." });
        assert.match(h.get("x-amzn-errortype"), /^ThrottlingException:/);
      }],
      ["ollama", 503, (b) => assert.deepEqual(b, { error: "server busy, please try again.  maximum pending requests exceeded" })],
    ];
    for (const [p, status] of cases) mock.script(p, { kind: "error", status });
    for (const [p, status, check] of cases) {
      const res = await post(mock, p, rendered(p), { stream: true });
      assert.equal(res.status, status, `${p} ${status}`);
      check(await res.json(), res.headers);
    }
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 0, scriptedErrors: cases.length });
    assert.ok(mock.log.every((e) => e.outcome === "scripted_error" && e.error !== null));

    mock.script("anthropic", { kind: "error", status: 429, retryAfter: 7, message: "slow down" }, { text: "after the retry" });
    let res = await post(mock, "anthropic", rendered("anthropic"), { stream: true });
    assert.equal(res.headers.get("retry-after"), "7");
    assert.equal((await res.json()).error.message, "slow down");
    res = await post(mock, "anthropic", rendered("anthropic"), { stream: true });
    assert.equal(decode("anthropic", await streamed(res)).text, "after the retry");
    assert.deepEqual(mock.endpoint("anthropic").stats, { accepted: 1, rejected: 0, scriptedErrors: 3 });
  });

  test("errorAfter: the provider's in-stream error event after n events (HTTP 200)", async () => {
    for (const p of MOCK_PROVIDERS) mock.script(p, { text: "a fairly long answer that breaks off", chunkSize: 4, errorAfter: 3 });
    for (const p of MOCK_PROVIDERS) {
      const events = await streamed(await post(mock, p, rendered(p), { stream: true }));
      assert.equal(events.length, 4, p);
      const got = decode(p, events);
      assert.ok(got.error, `${p}: an error event ends the stream`);
      assert.ok(!got.done, `${p}: the stream does not finish normally`);
    }
    mock.script("anthropic", { text: "x", errorAfter: 1 });
    const ant = decode("anthropic", await streamed(await post(mock, "anthropic", rendered("anthropic"), { stream: true })));
    assert.equal(ant.error.type, "overloaded_error");
    assert.equal(mock.stats.accepted, MOCK_PROVIDERS.length + 1);
  });
});

describe("stream pacing and failure", () => {
  test("truncateAfter closes the connection after n events, mid-stream", async () => {
    for (const p of MOCK_PROVIDERS) {
      mock.script(p, { text: "one two three four five six seven eight nine ten", chunkSize: 3, truncateAfter: 4 });
      const res = await post(mock, p, rendered(p), { stream: true });
      assert.equal(res.status, 200);
      const decoder = new TextDecoder();
      let text = "";
      const bytes = [];
      await assert.rejects(async () => {
        for await (const chunk of res.body) {
          bytes.push(...chunk);
          text += decoder.decode(chunk, { stream: true });
        }
      }, `${p}: the body ends with an error, not a clean end`);
      const events = p === "bedrock-converse" ? parseEventStream(new Uint8Array(bytes)) : p === "ollama" ? parseNdjson(text) : parseSSE(text);
      assert.equal(events.length, 4, p);
      assert.ok(!decode(p, events).done);
    }
    assert.equal(mock.stats.accepted, MOCK_PROVIDERS.length, "a cut stream still answered 200");
  });

  test("truncateAfter on a non-streaming request cuts the JSON body", async () => {
    mock.script("openai-chat", { text: "hello", truncateAfter: 0 });
    const res = await post(mock, "openai-chat", rendered("openai-chat", { stream: false }));
    assert.equal(res.status, 200);
    await assert.rejects(res.json());
  });

  test("delayMs spaces the events: the first arrives long before the last", async () => {
    mock.script("openai-chat", { text: "slow and steady wins", chunkSize: 5, delayMs: 60 });
    const t0 = performance.now();
    const res = await post(mock, "openai-chat", rendered("openai-chat"), { stream: true });
    const reader = res.body.getReader();
    const first = await reader.read();
    const tFirst = performance.now() - t0;
    assert.ok(!first.done);
    while (!(await reader.read()).done);
    const total = performance.now() - t0;
    // 8 events (role, 4 text, finish, usage, [DONE]) → 7 gaps of 60 ms
    assert.ok(total >= 7 * 60 - 20, `took ${total.toFixed(0)} ms`);
    assert.ok(tFirst < total / 2, `first event after ${tFirst.toFixed(0)} ms of ${total.toFixed(0)} ms`);
  });

  test("latencyMs delays the headers", async () => {
    mock.script("gemini", { text: "late", latencyMs: 150 }, { kind: "error", status: 500, latencyMs: 150 });
    let t0 = performance.now();
    let res = await post(mock, "gemini", rendered("gemini"), { stream: true });
    assert.ok(performance.now() - t0 >= 140);
    await res.text();
    t0 = performance.now();
    res = await post(mock, "gemini", rendered("gemini"), { stream: true });
    assert.equal(res.status, 500);
    assert.ok(performance.now() - t0 >= 140);
    await res.text();
  });

  test("close() ends an open slow stream and frees the port", async () => {
    const own = await startMockProviders({ providers: ["anthropic"] });
    own.script("anthropic", { text: "this will take a very long time", chunkSize: 1, delayMs: 5_000 });
    const res = await post(own, "anthropic", rendered("anthropic"), { stream: true });
    const reader = res.body.getReader();
    await reader.read();
    const t0 = performance.now();
    await own[Symbol.asyncDispose]();
    assert.ok(performance.now() - t0 < 2_000, "close did not wait for the stream");
    await assert.rejects(async () => {
      while (!(await reader.read()).done);
    });
    await assert.rejects(post(own, "anthropic", rendered("anthropic")), "nothing listens any more");
    await own.close(); // twice is fine
  });
});

describe("scripted content, per provider", () => {
  test("Anthropic: thinking with signature_delta, redacted thinking, tool_use with input_json_delta", async () => {
    mock.script("anthropic", {
      blocks: [
        { type: "thinking", thinking: "Two files to read.", signature: "EqQBCkYIBxgCKkA" },
        { type: "redacted_thinking", data: "EmwKAhgBEgyRedacted" },
        { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
      ],
    });
    const events = await streamed(await post(mock, "anthropic", rendered("anthropic"), { stream: true }));
    const names = events.map((e) => e.event);
    assert.deepEqual(names.slice(0, 3), ["message_start", "content_block_start", "ping"]);
    assert.deepEqual(names.slice(-2), ["message_delta", "message_stop"]);
    for (const e of events) assert.equal(e.data.type, e.event, "event name = data.type");
    const got = decode("anthropic", events);
    assert.equal(got.thinking, "Two files to read.");
    assert.deepEqual(got.signatures, ["EqQBCkYIBxgCKkA"]);
    assert.equal(got.redacted, "EmwKAhgBEgyRedacted");
    assert.equal(got.calls[0].arguments, '{"path":"a.rs"}');
    const deltas = events.filter((e) => e.event === "content_block_delta").map((e) => e.data.delta.type);
    assert.ok(deltas.indexOf("signature_delta") > deltas.lastIndexOf("thinking_delta"), "signature after the thinking");
  });

  test("Responses: reasoning item with id, summary and encrypted_content (only when included)", async () => {
    const turn = { blocks: [{ type: "thinking", thinking: "Plan: read.", id: "rs_given", signature: "gAAAAB-opaque" }, { type: "text", text: "ok" }] };
    mock.script("openai-responses", turn, turn);
    const body = JSON.parse(new TextDecoder().decode(rendered("openai-responses")));
    const withInclude = { ...body, include: ["reasoning.encrypted_content"] };
    const without = { ...body };
    delete without.include;
    let events = await streamed(await post(mock, "openai-responses", withInclude, { stream: true }));
    const done = events.find((e) => e.data.type === "response.output_item.done" && e.data.item.type === "reasoning").data.item;
    assert.deepEqual(done, { id: "rs_given", type: "reasoning", summary: [{ type: "summary_text", text: "Plan: read." }], encrypted_content: "gAAAAB-opaque" });
    assert.deepEqual(events.map((e) => e.data.sequence_number), events.map((_, i) => i));
    for (const e of events) assert.equal(e.data.type, e.event);
    assert.equal(events.at(-1).event, "response.completed");
    events = await streamed(await post(mock, "openai-responses", without, { stream: true }));
    const item = events.find((e) => e.data.type === "response.output_item.done" && e.data.item.type === "reasoning").data.item;
    assert.equal(item.encrypted_content, undefined);
  });

  test("Gemini: thought parts; no signature on 2.5 without thinking; a JSON array without alt=sse", async () => {
    mock.script(
      "gemini",
      { blocks: [{ type: "thinking", thinking: "thinking…" }, { type: "text", text: "Signed at the end." }] },
      { blocks: [{ type: "tool_call", name: "a" }, { type: "tool_call", name: "b", id: "fc-given" }] },
      { text: "array mode", chunkSize: 3 },
    );
    let got = decode("gemini", await streamed(await post(mock, "gemini", rendered("gemini"), { stream: true })));
    assert.equal(got.thinking, "thinking…");
    assert.equal(got.text, "Signed at the end.");
    assert.equal(got.signatures.length, 1, "gemini-3 signs the last text part of a reply without calls");
    const flash = "gemini-2.5-flash";
    got = decode("gemini", await streamed(await post(mock, "gemini", rendered("gemini", { model: flash }), { stream: true, model: flash })));
    assert.deepEqual(got.calls.map((c) => [c.name, c.id, c.signature]), [["a", null, null], ["b", "fc-given", null]]);
    const res = await post(mock, "gemini", rendered("gemini"), { stream: true, sse: false });
    assert.match(res.headers.get("content-type"), /^application\/json/);
    const chunks = JSON.parse(await res.text());
    assert.ok(Array.isArray(chunks) && chunks.length > 1);
    assert.equal(decode("gemini", chunks.map((data) => ({ data }))).text, "array mode");
  });

  test("DeepSeek, Kimi, OpenAI-compatible: reasoning_content; OpenAI Chat: reasoning only as tokens", async () => {
    const turn = { blocks: [{ type: "thinking", thinking: "Let me think." }, { type: "text", text: "Done." }] };
    for (const p of ["deepseek", "kimi", "openai-compatible", "openai-chat", "mistral"]) {
      mock.script(p, turn);
      const got = decode(p, await streamed(await post(mock, p, rendered(p), { stream: true })));
      assert.equal(got.text, "Done.", p);
      assert.equal(got.thinking, p === "openai-chat" ? "" : "Let me think.", p);
    }
    const chat = mock.log.find((e) => e.provider === "openai-chat");
    assert.ok(chat);
  });

  test("usage where each provider puts it", async () => {
    const usage = { inputTokens: 120, outputTokens: 7, cacheReadTokens: 100 };
    for (const p of MOCK_PROVIDERS) mock.script(p, { text: "ok", usage });
    const got = {};
    for (const p of MOCK_PROVIDERS) got[p] = decode(p, await streamed(await post(mock, p, rendered(p), { stream: true }))).usage;
    assert.equal(got.anthropic.output_tokens, 7);
    assert.equal(got["openai-chat"].prompt_tokens_details.cached_tokens, 100);
    assert.equal(got["openai-responses"].input_tokens_details.cached_tokens, 100);
    assert.equal(got.gemini.cachedContentTokenCount, 100);
    assert.equal(got.mistral.total_tokens, 127);
    assert.equal(got.kimi.cached_tokens, 100, "Kimi: usage inside the finishing choice");
    assert.equal(got.deepseek.prompt_cache_hit_tokens, 100);
    assert.equal(got.deepseek.prompt_cache_miss_tokens, 20);
    assert.equal(got["openai-compatible"].prompt_tokens, 120);
    assert.deepEqual(got["bedrock-converse"], { inputTokens: 120, outputTokens: 7, totalTokens: 127, cacheReadInputTokens: 100, cacheWriteInputTokens: 0 });
    assert.deepEqual(got.ollama, { prompt_eval_count: 120, eval_count: 7 });
  });

  test("invalid argument JSON is streamed as given", async () => {
    mock.script("openai-chat", { blocks: [{ type: "tool_call", name: "x", arguments: '{"path": "a.rs"' }] });
    const got = decode("openai-chat", await streamed(await post(mock, "openai-chat", rendered("openai-chat"), { stream: true })));
    assert.equal(got.calls[0].arguments, '{"path": "a.rs"');
  });
});

describe("queue, defaults, log and stats", () => {
  test("the default turn, function turns, and pending counts", async () => {
    let res = await post(mock, "mistral", rendered("mistral"), { stream: true });
    assert.equal(decode("mistral", await streamed(res)).text, "Hello from the turnwire mock mistral provider.");
    assert.equal(mock.log[0].scripted, false);
    mock.script("mistral", (req) => ({ text: `#${req.index} ${req.model} stream=${req.stream} msgs=${req.body.messages.length}` }));
    assert.equal(mock.pending("mistral"), 1);
    const body = rendered("mistral");
    const count = JSON.parse(new TextDecoder().decode(body)).messages.length;
    res = await post(mock, "mistral", body, { stream: true });
    assert.equal(decode("mistral", await streamed(res)).text, `#1 mistral-large-latest stream=true msgs=${count}`);
    assert.equal(mock.pending("mistral"), 0);
    mock.endpoint("mistral").script(() => {
      throw new Error("boom");
    });
    res = await post(mock, "mistral", rendered("mistral"));
    assert.equal(res.status, 500);
    assert.match((await res.json()).message, /mock script failed: boom/);

    const custom = await startMockProviders({ providers: ["kimi"], defaultTurn: { text: "custom default" } });
    try {
      res = await post(custom, "kimi", rendered("kimi"), { stream: true });
      assert.equal(decode("kimi", await streamed(res)).text, "custom default");
    } finally {
      await custom.close();
    }
  });

  test("stats and log across providers; unknown paths are 404s that count as rejected; reset()", async () => {
    mock.script("anthropic", { kind: "error", status: 529 }, { text: "ok" });
    await (await post(mock, "anthropic", rendered("anthropic"), { stream: true })).text();
    await (await post(mock, "anthropic", rendered("anthropic"), { stream: true })).text();
    await (await post(mock, "openai-chat", { model: "gpt-5.2", messages: [] })).text();
    let res = await post(mock, "openai-chat", rendered("openai-chat"), { path: "/v1/completions" });
    assert.equal(res.status, 404);
    assert.equal((await res.json()).error.message, "Invalid URL (POST /v1/completions)");
    res = await fetch(`${mock.baseURL("openai-chat")}/chat/completions`);
    assert.equal(res.status, 404);
    await res.text();
    await (await post(mock, "deepseek", rendered("deepseek", { stream: false }), { path: "/v1/chat/completions" })).text();

    assert.deepEqual(mock.stats, { accepted: 2, rejected: 3, scriptedErrors: 1 });
    assert.deepEqual(mock.endpoint("anthropic").stats, { accepted: 1, rejected: 0, scriptedErrors: 1 });
    assert.deepEqual(mock.endpoint("openai-chat").stats, { accepted: 0, rejected: 3, scriptedErrors: 0 });
    assert.deepEqual(
      mock.log.map((e) => [e.provider, e.method, e.path, e.status, e.outcome]),
      [
        ["anthropic", "POST", "/v1/messages", 529, "scripted_error"],
        ["anthropic", "POST", "/v1/messages", 200, "accepted"],
        ["openai-chat", "POST", "/v1/chat/completions", 400, "rejected"],
        ["openai-chat", "POST", "/v1/completions", 404, "rejected"],
        ["openai-chat", "GET", "/v1/chat/completions", 404, "rejected"],
        ["deepseek", "POST", "/v1/chat/completions", 200, "accepted"],
      ],
    );
    const accepted = mock.log[1];
    assert.equal(accepted.model, "claude-sonnet-4-5");
    assert.equal(accepted.body.model, "claude-sonnet-4-5");
    assert.equal(accepted.headers["x-api-key"], "***");
    assert.equal(accepted.headers["anthropic-version"], "2023-06-01");
    assert.equal(mock.log[2].violations[0].path, "$.messages");
    assert.equal(mock.endpoint("anthropic").log.length, 2);

    // the log is a copy
    mock.log.length = 0;
    assert.equal(mock.log.length, 6);

    mock.script("gemini", { text: "left over" });
    mock.reset();
    assert.deepEqual(mock.stats, { accepted: 0, rejected: 0, scriptedErrors: 0 });
    assert.equal(mock.log.length, 0);
    assert.equal(mock.pending("gemini"), 0);
  });

  test("same script after reset(), same ids and signatures", async () => {
    const run = async () => {
      mock.reset();
      mock.script("anthropic", { blocks: [{ type: "thinking", thinking: "t" }, ...TOOL_TURN.blocks] });
      const got = decode("anthropic", await streamed(await post(mock, "anthropic", rendered("anthropic"), { stream: true })));
      return [got.calls.map((c) => c.id), got.signatures];
    };
    assert.deepEqual(await run(), await run());
  });
});
