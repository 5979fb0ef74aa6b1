// One tool-execution path (issue 13, point 1): runToolCalls answers every call of an assistant
// message exactly once — results, errors, timeouts, cancellations — as one tool message that
// renders for every provider and that the strict mock providers accept. Arguments are checked
// against the tool's JSON Schema, or a Standard Schema (zod, pinned in tests/js/mock-sdk).
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Conversation, renderBody, runToolCall, runToolCalls, streamTurn, toolDeclarations, validateRequest } from "turnwire";
import { MOCK_PROVIDERS, startMockProviders } from "turnwire/mock";
import { MODELS } from "./mock-helpers.mjs";

const SDK_DIR = resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk");
const sdk = createRequire(join(SDK_DIR, "package.json"));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = (id, name, parameters) => ({ type: "tool_call", id, name, parameters });
const assistant = (...blocks) => ({ speaker: "ai", blocks });

/** A tool that waits `ms`, counting how many of its kind run at once. */
function slowTool(name, ms, gauge) {
  return {
    name,
    description: `waits ${ms} ms`,
    parameters: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] },
    async execute({ n }, { signal }) {
      gauge.now++;
      gauge.max = Math.max(gauge.max, gauge.now);
      try {
        await sleep(ms);
        if (signal.aborted) throw new Error("aborted");
        return `done ${n}`;
      } finally {
        gauge.now--;
      }
    },
  };
}

describe("REQ-915-031 the calls of one message run as one batch", () => {
  test("in parallel, answered in the calls' order, each exactly once", async () => {
    const gauge = { now: 0, max: 0 };
    const tools = [slowTool("wait", 30, gauge)];
    const message = assistant(...[3, 1, 2].map((n) => call(`c${n}`, "wait", { n })));
    const started = performance.now();
    const out = await runToolCalls(message, tools);
    assert.ok(performance.now() - started < 80, "three 30 ms calls ran together");
    assert.equal(gauge.max, 3);
    assert.deepEqual(out, {
      speaker: "tool",
      blocks: [3, 1, 2].map((n) => ({ type: "tool_response", callId: `c${n}`, toolName: "wait", result: `done ${n}` })),
    });
  });

  test("concurrency limits how many run at once; onResult reports each as it settles", async () => {
    const gauge = { now: 0, max: 0 };
    const seen = [];
    const message = assistant(...[1, 2, 3, 4, 5].map((n) => call(`c${n}`, "wait", { n })));
    const out = await runToolCalls(message, [slowTool("wait", 10, gauge)], { concurrency: 2, onResult: (r, c) => seen.push([r.callId, c.id]) });
    assert.equal(gauge.max, 2);
    assert.equal(out.blocks.length, 5);
    assert.deepEqual(seen.map(([r]) => r).sort(), ["c1", "c2", "c3", "c4", "c5"]);
    assert.ok(seen.every(([r, c]) => r === c));
  });
});

describe("REQ-915-032 the tool message holds results only", () => {
  test("thinking, text and calls of the assistant message do not leak into it", async () => {
    const message = assistant(
      { type: "thinking", thought: "two files" },
      { type: "text", text: "Reading them." },
      call("a", "echo", { text: "x" }),
      call("b", "echo", { text: "y" }),
    );
    const out = await runToolCalls(message, [{ name: "echo", execute: ({ text }) => text }]);
    assert.deepEqual(out.blocks.map((b) => b.type), ["tool_response", "tool_response"]);
    assert.deepEqual(out.blocks.map((b) => b.result), ["x", "y"]);
  });
});

describe("every call is answered: errors, unknown tools, bad arguments, timeouts", () => {
  const tools = [
    { name: "fail", execute: () => { throw new Error("disk full"); } },
    { name: "quiet", execute: () => undefined },
    { name: "object", execute: async () => ({ files: ["a.rs"], count: 1 }) },
    {
      name: "typed",
      parameters: { type: "object", properties: { path: { type: "string", minLength: 1 }, depth: { type: "integer", minimum: 0 } }, required: ["path"], additionalProperties: false },
      execute: () => "ran",
    },
  ];

  test("each failure is the call's error result; the others complete", async () => {
    const out = await runToolCalls(
      assistant(
        call("1", "fail", {}),
        call("2", "quiet", {}),
        call("3", "object", {}),
        call("4", "nope", {}),
        call("5", "typed", { path: "", depth: -1, extra: true }),
        call("6", "typed", { path: "src" }),
      ),
      tools,
    );
    const [fail, quiet, object, unknown, invalid, ok] = out.blocks;
    assert.equal(fail.error, "disk full");
    assert.deepEqual([quiet.result, quiet.isComplete], [null, true]);
    assert.deepEqual(object.result, { files: ["a.rs"], count: 1 });
    assert.equal(unknown.error, 'Unknown tool "nope" (available: fail, quiet, object, typed).');
    assert.match(invalid.error, /^Invalid arguments for typed: /);
    assert.match(invalid.error, /\$\.path: must be at least 1 characters, got 0/);
    assert.match(invalid.error, /\$\.depth: must be at least 0, got -1/);
    assert.match(invalid.error, /\$\.extra: property `extra` is not allowed/);
    assert.equal(ok.result, "ran");
  });

  test("a call past timeoutMs gets a timeout error and its signal aborts", async () => {
    let aborted = false;
    const hang = { name: "hang", execute: (_args, { signal }) => new Promise(() => signal.addEventListener("abort", () => (aborted = true))) };
    const out = await runToolCalls(assistant(call("h", "hang", {}), call("q", "quiet", {})), [hang, ...tools], { timeoutMs: 40 });
    assert.equal(out.blocks[0].error, "The tool call timed out after 40 ms.");
    assert.equal(out.blocks[0].timedOut, true);
    assert.equal(out.blocks[1].isComplete, true);
    assert.ok(aborted);
  });

  test("timeoutMs 0 or Infinity means no limit; an abort while arguments are checked cancels the call", async () => {
    const slow = { name: "slow", execute: () => sleep(30).then(() => "finished") };
    for (const timeoutMs of [0, Infinity]) {
      const out = await runToolCalls(assistant(call("s", "slow", {})), [slow], { timeoutMs });
      assert.equal(out.blocks[0].result, "finished", String(timeoutMs));
    }
    const controller = new AbortController();
    let ran = false;
    const checked = {
      name: "checked",
      parameters: { "~standard": { version: 1, vendor: "test", validate: async (v) => (controller.abort(), await sleep(5), { value: v }) } },
      execute: () => (ran = true),
    };
    const out = await runToolCalls(assistant(call("c", "checked", {})), [checked], { signal: controller.signal });
    assert.equal(out.blocks[0].cancelled, true);
    assert.equal(ran, false);
  });

  test("the schema checker: own properties only, patterns JavaScript reads without u mode, unresolvable $refs left alone", async () => {
    const t = (parameters) => [{ name: "t", parameters, execute: () => "ok" }];
    const run = async (parameters, args) => (await runToolCalls(assistant(call("x", "t", args)), t(parameters))).blocks[0];
    assert.match((await run({ type: "object", required: ["constructor"] }, {})).error, /`constructor` is missing/);
    assert.equal((await run({ type: "object", properties: { p: { type: "string", pattern: "^\\d{3}\\-\\d{4}$" } } }, { p: "555-1234" })).result, "ok");
    assert.match((await run({ type: "object", properties: { p: { type: "string", pattern: "^\\d{3}\\-\\d{4}$" } } }, { p: "5551234" })).error, /must match/);
    assert.equal((await run({ $ref: "https://example.com/schema.json" }, { any: 1 })).result, "ok");
    const nested = { type: "object", $defs: { item: { type: "object", properties: { n: { type: "integer" } }, required: ["n"] } }, properties: { items: { type: "array", items: { $ref: "#/$defs/item" } }, mode: { enum: ["a", "b"] }, v: { anyOf: [{ type: "string" }, { type: "null" }] } } };
    assert.equal((await run(nested, { items: [{ n: 1 }], mode: "a", v: null })).result, "ok");
    assert.match((await run(nested, { items: [{ n: 1.5 }], mode: "c", v: 3 })).error, /\$\.items\[0\]\.n: expected integer, got number; \$\.mode: expected one of "a", "b", got "c"; \$\.v: matches none/);
  });

  test("a message without calls, or a tool without execute, is a TypeError", async () => {
    await assert.rejects(runToolCalls(assistant({ type: "text", text: "hi" }), tools), TypeError);
    await assert.rejects(runToolCalls(assistant(call("x", "a", {})), [{ name: "a" }]), TypeError);
    await assert.rejects(runToolCalls(assistant(call("x", "a", {})), [{ name: "a", execute() {} }, { name: "a", execute() {} }]), /two tools are named "a"/);
  });

  test("REQ-915-035 one call on its own, outside a turn loop", async () => {
    const r = await runToolCall(call("one", "object", {}), tools);
    assert.deepEqual(r, { type: "tool_response", callId: "one", toolName: "object", result: { files: ["a.rs"], count: 1 } });
  });
});

describe("REQ-915-034 cancellation completes every call through the same path", () => {
  test("on abort the finished calls keep their results and the running ones are recorded cancelled, at once", async () => {
    const controller = new AbortController();
    const signals = [];
    const stubborn = { name: "stubborn", execute: (_a, { signal }) => (signals.push(signal), new Promise(() => {})) };
    const fast = { name: "fast", execute: () => "quick" };
    const run = runToolCalls(assistant(call("f", "fast", {}), call("s1", "stubborn", {}), call("s2", "stubborn", {})), [fast, stubborn], { signal: controller.signal });
    await sleep(20);
    const aborted = performance.now();
    controller.abort();
    const out = await run;
    assert.ok(performance.now() - aborted < 50, "the batch does not wait for tools that ignore the signal");
    assert.equal(out.blocks[0].result, "quick");
    for (const b of out.blocks.slice(1)) {
      assert.equal(b.cancelled, true);
      assert.equal(b.error, "The tool call was cancelled before it finished.");
    }
    assert.ok(signals.every((s) => s.aborted), "each running tool saw its signal abort");
  });

  test("an already aborted signal cancels every call without running any; the reason is recorded", async () => {
    let ran = 0;
    const out = await runToolCalls(assistant(call("a", "t", {}), call("b", "t", {})), [{ name: "t", execute: () => ran++ }], { signal: AbortSignal.abort(new Error("user pressed Ctrl-C")) });
    assert.equal(ran, 0);
    assert.deepEqual(out.blocks.map((b) => b.error), Array(2).fill("The tool call was cancelled before it finished (user pressed Ctrl-C)."));
  });
});

describe("arguments as a Standard Schema (zod, pinned)", () => {
  test("zod checks the arguments and gives the declaration's JSON Schema", async () => {
    const { z } = await import(pathToFileURL(sdk.resolve("zod")).href);
    const tool = { name: "read_file", description: "Read a file", parameters: z.object({ path: z.string().min(1), lines: z.number().int().optional() }), execute: ({ path }) => `contents of ${path}` };
    const [declaration] = toolDeclarations([tool]);
    assert.equal(declaration.name, "read_file");
    assert.equal(declaration.parameters.type, "object");
    assert.deepEqual(declaration.parameters.required, ["path"]);
    assert.equal(declaration.parameters.$schema, undefined);
    const out = await runToolCalls(assistant(call("ok", "read_file", { path: "a.rs" }), call("bad", "read_file", { path: 3 })), [tool]);
    assert.equal(out.blocks[0].result, "contents of a.rs");
    assert.match(out.blocks[1].error, /^Invalid arguments for read_file: \$\.path: /);
    // the declaration renders, and the Anthropic validator accepts the body
    const body = renderBody([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }], { provider: "anthropic", model: "claude-sonnet-4-5", tools: [declaration] });
    assert.deepEqual(validateRequest("anthropic", JSON.parse(new TextDecoder().decode(body))), []);
  });
});

describe("REQ-915-033 results join the history as any message does, for every provider", () => {
  let mock;
  before(async () => {
    mock = await startMockProviders();
  });
  after(async () => {
    await mock?.close();
  });

  test("call -> runToolCalls -> append -> next turn: the strict mocks accept every request", async () => {
    const tools = [
      { name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] }, execute: ({ path }) => `contents of ${path}` },
      { name: "noop", execute: () => undefined },
      { name: "broken", execute: () => { throw new Error("no such file"); } },
    ];
    for (const provider of MOCK_PROVIDERS) {
      mock.script(provider, { blocks: [
        { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
        { type: "tool_call", name: "noop", arguments: {} },
        { type: "tool_call", name: "broken", arguments: {} },
      ] });
      const conversation = new Conversation([{ speaker: "human", blocks: [{ type: "text", text: "read a.rs" }] }]);
      const target = { provider, model: MODELS[provider], apiKey: "test-key", baseURL: mock.baseURL(provider), conversation, render: { tools: toolDeclarations(tools) } };
      const first = await streamTurn(target);
      const results = await runToolCalls(first.message, tools);
      assert.equal(results.blocks.length, 3, provider);
      conversation.append(results);
      assert.deepEqual(conversation.openCalls(), [], provider);
      const second = await streamTurn(target);
      assert.equal(second.message.speaker, "ai", provider);
      conversation.free();
    }
    const rejected = mock.log.filter((e) => e.outcome === "rejected");
    assert.deepEqual(rejected.map((e) => `${e.provider} ${e.status} ${JSON.stringify(e.violations ?? "")}`), []);
  });
});
