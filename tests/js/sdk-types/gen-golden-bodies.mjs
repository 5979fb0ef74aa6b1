// Writes golden-bodies.ts: every golden body of tests/fixtures (the fields `extra` and
// `providerOptions` added left out) as a constant of its provider's body type, so that tsc's excess-property checks prove the
// body types describe exactly what turnwire renders.
//
// With SDK_OUT.ts it also writes every golden body of the five APIs that have an official SDK
// (Bedrock Converse: the AWS SDK's ConverseStream input), whole (the caller's `extra` and
// `providerOptions` fields included), as a literal of the SDK's request type made deep-partial
// (closed.ts): the closed-field check of issue 31.
//
//   node gen-golden-bodies.mjs FIXTURES_DIR OUT.ts [SDK_OUT.ts]
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const [fixtures, out, sdkOut] = process.argv.slice(2);
const SDK_TYPES = {
  anthropic: "AnthropicSdkBody", "openai-chat": "ChatSdkBody", "openai-responses": "ResponsesSdkBody", gemini: "GeminiSdkBody",
  "bedrock-converse": "ConverseSdkBody",
};
const sdkLines = [
  "// Written by tests/js/sdk-types/gen-golden-bodies.mjs from tests/fixtures: do not edit.",
  `import type { ${Object.values(SDK_TYPES).sort().join(", ")} } from "./closed.js";`,
];
const TYPES = {
  anthropic: "AnthropicBody", "openai-chat": "OpenAIChatBody", "openai-responses": "ResponsesBody", gemini: "GeminiBody",
  mistral: "ChatBody", kimi: "ChatBody", deepseek: "ChatBody", "openai-compatible": "ChatBody",
  "bedrock-converse": "BedrockConverseBody", ollama: "OllamaBody",
};
/** Takes out of `body` what the merge patch `patch` (providerOptions) put in: the caller's
 * fields are not in the body types. An object the patch alone made is removed, and so is one
 * whose `type` the patch chose (the caller's variant, which the render may have added to: a
 * `thinking` the caller switched on gets `block_binding`, ANT-52). */
function unpatch(body, patch) {
  for (const [key, value] of Object.entries(patch)) {
    const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
    if (isObject(value) && "type" in value) {
      delete body[key];
    } else if (isObject(value) && isObject(body[key])) {
      unpatch(body[key], value);
      if (Object.keys(body[key]).length === 0) delete body[key];
    } else {
      delete body[key];
    }
  }
}
const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : {});
/** Hosts that serve an SDK's wire with fields of their own (OpenRouter's `reasoning_details`,
 * ORT-02): a body rendered for them is not the SDK's API's body, so it is left out of the SDK
 * check (turnwire's own body types still describe it). */
const OTHER_HOST = /^https?:\/\/([^/]*\.)?openrouter\.ai(\/|$)/i;
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
    const elsewhere = (options.host !== undefined && !["anthropic", "openai", "google", "bedrock"].includes(options.host)) || OTHER_HOST.test(options.endpoint ?? "");
    if (SDK_TYPES[provider] && !elsewhere) {
      sdkLines.push(`export const s${sdkLines.length}: ${SDK_TYPES[provider]} = ${JSON.stringify(golden.body)}; // ${dir} ${provider}`);
    }
    const body = { ...golden.body };
    for (const key of Object.keys(options.extra ?? {})) delete body[key];
    unpatch(body, options.providerOptions?.[provider] ?? {});
    lines.push(`export const b${n++}: ${type} = ${JSON.stringify(body)}; // ${dir} ${provider}`);
  }
}
if (n < 400) throw new Error(`only ${n} golden bodies found in ${fixtures}`);
// Every provider's goldens are typed: a provider with no golden here is a provider left out.
for (const provider of Object.keys(TYPES)) {
  if (!lines.some((l) => l.endsWith(` ${provider}`))) throw new Error(`no ${provider} golden body typed`);
}
writeFileSync(out, lines.join("\n") + "\n");
console.log(`golden-bodies.ts: ${n} golden bodies`);
if (sdkOut) {
  writeFileSync(sdkOut, sdkLines.join("\n") + "\n");
  console.log(`golden-sdk-bodies.ts: ${sdkLines.length - 2} golden bodies as the official SDKs' request types`);
}
