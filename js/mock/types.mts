// The public types of `turnwire/mock`. Only ECMAScript types appear here (no Node or DOM
// types), so that a consumer type-checks them with `"types": []` and no @types/node.
import type { JsonObject, Provider, Violation } from "../index.js";

export type { JsonObject, Provider, Violation };

/**
 * A text block of a scripted reply.
 *
 * @example
 * ```ts
 * mock.script("openai-chat", { blocks: [{ type: "text", text: "Hello." }] });
 * ```
 */
export interface MockTextBlock {
  type: "text";
  text: string;
  /**
   * Gemini only: the `thoughtSignature` of this text part. Left out, Gemini 3 models sign the
   * last text part of a reply that makes no function call; `null` never signs it.
   */
  thoughtSignature?: string | null;
}

/**
 * A thinking block of a scripted reply: Anthropic `thinking` + `signature_delta`, an OpenAI
 * Responses `reasoning` item (`id`, summary text, `encrypted_content` when the request asks
 * for it), a Gemini thought part, DeepSeek / Kimi / OpenAI-compatible `reasoning_content`,
 * Mistral (Magistral) `thinking` content chunks. OpenAI Chat has no wire form for it: the
 * block only counts as reasoning tokens there.
 *
 * @example
 * ```ts
 * mock.script("anthropic", { blocks: [
 *   { type: "thinking", thinking: "The user wants a greeting.", signature: "EqQBCkYIBxgC" },
 *   { type: "text", text: "Hi!" },
 * ] });
 * ```
 */
export interface MockThinkingBlock {
  type: "thinking";
  /** The thinking (Anthropic), summary (Responses), thought (Gemini) or reasoning text. */
  thinking: string;
  /**
   * Anthropic `signature`, Responses `encrypted_content`. A deterministic one is made up
   * when left out.
   */
  signature?: string;
  /** Responses reasoning item id (`rs_…`); made up when left out. */
  id?: string;
}

/**
 * An Anthropic `redacted_thinking` block (opaque `data`). Responses plays it back as a reasoning
 * item with no summary whose `encrypted_content` is `data`; the other providers drop it.
 *
 * @example
 * ```ts
 * mock.script("anthropic", { blocks: [{ type: "redacted_thinking", data: "EmwKAhgB" }, { type: "text", text: "Done." }] });
 * ```
 */
export interface MockRedactedThinkingBlock {
  type: "redacted_thinking";
  data: string;
}

/**
 * A tool call of a scripted reply. Several in one reply are parallel calls. The id is made in
 * the provider's own format unless `id` is given: Anthropic `toolu_…`, OpenAI `call_…`
 * (Responses: `call_…` plus an `fc_…` item id), Mistral 9 alphanumerics, Kimi
 * `functions.{name}:{index}` (the index counts the calls of the whole conversation, those of
 * the request included), DeepSeek `call_{nn}_…`; Gemini function calls carry no id unless
 * `id` is given.
 *
 * @example
 * ```ts
 * mock.script("kimi", { blocks: [
 *   { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
 *   { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
 * ] });
 * ```
 */
export interface MockToolCallBlock {
  type: "tool_call";
  name: string;
  /**
   * The arguments: an object, or JSON text sent exactly as given in streams (invalid JSON is
   * allowed, to test a decoder's errors). Gemini, and Anthropic's non-streaming `input`, need an
   * object: text that is not a JSON object becomes `{}` there. Default `{}`.
   */
  arguments?: JsonObject | string;
  /** The call id on the wire; made up in the provider's format when left out. */
  id?: string;
  /**
   * Gemini only: this call's `thoughtSignature`. Left out, the first function call of the reply
   * is signed on a Gemini 3 model (and on other Gemini models when the reply thinks), the others
   * are not; `null` leaves this call unsigned.
   */
  thoughtSignature?: string | null;
}

/**
 * One block of a scripted reply, in the order the model "produces" them.
 *
 * @example
 * ```ts
 * const blocks: MockBlock[] = [{ type: "text", text: "Let me look." }, { type: "tool_call", name: "ls" }];
 * ```
 */
export type MockBlock = MockTextBlock | MockThinkingBlock | MockRedactedThinkingBlock | MockToolCallBlock;

/**
 * Token counts a reply reports. Left out, they are estimated (about four characters a token).
 *
 * @example
 * ```ts
 * mock.script("deepseek", { text: "ok", usage: { inputTokens: 120, outputTokens: 2, cacheReadTokens: 100 } });
 * ```
 */
export interface MockUsage {
  inputTokens?: number;
  outputTokens?: number;
  /** Prompt tokens read from the provider's cache. */
  cacheReadTokens?: number;
  /** Prompt tokens written to the cache (Anthropic `cache_creation_input_tokens`). */
  cacheWriteTokens?: number;
  /** Reasoning tokens (defaults to an estimate over the thinking blocks). */
  reasoningTokens?: number;
}

/**
 * A scripted model reply, played back in the format of whichever provider receives the request:
 * an SSE stream when the request streams (`"stream": true`, Gemini `:streamGenerateContent`),
 * one JSON response otherwise.
 *
 * @example
 * ```ts
 * // a slow stream, cut off after the fifth event
 * mock.script("anthropic", { text: "a long answer that never finishes", delayMs: 20, truncateAfter: 5 });
 * ```
 */
export interface MockReply {
  kind?: "reply";
  /** Shorthand for `blocks: [{ type: "text", text }]` (appended after `blocks` when both are given). */
  text?: string;
  /** The reply's blocks in order. */
  blocks?: MockBlock[];
  /**
   * Why the reply ends: `"end"` (Anthropic `end_turn`, OpenAI `stop`, Gemini `STOP`),
   * `"tool_use"` (`tool_use`, `tool_calls`; Gemini `STOP`) or `"max_tokens"` (`max_tokens`,
   * `length`, `MAX_TOKENS`, Responses `incomplete`). Default: `"tool_use"` when the reply calls
   * a tool, `"end"` otherwise.
   */
  stopReason?: "end" | "tool_use" | "max_tokens";
  usage?: MockUsage;
  /** Milliseconds before the response headers are sent. */
  latencyMs?: number;
  /** Milliseconds between two stream events (a slow stream). Default: the server's `delayMs`. */
  delayMs?: number;
  /** Characters per text, thinking or argument delta. Default: the server's `chunkSize`. */
  chunkSize?: number;
  /**
   * Close the connection after this many stream events (SSE `data:` events, `[DONE]` included),
   * without finishing the stream. On a non-streaming request: after half of the JSON body.
   */
  truncateAfter?: number;
  /**
   * Send the provider's in-stream error event after this many events and end the stream there
   * (Anthropic `event: error`, Responses `response.failed`, an `{"error": …}` chunk elsewhere).
   * Streams only; the HTTP status stays 200.
   */
  errorAfter?: number;
  /** The error `errorAfter` sends: 529 (overloaded, the default), 500, 503 or 429. */
  errorStatus?: number;
}

/**
 * A scripted HTTP error, answered in the provider's own error body shape and headers: 429 (with
 * `retry-after`), 500, 503 (Gemini `UNAVAILABLE`), 529 (Anthropic `overloaded_error`), or any
 * other status. Counted in `stats.scriptedErrors`, never in `stats.rejected`.
 *
 * @example
 * ```ts
 * mock.script("gemini", { kind: "error", status: 503 }, { text: "back again" });
 * ```
 */
export interface MockHttpError {
  kind: "error";
  status: number;
  /** The error message; the provider's usual text for that status when left out. */
  message?: string;
  /** The provider's error type (Anthropic `error.type`, OpenAI `error.type`, Gemini `status`). */
  type?: string;
  /** Seconds for the `retry-after` header. Default 1 on a 429, none otherwise. */
  retryAfter?: number;
  /** Milliseconds before the answer is sent. */
  latencyMs?: number;
}

/**
 * What one request answers with.
 *
 * @example
 * ```ts
 * const turns: MockTurn[] = [{ kind: "error", status: 429 }, { text: "ok" }];
 * ```
 */
export type MockTurn = MockReply | MockHttpError;

/**
 * The request a scripted turn function gets to decide its answer.
 *
 * @example
 * ```ts
 * mock.script("openai-chat", (req) => ({ text: `you sent ${JSON.stringify(req.body).length} bytes` }));
 * ```
 */
export interface MockRequest {
  provider: Provider;
  /** The model: the body's `model`, Gemini's from the URL path. */
  model: string;
  /** The parsed request body (it passed validation). */
  body: JsonObject;
  stream: boolean;
  /**
   * 0-based number of this request among those that passed the checks on this provider's
   * server since start or `reset()` (rejected requests take no turn and no number).
   */
  index: number;
}

/**
 * A queued turn: fixed, or computed from the request when it arrives.
 *
 * @example
 * ```ts
 * const echo: MockScript = (req) => ({ text: `model ${req.model}` });
 * ```
 */
export type MockScript = MockTurn | ((request: MockRequest) => MockTurn);

/**
 * Counters of one provider's server (or of all of them, `MockProviders.stats`).
 *
 * @example
 * ```ts
 * const { accepted, rejected, scriptedErrors } = mock.stats;
 * console.log(`requests: ${accepted} accepted, ${rejected} rejected`);
 * ```
 */
export interface MockStats {
  /** 2xx answers (a truncated or failed stream still counts here: its status was 200). */
  accepted: number;
  /** Every non-2xx answer that was not scripted: 400 violations, 401/403 auth, 404, 405. */
  rejected: number;
  /** Scripted HTTP errors (`{ kind: "error" }`). */
  scriptedErrors: number;
}

/**
 * One logged request.
 *
 * @example
 * ```ts
 * const last = mock.log.at(-1);
 * if (last?.outcome === "rejected") console.log(last.status, last.violations.map((v) => v.rule));
 * ```
 */
export interface MockLogEntry {
  provider: Provider;
  method: string;
  /** The request path with its query string. */
  path: string;
  /** The request headers, lower-case names; API key values are masked. */
  headers: Record<string, string>;
  /** The parsed JSON body, or the raw text when it is not JSON (`null` when empty). */
  body: unknown;
  /** The model named by the body (Gemini: by the path), or `null`. */
  model: string | null;
  stream: boolean;
  status: number;
  outcome: "accepted" | "rejected" | "scripted_error";
  /** Every violation `validateRequest` found (the 400 answer quotes the first). */
  violations: Violation[];
  /** The error answered (type and message), for every non-2xx answer. */
  error: { type: string; message: string } | null;
  /** Whether the answer came from the script queue (false: the default reply). */
  scripted: boolean;
}

/**
 * Options of `startMockProviders`.
 *
 * @example
 * ```ts
 * await using mock = await startMockProviders({ providers: ["anthropic", "gemini"], apiKey: "test-key", delayMs: 5 });
 * ```
 */
export interface MockProvidersOptions {
  /** The providers to serve (default: all of `MOCK_PROVIDERS`). */
  providers?: readonly Provider[];
  /** A fixed port per provider (default 0: the system picks a free one). */
  ports?: Partial<Record<Provider, number>>;
  /** When set, requests must carry exactly this API key; otherwise any non-empty key passes. */
  apiKey?: string;
  /** Check requests with `validateRequest` (default true). */
  validate?: boolean;
  /** What an empty queue answers (default: a short text reply naming the provider). */
  defaultTurn?: MockScript;
  /** Default milliseconds between two stream events (default 0). */
  delayMs?: number;
  /** Default characters per streamed delta (default 12). */
  chunkSize?: number;
  /** Seed of the made-up ids and signatures (default 1): same script, same ids. */
  seed?: number;
}

/**
 * One provider's server.
 *
 * @example
 * ```ts
 * const { baseURL } = mock.endpoint("openai-chat"); // "http://127.0.0.1:PORT/v1"
 * const client = new OpenAI({ baseURL, apiKey: "test" });
 * ```
 */
export interface MockEndpoint {
  readonly provider: Provider;
  /**
   * What an SDK or turnwire's shim takes as base URL: `origin + "/v1"` for OpenAI Chat and
   * Responses, Mistral, Kimi and OpenAI-compatible (the client appends `/chat/completions` or
   * `/responses`); the bare origin for Anthropic (`/v1/messages`), Gemini
   * (`/v1beta/models/{model}:generateContent`, the `@google/genai` `httpOptions.baseUrl`) and
   * DeepSeek (`/chat/completions`; `/v1/chat/completions` is served too).
   */
  readonly baseURL: string;
  /** `http://127.0.0.1:PORT` */
  readonly origin: string;
  readonly port: number;
  /** This server's counters (a snapshot). */
  readonly stats: MockStats;
  /** This server's requests, oldest first (a copy). */
  readonly log: MockLogEntry[];
  /** Turns still queued. */
  readonly pending: number;
  /** Queues turns; each request takes the next one. */
  script(...turns: MockScript[]): void;
}

/**
 * The running mock providers (`startMockProviders`).
 *
 * @example
 * ```ts
 * const mock = await startMockProviders();
 * try {
 *   mock.script("anthropic", { kind: "error", status: 529 });
 *   // … run the code under test against mock.baseURL("anthropic") …
 *   assert.deepEqual(mock.stats, { accepted: 1, rejected: 0, scriptedErrors: 1 });
 * } finally {
 *   await mock.close();
 * }
 * ```
 */
export interface MockProviders {
  /** The providers served, in start order. */
  readonly providers: readonly Provider[];
  /** One provider's server; throws a `RangeError` for a provider not served. */
  endpoint(provider: Provider): MockEndpoint;
  /** Shorthand for `endpoint(provider).baseURL`. */
  baseURL(provider: Provider): string;
  /** Queues turns on one provider: each request takes the next one, in order. */
  script(provider: Provider, ...turns: MockScript[]): void;
  /** Turns still queued on one provider. */
  pending(provider: Provider): number;
  /** The counters of all servers together (a snapshot). */
  readonly stats: MockStats;
  /** The requests of all servers, in arrival order (a copy). */
  readonly log: MockLogEntry[];
  /** Empties every queue, the log and the counters, and restarts the id sequence. */
  reset(): void;
  /** Stops every server and cuts open connections (slow streams included). Safe to call twice. */
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}
