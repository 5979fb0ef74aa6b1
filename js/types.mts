// The public types of the fetch shims (streamTurn). Only ECMAScript types appear here: no DOM
// and no Node types, so that a consumer type-checks them with `"types": []` and no "dom" lib.
// Where a host type exists (DOM or @types/node `AbortSignal`), `AbortSignalLike` is exactly that
// type, so `globalThis.fetch` and a real `AbortSignal` fit the options without a cast.
import type { AwsCredentials } from "./sigv4.mjs";
import type { Conversation, Diagnostic, Host, Provider, RenderOptions, StreamDelta, StreamOutcome, Transcript } from "./turnwire.js";

/**
 * The part of an `AbortSignal` that turnwire uses, for hosts whose type declarations have none.
 *
 * @example
 * ```ts
 * const signal: MinimalAbortSignal = new AbortController().signal;
 * ```
 */
export interface MinimalAbortSignal {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: "abort", listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: "abort", listener: () => void): void;
}

/**
 * The host's `AbortSignal` type where its declarations have one (the DOM lib, `@types/node`,
 * Deno, Bun, Workers), else `MinimalAbortSignal`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const signal: AbortSignalLike = controller.signal;
 * ```
 */
export type AbortSignalLike = typeof globalThis extends { AbortSignal: { prototype: infer T } } ? T : MinimalAbortSignal;

/**
 * What `streamTurn` passes to `fetch`: always a POST with a JSON body (a string rendered by
 * turnwire), the provider's headers, `redirect: "manual"` (turnwire follows only a same-origin
 * 307 or 308 itself), and the caller's `signal` when one was given.
 *
 * @example
 * ```ts
 * const logging: TurnFetch = (url, init) => {
 *   console.log(init.method, url, init.body.length, "bytes");
 *   return fetch(url, init);
 * };
 * ```
 */
export interface TurnFetchInit {
  method: "POST";
  headers: Record<string, string>;
  body: string;
  /** Always `"manual"`: a redirect comes back to turnwire, which never follows one to another origin. */
  redirect?: "manual";
  signal?: AbortSignalLike;
}

/**
 * One read of a response body reader (a `ReadableStreamDefaultReader<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const r: TurnByteReadResult = await reader.read();
 * if (!r.done) console.log(r.value.byteLength);
 * ```
 */
export type TurnByteReadResult = { done: true; value?: Uint8Array | undefined } | { done: false; value: Uint8Array };

/**
 * A response body reader (a `ReadableStreamDefaultReader<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const reader: TurnByteReader = response.body.getReader();
 * ```
 */
export interface TurnByteReader {
  read(): Promise<TurnByteReadResult>;
  cancel(reason?: unknown): Promise<void>;
  releaseLock(): void;
}

/**
 * A response body (a `ReadableStream<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const body: TurnByteStream = new Response("data: {}\n\n").body!;
 * ```
 */
export interface TurnByteStream {
  getReader(): TurnByteReader;
}

/**
 * What the injected `fetch` must resolve with (a `Response` fits).
 *
 * @example
 * ```ts
 * const fake: TurnFetch = async () => new Response(sseText, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export interface TurnFetchResponse {
  readonly status: number;
  /** `"opaqueredirect"` for a redirect a browser hides (refused: its target cannot be checked). */
  readonly type?: string;
  readonly headers: { get(name: string): string | null };
  readonly body: TurnByteStream | null;
  text(): Promise<string>;
}

/**
 * The `fetch` streamTurn sends with: `globalThis.fetch` by default; any function of this shape
 * (a proxy, a logger, a test double returning a `Response` over a `ReadableStream`). It is asked
 * for `redirect: "manual"`; one that ignores that and follows redirects itself (to another
 * origin, with the key) does so on its caller's behalf, not turnwire's.
 *
 * @example
 * ```ts
 * const turn = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", conversation, fetch: (url, init) => fetch(url, init) });
 * ```
 */
export type TurnFetch = (url: string, init: TurnFetchInit) => Promise<TurnFetchResponse>;

/**
 * Render options besides the target (`provider` and `model` come from the turn's options).
 * `endpoint` defaults to the turn's base URL; `extra` is merged over the streaming switches
 * (`stream`, `stream_options`), so a key given here wins.
 *
 * @example
 * ```ts
 * const render: TurnRenderOptions = { maxTokens: 8192, thinking: { enabled: true, budgetTokens: 2048 }, tools };
 * ```
 */
export type TurnRenderOptions = Omit<RenderOptions, "provider" | "model">;

/**
 * AWS credentials and the region a turn is signed for (AWS Signature Version 4: Bedrock).
 *
 * @example
 * ```ts
 * const aws: AwsTurnCredentials = { region: "us-east-1", accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY!, sessionToken: process.env.AWS_SESSION_TOKEN };
 * ```
 */
export interface AwsTurnCredentials extends AwsCredentials {
  /** The region (`us-east-1`): where the request goes and what it is signed for. */
  region: string;
}

/**
 * Options of `streamTurn` shared by both history forms.
 *
 * @example
 * ```ts
 * const common: StreamTurnCommonOptions = { provider: "openai-chat", model: "gpt-5.2", apiKey: process.env.OPENAI_API_KEY };
 * ```
 */
export interface StreamTurnCommonOptions {
  /** The wire format to talk. */
  provider: Provider;
  /** The model to ask. */
  model: string;
  /**
   * Sent as the provider wants it (`x-api-key`, `Authorization: Bearer`, `x-goog-api-key`); left
   * out, no auth header is sent. Never in an error, event or result.
   */
  apiKey?: string | undefined;
  /**
   * AWS credentials to sign the request with (SigV4), for a provider on AWS (Bedrock) instead of
   * an `apiKey`; the signature is computed in JS on WebCrypto before each send. The secret key
   * and session token are never sent, nor in an error, event or result.
   */
  aws?: AwsTurnCredentials | undefined;
  /** The region of a provider whose URL names one (Bedrock) when `aws` does not give it (a Bedrock API key's turn). */
  region?: string | undefined;
  /**
   * Who serves the provider's wire API (default: the provider's own API), as `providerRequest`'s
   * `host`: the turn goes to the host's URL with its auth, renders with the host's body envelope
   * and stamps the host on the message's provenance (`bedrock`: Claude on InvokeModel, signed
   * with `aws` or a Bedrock API key; `vertex`: an OAuth access token as `apiKey`; `azure`: the
   * key in `api-key`, the deployment as `model`). An unknown host, or one that does not serve
   * `provider`: a TurnwireError `invalid_value` at `$.host`.
   */
  host?: Host | undefined;
  /** The Google Cloud project of a `vertex` turn. */
  project?: string | undefined;
  /** The Azure resource of an `azure` or `foundry` turn. */
  resource?: string | undefined;
  /**
   * The provider's base URL, as its SDK takes it (`DEFAULT_BASE_URLS` when left out; required
   * for `openai-compatible`). A mock provider's `baseURL` works as it is. Credentials in it
   * (`https://user:password@proxy`) go as basic auth and are shown nowhere.
   */
  baseURL?: string | undefined;
  /** Render options besides provider and model: tools, system, maxTokens, thinking, extra, … */
  render?: TurnRenderOptions | undefined;
  /** Aborting ends the turn cleanly: the result resolves with `aborted: true` and what arrived. */
  signal?: AbortSignalLike | undefined;
  /** The fetch to send with (default `globalThis.fetch`). */
  fetch?: TurnFetch | undefined;
  /** Extra request headers; they win over turnwire's. */
  headers?: Record<string, string> | undefined;
  /**
   * A string unique to this turn, for ids of calls the provider sent without one and without a
   * response id (default: `turn-` and the history's size, its number of messages, so each turn
   * of a conversation gets its own).
   */
  idSeed?: string | undefined;
  /**
   * The longest wait for the next bytes of the answer, in ms (default `DEFAULT_IDLE_TIMEOUT_MS`,
   * 300,000: reasoning models can think for minutes between events). Past it the turn fails with
   * a `ProviderError` of kind `"timeout"` (`errorType: "idle_timeout"`, retryable) whose
   * `.result` holds what arrived. `0` or `Infinity`: no limit. Each limit below takes the same
   * values: left out, its default; a positive number; `0` or `Infinity` for no limit. Anything
   * else (a string, `NaN`, a negative number, `null`) rejects the turn with a `TurnwireError`
   * naming the option (`code` `"invalid_type"` or `"invalid_value"`), before anything is sent.
   */
  idleTimeoutMs?: number | undefined;
  /**
   * The longest the whole turn may take, in ms (default `DEFAULT_TURN_TIMEOUT_MS`, one hour: a
   * stream that trickles under the idle timeout still ends); past it, `errorType: "turn_timeout"`.
   */
  timeoutMs?: number | undefined;
  /**
   * The most bytes one SSE event (or JSON chunk) may take before it is complete (default
   * `DEFAULT_MAX_EVENT_BYTES`, 16 MiB); past it the turn fails with kind `"limit"`
   * (`errorType: "event_too_large"`, not retryable), what arrived kept.
   */
  maxEventBytes?: number | undefined;
  /**
   * The most bytes the whole streamed answer may take (default `DEFAULT_MAX_REPLY_BYTES`, 64 MiB);
   * past it the turn fails with kind `"limit"` (`errorType: "reply_too_large"`, not retryable),
   * what arrived kept. It stops an endless stream of valid events.
   */
  maxReplyBytes?: number | undefined;
  /** The most bytes read of a non-2xx answer's body (default `DEFAULT_MAX_ERROR_BODY_BYTES`, 64 KiB). */
  maxErrorBodyBytes?: number | undefined;
}

/**
 * Options of `streamTurn`: the common options and either a `Conversation` (the turn's message
 * is appended to it) or a transcript (the caller appends `result.message`).
 *
 * @example
 * ```ts
 * const options: StreamTurnOptions = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation };
 * ```
 */
export type StreamTurnOptions = StreamTurnCommonOptions &
  (
    | {
        /** The history; the turn's message (a partial one too) is appended to it. */
        conversation: Conversation;
        transcript?: undefined;
      }
    | {
        /** The history (a value or its JSON text); append `result.message` yourself. */
        transcript: Transcript | string;
        conversation?: undefined;
      }
  );

/**
 * Where a turn's request went.
 *
 * @example
 * ```ts
 * const { url, provider, model }: TurnRequest = result.request;
 * ```
 */
export interface TurnRequest {
  /** The URL, without credentials or a secret query value (`?key=REDACTED`). */
  url: string;
  provider: Provider;
  model: string;
}

/**
 * What a turn ends with: the decoder's outcome (the canonical message, usage, stop reason,
 * `incomplete`, every stream problem), the render's diagnostics, id map and renamed tools, where
 * the request went, and whether the caller aborted it.
 *
 * @example
 * ```ts
 * const result: TurnResult = await streamTurn({ provider: "gemini", model: "gemini-3-pro-preview", conversation });
 * for (const b of result.message.blocks) if (b.type === "tool_call") run(b.name, b.parameters);
 * ```
 */
export interface TurnResult extends StreamOutcome {
  /** The repairs the render made to the history before sending it. */
  diagnostics: Diagnostic[];
  /** Canonical call id → the id sent to the provider. */
  idMap: Record<string, string>;
  /** Tool names that had to change for the provider: canonical → sent. */
  toolNames: Record<string, string>;
  request: TurnRequest;
  /** The caller's signal ended the turn before the stream did (then `incomplete` is true too). */
  aborted: boolean;
  /**
   * The message was appended to the options' `conversation` (false with a transcript, and when
   * nothing arrived).
   */
  appended: boolean;
}

/**
 * One streamed turn: iterate it for deltas (text, reasoning, tool-call progress, usage, and the
 * decoder's `{ type: "error" }` entries), and await it (or its `result`) for the `TurnResult`.
 * The request is sent at once and the stream is read whether or not anyone iterates; leaving
 * the loop early stops the deltas, not the turn (abort the `signal` for that). It can be
 * iterated once. A failure rejects `result` and is thrown by the loop, too.
 *
 * @example
 * ```ts
 * const turn = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation });
 * for await (const d of turn) if (d.type === "text") process.stdout.write(d.text);
 * const { message, usage, stopReason } = await turn;
 * ```
 */
export interface TurnStream extends AsyncIterable<StreamDelta>, PromiseLike<TurnResult> {
  /** The turn's result; the same promise `await turn` waits for. */
  readonly result: Promise<TurnResult>;
}
