// Decoding a long streamed answer (issue 32): the same answer as a Bedrock ConverseStream body
// (`application/vnd.amazon.eventstream` frames, pushed as bytes: `decoder.push(Uint8Array)`)
// and as an Anthropic SSE body (text through the turn runner's path: `SseParser.feed(bytes)`,
// each `data:` payload to `decoder.push(string)`), each cut into chunks of a network read's
// size. bench/run.mjs prints the rows into RESULTS.md; alone:
//
//   node bench/lib/stream-decode.mjs     (against pkg/, which make package builds; BENCH_PKG
//                                         names another built package folder)
//
// The answer: signed reasoning, a long text and a tool call whose arguments stream in pieces,
// about 3 MB of content in deltas of 20–120 characters (the size a model streams), seeded.

import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { rng } from "./session.mjs";

const CONVERSE_MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const ANTHROPIC_MODEL = "claude-sonnet-4-5";
/** Read sizes: Node's fetch hands a response body over in reads of up to 16 KiB (a TLS
 * record's payload); 1,460 bytes is one TCP segment's (a read per packet, the worst case). */
export const CHUNK_SIZES = [16384, 1460];

const WORDS = ["the", "render", "keeps", "every", "call", "paired", "with", "its", "result", "so", "a", "provider", "never", "refuses", "history", "Grüße", "東京", "😀", "\"quoted\"", "line\n", "tab\t", "— dash", "{json}", "path/to/file.rs"];

/** The answer as a list of pieces: `[kind, text]`, kind `reasoning` | `signature` | `text` | `tool`. */
export function answerPieces({ bytes = 3_000_000, seed = 32 } = {}) {
  const r = rng(seed);
  const piece = () => {
    const n = r.int(20, 120);
    let s = "";
    while (s.length < n) s += r.pick(WORDS) + " ";
    return s;
  };
  const out = [];
  let size = 0;
  const add = (kind, text) => {
    out.push([kind, text]);
    size += text.length;
  };
  while (size < bytes * 0.2) add("reasoning", piece());
  add("signature", "EqQBCkgIARABGAIiQL" + "x".repeat(400));
  while (size < bytes * 0.8) add("text", piece());
  // the arguments of one call, as JSON text cut anywhere
  const args = JSON.stringify({ path: "src/render.rs", content: Array.from({ length: 2000 }, piece).join("") });
  for (let i = 0; i < args.length; ) {
    const n = r.int(20, 120);
    add("tool", args.slice(i, i + n));
    i += n;
  }
  return out;
}

/** The ConverseStream body of the answer: event-stream frames, as Bedrock sends them. */
export function converseBody(pieces, converseEvent) {
  const frames = [];
  const ev = (type, payload) => frames.push(converseEvent(type, { ...payload, p: "abcdefgh" }));
  ev("messageStart", { role: "assistant" });
  let index = -1;
  let open = "";
  for (const [kind, text] of pieces) {
    const block = kind === "signature" ? "reasoning" : kind;
    if (block !== open) {
      if (open) ev("contentBlockStop", { contentBlockIndex: index });
      index++;
      open = block;
      if (block === "tool") ev("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: "tooluse_bench01", name: "write_file" } } });
    }
    const delta =
      kind === "reasoning" ? { reasoningContent: { text } }
      : kind === "signature" ? { reasoningContent: { signature: text } }
      : kind === "text" ? { text }
      : { toolUse: { input: text } };
    ev("contentBlockDelta", { contentBlockIndex: index, delta });
  }
  ev("contentBlockStop", { contentBlockIndex: index });
  ev("messageStop", { stopReason: "tool_use" });
  ev("metadata", { usage: { inputTokens: 1200, outputTokens: 700000, totalTokens: 701200 }, metrics: { latencyMs: 90000 } });
  return new Uint8Array(Buffer.concat(frames));
}

/** The Anthropic Messages SSE body of the same answer. */
export function anthropicBody(pieces) {
  const lines = [];
  const ev = (type, payload) => lines.push(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
  ev("message_start", { message: { id: "msg_bench01", type: "message", role: "assistant", model: ANTHROPIC_MODEL, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 1200, output_tokens: 1 } } });
  let index = -1;
  let open = "";
  for (const [kind, text] of pieces) {
    const block = kind === "signature" ? "reasoning" : kind;
    if (block !== open) {
      if (open) ev("content_block_stop", { index });
      index++;
      open = block;
      const start =
        block === "reasoning" ? { type: "thinking", thinking: "", signature: "" }
        : block === "text" ? { type: "text", text: "" }
        : { type: "tool_use", id: "toolu_bench01", name: "write_file", input: {} };
      ev("content_block_start", { index, content_block: start });
    }
    const delta =
      kind === "reasoning" ? { type: "thinking_delta", thinking: text }
      : kind === "signature" ? { type: "signature_delta", signature: text }
      : kind === "text" ? { type: "text_delta", text }
      : { type: "input_json_delta", partial_json: text };
    ev("content_block_delta", { index, delta });
  }
  ev("content_block_stop", { index });
  ev("message_delta", { delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 700000 } });
  ev("message_stop", {});
  return new TextEncoder().encode(lines.join(""));
}

/** `bytes` cut into reads of `size`. */
export function chunks(bytes, size) {
  const out = [];
  for (let i = 0; i < bytes.length; i += size) out.push(bytes.subarray(i, i + size));
  return out;
}

/** Decodes a ConverseStream body, read by read; returns the outcome. */
export function decodeConverse(tw, reads) {
  const decoder = new tw.StreamDecoder("bedrock-converse", { model: CONVERSE_MODEL });
  try {
    for (const read of reads) decoder.push(read);
    return decoder.finish();
  } finally {
    decoder.free?.();
  }
}

/** Decodes an Anthropic SSE body, read by read, as the turn runner does; returns the outcome. */
export function decodeAnthropicSse(tw, reads) {
  const decoder = new tw.StreamDecoder("anthropic", { model: ANTHROPIC_MODEL });
  try {
    const parser = new tw.SseParser((e) => decoder.push(e.data));
    for (const read of reads) parser.feed(read);
    parser.end();
    return decoder.finish();
  } finally {
    decoder.free?.();
  }
}

/** What both decodes must agree on: the blocks' kinds and texts, the call's arguments. */
function summary(outcome) {
  if (outcome.incomplete || outcome.errors?.length) throw new Error(`stream decode: incomplete or errors: ${JSON.stringify(outcome.errors ?? [])}`);
  return outcome.message.blocks.map((b) => (b.type === "thinking" ? `thinking:${b.thought.length}` : b.type === "text" ? `text:${b.text.length}` : b.type === "tool_call" ? `call:${JSON.stringify(b.parameters).length}` : b.type));
}

/**
 * Times both decodes at each read size with `measure(size, run, opts)` (run.mjs's timer) and
 * returns one row per format and read size: wire bytes, median and p95 ms, MB/s of wire bytes
 * and of the answer's content.
 */
export async function benchStreamDecode(tw, converseEvent, measure, { bytes = 3_000_000 } = {}) {
  const pieces = answerPieces({ bytes });
  const content = pieces.reduce((n, [, t]) => n + Buffer.byteLength(t), 0);
  const bodies = { "bedrock-converse event-stream": converseBody(pieces, converseEvent), "anthropic SSE": anthropicBody(pieces) };
  const decode = { "bedrock-converse event-stream": decodeConverse, "anthropic SSE": decodeAnthropicSse };
  const [a, b] = Object.keys(bodies).map((k) => JSON.stringify(summary(decode[k](tw, chunks(bodies[k], 16384)))));
  if (a !== b) throw new Error(`stream decode: the two formats decode to different messages: ${a} vs ${b}`);
  const rows = [];
  for (const size of CHUNK_SIZES) {
    for (const [format, body] of Object.entries(bodies)) {
      const reads = chunks(body, size);
      const s = await measure(0, () => decode[format](tw, reads), { plan: { warm: 2, min: 8, max: 40, ms: 3000 } });
      rows.push({ format, chunk: size, wire: body.length, content, ...s, mbps: body.length / 1e6 / (s.median / 1000), contentMbps: content / 1e6 / (s.median / 1000) });
    }
  }
  return rows;
}

// Alone: `node bench/lib/stream-decode.mjs`.
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const pkg = join(process.env.BENCH_PKG ?? join(dirname(fileURLToPath(import.meta.url)), "..", "..", "pkg"), "dist");
  const tw = await import(pathToFileURL(join(pkg, "node.mjs")).href);
  const { converseEvent } = await import(pathToFileURL(join(pkg, "mock", "event-stream.mjs")).href);
  const measure = async (_size, run, { plan }) => {
    for (let i = 0; i < plan.warm; i++) run();
    const xs = [];
    const t0 = performance.now();
    while (xs.length < plan.min || (xs.length < plan.max && performance.now() - t0 < plan.ms)) {
      const a = performance.now();
      run();
      xs.push(performance.now() - a);
    }
    xs.sort((x, y) => x - y);
    return { n: xs.length, median: xs[xs.length >> 1], p95: xs[Math.min(xs.length - 1, Math.ceil(0.95 * xs.length) - 1)], min: xs[0] };
  };
  for (const r of await benchStreamDecode(tw, converseEvent, measure)) {
    console.log(`${r.format.padEnd(30)} reads of ${String(r.chunk).padStart(5)} B: ${(r.wire / 1e6).toFixed(2)} MB wire, median ${r.median.toFixed(1)} ms (p95 ${r.p95.toFixed(1)}), ${r.mbps.toFixed(1)} MB/s wire, ${r.contentMbps.toFixed(1)} MB/s content (n=${r.n})`);
  }
}
