// streamTurn end to end against the strict mock providers (turnwire/mock), in Node, against the
// installed tarball: text, thinking and parallel-tool-call turns for each of the ten providers;
// a conversation that switches provider every turn, twice around, with tools and thinking; HTTP
// errors and failover; abort, truncation and in-stream errors, each followed by a request the
// strict mock accepts. Every test ends with the mock's counters: zero rejected requests.
import assert from "node:assert/strict";
import { after, before, beforeEach, describe, test } from "node:test";
import { Conversation, isProviderError, isValidToolId, streamTurn, validateRequest } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const TOOLS = [
  { name: "read_file", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } },
  { name: "list_files", description: "List a folder", parameters: { type: "object", properties: { path: { type: "string" } } } },
];
const THINKING = { thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 };
/** Providers whose stream has a wire form for thinking (OpenAI Chat only counts reasoning tokens). */
const THINKS = new Set(MOCK_PROVIDERS.filter((p) => p !== "openai-chat"));
/** Each provider's own tool-call id format, where it sends ids (Gemini does not). */
const ID_FORMAT = {
  anthropic: "anthropic",
  "openai-chat": "openai",
  "openai-responses": "responses",
  mistral: "mistral",
  kimi: "kimi",
  deepseek: "openai",
  "openai-compatible": "openai",
};
/** The id formats isValidToolId has no name for: Bedrock's `tooluse_…`, Ollama's `call_` + 8. */
const ID_PATTERN = { "bedrock-converse": /^tooluse_[A-Za-z0-9_-]{22}$/, ollama: /^call_[a-z0-9]{8}$/ };
/** Providers that send each tool call whole (no argument pieces to stop at). */
const WHOLE_CALLS = new Set(["gemini", "ollama"]);

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const results = (message) => ({
  speaker: "tool",
  blocks: message.blocks
    .filter((b) => b.type === "tool_call")
    .map((c) => ({ type: "tool_response", callId: c.id, toolName: c.name, result: `contents of ${c.parameters.path ?? "."}` })),
});
const calls = (message) => message.blocks.filter((b) => b.type === "tool_call");

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

/** streamTurn against the mock's `provider`, iterating the deltas; returns { result, deltas }. */
async function turn(provider, conversation, options = {}) {
  const t = streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), conversation, ...options });
  const deltas = [];
  for await (const d of t) deltas.push(d);
  return { result: await t, deltas };
}

/** What a scripted turn that throws must reject with. */
async function failed(promise) {
  try {
    await promise;
  } catch (e) {
    assert.ok(isProviderError(e), String(e?.stack ?? e));
    return e;
  }
  assert.fail("expected a ProviderError");
  return undefined;
}

function noRejections() {
  const rejected = mock.log.filter((e) => e.outcome === "rejected");
  assert.deepEqual(
    rejected.map((e) => `${e.provider} ${e.status} ${e.error?.message} ${e.violations.map((v) => v.rule).join(",")}`),
    [],
    "the strict mock rejected a request",
  );
  assert.equal(mock.stats.rejected, 0);
}

describe("each provider: text, thinking and parallel tool calls through streamTurn", () => {
  for (const provider of MOCK_PROVIDERS) {
    test(`${provider}: a text turn`, async () => {
      const conversation = new Conversation([human("Say hello.")]);
      mock.script(provider, { text: "Hello — from the mock. ✓" });
      const { result, deltas } = await turn(provider, conversation);
      assert.equal(result.message.blocks.filter((b) => b.type === "text").map((b) => b.text).join(""), "Hello — from the mock. ✓");
      assert.equal(deltas.filter((d) => d.type === "text").map((d) => d.text).join(""), "Hello — from the mock. ✓");
      assert.ok(deltas.filter((d) => d.type === "text").length > 1, "the text streamed in pieces");
      assert.equal(result.stopReason, "end_turn");
      assert.equal(result.incomplete, false);
      assert.ok(result.usage.inputTokens > 0 && result.usage.outputTokens > 0, JSON.stringify(result.usage));
      assert.equal(result.message.metadata.provider, provider);
      assert.equal(result.message.metadata.providerBaseURL, mock.baseURL(provider));
      assert.equal(result.request.url.startsWith(mock.baseURL(provider)), true);
      assert.equal(conversation.length, 2);
      const [entry] = mock.log;
      assert.equal(entry.stream, true);
      assert.equal(entry.scripted, true);
      assert.deepEqual(mock.stats, { accepted: 1, rejected: 0, scriptedErrors: 0 });
      conversation.free();
    });

    test(`${provider}: a thinking turn`, async () => {
      const conversation = new Conversation([human("Think, then answer.")]);
      mock.script(provider, { blocks: [{ type: "thinking", thinking: "The user wants a short answer." }, { type: "text", text: "42." }] });
      const { result, deltas } = await turn(provider, conversation, { render: THINKING });
      const thoughts = result.message.blocks.filter((b) => b.type === "thinking");
      if (THINKS.has(provider)) {
        assert.equal(thoughts.map((b) => b.thought).join(""), "The user wants a short answer.", JSON.stringify(result.message.blocks));
        assert.ok(deltas.some((d) => d.type === "reasoning"));
      } else {
        assert.equal(thoughts.length, 0);
        assert.ok(result.usage.reasoningTokens > 0, JSON.stringify(result.usage));
      }
      assert.equal(result.message.blocks.at(-1).text, "42.");
      // the next turn replays the thinking to the same provider and is accepted
      conversation.append(human("Again."));
      mock.script(provider, { text: "Still 42." });
      const again = await turn(provider, conversation, { render: THINKING });
      assert.equal(again.result.stopReason, "end_turn");
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
      conversation.free();
    });

    test(`${provider}: parallel tool calls, results appended, the follow-up turn`, async () => {
      const conversation = new Conversation([human("Read Cargo.toml and README.md.")]);
      mock.script(
        provider,
        {
          blocks: [
            { type: "thinking", thinking: "Two reads, in parallel." },
            { type: "text", text: "Reading both." },
            { type: "tool_call", name: "read_file", arguments: { path: "Cargo.toml" } },
            { type: "tool_call", name: "read_file", arguments: { path: "README.md" } },
          ],
        },
        (req) => {
          // the follow-up carries both results (checked on the wire, in the provider's format)
          const text = JSON.stringify(req.body);
          assert.ok(text.includes("contents of Cargo.toml") && text.includes("contents of README.md"), text);
          return { text: "Edition 2021, and a README." };
        },
      );
      const render = { tools: TOOLS, ...THINKING };
      const first = await turn(provider, conversation, { render });
      const made = calls(first.result.message);
      assert.deepEqual(made.map((c) => [c.name, c.parameters]), [
        ["read_file", { path: "Cargo.toml" }],
        ["read_file", { path: "README.md" }],
      ]);
      assert.equal(first.result.stopReason, "tool_use");
      assert.notEqual(made[0].id, made[1].id);
      if (provider !== "gemini") for (const c of made) assert.ok(ID_PATTERN[provider]?.test(c.id) ?? isValidToolId(ID_FORMAT[provider], c.id), `${provider}: ${c.id}`);
      const completes = first.deltas.filter((d) => d.type === "toolCallComplete");
      assert.deepEqual(completes.map((d) => d.arguments), [{ path: "Cargo.toml" }, { path: "README.md" }]);
      conversation.append(results(first.result.message));
      const second = await turn(provider, conversation, { render });
      // Gemini's streamed text parts stay apart where one is signed (GEM-24): the text is theirs joined
      const text = second.result.message.blocks.filter((b) => b.type === "text").map((b) => b.text).join("");
      assert.equal(text, "Edition 2021, and a README.");
      assert.equal(conversation.length, 4);
      assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 0 });
      conversation.free();
    });
  }
});

describe("switching provider every turn", () => {
  test("round-robin through every provider twice, with parallel tools and thinking: zero rejected", async () => {
    const conversation = new Conversation([
      { speaker: "system", blocks: [{ type: "text", text: "You are a careful coding agent." }] },
      human("Audit the repository: read every file you need."),
    ]);
    const order = [...MOCK_PROVIDERS, ...MOCK_PROVIDERS];
    const render = { tools: TOOLS, ...THINKING };
    let n = 0;
    for (const provider of order) {
      n++;
      const last = n === order.length;
      mock.script(
        provider,
        last
          ? { blocks: [{ type: "thinking", thinking: "All read." }, { type: "text", text: "The audit is done." }] }
          : {
              blocks: [
                { type: "thinking", thinking: `Turn ${n}: two more files.` },
                ...(n % 3 === 0 ? [{ type: "text", text: `Turn ${n}, reading on.` }] : []),
                { type: "tool_call", name: "read_file", arguments: { path: `src/file_${n}_a.rs` } },
                { type: "tool_call", name: n % 2 ? "list_files" : "read_file", arguments: { path: `src/file_${n}_b.rs` } },
              ],
            },
      );
      const { result } = await turn(provider, conversation, { render });
      assert.equal(result.incomplete, false, `${n} ${provider}`);
      if (last) {
        assert.equal(result.message.blocks.at(-1).text, "The audit is done.");
      } else {
        assert.equal(calls(result.message).length, 2, `${n} ${provider}`);
        conversation.append(results(result.message));
        // now and then the user interjects between tool rounds
        if (n % 4 === 0) conversation.append(human(`Also check file ${n}.`));
      }
      noRejections();
    }
    assert.deepEqual(mock.stats, { accepted: order.length, rejected: 0, scriptedErrors: 0 });
    // every provider would accept the whole conversation now, as the strict validators say
    for (const p of MOCK_PROVIDERS) {
      assert.deepEqual(validateRequest(p, conversation.render({ provider: p, model: MODELS[p], tools: TOOLS, ...THINKING }), MODELS[p]), [], p);
    }
    conversation.free();
  });
});

describe("HTTP errors and failover", () => {
  for (const provider of MOCK_PROVIDERS) {
    test(`${provider}: scripted 429, 500, 503, 529 are retryable ProviderErrors, 400 and 401 are not; nothing is appended`, async () => {
      const conversation = new Conversation([human("hi")]);
      for (const [status, retryable] of [
        [429, true],
        [500, true],
        [503, true],
        [529, true],
        [400, false],
        [401, false],
      ]) {
        mock.script(provider, { kind: "error", status });
        const e = await failed(turn(provider, conversation));
        assert.deepEqual([e.kind, e.status, e.retryable, e.provider], ["http", status, retryable, provider], `${provider} ${status}: ${e.message}`);
        assert.equal(e.retryAfterMs, status === 429 ? 1000 : undefined, `${provider} ${status}`);
        assert.equal(typeof e.errorType, "string");
        assert.ok(e.body !== null, "the parsed body");
        assert.equal(conversation.length, 1, "nothing appended");
      }
      const byStatus = Object.fromEntries(mock.log.map((l) => [l.status, l.error.type]));
      if (provider === "anthropic") assert.equal(byStatus[529], "overloaded_error");
      if (provider === "gemini") assert.deepEqual([byStatus[503], byStatus[429]], ["UNAVAILABLE", "RESOURCE_EXHAUSTED"]);
      assert.deepEqual(mock.stats, { accepted: 0, rejected: 0, scriptedErrors: 6 });
      conversation.free();
    });
  }

  test("the errorType is the provider's own", async () => {
    const conversation = new Conversation([human("hi")]);
    const want = { anthropic: "overloaded_error", gemini: "UNAVAILABLE", kimi: "engine_overloaded_error", mistral: "service_unavailable", "bedrock-converse": "ServiceUnavailableException" };
    for (const [provider, type] of Object.entries(want)) {
      mock.script(provider, { kind: "error", status: provider === "anthropic" ? 529 : 503 });
      assert.equal((await failed(turn(provider, conversation))).errorType, type, provider);
    }
    mock.script("openai-chat", { kind: "error", status: 429 });
    assert.equal((await failed(turn("openai-chat", conversation))).errorType, "rate_limit_exceeded");
    conversation.free();
  });

  test("failover: the first provider answers 500, the same turn sent to the next succeeds", async () => {
    const conversation = new Conversation([human("Read a.rs and b.rs.")]);
    const render = { tools: TOOLS, ...THINKING };
    const chain = ["anthropic", "openai-responses", "gemini"];
    mock.script("anthropic", { kind: "error", status: 500 });
    mock.script("openai-responses", {
      blocks: [
        { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
        { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
      ],
    });
    let result;
    const failures = [];
    for (const provider of chain) {
      try {
        ({ result } = await turn(provider, conversation, { render }));
        break;
      } catch (e) {
        if (!isProviderError(e) || !e.retryable) throw e;
        failures.push(`${e.provider} ${e.status}`);
      }
    }
    assert.deepEqual(failures, ["anthropic 500"]);
    assert.equal(result.message.metadata.provider, "openai-responses");
    assert.equal(conversation.length, 2, "only the successful turn was appended");
    conversation.append(results(result.message));
    mock.script("gemini", { text: "Both read." });
    await turn("gemini", conversation, { render });
    assert.deepEqual(mock.stats, { accepted: 2, rejected: 0, scriptedErrors: 1 });
    conversation.free();
  });
});

describe("abort, truncation and in-stream errors keep the partial turn; the next request is accepted", () => {
  const SLOW = {
    blocks: [
      { type: "thinking", thinking: "Let me look at a lot of files, slowly and carefully." },
      { type: "text", text: "I will read the first file, then the second, then compare them." },
      { type: "tool_call", name: "read_file", arguments: { path: "src/a_very_long_file_name.rs" } },
      { type: "tool_call", name: "read_file", arguments: { path: "src/another_long_file_name.rs" } },
    ],
    delayMs: 15,
    chunkSize: 6,
  };

  for (const provider of MOCK_PROVIDERS) {
    test(`${provider}: abort mid-stream`, async () => {
      const conversation = new Conversation([human("Compare two files.")]);
      const render = { tools: TOOLS, ...THINKING };
      mock.script(provider, SLOW);
      const controller = new AbortController();
      const t = streamTurn({ provider, model: MODELS[provider], apiKey: "k", baseURL: mock.baseURL(provider), conversation, render, signal: controller.signal });
      const seen = [];
      const started = Date.now();
      for await (const d of t) {
        seen.push(d.type);
        // Gemini and Ollama send each call whole: stop once the text is under way
        if (d.type === (WHOLE_CALLS.has(provider) ? "text" : "toolCallArguments")) controller.abort();
      }
      const result = await t;
      assert.ok(Date.now() - started < 5000, "the abort did not wait for the stream");
      assert.equal(result.aborted, true, seen.join());
      assert.equal(result.incomplete, true);
      assert.equal(result.appended, true);
      assert.equal(result.message.metadata.incomplete, true);
      assert.ok(result.message.blocks.some((b) => b.type === "text"), JSON.stringify(result.message.blocks));
      assert.equal(conversation.length, 2);
      // the next request (any provider) closes the open call and is accepted
      for (const next of [provider, provider === "anthropic" ? "openai-chat" : "anthropic"]) {
        mock.script(next, { text: "Continuing." });
        const { result: r } = await turn(next, conversation, { render });
        assert.equal(r.message.blocks.at(-1).text, "Continuing.");
        if (calls(result.message).length > 0 && next === provider) {
          assert.ok(r.diagnostics.some((d) => d.code === "synthetic_result_added"), JSON.stringify(r.diagnostics.map((d) => d.code)));
        }
      }
      noRejections();
      conversation.free();
    });

    test(`${provider}: a truncated stream rejects with incomplete_stream and keeps the partial message`, async () => {
      const conversation = new Conversation([human("Compare two files.")]);
      const render = { tools: TOOLS, ...THINKING };
      mock.script(provider, { ...SLOW, delayMs: 0, truncateAfter: 8 });
      const e = await failed(turn(provider, conversation, { render }));
      assert.deepEqual([e.kind, e.errorType, e.retryable, e.status], ["incomplete", "incomplete_stream", true, 200], e.message);
      assert.equal(e.result.incomplete, true);
      assert.equal(e.result.aborted, false);
      assert.ok(e.result.message.blocks.length > 0);
      assert.equal(e.result.appended, true);
      assert.equal(conversation.length, 2);
      mock.script(provider, { text: "Retried." });
      const { result } = await turn(provider, conversation, { render });
      assert.equal(result.message.blocks.at(-1).text, "Retried.");
      noRejections();
      conversation.free();
    });

    test(`${provider}: an error event inside the stream rejects with the provider's error type`, async () => {
      const conversation = new Conversation([human("Compare two files.")]);
      const render = { tools: TOOLS, ...THINKING };
      mock.script(provider, { ...SLOW, delayMs: 0, errorAfter: 6, errorStatus: 529 });
      const e = await failed(turn(provider, conversation, { render }));
      assert.equal(e.kind, "stream", e.message);
      assert.equal(e.status, 200);
      // Ollama's in-stream `{"error": "…"}` names no type ("error"): not classified as transient
      if (provider === "ollama") assert.deepEqual([e.errorType, e.retryable], ["error", false], e.message);
      else assert.equal(e.retryable, true, `${e.errorType} should be retryable`);
      assert.ok(e.body !== null && typeof e.body === "object", "the error event's payload");
      assert.equal(e.result.stopReason, "error");
      assert.equal(conversation.length, e.result.appended ? 2 : 1);
      mock.script(provider, { text: "Recovered." });
      const { result } = await turn(provider, conversation, { render });
      assert.equal(result.message.blocks.at(-1).text, "Recovered.");
      noRejections();
      conversation.free();
    });
  }

  test("gemini without alt=sse: the JSON array answer decodes to the same message", async () => {
    const turnWith = async (fetch) => {
      const conversation = new Conversation([human("Read a.rs.")]);
      mock.script("gemini", { blocks: [{ type: "thinking", thinking: "One read." }, { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] });
      const { result } = await turn("gemini", conversation, { render: { tools: TOOLS, ...THINKING }, fetch });
      conversation.free();
      return result;
    };
    const sse = await turnWith(undefined);
    mock.reset();
    const array = await turnWith((url, init) => fetch(url.replace("?alt=sse", ""), init));
    assert.match(mock.log[0].path, /:streamGenerateContent$/);
    assert.deepEqual(array.message, sse.message);
    noRejections();
  });
});
