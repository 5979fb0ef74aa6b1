// turnwire benchmarks (issue 4): turnwire against the history → request-body paths of pi-ai,
// the AI SDK and LangChain, in one Node process, on seeded synthetic agent sessions.
// Writes bench/RESULTS.md (and bench/results.json). Run by `make bench` (bench/run.sh).
//
// Environment: BENCH_SIZES=20,200 (default 20,200,2000,10000), BENCH_SEED (default 4),
// BENCH_OUT (default bench/RESULTS.md). The stream decode rows (bench/lib/stream-decode.mjs)
// also run alone: node bench/lib/stream-decode.mjs.

import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { captured, install } from "./lib/fetch.mjs";
import { codeSizeByCrate } from "./lib/wasm-size.mjs";

install(); // before any library is loaded: nothing can reach the network

const HERE = dirname(fileURLToPath(import.meta.url));
const ROOT = join(HERE, "..");
const PKG = join(ROOT, "pkg");
const tw = await import(join(PKG, "dist/node.mjs"));
const { generateEvents, toTurnwire, MODELS, SYSTEM_PROMPT, TOOLS } = await import("./lib/session.mjs");
const { loadPeers } = await import("./lib/peers.mjs");

const SIZES = (process.env.BENCH_SIZES ?? "20,200,2000,10000").split(",").map(Number);
const APPEND_SIZE = Number(process.env.BENCH_APPEND_SIZE ?? 2000);
const SEED = Number(process.env.BENCH_SEED ?? 4);
const OUT = process.env.BENCH_OUT ?? join(HERE, "RESULTS.md");
const started = performance.now();
const load0 = os.loadavg();

const TARGETS = ["anthropic", "openai-chat", "gemini"];
const OPTIONS = {
  anthropic: { provider: "anthropic", model: MODELS.anthropic, maxTokens: 16000, system: SYSTEM_PROMPT, tools: TOOLS, thinking: { enabled: true, budgetTokens: 8000 } },
  "openai-chat": { provider: "openai-chat", model: MODELS.openai, maxTokens: 16000, system: SYSTEM_PROMPT, tools: TOOLS },
  gemini: { provider: "gemini", model: MODELS.gemini, maxTokens: 16000, system: SYSTEM_PROMPT, tools: TOOLS },
};

// --- timing ----------------------------------------------------------------------------------

/** Iterations and time budget by session size: at least `min` timed runs, more while `ms` lasts. */
function plan(size) {
  if (size <= 20) return { warm: 20, min: 20, max: 400, ms: 400 };
  if (size <= 200) return { warm: 5, min: 10, max: 200, ms: 500 };
  if (size <= 2001) return { warm: 1, min: 6, max: 40, ms: 1000 };
  return { warm: 0, min: 3, max: 5, ms: 1000 }; // every path has run once already (checkBody)
}

function stats(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)];
  return { n: s.length, median: s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2, p95: q(0.95), min: s[0] };
}

/**
 * Times `run` (sync or async): warm-up, then timed iterations. `setup` (untimed) runs before
 * each call and its value is passed to `run`; `teardown` (untimed) after.
 */
async function measure(size, run, { setup, teardown, plan: p = plan(size) } = {}) {
  globalThis.gc?.();
  for (let i = 0; i < p.warm; i++) {
    const s = setup?.();
    await run(s);
    teardown?.(s);
  }
  const xs = [];
  const t0 = performance.now();
  while (xs.length < p.min || (xs.length < p.max && performance.now() - t0 < p.ms)) {
    const s = setup?.();
    const a = performance.now();
    const r = run(s);
    if (r && typeof r.then === "function") await r;
    xs.push(performance.now() - a);
    teardown?.(s);
  }
  return stats(xs);
}

// --- checks: every path must have rendered the whole history ---------------------------------

const textOf = (bytes) => Buffer.from(bytes).toString("utf8");
const jsonFragment = (s) => JSON.stringify(s).slice(1, -1);

function checkBody(label, body, events) {
  const first = events[0].text;
  const last = events[events.length - 1].text;
  if (!body.includes(jsonFragment(first)) || !body.includes(jsonFragment(last)))
    throw new Error(`${label}: the request body lacks the first or last user message`);
}

// --- the run ---------------------------------------------------------------------------------

const drivers = await loadPeers();
const peersOf = (target) => drivers.filter((d) => d.target === target);
const results = { stateless: [], append: [], agent: [], bodies: [], breakdown: [] };
const COPY_FLOOR = "JS alone: \`.slice()\` of a Uint8Array of the body's size";
const FIRST_RENDER = "Conversation.render, first render of a fresh Conversation (a full render from wasm memory, plus finding and checking the boundary it caches)";

function log(...a) {
  console.log(...a);
}

for (const size of SIZES) {
  const tg = performance.now();
  const events = generateEvents(size, SEED + size);
  const transcript = toTurnwire(events);
  const json = JSON.stringify(transcript);
  log(`\n== [${((performance.now() - started) / 1000).toFixed(0)} s] ${size} messages: transcript ${(json.length / 1e6).toFixed(2)} MB (generated in ${(performance.now() - tg).toFixed(0)} ms)`);
  const row = (target, path, s, extra = {}) => {
    results.stateless.push({ size, bytes: json.length, target, path, ...s, ...extra });
    log(`  ${target.padEnd(12)} ${path.padEnd(34)} median ${s.median.toFixed(3).padStart(9)} ms  p95 ${s.p95.toFixed(3).padStart(9)} ms  (n=${s.n})`);
  };

  row("*", "floor: JSON.stringify(transcript)", await measure(size, () => JSON.stringify(transcript)));

  for (const target of TARGETS) {
    const options = OPTIONS[target];
    const bytes = tw.renderBody(json, options);
    checkBody(`turnwire ${target}`, textOf(bytes), events);
    if (size === APPEND_SIZE) results.bodies.push({ target, path: "turnwire", bytes: bytes.length });
    row(target, "turnwire renderBody(JSON string)", await measure(size, () => tw.renderBody(json, options)));
    checkBody(`turnwire renderForProvider ${target}`, JSON.stringify(tw.renderForProvider(transcript, options).body), events);
    row(target, "turnwire renderForProvider(object)", await measure(size, () => tw.renderForProvider(transcript, options)));
    for (const d of peersOf(target)) {
      const history = d.prepare(events);
      captured.body = "";
      await d.run(history);
      checkBody(`${d.peer} ${target}`, captured.body, events);
      if (size === APPEND_SIZE) results.bodies.push({ target, path: d.peer, bytes: Buffer.byteLength(captured.body) });
      row(target, d.peer, await measure(size, () => d.run(history)), { peer: true });
    }
    if (size === APPEND_SIZE) {
      // Where turnwire's time goes: JSON text → Rust (Conversation.fromJSON), then the first
      // render of a fresh Conversation (the whole history, from wasm memory), then a render
      // again with nothing appended (whatever the Conversation keeps between renders).
      const fresh = () => tw.Conversation.fromJSON(json);
      results.breakdown.push({ target, step: FIRST_RENDER, ...(await measure(size, (c) => c.render(options), { setup: fresh, teardown: (c) => c.free() })) });
      const conv = fresh();
      conv.render(options);
      results.breakdown.push({ target, step: "Conversation.render again, nothing appended", ...(await measure(size, () => conv.render(options))) });
      conv.free();
      if (target === TARGETS[0]) {
        results.breakdown.push({ target: "*", step: "JSON.parse(transcript JSON) in JS", ...(await measure(size, () => JSON.parse(json))) });
        results.breakdown.push({ target: "*", step: "Conversation.fromJSON(JSON string) + free", ...(await measure(size, () => tw.Conversation.fromJSON(json).free())) });
      }
    }
  }
}

/**
 * The setup of a timed append: a Conversation of `base` rendered once (as an agent holds it
 * after the previous turn). Checked first: appending `turn` renders `expected`.
 */
function heldConversation(base, turn, options, expected, label, method = "render") {
  const setup = () => {
    const c = tw.Conversation.fromJSON(base);
    c[method](options);
    // renderBlob: an agent that renders every turn has rendered this history as it is before,
    // so it holds the Blobs of the cached pieces (the first render of a loaded history makes
    // the pieces, the next one their Blobs).
    if (method === "renderBlob") c[method](options);
    return c;
  };
  const c = setup();
  c.append(turn);
  if (!Buffer.from(c.render(options)).equals(expected)) throw new Error(`Conversation ${label}: append+render differs from renderBody of the whole history`);
  c.free();
  return setup;
}

/** Checks that appending `turn` to the held conversation and `renderBlob` gives `expected`. */
async function checkBlob(setup, turn, options, expected, label) {
  const c = setup();
  c.append(turn);
  const bytes = Buffer.from(await c.renderBlob(options).arrayBuffer());
  c.free();
  if (!bytes.equals(expected)) throw new Error(`Conversation ${label}: append+renderBlob differs from renderBody of the whole history`);
}

const BLOB_PATH = "turnwire Conversation: append(turn) + renderBlob()";
const TURNS_PATH = "turnwire Conversation: turn after turn, append(turn) + renderBlob()";
const TURNS = 12;

/**
 * Times `TURNS` successive turns on each of several held conversations (`setup`): append a user
 * turn + renderBlob (timed), then the assistant's answer (untimed, not rendered). The last
 * conversation's body is checked against renderBody of its whole history.
 */
async function turnAfterTurn(setup, options, history, label) {
  const user = (k) => ({ speaker: "human", blocks: [{ type: "text", text: `Turn ${k}: now run the tests again and fix what fails.` }] });
  const answer = (k) => ({ speaker: "ai", blocks: [{ type: "text", text: `Turn ${k}: the tests pass now.` }] });
  const xs = [];
  const t0 = performance.now();
  let rounds = 0;
  while (rounds < 3 || (rounds < 10 && performance.now() - t0 < 2500)) {
    const c = setup();
    const added = [];
    for (let k = 0; k < TURNS; k++) {
      const a = performance.now();
      c.append(user(k));
      c.renderBlob(options);
      xs.push(performance.now() - a);
      c.append(answer(k));
      added.push(user(k), answer(k));
    }
    if (rounds === 0) {
      c.append(user(TURNS));
      const bytes = Buffer.from(await c.renderBlob(options).arrayBuffer());
      const expected = Buffer.from(tw.renderBody(JSON.stringify([...history, ...added, user(TURNS)]), options));
      if (!bytes.equals(expected)) throw new Error(`Conversation ${label}: turn after turn differs from renderBody of the whole history`);
    }
    c.free();
    rounds++;
  }
  return stats(xs);
}
const EDIT_PATHS = {
  replace: "turnwire Conversation: replace(last turn) + renderBlob()",
  regenerate: "turnwire Conversation: truncate(1) + append + renderBlob()",
};

/** Checks that `edit` on the held conversation, then renderBlob, gives `expected`. */
async function checkEdit(setup, edit, options, expected, label) {
  const c = setup();
  edit(c);
  const bytes = Buffer.from(await c.renderBlob(options).arrayBuffer());
  c.free();
  if (!bytes.equals(Buffer.from(expected))) throw new Error(`Conversation ${label}: edit+renderBlob differs from renderBody of the edited history`);
}

// --- append one user turn to the 2,000-message session, render again -------------------------
{
  const size = APPEND_SIZE + 1;
  const events = generateEvents(size, SEED + 1);
  const transcript = toTurnwire(events);
  const base = JSON.stringify(transcript.slice(0, APPEND_SIZE));
  const turn = transcript[APPEND_SIZE];
  const fullJson = JSON.stringify(transcript);
  log(`\n== [${((performance.now() - started) / 1000).toFixed(0)} s] append: ${APPEND_SIZE}-message session (${(base.length / 1e6).toFixed(2)} MB) + one user turn`);
  const row = (target, path, s, extra = {}) => {
    results.append.push({ target, path, ...s, ...extra });
    log(`  ${target.padEnd(12)} ${path.padEnd(44)} median ${s.median.toFixed(3).padStart(9)} ms  p95 ${s.p95.toFixed(3).padStart(9)} ms  (n=${s.n})`);
  };
  row("*", "floor: JSON.stringify(transcript)", await measure(size, () => JSON.stringify(transcript)));
  for (const target of TARGETS) {
    const options = OPTIONS[target];
    const expected = Buffer.from(tw.renderBody(fullJson, options));
    // The conversation as an agent holds it: built once, rendered for the previous turn.
    // Untimed: building it and that previous render. Timed: append(turn) + render(options).
    const setup = heldConversation(base, turn, options, expected, target);
    // More runs than the plan gives: each run is cheap, and the result is the allocation of a
    // multi-MB Uint8Array, whose cost is bimodal in V8 (fresh pages or reused ones).
    const many = { ...plan(size), min: 15, ms: 2500 };
    row(target, "turnwire Conversation: append(turn) + render()", await measure(size, (c) => { c.append(turn); return c.render(options); }, { setup, teardown: (c) => c.free(), plan: many }));
    const blobSetup = heldConversation(base, turn, options, expected, target, "renderBlob");
    await checkBlob(blobSetup, turn, options, expected, target);
    row(target, BLOB_PATH, await measure(size, (c) => { c.append(turn); return c.renderBlob(options); }, { setup: blobSetup, teardown: (c) => c.free(), plan: many }));
    // What JavaScript alone pays to hand back a fresh Uint8Array of the body's size (a copy of
    // bytes it already has), under the same setup: the floor of any API that returns the body.
    const sample = new Uint8Array(expected.length);
    row(target, COPY_FLOOR, await measure(size, () => sample.slice(), { setup, teardown: (c) => c.free(), plan: many }));
    row(target, "turnwire renderBody(JSON string), whole history", await measure(size, () => tw.renderBody(fullJson, options)));
    for (const d of peersOf(target)) {
      const history = d.prepare(events);
      captured.body = "";
      await d.run(history);
      checkBody(`${d.peer} ${target}`, captured.body, events);
      row(target, `${d.peer}, whole history`, await measure(size, () => d.run(history)), { peer: true });
    }
  }
}

// --- agent-shaped sessions (../shared/bench): append one user turn, render again ----------------
// Sessions shaped like coding agents store them (long tool loops, one tool message per result,
// interrupted fan-out, no closing answer before the next user message), at 2,000 and 10,000
// messages. Peers get the same history through the neutral events of bench/lib/session.mjs.
const AGENT_DIR = join(ROOT, "../shared/bench");
const AGENT_SIZES = (process.env.BENCH_AGENT_SIZES ?? "2000,10000").split(",").map(Number);
if (existsSync(join(AGENT_DIR, "agent-transcript.mjs"))) {
  const { generateTranscript } = await import(join(AGENT_DIR, "agent-transcript.mjs"));
  const { toCanonical } = await import(join(AGENT_DIR, "to-canonical.mjs"));
  /** The neutral agent transcript as bench/lib/session.mjs events (what the peers are fed). */
  const toEvents = (messages) => {
    const events = [];
    const calls = new Map();
    for (const m of messages) {
      if (m.role === "user") events.push({ kind: "user", text: m.content.map((c) => c.text).join(""), t: events.length });
      else if (m.role === "assistant") {
        const think = m.content.find((b) => b.type === "thinking");
        const text = m.content.filter((b) => b.type === "text").map((b) => b.text).join("") || null;
        const cs = m.content.filter((b) => b.type === "tool_call").map((b) => ({ id: b.id, name: b.name, input: b.arguments }));
        for (const c of cs) calls.set(c.id, c);
        events.push({ kind: cs.length ? "calls" : "answer", thought: think?.thinking ?? "", signature: think?.signature ?? "", text, calls: cs, t: events.length });
      } else {
        const result = { call: calls.get(m.tool_call_id) ?? { id: m.tool_call_id, name: m.tool_name, input: {} }, text: m.content.map((c) => c.text).join(""), isError: !!m.is_error };
        const last = events.at(-1);
        if (last?.kind === "results") last.results.push(result);
        else events.push({ kind: "results", results: [result], t: events.length });
      }
    }
    return events;
  };
  // One session at the largest size; each smaller one is its last messages, from a user message
  // on. Every size then ends in the same open turn (the tool loop the appended user turn
  // closes), which the incremental renderer renders again: the 10,000 vs 2,000 ratio measures
  // the history's length, not a different last turn. (Sessions generated at each size end in
  // different turns: with seed 6, 41 KB at 2,000 messages against 70 KB at 10,000.)
  const longest = generateTranscript(Math.max(...AGENT_SIZES), SEED + 2).messages;
  const lastOf = (n) => {
    let start = Math.max(0, longest.length - n);
    while (start > 0 && longest[start].role !== "user") start--;
    return longest.slice(start);
  };
  for (const n of AGENT_SIZES) {
    const t = { messages: lastOf(n) };
    const turnText = "Now run the tests again and fix what fails.";
    const base = JSON.stringify(t.messages.map(toCanonical));
    const turn = { speaker: "human", blocks: [{ type: "text", text: turnText }] };
    const events = [...toEvents(t.messages), { kind: "user", text: turnText, t: 0 }];
    const fullJson = JSON.stringify([...t.messages.map(toCanonical), turn]);
    log(`\n== [${((performance.now() - started) / 1000).toFixed(0)} s] agent-shaped: ${n}-message session (${(base.length / 1e6).toFixed(2)} MB) + one user turn`);
    const row = (target, path, s, extra = {}) => {
      results.agent.push({ size: n, target, path, ...s, ...extra });
      log(`  ${target.padEnd(12)} ${path.padEnd(44)} median ${s.median.toFixed(3).padStart(9)} ms  p95 ${s.p95.toFixed(3).padStart(9)} ms  (n=${s.n})`);
    };
    for (const target of TARGETS) {
      const options = OPTIONS[target];
      const expected = Buffer.from(tw.renderBody(fullJson, options));
      const setup = heldConversation(base, turn, options, expected, `agent-shaped ${target}`);
      const many = { ...plan(n), min: 15, ms: 2500 };
      row(target, "turnwire Conversation: append(turn) + render()", await measure(n, (c) => { c.append(turn); return c.render(options); }, { setup, teardown: (c) => c.free(), plan: many }));
      const blobSetup = heldConversation(base, turn, options, expected, `agent-shaped ${target}`, "renderBlob");
      await checkBlob(blobSetup, turn, options, expected, `agent-shaped ${target}`);
      row(target, BLOB_PATH, await measure(n, (c) => { c.append(turn); return c.renderBlob(options); }, { setup: blobSetup, teardown: (c) => c.free(), plan: many }));
      // Turn after turn: the held conversation as an agent keeps it across turns. Each timed step
      // appends the next user turn and renders (renderBlob); the assistant's answer is appended
      // untimed, as a streamed reply is. The median over every turn of several conversations.
      row(target, TURNS_PATH, await turnAfterTurn(blobSetup, options, t.messages.map(toCanonical), `agent-shaped ${target}`));
      // Edits near the end (issue 13): what an agent does to regenerate or revise the last turn.
      const edited = { speaker: "human", blocks: [{ type: "text", text: `${turnText} Only the parser tests.` }] };
      const heldWithTurn = () => {
        const c = blobSetup();
        c.append(turn);
        c.renderBlob(options);
        c.renderBlob(options);
        return c;
      };
      await checkEdit(heldWithTurn, (c) => c.replace(-1, edited), options, tw.renderBody(JSON.stringify([...t.messages.map(toCanonical), edited]), options), `agent-shaped ${target} replace`);
      row(target, EDIT_PATHS.replace, await measure(n, (c) => { c.replace(-1, edited); return c.renderBlob(options); }, { setup: heldWithTurn, teardown: (c) => c.free(), plan: many }));
      row(target, EDIT_PATHS.regenerate, await measure(n, (c) => { c.truncate(c.length - 1); c.append(edited); return c.renderBlob(options); }, { setup: heldWithTurn, teardown: (c) => c.free(), plan: many }));
      row(target, "turnwire renderBody(JSON string), whole history", await measure(n, () => tw.renderBody(fullJson, options)));
      for (const d of peersOf(target)) {
        try {
          const history = d.prepare(events);
          captured.body = "";
          await d.run(history);
          checkBody(`${d.peer} ${target}`, captured.body, events);
          row(target, `${d.peer}, whole history`, await measure(n, () => d.run(history)), { peer: true });
        } catch (e) {
          results.agent.push({ size: n, target, path: `${d.peer}, whole history`, refused: String(e?.name ?? e).slice(0, 80) });
          log(`  ${target.padEnd(12)} ${d.peer}: refused the history (${String(e?.name ?? e).slice(0, 80)})`);
        }
      }
    }
  }
}

// --- a streamed answer decoded: ConverseStream event-stream bytes vs Anthropic SSE (issue 32) ---
{
  const { benchStreamDecode } = await import("./lib/stream-decode.mjs");
  const { converseEvent } = await import(join(PKG, "dist/mock/event-stream.mjs"));
  log(`\n== [${((performance.now() - started) / 1000).toFixed(0)} s] a streamed answer decoded from its bytes`);
  results.streamDecode = await benchStreamDecode(tw, converseEvent, measure);
  for (const r of results.streamDecode)
    log(`  ${r.format.padEnd(30)} reads of ${String(r.chunk).padStart(5)} B  median ${r.median.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  ${r.mbps.toFixed(1)} MB/s  (n=${r.n})`);
}

// --- the .wasm: size and instantiation in fresh Node processes ---------------------------------
const wasmPath = join(PKG, "dist/turnwire_bg.wasm");
const wasm = readFileSync(wasmPath);
const wasmInfo = { raw: wasm.length, gzip: gzipSync(wasm, { level: 9 }).length, sha256: createHash("sha256").update(wasm).digest("hex").slice(0, 16) };
/** Size of one of the package's modules: raw and gzip -9 bytes. */
const moduleSize = (name) => {
  const bytes = readFileSync(join(PKG, `dist/${name}_bg.wasm`));
  return { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
};
// turnwire/render: the module a browser front end loads to render, and the stream module it
// loads on its first streamed turn (issue 12's size target is the render module's).
const renderModule = moduleSize("turnwire_render");
const streamModule = moduleSize("turnwire_stream");
{
  const glue = join(PKG, "dist/turnwire.js");
  const entry = join(PKG, "dist/node.mjs");
  // initSync(bytes): WebAssembly.Module + Instance + wasm-bindgen start, bytes already read.
  const instScript = `
    import { readFileSync } from "node:fs";
    const bytes = readFileSync(${JSON.stringify(wasmPath)});
    const { initSync, renderBody } = await import(${JSON.stringify(glue)});
    const a = performance.now(); initSync({ module: bytes }); const b = performance.now();
    renderBody([{ speaker: "human", blocks: [{ type: "text", text: "hi" }] }], { provider: "anthropic", model: "claude-sonnet-4-5" });
    const c = performance.now();
    console.log(JSON.stringify({ init: b - a, firstCall: c - b }));`;
  // import "turnwire" (the Node entry): read the file, compile, instantiate, load the glue.
  const importScript = `
    const a = performance.now(); await import(${JSON.stringify(entry)}); const b = performance.now();
    console.log(JSON.stringify({ import: b - a }));`;
  const runs = (script, n) =>
    Array.from({ length: n }, () => JSON.parse(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" })));
  wasmInfo.loadBefore = os.loadavg()[0];
  runs(instScript, 2); // warm the file cache
  const inst = runs(instScript, 25);
  const imp = runs(importScript, 25);
  wasmInfo.init = stats(inst.map((x) => x.init));
  wasmInfo.firstCall = stats(inst.map((x) => x.firstCall));
  wasmInfo.import = stats(imp.map((x) => x.import));
  wasmInfo.loadAfter = os.loadavg()[0];
  log(`\n== [${((performance.now() - started) / 1000).toFixed(0)} s] wasm ${wasmInfo.raw} bytes, gzip -9 ${wasmInfo.gzip}; initSync median ${wasmInfo.init.median.toFixed(2)} ms, import median ${wasmInfo.import.median.toFixed(2)} ms`);
}

// --- report ----------------------------------------------------------------------------------

const load1 = os.loadavg();
const unoptimised = join(ROOT, "target/turnwire-pkg/web/turnwire_render_bg.wasm");
const sizeInfo = existsSync(unoptimised) ? codeSizeByCrate(readFileSync(unoptimised)) : undefined;
const pkgVersion = (name) => JSON.parse(readFileSync(join(HERE, "node_modules", name, "package.json"), "utf8")).version;
const git = (...a) => {
  try {
    return execFileSync("git", a, { cwd: ROOT, encoding: "utf8" }).trimEnd();
  } catch {
    return "";
  }
};
const commit = git("rev-parse", "--short=12", "HEAD").trim() || "unknown";
const dirty = git("status", "--porcelain", "--", "src", "Cargo.toml", "Cargo.lock", "js", "pkg-template", "scripts");
const turnwireVersion = JSON.parse(readFileSync(join(PKG, "package.json"), "utf8")).version;
const cpu = os.cpus()[0]?.model ?? "unknown";
const rustc = (() => {
  const r = spawnSync("rustc", ["--version"], { encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : "unknown";
})();

const faster = (x) => (x >= 1 ? `${x.toFixed(2)}× faster` : `${(1 / x).toFixed(2)}× slower`);
const fmt = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x >= 1 ? x.toFixed(2) : x.toFixed(3));
const ratio = (x) => (x >= 10 ? x.toFixed(0) : x.toFixed(2)) + "×";
const PEERS = ["pi-ai", "AI SDK", "LangChain"];
const mb = (b) => (b / 1e6).toFixed(2);
const bytesOf = (size) => results.stateless.find((r) => r.size === size)?.bytes ?? 0;

function fastestPeer(rows) {
  const peers = rows.filter((r) => r.peer);
  return peers.length ? peers.reduce((a, b) => (b.median < a.median ? b : a)) : undefined;
}

const md = [];
md.push("# turnwire benchmarks");
md.push("");
md.push(`Generated by \`make bench\` (bench/run.mjs) on ${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC. Do not edit by hand.`);
md.push("");
const dirtyFiles = dirty ? dirty.split("\n").map((l) => l.slice(3)) : [];
// Was pkg/ built after the last change to the sources it is built from?
const newest = (dir) => {
  let best = { t: 0, f: "" };
  const walk = (d) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const f = join(d, e.name);
      if (e.isDirectory()) walk(f);
      else {
        const t = statSync(f).mtimeMs;
        if (t > best.t) best = { t, f };
      }
    }
  };
  if (existsSync(dir)) (statSync(dir).isDirectory() ? walk(dir) : (best = { t: statSync(dir).mtimeMs, f: dir }));
  return best;
};
const wasmBuilt = statSync(wasmPath).mtimeMs;
const src = [join(ROOT, "src"), join(ROOT, "js"), join(ROOT, "Cargo.toml"), join(ROOT, "Cargo.lock")].map(newest).reduce((a, b) => (b.t > a.t ? b : a));
const stale = src.t > wasmBuilt;
md.push(`- turnwire ${turnwireVersion} as built into pkg/ by \`make package\` from commit \`${commit}\`${dirtyFiles.length ? ` **plus uncommitted changes** (${dirtyFiles.join(", ")})` : ""}; .wasm built ${new Date(wasmBuilt).toISOString().slice(0, 16).replace("T", " ")} UTC, sha256 \`${wasmInfo.sha256}…\`${stale ? ` — **stale: ${src.f.slice(ROOT.length + 1)} changed after it was built** (run \`make bench\`, which rebuilds pkg/ first)` : ""}`);
md.push(`- Node ${process.version} (V8 ${process.versions.v8}), ${rustc}; ${os.type()} ${os.release()}, ${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB`);
md.push(`- load average at start ${load0.map((x) => x.toFixed(2)).join(" ")}, at end ${load1.map((x) => x.toFixed(2)).join(" ")} (other work on the machine shows up as noise; medians are robust to it, p95s are not)`);
md.push(`- peers: @mariozechner/pi-ai ${pkgVersion("@mariozechner/pi-ai")}; ai ${pkgVersion("ai")} with @ai-sdk/anthropic ${pkgVersion("@ai-sdk/anthropic")}, @ai-sdk/openai ${pkgVersion("@ai-sdk/openai")}, @ai-sdk/google ${pkgVersion("@ai-sdk/google")}; @langchain/core ${pkgVersion("@langchain/core")}, @langchain/anthropic ${pkgVersion("@langchain/anthropic")}, @langchain/openai ${pkgVersion("@langchain/openai")} (the newest of each that supports Node 20: ai 7 / @ai-sdk/* 4 and @langchain/openai ≥ 1.5.9 need Node ≥ 22)`);
md.push(`- sessions: seed ${SEED}; run took ${((performance.now() - started) / 1000).toFixed(0)} s`);
md.push("");

// Summary: the README's table.
{
  const stat = (size, target) => results.stateless.filter((r) => r.size === size && (r.target === target || r.target === "*"));
  if (results.stateless.some((r) => r.size === APPEND_SIZE)) {
    md.push(`## Summary (${APPEND_SIZE.toLocaleString("en")} messages, ${mb(bytesOf(APPEND_SIZE))} MB of transcript JSON)`);
    md.push("");
    md.push("Median ms, and × the fastest peer for that provider (lower is better).");
    md.push("");
    md.push(`| path | ${TARGETS.join(" | ")} |`);
    md.push(`|---|${TARGETS.map(() => "---:").join("|")}|`);
    const cell = (r, fast) => (r ? `${fmt(r.median)} (${ratio(r.median / fast.median)})` : "—");
    const line = (name, pick, appendTable = false) =>
      md.push(`| ${name} | ${TARGETS.map((t) => {
        const rows = stat(APPEND_SIZE, t);
        const fast = fastestPeer(appendTable ? results.append.filter((x) => x.target === t) : rows.filter((x) => x.target === t));
        return cell(pick(t, rows), fast);
      }).join(" | ")} |`);
    line("`JSON.stringify(transcript)` (floor)", (t, rows) => rows.find((r) => r.path.startsWith("floor")));
    line("turnwire `renderBody(JSON string)`", (t, rows) => rows.find((r) => r.path === "turnwire renderBody(JSON string)"));
    line("turnwire `renderForProvider(object)`", (t, rows) => rows.find((r) => r.path === "turnwire renderForProvider(object)"));
    line("turnwire `Conversation`: append one turn + `render()`", (t) => results.append.find((r) => r.target === t && r.path.startsWith("turnwire Conversation")), true);
    line("turnwire `Conversation`: append one turn + `renderBlob()`", (t) => results.append.find((r) => r.target === t && r.path === BLOB_PATH), true);
    for (const p of PEERS) line(p, (t, rows) => rows.find((r) => r.path === p));
    md.push("");
    md.push(`The \`Conversation\` row is the ${APPEND_SIZE.toLocaleString("en")}-message session plus one user turn; its ratio is to the fastest peer's full render of that same ${(APPEND_SIZE + 1).toLocaleString("en")}-message history (the append table below).`);
    md.push("");
  }
}

// Targets
const appendRows = (target) => results.append.filter((r) => r.target === target);
const statelessRows = (size, target) => results.stateless.filter((r) => r.size === size && r.target === target);
const verdicts = [];
// The Conversation figure a target is judged on: renderBlob (the body as fetch sends it, cached
// pieces not copied) when measured, else render() (the body as one fresh Uint8Array).
const convOf = (rows) => rows.find((r) => r.path === BLOB_PATH) ?? rows.find((r) => r.path.startsWith("turnwire Conversation"));
const convText = (conv, bytes) => conv.path === BLOB_PATH && bytes ? `\`renderBlob()\` ${fmt(conv.median)} ms (\`render()\`: ${fmt(bytes.median)} ms)` : `${fmt(conv.median)} ms`;
md.push("## Targets");
md.push("");
md.push("| target | measured | limit | |");
md.push("|---|---|---|---|");
for (const target of TARGETS) {
  const rows = appendRows(target);
  const conv = convOf(rows);
  const bytes = rows.find((r) => r.path.startsWith("turnwire Conversation") && r.path !== BLOB_PATH);
  const fast = fastestPeer(rows);
  if (!conv || !fast) continue;
  const speedup = fast.median / conv.median;
  const met = speedup >= 30; // issue 12 (issue 4 asked for 10×)
  verdicts.push({ kind: "append", target, met, speedup, conv, fast });
  md.push(`| \`Conversation\` append + render, ${APPEND_SIZE.toLocaleString("en")} messages, ${target} | ${convText(conv, bytes)} vs ${fast.path.replace(", whole history", "")} ${fmt(fast.median)} ms: **${faster(speedup)}** | ≥ 30× faster than the fastest peer | ${met ? "met" : `**missed** (needs ${(30 / speedup).toFixed(1)}× less time)`} |`);
}
for (const target of TARGETS) {
  const at = (size) => results.agent.filter((r) => r.size === size && r.target === target);
  const conv = (size) => convOf(at(size));
  const bytes = (size) => at(size).find((r) => r.path.startsWith("turnwire Conversation") && r.path !== BLOB_PATH);
  const fast = fastestPeer(at(2000).filter((r) => r.median !== undefined));
  if (conv(2000) && fast) {
    const speedup = fast.median / conv(2000).median;
    const met = speedup >= 30;
    verdicts.push({ kind: "agent-append", target, met, speedup });
    md.push(`| agent-shaped \`Conversation\` append + render, 2,000 messages, ${target} | ${convText(conv(2000), bytes(2000))} vs ${fast.path.replace(", whole history", "")} ${fmt(fast.median)} ms: **${faster(speedup)}** | ≥ 30× faster than the fastest peer | ${met ? "met" : `**missed** (needs ${(30 / speedup).toFixed(1)}× less time)`} |`);
  }
  if (conv(2000) && conv(10000)) {
    const r = conv(10000).median / conv(2000).median;
    const met = r <= 1.5;
    verdicts.push({ kind: "agent-scale", target, met, ratio: r });
    md.push(`| agent-shaped \`Conversation\` append + render, 10,000 vs 2,000 messages, ${target} | ${convText(conv(10000), bytes(10000))} vs ${fmt(conv(2000).median)} ms: **${r.toFixed(2)}×** | ≤ 1.5× | ${met ? "met" : `**missed** (${(r / 1.5).toFixed(1)}× over)`} |`);
  }
  const turns = (size) => at(size).find((r) => r.path === TURNS_PATH);
  if (turns(2000) && turns(10000)) {
    const r = turns(10000).median / turns(2000).median;
    const met = r <= 1.5;
    verdicts.push({ kind: "agent-scale-turns", target, met, ratio: r });
    md.push(`| agent-shaped \`Conversation\`, turn after turn (append + \`renderBlob()\`, ${TURNS} turns per held conversation), 10,000 vs 2,000 messages, ${target} | ${fmt(turns(10000).median)} ms vs ${fmt(turns(2000).median)} ms: **${r.toFixed(2)}×** | ≤ 1.5× | ${met ? "met" : `**missed** (${(r / 1.5).toFixed(1)}× over)`} |`);
  }
}
for (const target of TARGETS) {
  const rows = statelessRows(APPEND_SIZE, target);
  const rb = rows.find((r) => r.path === "turnwire renderBody(JSON string)");
  const fast = fastestPeer(rows);
  if (!rb || !fast) continue;
  const r = rb.median / fast.median;
  const met = r <= 1.0; // issue 12 (issue 4 asked for 1.5×)
  verdicts.push({ kind: "stateless", target, met, ratio: r, rb, fast });
  md.push(`| \`renderBody\` from a JSON string, ${APPEND_SIZE.toLocaleString("en")} messages, ${target} | ${fmt(rb.median)} ms vs ${fast.path} ${fmt(fast.median)} ms: **${r.toFixed(2)}×** | ≤ 1.0× the fastest peer | ${met ? "met" : `**missed** (${r < 1.1 ? r.toFixed(2) : r.toFixed(1)}× over)`} |`);
  const rfp = rows.find((x) => x.path === "turnwire renderForProvider(object)");
  if (rfp) {
    const q = rfp.median / fast.median;
    verdicts.push({ kind: "stateless-objects", target, met: q <= 1.5, ratio: q });
    md.push(`| \`renderForProvider\` from objects, ${APPEND_SIZE.toLocaleString("en")} messages, ${target} | ${fmt(rfp.median)} ms vs ${fast.path} ${fmt(fast.median)} ms: **${q.toFixed(2)}×** | ≤ 1.5× the fastest peer | ${q <= 1.5 ? "met" : `**missed** (${(q / 1.5).toFixed(1)}× over)`} |`);
  }
}
for (const target of TARGETS) {
  // 20 messages: no call slower than the fastest peer's (issue 12)
  const rows = statelessRows(20, target);
  const fast = fastestPeer(rows);
  const ours = rows.filter((r) => r.path.startsWith("turnwire"));
  if (!fast || !ours.length) continue;
  const slowest = ours.reduce((a, b) => (b.median > a.median ? b : a));
  const q = slowest.median / fast.median;
  verdicts.push({ kind: "small", target, met: q <= 1.0, ratio: q });
  md.push(`| every call at 20 messages, ${target} | slowest ${slowest.path.replace("turnwire ", "")} ${fmt(slowest.median)} ms vs ${fast.path} ${fmt(fast.median)} ms: **${q.toFixed(2)}×** | ≤ 1.0× the fastest peer | ${q <= 1.0 ? "met" : `**missed** (${q.toFixed(2)}× over)`} |`);
}
{
  const kb = renderModule.gzip / 1024;
  verdicts.push({ kind: "size", met: kb <= 120, kb });
  md.push(`| render module (\`turnwire/render\`), gzip -9 | ${kb.toFixed(1)} KB (${(renderModule.raw / 1024).toFixed(1)} KB raw); its stream module, loaded on the first streamed turn, ${(streamModule.gzip / 1024).toFixed(1)} KB; the main module (\`turnwire\`) ${(wasmInfo.gzip / 1024).toFixed(1)} KB | ≤ 120 KB | ${kb <= 120 ? "met" : `**missed** (+${(kb - 120).toFixed(1)} KB)`} |`);
  const ms = wasmInfo.init.median;
  verdicts.push({ kind: "init", met: ms <= 10, ms });
  md.push(`| instantiation in Node (\`initSync(bytes)\`, fresh process, median of ${wasmInfo.init.n}) | ${fmt(ms)} ms (p95 ${fmt(wasmInfo.init.p95)}); whole \`import\` of the Node entry ${fmt(wasmInfo.import.median)} ms | ≤ 10 ms | ${ms <= 10 ? "met" : `**missed** (+${fmt(ms - 10)} ms)`} |`);
}
for (const chunk of [...new Set((results.streamDecode ?? []).map((r) => r.chunk))]) {
  // issue 32: a binary event stream decodes at least as many bytes per second as SSE text
  const es = results.streamDecode.find((r) => r.chunk === chunk && r.format.includes("event-stream"));
  const sse = results.streamDecode.find((r) => r.chunk === chunk && r.format.includes("SSE"));
  const q = es.mbps / sse.mbps;
  verdicts.push({ kind: "stream", met: q >= 1, es, sse, q });
  md.push(`| a streamed answer decoded from its bytes, reads of ${chunk.toLocaleString("en")} B: bedrock-converse event-stream (\`push(Uint8Array)\`) vs anthropic SSE (\`SseParser\` + \`push(data)\`) | ${fmt(es.mbps)} MB/s vs ${fmt(sse.mbps)} MB/s: **${q.toFixed(2)}×** (the same answer in ${fmt(es.median)} ms vs ${fmt(sse.median)} ms) | ≥ 1.0× SSE's bytes per second | ${q >= 1 ? "met" : `**missed** (${(1 / q).toFixed(2)}× slower)`} |`);
}
md.push("");

// Stateless tables
md.push("## History → request body (stateless)");
md.push("");
md.push("Median ms (p95 ms; nearest rank, so with fewer than 20 runs it is the slowest run) and the ratio to the fastest peer for the same target and size (below 1× is faster). Runs per cell: 20–400 at 20 messages, 10–200 at 200, 6–40 at 2,000, 3–5 at 10,000 (a time budget decides), after a warm-up. The floor is `JSON.stringify` of the turnwire transcript: no conversion at all.");
md.push("");
const sizes = SIZES;
for (const target of TARGETS) {
  md.push(`### ${target}`);
  md.push("");
  md.push(`| path | ${sizes.map((s) => `${s.toLocaleString("en")} msgs (${(bytesOf(s) / 1e6).toFixed(2)} MB)`).join(" | ")} |`);
  md.push(`|---|${sizes.map(() => "---").join("|")}|`);
  const paths = [
    "floor: JSON.stringify(transcript)",
    "turnwire renderBody(JSON string)",
    "turnwire renderForProvider(object)",
    ...PEERS,
  ];
  for (const path of paths) {
    const cells = sizes.map((size) => {
      const rows = results.stateless.filter((r) => r.size === size && (r.target === target || r.target === "*"));
      const r = rows.find((x) => x.path === path);
      const fast = fastestPeer(rows.filter((x) => x.target === target));
      if (!r) return "";
      return `${fmt(r.median)} (${fmt(r.p95)}) ${fast ? ratio(r.median / fast.median) : ""}`;
    });
    if (cells.every((c) => c === "")) continue;
    const name = path.startsWith("floor") || path.startsWith("turnwire") ? `\`${path.replace("turnwire ", "")}\`` : path;
    md.push(`| ${path.startsWith("turnwire") ? "turnwire " + name : name} | ${cells.join(" | ")} |`);
  }
  md.push("");
}

// Append table
md.push(`## Append one user turn to the ${APPEND_SIZE.toLocaleString("en")}-message session, render again`);
md.push("");
md.push(
  `The conversation is built and rendered once for the previous turn (untimed); timed is \`conversation.append(turn)\` + \`conversation.render(options)\`, on a fresh copy each iteration. Each peer renders its whole ${(APPEND_SIZE + 1).toLocaleString("en")}-message history (its histories are plain arrays: pushing the turn costs nothing, the request is rebuilt from scratch). Median ms (p95 ms), ratio to the fastest peer.`,
);
md.push("");
md.push(`| path | ${TARGETS.join(" | ")} |`);
md.push(`|---|${TARGETS.map(() => "---").join("|")}|`);
{
  const paths = ["floor: JSON.stringify(transcript)", "turnwire Conversation: append(turn) + render()", BLOB_PATH, COPY_FLOOR, "turnwire renderBody(JSON string), whole history", ...PEERS.map((p) => `${p}, whole history`)];
  for (const path of paths) {
    const cells = TARGETS.map((target) => {
      const rows = results.append.filter((r) => r.target === target || r.target === "*");
      const r = rows.find((x) => x.path === path);
      const fast = fastestPeer(rows.filter((x) => x.target === target));
      if (!r) return "";
      return `${fmt(r.median)} (${fmt(r.p95)}) ${fast ? ratio(r.median / fast.median) : ""}`;
    });
    if (cells.every((c) => c === "")) continue;
    md.push(`| ${path.startsWith("turnwire") ? "turnwire `" + path.slice(9) + "`" : path.startsWith("floor") ? "`" + path + "`" : path} | ${cells.join(" | ")} |`);
  }
}
md.push("");

if (results.agent.length) {
  md.push("## Agent-shaped sessions: append one user turn, render again");
  md.push("");
  md.push("Sessions from `../shared/bench/agent-transcript.mjs` (seed " + (SEED + 2) + "; one session of " + Math.max(...AGENT_SIZES).toLocaleString("en") + " messages, each smaller size its last messages from a user message on, so that every size ends in the same open turn, which the appended user turn closes and the incremental renderer renders again): long tool loops, one tool message per result, about 5 % interrupted fan-out (calls without a result), signed thinking, and the next user message right after the last results. Timed as the append table above; peers render the whole history (a peer that refuses the history, as the AI SDK does with calls left without results, is marked). Median ms (p95 ms), ratio to the fastest peer.");
  md.push("");
  md.push(`The append rows time the first turn after loading: each run loads the history (\`Conversation.fromJSON\`), renders it twice (untimed), then appends one user turn and renders. \`turn after turn\` times what an agent pays on every later turn: on a held conversation, ${TURNS} successive turns each append a user message and render (timed), then append the assistant's answer (untimed); the median over every turn of 3–10 conversations.`);
  md.push("");
  for (const n of AGENT_SIZES) {
    md.push(`### ${n.toLocaleString("en")} messages`);
    md.push("");
    md.push(`| path | ${TARGETS.join(" | ")} |`);
    md.push(`|---|${TARGETS.map(() => "---").join("|")}|`);
    const paths = [...new Set(results.agent.filter((r) => r.size === n).map((r) => r.path))];
    for (const path of paths) {
      const cells = TARGETS.map((target) => {
        const rows = results.agent.filter((r) => r.size === n && r.target === target);
        const r = rows.find((x) => x.path === path);
        const fast = fastestPeer(rows.filter((x) => x.median !== undefined));
        if (!r) return "";
        if (r.refused) return `refused (${r.refused})`;
        return `${fmt(r.median)} (${fmt(r.p95)}) ${fast ? ratio(r.median / fast.median) : ""}`;
      });
      md.push(`| ${path.startsWith("turnwire") ? "turnwire `" + path.slice(9) + "`" : path} | ${cells.join(" | ")} |`);
    }
    md.push("");
  }
}

if (results.breakdown.length) {
  md.push(`## Where turnwire's time goes (${APPEND_SIZE.toLocaleString("en")} messages)`);
  md.push("");
  md.push("| step | target | median ms (p95) |");
  md.push("|---|---|---|");
  for (const b of results.breakdown) md.push(`| ${b.step} | ${b.target} | ${fmt(b.median)} (${fmt(b.p95)}) |`);
  md.push("");
}

if (results.bodies.length) {
  md.push(`## Request bodies compared (${APPEND_SIZE.toLocaleString("en")} messages)`);
  md.push("");
  md.push("Each library builds its own body from the same conversation, so sizes differ: turnwire drops thinking that the target cannot replay (Anthropic-signed thinking sent to OpenAI or Gemini); pi-ai turns it into text; the AI SDK sends it to Gemini as `thought` parts; LangChain's OpenAI path drops it.");
  md.push("");
  md.push(`| target | ${["turnwire", ...PEERS].join(" | ")} |`);
  md.push(`|---|${["turnwire", ...PEERS].map(() => "---").join("|")}|`);
  for (const target of TARGETS) {
    const cells = ["turnwire", ...PEERS].map((p) => {
      const b = results.bodies.find((x) => x.target === target && x.path === p);
      return b ? `${(b.bytes / 1e6).toFixed(2)} MB` : "—";
    });
    md.push(`| ${target} | ${cells.join(" | ")} |`);
  }
  md.push("");
}

if (results.streamDecode?.length) {
  const r0 = results.streamDecode[0];
  md.push("## A streamed answer decoded from its bytes");
  md.push("");
  md.push(`One long answer (bench/lib/stream-decode.mjs, seeded: signed reasoning, text and a tool call whose arguments stream in pieces; ${mb(r0.content)} MB of content in deltas of 20–120 characters), sent two ways and decoded from its bytes, each body cut into reads of a network read's size: as a Bedrock ConverseStream body (\`application/vnd.amazon.eventstream\` frames as \`turnwire/mock\` encodes them, each read to \`StreamDecoder.push(Uint8Array)\`) and as an Anthropic Messages SSE body (each read to \`SseParser.feed\`, each \`data:\` payload to \`StreamDecoder.push(string)\`). Both decode to the same message (checked). Reads of 16,384 B are what Node's fetch hands over (a TLS record's payload), 1,460 B one TCP segment's. MB/s of wire bytes: the event stream's frames carry more bytes per delta (prelude, headers, CRCs) than SSE's lines.`);
  md.push("");
  md.push("| format | reads of | wire MB | median ms (p95) | MB/s wire | MB/s content |");
  md.push("|---|---:|---:|---|---:|---:|");
  for (const r of results.streamDecode) md.push(`| ${r.format} | ${r.chunk.toLocaleString("en")} B | ${mb(r.wire)} | ${fmt(r.median)} (${fmt(r.p95)}) | ${fmt(r.mbps)} | ${fmt(r.contentMbps)} |`);
  md.push("");
}

md.push("## The .wasm");
md.push("");
md.push(`The package holds three modules built from one crate by one \`make package\`:`);
md.push("");
md.push(`- \`pkg/dist/turnwire_bg.wasm\`, the main module (\`turnwire\`, every export): ${wasmInfo.raw.toLocaleString("en")} bytes, ${wasmInfo.gzip.toLocaleString("en")} gzip -9;`);
md.push(`- \`pkg/dist/turnwire_render_bg.wasm\`, the render module (\`turnwire/render\`: rendering, normalising, \`Conversation\`, tool ids): ${renderModule.raw.toLocaleString("en")} bytes, ${renderModule.gzip.toLocaleString("en")} gzip -9;`);
md.push(`- \`pkg/dist/turnwire_stream_bg.wasm\`, the stream decoders \`turnwire/render\` loads on its first streamed turn: ${streamModule.raw.toLocaleString("en")} bytes, ${streamModule.gzip.toLocaleString("en")} gzip -9.`);
md.push("");
md.push(`Instantiation of the main module (the largest); each figure below is the median (p95) of ${wasmInfo.init.n} fresh \`node\` processes:`);
md.push("");
md.push(`- \`initSync({ module: bytes })\` (compile + instantiate + wasm-bindgen start; bytes already read): ${fmt(wasmInfo.init.median)} ms (${fmt(wasmInfo.init.p95)}); 1-minute load average ${wasmInfo.loadBefore.toFixed(1)} before, ${wasmInfo.loadAfter.toFixed(1)} after`);
md.push(`- the first call after it (\`renderBody\` of a one-message history): ${fmt(wasmInfo.firstCall.median)} ms (${fmt(wasmInfo.firstCall.p95)})`);
md.push(`- \`await import("turnwire")\` (the Node entry: read the file, compile, instantiate, load the glue): ${fmt(wasmInfo.import.median)} ms (${fmt(wasmInfo.import.p95)})`);
md.push("");
if (sizeInfo?.named) {
  md.push(`Code of the render module by origin, from the name section of wasm-bindgen's output before \`wasm-opt -Oz\` (${(sizeInfo.total / 1024).toFixed(0)} KB: ${(sizeInfo.code / 1024).toFixed(0)} KB code, ${(sizeInfo.data / 1024).toFixed(0)} KB data); "std/core" includes the iterator chains in which turnwire's own closures were inlined:`);
  md.push("");
  md.push("| origin | code KB | share |");
  md.push("|---|---|---|");
  for (const b of sizeInfo.buckets.filter((x) => x.bytes / sizeInfo.code >= 0.01)) md.push(`| ${b.bucket} | ${(b.bytes / 1024).toFixed(1)} | ${((100 * b.bytes) / sizeInfo.code).toFixed(1)} % |`);
  md.push("");
}

md.push("## How each path is driven");
md.push("");
md.push("One Node process; `globalThis.fetch` is replaced before anything is loaded by a capturing fetch (bench/lib/fetch.mjs) that records the request body and answers a canned one-word reply in the provider's format (JSON, or SSE when the request streams), so each peer runs its real request path — message conversion, its validation, tool declarations, `JSON.stringify`, the SDK's request building, and the handling of a minimal response — with no network. Each peer gets the conversation in its own format (bench/lib/session.mjs): pi-ai `Context` (`UserMessage`, `AssistantMessage` with signed `thinking`, `toolCall`, one `ToolResultMessage` per result), AI SDK `ModelMessage[]` (`reasoning` parts with the Anthropic signature in `providerOptions`, `tool-call`, `tool-result`), LangChain `BaseMessage[]` (`AIMessage` with `thinking`/`tool_use` content and `tool_calls`, `ToolMessage` per result). Every path is checked once per size to have put the first and the last user message into its body. Tool declarations (6 tools) and a ~1 KB system prompt go with every request.");
md.push("");
md.push("| library | target | call |");
md.push("|---|---|---|");
md.push("| turnwire | all | `renderBody(json, options)` (JSON string in, bytes out), `renderForProvider(transcript, options)` (objects in and out); `Conversation.fromJSON(json)` + `render(options)` once, then timed `append(turn)` + `render(options)` |");
for (const d of drivers) md.push(`| ${d.peer} | ${d.target} | ${d.how} |`);
md.push("");
md.push("LangChain has no Gemini row: its packages here are `@langchain/anthropic` and `@langchain/openai`, as the issue lists them. Models: `claude-sonnet-4-5` with thinking on (budget 8,000 of 16,000 tokens), `gpt-5.2`, `gemini-2.5-pro`; every assistant message of the history came from `claude-sonnet-4-5`, so its signed thinking can be replayed as thinking to Anthropic only (what each library does with it for the other targets: see the body sizes).");
md.push("");
md.push("Sessions (seeded, bench/lib/session.mjs): episodes of a user message, 0–4 tool rounds (assistant: signed thinking of 0.2–2 KB, sometimes a short text, 1–5 parallel calls of `read_file`/`grep`/`bash`/`edit_file` (0.05–0.8 KB strings)/`write_file` (0.3–3 KB)/`list_dir`; then one tool message with every result, 0.2–5 KB each, log-uniform, 3 % errors) and a final answer (thinking + 0.1–1.5 KB text); a few non-ASCII words. Message counts are turnwire transcript messages (one tool message per round); the last message is always a user turn.");
md.push("");

md.push("## Closing note");
md.push("");
const missed = verdicts.filter((v) => !v.met);
const met = verdicts.filter((v) => v.met);
const breakdown = (target, prefix) => results.breakdown.find((b) => b.target === target && b.step.startsWith(prefix));
const floorAt = results.stateless.find((r) => r.size === APPEND_SIZE && r.path.startsWith("floor"));
const parseRow = breakdown("*", "Conversation.fromJSON");
const jsParse = breakdown("*", "JSON.parse");
const transcriptBytes = floorAt?.bytes ?? 0;
md.push(missed.length ? `${met.length} of ${verdicts.length} targets met.` : "Every target is met.");
md.push("");
const times = (x) => (x < 1.1 ? x.toFixed(2) : x.toFixed(1));
const appendMissed = missed.filter((v) => v.kind === "append");
const statelessMissed = missed.filter((v) => v.kind === "stateless");
const copyFloor = (target) => results.append.find((r) => r.target === target && r.path === COPY_FLOOR);
const copyNote = (vs) => {
  const xs = vs.map((v) => ({ v, c: copyFloor(v.target) })).filter((x) => x.c);
  if (!xs.length) return "";
  const share = Math.max(...xs.map((x) => x.c.median / x.v.conv.median));
  const bimodal = xs.some((x) => x.c.p95 > 2.5 * x.c.median || x.v.conv.p95 > 2.5 * x.v.conv.median);
  return ` ${share >= 0.3 ? "Much" : "Part"} of that time is handing the body to JavaScript as a fresh \`Uint8Array\`: JavaScript's own \`.slice()\` of an array of the same size, timed the same way, takes ${xs.map((x) => `${fmt(x.c.median)} ms (p95 ${fmt(x.c.p95)}, ${x.v.target})`).join(", ")}.${bimodal ? " Such multi-MB allocations are fast when V8 reuses freed pages and several times slower when it takes fresh ones, which is why p95s here are several times the medians and these medians move between runs." : ""}`;
};
const appendMet = met.filter((v) => v.kind === "append");
const statelessMet = met.filter((v) => v.kind === "stateless");
if (appendMet.length) {
  const parts = appendMet.map((v) => ({ v, whole: breakdown(v.target, FIRST_RENDER) })).filter((x) => x.whole);
  md.push(`- Met: \`Conversation\` append + render, ${appendMet.map((v) => `${v.target} ${faster(v.speedup)}`).join(", ")} than the fastest peer.${parts.length ? ` The first render of a fresh \`Conversation\` of the same history takes ${parts.map((x) => `${fmt(x.whole.median)} ms (${x.v.target})`).join(", ")}; after it, one append + render takes ${parts.map((x) => `${fmt(x.v.conv.median)} ms`).join(", ")}: the \`Conversation\` keeps the wire messages it rendered before the last stable boundary (a user turn after a finished answer) and renders only what follows it, falling back to a full render whenever the tail could reach back.` : ""}${copyNote(appendMet)}`);
}
if (statelessMet.length)
  md.push(`- Met: \`renderBody\` from a JSON string, ${statelessMet.map((v) => `${v.target} ${v.ratio.toFixed(2)}× ${v.fast.path}`).join(", ")} (limit 1.0×).`);
if (verdicts.some((v) => v.kind === "size" && v.met)) md.push(`- Met: render module ${(renderModule.gzip / 1024).toFixed(1)} KB gzip -9 (limit 120 KB).`);
if (verdicts.some((v) => v.kind === "init" && v.met))
  md.push(`- Met: instantiation ${fmt(wasmInfo.init.median)} ms (limit 10 ms); the first call after it takes another ${fmt(wasmInfo.firstCall.median)} ms (Node 20's V8 compiles wasm functions lazily, on first call), so a first one-message render after start-up takes about ${fmt(wasmInfo.init.median + wasmInfo.firstCall.median)} ms in all.`);
if (missed.length) {
  md.push("");
  md.push("Missed:");
  md.push("");
}
for (const v of appendMissed)
  md.push(`- **\`Conversation\` append + render, ${v.target}: ${faster(v.speedup)} than ${v.fast.path.replace(", whole history", "")} (${fmt(v.conv.median)} against ${fmt(v.fast.median)} ms). The target is 30× faster, ≤ ${fmt(v.fast.median / 30)} ms: missed by a factor of ${times(30 / v.speedup)}.**`);
if (appendMissed.length) {
  const parts = appendMissed.map((v) => {
    const whole = breakdown(v.target, FIRST_RENDER);
    return whole ? { v, whole, share: v.conv.median / whole.median } : undefined;
  }).filter(Boolean);
  const notIncremental = parts.filter((x) => x.share > 0.5);
  let why = "  Why: ";
  if (notIncremental.length)
    why += `in the measured build one append + render costs more than half of a first render of the whole history from a fresh \`Conversation\` (${notIncremental.map((x) => `${x.v.target} ${fmt(x.v.conv.median)} against ${fmt(x.whole.median)} ms`).join(", ")}): about as much work as a full render, so it can at best match a peer that rebuilds the request in JavaScript, not beat it 30×. `;
  else why += `one append + render is much cheaper than a first render of the whole history from a fresh \`Conversation\` (${parts.map((x) => `${x.v.target} ${fmt(x.v.conv.median)} against ${fmt(x.whole.median)} ms`).join(", ")}), but what is left is still more than a tenth of the fastest peer. `;
  const worst = appendMissed.reduce((a, b) => (b.fast.median < a.fast.median ? b : a));
  const body = results.bodies.find((b) => b.target === worst.target && b.path === "turnwire")?.bytes ?? 0;
  if (body) why += `The bar is high: for ${worst.target} the ${mb(body)} MB body has to come out in ${fmt(worst.fast.median / 10)} ms (${(body / 1e9 / (worst.fast.median / 10000)).toFixed(2)} GB/s), which only copying an already serialised prefix out of wasm memory and writing just the new turn can reach.`;
  why += copyNote(appendMissed);
  md.push(why);
}
for (const v of statelessMissed)
  md.push(`- **\`renderBody\` from a JSON string, ${v.target}: ${v.ratio.toFixed(2)}× ${v.fast.path} (${fmt(v.rb.median)} against ${fmt(v.fast.median)} ms). The limit is 1.0×: missed by a factor of ${times(v.ratio)}.**`);
if (statelessMissed.length && parseRow && floorAt) {
  let why = `  Why: the stateless path copies the ${mb(transcriptBytes)} MB JSON text into wasm memory and parses it into Rust values (\`Conversation.fromJSON\` of the same text alone: ${fmt(parseRow.median)} ms, ${(transcriptBytes / 1e6 / (parseRow.median / 1000)).toFixed(0)} MB/s, where V8's \`JSON.parse\` takes ${fmt(jsParse?.median ?? NaN)} ms); the rest of \`renderBody\`, about ${statelessMissed.map((v) => `${fmt(Math.max(0, v.rb.median - parseRow.median))} ms for ${v.target}`).join(", ")}, repairs, renders and writes the body and copies it out. `;
  const fastest = statelessMissed.map((v) => v.fast);
  why += `Against the floor, \`JSON.stringify\` of the transcript (${fmt(floorAt.median)} ms), the fastest peers take ${[...new Map(fastest.map((f) => [f.path + f.target, f])).values()].map((f) => `${f.path} ${f.target} ${(f.median / floorAt.median).toFixed(2)}×`).join(", ")}. Their converters re-arrange JS objects that keep pointing at the history's strings, with no repair pass, and serialise once with V8's native \`JSON.stringify\`; turnwire parses and writes every byte in wasm.`;
  const slowerRender = statelessMissed.filter((v) => v.rb.median - parseRow.median > v.fast.median);
  if (slowerRender.length) why += ` For ${slowerRender.length === statelessMissed.length && slowerRender.length > 1 ? "each of them" : slowerRender.map((v) => v.target).join(" and ")}, that rest alone takes longer than the peer's whole path.`;
  md.push(why);
}
for (const v of missed.filter((x) => x.kind === "size")) {
  let why = "";
  if (sizeInfo?.named) {
    const top = sizeInfo.buckets.slice(0, 5).map((b) => `${b.bucket} ${((100 * b.bytes) / sizeInfo.code).toFixed(0)} %`).join("; ");
    why = `  Why: the render module leaves out the importers, exporters, validators, stream decoders and relay (the main module is ${(wasmInfo.gzip / 1024).toFixed(0)} KB), but keeps the eight adapters, the repair passes, the incremental renderer, serde_json and the serde code of the option types and some transcript types. Code by origin (shares of the code section before wasm-opt): ${top}; plus ${(sizeInfo.data / 1024).toFixed(0)} KB of data (string constants and tables). Getting under 120 KB takes about ${(100 * (1 - 120 / v.kb)).toFixed(0)} % off.`;
  }
  md.push(`- **Render module: ${v.kb.toFixed(1)} KB gzip -9 (${(renderModule.raw / 1024).toFixed(0)} KB raw). The limit is 120 KB: ${(v.kb - 120).toFixed(1)} KB (${((v.kb / 120 - 1) * 100).toFixed(0)} %) over.**`);
  if (why) md.push(why);
}
for (const v of missed.filter((x) => x.kind === "stream"))
  md.push(`- **A streamed answer decoded from its bytes, reads of ${v.es.chunk.toLocaleString("en")} B: the event stream ${fmt(v.es.mbps)} MB/s against SSE's ${fmt(v.sse.mbps)} MB/s, ${(1 / v.q).toFixed(2)}× slower. The limit is 1.0×.**`);
for (const v of missed.filter((x) => x.kind === "init")) {
  md.push(`- **Instantiation: ${fmt(v.ms)} ms median (p95 ${fmt(wasmInfo.init.p95)}). The limit is 10 ms: ${fmt(v.ms - 10)} ms (${((v.ms / 10 - 1) * 100).toFixed(0)} %) over.**`);
  md.push(`  Why: Node 20's V8 compiles wasm functions lazily, on first call, but decodes and validates the whole module in \`initSync\`, so the time grows with the module (${(wasmInfo.raw / 1024).toFixed(0)} KB) and with the machine's load (1-minute load average ${wasmInfo.loadBefore.toFixed(1)} before and ${wasmInfo.loadAfter.toFixed(1)} after these ${wasmInfo.init.n * 2 + 2} processes, on ${os.cpus().length} cores). The first call then compiles what it uses: another ${fmt(wasmInfo.firstCall.median)} ms.`);
}
// The same work measured twice in this run: renderBody of the 2,000-message history (stateless
// table) and of the 2,001-message one (append table). Their spread shows the run's noise.
const twice = TARGETS.map((t) => {
  const a = results.stateless.find((r) => r.size === APPEND_SIZE && r.target === t && r.path === "turnwire renderBody(JSON string)");
  const b = results.append.find((r) => r.target === t && r.path.startsWith("turnwire renderBody"));
  return a && b ? { t, a: a.median, b: b.median, spread: Math.max(a.median, b.median) / Math.min(a.median, b.median) - 1 } : undefined;
}).filter(Boolean);
md.push("");
if (twice.length)
  md.push(`Run-to-run noise: \`renderBody\` of the ${APPEND_SIZE.toLocaleString("en")}- and the ${(APPEND_SIZE + 1).toLocaleString("en")}-message history (nearly the same work, measured a minute apart) came out at ${twice.map((x) => `${fmt(x.a)} and ${fmt(x.b)} ms (${x.t})`).join(", ")}, up to ${(100 * Math.max(...twice.map((x) => x.spread))).toFixed(0)} % apart, so a verdict within that margin of its limit can flip between runs.`);
md.push("");
md.push(
  Math.max(load0[0], load1[0]) > 1.2
    ? `The machine was shared (load average ${load0[0].toFixed(1)} at the start, ${load1[0].toFixed(1)} at the end, on ${os.cpus().length} cores): p95s and the 10,000-message cells (3–5 runs) are noisy, medians less so.`
    : `Load average ${load0[0].toFixed(1)} at the start, ${load1[0].toFixed(1)} at the end, on ${os.cpus().length} cores. The 10,000-message cells have 3–5 runs each; their p95 is their slowest run.`,
);
md.push("");

const text = md.join("\n");
writeFileSync(OUT, text.endsWith("\n") ? text : text + "\n");
writeFileSync(join(HERE, "results.json"), JSON.stringify({ commit, dirty: Boolean(dirty), node: process.version, load0, load1, wasm: wasmInfo, ...results }, null, 1) + "\n");
log(`\nwrote ${OUT} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
