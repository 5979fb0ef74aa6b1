// Options and limits fail closed (issue 29, points 5, 6 and 7 in part): a numeric option that is
// not one of its documented values (a string, NaN, a negative number: an unset environment
// variable) is a TurnwireError naming the option, never a limit switched off or a default taken
// silently; the router's retry loop yields to the event loop, so an abort always stops it; comment
// lines inside an unfinished SSE event do not reset its byte count; a turn has a default overall
// time bound; a tool's schema check is covered by the call's timeout and signal, and a tool's
// hostile error still gives an error result; JSON Schema patterns and retry-after headers are read
// in linear time; usage totals never write to a prototype. Hostile servers run on 127.0.0.1. The
// time bounds below are hang guards (the fixed code takes milliseconds, the broken one seconds to
// forever); the figures are printed at the end. Imports node:test, node:assert, node:http and
// turnwire only, so it runs in Node, Deno and Bun (scripts/test-js.sh steps 4 and 6).
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import {
  Conversation,
  DEFAULT_TURN_TIMEOUT_MS,
  SseParser,
  addUsage,
  compact,
  cost,
  createRouter,
  isProviderError,
  isTurnwireError,
  mergeUsage,
  runAgent,
  runToolCalls,
  streamTurn,
} from "turnwire";

const KEY = "sk-planted-3f9a1c7e-key";
const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const sse = (obj) => `data: ${JSON.stringify(obj)}\n\n`;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const call = (id, name, parameters) => ({ type: "tool_call", id, name, parameters });
const assistant = (...blocks) => ({ speaker: "ai", blocks });

const EVENTS = [
  { type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello." } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
  { type: "message_stop" },
].map(sse);
const ANSWER = EVENTS.join("");

/** A fetch that answers the whole stream at once, counting its calls. */
function answering() {
  const f = async () => {
    f.calls++;
    return new Response(ANSWER, { headers: { "content-type": "text/event-stream" } });
  };
  f.calls = 0;
  return f;
}

const figures = [];
/** Runs `fn`, returns its result and records how long it took under `name`. */
async function timed(name, fn) {
  const start = performance.now();
  const out = await fn();
  const ms = performance.now() - start;
  figures.push(`${name}: ${ms.toFixed(1)} ms`);
  return { out, ms };
}
/** Settles with `promise`, or rejects after `ms` (so that a hang fails the case, not the run). */
function within(ms, promise, what) {
  let timer;
  const guard = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms`)), ms);
  });
  return Promise.race([promise, guard]).finally(() => clearTimeout(timer));
}

/** The error a bad option must be: a TurnwireError at `path` naming the option, and no secret. */
function optionError(path, shown) {
  return (e) => {
    assert.ok(isTurnwireError(e), `a TurnwireError, got ${e?.name}: ${e?.message}`);
    assert.equal(e.path, path);
    assert.ok(e.code === "invalid_type" || e.code === "invalid_value", e.code);
    const option = path.slice(2);
    assert.ok(e.message.includes(option), e.message);
    assert.ok(e.message.includes(shown), `${JSON.stringify(e.message)} shows ${shown}`);
    assert.match(e.message, /must be/);
    assert.ok(!e.message.includes(KEY) && !e.message.includes("123457"), e.message);
    return true;
  };
}

// ---- hostile servers ------------------------------------------------------------------------
const ROUTES = {
  // one byte of a valid answer every 100 ms: the idle timeout never fires
  drip: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    let i = 0;
    const t = setInterval(() => res.write(ANSWER[i++ % ANSWER.length]), 100);
    res.on("close", () => clearInterval(t));
  },
  // one event that never ends: 64 KiB data lines, each followed by a comment line
  padded: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(EVENTS[0]);
    const chunk = `data: ${"x".repeat(64 * 1024)}\n: keep-alive\n`;
    let open = true;
    res.on("close", () => (open = false));
    const pump = () => {
      while (open && res.write(chunk));
      if (open) res.once("drain", pump);
    };
    pump();
  },
  // a whole answer whose events are separated by 5 KB of keep-alive comments
  "keepalive-between": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const pad = `: keep-alive ${"-".repeat(88)}\n`.repeat(50);
    res.end(EVENTS.join(pad));
  },
};

let server;
let base;
const sockets = new Set();
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    const handler = ROUTES[req.url.split("/")[1]];
    if (handler) handler(res);
    else res.writeHead(404).end();
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});
after(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
  console.log(`\nlimits: figures\n  ${figures.join("\n  ")}`);
});

const BOUND = { timeout: 10_000 };

describe("streamTurn's limits fail closed", () => {
  const options = (extra) => ({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, transcript: [human("hi")], idleTimeoutMs: 123457, ...extra });

  for (const option of ["idleTimeoutMs", "timeoutMs", "maxEventBytes", "maxReplyBytes", "maxErrorBodyBytes"]) {
    test(`${option}: a string, NaN, a negative number, null, an object or a boolean is a TurnwireError; nothing is sent`, BOUND, async () => {
      for (const [value, shown] of [["300", '"300" (a string)'], [NaN, "NaN"], [-1, "-1"], [null, "null"], [{ n: 1 }, "an object"], [true, "a boolean"]]) {
        const fetch = answering();
        const turn = streamTurn(options({ fetch, [option]: value }));
        await assert.rejects(within(5_000, turn.result, `${option}: ${String(value)}`), optionError(`$.${option}`, shown));
        assert.equal(fetch.calls, 0, `${option}: ${String(value)} sent the request`);
      }
    });
  }

  test("the documented values are taken: undefined, a positive number, Infinity, and 0 for no limit", BOUND, async () => {
    for (const value of [undefined, 1e9, Infinity, 0]) {
      const fetch = answering();
      const result = await streamTurn(options({ fetch, idleTimeoutMs: value, timeoutMs: value, maxEventBytes: value, maxReplyBytes: value, maxErrorBodyBytes: value }));
      assert.equal(result.message.blocks[0].text, "Hello.", String(value));
    }
  });

  test("a turn has an overall time bound by default: DEFAULT_TURN_TIMEOUT_MS, one hour", () => {
    // The official SDKs time a request out after 10 minutes by default (openai and
    // @anthropic-ai/sdk: DEFAULT_TIMEOUT = 600000), and Anthropic's SDK reckons 128,000 output
    // tokens at up to 60 minutes: a streamed turn may take that long, not forever.
    assert.equal(DEFAULT_TURN_TIMEOUT_MS, 3_600_000);
  });

  test("a 1 byte per 100 ms stream ends at timeoutMs (the idle timeout never fires)", BOUND, async () => {
    const conversation = new Conversation([human("hi")]);
    const { out: error } = await timed("1 byte / 100 ms stream, timeoutMs 400", () =>
      within(5_000, streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${base}/drip`, conversation, timeoutMs: 400 }).result, "drip").then(
        () => undefined,
        (e) => e,
      ),
    );
    assert.ok(isProviderError(error), String(error));
    assert.equal(error.errorType, "turn_timeout");
    conversation.free();
  });

  test("comment lines inside an unfinished event do not reset its byte count", BOUND, async () => {
    const conversation = new Conversation([human("hi")]);
    const turn = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${base}/padded`, conversation, maxEventBytes: 1024 * 1024, maxReplyBytes: 16 * 1024 * 1024 });
    const { out: error } = await timed("unfinished event padded with comments (maxEventBytes 1 MiB)", () => within(8_000, turn.result, "padded").then(() => undefined, (e) => e));
    assert.ok(isProviderError(error), String(error));
    assert.equal(error.errorType, "event_too_large", error.message);
    conversation.free();
  });

  test("keep-alive comments between events still do not count against maxEventBytes", BOUND, async () => {
    const conversation = new Conversation([human("hi")]);
    const result = await within(5_000, streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, baseURL: `${base}/keepalive-between`, conversation, maxEventBytes: 2048 }).result, "keep-alives");
    assert.equal(result.message.blocks[0].text, "Hello.");
    conversation.free();
  });

  test("SseParser.inEvent: whether an event has begun and not yet ended", () => {
    const parser = new SseParser(() => {});
    assert.equal(parser.inEvent, false);
    parser.feed(": keep-alive\n");
    assert.equal(parser.inEvent, false);
    parser.feed("data: {");
    assert.equal(parser.inEvent, true, "a line of the event arrived, unfinished");
    parser.feed("}\n: keep-alive\n");
    assert.equal(parser.inEvent, true, "a comment inside an event");
    parser.feed("\n");
    assert.equal(parser.inEvent, false);
  });
});

describe("the router's options fail closed and an abort always stops its retries", () => {
  const targets = [{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY }];

  test("maxAttempts NaN, a string, 0, -1, 2.5 or null throws at once, naming it", () => {
    for (const [value, shown] of [[NaN, "NaN"], ["3", '"3" (a string)'], [0, "0"], [-1, "-1"], [2.5, "2.5"], [null, "null"]]) {
      assert.throws(() => createRouter(targets, { maxAttempts: value }), optionError("$.maxAttempts", shown));
    }
    for (const value of [undefined, 1, 5, Infinity]) createRouter(targets, { maxAttempts: value });
  });

  test("backoff values and partialReply are checked too", () => {
    assert.throws(() => createRouter(targets, { backoff: { initialMs: NaN } }), optionError("$.backoff.initialMs", "NaN"));
    assert.throws(() => createRouter(targets, { backoff: { initialMs: Infinity } }), optionError("$.backoff.initialMs", "Infinity"));
    assert.throws(() => createRouter(targets, { backoff: { factor: "2" } }), optionError("$.backoff.factor", '"2" (a string)'));
    assert.throws(() => createRouter(targets, { backoff: { factor: 0.5 } }), optionError("$.backoff.factor", "0.5"));
    assert.throws(() => createRouter(targets, { backoff: { maxMs: -1 } }), optionError("$.backoff.maxMs", "-1"));
    assert.throws(() => createRouter(targets, { backoff: 250 }), optionError("$.backoff", "250"));
    assert.throws(() => createRouter(targets, { partialReply: "dorp" }), optionError("$.partialReply", '"dorp"'));
    createRouter(targets, { backoff: { initialMs: 0, factor: 1, maxMs: Infinity }, partialReply: "keep" });
    createRouter(targets, { backoff: { initialMs: undefined } });
  });

  test("maxAttempts Infinity with a fetch that answers 429 at once: an abort stops the retries", BOUND, async () => {
    let calls = 0;
    // an answer with no body stream: every step of an attempt is a microtask
    const answer = (status, type) => ({ status, headers: { get: () => null }, body: null, text: async () => `{"type":"error","error":{"type":"${type}","message":"no"}}` });
    const fetch = async () => {
      calls++;
      // a safety stop: the loop would otherwise starve the event loop and no timer could end the test
      return calls > 20_000 ? answer(400, "invalid_request_error") : answer(429, "rate_limit_error");
    };
    const router = createRouter([{ ...targets[0], fetch }], { maxAttempts: Infinity, backoff: { initialMs: 0, factor: 1 } });
    const conversation = new Conversation([human("hi")]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { out: error } = await timed("429 at once, maxAttempts Infinity, abort after 50 ms", () => router.turn({ conversation, signal: controller.signal }).then(() => undefined, (e) => e));
    figures.push(`  (${calls} attempts before the abort)`);
    assert.ok(isProviderError(error), String(error));
    assert.equal(error.status, 429, `the abort stopped the loop (${calls} attempts), not the safety stop`);
    assert.ok(calls < 20_000, String(calls));
    conversation.free();
  });
});

describe("runAgent, runToolCalls and compact options fail closed", () => {
  const router = () => createRouter([{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, fetch: answering() }]);

  test("maxTurns, concurrency and toolTimeoutMs that are not accepted values reject, naming the option", BOUND, async () => {
    for (const [option, value, shown] of [
      ["maxTurns", NaN, "NaN"],
      ["maxTurns", 0, "0"],
      ["maxTurns", "16", '"16" (a string)'],
      ["concurrency", "2", '"2" (a string)'],
      ["concurrency", 0, "0"],
      ["concurrency", 1.5, "1.5"],
      ["toolTimeoutMs", -1, "-1"],
      ["toolTimeoutMs", NaN, "NaN"],
      ["toolTimeoutMs", "1000", '"1000" (a string)'],
    ]) {
      const conversation = new Conversation([human("hi")]);
      await assert.rejects(runAgent({ conversation, router: router(), [option]: value }), optionError(`$.${option}`, shown));
      assert.equal(conversation.length, 1, `${option}: ${String(value)} ran a turn`);
      conversation.free();
    }
    const conversation = new Conversation([human("hi")]);
    const done = await runAgent({ conversation, router: router(), maxTurns: Infinity, concurrency: Infinity, toolTimeoutMs: 0 });
    assert.equal(done.stopped, "done");
    conversation.free();
  });

  test("runToolCalls: concurrency and timeoutMs are checked", BOUND, async () => {
    const tools = [{ name: "t", execute: () => "ok" }];
    await assert.rejects(runToolCalls(assistant(call("a", "t", {})), tools, { concurrency: NaN }), optionError("$.concurrency", "NaN"));
    await assert.rejects(runToolCalls(assistant(call("a", "t", {})), tools, { timeoutMs: "50" }), optionError("$.timeoutMs", '"50" (a string)'));
    const out = await runToolCalls(assistant(call("a", "t", {})), tools, { concurrency: 1, timeoutMs: 0 });
    assert.equal(out.blocks[0].result, "ok");
  });

  test("compact: keepLastTurns and keepFirst are checked before anything is summarised", BOUND, async () => {
    const history = [];
    for (let i = 0; i < 6; i++) history.push(human(`q${i}`), { speaker: "ai", blocks: [{ type: "text", text: `a${i}` }] });
    for (const [option, value, shown] of [["keepLastTurns", NaN, "NaN"], ["keepLastTurns", -1, "-1"], ["keepFirst", "1", '"1" (a string)'], ["keepFirst", Infinity, "Infinity"]]) {
      const conversation = new Conversation(history);
      let asked = false;
      await assert.rejects(compact(conversation, { [option]: value, summarize: () => ((asked = true), "summary") }), optionError(`$.${option}`, shown));
      assert.equal(asked, false);
      assert.equal(conversation.length, history.length);
      conversation.free();
    }
  });
});

describe("the tool batch never rejects or hangs for a tool's schema or error", () => {
  const standard = (validate) => ({ "~standard": { version: 1, vendor: "test", validate } });

  test("a Standard Schema validate that throws gives an error result", BOUND, async () => {
    const tool = { name: "v", parameters: standard(() => { throw new Error("validator broke"); }), execute: () => "ran" };
    const out = await within(5_000, runToolCalls(assistant(call("a", "v", {})), [tool]), "throwing validate");
    assert.match(out.blocks[0].error, /validator broke/);
  });

  test("a validate that never settles is covered by timeoutMs", BOUND, async () => {
    let ran = false;
    const tool = { name: "v", parameters: standard(() => new Promise(() => {})), execute: () => (ran = true) };
    const out = await within(5_000, runToolCalls(assistant(call("a", "v", {})), [tool], { timeoutMs: 50 }), "pending validate, timeoutMs 50");
    assert.equal(out.blocks[0].timedOut, true);
    assert.equal(ran, false);
  });

  test("a validate that never settles is cancelled by the signal", BOUND, async () => {
    const controller = new AbortController();
    const tool = { name: "v", parameters: standard(() => new Promise(() => {})), execute: () => "ran" };
    setTimeout(() => controller.abort(), 30);
    const out = await within(5_000, runToolCalls(assistant(call("a", "v", {})), [tool], { signal: controller.signal }), "pending validate, abort");
    assert.equal(out.blocks[0].cancelled, true);
  });

  test("a validate that answers nonsense gives an error result", BOUND, async () => {
    const tool = { name: "v", parameters: standard(() => ({ issues: 42 })), execute: () => "ran" };
    const out = await within(5_000, runToolCalls(assistant(call("a", "v", {})), [tool]), "nonsense validate");
    assert.match(out.blocks[0].error, /^Could not check the arguments for v: .*not a list/);
  });

  test("errors whose message, name or toString throw still give an error result", BOUND, async () => {
    class Hostile extends Error {
      get message() {
        throw new Error("no message for you");
      }
    }
    class Nameless extends Error {
      get message() {
        return "";
      }
      get name() {
        throw new Error("no name either");
      }
    }
    const thrown = [new Hostile(), new Nameless(), Object.create(null), { toString() { throw new Error("no"); }, toJSON() { throw new Error("no"); } }, new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } })];
    const tools = thrown.map((value, i) => ({ name: `t${i}`, execute: () => { throw value; } }));
    const out = await within(5_000, runToolCalls(assistant(...tools.map((t, i) => call(`c${i}`, t.name, {}))), tools), "hostile errors");
    for (const block of out.blocks) assert.equal(typeof block.error, "string", JSON.stringify(block));
    // the batch is a valid message: it joins a conversation
    const conversation = new Conversation([human("hi"), assistant(...tools.map((t, i) => call(`c${i}`, t.name, {})))]);
    conversation.append(out);
    conversation.free();
  });
});

describe("JSON Schema patterns run in linear time and are still enforced", () => {
  const check = async (pattern, value) => {
    const tool = { name: "p", parameters: { type: "object", properties: { v: { type: "string", pattern } } }, execute: () => "ok" };
    return (await runToolCalls(assistant(call("a", "p", { v: value })), [tool])).blocks[0];
  };

  test("^(a+)+$ on 30 and 10,000 characters", BOUND, async () => {
    // hang guard: before, 30 characters took seconds and 10,000 would never end
    const { out: short, ms } = await timed("pattern ^(a+)+$ on 'a' x 30 + '!'", () => check("^(a+)+$", `${"a".repeat(30)}!`));
    assert.ok(ms < 3_000, `the pattern check backtracks: ${ms.toFixed(0)} ms for 31 characters`);
    assert.match(short.error, /must match/);
    const { out: long } = await timed("pattern ^(a+)+$ on 'a' x 10,000 + '!'", () => check("^(a+)+$", `${"a".repeat(10_000)}!`));
    assert.match(long.error, /must match/);
    const { out: good } = await timed("pattern ^(a+)+$ on 'a' x 10,000", () => check("^(a+)+$", "a".repeat(10_000)));
    assert.equal(good.result, "ok");
    const { out: alt } = await timed("pattern ^(a|a)*$ on 'a' x 10,000 + '!'", () => check("^(a|a)*$", `${"a".repeat(10_000)}!`));
    assert.match(alt.error, /must match/);
    const { out: poly } = await timed("pattern [a-z]+@ (unanchored) on 'a' x 100,000", () => check("[a-z]+@", "a".repeat(100_000)));
    assert.match(poly.error, /must match/);
  });

  test("ordinary patterns are enforced as ECMAScript reads them", BOUND, async () => {
    for (const [pattern, good, bad] of [
      ["^[a-z]+$", "abc", "abC"],
      ["^\\d{4}-\\d{2}-\\d{2}$", "2024-01-31", "2024-1-31"],
      ["^(cat|dog)s?$", "dogs", "cow"],
      ["b+", "abbc", "ac"],
      ["^[^/\\\\]+\\.(?:txt|md)$", "notes.md", "../etc/passwd"],
      ["^\\p{Lu}\\w*$", "Émile_2", "émile"],
      ["^\\d{3}\\-\\d{4}$", "555-1234", "5551234"],
      ["^.{2,4}$", "😀😀", "😀"],
      ["^a{2}(?:b|c){1,3}$", "aabcb", "aabcbc"],
      ["\\bword\\b", "a word here", "swordfish"],
      ["^$", "", "x"],
      ["^[\\s\\S]*$", "any\nthing", null],
    ]) {
      assert.equal((await check(pattern, good)).result, "ok", `${pattern} on ${good}`);
      if (bad !== null) assert.match((await check(pattern, bad)).error ?? "", /must match/, `${pattern} on ${bad}`);
    }
  });

  test("patternProperties names run through the same matcher", BOUND, async () => {
    const tool = { name: "p", parameters: { type: "object", patternProperties: { "^(x+)+$": { type: "string" } } }, execute: () => "ok" };
    const names = (n) => ({ ["x".repeat(n)]: 1, [`${"x".repeat(n)}!`]: 1 });
    // hang guard, as above
    const { out: short, ms } = await timed("patternProperties ^(x+)+$ on 30-character names", () => runToolCalls(assistant(call("a", "p", names(30))), [tool]));
    assert.ok(ms < 3_000, `the pattern check backtracks: ${ms.toFixed(0)} ms`);
    assert.match(short.blocks[0].error, /^Invalid arguments for p: \$\.x+: expected string, got number\.$/);
    const { out } = await timed("patternProperties ^(x+)+$ on 5,000-character names", () => runToolCalls(assistant(call("a", "p", names(5_000))), [tool]));
    assert.match(out.blocks[0].error, /expected string/);
  });

  test("a pattern with a backreference or a lookaround is not checked (no linear-time match exists)", BOUND, async () => {
    assert.equal((await check("^(a)\\1$", "ab")).result, "ok");
    assert.equal((await check("^(?=.*\\d).+$", "abc")).result, "ok");
  });
});

describe("retry-after is read in linear time", () => {
  const turnWith = (retryAfter) => {
    const fetch = async () =>
      new Response('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}', { status: 429, headers: { "content-type": "application/json", "retry-after": retryAfter } });
    return streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: KEY, transcript: [human("hi")], fetch }).result.then(() => undefined, (e) => e);
  };

  test("a 64,000-digit retry-after is ignored at once; ordinary values still count", BOUND, async () => {
    const { out: long, ms } = await timed("retry-after: 64,000 digits and an x", () => turnWith(`${"1".repeat(64_000)}x`));
    assert.ok(ms < 3_000, `retry-after parsing backtracks: ${ms.toFixed(0)} ms`);
    assert.equal(long.retryAfterMs, undefined);
    assert.equal((await turnWith("120")).retryAfterMs, 120_000);
    assert.equal((await turnWith("1.5")).retryAfterMs, 1_500);
    assert.equal((await turnWith("+2e1")).retryAfterMs, 20_000);
  });
});

describe("usage totals never write to a prototype", () => {
  test("mergeUsage with a loaded __proto__ key counts it as its own entry", () => {
    const loaded = JSON.parse('{"__proto__": {"turns": 2, "inputTokens": 7}, "anthropic:claude": {"turns": 1, "outputTokens": 3}}');
    const totals = {};
    try {
      mergeUsage(totals, loaded);
      assert.equal({}.turns, undefined, "Object.prototype.turns was written");
      assert.equal({}.inputTokens, undefined, "Object.prototype.inputTokens was written");
      assert.equal(Object.getPrototypeOf(totals), Object.prototype);
      assert.deepEqual(JSON.parse(JSON.stringify(totals)), JSON.parse('{"__proto__": {"turns": 2, "inputTokens": 7}, "anthropic:claude": {"turns": 1, "outputTokens": 3}}'));
      mergeUsage(totals, loaded);
      assert.equal(Object.getOwnPropertyDescriptor(totals, "__proto__").value.turns, 4);
    } finally {
      delete Object.prototype.turns;
      delete Object.prototype.inputTokens;
    }
  });

  test("addUsage and cost read own entries only", () => {
    const totals = JSON.parse('{"__proto__": {"turns": 1, "inputTokens": 1000000}}');
    addUsage(totals, "anthropic", "claude", { inputTokens: 10 });
    assert.equal(totals["anthropic:claude"].turns, 1);
    assert.equal({}.turns, undefined);
    // no price for the "__proto__" entry: refused by name, not priced at NaN
    assert.throws(() => cost(totals, { anthropic: { input: 3, output: 15 } }), /no prices for __proto__/);
  });
});
