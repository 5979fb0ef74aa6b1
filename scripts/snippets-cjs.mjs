// Gives the nodejs glue (dist/node-glue.cjs) CommonJS copies of the wasm-bindgen snippets it
// require()s: each snippet (js/wasm-imports/*.js) is an ES module whose only exports are
// `export function name(…)`; its twin `*.cjs` declares the same functions and lists them in
// module.exports. The glue's require() paths are rewritten to the twins, and each twin is
// loaded once here to prove it works.
//
//   node scripts/snippets-cjs.mjs <node-glue.cjs> <dist dir>
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

const [glue, dist] = process.argv.slice(2);
let text = readFileSync(glue, "utf8");
const pattern = /require\(String\.raw`(\.\/snippets\/[^`]+)\.js`\)/g;
const found = [...text.matchAll(pattern)];
if (found.length === 0) {
  console.error("snippets-cjs: the nodejs glue requires no snippet (expected js/wasm-imports/*.js)");
  process.exit(1);
}
const require = createRequire(resolve(glue));
for (const [, path] of found) {
  const source = readFileSync(join(dist, path + ".js"), "utf8");
  const names = [...source.matchAll(/^export function (\w+)/gm)].map((m) => m[1]);
  if (names.length === 0 || /^export (?!function )/m.test(source) || /^import /m.test(source)) {
    console.error(`snippets-cjs: ${path}.js must only export functions (\`export function name\`) and import nothing`);
    process.exit(1);
  }
  const cjs = `"use strict";\n${source.replace(/^export function /gm, "function ")}\nmodule.exports = { ${names.join(", ")} };\n`;
  writeFileSync(join(dist, path + ".cjs"), cjs);
  const loaded = require(join(resolve(dist), path + ".cjs"));
  for (const n of names) {
    if (typeof loaded[n] !== "function") {
      console.error(`snippets-cjs: ${path}.cjs does not export ${n}`);
      process.exit(1);
    }
  }
}
text = text.replace(pattern, (_, path) => `require("${path}.cjs")`);
writeFileSync(glue, text);
console.log(`snippets-cjs: ${found.length} snippet(s) for the require() glue`);
