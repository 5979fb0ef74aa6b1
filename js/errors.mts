// ProviderError: what a provider (or the way to it) answered instead of a finished turn.
import type { Provider } from "./turnwire.js";
import type { TurnRequest, TurnResult } from "./types.mjs";

/**
 * Where a `ProviderError` came from: a non-2xx answer (`"http"`; a redirect turnwire refused to
 * follow too, `errorType: "redirect_refused"`), no answer at all (`"network"`: fetch threw, DNS,
 * refused connection, CORS; or a header value fetch would refuse, `errorType: "invalid_header"`,
 * nothing sent), an error the provider sent inside a 200 stream
 * (`"stream"`), a stream that ended before its terminal event (`"incomplete"`), a stream that
 * went silent or ran past the turn's time (`"timeout"`), one past a size limit (`"limit"`), or a
 * 2xx answer that is neither a stream nor a response (`"unexpected"`: an HTML login page, an
 * empty body, a 204).
 *
 * @example
 * ```ts
 * if (isProviderError(e) && e.kind === "http" && e.status === 401) askForAnotherKey();
 * ```
 */
export type ProviderErrorKind = "http" | "network" | "stream" | "incomplete" | "timeout" | "limit" | "unexpected";

/**
 * The fields of a `ProviderError`.
 *
 * @example
 * ```ts
 * const init: ProviderErrorInit = { kind: "http", provider: "anthropic", status: 529, errorType: "overloaded_error", message: "Overloaded", retryable: true };
 * ```
 */
export interface ProviderErrorInit {
  kind: ProviderErrorKind;
  provider: Provider;
  status: number;
  errorType: string;
  message: string;
  retryable: boolean;
  retryAfterMs?: number | undefined;
  body?: unknown;
  request?: TurnRequest | undefined;
  result?: TurnResult | undefined;
  cause?: unknown;
}

/** The longest retry delay a `retry-after` header is taken at (one hour); longer ones are clamped to it. */
export const MAX_RETRY_AFTER_MS = 3_600_000;

/**
 * A provider failed the turn. `retryable` says whether the same request may succeed later or
 * elsewhere (429, 5xx, 529 / overloaded, Gemini `UNAVAILABLE` / `RESOURCE_EXHAUSTED`, network
 * failures, cut streams: true; 400, 401, 403, 404, quota exhausted: false): the signal for
 * failover. On an HTTP or network error nothing was appended to the conversation; on a
 * `"stream"` or `"incomplete"` error the partial message was (it is `result.message`). Its
 * message, stack, `body` and `cause` never hold the request's API key, auth header values or
 * base URL password (a provider that echoes them gets `[redacted]`).
 *
 * @example
 * ```ts
 * try {
 *   await streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation });
 * } catch (e) {
 *   if (!isProviderError(e) || !e.retryable) throw e;
 *   await sleep(e.retryAfterMs ?? 1000);
 *   await streamTurn({ provider: "openai-chat", model: "gpt-5.2", apiKey: openaiKey, conversation });
 * }
 * ```
 */
export class ProviderError extends Error {
  declare readonly name: "ProviderError";
  readonly kind: ProviderErrorKind;
  readonly provider: Provider;
  /** The HTTP status: the error answer's, 200 for errors inside a stream, 0 when there was no answer. */
  readonly status: number;
  /**
   * The provider's own error type: Anthropic `error.type`, OpenAI `error.code` (else `type`),
   * Gemini `error.status`, Mistral / Kimi / DeepSeek `type`; `"network"`, `"incomplete_stream"`,
   * `"redirect_refused"`, `"invalid_header"`, or `http_<status>` when the answer named none.
   */
  readonly errorType: string;
  /** Whether retrying (later, or with another provider) may succeed. */
  readonly retryable: boolean;
  /** How long the provider asked to wait (`retry-after-ms`, `retry-after`), if it did. */
  readonly retryAfterMs: number | undefined;
  /** The parsed error body (or its text); for a stream error, the error event's payload. */
  readonly body: unknown;
  /** Where the request went. */
  readonly request: TurnRequest | undefined;
  /** For `"stream"` and `"incomplete"` errors: the partial turn, already appended. */
  readonly result: TurnResult | undefined;

  constructor(init: ProviderErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.kind = init.kind;
    this.provider = init.provider;
    this.status = init.status;
    this.errorType = init.errorType;
    this.retryable = init.retryable;
    this.retryAfterMs = init.retryAfterMs;
    this.body = init.body;
    this.request = init.request;
    this.result = init.result;
  }
}

// On the prototype, so that the stack trace (captured in the constructor) names it too.
Object.defineProperty(ProviderError.prototype, "name", { value: "ProviderError", writable: true, configurable: true });

/**
 * Whether `value` is a `ProviderError` (from any copy of the package: ESM and CommonJS ones
 * are different classes, so prefer this to `instanceof`).
 *
 * @example
 * ```ts
 * catch (e) { if (isProviderError(e) && e.retryable) return failover(); throw e; }
 * ```
 */
export function isProviderError(value: unknown): value is ProviderError {
  if (!(value instanceof Error)) return false;
  const v = value as Error & Partial<Record<keyof ProviderError, unknown>>;
  return (
    v.name === "ProviderError" &&
    typeof v.status === "number" &&
    typeof v.retryable === "boolean" &&
    typeof v.errorType === "string" &&
    typeof v.provider === "string"
  );
}

/**
 * A second turn was started on a `Conversation` whose turn is still in flight, or the
 * conversation was freed during its turn. A turn in flight owns its conversation until it
 * settles: await it (or abort it) first. `code` is `"turn_in_flight"`.
 *
 * @example
 * ```ts
 * try { await streamTurn({ ...options, conversation }); } catch (e) { if (isTurnInFlightError(e)) await previousTurn; }
 * ```
 */
export class TurnInFlightError extends Error {
  declare readonly name: "TurnInFlightError";
  readonly code = "turn_in_flight" as const;
}
Object.defineProperty(TurnInFlightError.prototype, "name", { value: "TurnInFlightError", writable: true, configurable: true });

/**
 * Whether `value` is a `TurnInFlightError` (from any copy of the package).
 *
 * @example
 * ```ts
 * if (isTurnInFlightError(e)) console.log("one turn at a time per conversation");
 * ```
 */
export function isTurnInFlightError(value: unknown): value is TurnInFlightError {
  return value instanceof Error && value.name === "TurnInFlightError" && (value as { code?: unknown }).code === "turn_in_flight";
}

/**
 * A `TurnwireError` made on the JavaScript side: the shape the wasm module's errors have
 * (`name`, a stable `code`, the JSON `path`), so `isTurnwireError` knows it.
 * @internal
 */
export function turnwireError(code: string, path: string, message: string): Error {
  const e = new Error(message);
  Object.defineProperty(e, "name", { value: "TurnwireError", writable: true, configurable: true });
  return Object.assign(e, { code, path });
}
