// Issue 14, point 1: prompt caching (`cache`). Anthropic gets `cache_control` marks on the last
// tool and the system prompt and the API's automatic breakpoint (top-level `cache_control`),
// all with the caller's `ttl`; OpenAI Chat and Responses get `prompt_cache_key`; the other
// providers cache implicitly and report what was not sent. Every body passes the strict
// validator, a Conversation keeps every request an extension of the previous one, and turns
// with `cache` are accepted by the strict mock providers for every wire format.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, isTurnwireError, renderForProvider, streamTurn, validateRequest } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const history = [{ speaker: "human", blocks: [{ type: "text", text: "What is in the repository root?" }] }];
const system = "You are a coding agent. Read files before answering.";
const tools = [
  { name: "list_dir", description: "List a directory", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
];
const adjusted = (diagnostics) => diagnostics.filter((d) => d.code === "cache_adjusted");

describe("cache", () => {
  test("Anthropic: the last tool, the system prompt and the automatic breakpoint carry the ttl", () => {
    const { body, diagnostics } = renderForProvider(history, {
      provider: "anthropic", model: MODELS.anthropic, system, tools, cache: { ttl: "1h" },
    });
    const mark = { type: "ephemeral", ttl: "1h" };
    assert.deepEqual(body.system, [{ type: "text", text: system, cache_control: mark }]);
    assert.equal(body.tools[0].cache_control, undefined);
    assert.deepEqual(body.tools[1].cache_control, mark);
    assert.deepEqual(body.cache_control, mark);
    assert.deepEqual(validateRequest("anthropic", body), []);
    assert.deepEqual(adjusted(diagnostics), []);
  });

  test("a breakpoint list sends only what it lists; one with nothing to mark is reported", () => {
    const { body, diagnostics } = renderForProvider(history, {
      provider: "anthropic", model: MODELS.anthropic, cache: { breakpoints: ["system", "messages"] },
    });
    assert.equal(typeof body.system, "undefined");
    assert.deepEqual(body.cache_control, { type: "ephemeral" });
    assert.deepEqual(adjusted(diagnostics).map((d) => d.path), ["$.cache.breakpoints"]);
    assert.deepEqual(validateRequest("anthropic", body), []);
  });

  test("OpenAI gets prompt_cache_key, a key over 64 characters as a stable hash", () => {
    for (const provider of ["openai-chat", "openai-responses"]) {
      const short = renderForProvider(history, { provider, model: MODELS[provider], cache: { key: "session-42" } });
      assert.equal(short.body.prompt_cache_key, "session-42", provider);
      assert.deepEqual(adjusted(short.diagnostics), [], provider);
      const key = "k".repeat(80);
      const long = renderForProvider(history, { provider, model: MODELS[provider], cache: { key } });
      const again = renderForProvider(history, { provider, model: MODELS[provider], cache: { key } });
      assert.match(long.body.prompt_cache_key, /^tw-[0-9a-f]{16}$/, provider);
      assert.equal(long.body.prompt_cache_key, again.body.prompt_cache_key, provider);
      assert.deepEqual(adjusted(long.diagnostics).map((d) => d.path), ["$.cache.key"], provider);
      assert.deepEqual(validateRequest(provider, long.body), [], provider);
    }
  });

  test("implicit caches send nothing and say what they did not send; auto says nothing", () => {
    for (const provider of ["gemini", "mistral", "kimi", "deepseek", "openai-compatible"]) {
      const quiet = renderForProvider(history, { provider, model: MODELS[provider], cache: {} });
      assert.deepEqual(adjusted(quiet.diagnostics), [], provider);
      const { body, diagnostics } = renderForProvider(history, { provider, model: MODELS[provider], cache: { ttl: "5m", key: "k" } });
      assert.equal(body.prompt_cache_key, undefined, provider);
      assert.equal(body.cache_control, undefined, provider);
      assert.equal(adjusted(diagnostics).length, 1, provider);
      assert.deepEqual(validateRequest(provider, body), [], provider);
    }
  });

  test("bad settings are typed errors with the path; extra may not set what cache sets", () => {
    for (const [cache, path] of [[{ ttl: "24h" }, "$"], [{ breakpoints: ["last"] }, "$"]]) {
      assert.throws(() => renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, cache }), (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === path);
    }
    assert.throws(
      () => renderForProvider(history, { provider: "anthropic", model: MODELS.anthropic, cache: {}, extra: { cache_control: { type: "ephemeral" } } }),
      (e) => isTurnwireError(e) && e.code === "invalid_value" && e.path === "$.extra.cache_control",
    );
  });

  test("a Conversation's requests extend the previous one: the cached prefix stays byte for byte", () => {
    const convo = new Conversation(history);
    const options = { provider: "anthropic", model: MODELS.anthropic, system, tools, cache: { ttl: "1h" } };
    const decoder = new TextDecoder();
    let previous = null;
    for (let turn = 0; turn < 6; turn++) {
      const body = JSON.parse(decoder.decode(convo.render(options)));
      assert.deepEqual(validateRequest("anthropic", body), [], `turn ${turn}`);
      if (previous) {
        assert.deepEqual(body.messages.slice(0, previous.messages.length), previous.messages, `turn ${turn}`);
        assert.deepEqual({ ...body, messages: [] }, { ...previous, messages: [] }, `turn ${turn}: the envelope`);
      }
      previous = body;
      convo.append({ speaker: "ai", blocks: [{ type: "tool_call", id: `toolu_${turn}`, name: "read_file", parameters: { path: `f${turn}` } }] });
      convo.append({ speaker: "tool", blocks: [{ type: "tool_response", callId: `toolu_${turn}`, toolName: "read_file", result: `contents ${turn}` }] });
    }
    convo.free();
  });
});

describe("cache_prefix_changed", () => {
  test("a Conversation says when a request changes what the previous one sent", () => {
    const convo = new Conversation(history);
    const options = { provider: "anthropic", model: MODELS.anthropic, tools, cache: {} };
    const prefixNotes = (r) => r.diagnostics.filter((d) => d.code === "cache_prefix_changed");
    convo.append({ speaker: "ai", blocks: [{ type: "tool_call", id: "toolu_1", name: "read_file", parameters: { path: "a" } }] });
    // the call was interrupted: the request goes with a synthetic result after it
    assert.deepEqual(prefixNotes(convo.renderObject(options)), []);
    // the model spoke again with no result and no user turn: its two messages merge, so the
    // message the previous request ended its history with is sent differently
    convo.append({ speaker: "ai", blocks: [{ type: "text", text: "Reading it again." }] });
    convo.append({ speaker: "human", blocks: [{ type: "text", text: "go on" }] });
    const notes = prefixNotes(convo.renderObject(options));
    assert.deepEqual(notes.map((d) => d.path), ["$.messages[1]"]);
    // an append-only turn changes nothing the previous request sent
    convo.append({ speaker: "ai", blocks: [{ type: "text", text: "Done." }] });
    convo.append({ speaker: "human", blocks: [{ type: "text", text: "thanks" }] });
    assert.deepEqual(prefixNotes(convo.renderObject(options)), []);
    convo.free();
  });
});

describe("turns with cache are accepted by the strict mock providers", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("every wire format", async () => {
    for (const provider of MOCK_PROVIDERS) {
      const conversation = new Conversation(history);
      const { message } = await streamTurn({
        provider,
        model: MODELS[provider],
        apiKey: "test-key",
        baseURL: mock.baseURL(provider),
        conversation,
        render: { system, tools, cache: { ttl: "1h", key: "session-7" } },
      });
      assert.equal(message.speaker, "ai", provider);
      conversation.free();
    }
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider}: ${e.reason ?? ""}`), []);
    assert.equal(mock.log.filter((e) => e.outcome === "accepted").length, MOCK_PROVIDERS.length);
  });
});
