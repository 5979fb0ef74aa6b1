// Writes src/providers/request_fields.rs: the top-level request fields of each API and the JSON
// type of each, read from the request types of the pinned official SDKs
// (tests/js/mock-sdk/package-lock.json) with the TypeScript compiler. The strict validators
// check every merged field (`extra`, `providerOptions`) against these lists, so a field the SDK
// does not know is reported, and scripts/test-js.sh regenerates the file and fails when it
// differs: bumping an SDK shows the month's new fields.
//
//   node gen-request-fields.mjs SDK_NODE_MODULES TYPESCRIPT_MODULE OUT.rs
import { createRequire } from "node:module";
import { writeFileSync, mkdtempSync, rmSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";

const [modules, typescriptPath, out] = process.argv.slice(2);
const ts = createRequire(import.meta.url)(typescriptPath);
const version = (name) => JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version;

// One alias per API: the params types whose members are body fields.
const SOURCE = `
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type * as genai from "@google/genai";
import type { ChatCompletionRequest } from "@mistralai/mistralai/models/components";
export type AnthropicParams = Anthropic.MessageCreateParamsNonStreaming;
export type AnthropicBetaParams = Anthropic.Beta.Messages.MessageCreateParamsNonStreaming;
export type ChatParams = OpenAI.Chat.ChatCompletionCreateParamsNonStreaming;
export type ResponsesParams = OpenAI.Responses.ResponseCreateParamsNonStreaming;
export type GeminiConfig = genai.GenerateContentConfig;
export type GeminiGeneration = genai.GenerationConfig;
export type MistralParams = ChatCompletionRequest;
`;
const dir = mkdtempSync(join(tmpdir(), "turnwire-fields-"));
const file = join(dir, "fields.ts");
writeFileSync(file, SOURCE);
writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
symlinkSync(modules, join(dir, "node_modules"), "dir");
const program = ts.createProgram([file], {
  strict: true, noEmit: true, skipLibCheck: true, target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext,
  typeRoots: [], types: [],
});
const diagnostics = ts.getPreEmitDiagnostics(program);
if (diagnostics.length) {
  throw new Error(ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (f) => f, getCurrentDirectory: () => dir, getNewLine: () => "\n" }));
}
const checker = program.getTypeChecker();
const source = program.getSourceFile(file);
const alias = (name) => {
  const symbol = checker.getSymbolAtLocation(source).exports.get(name);
  return checker.getDeclaredTypeOfSymbol(symbol);
};

/** The JSON kinds a TypeScript type admits, as turnwire's `Json` flags. */
function kinds(type) {
  const out = new Set();
  const parts = type.isUnion() ? type.types : [type];
  for (const t of parts) {
    const f = t.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) out.add("ANY");
    // `string & {}`: the SDKs' open string enums (model names).
    else if (t.isIntersection() && t.types.some((x) => x.flags & ts.TypeFlags.StringLike)) out.add("STRING");
    else if (f & ts.TypeFlags.Null) out.add("NULL");
    else if (f & ts.TypeFlags.Undefined) continue;
    else if (f & (ts.TypeFlags.NumberLike)) out.add("NUMBER");
    else if (f & (ts.TypeFlags.StringLike)) out.add("STRING");
    else if (f & (ts.TypeFlags.BooleanLike)) out.add("BOOL");
    else if (checker.isArrayType(t) || checker.isTupleType(t)) out.add("ARRAY");
    else if (f & ts.TypeFlags.Object) out.add("OBJECT");
    else out.add("ANY");
  }
  return out.has("ANY") ? ["ANY"] : [...out].sort();
}
/** Each property of `type` (of every member when it is a union), with its kinds. Header params
 * (the SDK's doc comment starts `Header param:`) are not body fields. */
function fields(type, rename = (n) => n) {
  const found = new Map();
  for (const member of type.isUnion() ? type.types : [type]) {
    for (const p of checker.getPropertiesOfType(member)) {
      const doc = ts.displayPartsToString(p.getDocumentationComment(checker));
      if (doc.startsWith("Header param")) continue;
      const t = checker.getTypeOfSymbol(p);
      const name = rename(p.getName());
      const k = new Set([...(found.get(name) ?? []), ...kinds(t)]);
      found.set(name, k.has("ANY") ? new Set(["ANY"]) : k);
    }
  }
  return [...found].map(([n, k]) => [n, [...k].sort()]).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}
const union = (...lists) => {
  const m = new Map();
  for (const list of lists) for (const [n, k] of list) m.set(n, [...new Set([...(m.get(n) ?? []), ...k])].sort());
  return [...m].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
};
const snake = (n) => n.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

// Gemini's REST body: `contents` plus the members the SDK's GenerateContentConfig lifts to the
// top level (its converter, `generateContentConfigToMldev`), the rest of the config being
// `generationConfig`.
const GEMINI_TOP = ["systemInstruction", "tools", "toolConfig", "safetySettings", "cachedContent", "labels"];
const geminiConfig = fields(alias("GeminiConfig"));
const gemini = [
  ["contents", ["ARRAY"]],
  ["generationConfig", ["OBJECT"]],
  ["model", ["STRING"]],
  ...geminiConfig.filter(([n]) => GEMINI_TOP.includes(n)),
].sort(([a], [b]) => (a < b ? -1 : 1));

const tables = {
  ANTHROPIC: union(fields(alias("AnthropicParams")), fields(alias("AnthropicBetaParams"))),
  OPENAI_CHAT: fields(alias("ChatParams")),
  OPENAI_RESPONSES: fields(alias("ResponsesParams")),
  GEMINI: gemini,
  GEMINI_GENERATION: fields(alias("GeminiGeneration")),
  MISTRAL: fields(alias("MistralParams"), snake),
};
rmSync(dir, { recursive: true, force: true });

const rust = [
  "//! The top-level request fields of each API and the JSON types each takes, read from the",
  "//! request types of the pinned official SDKs. Written by",
  "//! `tests/js/sdk-types/gen-request-fields.mjs`: do not edit; scripts/test-js.sh regenerates it",
  "//! and fails when it differs (an SDK bump shows the new fields).",
  "//!",
  `//! Sources: @anthropic-ai/sdk ${version("@anthropic-ai/sdk")} (\`MessageCreateParams\` and the beta`,
  "//! `MessageCreateParams`, header params left out), openai " + version("openai") + " (`ChatCompletionCreateParams`,",
  "//! `ResponseCreateParams`), @google/genai " + version("@google/genai") + " (`GenerateContentConfig`, `GenerationConfig`),",
  "//! @mistralai/mistralai " + version("@mistralai/mistralai") + " (`ChatCompletionRequest`, in the wire's snake_case).",
  "",
  "use super::request_field_types::{Field, Json};",
  "",
];
for (const [name, list] of Object.entries(tables)) {
  rust.push(`/// ${name.toLowerCase().replace(/_/g, " ")}: ${list.length} fields.`);
  rust.push("#[rustfmt::skip]", `pub(crate) const ${name}: &[Field] = &[`);
  for (const [n, k] of list) rust.push(`    Field::new(${JSON.stringify(n)}, Json::${k[0]}${k.slice(1).map((x) => `.or(Json::${x})`).join("")}),`);
  rust.push("];", "");
}
writeFileSync(out, rust.join("\n"));
console.log(`${out}: ${Object.entries(tables).map(([n, l]) => `${n} ${l.length}`).join(", ")}`);
