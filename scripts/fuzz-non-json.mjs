// The JS half of the release fuzz (make fuzz): tests/js/non-json-fuzz.mjs over many seeded
// histories against the package in pkg/ (make package builds it).
//   node scripts/fuzz-non-json.mjs [cases] [seed]
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const api = await import(pathToFileURL(join(root, "pkg/dist/node.mjs")).href);
const { fuzzNonJson } = await import(pathToFileURL(join(root, "tests/js/non-json-fuzz.mjs")).href);
const cases = Number(process.argv[2] ?? 20000);
const seed = Number(process.argv[3] ?? 20261125);
const started = performance.now();
const renders = fuzzNonJson(api, { cases, seed });
const s = ((performance.now() - started) / 1000).toFixed(1);
console.log(`non-JSON JS values: ${cases} histories × ${renders / cases} providers = ${renders} renders, 0 violations (seed ${seed}, ${s} s)`);
