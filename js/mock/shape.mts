// Request checks that are the provider's own rather than history rules (validateRequest covers
// those): the fields a request may carry at all.
//   Gemini     GenerateContentRequest is a protobuf message: an unknown top-level field is a 400
//              (`Invalid JSON payload received. Unknown name "stream": Cannot find field.`).
//   Anthropic  API version 2026-10-21 removed `temperature`, `top_p` and `top_k`: sending one is a
//              400 (the documented rule; the message text is ours, in Anthropic's field style).
import type { JsonObject, Provider } from "./types.mjs";

/** Top-level fields of a GenerateContentRequest (camelCase and the proto's snake_case). */
const GEMINI_FIELDS: ReadonlySet<string> = new Set([
  "contents",
  "tools",
  "toolConfig",
  "tool_config",
  "safetySettings",
  "safety_settings",
  "systemInstruction",
  "system_instruction",
  "generationConfig",
  "generation_config",
  "cachedContent",
  "cached_content",
  "labels",
  "model",
]);

const ANTHROPIC_2026_REMOVED = ["temperature", "top_p", "top_k"] as const;

/** The 400 message for a body `provider` refuses before looking at its history, or null. */
export function shapeError(provider: Provider, body: JsonObject, anthropicVersion: string | undefined): string | null {
  if (provider === "gemini") {
    const unknown = Object.keys(body).find((k) => !GEMINI_FIELDS.has(k));
    return unknown === undefined ? null : `Invalid JSON payload received. Unknown name "${unknown}": Cannot find field.`;
  }
  if (provider === "anthropic" && anthropicVersion === "2026-10-21") {
    const removed = ANTHROPIC_2026_REMOVED.find((k) => k in body);
    return removed === undefined ? null : `${removed}: Extra inputs are not permitted`;
  }
  return null;
}
