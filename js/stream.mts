// streamTurn: one model turn over the injected fetch. Rust renders the request body and decodes
// the stream; this file only moves bytes: fetch, framing (SSE or a JSON array), the abort signal,
// and handing deltas and the result to the caller.
import {
  boundedText,
  httpError,
  incompleteError,
  limitError,
  memoryError,
  networkError,
  parseBody,
  streamError,
  timeoutError,
  unexpectedError,
} from "./classify.mjs";
import { getCore, getRenderCore, type RenderCore } from "./core.mjs";
import { isProviderError } from "./errors.mjs";
import { providerRequest } from "./providers.mjs";
import { safeFetch } from "./safe-fetch.mjs";
import { redactDeep, redactError, redactUrl, secretsOf } from "./secrets.mjs";
import { JsonArrayParser, SseParser } from "./sse.mjs";
import { AFTER_DONE_GRACE_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_ERROR_BODY_BYTES, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_REPLY_BYTES, DEFAULT_TURN_TIMEOUT_MS } from "./turn-limits.mjs";
import { ABORTED, EXCERPT_BYTES, HTML, limitMs, race, TIMEOUT } from "./turn-wait.mjs";
import { own, type Ownership } from "./turn-owner.mjs";
import type { RenderedRequest, StreamDelta, StreamOutcome } from "./turnwire.js";
import type {
  StreamTurnOptions,
  TurnByteReader,
  TurnFetch,
  TurnFetchInit,
  TurnFetchResponse,
  TurnRequest,
  TurnResult,
  TurnStream,
} from "./types.mjs";

/**
 * Runs one model turn: renders the history with turnwire for `provider` and `model` (with
 * `render` options and the streaming switches), POSTs it with `fetch` to the provider's streaming
 * endpoint, frames the answer (SSE, or Gemini's JSON array), decodes it with a `StreamDecoder`,
 * and returns a `TurnStream`: iterate it for deltas, await it for the `TurnResult`. With
 * `conversation`, the turn's message is appended to it (a partial one too), so the next render
 * continues from it; with `transcript`, append `result.message` yourself. Runs one turn at a
 * time per conversation: a second `streamTurn` on a conversation whose turn is in flight rejects
 * with a `TurnInFlightError`, and so does its `free()` until the turn settles.
 *
 * Failures reject the result (and end the loop with the same error); the function itself never
 * throws:
 * - a non-2xx answer: a `ProviderError` (`kind: "http"`: status, the provider's `errorType` and
 *   message, `retryable`, `retryAfterMs`, the parsed `body`); nothing is appended;
 * - no answer (fetch threw, synchronously or not): `kind: "network"`, `status: 0`, retryable;
 *   nothing is appended;
 * - a redirect turnwire does not follow: `kind: "http"`, `errorType: "redirect_refused"`, not
 *   retryable. The request goes with `redirect: "manual"`; only a 307 or 308 to the same origin
 *   is followed (the same method, headers and body, at most 5 hops): a key and the conversation
 *   never go to another origin. A `fetch` of yours that ignores `redirect` follows as it likes;
 * - a header value `fetch` would refuse (a key with a line break or a NUL): `kind: "network"`,
 *   `errorType: "invalid_header"`, not retryable, nothing sent, the value never in the message;
 * - an error event inside the stream (Anthropic `error`, Responses `response.failed`, an error
 *   chunk): `kind: "stream"`, retryable per its type, with `.result`, the partial turn, whose
 *   message was appended;
 * - a stream that ended or broke before its terminal event: `kind: "incomplete"`,
 *   `errorType: "incomplete_stream"`, retryable, with `.result` (appended);
 * - the module's memory budget (`setMemoryBudget`) ran out while decoding: `kind: "limit"`,
 *   `errorType: "out_of_memory"`, not retryable, with `.result` (appended when memory allowed);
 * - a render error (bad options or history, or `out_of_memory`): the `TurnwireError`; an
 *   unusable base URL: a `TypeError`.
 *
 * No error, event or result holds the API key, an auth header's value or a base URL's password
 * (`https://user:password@host` is sent as basic auth and shown without it).
 *
 * Aborting `signal` is not a failure: the response body is cancelled and the result resolves
 * with `aborted: true`, `incomplete: true` and what arrived, appended (nothing when nothing
 * arrived); the next render closes the open tool calls.
 *
 * @example
 * ```ts
 * import { Conversation, streamTurn } from "turnwire";
 *
 * const conversation = new Conversation([{ speaker: "human", blocks: [{ type: "text", text: "What is in src/?" }] }]);
 * const turn = streamTurn({
 *   provider: "anthropic",
 *   model: "claude-sonnet-4-5",
 *   apiKey: process.env.ANTHROPIC_API_KEY,
 *   conversation,
 *   render: { tools: [{ name: "list_files", parameters: { type: "object", properties: { path: { type: "string" } } } }] },
 * });
 * for await (const d of turn) if (d.type === "text") process.stdout.write(d.text);
 * const { message, stopReason, usage } = await turn; // message is already in `conversation`
 * ```
 */
export function streamTurn(options: StreamTurnOptions): TurnStream {
  return new Turn(options, getCore());
}

/**
 * `streamTurn` of `turnwire/render`: the same turn on the render module, whose stream decoders
 * load on the first streamed turn (exported there as `streamTurn`; its declaration is
 * `streamTurn`'s).
 * @internal
 */
export function streamTurnOnRenderModule(options: StreamTurnOptions): TurnStream {
  return new Turn(options, getRenderCore());
}

/**
 * A turn on a conversation its caller already owns (the router's attempts, the agent loop):
 * the same turn as `streamTurn`, appending through `owner`.
 * @internal
 */
export function streamOwnedTurn(options: StreamTurnOptions, core: RenderCore, owner: Ownership): TurnStream {
  return new Turn(options, core, owner);
}

/** Deltas from the reader to the consumer: buffered until iterated, never blocking the reader. */
class DeltaQueue {
  #items: StreamDelta[] = [];
  #head = 0;
  #waiting: ((r: IteratorResult<StreamDelta>) => void) | null = null;
  #failWaiting: ((e: unknown) => void) | null = null;
  #ended = false;
  #error: unknown = undefined;
  #failed = false;
  #detached = false;

  push(d: StreamDelta): void {
    if (this.#ended || this.#detached) return;
    const wake = this.#waiting;
    if (wake !== null) {
      this.#waiting = null;
      this.#failWaiting = null;
      wake({ value: d, done: false });
    } else {
      this.#items.push(d);
    }
  }

  end(error?: { error: unknown }): void {
    if (this.#ended) return;
    this.#ended = true;
    if (error !== undefined) {
      this.#failed = true;
      this.#error = error.error;
    }
    const wake = this.#waiting;
    const fail = this.#failWaiting;
    this.#waiting = null;
    this.#failWaiting = null;
    if (this.#failed && fail !== null) fail(this.#error);
    else if (wake !== null) wake({ value: undefined, done: true });
  }

  next(): Promise<IteratorResult<StreamDelta>> {
    if (this.#head < this.#items.length) {
      const value = this.#items[this.#head++] as StreamDelta;
      if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
        this.#items = this.#items.slice(this.#head);
        this.#head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
    if (this.#detached) return Promise.resolve({ value: undefined, done: true });
    if (this.#ended) {
      if (this.#failed) {
        this.#failed = false; // thrown once; afterwards the iterator is just done
        this.#detached = true;
        return Promise.reject(this.#error);
      }
      return Promise.resolve({ value: undefined, done: true });
    }
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }

  /** The consumer left the loop: drop what is buffered and what comes (the turn goes on). */
  detach(): void {
    this.#detached = true;
    this.#items = [];
    this.#head = 0;
    const wake = this.#waiting;
    this.#waiting = null;
    this.#failWaiting = null;
    wake?.({ value: undefined, done: true });
  }
}

class Turn implements TurnStream {
  readonly result: Promise<TurnResult>;
  readonly #queue = new DeltaQueue();
  #iterated = false;

  constructor(options: StreamTurnOptions, core: RenderCore, owner?: Ownership) {
    // the caller's secrets (key, auth headers, a base URL's password) leave no text turnwire hands back
    const secrets = secretsOf(options ?? {});
    const turn = owner === undefined ? run(options, this.#queue, core) : runOwned(options, this.#queue, core, owner);
    this.result = turn.then(
      (result) => redactResultErrors(result, secrets),
      (error: unknown) => {
        throw redactError(error, secrets);
      },
    );
    this.result.then(
      () => this.#queue.end(),
      (error: unknown) => this.#queue.end({ error }),
    );
  }

  then<A = TurnResult, B = never>(
    onfulfilled?: ((value: TurnResult) => A | PromiseLike<A>) | null,
    onrejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    return this.result.then(onfulfilled, onrejected);
  }

  [Symbol.asyncIterator](): AsyncIterator<StreamDelta> {
    if (this.#iterated) throw new TypeError("a TurnStream can be iterated once");
    this.#iterated = true;
    const queue = this.#queue;
    return {
      next: () => queue.next(),
      return: () => {
        queue.detach();
        return Promise.resolve({ value: undefined, done: true });
      },
    };
  }
}

/** Content types that carry a JSON array or NDJSON rather than SSE. */
const JSON_FRAMED = /^\s*application\/(?:json|x-ndjson|jsonl|json-seq)\b/i;


async function run(options: StreamTurnOptions, queue: DeltaQueue, core: RenderCore): Promise<TurnResult> {
  const { conversation } = options;
  const owner = conversation !== undefined && conversation !== null ? own(conversation) : undefined;
  try {
    return await runOwned(options, queue, core, owner);
  } finally {
    owner?.release();
  }
}

async function runOwned(options: StreamTurnOptions, queue: DeltaQueue, core: RenderCore, owner: Ownership | undefined): Promise<TurnResult> {
  // Everything that depends on the caller's history happens now, synchronously, so that later
  // changes to the conversation do not change this turn's request.
  const { provider, model, conversation, transcript, signal } = options;
  const req = providerRequest({ provider, model, apiKey: options.apiKey, baseURL: options.baseURL, headers: options.headers });
  const request: TurnRequest = { url: redactUrl(req.url), provider, model };
  const secrets = secretsOf(options);
  const render = options.render ?? {};
  const renderOptions = {
    endpoint: req.baseURL,
    ...render,
    provider,
    model,
    extra: { ...req.extra, ...(render.extra ?? {}) },
  };
  // The body comes as JSON text with its id map and diagnostics, in one call (no body objects).
  let rendered: RenderedRequest;
  let size: string;
  if (conversation !== undefined && conversation !== null) {
    rendered = conversation.renderRequest(renderOptions);
    size = String(conversation.length);
  } else if (transcript !== undefined && transcript !== null) {
    rendered = core.renderRequest(transcript, renderOptions);
    size = historySize(transcript);
  } else {
    throw new TypeError("streamTurn needs a `conversation` or a `transcript`");
  }
  const body = rendered.body;
  const fetchFn: TurnFetch | undefined = options.fetch ?? (globalThis.fetch as TurnFetch | undefined);
  if (typeof fetchFn !== "function") throw new TypeError("no fetch: this host has no globalThis.fetch; pass `fetch`");
  const idSeed = options.idSeed ?? `turn-${size}`;

  // a limit that is not one of its documented values rejects the turn before anything is sent
  const idleMs = limitMs("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  const turnMs = limitMs("timeoutMs", options.timeoutMs, DEFAULT_TURN_TIMEOUT_MS);
  const maxEventBytes = limitMs("maxEventBytes", options.maxEventBytes, DEFAULT_MAX_EVENT_BYTES);
  const maxReplyBytes = limitMs("maxReplyBytes", options.maxReplyBytes, DEFAULT_MAX_REPLY_BYTES);
  const maxErrorBodyBytes = limitMs("maxErrorBodyBytes", options.maxErrorBodyBytes, DEFAULT_MAX_ERROR_BODY_BYTES);
  const turnEnds = Date.now() + turnMs;

  // The same endpoint in the message's provenance as in the render: continuity metadata is
  // replayed only to the endpoint that produced it.
  // The render entries load the stream decoders on the first streamed turn (after the render:
  // the request is fixed before anything is awaited).
  const Decoder = await core.streamDecoder();
  const decoder = new Decoder(provider, { model, endpoint: renderOptions.endpoint ?? req.baseURL, idSeed });
  let outcome: StreamOutcome;
  let aborted = false;
  let broken: unknown = undefined; // why reading stopped early (not an abort)
  let errorEvent: unknown = undefined; // the payload of the first provider error event
  let stopped: "idle_timeout" | "turn_timeout" | "event_too_large" | "reply_too_large" | null = null;
  // Set by the decoder callback (a holder: TypeScript does not follow assignments in callbacks).
  const memory = { ranOut: false };
  // A 2xx answer that held no event: its content type and first characters, for the error.
  let unexpected: { status: number; contentType: string; excerpt: string } | null = null;
  let reader: TurnByteReader | null = null;
  let wakeOnAbort: () => void = () => {};
  const abortWait = new Promise<typeof ABORTED>((resolve) => {
    wakeOnAbort = () => resolve(ABORTED);
  });
  const onAbort = (): void => {
    aborted = true;
    wakeOnAbort();
    reader?.cancel(signal?.reason).catch(() => {});
  };
  /** The time left to wait for the next thing: the idle limit, within the turn's. */
  const waitMs = (idle: number): { ms: number; why: "idle_timeout" | "turn_timeout" } => {
    const left = turnEnds - Date.now();
    return idle < left ? { ms: idle, why: "idle_timeout" } : { ms: Math.max(0, left), why: "turn_timeout" };
  };
  try {
    if (signal?.aborted) {
      aborted = true;
    } else {
      signal?.addEventListener("abort", onAbort, { once: true });
      const init: TurnFetchInit = { method: "POST", headers: req.headers, body };
      if (signal !== undefined && signal !== null) init.signal = signal;
      let response: TurnFetchResponse | null = null;
      // the redirect policy: never to another origin (safe-fetch.mts)
      const answer = safeFetch(fetchFn, req.url, init, request, secrets);
      const wait = waitMs(idleMs);
      try {
        const got = await race(answer, wait.ms, abortWait);
        if (got === ABORTED) {
          // Abort wins over a fetch that ignores the signal: its answer, if any, is not read.
          answer.then((r) => r.body?.getReader().cancel(signal?.reason), () => {}).catch(() => {});
        } else if (got === TIMEOUT) {
          stopped = wait.why;
          answer.then((r) => r.body?.getReader().cancel(), () => {}).catch(() => {});
        } else {
          response = got;
        }
      } catch (e) {
        if (!aborted && !signal?.aborted) throw isProviderError(e) ? e : networkError(request, e);
        aborted = true;
      }
      if (response !== null && (response.status < 200 || response.status > 299)) {
        throw httpError(request, response.status, response.headers, await boundedText(response, maxErrorBodyBytes));
      }
      const contentType = response?.headers.get("content-type") ?? "";
      if (response !== null && aborted) {
        // A fetch that ignored the signal answered anyway: nothing of it is read.
        response.body?.getReader().cancel(signal?.reason).catch(() => {});
      } else if (response !== null && (response.status === 204 || HTML.test(contentType))) {
        // A proxy's login page or a 204: no stream will come.
        const excerpt = response.status === 204 ? "" : ((await boundedText(response, EXCERPT_BYTES)) ?? "");
        unexpected = { status: response.status, contentType, excerpt };
      } else if (response !== null) {
        let events = 0;
        let head = ""; // the first characters of the answer, should it hold no event
        const text = new TextDecoder();
        let sinceEvent = 0; // bytes read since the last complete event
        let received = 0; // bytes read in all
        let doneAt = Infinity; // when a chat stream's terminal event arrived (its [DONE] may follow)
        const push = (data: string): void => {
          if (memory.ranOut) return; // the rest of a chunk after memory ran out
          sinceEvent = 0;
          events++;
          let deltas: StreamDelta[];
          try {
            deltas = decoder.push(data);
          } catch (e) {
            // The module's memory budget ran out: the event is kept, reading stops.
            if (!isOutOfMemory(core, e)) throw e;
            memory.ranOut = true;
            return;
          }
          for (const d of deltas) {
            if (d.type === "error" && d.code === "provider_error" && errorEvent === undefined) errorEvent = parseBody(data);
            if (d.type === "done" && doneAt === Infinity) doneAt = Date.now();
            queue.push(d.type === "error" ? redactDeep(d, secrets) : d);
          }
        };
        // a keep-alive between events starts the count again; one inside an unfinished event does not
        const onComment = (): void => {
          if (framing instanceof SseParser && !framing.inEvent) sinceEvent = 0;
        };
        const framing = JSON_FRAMED.test(response.headers.get("content-type") ?? "")
          ? new JsonArrayParser(push)
          : new SseParser({ onEvent: (e) => push(e.data), onComment });
        if (response.body === null) {
          unexpected = { status: response.status, contentType, excerpt: "" };
        } else {
          reader = response.body.getReader();
          if (signal?.aborted) onAbort();
          let closed = false;
          try {
            for (;;) {
              // After the terminal event of a chat stream, only its usage chunk and [DONE] may
              // follow, within AFTER_DONE_GRACE_MS of it (keep-alives do not extend that).
              const graceLeft = doneAt + AFTER_DONE_GRACE_MS - Date.now();
              const wait = waitMs(Math.min(idleMs, Math.max(0, graceLeft)));
              const r = await race(reader.read(), wait.ms, abortWait);
              if (r === ABORTED) break;
              if (r === TIMEOUT) {
                if (doneAt !== Infinity) closed = true;
                else stopped = wait.why;
                break;
              }
              if (r.done) break;
              received += r.value.length;
              if (received > maxReplyBytes) {
                // the chunk that would take the answer past the limit is not decoded
                stopped = "reply_too_large";
                break;
              }
              sinceEvent += r.value.length;
              if (events === 0 && head.length < EXCERPT_BYTES) head += text.decode(r.value.subarray(0, EXCERPT_BYTES), { stream: true });
              framing.feed(r.value);
              // The stream's last event arrived: the turn is over, whatever the connection does.
              if (decoder.closed) {
                closed = true;
                break;
              }
              if (memory.ranOut) break;
              if (sinceEvent > maxEventBytes) {
                stopped = "event_too_large";
                break;
              }

              if (aborted) break;
            }
          } catch (e) {
            if (!aborted) broken = e;
          }
          if (aborted || closed || stopped !== null || memory.ranOut) reader.cancel(signal?.reason).catch(() => {});
          else framing.end();
          // The body ended cleanly and held not one event: not a stream, not a response (only
          // keep-alive comments before the end is a stream cut short: incomplete, retryable).
          if (events === 0 && !aborted && stopped === null && broken === undefined && !head.trimStart().startsWith(":")) {
            unexpected = { status: response.status, contentType, excerpt: head };
          }
          try {
            reader.releaseLock();
          } catch {
            // a reader with a pending read (after a cancel) may refuse; nothing to release then
          }
        }
      }
    }
    outcome = decoder.finish();
  } finally {
    signal?.removeEventListener("abort", onAbort);
    decoder.free();
  }

  const wasAborted = aborted && outcome.incomplete;
  let appended = false;
  if (owner !== undefined && outcome.message.blocks.length > 0) {
    try {
      owner.append(outcome.message);
      appended = true;
    } catch (e) {
      // Out of memory again: the message stays in the error's .result, the conversation as it was.
      if (!memory.ranOut || !isOutOfMemory(core, e)) throw e;
    }
  }
  const result: TurnResult = {
    ...outcome,
    diagnostics: rendered.diagnostics,
    idMap: rendered.idMap,
    toolNames: rendered.toolNames,
    request,
    aborted: wasAborted,
    appended,
  };
  if (wasAborted) return result;
  const failure = outcome.errors.find((e) => e.code === "provider_error");
  if (failure !== undefined) {
    throw streamError(request, failure.errorType ?? "error", `${provider}: ${failure.message}`, errorEvent ?? null, result);
  }
  if (unexpected !== null) {
    throw unexpectedError(request, unexpected.status, unexpected.contentType, unexpected.excerpt, result.message.blocks.length > 0 ? result : undefined);
  }
  if (stopped === "event_too_large") throw limitError(request, result, stopped, maxEventBytes);
  if (stopped === "reply_too_large") throw limitError(request, result, stopped, maxReplyBytes);
  if (memory.ranOut) throw memoryError(request, result);
  if (stopped !== null && outcome.incomplete) throw timeoutError(request, result, stopped, stopped === "idle_timeout" ? idleMs : turnMs);
  // A read that broke after the terminal event lost nothing: only an unfinished message fails.
  if (outcome.incomplete) throw incompleteError(request, result, broken);
  return result;
}


/** The default id seed's part that grows with the history: its messages, or its text's length. */
function historySize(transcript: NonNullable<StreamTurnOptions["transcript"]>): string {
  if (typeof transcript === "string") return `t${transcript.length}`;
  return String(Array.isArray(transcript) ? transcript.length : transcript.messages.length);
}

/** The result with the secrets taken out of its stream problems (a provider may echo a key). */
function redactResultErrors(result: TurnResult, secrets: readonly string[]): TurnResult {
  const errors = redactDeep(result.errors, secrets);
  if (errors !== result.errors) result.errors = errors;
  return result;
}

/** A TurnwireError of the module's memory budget (`setMemoryBudget`). */
function isOutOfMemory(core: RenderCore, e: unknown): boolean {
  return core.isTurnwireError(e) && e.code === "out_of_memory";
}
