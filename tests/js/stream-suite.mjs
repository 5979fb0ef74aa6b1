// The streaming half of the one JS suite (suite.mjs calls it; every runtime runs it): the
// StreamDecoder on every golden stream (tests/fixtures/streams), the SSE and JSON-array framing
// on random chunk splits, and streamTurn against a fake fetch that answers a ReadableStream built
// from the golden events (no server, so it runs in workerd and the browser too): outcomes,
// requests, HTTP and network errors, stream errors, truncation and abort. With `host.mock`
// (Chromium and workerd, from run.mjs) also streamTurn against the strict mock providers.
// Like suite.mjs it imports nothing that a browser page or a worker could not load.

import { MODELS } from "./models.mjs";

/** A history every provider renders: a finished tool round, then a new question. */
const HISTORY = [
  { speaker: "human", blocks: [{ type: "text", text: "What is in src/?" }] },
  { speaker: "ai", blocks: [{ type: "tool_call", id: "call_hist_1", name: "list_files", parameters: { path: "src" } }] },
  { speaker: "tool", blocks: [{ type: "tool_response", callId: "call_hist_1", toolName: "list_files", result: "lib.rs main.rs" }] },
  { speaker: "human", blocks: [{ type: "text", text: "And what does lib.rs do? ✓" }] },
];

const TOOLS = [{ name: "list_files", description: "List files", parameters: { type: "object", properties: { path: { type: "string" } } } }];
const BASE = "https://llm.example.test/base";
const encoder = new TextEncoder();

/** A small seeded PRNG (mulberry32): the same seed, the same splits, in every runtime. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `bytes` cut at random offsets: pieces of 1..max bytes (often single bytes, so code points split). */
export function randomSplit(bytes, rand, max = 64) {
  const out = [];
  let at = 0;
  while (at < bytes.length) {
    const r = rand();
    const size = r < 0.25 ? 1 : 1 + Math.floor(rand() * max);
    out.push(bytes.subarray(at, Math.min(bytes.length, at + size)));
    at += size;
  }
  return out;
}

/** The non-empty lines of a golden `.events` file (one `data:` payload each). */
export const eventLines = (fixture) => fixture.files.events.split("\n").filter((l) => l !== "");

/** The `event:` name a provider sends with a payload (Anthropic, Responses), or undefined. */
export function eventName(provider, line) {
  if (provider !== "anthropic" && provider !== "openai-responses") return undefined;
  try {
    const t = JSON.parse(line).type;
    return typeof t === "string" ? t : undefined;
  } catch {
    return undefined;
  }
}

/** A golden stream framed as its provider sends it: `event:` + `data:` lines, Gemini with CRLF, a keep-alive comment first. */
export function frameSSE(provider, lines) {
  const eol = provider === "gemini" ? "\r\n" : "\n";
  let text = `: keep-alive${eol}${eol}`;
  for (const line of lines) {
    const name = eventName(provider, line);
    text += `${name === undefined ? "" : `event: ${name}${eol}`}data: ${line}${eol}${eol}`;
  }
  return text;
}

/** Gemini's non-SSE answer: one JSON array, an element per chunk, `,\r\n` between them. */
export const frameArray = (lines) => `[${lines.join(",\r\n")}]`;

/** Ollama's answer: NDJSON, one object a line. */
export const frameNdjson = (lines) => lines.map((l) => `${l}\n`).join("");

/** CRC-32 (gzip's), for the event-stream frames below. */
function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

/** ConverseStream's event names; any other key of a golden line is an exception. */
const CONVERSE_EVENTS = new Set(["messageStart", "contentBlockStart", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);

/**
 * One golden ConverseStream line (`{"<eventType>": payload}`) as the AWS event-stream message
 * Bedrock sends: string headers `:event-type` (or `:exception-type`), `:content-type`,
 * `:message-type`, then the JSON payload, the prelude and message CRCs.
 */
export function frameEventStream(line) {
  const [[type, payload]] = Object.entries(JSON.parse(line));
  const exception = !CONVERSE_EVENTS.has(type);
  const headers = [
    [exception ? ":exception-type" : ":event-type", type],
    [":content-type", "application/json"],
    [":message-type", exception ? "exception" : "event"],
  ].map(([name, value]) => {
    const n = encoder.encode(name);
    const v = encoder.encode(value);
    const h = new Uint8Array(1 + n.length + 3 + v.length);
    h[0] = n.length;
    h.set(n, 1);
    h[1 + n.length] = 7;
    new DataView(h.buffer).setUint16(2 + n.length, v.length);
    h.set(v, 4 + n.length);
    return h;
  });
  const headerBytes = headers.reduce((a, h) => a + h.length, 0);
  const body = encoder.encode(JSON.stringify(payload));
  const total = 12 + headerBytes + body.length + 4;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headerBytes);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let at = 12;
  for (const h of headers) {
    out.set(h, at);
    at += h.length;
  }
  out.set(body, at);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/** A golden stream as its provider frames it on the wire: bytes, with the answer's content type. */
export function frameWire(provider, lines) {
  if (provider === "bedrock-converse") {
    const frames = lines.map(frameEventStream);
    const bytes = new Uint8Array(frames.reduce((a, f) => a + f.length, 0));
    let at = 0;
    for (const f of frames) {
      bytes.set(f, at);
      at += f.length;
    }
    return { bytes, contentType: "application/vnd.amazon.eventstream" };
  }
  if (provider === "ollama") return { bytes: encoder.encode(frameNdjson(lines)), contentType: "application/x-ndjson" };
  return { bytes: encoder.encode(frameSSE(provider, lines)), contentType: "text/event-stream; charset=utf-8" };
}

/** Every SseEvent a parser gives for `chunks`. */
function parseAll(api, chunks, extra = {}) {
  const events = [];
  const retries = [];
  const comments = [];
  const parser = new api.SseParser({
    onEvent: (e) => events.push(e),
    onRetry: (ms) => retries.push(ms),
    onComment: (c) => comments.push(c),
    ...extra,
  });
  for (const c of chunks) parser.feed(c);
  parser.end();
  return { events, retries, comments };
}

/**
 * A ReadableStream over `chunks`, one per pull. `hold` (a chunk count) stops there until the
 * stream is cancelled; `fail` (a chunk count) errors the stream there, as a reset connection.
 */
function byteStream(chunks, { hold, fail, onCancel } = {}) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (fail !== undefined && i >= fail) {
        controller.error(new TypeError("terminated: other side closed"));
        return undefined;
      }
      if (hold !== undefined && i >= hold) return new Promise(() => {});
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
      return undefined;
    },
    cancel(reason) {
      onCancel?.(reason);
    },
  });
}

/** A fetch that records its calls and answers with `respond(url, init)`. */
function fakeFetch(respond) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    return respond(url, init);
  };
  return { fetch, calls };
}

const sseResponse = (body, status = 200) => new Response(body, { status, headers: { "content-type": "text/event-stream; charset=utf-8" } });

/** Outcome and every delta of `lines` decoded by a StreamDecoder directly (the reference). */
function decodeDirect(api, provider, lines, options) {
  const decoder = new api.StreamDecoder(provider, options);
  try {
    const deltas = [];
    for (const l of lines) deltas.push(...decoder.push(l));
    return { outcome: decoder.finish(), deltas };
  } finally {
    decoder.free();
  }
}

/** The outcome without `errorType` on its errors (the Rust goldens carry code and message only). */
function withoutErrorTypes(outcome) {
  return { ...outcome, errors: outcome.errors.map(({ code, message }) => ({ code, message })) };
}

/**
 * A message without `metadata.providerBaseURL` and `metadata.account` (streamTurn sets them to
 * the base URL and to the key's label, `key-` and 16 hex digits: issue 31).
 */
function withoutBaseURL(message) {
  if (!message.metadata) return message;
  const { providerBaseURL, account, ...metadata } = message.metadata;
  void providerBaseURL;
  if (account !== undefined && !/^key-[0-9a-f]{16}$/.test(account)) throw new Error(`account ${account} is not a key label`);
  return { ...message, metadata };
}

/**
 * `message` with the call ids another decode minted swapped for a third decode's, in order: a
 * stream that sends no call ids (Ollama before 0.12.10) gets them minted from the turn's id seed,
 * where its golden was decoded without one.
 */
function renamedCalls(message, minted, golden) {
  const ids = (m) => m.blocks.filter((b) => b.type === "tool_call").map((b) => b.id);
  const to = ids(golden);
  const map = new Map(ids(minted).map((id, i) => [id, to[i]]));
  return { ...message, blocks: message.blocks.map((b) => (b.type === "tool_call" && map.has(b.id) ? { ...b, id: map.get(b.id) } : b)) };
}

/**
 * The deltas without the `done` (stopReason "error") of an exception frame: the bytes path
 * hands on what the frames of one push carried, that `done` included, where the text path
 * leaves an erroring event's own deltas out (the outcomes are the same).
 */
const withoutErrorDone = (deltas) => deltas.filter((d) => !(d.type === "done" && d.stopReason === "error"));

/** Awaits a promise that must reject; returns the reason. */
async function rejection(assert, promise, what) {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  assert.fail(`${what}: expected a rejection`);
  return undefined;
}

/** The failure a golden outcome must end streamTurn with: null, "stream" or "incomplete". */
function expectedFailure(outcome) {
  if (outcome.errors.some((e) => e.code === "provider_error")) return "stream";
  return outcome.incomplete ? "incomplete" : null;
}

/** The WHATWG event-stream cases: input text → events (event, data, id, lastEventId), retries, comments. */
export const SSE_CASES = [
  {
    name: "LF, CR and CRLF line ends, mixed",
    input: "data: a\n\ndata: b\r\rdata: c\r\n\r\ndata: d\n\r\n",
    events: [["message", "a"], ["message", "b"], ["message", "c"], ["message", "d"]],
  },
  {
    name: "multi-line data joins with LF; one leading space is removed, a second kept",
    input: "data:one\ndata: two\ndata:  three\ndata\ndata:\n\n",
    events: [["message", "one\ntwo\n three\n\n"]],
  },
  {
    name: "a BOM at the start is dropped (only there)",
    input: "\uFEFFdata: x\n\n\uFEFFdata: y\n\ndata: z\n\n",
    events: [["message", "x"], ["message", "z"]],
    // the second BOM makes the field name "\uFEFFdata": an unknown field, ignored
  },
  {
    name: "event names; an empty one is the default; a name without data dispatches nothing",
    input: "event: ping\ndata: {}\n\nevent:\ndata: 1\n\nevent: lonely\n\ndata: 2\n\n",
    events: [["ping", "{}"], ["message", "1"], ["message", "2"]],
  },
  {
    name: "id persists as lastEventId; an id with NUL is ignored; id: empty resets",
    input: "id: 7\ndata: a\n\ndata: b\n\nid: 8\u0000x\ndata: c\n\nid\ndata: d\n\n",
    events: [
      ["message", "a", "7", "7"],
      ["message", "b", undefined, "7"],
      ["message", "c", undefined, "7"],
      ["message", "d", "", ""],
    ],
  },
  {
    name: "retry: only ASCII digits count",
    input: "retry: 1500\nretry: 15s\nretry:-1\nretry: 20\ndata: r\n\n",
    events: [["message", "r"]],
    retries: [1500, 20],
  },
  {
    name: "comments and unknown fields are skipped; a colon in the value stays",
    input: ": hello\n:\nfoo: bar\nDATA: no\ndata: a:b: c\n\n: bye\n\n",
    events: [["message", "a:b: c"]],
    comments: ["hello", "", "bye"],
  },
  {
    name: "an event not closed by a blank line is dropped at the end",
    input: "data: done\n\ndata: cut off",
    events: [["message", "done"]],
  },
  {
    name: "blank lines alone dispatch nothing; data: with an empty value dispatches an empty event",
    input: "\n\n\r\n\ndata:\n\n",
    events: [["message", ""]],
  },
  {
    name: "multi-byte UTF-8 (2, 3 and 4 bytes) survives any split",
    input: "data: é — 中文 — 🦀 ✓\n\nevent: ü\ndata: 💥\n\n",
    events: [["message", "é — 中文 — 🦀 ✓"], ["ü", "💥"]],
  },
  {
    name: "a stream ending in CR closes its last event (a bare CR is a line end)",
    input: "data: last\r\r",
    events: [["message", "last"]],
  },
];

export function defineStreamSuite(api, label, host) {
  const { describe, test, assert } = host;
  const streams = host.fixtures.filter((f) => f.stream);
  assert.ok(streams.length >= 30, `the host must pass the golden streams too (got ${streams.length})`);
  const providers = [...new Set(streams.map((f) => f.stream.provider))];

  /** Checks a parse of `input` (as chunks) against an SSE_CASES entry. */
  function checkCase(c, got, where) {
    const want = c.events.map(([event, data, id, lastEventId]) => ({ event, data, id, lastEventId: lastEventId ?? "" }));
    assert.deepEqual(
      got.events.map((e) => ({ event: e.event, data: e.data, id: e.id, lastEventId: e.lastEventId })),
      want,
      `${c.name} (${where})`,
    );
    assert.deepEqual(got.retries, c.retries ?? [], `${c.name}: retries (${where})`);
    if (c.comments) assert.deepEqual(got.comments, c.comments, `${c.name}: comments (${where})`);
  }

  describe(`streaming (${label})`, () => {
    describe("StreamDecoder decodes every golden stream to its Rust outcome and deltas", () => {
      for (const fixture of streams) {
        test(fixture.name, () => {
          const { provider } = fixture.stream;
          const { outcome, deltas } = decodeDirect(api, provider, eventLines(fixture), { model: MODELS[provider] });
          for (const e of outcome.errors) assert.equal(typeof e.errorType === "string", e.code === "provider_error", JSON.stringify(e));
          for (const d of deltas.filter((d) => d.type === "error")) {
            assert.ok(outcome.errors.some((e) => e.code === d.code && e.message === d.message), JSON.stringify(d));
          }
          const actual = { outcome: withoutErrorTypes(outcome), deltas: deltas.filter((d) => d.type !== "error") };
          assert.equal(JSON.stringify(actual, null, 2) + "\n", fixture.files["expected.json"], fixture.name);
        });
      }
    });

    describe("SSE framing", () => {
      test("every golden stream, framed as its provider sends it and cut at random bytes, gives its events back", () => {
        const rand = rng(0x5ee);
        for (const fixture of streams) {
          const { provider } = fixture.stream;
          const lines = eventLines(fixture);
          const bytes = encoder.encode(frameSSE(provider, lines));
          const want = lines.map((data) => ({ event: eventName(provider, data) ?? "message", data }));
          for (let round = 0; round < 12; round++) {
            const chunks = round === 0 ? [bytes] : round === 1 ? Array.from(bytes, (b) => new Uint8Array([b])) : randomSplit(bytes, rand);
            const got = parseAll(api, chunks);
            assert.deepEqual(got.events.map(({ event, data }) => ({ event, data })), want, `${fixture.name}, round ${round}`);
            assert.deepEqual(got.comments, ["keep-alive"], fixture.name);
          }
        }
      });

      test("WHATWG cases, as bytes and as text, cut at every offset and at random", () => {
        const rand = rng(42);
        for (const c of SSE_CASES) {
          const bytes = encoder.encode(c.input);
          checkCase(c, parseAll(api, [bytes]), "whole bytes");
          checkCase(c, parseAll(api, [c.input]), "whole text");
          for (let i = 0; i <= bytes.length; i++) checkCase(c, parseAll(api, [bytes.subarray(0, i), bytes.subarray(i)]), `bytes cut at ${i}`);
          for (let i = 0; i <= c.input.length; i++) checkCase(c, parseAll(api, [c.input.slice(0, i), c.input.slice(i)]), `text cut at ${i}`);
          for (let round = 0; round < 20; round++) checkCase(c, parseAll(api, randomSplit(bytes, rand, 5)), `random bytes, round ${round}`);
        }
      });

      test("the parser takes a plain onEvent function and is cheap on long lines cut small", () => {
        const events = [];
        const parser = new api.SseParser((e) => events.push(e));
        const big = "x".repeat(200_000);
        const bytes = encoder.encode(`data: ${big}\n\n`);
        for (let at = 0; at < bytes.length; at += 7) parser.feed(bytes.subarray(at, at + 7));
        parser.end();
        assert.equal(events.length, 1);
        assert.equal(events[0].data.length, big.length);
      });
    });

    describe("JSON array framing (Gemini without alt=sse)", () => {
      test("every Gemini golden stream as a JSON array, cut at random, gives its chunks back", () => {
        const rand = rng(7);
        for (const fixture of streams.filter((f) => f.stream.provider === "gemini")) {
          const lines = eventLines(fixture).filter((l) => l !== "[DONE]");
          const bytes = encoder.encode(frameArray(lines));
          for (let round = 0; round < 12; round++) {
            const got = [];
            const parser = new api.JsonArrayParser((json) => got.push(json));
            for (const c of round === 0 ? [bytes] : randomSplit(bytes, rand, 40)) parser.feed(c);
            parser.end();
            assert.deepEqual(got, lines, `${fixture.name}, round ${round}`);
          }
        }
      });

      test("strings with brackets, braces, quotes and escapes; NDJSON; scalars; an unfinished element is dropped", () => {
        const tricky = ['{"t":"] } [ {"}', '{"t":"a \\" ] \\\\"}', '{"n":[1,[2,{"x":"}"}]],"u":"\\u005d"}', '[1,"]",{"a":[]}]'];
        const cases = [
          [`[${tricky.join(",")}]`, tricky],
          [`  [\n${tricky.join(" ,\n")}\n]\n`, tricky],
          [`${tricky.join("\n")}\n`, tricky],
          ['{"a":1}{"b":2}', ['{"a":1}', '{"b":2}']],
          ['[1, "two", true, null, 3.5e2]', ["1", '"two"', "true", "null", "3.5e2"]],
          ['[{"done":1},{"cut":', ['{"done":1}']],
          ["[]", []],
        ];
        for (const [input, want] of cases) {
          const bytes = encoder.encode(input);
          for (let i = 0; i <= bytes.length; i++) {
            const got = [];
            const parser = new api.JsonArrayParser((json) => got.push(json));
            parser.feed(bytes.subarray(0, i));
            parser.feed(bytes.subarray(i));
            parser.end();
            assert.deepEqual(got, want, `${JSON.stringify(input)} cut at ${i}`);
          }
        }
      });
    });

    describe("binary event-stream (Bedrock) framing", () => {
      test("every ConverseStream golden as event-stream bytes, cut anywhere, decodes as its JSON lines do", () => {
        const rand = rng(0xb3d);
        const provider = "bedrock-converse";
        const goldens = streams.filter((f) => f.stream.provider === provider);
        assert.ok(goldens.length >= 5, `Converse goldens: ${goldens.length}`);
        for (const fixture of goldens) {
          const lines = eventLines(fixture);
          const want = decodeDirect(api, provider, lines, { model: MODELS[provider] });
          const { bytes } = frameWire(provider, lines);
          for (let round = 0; round < 8; round++) {
            const chunks = round === 0 ? [bytes] : round === 1 ? Array.from(bytes, (b) => new Uint8Array([b])) : randomSplit(bytes, rand);
            const got = decodeDirect(api, provider, chunks, { model: MODELS[provider] });
            assert.deepEqual(got.outcome, want.outcome, `${fixture.name}, round ${round}`);
            assert.deepEqual(withoutErrorDone(got.deltas), want.deltas, `${fixture.name}, round ${round}: deltas`);
          }
        }
      });

      test("bytes for a wire that streams text are a TurnwireError; a frame past maxEventBytes is frame_too_large", () => {
        const sse = new api.StreamDecoder("anthropic");
        try {
          assert.throws(() => sse.push(new Uint8Array([1, 2, 3])), (e) => api.isTurnwireError(e) && e.code === "invalid_type");
        } finally {
          sse.free();
        }
        const line = JSON.stringify({ contentBlockDelta: { contentBlockIndex: 0, delta: { text: "x".repeat(300) } } });
        const { outcome } = decodeDirect(api, "bedrock-converse", [frameEventStream(line)], { maxEventBytes: 200 });
        assert.ok(outcome.errors.some((e) => e.code === "frame_too_large"), JSON.stringify(outcome.errors));
        assert.deepEqual(outcome.message.blocks, []);
      });
    });

    describe("providerRequest and ProviderError", () => {
      test("each provider's URL, auth headers and streaming switches", () => {
        const want = {
          anthropic: [`${BASE}/v1/messages`, { "x-api-key": "k", "anthropic-version": "2023-06-01" }, { stream: true }],
          "openai-chat": [`${BASE}/chat/completions`, { authorization: "Bearer k" }, { stream: true, stream_options: { include_usage: true } }],
          "openai-responses": [`${BASE}/responses`, { authorization: "Bearer k" }, { stream: true }],
          gemini: [`${BASE}/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse`, { "x-goog-api-key": "k" }, {}],
          mistral: [`${BASE}/chat/completions`, { authorization: "Bearer k" }, { stream: true }],
          kimi: [`${BASE}/chat/completions`, { authorization: "Bearer k" }, { stream: true }],
          deepseek: [`${BASE}/chat/completions`, { authorization: "Bearer k" }, { stream: true, stream_options: { include_usage: true } }],
          "openai-compatible": [`${BASE}/chat/completions`, { authorization: "Bearer k" }, { stream: true, stream_options: { include_usage: true } }],
          // the model id URL-encoded once (`:` → `%3A`, as the AWS SDKs send it); no stream field
          "bedrock-converse": [`${BASE}/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream`, { authorization: "Bearer k" }, {}],
          ollama: [`${BASE}/api/chat`, { authorization: "Bearer k" }, { stream: true }],
        };
        const ACCEPT = { "bedrock-converse": "application/vnd.amazon.eventstream", ollama: "application/x-ndjson" };
        for (const [provider, [url, auth, extra]] of Object.entries(want)) {
          const r = api.providerRequest({ provider, model: MODELS[provider], apiKey: "k", baseURL: `${BASE}/` });
          assert.equal(r.url, url, provider);
          assert.equal(r.baseURL, BASE, provider);
          assert.deepEqual(r.headers, { "content-type": "application/json", accept: ACCEPT[provider] ?? "text/event-stream", ...auth }, provider);
          assert.deepEqual(r.extra, extra, provider);
        }
        assert.equal(api.providerRequest({ provider: "anthropic", model: "m" }).url, "https://api.anthropic.com/v1/messages");
        assert.equal(api.DEFAULT_BASE_URLS.gemini, "https://generativelanguage.googleapis.com");
        assert.equal(api.DEFAULT_BASE_URLS["bedrock-converse"], "https://bedrock-runtime.{region}.amazonaws.com");
        assert.equal(api.providerRequest({ provider: "bedrock-converse", model: "m", region: "eu-west-3" }).url, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/m/converse-stream");
        // a local Ollama needs no key
        const local = api.providerRequest({ provider: "ollama", model: "qwen3:8b" });
        assert.equal(local.url, "http://localhost:11434/api/chat");
        assert.equal(local.headers.authorization, undefined);
        assert.equal(Object.isFrozen(api.DEFAULT_BASE_URLS), true);
        assert.equal(
          api.providerRequest({ provider: "gemini", model: "models/gemini-2.5-flash" }).url,
          "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
        );
        const custom = api.providerRequest({ provider: "openai-chat", model: "m", apiKey: "k", headers: { Authorization: "Bearer other", "X-Trace": "1" } });
        assert.equal(custom.headers.authorization, "Bearer other");
        assert.equal(custom.headers["x-trace"], "1");
        assert.equal(api.providerRequest({ provider: "mistral", model: "m" }).headers.authorization, undefined);
        assert.throws(() => api.providerRequest({ provider: "openai-compatible", model: "m" }), TypeError);
        assert.throws(() => api.providerRequest({ provider: "anthropic", model: "m", baseURL: "localhost:8080" }), TypeError);
        assert.throws(() => api.providerRequest({ provider: "bard", model: "m" }), TypeError);
      });

      test("ProviderError is an Error with a stable name; isProviderError recognises it", () => {
        const e = new api.ProviderError({ kind: "http", provider: "anthropic", status: 529, errorType: "overloaded_error", message: "Overloaded", retryable: true });
        assert.ok(e instanceof Error);
        assert.equal(e.name, "ProviderError");
        assert.ok(String(e.stack).includes("ProviderError"));
        assert.equal(e.retryAfterMs, undefined);
        assert.ok(api.isProviderError(e));
        assert.equal(api.isProviderError(new Error("x")), false);
        assert.equal(api.isProviderError({ name: "ProviderError", status: 1, retryable: true, errorType: "x", provider: "p" }), false);
        assert.equal(api.isProviderError(null), false);
      });
    });

    describe("streamTurn over a fake fetch answering each golden stream", () => {
      for (const fixture of streams) {
        test(fixture.name, async () => {
          const { provider } = fixture.stream;
          const model = MODELS[provider];
          const lines = eventLines(fixture);
          const golden = JSON.parse(fixture.files["expected.json"]);
          const rand = rng(lines.length * 31 + provider.length);
          // framed as the provider sends it (SSE; Bedrock's binary event stream; Ollama's NDJSON), cut at random bytes
          const wire = frameWire(provider, lines);
          const { fetch, calls } = fakeFetch(() => new Response(byteStream(randomSplit(wire.bytes, rand, 48)), { headers: { "content-type": wire.contentType } }));
          const conversation = new api.Conversation(HISTORY);
          try {
            const turn = api.streamTurn({ provider, model, apiKey: "k", baseURL: BASE, conversation, fetch, render: { tools: TOOLS } });
            const deltas = [];
            let thrown;
            try {
              for await (const d of turn) deltas.push(d);
            } catch (e) {
              thrown = e;
            }
            const failure = expectedFailure(golden.outcome);
            let result;
            if (failure === null) {
              assert.equal(thrown, undefined, String(thrown));
              result = await turn;
            } else {
              const e = await rejection(assert, turn.result, fixture.name);
              assert.equal(thrown, e, "the loop throws what the result rejects with");
              assert.ok(api.isProviderError(e), String(e));
              assert.equal(e.kind, failure);
              assert.equal(e.status, 200);
              assert.equal(e.provider, provider);
              if (failure === "stream") {
                const reported = golden.outcome.errors.find((x) => x.code === "provider_error");
                assert.ok(reported.message.includes(`(${e.errorType})`), `${e.errorType} vs ${reported.message}`);
                assert.ok(e.body !== null && typeof e.body === "object", "the error event's payload");
              } else {
                assert.equal(e.errorType, "incomplete_stream");
                assert.equal(e.retryable, true);
              }
              result = e.result;
            }

            // The request: URL, headers, and turnwire's body with the streaming switches.
            assert.equal(calls.length, 1);
            const req = api.providerRequest({ provider, model, apiKey: "k", baseURL: BASE });
            assert.equal(calls[0].url, req.url);
            assert.deepEqual(calls[0].init.headers, req.headers);
            assert.equal(calls[0].init.method, "POST");
            const expectedBody = api.renderBody(HISTORY, { provider, model, endpoint: BASE, tools: TOOLS, extra: req.extra });
            assert.deepEqual(encoder.encode(calls[0].init.body), expectedBody, "the body is turnwire's, byte for byte");
            assert.deepEqual(api.validateRequest(provider, calls[0].init.body, model), []);
            assert.deepEqual(result.request, { url: req.url, provider, model });

            // The outcome is the decoder's on the same events, and the Rust golden's.
            // the account is the key's label (issue 31: a truncated SHA-256, never the key)
            const account = result.message.metadata?.account;
            assert.match(account ?? "", /^key-[0-9a-f]{16}$/);
            const direct = decodeDirect(api, provider, lines, { model, endpoint: BASE, account, idSeed: `turn-${HISTORY.length}` });
            assert.deepEqual(provider === "bedrock-converse" ? withoutErrorDone(deltas) : deltas, direct.deltas, "the deltas are the decoder's, errors included");
            const { diagnostics, idMap, toolNames, request, aborted, appended, ...outcome } = result;
            assert.deepEqual(outcome, direct.outcome);
            const unseeded = decodeDirect(api, provider, lines, { model }).outcome.message;
            assert.deepEqual(renamedCalls(withoutBaseURL(outcome.message), direct.outcome.message, unseeded), golden.outcome.message);
            assert.equal(outcome.message.metadata.providerBaseURL, BASE);
            assert.deepEqual(withoutErrorTypes({ ...outcome, message: golden.outcome.message }), golden.outcome);
            assert.equal(aborted, false);
            assert.deepEqual(idMap, api.renderForProvider(HISTORY, { provider, model, tools: TOOLS }).idMap);
            assert.ok(Array.isArray(diagnostics) && typeof toolNames === "object" && request.url === req.url);

            // Appended (a partial message too): the next render continues from it and is valid.
            assert.equal(appended, outcome.message.blocks.length > 0);
            assert.equal(conversation.length, HISTORY.length + (appended ? 1 : 0));
            if (appended) assert.deepEqual(conversation.toJSON().at(-1), outcome.message);
            for (const next of ["anthropic", "openai-chat", provider]) {
              const body = conversation.render({ provider: next, model: MODELS[next], tools: TOOLS });
              assert.deepEqual(api.validateRequest(next, body, MODELS[next]), [], `${fixture.name} → ${next}`);
            }
          } finally {
            conversation.free();
          }
        });
      }

      test("Gemini answered as a JSON array (no alt=sse) decodes the same", async () => {
        for (const fixture of streams.filter((f) => f.stream.provider === "gemini" && !f.stream.case.includes("error"))) {
          const lines = eventLines(fixture);
          const body = encoder.encode(frameArray(lines));
          const { fetch } = fakeFetch(() => new Response(byteStream(randomSplit(body, rng(3), 30)), { headers: { "content-type": "application/json; charset=UTF-8" } }));
          const viaArray = await api.streamTurn({ provider: "gemini", model: MODELS.gemini, transcript: HISTORY, fetch, baseURL: BASE }).result.catch((e) => e.result);
          const direct = decodeDirect(api, "gemini", lines, { model: MODELS.gemini, endpoint: BASE, idSeed: `turn-${HISTORY.length}` });
          assert.deepEqual(viaArray.message, direct.outcome.message, fixture.name);
          assert.equal(viaArray.appended, false, "a transcript is not changed");
        }
      });
    });

    describe("streamTurn failures", () => {
      const httpCases = [
        // provider, status, headers, body, errorType, retryable, retryAfterMs
        ["anthropic", 529, { "x-should-retry": "true" }, { type: "error", error: { type: "overloaded_error", message: "Overloaded" } }, "overloaded_error", true, undefined],
        ["anthropic", 429, { "retry-after": "3" }, { type: "error", error: { type: "rate_limit_error", message: "slow down" } }, "rate_limit_error", true, 3000],
        ["anthropic", 400, {}, { type: "error", error: { type: "invalid_request_error", message: "messages.0: bad" } }, "invalid_request_error", false, undefined],
        ["anthropic", 500, { "x-should-retry": "false" }, { type: "error", error: { type: "api_error", message: "no" } }, "api_error", false, undefined],
        ["openai-chat", 429, { "retry-after-ms": "250", "retry-after": "9" }, { error: { message: "Rate limit", type: "requests", param: null, code: "rate_limit_exceeded" } }, "rate_limit_exceeded", true, 250],
        ["openai-chat", 429, {}, { error: { message: "quota", type: "insufficient_quota", param: null, code: "insufficient_quota" } }, "insufficient_quota", false, undefined],
        ["openai-responses", 401, {}, { error: { message: "bad key", type: "invalid_request_error", param: null, code: "invalid_api_key" } }, "invalid_api_key", false, undefined],
        ["openai-compatible", 500, {}, { error: { message: "boom", type: "server_error", param: null, code: null } }, "server_error", true, undefined],
        ["gemini", 503, {}, { error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }, "UNAVAILABLE", true, undefined],
        ["gemini", 429, { "retry-after": "1" }, [{ error: { code: 429, message: "Resource has been exhausted", status: "RESOURCE_EXHAUSTED" } }], "RESOURCE_EXHAUSTED", true, 1000],
        ["gemini", 400, {}, { error: { code: 400, message: "bad", status: "INVALID_ARGUMENT" } }, "INVALID_ARGUMENT", false, undefined],
        ["mistral", 429, {}, { object: "error", message: "Rate limit exceeded", type: "rate_limited", param: null, code: "1300" }, "rate_limited", true, undefined],
        ["mistral", 401, {}, { message: "Unauthorized", request_id: "r" }, "http_401", false, undefined],
        ["kimi", 503, {}, { error: { message: "overloaded", type: "engine_overloaded_error" } }, "engine_overloaded_error", true, undefined],
        ["deepseek", 404, {}, "Not Found", "http_404", false, undefined],
        ["deepseek", 502, {}, "<html>bad gateway</html>", "http_502", true, undefined],
        // AWS (Bedrock Runtime, or an endpoint behind AWS) names the error in x-amzn-ErrorType and
        // classifies by it, whatever the status says (424 is both a model error and a stream error)
        ["openai-compatible", 429, { "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "Too many requests, please wait before trying again." }, "ThrottlingException", true, undefined],
        ["openai-compatible", 400, { "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "A conversation must start with a user message. Try again with a conversation that starts with a user message." }, "ValidationException", false, undefined],
        ["openai-compatible", 424, { "x-amzn-errortype": "ModelStreamErrorException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "stream broke" }, "ModelStreamErrorException", true, undefined],
        ["openai-compatible", 424, { "x-amzn-errortype": "ModelErrorException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "model failed" }, "ModelErrorException", false, undefined],
        ["openai-compatible", 408, { "x-amzn-errortype": "ModelTimeoutException" }, { Message: "The model timed out." }, "ModelTimeoutException", true, undefined],
        ["openai-compatible", 503, { "x-amzn-errortype": "ServiceUnavailableException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "unavailable" }, "ServiceUnavailableException", true, undefined],
        ["openai-compatible", 403, { "x-amzn-errortype": "InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/" }, { message: "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details." }, "InvalidSignatureException", false, undefined],
        ["openai-compatible", 403, { "x-amzn-errortype": "AccessDeniedException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "You don't have access to the model with the specified model ID." }, "AccessDeniedException", false, undefined],
        ["openai-compatible", 500, { "x-amzn-errortype": "InternalServerException:http://internal.amazon.com/coral/com.amazon.bedrock/", "x-should-retry": "false" }, { message: "internal" }, "InternalServerException", false, undefined],
        // Bedrock Converse itself: a ValidationException is final, a throttle is retried
        ["bedrock-converse", 400, { "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "Expected toolResult blocks at messages.2.content for the following Ids: tooluse_1" }, "ValidationException", false, undefined],
        ["bedrock-converse", 429, { "x-amzn-errortype": "ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, { message: "Too many requests, please wait before trying again." }, "ThrottlingException", true, undefined],
        // Ollama: `{"error": "…"}`, no type of its own
        ["ollama", 404, {}, { error: 'model "qwen3:8b" not found, try pulling it first' }, "http_404", false, undefined],
        ["ollama", 503, {}, { error: "server busy, please try again.  maximum pending requests exceeded" }, "http_503", true, undefined],
      ];
      test("a non-2xx answer is a typed ProviderError; nothing is appended", async () => {
        for (const [provider, status, headers, body, errorType, retryable, retryAfterMs] of httpCases) {
          const where = `${provider} ${status} ${errorType}`;
          const text = typeof body === "string" ? body : JSON.stringify(body);
          const { fetch } = fakeFetch(() => new Response(text, { status, headers: { "content-type": "application/json", ...headers } }));
          const conversation = new api.Conversation(HISTORY);
          try {
            const e = await rejection(assert, api.streamTurn({ provider, model: MODELS[provider], apiKey: "k", baseURL: BASE, conversation, fetch }), where);
            assert.ok(api.isProviderError(e), `${where}: ${e}`);
            assert.deepEqual(
              [e.kind, e.provider, e.status, e.errorType, e.retryable, e.retryAfterMs],
              ["http", provider, status, errorType, retryable, retryAfterMs],
              where,
            );
            assert.deepEqual(e.body, body, where);
            assert.equal(e.result, undefined);
            assert.equal(e.request.provider, provider);
            assert.ok(e.message.includes(String(status)), e.message);
            if (headers["x-amzn-errortype"] !== undefined) assert.ok(e.message.endsWith(`(${errorType}): ${body.message ?? body.Message}`), e.message);
            assert.equal(conversation.length, HISTORY.length, `${where}: nothing appended`);
          } finally {
            conversation.free();
          }
        }
      });

      test("fetch throwing is a retryable network error with status 0; a retry-after date counts too", async () => {
        const { fetch } = fakeFetch(() => Promise.reject(new TypeError("fetch failed")));
        const e = await rejection(assert, api.streamTurn({ provider: "kimi", model: MODELS.kimi, transcript: HISTORY, fetch }), "network");
        assert.deepEqual([e.kind, e.status, e.errorType, e.retryable], ["network", 0, "network", true]);
        assert.ok(e.cause instanceof TypeError);
        assert.ok(e.message.includes("https://api.moonshot.ai/v1/chat/completions"), e.message);
        const date = new Date(Date.now() + 60_000).toUTCString();
        const late = fakeFetch(() => new Response("{}", { status: 503, headers: { "retry-after": date } }));
        const e2 = await rejection(assert, api.streamTurn({ provider: "deepseek", model: MODELS.deepseek, transcript: HISTORY, fetch: late.fetch }), "date");
        assert.ok(e2.retryAfterMs > 50_000 && e2.retryAfterMs <= 60_000, String(e2.retryAfterMs));
      });

      test("a stream cut by a broken connection: incomplete_stream, with the partial turn appended", async () => {
        const fixture = streams.find((f) => f.name === "streams/anthropic/thinking_tools");
        const lines = eventLines(fixture);
        const chunks = lines.map((l) => encoder.encode(frameSSE("anthropic", [l]).replace(/^: keep-alive\n\n/, "")));
        const { fetch } = fakeFetch(() => sseResponse(byteStream(chunks, { fail: 14 })));
        const conversation = new api.Conversation(HISTORY);
        try {
          const e = await rejection(assert, api.streamTurn({ provider: "anthropic", model: MODELS.anthropic, apiKey: "k", conversation, fetch, render: { tools: TOOLS } }), "cut");
          assert.deepEqual([e.kind, e.errorType, e.retryable, e.status], ["incomplete", "incomplete_stream", true, 200]);
          assert.ok(e.cause instanceof TypeError, "the read error is the cause");
          assert.equal(e.result.incomplete, true);
          assert.equal(e.result.aborted, false);
          assert.deepEqual(e.result.message.blocks.map((b) => b.type), ["thinking", "text", "tool_call"]);
          assert.equal(conversation.length, HISTORY.length + 1);
          const next = conversation.renderObject({ provider: "anthropic", model: MODELS.anthropic, tools: TOOLS });
          assert.deepEqual(api.validateRequest("anthropic", next.body), []);
          assert.ok(next.diagnostics.some((d) => d.code === "synthetic_result_added"), "the open call is closed");
        } finally {
          conversation.free();
        }
      });

      test("a render error rejects with the TurnwireError; a missing history or base URL with a TypeError; fetch is not called", async () => {
        const { fetch, calls } = fakeFetch(() => sseResponse(""));
        const bad = await rejection(assert, api.streamTurn({ provider: "anthropic", model: " ", transcript: HISTORY, fetch }), "render");
        assert.ok(api.isTurnwireError(bad), String(bad));
        const none = await rejection(assert, api.streamTurn({ provider: "anthropic", model: "m", fetch }), "history");
        assert.ok(none instanceof TypeError);
        const compat = await rejection(assert, api.streamTurn({ provider: "openai-compatible", model: "m", transcript: HISTORY, fetch }), "baseURL");
        assert.ok(compat instanceof TypeError);
        assert.equal(calls.length, 0);
      });
    });

    describe("streamTurn abort and the TurnStream object", () => {
      const fixture = () => streams.find((f) => f.name === "streams/anthropic/thinking_tools");

      test("abort mid-stream: aborted, partial kept and appended, body cancelled, next render closes the open call", async () => {
        const lines = eventLines(fixture());
        let cancelled;
        const chunks = lines.map((l) => encoder.encode(frameSSE("anthropic", [l]).replace(/^: keep-alive\n\n/, "")));
        // stops after the first argument piece of the first call, until cancelled
        const hold = lines.findIndex((l) => l.includes('"partial_json":"{')) + 1;
        const { fetch } = fakeFetch(() => sseResponse(byteStream(chunks, { hold, onCancel: (r) => (cancelled = r ?? "cancelled") })));
        const conversation = new api.Conversation(HISTORY);
        const controller = new AbortController();
        try {
          const turn = api.streamTurn({
            provider: "anthropic",
            model: MODELS.anthropic,
            apiKey: "k",
            conversation,
            fetch,
            signal: controller.signal,
            render: { tools: TOOLS, thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 },
          });
          const seen = [];
          for await (const d of turn) {
            seen.push(d.type);
            if (d.type === "toolCallArguments") controller.abort();
          }
          const r = await turn;
          assert.equal(r.aborted, true);
          assert.equal(r.incomplete, true);
          assert.equal(r.appended, true);
          assert.ok(cancelled !== undefined, "the response body was cancelled");
          assert.deepEqual(r.message.blocks.map((b) => b.type), ["thinking", "text", "tool_call"]);
          assert.equal(r.message.blocks[2].rawArguments, '{"path":');
          assert.ok(r.errors.some((e) => e.code === "unfinished_tool_call"));
          assert.ok(seen.includes("toolCallStart") && seen.at(-1) === "toolCallArguments", seen.join());
          assert.equal(conversation.length, HISTORY.length + 1);
          for (const next of ["anthropic", "openai-chat", "gemini"]) {
            const out = conversation.renderObject({ provider: next, model: MODELS[next], tools: TOOLS, thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 });
            assert.deepEqual(api.validateRequest(next, out.body, MODELS[next]), [], next);
            assert.ok(out.diagnostics.some((d) => d.code === "synthetic_result_added"), `${next}: the open call gets a synthetic result`);
          }
        } finally {
          conversation.free();
        }
      });

      test("a signal aborted before the call: fetch is never called, nothing is appended", async () => {
        const { fetch, calls } = fakeFetch(() => sseResponse(""));
        const conversation = new api.Conversation(HISTORY);
        try {
          const r = await api.streamTurn({ provider: "openai-chat", model: "gpt-5.2", conversation, fetch, signal: AbortSignal.abort() });
          assert.deepEqual([r.aborted, r.incomplete, r.appended, r.message.blocks.length, calls.length], [true, true, false, 0, 0]);
          assert.equal(conversation.length, HISTORY.length);
        } finally {
          conversation.free();
        }
      });

      test("a fetch that honours the signal: the abort during the request resolves aborted", async () => {
        const controller = new AbortController();
        const fetch = (url, init) =>
          new Promise((_, reject) => {
            init.signal.addEventListener("abort", () => reject(init.signal.reason));
            controller.abort();
          });
        const r = await api.streamTurn({ provider: "mistral", model: MODELS.mistral, transcript: HISTORY, fetch, signal: controller.signal });
        assert.deepEqual([r.aborted, r.incomplete, r.appended], [true, true, false]);
      });

      test("await without iterating; leaving the loop early does not stop the turn; one iteration only", async () => {
        const lines = eventLines(fixture());
        const answer = () => sseResponse(byteStream([encoder.encode(frameSSE("anthropic", lines))]));
        const plain = await api.streamTurn({ provider: "anthropic", model: MODELS.anthropic, transcript: HISTORY, fetch: fakeFetch(answer).fetch });
        assert.equal(plain.stopReason, "tool_use");
        assert.equal(plain.message.blocks.filter((b) => b.type === "tool_call").length, 2);

        const turn = api.streamTurn({ provider: "anthropic", model: MODELS.anthropic, transcript: HISTORY, fetch: fakeFetch(answer).fetch });
        for await (const d of turn) {
          void d;
          break;
        }
        const r = await turn.result;
        assert.equal(r.incomplete, false);
        assert.deepEqual(r.message, plain.message);
        assert.throws(() => turn[Symbol.asyncIterator](), TypeError);
        assert.equal(typeof turn.then, "function");
        assert.deepEqual(await Promise.all([turn, turn.result]).then(([a, b]) => a === b), true);
      });
    });

    if (host.mock) defineMockSuite(api, label, host);
  });
}

/**
 * streamTurn against the strict mock providers that run.mjs started on 127.0.0.1 (from inside
 * Chromium and workerd). Their default turn answers a request without tool results with two
 * parallel tool calls and one with results with a text (run.mjs); run.mjs checks afterwards that
 * every request was accepted.
 */
function defineMockSuite(api, label, host) {
  const { test, assert } = host;
  // the providers run.mjs started: SSE (anthropic), SSE per URL (gemini), AWS event-stream bytes
  // (bedrock-converse, a Bedrock API key as Bearer) and NDJSON (ollama)
  for (const provider of Object.keys(host.mock.baseURLs)) {
    test(`${provider}: a tool turn and its follow-up against the mock provider, from inside ${label}`, async () => {
      const baseURL = host.mock.baseURLs[provider];
      assert.ok(baseURL, `no mock ${provider}`);
      const conversation = new api.Conversation([{ speaker: "human", blocks: [{ type: "text", text: "Read a.rs and b.rs" }] }]);
      try {
        const render = { tools: [{ name: "read_file", parameters: { type: "object", properties: { path: { type: "string" } } } }], thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192 };
        const turn = api.streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL, conversation, render });
        const kinds = new Set();
        for await (const d of turn) kinds.add(d.type);
        const first = await turn;
        const calls = first.message.blocks.filter((b) => b.type === "tool_call");
        assert.equal(calls.length, 2, JSON.stringify(first.message));
        assert.equal(first.stopReason, "tool_use");
        assert.ok(kinds.has("toolCallStart") && kinds.has("toolCallComplete"), [...kinds].join());
        conversation.append({ speaker: "tool", blocks: calls.map((c) => ({ type: "tool_response", callId: c.id, toolName: c.name, result: `contents of ${c.parameters.path}` })) });
        const second = await api.streamTurn({ provider, model: MODELS[provider], apiKey: "test-key", baseURL, conversation, render });
        assert.equal(second.stopReason, "end_turn");
        assert.ok(second.message.blocks.some((b) => b.type === "text"));
        assert.equal(conversation.length, 4);
      } finally {
        conversation.free();
      }
    });
  }
}
