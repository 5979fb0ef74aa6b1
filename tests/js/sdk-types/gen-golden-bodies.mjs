// Writes golden-bodies.ts: every golden body of tests/fixtures (the fields `extra` and
// `providerOptions` added left out) as a constant of its provider's body type, so that tsc's excess-property checks prove the
// body types describe exactly what turnwire renders.
//
//   node gen-golden-bodies.mjs FIXTURES_DIR OUT.ts
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [fixtures, out] = process.argv.slice(2);
const TYPES = {
  anthropic: "AnthropicBody", "openai-chat": "OpenAIChatBody", "openai-responses": "ResponsesBody", gemini: "GeminiBody",
  mistral: "ChatBody", kimi: "ChatBody", deepseek: "ChatBody", "openai-compatible": "ChatBody",
};
/** Takes out of `body` what the merge patch `patch` (providerOptions) put in: the caller's
 * fields are not in the body types. An object the patch alone made is removed. */
function unpatch(body, patch) {
  for (const [key, value] of Object.entries(patch)) {
    const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (isObject(value) && isObject(body[key])) {
      unpatch(body[key], value);
      if (Object.keys(body[key]).length === 0) delete body[key];
    } else {
      delete body[key];
    }
  }
}
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {});
const lines = [
  "// Written by tests/js/sdk-types/gen-golden-bodies.mjs from tests/fixtures: do not edit.",
  `import type { ${[...new Set(Object.values(TYPES))].sort().join(", ")} } from "turnwire";`,
];
let n = 0;
for (const dir of readdirSync(fixtures).sort()) {
  for (const [provider, type] of Object.entries(TYPES)) {
    const golden = read(join(fixtures, dir, `${provider}.json`));
    if (!golden.body) continue;
    const options = { ...read(join(fixtures, dir, "options.json")), ...read(join(fixtures, dir, `options.${provider}.json`)) };
    const body = { ...golden.body };
    for (const key of Object.keys(options.extra ?? {})) delete body[key];
    unpatch(body, options.providerOptions?.[provider] ?? {});
    lines.push(`export const b${n++}: ${type} = ${JSON.stringify(body)}; // ${dir} ${provider}`);
  }
}
if (n < 400) throw new Error(`only ${n} golden bodies found in ${fixtures}`);
writeFileSync(out, lines.join("\n") + "\n");
console.log(`golden-bodies.ts: ${n} golden bodies`);
