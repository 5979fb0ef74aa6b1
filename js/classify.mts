// Reading a provider's error answer: its error type and message in each provider's body shape,
// the retry classification (what failover acts on) and the retry delay (internal module).
import { MAX_RETRY_AFTER_MS, ProviderError } from "./errors.mjs";
import type { Provider } from "./turnwire.js";
import type { TurnFetchResponse, TurnRequest, TurnResult } from "./types.mjs";

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** OpenAI's own APIs put the specific reason in `code` (`rate_limit_exceeded`, `insufficient_quota`). */
const CODE_FIRST: ReadonlySet<Provider> = new Set<Provider>(["openai-chat", "openai-responses", "openai-compatible"]);

/** Error types that mean "not now, maybe later or elsewhere" (case-insensitive). */
const TRANSIENT =
  /overload|rate_?limit|too_many_requests|resource_exhausted|unavailable|server_error|api_error|internal|timeout|deadline_exceeded|engine_overloaded|capacity|incomplete_stream|^network$/i;
/** Error types that never get better by retrying, whatever the status says. */
const PERMANENT = /insufficient_quota|billing|invalid_api_key|authentication|permission|not_found|invalid_request/i;

/**
 * AWS's error types (Bedrock Runtime: the `x-amzn-ErrorType` header of an HTTP error, the
 * `:exception-type` of an event-stream exception in lower camel case), by name without the
 * `Exception` suffix, lower-cased: whether a retry may succeed. The ConverseError set of the AWS
 * SDKs (ThrottlingException 429, ModelNotReadyException 429, ModelTimeoutException 408,
 * InternalServerException 500, ServiceUnavailableException 503, ModelStreamErrorException 424
 * on retry; ValidationException 400, AccessDeniedException 403, ResourceNotFoundException 404,
 * ModelErrorException 424 never), the quota and conflict errors of the other operations, and
 * the authentication errors AWS services answer with (InvalidSignatureException,
 * IncompleteSignatureException, UnrecognizedClientException, ExpiredTokenException).
 */
const AWS_RETRYABLE: ReadonlyMap<string, boolean> = new Map([
  ["throttling", true],
  ["modelnotready", true],
  ["modeltimeout", true],
  ["internalserver", true],
  ["serviceunavailable", true],
  ["modelstreamerror", true],
  ["validation", false],
  ["accessdenied", false],
  ["resourcenotfound", false],
  ["modelerror", false],
  ["servicequotaexceeded", false],
  ["conflict", false],
  ["invalidsignature", false],
  ["incompletesignature", false],
  ["unrecognizedclient", false],
  ["expiredtoken", false],
]);

/**
 * Whether an AWS error type (`ThrottlingException`, `throttlingException`, or the header form
 * `ThrottlingException:http://internal.amazon.com/coral/…`) is worth retrying; undefined for a
 * type that is not one of AWS's.
 */
export function awsRetryable(errorType: string): boolean | undefined {
  const m = /^([A-Za-z]+)Exception(?::|$)/.exec(errorType.trim());
  return m?.[1] === undefined ? undefined : AWS_RETRYABLE.get(m[1].toLowerCase());
}

/**
 * The error type AWS gives in the `x-amzn-ErrorType` header (`ThrottlingException` of
 * `ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/`), or undefined.
 */
export function amznErrorType(headers: { get(name: string): string | null }): string | undefined {
  const raw = headers.get("x-amzn-errortype");
  if (raw === null) return undefined;
  return str(raw.split(":")[0]?.trim());
}

/** The provider's error object inside a body: `{error: {...}}`, Mistral's flat body, Gemini's array form. */
function errorObject(body: unknown): Obj | undefined {
  const b = Array.isArray(body) ? body[0] : body;
  if (!isObject(b)) return undefined;
  return isObject(b["error"]) ? b["error"] : b;
}

/** An error a gateway wrapped: its type, HTTP status and message where it says them. */
type Upstream = { type: string | undefined; status: number | undefined; message: string | undefined };

/** The upstream error in OpenRouter's `metadata.raw`: an object, JSON text, or JSON after text. */
function upstreamOf(raw: unknown): Upstream | undefined {
  let v = raw;
  if (typeof raw === "string") {
    const at = raw.indexOf("{");
    try {
      v = at < 0 ? raw : JSON.parse(raw.slice(at));
    } catch {
      v = raw;
    }
  }
  const e = isObject(v) ? (isObject(v["error"]) ? v["error"] : v) : undefined;
  if (e === undefined) return undefined;
  const status = typeof e["code"] === "number" ? e["code"] : typeof e["status"] === "number" ? e["status"] : undefined;
  const type = str(e["status"]) ?? str(e["type"]) ?? str(e["code"]);
  const message = str(e["message"]);
  return type === undefined && status === undefined && message === undefined ? undefined : { type, status, message };
}

/**
 * OpenRouter's wrapped upstream error (ORT-03): `error.metadata.error_type` (its typed code), or
 * the upstream's own error in `metadata.raw` (Google's `status`, Anthropic's `type`, a numeric
 * `code`), the message naming `metadata.provider_name`.
 */
function wrapped(e: Obj): Upstream | undefined {
  const meta = e["metadata"];
  if (!isObject(meta)) return undefined;
  const raw = meta["raw"];
  const up = raw === undefined ? undefined : upstreamOf(raw);
  const typed = str(meta["error_type"]);
  if (up === undefined && typed === undefined) return undefined;
  const name = str(meta["provider_name"]);
  const outer = str(e["message"]);
  // text before the upstream's JSON is OpenRouter's own explanation (ORT-02's Gemini answer)
  const text = typeof raw === "string" && !raw.trim().startsWith("{") ? str(raw.trim().slice(0, 500)) : undefined;
  const inner = text ?? up?.message;
  const message = [name === undefined ? undefined : `[${name}]`, inner !== undefined && inner !== outer ? inner : outer]
    .filter((x) => x !== undefined)
    .join(" ");
  return { type: up?.type ?? typed, status: up?.status, message: message === "" ? undefined : message };
}

/** The provider's error type and message from an error body (with the upstream's HTTP status when a gateway wrapped it). */
export function readErrorBody(
  provider: Provider,
  body: unknown,
): { type: string | undefined; message: string | undefined; wrapped?: boolean; upstreamStatus?: number } {
  const e = errorObject(body);
  if (e === undefined) return { type: undefined, message: typeof body === "string" ? str(body.trim().slice(0, 500)) : undefined };
  const up = wrapped(e);
  if (up !== undefined) return { type: up.type, message: up.message, wrapped: true, ...(up.status === undefined ? {} : { upstreamStatus: up.status }) };
  const code = str(e["code"]);
  // AWS JSON protocols name the type `__type` (`com.amazon.coral.service#UnrecognizedClientException`)
  const type = str(e["type"]) ?? str(str(e["__type"])?.split("#").pop());
  const status = str(e["status"]);
  // AWS: `message`, or `Message` in some services' bodies; Ollama: `{"error": "…"}`
  const message = str(e["message"]) ?? str(e["Message"]) ?? str(e["detail"]) ?? str(e["error"]);
  if (provider === "gemini") return { type: status ?? type, message };
  return { type: CODE_FIRST.has(provider) ? (code ?? type) : (type ?? code), message };
}

/** Whether an HTTP answer is worth retrying: 408, 409, 429, 5xx (529 included), unless the error says otherwise. */
export function retryableHttp(status: number, errorType: string | undefined, shouldRetry: string | null): boolean {
  if (shouldRetry === "true") return true;
  if (shouldRetry === "false") return false;
  if (errorType !== undefined && /insufficient_quota|billing/i.test(errorType)) return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Whether an error type reported inside a stream is worth retrying. */
export function retryableType(errorType: string): boolean {
  const aws = awsRetryable(errorType);
  if (aws !== undefined) return aws;
  if (PERMANENT.test(errorType)) return false;
  return TRANSIENT.test(errorType);
}

/** The longest `retry-after` value read (an HTTP date is 29 characters); a longer one is ignored. */
const MAX_RETRY_AFTER_CHARS = 64;
/** Seconds as `retry-after` may give them: one way to read each string, so linear (`\d+\.?\d*` was quadratic). */
const SECONDS = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?$/i;

/**
 * `retry-after-ms` (milliseconds) or `retry-after` (seconds, or an HTTP date), in milliseconds,
 * clamped to `MAX_RETRY_AFTER_MS`. A negative, unreadable or over-long (more than 64
 * characters) value is ignored (`undefined`).
 */
export function retryAfterMs(headers: { get(name: string): string | null }, now: number = Date.now()): number | undefined {
  const clamp = (ms: number): number => Math.min(Math.round(ms), MAX_RETRY_AFTER_MS);
  const ms = headers.get("retry-after-ms");
  if (ms !== null && ms.trim() !== "") {
    const n = Number(ms);
    if (Number.isFinite(n) && n >= 0) return clamp(n);
  }
  const after = headers.get("retry-after")?.trim();
  if (after === undefined || after === "" || after.length > MAX_RETRY_AFTER_CHARS) return undefined;
  if (SECONDS.test(after)) {
    const seconds = Number(after);
    return Number.isFinite(seconds) && seconds >= 0 ? clamp(seconds * 1000) : Number.isFinite(seconds) ? undefined : MAX_RETRY_AFTER_MS;
  }
  const date = Date.parse(after);
  return Number.isNaN(date) ? undefined : clamp(Math.max(0, date - now));
}

/** The body of an error answer: parsed JSON, else its text, else null. */
export function parseBody(text: string | null): unknown {
  if (text === null || text.trim() === "") return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * Whether an HTTP answer is worth retrying; for a gateway's wrapped error (ORT-03) by the
 * upstream's status where it gives one, and also when the upstream's type is a transient one
 * (an overload reported inside OpenRouter's 400).
 */
function retryable(status: number, read: ReturnType<typeof readErrorBody>, shouldRetry: string | null): boolean {
  if (retryableHttp(read.upstreamStatus ?? status, read.type, shouldRetry)) return true;
  return read.wrapped === true && shouldRetry !== "false" && read.type !== undefined && retryableType(read.type);
}

/** A non-2xx answer as a ProviderError. */
export function httpError(
  request: TurnRequest,
  status: number,
  headers: { get(name: string): string | null },
  bodyText: string | null,
): ProviderError {
  const body = parseBody(bodyText);
  const read = readErrorBody(request.provider, body);
  // AWS (Bedrock) names the error in a header; its body holds only the message
  const amzn = amznErrorType(headers);
  const errorType = amzn ?? read.type ?? `http_${status}`;
  // its type decides, unless the answer says so itself (`x-should-retry`)
  const aws = amzn === undefined || headers.get("x-should-retry") !== null ? undefined : awsRetryable(amzn);
  return new ProviderError({
    kind: "http",
    provider: request.provider,
    status,
    errorType,
    message: `${request.provider} answered ${status} (${errorType})${read.message ? `: ${read.message}` : ""}`,
    retryable: aws ?? retryable(status, amzn === undefined ? read : { ...read, type: amzn }, headers.get("x-should-retry")),
    retryAfterMs: retryAfterMs(headers),
    body,
    request,
  });
}

/** fetch threw (not because of the caller's signal): no answer at all. */
export function networkError(request: TurnRequest, cause: unknown): ProviderError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  return new ProviderError({
    kind: "network",
    provider: request.provider,
    status: 0,
    errorType: "network",
    message: `could not reach ${request.provider} at ${request.url}: ${detail}`,
    retryable: true,
    request,
    cause,
  });
}

/** The provider reported an error inside the stream. */
export function streamError(request: TurnRequest, errorType: string, message: string, body: unknown, result: TurnResult): ProviderError {
  return new ProviderError({
    kind: "stream",
    provider: request.provider,
    status: 200,
    errorType,
    message,
    retryable: retryableType(errorType),
    body,
    request,
    result,
  });
}

/** What became of what arrived, for an error message. */
function kept(result: TurnResult): string {
  if (result.appended) return "the partial message was appended";
  return result.message.blocks.length > 0 ? "the partial message is in .result" : "nothing had arrived";
}

/** The stream ended (or broke) before its terminal event. */
export function incompleteError(request: TurnRequest, result: TurnResult, cause: unknown): ProviderError {
  const detail = cause instanceof Error ? ` (${cause.message})` : "";
  return new ProviderError({
    kind: "incomplete",
    provider: request.provider,
    status: 200,
    errorType: "incomplete_stream",
    message: `the ${request.provider} stream ended before its terminal event${detail}; ${kept(result)}`,
    retryable: true,
    body: null,
    request,
    result,
    cause,
  });
}

/** The answer went silent past the idle timeout, or the turn ran past its time. */
export function timeoutError(request: TurnRequest, result: TurnResult, which: "idle_timeout" | "turn_timeout", ms: number): ProviderError {
  const what = which === "idle_timeout" ? `sent nothing for ${ms} ms` : `did not finish within ${ms} ms`;
  return new ProviderError({
    kind: "timeout",
    provider: request.provider,
    status: 200,
    errorType: which,
    message: `the ${request.provider} stream ${what}; ${kept(result)}`,
    retryable: true,
    body: null,
    request,
    result,
  });
}

/**
 * A size limit of the stream was hit: one event grew past `maxEventBytes` before it was complete
 * (`event_too_large`), or the whole answer past `maxReplyBytes` (`reply_too_large`).
 */
export function limitError(request: TurnRequest, result: TurnResult, limit: "event_too_large" | "reply_too_large", max: number): ProviderError {
  const what =
    limit === "event_too_large"
      ? `one event of the ${request.provider} stream grew past ${max} bytes (maxEventBytes) before it ended`
      : `the ${request.provider} stream grew past ${max} bytes (maxReplyBytes) before its terminal event`;
  return new ProviderError({
    kind: "limit",
    provider: request.provider,
    status: 200,
    errorType: limit,
    message: `${what}; reading stopped, ${kept(result)}`,
    retryable: false,
    body: null,
    request,
    result,
  });
}

/** The module's memory budget ran out while decoding the stream (`setMemoryBudget`). */
export function memoryError(request: TurnRequest, result: TurnResult): ProviderError {
  return new ProviderError({
    kind: "limit",
    provider: request.provider,
    status: 200,
    errorType: "out_of_memory",
    message: `the module's memory budget (setMemoryBudget) ran out while decoding the ${request.provider} stream; reading stopped, ${kept(result)}`,
    retryable: false,
    body: null,
    request,
    result,
  });
}

/** At most `max` bytes of a body as text (an error answer's body: the rest is not read). */
export async function boundedText(response: TurnFetchResponse, max: number): Promise<string | null> {
  try {
    if (response.body === null) return (await response.text()).slice(0, max);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const r = await reader.read();
      if (r.done || r.value === undefined) break;
      chunks.push(r.value.subarray(0, Math.max(0, max - size)));
      size += r.value.length;
      if (size >= max) {
        reader.cancel().catch(() => {});
        break;
      }
    }
    const all = new Uint8Array(Math.min(size, max));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.length;
    }
    return new TextDecoder().decode(all);
  } catch {
    return null;
  }
}

/**
 * A 2xx answer that is neither a stream nor a whole response (an HTML login page of a proxy,
 * an empty body, a 204): not retryable, since the same request gets the same page.
 */
export function unexpectedError(request: TurnRequest, status: number, contentType: string, excerpt: string, result: TurnResult | undefined): ProviderError {
  const what = excerpt.trim() === "" ? "an empty body" : `${JSON.stringify(excerpt.slice(0, EXCERPT_CHARS))}${excerpt.length > EXCERPT_CHARS ? "…" : ""}`;
  return new ProviderError({
    kind: "unexpected",
    provider: request.provider,
    status,
    errorType: "unexpected_response",
    message: `${request.provider} answered ${status} with ${contentType === "" ? "no content type" : contentType} that holds no ${request.provider} stream or response: ${what}`,
    retryable: false,
    body: excerpt.slice(0, EXCERPT_CHARS),
    request,
    ...(result === undefined ? {} : { result }),
  });
}

/** How much of an unexpected answer an error keeps. */
const EXCERPT_CHARS = 300;
