// The one way turnwire sends a request (streamTurn, repairingFetch, its relay; internal module):
// headers checked before anything goes out, a fetch that throws synchronously treated as one that
// rejects, and the redirect policy — a key and a conversation never follow a redirect to another
// origin.
import { networkError } from "./classify.mjs";
import { ProviderError } from "./errors.mjs";
import { badHeader, originOf, redactError } from "./secrets.mjs";
import type { TurnRequest } from "./types.mjs";

/** Same-origin redirects followed per request, at most. */
export const MAX_REDIRECTS = 5;

/** What the policy reads of an answer (a `Response` fits). */
interface Answer {
  status?: unknown;
  type?: unknown;
  headers?: { get(name: string): string | null } | null;
  body?: { cancel?: (reason?: unknown) => Promise<void>; getReader?: () => { cancel(reason?: unknown): Promise<void> } } | null;
}

/** A `Request`-shaped input (what an SDK may hand its fetch). */
interface RequestLike {
  url: string;
  method?: string;
  headers?: unknown;
  signal?: { aborted?: boolean } | null;
}

const REDIRECT = new Set([301, 302, 303, 307, 308]);

/**
 * Sends `input` with `send` under the redirect policy: `redirect: "manual"`; a 307 or 308 to the
 * same origin (scheme, host and port) is followed with the same method, headers and body, at
 * most `MAX_REDIRECTS` times, and so is a 301, 302 or 303 of a GET or HEAD. Anything else — a
 * redirect to another origin, one that would turn a POST into a GET, an opaque redirect (what
 * browsers give for `"manual"`: its target cannot be seen), a missing or unreadable `Location`,
 * a body that cannot be sent twice, too many hops — is a `ProviderError` (`kind: "http"`,
 * `errorType: "redirect_refused"`, not retryable) whose message names the origins, never a path,
 * query or key. A caller's own `redirect: "manual"` or `"error"` is left as it is.
 *
 * Before sending: a header `fetch` would refuse (a line break or NUL in a key) is a
 * `ProviderError` (`kind: "network"`, `errorType: "invalid_header"`, not retryable) that never
 * quotes the value. A `send` that throws, synchronously or not, is a `kind: "network"` error
 * (`networkError`) with the secrets taken out; an abort of the request's signal rejects with
 * the fetch's own error, for the caller to recognise.
 */
export async function safeFetch<R>(
  send: (input: never, init: never) => Promise<R> | R,
  input: unknown,
  options: object | undefined,
  request: TurnRequest,
  secrets: readonly string[],
): Promise<R> {
  const init = options as Record<string, unknown> | undefined;
  const call = send as unknown as (input: unknown, init: unknown) => Promise<R> | R;
  const req = typeof input === "object" && input !== null && !(input instanceof URL) ? (input as RequestLike) : undefined;
  let href = req?.url ?? String(input);
  const headers = init?.["headers"] ?? req?.headers;
  const bad = badHeader(headers);
  if (bad !== undefined) {
    throw new ProviderError({
      kind: "network",
      provider: request.provider,
      status: 0,
      errorType: "invalid_header",
      message: `${request.provider}: the request was not sent: ${bad}`,
      retryable: false,
      request,
    });
  }
  const signal = (init?.["signal"] ?? req?.signal) as { aborted?: boolean } | null | undefined;
  const attempt = async (to: unknown, with_: Record<string, unknown>): Promise<R> => {
    try {
      return await call(to, with_);
    } catch (e) {
      if (signal?.aborted === true) throw e;
      throw redactError(networkError(request, e), secrets);
    }
  };
  const own = init?.["redirect"];
  if (own === "manual" || own === "error") return attempt(input, init ?? {});

  let target: unknown = input;
  let current: Record<string, unknown> = { ...init, redirect: "manual" };
  for (let hop = 0; ; hop++) {
    const answer = await attempt(target, current);
    const a = (typeof answer === "object" && answer !== null ? answer : {}) as Answer;
    const status = typeof a.status === "number" ? a.status : 0;
    const opaque = a.type === "opaqueredirect";
    if (!opaque && !REDIRECT.has(status)) return answer;
    discard(a);
    const refuse = (why: string, to?: string): ProviderError =>
      new ProviderError({
        kind: "http",
        provider: request.provider,
        status,
        errorType: "redirect_refused",
        message: `${request.provider}: refused to follow ${opaque ? "a redirect" : `a ${status} redirect`} from ${originOf(href)}${to === undefined ? "" : ` to ${to}`}: ${why}; nothing was sent there`,
        retryable: false,
        body: null,
        request,
      });
    if (opaque) throw refuse("the host hid where it goes (an opaque redirect, as browsers give for redirect: \"manual\")");
    const location = a.headers?.get("location") ?? null;
    if (location === null || location.trim() === "") throw refuse("it has no Location");
    let next: URL;
    try {
      next = new URL(location, href);
    } catch {
      throw refuse("its Location is not a URL");
    }
    if (next.origin === "null" || next.origin !== originOf(href)) throw refuse("another origin (the API key and the request body stay with the origin they were meant for)", originOf(next.href));
    if (next.username !== "" || next.password !== "") throw refuse("its Location holds credentials", originOf(next.href));
    if (hop >= MAX_REDIRECTS) throw refuse(`more than ${MAX_REDIRECTS} redirects`, originOf(next.href));
    const method = String(current["method"] ?? req?.method ?? "GET").toUpperCase();
    const safe = method === "GET" || method === "HEAD";
    if (!safe && status !== 307 && status !== 308) throw refuse(`a ${status} would send the ${method} on as a GET without its body`, originOf(next.href));
    const body = current["body"];
    if (!safe && body === undefined && req !== undefined) throw refuse("the request's body cannot be sent twice", originOf(next.href));
    if (body !== undefined && body !== null && !replayable(body)) throw refuse("the request's body is a stream, which cannot be sent twice", originOf(next.href));
    if (req !== undefined) {
      // the Request's own method, headers and signal go along with the new URL
      current = { method, headers, ...current };
      if (signal !== undefined && signal !== null) current["signal"] = signal;
    }
    target = next.href;
    href = next.href;
  }
}

/** Whether a body can be sent again as it is (text, bytes, a Blob, form data; not a stream). */
function replayable(body: unknown): boolean {
  if (typeof body === "string" || body instanceof ArrayBuffer || ArrayBuffer.isView(body)) return true;
  if (typeof body !== "object" || body === null) return false;
  const b = body as { getReader?: unknown; [Symbol.asyncIterator]?: unknown; pipe?: unknown };
  return typeof b.getReader !== "function" && typeof b[Symbol.asyncIterator] !== "function" && typeof b.pipe !== "function";
}

/** Lets go of a redirect's body (the connection is freed; nothing of it is read). */
function discard(answer: Answer): void {
  try {
    const body = answer.body;
    if (body === undefined || body === null) return;
    if (typeof body.cancel === "function") body.cancel().catch(() => {});
    else body.getReader?.().cancel().catch(() => {});
  } catch {
    // a locked or odd body: nothing to free
  }
}
