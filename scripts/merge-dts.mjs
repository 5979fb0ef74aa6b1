// Writes the package's one declaration file (dist/index.d.ts, and the same text as index.d.cts):
// the wasm-bindgen glue's declarations, then those tsc wrote for the public JS modules (js/*.mts),
// with their relative imports removed, since every name they import is declared in the same file.
// scripts/build-package.sh runs it:
//
//   node scripts/merge-dts.mjs OUT GLUE.d.ts MODULE.d.mts...
//
// Fails when a module imports from anything but the glue or another listed module (its types
// would be missing from the package), or declares a name twice.
import { readFileSync, writeFileSync } from "node:fs";
import { basename } from "node:path";

const [out, glue, ...modules] = process.argv.slice(2);
if (!out || !glue || modules.length === 0) {
  console.error("usage: node scripts/merge-dts.mjs OUT GLUE.d.ts MODULE.d.mts...");
  process.exit(2);
}

const known = new Set(["./turnwire.js", ...modules.map((m) => `./${basename(m).replace(/\.d\.mts$/, ".mjs")}`)]);
const IMPORT = /^import\s[^;]*?\sfrom\s+"([^"]+)";\n/gm;
const DECLARED = /^export (?:declare )?(?:class|function|const|let|interface|type|enum) (\w+)/gm;

const problems = [];
const seen = new Map();
const declared = (text, where) => {
  for (const m of text.matchAll(DECLARED)) {
    if (seen.has(m[1]) && seen.get(m[1]) !== where) problems.push(`${m[1]} is declared in ${seen.get(m[1])} and ${where}`);
    seen.set(m[1], where);
  }
};

const glueText = readFileSync(glue, "utf8");
declared(glueText, basename(glue));
// The glue's classes declare `[Symbol.dispose]()` (for `using`). `Symbol.dispose` is declared
// by the `esnext.disposable` lib, which a user's tsconfig may not list: declared here too, the
// file compiles with or without it (the two declarations merge).
const DISPOSE = `declare global {
    interface SymbolConstructor {
        /** The method \`using\` calls at the end of its block (ES2026 explicit resource management). */
        readonly dispose: unique symbol;
    }
}
`;
const parts = [glueText.replace(/\n*$/, "\n")];
if (glueText.includes("[Symbol.dispose]")) parts.push(`\n${DISPOSE}`);
parts.push(
  "\n// ---- The JavaScript half of the API (js/*.mts: streamTurn, ProviderError, SseParser, …) ----\n",
);
for (const file of modules) {
  let text = readFileSync(file, "utf8");
  text = text.replace(IMPORT, (line, from) => {
    if (!known.has(from)) problems.push(`${basename(file)} imports from ${from}, which is not part of index.d.ts`);
    return "";
  });
  if (/^import\s/m.test(text)) problems.push(`${basename(file)} has an import this script cannot read`);
  text = text.replace(/^export \{\};\n/gm, "").replace(/^\n+/, "").replace(/\n*$/, "\n");
  declared(text, basename(file));
  parts.push(`\n${text}`);
}
if (problems.length > 0) {
  console.error(`merge-dts: ${problems.join("\nmerge-dts: ")}`);
  process.exit(1);
}
writeFileSync(out, parts.join(""));
