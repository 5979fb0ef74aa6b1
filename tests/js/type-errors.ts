// Wrong inputs must not compile. tsc checks this file with the consumer: each line after the
// marker carries `@ts-expect-error`, which itself fails when the line below it compiles, and
// scripts/test-js.sh checks that no line below the marker lacks one.
import {
  Conversation,
  DEFAULT_BASE_URLS,
  isProviderError,
  isTurnwireError,
  normalize,
  ProviderError,
  projectToolId,
  providerRequest,
  renderBody,
  renderForProvider,
  SseParser,
  streamTurn,
  validateRequest,
  type RenderOptions,
  type RouterEvent,
  type TurnFetch,
} from "turnwire";

const ok: RenderOptions = { provider: "anthropic", model: "claude-sonnet-4-5" };
const conversation = new Conversation();
const turn = { provider: "anthropic", model: "claude-sonnet-4-5" } as const;

// ---- every line below must fail to compile ----
// @ts-expect-error: unknown provider name
renderBody([], { provider: "bard", model: "m" });
// @ts-expect-error: the model is required
renderBody([], { provider: "anthropic" });
// @ts-expect-error: maxTokens is a number
renderBody([], { ...ok, maxTokens: "4096" });
// @ts-expect-error: misspelt option (excess property)
renderBody([], { provider: "anthropic", model: "m", maxToken: 4096 });
// @ts-expect-error: orphanResults is a closed set
renderBody([], { ...ok, orphanResults: "keep" });
// @ts-expect-error: thinking needs `enabled`
renderBody([], { ...ok, thinking: { budgetTokens: 2048 } });
// @ts-expect-error: speaker is a closed set
renderBody([{ speaker: "user", blocks: [] }], ok);
// @ts-expect-error: blocks are required
renderBody([{ speaker: "human" }], ok);
// @ts-expect-error: a text block's text is a string
renderBody([{ speaker: "human", blocks: [{ type: "text", text: 5 }] }], ok);
// @ts-expect-error: a tool call needs an id
renderBody([{ speaker: "ai", blocks: [{ type: "tool_call", name: "grep" }] }], ok);
// @ts-expect-error: a tool response needs the call id
renderBody([{ speaker: "tool", blocks: [{ type: "tool_response", result: "x" }] }], ok);
// @ts-expect-error: media encoding is base64 or url
renderBody([{ speaker: "human", blocks: [{ type: "media", mimeType: "image/png", data: "x", encoding: "hex" }] }], ok);
// @ts-expect-error: a transcript is not a number
renderBody(42, ok);
// @ts-expect-error: options are required
normalize([]);
// @ts-expect-error: renderBody returns bytes, not text
export const text: string = renderBody([], ok);
// @ts-expect-error: the body is an object, not text
export const body: string = renderForProvider([], ok).body;
// @ts-expect-error: validateRequest takes a provider name
validateRequest("bard", {});
// @ts-expect-error: a body is not a number
validateRequest("anthropic", 42);
// @ts-expect-error: id formats are a closed set
projectToolId("gemini", "call_1");
// @ts-expect-error: append takes a message object (appendJson takes text)
new Conversation().append('{"speaker":"human","blocks":[]}');
// @ts-expect-error: render returns bytes
export const rendered: string = new Conversation().render(ok);
// @ts-expect-error: error codes are a closed set
export const isBoom = (e: unknown): boolean => isTurnwireError(e) && e.code === "boom";
// @ts-expect-error: streamTurn needs a conversation or a transcript
streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5" });
// @ts-expect-error: not both a conversation and a transcript
streamTurn({ ...turn, conversation, transcript: [] });
// @ts-expect-error: unknown provider
streamTurn({ provider: "bard", model: "m", conversation });
// @ts-expect-error: provider and model are the turn's, not the render's
streamTurn({ ...turn, conversation, render: { provider: "gemini" } });
// @ts-expect-error: a transcript is not a number
streamTurn({ ...turn, transcript: 42 });
// @ts-expect-error: a signal is not a string
streamTurn({ ...turn, conversation, signal: "abort" });
// @ts-expect-error: fetch must resolve with a response
export const badFetch: TurnFetch = async () => "data: {}";
// @ts-expect-error: the result is a TurnResult, not text
export const notText: Promise<string> = streamTurn({ ...turn, conversation }).result;
// @ts-expect-error: ProviderError kinds are a closed set
export const isTimeout = (e: unknown): boolean => isProviderError(e) && e.kind === "stall";
// @ts-expect-error: a status is a number
new ProviderError({ kind: "http", provider: "anthropic", status: "500", errorType: "api_error", message: "x", retryable: true });
// @ts-expect-error: the parser takes bytes or text
new SseParser(() => {}).feed(42);
// @ts-expect-error: whether an event is open is the parser's to say (read-only)
new SseParser(() => {}).inEvent = false;
// @ts-expect-error: providerRequest needs the model
providerRequest({ provider: "anthropic" });
// @ts-expect-error: the default base URLs are read-only
DEFAULT_BASE_URLS.anthropic = "http://localhost";
// @ts-expect-error: OpenAI-compatible servers have no default base URL
export const compatBase: string = DEFAULT_BASE_URLS["openai-compatible"];
// @ts-expect-error: a Gemini body has contents, not messages (bodies are typed per provider)
export const geminiMessages = renderForProvider([], { provider: "gemini", model: "gemini-3-pro-preview" }).body.messages;
// @ts-expect-error: Anthropic's thinking switch is enabled, adaptive or disabled
export const thinkingKind: "on" | undefined = renderForProvider([], { provider: "anthropic", model: "claude-opus-4-7" }).body.thinking?.type;
// @ts-expect-error: effort is a closed set
renderForProvider([], { provider: "anthropic", model: "claude-opus-4-7", thinking: { enabled: true, effort: "turbo" } });
// @ts-expect-error: a cache lifetime is 5m or 1h
renderForProvider([], { provider: "anthropic", model: "claude-opus-4-7", cache: { ttl: "24h" } });
// @ts-expect-error: what the router hands back of a target has no key (TargetInfo)
export const leakedKey = (e: RouterEvent): string | undefined => (e.type === "attempt" ? e.target.apiKey : undefined);
// @ts-expect-error: signAwsRequest needs the credentials to sign with
signAwsRequest({ method: "POST", url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse", region: "us-east-1", service: "bedrock" });
