// A/B comparison of two builds of the package in one Node process, on agent-shaped sessions
// (../shared/bench/agent-transcript.mjs). Use it to measure a change before committing it:
//
//   cp -r pkg /tmp/pkg-before        # before the change (make package built it)
//   make package                     # after the change
//   node bench/compare.mjs /tmp/pkg-before pkg [seed]
//
// For each size, provider and input kind it alternates the two builds round by round (so drift
// of the machine hits both alike) and prints the median milliseconds of renderBody and the
// .wasm sizes (raw and gzip -9). Each input gets untimed warm-up rounds first. Run it both ways
// round (before/after, then after/before): a build can measure a few per cent slower at 2,000
// messages only because of the order the two were loaded in. Not part of make test or make bench.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";

const [dirA, dirB, seedArg] = process.argv.slice(2);
if (!dirA || !dirB) {
  console.error("usage: node bench/compare.mjs <package dir before> <package dir after> [seed]");
  process.exit(2);
}
const seed = Number(seedArg ?? 11);
const shared = new URL("../../shared/bench/", import.meta.url);
const { generateTranscript } = await import(new URL("agent-transcript.mjs", shared));
const { toCanonical } = await import(new URL("to-canonical.mjs", shared));

const load = async (dir) => import(pathToFileURL(resolve(dir, "dist/node.mjs")).href);
const builds = [
  { name: "before", tw: await load(dirA), dir: dirA },
  { name: "after", tw: await load(dirB), dir: dirB },
];

for (const b of builds) {
  const wasm = readFileSync(resolve(b.dir, "dist/turnwire_bg.wasm"));
  console.log(`${b.name}: ${b.dir} .wasm ${wasm.length} bytes, gzip -9 ${gzipSync(wasm, { level: 9 }).length}`);
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const PROVIDERS = [
  ["anthropic", "claude-sonnet-4-5"],
  ["openai-chat", "gpt-5.2"],
  ["gemini", "gemini-3-pro-preview"],
];

/** Untimed rounds per build before the timed ones. */
const WARMUP = 3;

for (const [n, rounds] of [[2000, 15], [20, 400]]) {
  const t = generateTranscript(n, seed);
  // Generated text is cut at arbitrary UTF-16 positions; make it well-formed so both builds take
  // the clean path (the repairing path is measured by its own tests, not here).
  const history = JSON.parse(JSON.stringify(t.messages.map(toCanonical)), (_k, v) =>
    typeof v === "string" ? v.toWellFormed() : v,
  );
  const text = JSON.stringify(history);
  for (const [provider, model] of PROVIDERS) {
    const options = { provider, model, system: t.system, tools: t.tools };
    for (const [kind, input] of [["text", text], ["objects", history]]) {
      const times = { before: [], after: [] };
      // Untimed warm-up rounds: each build's first renders grow its memory and tier up its
      // code, which otherwise lands in the timed rounds of one build more than the other.
      for (let r = 0; r < WARMUP; r++) for (const b of builds) b.tw.renderBody(input, options);
      for (let r = 0; r < rounds; r++) {
        for (const b of r % 2 ? [...builds].reverse() : builds) {
          const a = performance.now();
          b.tw.renderBody(input, options);
          times[b.name].push(performance.now() - a);
        }
      }
      const [x, y] = [median(times.before), median(times.after)];
      const change = ((y / x - 1) * 100).toFixed(1);
      console.log(`${n} msgs ${provider} from ${kind}: ${x.toFixed(3)} -> ${y.toFixed(3)} ms (${change}%)`);
    }
  }
}
