// Issue 31, "keeping current": every golden body, as a literal, against the request types of the
// pinned official SDKs made deep-partial (`Closed<T>`): a member the SDK does not know, at any
// depth, or of a type it does not take, fails tsc's excess-property and assignability checks,
// while a member the SDK requires but turnwire leaves out (a reasoning item's `id`, ORS-05) does
// not. gen-golden-bodies.mjs writes golden-sdk-bodies.ts against these types.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type * as genai from "@google/genai";
import type { ConverseStreamCommandInput } from "@aws-sdk/client-bedrock-runtime";

/** `T` with every member optional, all the way down; a string enum as its values. */
export type Closed<T> = T extends string
  ? `${T}`
  : T extends readonly (infer U)[]
    ? Closed<U>[]
    : T extends object
      ? { [K in keyof T]?: Closed<T[K]> }
      : T;

/** The SDK's params without its header params (`betas`, `user_profile_id`), member by member. */
type BodyParams<T> = T extends unknown ? Omit<T, "betas" | "user_profile_id"> : never;

/** Messages: the GA and beta params (turnwire renders beta fields with their header), plus the
 * sampling fields of API version 2023-06-01, which turnwire sends and the SDK's 2026-10-21
 * types dropped. */
export type AnthropicSdkBody = Closed<BodyParams<Anthropic.MessageCreateParams | Anthropic.Beta.Messages.MessageCreateParams>> & {
  temperature?: number;
  top_k?: number;
  top_p?: number;
};
export type ChatSdkBody = Closed<OpenAI.Chat.ChatCompletionCreateParams>;
export type ResponsesSdkBody = Closed<OpenAI.Responses.ResponseCreateParams>;
/** generateContent's REST body: `contents` and the members @google/genai's converter lifts out
 * of `GenerateContentConfig`, the rest being `generationConfig`. */
export type GeminiSdkBody = Closed<{
  contents: genai.Content[];
  systemInstruction?: genai.Content;
  tools?: genai.Tool[];
  toolConfig?: genai.ToolConfig;
  safetySettings?: genai.SafetySetting[];
  cachedContent?: string;
  labels?: Record<string, string>;
  generationConfig?: genai.GenerationConfig;
}>;

/** `T` with its byte members (`Uint8Array`) as the base64 text JSON carries them. */
export type JsonBytes<T> = T extends Uint8Array
  ? string
  : T extends string
    ? T
    : T extends readonly (infer U)[]
      ? JsonBytes<U>[]
      : T extends object
        ? { [K in keyof T]: JsonBytes<T[K]> }
        : T;

/** Bedrock Converse: the AWS SDK's ConverseStream input, which is the command's input, not the
 * HTTP body. The SDK puts `modelId` in the URL (`/model/{modelId}/converse-stream`), as
 * turnwire leaves it to the URL, and holds image, document and redacted-reasoning bytes as
 * `Uint8Array`, which it writes into the JSON body as base64 text, as turnwire renders them. So
 * the body is the input without `modelId` and with its bytes as strings. */
export type ConverseSdkBody = Closed<JsonBytes<Omit<ConverseStreamCommandInput, "modelId">>>;
