// The router and the agent loop (issue 13, points 3 and 4), against the strict mock providers:
// a switch waits for the turn in flight (REQ-915-002 / 003 / 050), round robin and failover
// keep every request valid (REQ-915-042 / 043), retries honour retry-after and drop a cut-off
// reply, and runAgent runs one scripted session identically as an interactive loop, a one-shot
// call and a subagent inside another agent's tool (REQ-915-045), cancelling cleanly (REQ-915-034).
import { after, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, createRouter, isProviderError, runAgent } from "turnwire";
import { startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
let mock;
const target = (provider, extra = {}) => ({ provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), ...extra });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const accepted = () => mock.log.filter((e) => e.outcome !== "rejected");
const rejected = () => mock.log.filter((e) => e.outcome === "rejected").map((e) => `${e.provider} ${e.status} ${JSON.stringify(e.violations ?? "")}`);

before(async () => {
  mock = await startMockProviders();
});
after(async () => {
  await mock?.close();
});
beforeEach(() => mock.reset());

describe("REQ-915-002 / REQ-915-003 / REQ-915-050 a switch waits for the turn in flight", () => {
  test("switchTo during a turn is deferred: the turn stays on its provider, the next one goes to the new one", async () => {
    const router = createRouter([target("anthropic"), target("gemini")]);
    const conversation = new Conversation([human("hi")]);
    mock.script("anthropic", { text: "slow answer from claude", delayMs: 15, chunkSize: 3 });
    const events = [];
    const first = router.turn({ conversation, onEvent: (e) => e.type !== "delta" && events.push(e) });
    assert.equal(router.inFlight, true);
    router.switchTo("gemini");
    assert.equal(router.current.provider, "anthropic", "the turn in flight keeps its target");
    assert.equal(router.pending.provider, "gemini");
    const r1 = await first;
    assert.equal(r1.target.provider, "anthropic");
    assert.equal(r1.request.provider, "anthropic");
    assert.equal(router.current.provider, "gemini");
    assert.equal(router.pending, undefined);
    assert.deepEqual(events.map((e) => e.type), ["attempt", "switched"]);
    assert.equal(events[1].deferred, true);
    conversation.append(human("and now?"));
    const r2 = await router.turn({ conversation });
    assert.equal(r2.target.provider, "gemini");
    assert.deepEqual(accepted().slice(-2).map((e) => e.provider), ["anthropic", "gemini"]);
    assert.deepEqual(rejected(), []);
    // a second turn while one is in flight is refused
    mock.script("gemini", { text: "slow", delayMs: 10 });
    const busy = router.turn({ conversation: new Conversation([human("x")]) });
    await assert.rejects(router.turn({ conversation: new Conversation([human("y")]) }), (e) => e.code === "turn_in_flight");
    await busy;
    conversation.free();
  });
});

describe("REQ-915-041 a manual switch after a completed tool turn: the next request is valid for every provider", () => {
  test("a tool turn on one provider, then runAgent on each of the others: every request accepted", async () => {
    const providers = ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi", "deepseek", "openai-compatible"];
    for (const from of providers) {
      const router = createRouter(providers.map((p) => target(p)));
      router.switchTo(from);
      const conversation = new Conversation([human("read a.rs")]);
      scriptSessionOn(from);
      assert.equal((await runAgent({ conversation, router, tools: [readFile] })).stopped, "done");
      const to = providers[(providers.indexOf(from) + 3) % providers.length];
      router.switchTo(to);
      conversation.append(human("and now?"));
      mock.script(to, { text: "Nothing more to read." });
      const next = await runAgent({ conversation, router, tools: [readFile] });
      assert.equal(next.turns[0].target.provider, to, `${from} -> ${to}`);
      conversation.free();
    }
    assert.deepEqual(rejected(), []);
  });
});

describe("REQ-915-042 round robin over every provider keeps each request valid", () => {
  test("each turn goes to the next target; the strict mocks accept all", async () => {
    const providers = ["anthropic", "openai-chat", "gemini", "openai-responses", "mistral", "kimi", "deepseek", "openai-compatible"];
    const router = createRouter(providers.map((p) => target(p)), { strategy: "round-robin" });
    const conversation = new Conversation([human("start")]);
    const seen = [];
    for (let i = 0; i < providers.length * 2; i++) {
      const r = await router.turn({ conversation });
      seen.push(r.target.provider);
      conversation.append(human(`turn ${i}`));
    }
    assert.deepEqual(seen, [...providers, ...providers]);
    assert.deepEqual(rejected(), []);
    conversation.free();
  });
});

describe("REQ-915-043 failover, retries and backoff", () => {
  test("a retryable failure moves the turn to the next target; retry-after cools the first one down", async () => {
    const router = createRouter([target("anthropic"), target("openai-chat")], { strategy: "failover" });
    const conversation = new Conversation([human("hi")]);
    mock.script("anthropic", { kind: "error", status: 429, retryAfter: 30 });
    const r = await router.turn({ conversation });
    assert.equal(r.target.provider, "openai-chat");
    assert.equal(r.attempts.length, 2);
    assert.equal(r.attempts[0].error.status, 429);
    assert.equal(r.attempts[0].error.retryAfterMs, 30_000);
    assert.equal(r.attempts[1].waitedMs, 0, "another provider is tried at once");
    // the next turn skips the cooling target
    conversation.append(human("again"));
    const r2 = await router.turn({ conversation });
    assert.equal(r2.target.provider, "openai-chat");
    assert.equal(r2.attempts.length, 1);
    assert.deepEqual(rejected(), []);
    conversation.free();
  });

  test("round robin: a failure moves the turn to the next target, and the rotation goes on after it", async () => {
    const router = createRouter([target("anthropic"), target("gemini"), target("openai-chat")], { strategy: "round-robin" });
    const conversation = new Conversation([human("hi")]);
    mock.script("anthropic", { kind: "error", status: 529 });
    const r1 = await router.turn({ conversation });
    assert.deepEqual(r1.attempts.map((a) => a.target.provider), ["anthropic", "gemini"]);
    conversation.append(human("next"));
    const r2 = await router.turn({ conversation });
    assert.equal(r2.target.provider, "openai-chat");
    assert.deepEqual(rejected(), []);
    conversation.free();
  });

  test("manual: a 503 is retried on the same target after the backoff", async () => {
    const router = createRouter([target("gemini")], { backoff: { initialMs: 40 } });
    const conversation = new Conversation([human("hi")]);
    mock.script("gemini", { kind: "error", status: 503 }, { text: "back" });
    const started = performance.now();
    const r = await router.turn({ conversation });
    assert.ok(performance.now() - started >= 40);
    assert.equal(r.message.blocks[0].text, "back");
    assert.deepEqual(r.attempts.map((a) => [a.target.provider, a.error?.status ?? 200, a.waitedMs]), [["gemini", 503, 0], ["gemini", 200, 40]]);
    conversation.free();
  });

  test("a stream cut short: its partial reply is dropped before the next attempt (partialReply: drop)", async () => {
    const router = createRouter([target("anthropic"), target("gemini")], { strategy: "failover" });
    const conversation = new Conversation([human("tell me a story")]);
    mock.script("anthropic", { text: "Once upon a time there was a long story", chunkSize: 4, truncateAfter: 4 });
    const r = await router.turn({ conversation });
    assert.equal(r.target.provider, "gemini");
    assert.equal(r.attempts[0].error.kind, "incomplete");
    assert.equal(r.attempts[0].partial.dropped, true);
    assert.ok(r.attempts[0].partial.message.blocks.length > 0);
    assert.equal(conversation.length, 2, "the question and gemini's answer, no partial reply");
    assert.equal(conversation.at(1).metadata?.provider ?? "gemini", "gemini");
    conversation.free();
  });

  test("an onEvent that throws ends the turn; its reply never lands later; the next turn works", async () => {
    const router = createRouter([target("anthropic")]);
    const conversation = new Conversation([human("hi")]);
    mock.script("anthropic", { text: "a long reply in many pieces", delayMs: 10, chunkSize: 2 });
    await assert.rejects(router.turn({ conversation, onEvent: (e) => { if (e.type === "delta") throw new Error("the UI broke"); } }), /the UI broke/);
    assert.equal(router.inFlight, false);
    const length = conversation.length;
    await sleep(100);
    assert.equal(conversation.length, length, "nothing was appended after the turn gave the conversation back");
    conversation.append(human("again"));
    assert.equal((await router.turn({ conversation })).message.speaker, "ai");
    conversation.free();
  });

  test("a failure that is not retryable ends the turn at once, with every attempt", async () => {
    const router = createRouter([target("anthropic"), target("gemini")], { strategy: "failover" });
    const conversation = new Conversation([human("hi")]);
    mock.script("anthropic", { kind: "error", status: 400, message: "bad" });
    await assert.rejects(router.turn({ conversation }), (e) => isProviderError(e) && e.status === 400 && e.attempts.length === 1);
    assert.equal(router.inFlight, false);
    assert.equal(conversation.inFlight, false);
    conversation.free();
  });
});

/** The scripted inner session: two parallel reads, then one, then the answer. */
function scriptSession(provider) {
  mock.script(
    provider,
    { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }, { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } }] },
    { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "c.rs" } }] },
    { text: "All three files read." },
  );
}

/** One completed tool turn on `provider`: a call, then the answer after its result. */
function scriptSessionOn(provider) {
  mock.script(provider, { blocks: [{ type: "thinking", thinking: "read it" }, { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } }] }, { text: "a.rs read." });
}

const readFile = { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, execute: ({ path }) => `contents of ${path}` };

/** A history with its call ids replaced by their order (ids differ from run to run). */
function shape(history) {
  const ids = new Map();
  const id = (x) => (ids.has(x) ? ids.get(x) : (ids.set(x, `id${ids.size}`), ids.get(x)));
  return JSON.parse(JSON.stringify(history), (k, v) => (k === "id" || k === "callId" ? id(v) : k === "metadata" || k === "provenance" || k === "usage" ? undefined : v));
}

describe("REQ-915-029 / REQ-915-045 one tool path, three modes: identical batching, filtering and history", () => {
  test("interactive loop, one-shot call and subagent inside another agent's tool", async () => {
    const runs = {};
    // one-shot: one call, no events
    {
      scriptSession("openai-chat");
      const conversation = new Conversation([human("read the three files")]);
      const batches = [];
      const r = await runAgent({ conversation, router: createRouter([target("openai-chat")]), tools: [readFile], onEvent: (e) => e.type === "tool-result" && (batches[e.turn - 1] ??= []).push(e.response.callId) });
      runs.oneShot = { stopped: r.stopped, turns: r.turns.length, history: shape(conversation.toJSON()), batches: batches.map((b) => b.length) };
      conversation.free();
    }
    // interactive: the user's message comes in, the loop streams deltas to a terminal
    {
      scriptSession("openai-chat");
      const conversation = new Conversation();
      conversation.append(human("read the three files"));
      let printed = "";
      const batches = [];
      const r = await runAgent({
        conversation,
        router: createRouter([target("openai-chat")]),
        tools: [readFile],
        onEvent: (e) => {
          if (e.type === "delta" && e.delta.type === "text") printed += e.delta.text;
          if (e.type === "tool-result") (batches[e.turn - 1] ??= []).push(e.response.callId);
        },
      });
      assert.equal(printed, "All three files read.");
      runs.interactive = { stopped: r.stopped, turns: r.turns.length, history: shape(conversation.toJSON()), batches: batches.map((b) => b.length) };
      conversation.free();
    }
    // subagent: the outer agent (anthropic) calls a tool whose execute runs the inner session
    {
      let inner;
      const delegate = {
        name: "delegate",
        parameters: { type: "object", properties: { task: { type: "string" } }, required: ["task"] },
        async execute({ task }, { signal }) {
          scriptSession("openai-chat");
          const conversation = new Conversation([human(task)]);
          const batches = [];
          const r = await runAgent({ conversation, router: createRouter([target("openai-chat")]), tools: [readFile], signal, onEvent: (e) => e.type === "tool-result" && (batches[e.turn - 1] ??= []).push(e.response.callId) });
          inner = { stopped: r.stopped, turns: r.turns.length, history: shape(conversation.toJSON()), batches: batches.map((b) => b.length) };
          conversation.free();
          return r.turns.at(-1).message.blocks.find((b) => b.type === "text").text;
        },
      };
      mock.script("anthropic", { blocks: [{ type: "tool_call", name: "delegate", arguments: { task: "read the three files" } }] }, { text: "The subagent read them." });
      const outer = new Conversation([human("delegate the reading")]);
      const r = await runAgent({ conversation: outer, router: createRouter([target("anthropic")]), tools: [delegate] });
      assert.equal(r.stopped, "done");
      assert.equal(outer.at(2).blocks[0].result, "All three files read.");
      runs.subagent = inner;
      outer.free();
    }
    assert.deepEqual(runs.oneShot.batches, [2, 1], "the parallel calls ran as one batch");
    assert.equal(runs.oneShot.stopped, "done");
    assert.equal(runs.oneShot.turns, 3);
    assert.deepEqual(runs.interactive, runs.oneShot);
    assert.deepEqual(runs.subagent, runs.oneShot);
    // filtering: tool messages hold results only
    for (const m of runs.oneShot.history.filter((m) => m.speaker === "tool")) assert.ok(m.blocks.every((b) => b.type === "tool_response"));
    assert.deepEqual(rejected(), []);
  });
});

describe("REQ-915-034 runAgent: an abort during the tools records every call cancelled", () => {
  test("the running tools are cancelled, the history stays valid, and the next turn is accepted", async () => {
    const controller = new AbortController();
    const hang = { name: "read_file", execute: (_a, { signal }) => new Promise((resolve) => signal.addEventListener("abort", () => resolve("late"))) };
    mock.script("anthropic", { blocks: [{ type: "tool_call", name: "read_file", arguments: { path: "a" } }, { type: "tool_call", name: "read_file", arguments: { path: "b" } }] });
    const conversation = new Conversation([human("read")]);
    const router = createRouter([target("anthropic")]);
    const running = runAgent({ conversation, router, tools: [hang], signal: controller.signal });
    await sleep(100);
    controller.abort();
    const r = await running;
    assert.equal(r.stopped, "aborted");
    const results = conversation.at(-1);
    assert.equal(results.speaker, "tool");
    assert.deepEqual(results.blocks.map((b) => b.cancelled), [true, true]);
    assert.deepEqual(conversation.openCalls(), []);
    assert.deepEqual(conversation.toolCalls().map((c) => c.status), ["errored", "errored"]);
    conversation.append(human("never mind"));
    const next = await runAgent({ conversation, router, tools: [hang] });
    assert.equal(next.stopped, "done");
    assert.deepEqual(rejected(), []);
    conversation.free();
  });

  test("an abort while the router waits to retry stops the agent as aborted", async () => {
    const controller = new AbortController();
    mock.script("gemini", { kind: "error", status: 503 });
    const conversation = new Conversation([human("hi")]);
    const running = runAgent({ conversation, router: createRouter([target("gemini")], { backoff: { initialMs: 5000 } }), signal: controller.signal });
    await sleep(100);
    controller.abort();
    const r = await running;
    assert.equal(r.stopped, "aborted");
    conversation.free();
  });

  test("maxTurns stops a loop that keeps calling tools; usage adds up", async () => {
    const loop = Array.from({ length: 3 }, (_, i) => ({ blocks: [{ type: "tool_call", name: "read_file", arguments: { path: `f${i}` } }], usage: { inputTokens: 10, outputTokens: 5 } }));
    mock.script("gemini", ...loop);
    const conversation = new Conversation([human("go")]);
    const r = await runAgent({ conversation, router: createRouter([target("gemini")]), tools: [readFile], maxTurns: 2 });
    assert.equal(r.stopped, "max_turns");
    assert.equal(r.turns.length, 2);
    assert.equal(r.usage.outputTokens, 10);
    assert.deepEqual(conversation.openCalls(), []);
    conversation.free();
  });
});
