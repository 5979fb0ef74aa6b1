// Issue 31, "keeping current": every golden body, as a literal, against the request types of the
// pinned official SDKs made deep-partial (`Closed<T>`): a member the SDK does not know, at any
// depth, or of a type it does not take, fails tsc's excess-property and assignability checks,
// while a member the SDK requires but turnwire leaves out (a reasoning item's `id`, ORS-05) does
// not. gen-golden-bodies.mjs writes golden-sdk-bodies.ts against these types.
import type Anthropic from "@anthropic-ai/sdk";
import type OpenAI from "openai";
import type * as genai from "@google/genai";

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
