// Fault injection for streamTurn (issue 15): tiny hostile servers on 127.0.0.1, each case bounded
// in time. A server that keeps the connection open after the terminal event (or sends keep-alives
// after it), events after the terminal event, a stall, a trickle of keep-alives past the turn's
// time, an endless SSE line, an endless stream of valid events, a long reply (its wasm memory),
// memory running out under a budget, a giant error body, absurd retry-after values, a fetch that ignores
// the abort signal, a connection reset mid-stream, non-streamed answers, HTML / 204 / empty 200s,
// a second turn on a busy conversation. Each case checks the typed outcome and, at the end, the
// suite prints each case's outcome, time and peak RSS. Runs in Node (node --test), Deno
// (deno test) and Bun (bun test): scripts/test-js.sh steps 4 and 6.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { Conversation, DEFAULT_MAX_ERROR_BODY_BYTES, MAX_RETRY_AFTER_MS, isProviderError, isTurnInFlightError, memoryStats, renderBody, setMemoryBudget, streamTurn } from "turnwire";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const sse = (obj) => `data: ${typeof obj === "string" ? obj : JSON.stringify(obj)}\n\n`;

const ANTHROPIC_TEXT = [
  { type: "message_start", message: { id: "msg_1", model: "claude-sonnet-4-5", usage: { input_tokens: 5, output_tokens: 0 } } },
  { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
  { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello." } },
  { type: "content_block_stop", index: 0 },
  { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 2 } },
  { type: "message_stop" },
].map(sse).join("");

const CHAT_TEXT = [
  { id: "c1", model: "gpt-5.2", choices: [{ index: 0, delta: { role: "assistant", content: "Hello." } }] },
  { id: "c1", model: "gpt-5.2", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] },
  { id: "c1", model: "gpt-5.2", choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
].map(sse).join("");

const RESPONSES_TEXT = [
  { type: "response.created", response: { id: "resp_1", model: "gpt-5.2" } },
  { type: "response.output_item.added", output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", content: [] } },
  { type: "response.output_text.delta", output_index: 0, item_id: "msg_1", content_index: 0, delta: "Hello." },
  { type: "response.output_item.done", output_index: 0, item: { type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello." }] } },
  { type: "response.completed", response: { id: "resp_1", status: "completed", usage: { input_tokens: 5, output_tokens: 2 } } },
].map(sse).join("");

/** Whole (non-streamed) answers of each wire format. */
const WHOLE = {
  anthropic: { id: "msg_1", type: "message", role: "assistant", model: "claude-sonnet-4-5", content: [{ type: "text", text: "Hello." }], stop_reason: "end_turn", usage: { input_tokens: 5, output_tokens: 2 } },
  chat: { id: "c1", object: "chat.completion", model: "gpt-5.2", choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: "Hello." } }], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
  responses: { id: "resp_1", object: "response", model: "gpt-5.2", status: "completed", output: [{ type: "message", id: "msg_1", role: "assistant", content: [{ type: "output_text", text: "Hello." }] }], usage: { input_tokens: 5, output_tokens: 2 } },
  gemini: { candidates: [{ content: { role: "model", parts: [{ text: "Hello." }] }, finishReason: "STOP" }], usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 2 } },
};

/** name → (req, res) handler; the server routes on the first path segment. */
const ROUTES = {
  // the whole answer, then the connection stays open with keep-alive comments
  "open-after-done": (res, body) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(body);
    const t = setInterval(() => res.write(": keep-alive\n\n"), 50);
    res.on("close", () => clearInterval(t));
  },
  // a tool call replayed after message_stop, in the same write, then the end
  "after-terminal": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end(
      ANTHROPIC_TEXT +
        sse({ type: "content_block_start", index: 1, content_block: { type: "tool_use", id: "toolu_late", name: "rm_rf", input: {} } }) +
        sse({ type: "content_block_stop", index: 1 }),
    );
  },
  // the start of an answer, then nothing at all
  stall: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(sse(JSON.parse(ANTHROPIC_TEXT.split("\n\n")[0].slice(6))));
  },
  // keep-alives forever, never an event
  trickle: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const t = setInterval(() => res.write(": ping\n\n"), 30);
    res.on("close", () => clearInterval(t));
  },
  // one SSE line that never ends
  "endless-line": (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write("data: {\"type\":\"message_start\",\"pad\":\"");
    const chunk = "x".repeat(64 * 1024);
    let open = true;
    res.on("close", () => (open = false));
    const pump = () => {
      while (open && res.write(chunk));
      if (open) res.once("drain", pump);
    };
    pump();
  },
  // a 500 whose body is 32 MB
  "giant-error": (res) => {
    res.writeHead(500, { "content-type": "application/json" });
    const chunk = "y".repeat(1024 * 1024);
    let sent = 0;
    let open = true;
    res.on("close", () => (open = false));
    res.write('{"error":{"type":"api_error","message":"');
    const pump = () => {
      while (open && sent < 32 && res.write(chunk)) sent++;
      if (!open) return;
      if (sent >= 32) res.end('"}}');
      else res.once("drain", pump);
    };
    pump();
  },
  // 429 with an absurd or negative retry-after
  "retry-huge": (res) => {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "1e12" });
    res.end('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}');
  },
  "retry-negative": (res) => {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "-5" });
    res.end('{"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}');
  },
  // a whole JSON response although the request asked for a stream
  whole: (res, _body, variant) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(WHOLE[variant]));
  },
  // a proxy's login page with status 200
  html: (res) => {
    res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
    res.end("<!doctype html><html><head><title>Sign in</title></head><body>Please sign in to continue.</body></html>");
  },
  "no-content": (res) => res.writeHead(204).end(),
  empty: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.end();
  },
  // a long text reply: `variant` MB in 64 KiB deltas, then the end
  "big-reply": (res, _body, variant) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const [start, block] = ANTHROPIC_TEXT.split("\n\n");
    res.write(`${start}\n\n${block}\n\n`);
    const delta = sse({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "z".repeat(64 * 1024) } });
    let left = Number(variant) * 16;
    let open = true;
    res.on("close", () => (open = false));
    const pump = () => {
      // write() queues the chunk even when it returns false (wait for "drain" then)
      let more = true;
      while (open && left > 0 && more) {
        more = res.write(delta);
        left--;
      }
      if (!open) return;
      if (left === 0) res.end(ANTHROPIC_TEXT.split("\n\n").slice(3).join("\n\n"));
      else res.once("drain", pump);
    };
    pump();
  },
  // half an answer, then the socket is destroyed
  reset: (res) => {
    res.writeHead(200, { "content-type": "text/event-stream" });
    res.write(ANTHROPIC_TEXT.split("\n\n").slice(0, 3).join("\n\n") + "\n\n");
    setTimeout(() => res.socket?.destroy(), 20);
  },
};

let server;
let base;
const sockets = new Set();
before(async () => {
  server = createServer((req, res) => {
    req.resume();
    const [, route, variant] = req.url.split("/");
    const handler = ROUTES[route];
    if (!handler) {
      res.writeHead(404).end();
      return;
    }
    const body = { anthropic: ANTHROPIC_TEXT, chat: CHAT_TEXT, "chat-done": CHAT_TEXT + sse("[DONE]"), responses: RESPONSES_TEXT }[variant] ?? ANTHROPIC_TEXT;
    handler(res, body, variant);
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
  console.log("\nfault injection: case | outcome | ms | peak RSS MB");
  for (const r of report) console.log(`  ${r.name} | ${r.outcome} | ${r.ms} | ${r.rssMb}`);
});

const report = [];
/** Runs one turn against `path`, timing it and sampling RSS; returns {result} or {error}. */
async function turn(name, path, options = {}) {
  const provider = options.provider ?? "anthropic";
  const conversation = new Conversation([human("hi")]);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const start = performance.now();
  let out;
  try {
    const result = await streamTurn({
      provider,
      model: options.model ?? "claude-sonnet-4-5",
      apiKey: "k",
      baseURL: `${base}/${path}`,
      conversation,
      ...options.turn,
    });
    out = { result };
  } catch (error) {
    out = { error };
  } finally {
    clearInterval(sampler);
  }
  const ms = Math.round(performance.now() - start);
  peak = Math.max(peak, process.memoryUsage().rss);
  const outcome = out.error ? `${out.error.kind ?? "error"}/${out.error.errorType ?? out.error.message}` : `resolved (${out.result.stopReason})`;
  report.push({ name, outcome, ms, rssMb: Math.round(peak / 1e6) });
  conversation.free();
  return { ...out, ms };
}

/** Each case is bounded on its own: a hang fails that case only. */
const BOUND = { timeout: 8_000 };

describe("streamTurn against hostile servers (127.0.0.1)", () => {
  for (const [variant, provider, model] of [
    ["anthropic", "anthropic", "claude-sonnet-4-5"],
    ["chat-done", "openai-chat", "gpt-5.2"],
    ["responses", "openai-responses", "gpt-5.2"],
  ]) {
    test(`${provider}: the turn ends at the terminal event although the connection stays open`, BOUND, async () => {
      const { result, ms } = await turn(`open after done (${provider})`, `open-after-done/${variant}`, { provider, model });
      assert.ok(result, "resolved");
      assert.equal(result.incomplete, false);
      assert.equal(result.message.blocks[0].text, "Hello.");
      assert.ok(ms < 1500, `${ms} ms`);
    });
  }

  test("openai-chat without [DONE]: the turn ends shortly after finish_reason, usage kept", BOUND, async () => {
    const { result, ms } = await turn("open after finish_reason, no [DONE] (openai-chat)", "open-after-done/chat", { provider: "openai-chat", model: "gpt-5.2" });
    assert.ok(result, "resolved");
    assert.equal(result.usage.inputTokens, 5);
    assert.ok(ms >= 1900 && ms < 4000, `${ms} ms (AFTER_DONE_GRACE_MS is 2000)`);
  });

  for (const [variant, provider, model] of [
    ["anthropic", "anthropic", "claude-sonnet-4-5"],
    ["chat", "openai-chat", "gpt-5.2"],
    ["responses", "openai-responses", "gpt-5.2"],
    ["gemini", "gemini", "gemini-3-pro-preview"],
  ]) {
    test(`${provider}: a whole JSON answer to a streaming request gives the message a stream would`, BOUND, async () => {
      const { result } = await turn(`non-streamed answer (${provider})`, `whole/${variant}`, { provider, model });
      assert.ok(result, "resolved");
      assert.equal(result.incomplete, false);
      assert.equal(result.message.blocks[0].text, "Hello.");
      assert.equal(result.appended, true);
    });
  }

  for (const [path, status, type] of [
    ["html", 200, /text\/html/],
    ["no-content", 204, /no content type/],
    ["empty", 200, /text\/event-stream/],
  ]) {
    const what = { html: "a 200 that is an HTML login page", empty: "a 200 with an empty body", "no-content": "a 204 (no content)" }[path];
    test(`${what} is a typed, non-retryable unexpected_response`, BOUND, async () => {
      const { error } = await turn(`${path} answer (${status})`, path);
      assert.ok(isProviderError(error), String(error));
      assert.equal(error.kind, "unexpected");
      assert.equal(error.errorType, "unexpected_response");
      assert.equal(error.status, status);
      assert.equal(error.retryable, false);
      assert.match(error.message, type);
      if (path === "html") assert.match(error.body, /Please sign in/);
    });
  }

  test("events after message_stop are ignored and reported, not added", BOUND, async () => {
    const { result } = await turn("tool call after message_stop", "after-terminal");
    assert.deepEqual(result.message.blocks.map((b) => b.type), ["text"]);
    assert.ok(result.errors.some((e) => e.code === "event_after_end"), JSON.stringify(result.errors));
  });

  test("a stall past idleTimeoutMs is a typed, retryable timeout with what arrived", BOUND, async () => {
    const { error, ms } = await turn("stall (idleTimeoutMs 300)", "stall", { turn: { idleTimeoutMs: 300 } });
    assert.ok(isProviderError(error), String(error));
    assert.equal(error.kind, "timeout");
    assert.equal(error.errorType, "idle_timeout");
    assert.equal(error.retryable, true);
    assert.match(error.message, /nothing had arrived/);
    assert.ok(ms >= 280 && ms < 2000, `${ms} ms`);
  });

  test("keep-alives past timeoutMs: a turn_timeout", BOUND, async () => {
    const { error, ms } = await turn("keep-alives only (timeoutMs 400)", "trickle", { turn: { timeoutMs: 400 } });
    assert.equal(error?.kind, "timeout");
    assert.equal(error.errorType, "turn_timeout");
    assert.ok(ms >= 380 && ms < 2000, `${ms} ms`);
  });

  test("an endless SSE line stops at maxEventBytes with a typed limit error", BOUND, async () => {
    const { error, ms } = await turn("endless SSE line (maxEventBytes 4 MiB)", "endless-line", { turn: { maxEventBytes: 4 * 1024 * 1024 } });
    assert.equal(error?.kind, "limit");
    assert.equal(error.errorType, "event_too_large");
    assert.equal(error.retryable, false);
    assert.ok(ms < 5000, `${ms} ms`);
  });

  test("an endless stream of valid events stops at maxReplyBytes with a typed limit error", BOUND, async () => {
    const { error, ms } = await turn("endless valid events (maxReplyBytes 4 MiB)", "big-reply/1000000", { turn: { maxReplyBytes: 4 * 1024 * 1024 } });
    assert.equal(error?.kind, "limit");
    assert.equal(error.errorType, "reply_too_large");
    assert.equal(error.retryable, false);
    const text = error.result.message.blocks[0].text;
    assert.ok(text.length > 3 * 1024 * 1024 && text.length <= 4 * 1024 * 1024, String(text.length));
    assert.equal(error.result.appended, true);
    assert.ok(ms < 5000, `${ms} ms`);
  });

  test("a 32 MB error body is read only up to maxErrorBodyBytes", BOUND, async () => {
    const { error, ms } = await turn("32 MB error body", "giant-error");
    assert.equal(error?.kind, "http");
    assert.equal(error.status, 500);
    assert.equal(typeof error.body, "string", "cut JSON stays text");
    assert.ok(error.body.length <= DEFAULT_MAX_ERROR_BODY_BYTES, String(error.body.length));
    assert.ok(ms < 5000, `${ms} ms`);
  });

  test("retry-after 1e12 is clamped to MAX_RETRY_AFTER_MS; -5 is ignored", BOUND, async () => {
    const huge = await turn("retry-after: 1e12", "retry-huge");
    assert.equal(huge.error.retryAfterMs, MAX_RETRY_AFTER_MS);
    const negative = await turn("retry-after: -5", "retry-negative");
    assert.equal(negative.error.retryAfterMs, undefined);
    assert.equal(negative.error.retryable, true);
  });

  test("abort wins over a fetch that ignores the signal", BOUND, async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const never = () => new Promise(() => {});
    const { result, ms } = await turn("abort, fetch ignores the signal", "stall", { turn: { signal: controller.signal, fetch: never } });
    assert.equal(result?.aborted, true);
    assert.equal(result.appended, false);
    assert.ok(ms < 1000, `${ms} ms`);
  });

  test("a turn in flight owns its conversation: a second turn and free() are TurnInFlightErrors until it settles", BOUND, async () => {
    const conversation = new Conversation([human("hi")]);
    const options = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k", baseURL: `${base}/stall`, conversation, idleTimeoutMs: 300 };
    const first = streamTurn(options);
    const second = streamTurn(options);
    await assert.rejects(second.result, (e) => isTurnInFlightError(e) && e.code === "turn_in_flight");
    assert.throws(() => conversation.free(), (e) => isTurnInFlightError(e));
    await assert.rejects(first.result, (e) => isProviderError(e) && e.errorType === "idle_timeout");
    // settled: the next turn may start, and free() works
    const third = streamTurn({ ...options, baseURL: `${base}/whole/anthropic` });
    assert.equal((await third).message.blocks[0].text, "Hello.");
    assert.equal(conversation.length, 2, "nothing of the stalled turn had arrived; then the reply");
    conversation.free();
    report.push({ name: "second turn / free() during a turn", outcome: "TurnInFlightError", ms: "-", rssMb: Math.round(process.memoryUsage().rss / 1e6) });
  });

  test("a reset mid-stream is an incomplete stream whose partial message was appended", BOUND, async () => {
    const { error } = await turn("connection reset mid-stream", "reset");
    assert.equal(error?.kind, "incomplete");
    assert.equal(error.result.appended, true);
    assert.match(error.message, /the partial message was appended/);
  });

  test("a streamed reply of 8 MB: the wasm bytes it takes at its peak, and after", BOUND, async () => {
    const before = memoryStats({ resetPeak: true });
    const { result } = await turn("8 MB streamed reply (memory)", "big-reply/8");
    const after = memoryStats();
    const reply = 8 * 1024 * 1024;
    const peak = (after.peakBytes - before.liveBytes) / reply;
    report.at(-1).outcome += `, wasm peak ${peak.toFixed(2)}x the reply, ${Math.round((after.liveBytes - before.liveBytes) / 1024)} KiB kept`;
    assert.equal(result?.message.blocks[0].text.length, reply);
    // It was 4.0x before the reply was handed over with one copy and exactly sized JSON.
    assert.ok(peak < 2.5, `peak wasm bytes in use ${peak.toFixed(2)}x the reply`);
    assert.ok(after.liveBytes - before.liveBytes < 256 * 1024, "nothing of the turn stays in wasm memory");
  });

  test("memory runs out under a budget the test sets: a typed out_of_memory limit, the conversation usable", BOUND, async () => {
    const conversation = new Conversation([human("hi")]);
    const start = memoryStats();
    setMemoryBudget(start.liveBytes + 2 * 1024 * 1024);
    const began = performance.now();
    let error;
    try {
      await streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k", baseURL: `${base}/big-reply/16`, conversation });
    } catch (e) {
      error = e;
    } finally {
      setMemoryBudget(start.budgetBytes);
    }
    const ms = Math.round(performance.now() - began);
    report.push({ name: "16 MB reply over a 2 MiB memory budget", outcome: `${error?.kind}/${error?.errorType}`, ms, rssMb: Math.round(process.memoryUsage().rss / 1e6) });
    assert.ok(isProviderError(error), String(error));
    assert.equal(error.kind, "limit");
    assert.equal(error.errorType, "out_of_memory");
    assert.equal(error.retryable, false);
    const text = error.result.message.blocks[0].text;
    assert.ok(text.length > 0 && text.length < 16 * 1024 * 1024, "what arrived is kept, reading stopped");
    // The conversation works: with memory again it holds the partial reply and renders as fresh.
    assert.equal(conversation.length, error.result.appended ? 2 : 1);
    const options = { provider: "anthropic", model: "claude-sonnet-4-5" };
    const bytes = conversation.render(options);
    assert.equal(Buffer.compare(Buffer.from(bytes), Buffer.from(renderBody(conversation.toJSON(), options))), 0);
    conversation.free();
  });
});
