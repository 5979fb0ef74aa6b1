// First and second render of a big history (issue 29, point 8), against the package in pkg/
// (make package builds it). Not part of make test: speed is a benchmark's business.
//
//   node --expose-gc bench/first-render.mjs            every case, each in a fresh Node process
//   node --expose-gc bench/first-render.mjs <case> <how>  one of them, in this process
//
// Cases: `chat-160k`, 160,000 short messages (a long chat); `agent-55mb`, an agent-shaped
// session of about 55 MB (bench/lib/session.mjs: tool loops, signed thinking, file-sized
// results). How: `renderBody` (the free function, twice) or `conversation` (a Conversation
// loaded from the history and rendered, then a second one). The first call of a process grows
// the wasm memory from nothing; the second reuses it, so the gap between them is what growing
// the memory costs. Each case runs BENCH_RUNS times (default 3, each in a fresh process); the
// table gives the medians. BENCH_PKG names another built package folder (to compare builds);
// BENCH_FIRST_OUT writes the table to a file too.
import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const PKG = join(process.env.BENCH_PKG ?? join(HERE, "..", "pkg"), "dist", "node.mjs");
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const OPTIONS = { provider: "anthropic", model: "claude-sonnet-4-5" };
const CASES = ["chat-160k", "agent-55mb"];
const HOWS = ["renderBody", "conversation"];

/** A chat of `n` short messages, human and ai in turn (seeded, so every run renders the same). */
async function chat(n) {
  const { rng } = await import("./lib/session.mjs");
  const r = rng(29);
  const words = ["the", "test", "fails", "on", "main", "again", "please", "look", "at", "line", "42", "of", "render", "rs", "and", "fix", "it", "thanks", "done", "now"];
  const text = () => Array.from({ length: r.int(8, 40) }, () => r.pick(words)).join(" ");
  const out = [];
  for (let i = 0; i < n; i++) out.push({ speaker: i % 2 === 0 ? "human" : "ai", blocks: [{ type: "text", text: text() }] });
  return { history: out, options: OPTIONS };
}

/** An agent-shaped session of about `bytes` of JSON. */
async function agent(bytes) {
  const { generateEvents, toTurnwire, SYSTEM_PROMPT, TOOLS } = await import("./lib/session.mjs");
  const probe = JSON.stringify(toTurnwire(generateEvents(2000, 4))).length;
  const n = Math.round((2000 * bytes) / probe / 2) * 2;
  return { history: toTurnwire(generateEvents(n, 4)), options: { ...OPTIONS, system: SYSTEM_PROMPT, tools: TOOLS } };
}

/** One case, in this process: prints one JSON line. */
async function runOne(name, how) {
  const { history, options } = name === "chat-160k" ? await chat(160_000) : await agent(55e6);
  const tw = await import(PKG);
  const jsonBytes = JSON.stringify(history).length;
  const timed = (f) => {
    const a = performance.now();
    const out = f();
    return [performance.now() - a, out];
  };
  let first;
  let second;
  let bodyBytes;
  if (how === "renderBody") {
    [first, bodyBytes] = timed(() => tw.renderBody(history, options).length);
    [second] = timed(() => tw.renderBody(history, options).length);
  } else {
    const once = () => {
      const c = new tw.Conversation(history);
      const n = c.render(options).length;
      c.free();
      return n;
    };
    [first, bodyBytes] = timed(once);
    [second] = timed(once);
  }
  const out = { case: name, how, messages: history.length, jsonMB: +(jsonBytes / 1e6).toFixed(1), bodyMB: +(bodyBytes / 1e6).toFixed(1), firstMs: Math.round(first), secondMs: Math.round(second), wasmMB: +(tw.wasmMemoryBytes() / 1e6).toFixed(0) };
  console.log(JSON.stringify(out));
}

if (process.argv[2] !== undefined) {
  await runOne(process.argv[2], process.argv[3] ?? "renderBody");
} else {
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const rows = [];
  for (const name of CASES) {
    for (const how of HOWS) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) {
        const r = spawnSync(process.execPath, ["--max-old-space-size=8192", fileURLToPath(import.meta.url), name, how], { encoding: "utf8", maxBuffer: 1 << 20 });
        if (r.status !== 0) throw new Error(`${name} ${how} failed: ${r.stderr}`);
        const line = JSON.parse(r.stdout.trim().split("\n").pop());
        console.log(JSON.stringify(line));
        runs.push(line);
      }
      rows.push({ ...runs[0], firstMs: median(runs.map((r) => r.firstMs)), secondMs: median(runs.map((r) => r.secondMs)) });
    }
  }
  const table = [
    `First and second render, medians of ${RUNS} fresh processes (Node ${process.version}; ${new Date().toISOString().slice(0, 10)})`,
    "",
    "| case | messages | JSON MB | call | first ms | second ms | first / second | wasm MB |",
    "|---|---|---|---|---|---|---|---|",
    ...rows.map((r) => `| ${r.case} | ${r.messages} | ${r.jsonMB} | ${r.how === "renderBody" ? "renderBody" : "new Conversation + render"} | ${r.firstMs} | ${r.secondMs} | ${(r.firstMs / r.secondMs).toFixed(1)}× | ${r.wasmMB} |`),
  ].join("\n");
  console.log("\n" + table);
  if (process.env.BENCH_FIRST_OUT) writeFileSync(process.env.BENCH_FIRST_OUT, table + "\n");
}
