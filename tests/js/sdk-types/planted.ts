// The closed-field check can fail: each body below carries one member the pinned SDK does not
// know (or of a type it does not take), and tsc must refuse it (`@ts-expect-error` fails the
// build when the line compiles). The `…Ok` bodies are the same shapes, correct, and compile.
import type { AnthropicSdkBody, ChatSdkBody, ConverseSdkBody, GeminiSdkBody, ResponsesSdkBody } from "./closed.js";

export const anthropicBlock: AnthropicSdkBody = {
  model: "m", max_tokens: 1,
  // @ts-expect-error: no `foo` on a text block
  messages: [{ role: "user", content: [{ type: "text", text: "x", foo: 1 }] }],
};
// @ts-expect-error: `betas` is the anthropic-beta header, not a body field
export const anthropicBetas: AnthropicSdkBody = { model: "m", max_tokens: 1, betas: ["x"], messages: [] };
// @ts-expect-error: temperature is a number
export const anthropicType: AnthropicSdkBody = { model: "m", temperature: "hot", messages: [] };
// @ts-expect-error: OpenAI's chat messages have no reasoning_content (Kimi and DeepSeek's do)
export const chat: ChatSdkBody = { model: "m", messages: [{ role: "assistant", content: "x", reasoning_content: "r" }] };
// @ts-expect-error: no `bogus` on a function_call item
export const responses: ResponsesSdkBody = { model: "m", input: [{ type: "function_call", call_id: "c", name: "n", arguments: "{}", bogus: 1 }] };
export const gemini: GeminiSdkBody = {
  // @ts-expect-error: misspelt thoughtSignature
  contents: [{ role: "model", parts: [{ text: "x", thoughtSignatur: "s" }] }],
};
// @ts-expect-error: not a thinking level
export const geminiLevel: GeminiSdkBody = { contents: [], generationConfig: { thinkingConfig: { thinkingLevel: "LOWW" } } };
export const geminiOk: GeminiSdkBody = {
  contents: [{ role: "model", parts: [{ text: "x", thoughtSignature: "s" }] }],
  generationConfig: { thinkingConfig: { thinkingLevel: "LOW" } },
};
export const converseBlock: ConverseSdkBody = {
  // @ts-expect-error: a Converse block has no `foo` member
  messages: [{ role: "user", content: [{ text: "x", foo: 1 }] }],
};
export const converseDeep: ConverseSdkBody = {
  // @ts-expect-error: misspelt toolUseId, deep in a tool result
  messages: [{ role: "user", content: [{ toolResult: { toolUseID: "t", content: [{ text: "x" }] } }] }],
};
// @ts-expect-error: the model goes in the URL, not the body
export const converseModel: ConverseSdkBody = { modelId: "m", messages: [] };
export const converseBytes: ConverseSdkBody = {
  // @ts-expect-error: image bytes are base64 text in JSON
  messages: [{ role: "user", content: [{ image: { format: "png", source: { bytes: [1, 2] } } }] }],
};
// @ts-expect-error: not a cache point type
export const converseCache: ConverseSdkBody = { system: [{ cachePoint: { type: "ephemeral" } }] };
export const converseOk: ConverseSdkBody = {
  messages: [{ role: "user", content: [{ text: "x" }, { image: { format: "png", source: { bytes: "iVBORw0KGgo=" } } }] }],
  system: [{ text: "s" }, { cachePoint: { type: "default", ttl: "1h" } }],
  additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 1024 } },
};
