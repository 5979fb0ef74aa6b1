// Compaction (issue 13, point 5): safeCutPoints never separates a call from its result
// (REQ-915-028), compact() replaces the older turns with the caller's summary and every later
// request is accepted by the strict mock providers (REQ-915-026), and a result that compaction
// removed is rendered as `compacted`, not as cancelled (REQ-915-027).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, compact, contextUsage, contextWindow, isTurnInFlightError, renderForProvider, safeCutPoints, streamTurn } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const answer = (text) => ({ speaker: "ai", blocks: [{ type: "text", text }] });

/** `turns` user turns, each a tool loop with two parallel calls whose results come one per message. */
function session(turns) {
  const out = [];
  for (let t = 0; t < turns; t++) {
    out.push(human(`task ${t}`));
    out.push({ speaker: "ai", blocks: [0, 1].map((c) => ({ type: "tool_call", id: `call_${t}_${c}`, name: "read_file", parameters: { path: `f${t}${c}` } })) });
    for (const c of [0, 1]) out.push({ speaker: "tool", blocks: [{ type: "tool_response", callId: `call_${t}_${c}`, toolName: "read_file", result: `contents ${t}/${c}` }] });
    out.push(answer(`done ${t}`));
  }
  return out;
}

describe("REQ-915-028 safe cut points", () => {
  test("no call/result pair spans one; the stateless and the Conversation forms agree", () => {
    const history = session(3);
    const points = safeCutPoints(history);
    const c = new Conversation(history);
    assert.deepEqual(c.safeCutPoints(), points);
    assert.deepEqual(points, [0, 1, 4, 5, 6, 9, 10, 11, 14, 15]);
    c.free();
  });
});

describe("REQ-915-026 compact() keeps every later request valid", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("the older turns become the summary; the next turn on every provider is accepted", async () => {
    for (const provider of MOCK_PROVIDERS) {
      const conversation = new Conversation(session(5));
      conversation.append(human("what did you find?"));
      let asked;
      const result = await compact(conversation, {
        keepLastTurns: 2,
        keepFirst: 1,
        summarize: async (messages, range) => {
          asked = { count: messages.length, range };
          return `Summary: read ${messages.filter((m) => m.speaker === "tool").length} files.`;
        },
      });
      assert.equal(result.compacted, true);
      assert.deepEqual(asked.range, { start: 1, end: 20 });
      assert.equal(asked.count, 19);
      assert.equal(conversation.length, 26 - 19 + 1);
      assert.deepEqual(result.summary.compaction, { messages: 19, calls: [], results: [] });
      assert.deepEqual(conversation.openCalls(), []);
      const { message } = await streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), conversation });
      assert.equal(message.speaker, "ai", provider);
      conversation.free();
    }
    assert.deepEqual(mock.log.filter((e) => e.outcome === "rejected").map((e) => e.provider), []);
  });

  test("too few turns: nothing is compacted; a turn in flight refuses it", async () => {
    const short = new Conversation(session(1));
    const r = await compact(short, { keepLastTurns: 2, summarize: () => assert.fail("not asked") });
    assert.equal(r.compacted, false);
    mock.script("anthropic", { text: "slow", delayMs: 20, chunkSize: 1 });
    const conversation = new Conversation([...session(4), human("more")]);
    const turn = streamTurn({ provider: "anthropic", model: MODELS.anthropic, apiKey: "k", baseURL: mock.baseURL("anthropic"), conversation });
    await assert.rejects(compact(conversation, { summarize: () => "s" }), (e) => isTurnInFlightError(e));
    assert.throws(() => conversation.compact(0, 2, human("s")), (e) => isTurnInFlightError(e));
    await turn;
    short.free();
    conversation.free();
  });

  test("the system prompt at the head stays; one long tool loop is compacted by its steps", async () => {
    const loop = [human("one long task")];
    for (let s = 0; s < 6; s++) {
      loop.push({ speaker: "ai", blocks: [{ type: "tool_call", id: `c${s}`, name: "read_file", parameters: { path: `f${s}` } }] });
      loop.push({ speaker: "tool", blocks: [{ type: "tool_response", callId: `c${s}`, toolName: "read_file", result: `r${s}` }] });
    }
    const conversation = new Conversation([{ speaker: "system", blocks: [{ type: "text", text: "Be brief." }] }, ...loop]);
    const r = await compact(conversation, { keepLastTurns: 2, summarize: () => "Read four files." });
    assert.equal(r.compacted, true);
    assert.equal(r.start, 1, "after the system prompt");
    assert.equal(conversation.at(0).speaker, "system");
    assert.equal(r.end, 10, "the last two steps stay");
    assert.deepEqual(conversation.openCalls(), []);
    conversation.free();
  });

  test("a conversation changed while summarising is not compacted", async () => {
    const conversation = new Conversation([...session(4), human("more")]);
    await assert.rejects(
      compact(conversation, {
        summarize: () => {
          conversation.replace(1, answer("edited meanwhile"));
          return "s";
        },
      }),
      /changed while the summary was written/,
    );
    assert.equal(conversation.length, 21);
    conversation.free();
  });
});

describe("REQ-915-027 a result removed by compaction is rendered as compacted", () => {
  test("a cut through a pair: the call kept gets a compacted completion, not a cancelled one", () => {
    const conversation = new Conversation(session(2));
    conversation.compact(2, 4, human("Summary: the first file was long."));
    assert.deepEqual(conversation.at(2).compaction, { messages: 2, calls: ["call_0_0", "call_0_1"], results: [] });
    const out = conversation.renderObject({ provider: "openai-chat", model: "gpt-5.2" });
    const reasons = out.diagnostics.filter((d) => d.syntheticReason).map((d) => [d.callId, d.syntheticReason]);
    assert.deepEqual(reasons, [["call_0_0", "compacted"], ["call_0_1", "compacted"]]);
    const text = JSON.stringify(out.body);
    assert.match(text, /removed when the conversation was compacted/);
    assert.doesNotMatch(text, /cancelled or interrupted/);
    assert.deepEqual(renderForProvider(conversation.toJSON(), { provider: "openai-chat", model: "gpt-5.2" }).body, out.body);
    conversation.free();
  });
});

describe("Conversation.compact takes indexes as splice does", () => {
  test("negative indexes count from the end; the length is a valid end; past it is out_of_range", () => {
    const conversation = new Conversation(session(2)); // 10 messages
    assert.equal(conversation.compact(-5, 10, human("Summary of the second task.")).length, 5);
    assert.equal(conversation.length, 6);
    assert.equal(conversation.at(-1).blocks[0].text, "Summary of the second task.");
    assert.throws(() => conversation.compact(0, 7, human("x")), (e) => e.code === "out_of_range");
    assert.throws(() => conversation.compact(-9, 2, human("x")), (e) => e.code === "out_of_range");
    conversation.free();
  });
});

describe("when to compact: the context window and how full it is", () => {
  test("contextWindow reads the capability table; contextUsage adds the prompt and the reply", () => {
    assert.equal(contextWindow("anthropic", "claude-sonnet-4-5"), 200_000);
    assert.equal(contextWindow("anthropic", "claude-opus-4-7"), 1_000_000);
    assert.equal(contextWindow("gemini", "models/gemini-2.5-pro"), 1_048_576);
    assert.equal(contextWindow("openai-compatible", "llama-3.3-70b-versatile"), undefined);
    assert.throws(() => contextWindow("nope", "x"), (e) => e.code === "unknown_provider");
    const usage = { inputTokens: 20_000, cacheReadTokens: 130_000, cacheWriteTokens: 5_000, outputTokens: 5_000 };
    assert.deepEqual(contextUsage(usage, "anthropic", "claude-sonnet-4-5"), { tokens: 160_000, window: 200_000, fraction: 0.8 });
    assert.deepEqual(contextUsage({}, "openai-compatible", "x"), { tokens: 0, window: undefined, fraction: undefined });
  });
});
