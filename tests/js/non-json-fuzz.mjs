// Property test of REQ-915-038 through the JS API (issue 10, points 1, 2 and 7): random tool
// arguments, results and metadata made of every kind of value JSON cannot carry — circular
// references, BigInt, functions, symbols, NaN/±Infinity, Map, Set, typed arrays, RegExp, Error,
// Promise, getters that throw, toJSON, Date, undefined, -0 — and strings cut mid-emoji. For each
// generated history:
// - nothing throws, for each of the ten providers, and every body passes validateRequest;
// - the arguments OpenAI Chat receives equal what the README's table says they become, computed
//   here by an independent model of that table (`expect` below);
// - every converted value is a `non_json_value_replaced` diagnostic at its JSON path, every cut
//   string a `lone_surrogate_replaced` one, and nothing else is reported as either.
// Seeded, so each runtime renders the same histories. The suite runs a few hundred cases; the
// release fuzz (make fuzz) runs many more in Node.

import { MODELS } from "./models.mjs";
import { rng as prng } from "./stream-suite.mjs";

// The two wires whose JS transport comes with issue 32 render and validate already: they are
// fuzzed with their reference models whether or not MODELS lists them yet.
const PROVIDERS = Object.entries({
  ...MODELS,
  "bedrock-converse": "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
  ollama: "qwen3:8b",
});

const CUT = "\uD83D"; // half an emoji, as String.prototype.slice leaves it

/** A random value; `ancestors` are the objects above it (targets for a circular reference). */
function value(rand, depth, ancestors) {
  const pick = (xs) => xs[Math.floor(rand() * xs.length)];
  const leaf = () =>
    pick([
      () => Math.floor(rand() * 1000) - 500,
      () => rand() * 10,
      () => -0,
      () => pick([NaN, Infinity, -Infinity]),
      () => `s${Math.floor(rand() * 100)}`,
      () => `cut ${Math.floor(rand() * 100)} ${CUT}`,
      () => rand() < 0.5,
      () => null,
      () => undefined,
      () => BigInt(Math.floor(rand() * 1000)),
      () => 2n ** 64n + BigInt(Math.floor(rand() * 1000)),
      () => function tool() {},
      () => Symbol("s"),
      () => new Date(Date.UTC(2026, 10, Math.floor(rand() * 28) + 1)),
      () => new Map([["a", 1], [2, "b"]]),
      () => new Set(["x", 3]),
      () => new Uint8Array([1, 2, 255]),
      () => new Float32Array([0.5, 2]),
      () => /a+b/gi,
      () => new RangeError("out"),
      () => ({ toJSON: () => ({ id: 7 }) }),
    ])();
  if (depth >= 3 || rand() < 0.45) return leaf();
  if (ancestors.length && rand() < 0.08) return pick(ancestors);
  const n = Math.floor(rand() * 4);
  if (rand() < 0.35) {
    const a = [];
    for (let i = 0; i < n; i++) a.push(value(rand, depth + 1, [...ancestors, a]));
    return a;
  }
  const o = {};
  for (let i = 0; i < n; i++) o[`k${i}`] = value(rand, depth + 1, [...ancestors, o]);
  if (rand() < 0.1) Object.defineProperty(o, "bad", { enumerable: true, get() { throw new Error("boom"); } });
  if (rand() < 0.05) o.later = Promise.resolve(1);
  return o;
}

/**
 * What the README's table says `v` becomes at `path`: `{json}` (or `{omit: true}`), adding
 * the paths of converted values to `repairs` and of cut strings to `cuts`. `stack` holds
 * [object, path] of the objects being walked.
 */
function expect(v, path, stack, repairs, cuts, inArray) {
  const gone = () => (inArray ? { json: null } : { omit: true });
  if (v === undefined) return gone();
  if (v === null || typeof v === "boolean") return { json: v };
  if (typeof v === "string") {
    if (!v.isWellFormed()) cuts.push(path);
    return { json: v.toWellFormed() };
  }
  if (typeof v === "number") {
    if (Number.isFinite(v)) return { json: v === 0 ? 0 : v };
    repairs.push(path);
    return { json: null };
  }
  if (typeof v === "bigint") {
    repairs.push(path);
    return { json: v >= BigInt(Number.MIN_SAFE_INTEGER) && v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v.toString() };
  }
  if (typeof v === "function" || typeof v === "symbol" || v instanceof Promise) {
    repairs.push(path);
    return gone();
  }
  const back = stack.find(([o]) => o === v);
  if (back) {
    repairs.push(path);
    return { json: `[Circular: ${back[1]}]` };
  }
  if (v instanceof Date) return { json: v.toJSON() };
  if (typeof v.toJSON === "function") return expect(v.toJSON(), path, stack, repairs, cuts, inArray);
  const inner = [...stack, [v, path]];
  if (v instanceof Map) {
    repairs.push(path);
    return { json: Object.fromEntries([...v].map(([k, x]) => [String(k), x])) };
  }
  if (v instanceof Set) {
    repairs.push(path);
    return { json: [...v] };
  }
  if (ArrayBuffer.isView(v)) {
    repairs.push(path);
    return { json: [...v] };
  }
  if (v instanceof RegExp) {
    repairs.push(path);
    return { json: String(v) };
  }
  if (v instanceof Error) {
    repairs.push(path);
    return { json: { name: v.name, message: v.message } };
  }
  if (Array.isArray(v)) {
    return { json: v.map((x, i) => expect(x, `${path}[${i}]`, inner, repairs, cuts, true).json) };
  }
  const out = {};
  for (const k of Object.keys(v)) {
    let x;
    try {
      x = v[k];
    } catch {
      repairs.push(`${path}.${k}`);
      continue;
    }
    const r = expect(x, `${path}.${k}`, inner, repairs, cuts, false);
    if (!r.omit) out[k] = r.json;
  }
  return { json: out };
}

function history(rand) {
  const parameters = {};
  for (let i = 0; i < 1 + Math.floor(rand() * 3); i++) parameters[`p${i}`] = value(rand, 1, [parameters]);
  return [
    { speaker: "human", blocks: [{ type: "text", text: "go" }] },
    { speaker: "ai", metadata: { note: value(rand, 2, []) }, blocks: [{ type: "tool_call", id: "c1", name: "run", parameters }] },
    { speaker: "tool", blocks: [{ type: "tool_response", callId: "c1", toolName: "run", result: value(rand, 1, []) }] },
    { speaker: "human", blocks: [{ type: "text", text: "and?" }] },
  ];
}

function sortedPaths(out, code) {
  return out.diagnostics.filter((d) => d.code === code).map((d) => d.path).sort();
}

/**
 * Runs `cases` generated histories from `seed` through `api`; throws an Error describing the
 * first case that breaks a property. Returns how many renders were checked.
 */
export function fuzzNonJson(api, { cases, seed }) {
  const rand = prng(seed);
  let renders = 0;
  for (let c = 0; c < cases; c++) {
    const h = history(rand);
    const where = `case ${c} (seed ${seed})`;
    const repairs = [];
    const cuts = [];
    const args = expect(h[1].blocks[0].parameters, "$[1].blocks[0].parameters", [], repairs, cuts, false).json;
    for (const [provider, model] of PROVIDERS) {
      let out;
      try {
        out = api.renderForProvider(h, { provider, model });
      } catch (e) {
        throw new Error(`${where}: ${provider} threw ${e?.code ?? ""} ${e?.message ?? e}`);
      }
      renders++;
      const violations = api.validateRequest(provider, out.body, model);
      if (violations.length) throw new Error(`${where}: ${provider} body breaks ${JSON.stringify(violations)}`);
      if (provider !== "openai-chat") continue;
      const call = out.body.messages.find((m) => m.tool_calls).tool_calls[0];
      const sent = JSON.stringify(JSON.parse(call.function.arguments));
      if (sent !== JSON.stringify(args)) throw new Error(`${where}: arguments ${sent}, expected ${JSON.stringify(args)}`);
      const got = sortedPaths(out, "non_json_value_replaced").filter((p) => p.startsWith("$[1].blocks[0].parameters"));
      if (JSON.stringify(got) !== JSON.stringify([...repairs].sort())) {
        throw new Error(`${where}: non_json_value_replaced at ${JSON.stringify(got)}, expected ${JSON.stringify(repairs.sort())}`);
      }
      const cut = sortedPaths(out, "lone_surrogate_replaced").filter((p) => p.startsWith("$[1].blocks[0].parameters"));
      if (JSON.stringify(cut) !== JSON.stringify([...cuts].sort())) {
        throw new Error(`${where}: lone_surrogate_replaced at ${JSON.stringify(cut)}, expected ${JSON.stringify(cuts.sort())}`);
      }
    }
  }
  return renders;
}
