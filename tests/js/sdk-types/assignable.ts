// Issue 14, point 2: the body types `renderForProvider` returns are assignable to the official
// SDKs' request parameter types (pinned by tests/js/mock-sdk/package-lock.json): a body turnwire
// renders can be passed to the SDK a project already calls. scripts/test-js.sh type-checks this
// file and golden-bodies.ts (every golden body, written by gen-golden-bodies.mjs, as its
// provider's body type) with tsc --strict.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type * as genai from "@google/genai";
import type { ContentBlock, ConverseStreamCommandInput } from "@aws-sdk/client-bedrock-runtime";
import type { JsonBytes } from "./closed.js";
import {
  renderCountTokens,
  renderForProvider,
  type AnthropicBody,
  type AnthropicContentBlock,
  type AnthropicCountTokensBody,
  type AnthropicMessage,
  type AnthropicTextBlock,
  type BedrockConverseBody,
  type GeminiBody,
  type GeminiCountTokensBody,
  type GeminiPart,
  type OpenAIChatBody,
  type OllamaBody,
  type ProviderBodies,
  type Rendered,
  type ResponsesBody,
  type ResponsesInputTokensBody,
} from "turnwire";

// The whole body is the beta params' (turnwire sends a body with beta blocks with their
// `anthropic-beta` header: the render's `headers`); without the beta-only `compaction` and
// `fallback` blocks, tool changes in system messages (ANT-53) and `thinking.block_binding`
// (ANT-52) it is the GA params', and those parts are the beta SDK's params.
declare const anthropic: AnthropicBody;
export const anthropicBetaParams: Anthropic.Beta.Messages.MessageCreateParamsNonStreaming = anthropic;
type AnthropicBetaBlock = Extract<AnthropicContentBlock, { type: "compaction" } | { type: "fallback" }>;
type AnthropicGaMessage =
  | { role: "user" | "assistant"; content: Exclude<AnthropicContentBlock, AnthropicBetaBlock>[] }
  | { role: "system"; content: AnthropicTextBlock[] };
type WithoutBinding<T> = T extends unknown ? Omit<T, "block_binding"> : never;
type AnthropicGaThinking = WithoutBinding<NonNullable<AnthropicBody["thinking"]>>;
declare const anthropicGa: Omit<AnthropicBody, "messages" | "thinking"> & { messages: AnthropicGaMessage[]; thinking?: AnthropicGaThinking };
export const anthropicParams: Anthropic.MessageCreateParamsNonStreaming = anthropicGa;
type AnthropicSystemContent = Extract<AnthropicMessage, { role: "system" }>["content"][number];
declare const toolChange: Exclude<AnthropicSystemContent, AnthropicTextBlock>;
export const toolChangeBlock: Anthropic.Beta.Messages.BetaRequestToolAdditionBlock | Anthropic.Beta.Messages.BetaRequestToolRemovalBlock = toolChange;
declare const binding: NonNullable<Extract<NonNullable<AnthropicBody["thinking"]>, { type: "adaptive" }>["block_binding"]>;
export const bindingParam: Anthropic.Beta.Messages.BetaThinkingBlockBinding = binding;
declare const compaction: Extract<AnthropicBetaBlock, { type: "compaction" }>;
export const compactionBlock: Anthropic.Beta.Messages.BetaCompactionBlockParam = compaction;
declare const fallback: Extract<AnthropicBetaBlock, { type: "fallback" }>;
export const fallbackBlock: Anthropic.Beta.Messages.BetaFallbackBlockParam = fallback;

declare const chat: OpenAIChatBody;
export const chatParams: OpenAI.Chat.ChatCompletionCreateParamsNonStreaming = chat;

// The one exception: OpenAI's SDK type requires `id` on a reasoning item, and turnwire replays
// reasoning without it (with `store: false` an item id refers to nothing the server kept and is
// refused, ORS-05); the API takes it. The reasoning item is checked without its id, every other
// item and member as it is.
// The tool lists of `additional_tools` and `tool_search_output` items are replayed as the API or
// the client listed them (JSON objects): the items are checked without them.
type ResponsesItem = ResponsesBody["input"][number];
type ResponsesToolsItem = Extract<ResponsesItem, { type: "additional_tools" } | { type: "tool_search_output" }>;
type ResponsesPlainItem = Exclude<ResponsesItem, { type: "reasoning" } | ResponsesToolsItem>;
declare const responses: Omit<ResponsesBody, "input"> & { input: ResponsesPlainItem[] };
export const responsesParams: OpenAI.Responses.ResponseCreateParamsNonStreaming = responses;
declare const reasoning: Extract<ResponsesItem, { type: "reasoning" }>;
export const reasoningItem: Omit<OpenAI.Responses.ResponseReasoningItem, "id"> = reasoning;
declare const additionalTools: Omit<Extract<ResponsesToolsItem, { type: "additional_tools" }>, "tools">;
export const additionalToolsItem: Omit<OpenAI.Responses.ResponseInputItem.AdditionalTools, "tools"> = additionalTools;
declare const toolSearchOutput: Omit<Extract<ResponsesToolsItem, { type: "tool_search_output" }>, "tools">;
export const toolSearchOutputItem: Omit<OpenAI.Responses.ResponseToolSearchOutputItemParam, "tools"> = toolSearchOutput;

// @google/genai's `generateContent` takes {model, contents, config}; the REST body's members
// are its types one by one. Its closed sets are TypeScript string enums, to which no string
// literal is assignable: those members are checked against the enums' values instead.
declare const gemini: GeminiBody;
type Values<E extends string> = `${E}`;
type WithoutEnums<T, K extends keyof NonNullable<T>> = Omit<NonNullable<T>, K> | undefined;
// Server-tool parts (replayed as Gemini sent them) are checked apart: their closed sets are enums
// too, and `toolCall` / `toolResponse` are kept as the API sent them.
type GeminiServerPart = Extract<GeminiPart, { executableCode: unknown } | { codeExecutionResult: unknown } | { toolCall: unknown } | { toolResponse: unknown }>;
declare const geminiOwnParts: { role: "user" | "model"; parts: Exclude<GeminiPart, GeminiServerPart>[] }[];
export const geminiContents: genai.Content[] = geminiOwnParts;
declare const code: Extract<GeminiServerPart, { executableCode: unknown }>;
export const geminiCode: Omit<genai.ExecutableCode, "language"> = code.executableCode;
export const geminiLanguage: Values<genai.Language> = code.executableCode.language;
declare const codeResult: Extract<GeminiServerPart, { codeExecutionResult: unknown }>;
export const geminiCodeResult: Omit<genai.CodeExecutionResult, "outcome"> = codeResult.codeExecutionResult;
export const geminiOutcome: Values<genai.Outcome> = codeResult.codeExecutionResult.outcome;
export const geminiSystem: genai.Content | undefined = gemini.systemInstruction;
export const geminiTools: genai.Tool[] | undefined = gemini.tools;
export const geminiMode: Values<genai.FunctionCallingConfigMode> | undefined = gemini.toolConfig?.functionCallingConfig?.mode;
export const geminiToolConfig: WithoutEnums<genai.FunctionCallingConfig, "mode"> = gemini.toolConfig?.functionCallingConfig;
export const geminiToolConfigAll: Omit<genai.ToolConfig, "functionCallingConfig"> | undefined = gemini.toolConfig;
export const geminiLevel: Values<genai.ThinkingLevel> | undefined = gemini.generationConfig?.thinkingConfig?.thinkingLevel;
export const geminiThinking: WithoutEnums<genai.ThinkingConfig, "thinkingLevel"> = gemini.generationConfig?.thinkingConfig;
export const geminiGeneration: WithoutEnums<genai.GenerationConfig, "thinkingConfig"> = gemini.generationConfig;

// Bedrock Converse: the body is the AWS SDK's ConverseStream input without `modelId` (the URL's)
// and with its bytes as the base64 text the JSON body carries (closed.ts, ConverseSdkBody).
// turnwire types a tool's input and a JSON tool result as `JsonObject` (members `unknown`: they
// are the caller's JSON, made JSON by the render); the SDK's Document type spells JSON values
// out, so those objects are checked as Documents, every other member as it is.
type ConverseDocument = NonNullable<NonNullable<ContentBlock.ToolUseMember["toolUse"]>["input"]>;
type AsDocuments<T> = T extends readonly (infer U)[]
  ? AsDocuments<U>[]
  : T extends object
    ? string extends keyof T
      ? { [key: string]: ConverseDocument }
      : { [K in keyof T]: AsDocuments<T[K]> }
    : T;
declare const converse: AsDocuments<BedrockConverseBody>;
export const converseParams: JsonBytes<Omit<ConverseStreamCommandInput, "modelId">> = converse;
// Ollama has no official JavaScript SDK turnwire pins: its goldens type as OllamaBody
// (golden-bodies.ts). Both wires are in the provider → body map.
export const converseBodies: BedrockConverseBody = {} as ProviderBodies["bedrock-converse"];
export const ollamaBodies: OllamaBody = {} as ProviderBodies["ollama"];

// renderForProvider types the body by the provider it is given.
const history = [{ speaker: "human" as const, blocks: [{ type: "text" as const, text: "hi" }] }];
export const typedAnthropic: Rendered<AnthropicBody> = renderForProvider(history, { provider: "anthropic", model: "claude-sonnet-4-5" });
export const typedChat: OpenAIChatBody = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" }).body;
export const typedGemini: GeminiBody = renderForProvider(history, { provider: "gemini", model: "gemini-3-pro-preview" }).body;
export const sdkReady: Anthropic.Beta.Messages.MessageCreateParamsNonStreaming = renderForProvider(history, { provider: "anthropic", model: "claude-opus-4-7" }).body;

// Token counting (issue 14, point 3): the counting bodies are the SDKs' counting params.
declare const anthropicCount: Omit<AnthropicCountTokensBody, "messages" | "thinking"> & { messages: AnthropicGaMessage[]; thinking?: AnthropicGaThinking };
export const anthropicCountParams: Anthropic.MessageCountTokensParams = anthropicCount;
declare const anthropicBetaCount: AnthropicCountTokensBody;
export const anthropicBetaCountParams: Anthropic.Beta.Messages.MessageCountTokensParams = anthropicBetaCount;
declare const responsesCount: Omit<ResponsesInputTokensBody, "input"> & { input: ResponsesPlainItem[] };
export const responsesCountParams: OpenAI.Responses.InputTokenCountParams = responsesCount;
declare const geminiCount: GeminiCountTokensBody;
// The counted contents are the body's contents, checked above part by part.
export const geminiCountContents: GeminiBody["contents"] = geminiCount.generateContentRequest.contents;
export const typedCount: AnthropicCountTokensBody = renderCountTokens(history, { provider: "anthropic", model: "claude-opus-4-7" }).body;
