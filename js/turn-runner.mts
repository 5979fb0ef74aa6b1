// The turn runner (internal module): one streamed turn in four phases, each returning a small
// record — prepare (synchronous: the request, its body and the limits are fixed before anything
// is awaited) → send (the POST, up to a 2xx answer) → read (framing and decoding the answer, the
// deltas handed on as they come) → settle (the message appended, then the result or the error
// that says how the turn ended). Rust renders and decodes; this file only moves bytes.
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
import { accountLabel } from "./account.mjs";
import type { RenderCore } from "./core.mjs";
import { isProviderError } from "./errors.mjs";
import { hostSigningName } from "./host-http.mjs";
import { providerRequest, type ProviderRequest } from "./providers.mjs";
import { safeFetch } from "./safe-fetch.mjs";
import { AWS_REGION, providerHttp, WIRE_HTTP, wireOf, withBodyHeaders } from "./provider-http.mjs";
import { redactDeep, redactUrl, secretsOf } from "./secrets.mjs";
import { signAwsRequest } from "./sigv4.mjs";
import { JsonArrayParser, SseParser } from "./sse.mjs";
import { AFTER_DONE_GRACE_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_ERROR_BODY_BYTES, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_REPLY_BYTES, DEFAULT_TURN_TIMEOUT_MS } from "./turn-limits.mjs";
import { own, type Ownership } from "./turn-owner.mjs";
import { ABORTED, EXCERPT_BYTES, HTML, limitMs, race, TIMEOUT } from "./turn-wait.mjs";
import type { RenderedRequest, StreamDecoder, StreamDelta, StreamOutcome } from "./turnwire.js";
import type { AwsTurnCredentials, StreamTurnOptions, TurnByteReader, TurnFetch, TurnFetchInit, TurnFetchResponse, TurnRequest, TurnResult } from "./types.mjs";

/** Where the runner hands the deltas (the TurnStream's queue). */
export interface DeltaSink {
  push(d: StreamDelta): void;
}

/** Content types that carry a JSON array or NDJSON rather than SSE. */
const JSON_FRAMED = /^\s*application\/(?:json|x-ndjson|jsonl|json-seq)\b/i;

/** A limit that stopped the turn before its end. */
type Stop = "idle_timeout" | "turn_timeout" | "event_too_large" | "reply_too_large";

/** The caller's signal. */
type Signal = StreamTurnOptions["signal"];

/** The turn's limits, read fail-closed from its options (a bad value rejects before sending). */
interface Limits {
  idleMs: number;
  turnMs: number;
  maxEventBytes: number;
  maxReplyBytes: number;
  maxErrorBodyBytes: number;
  /** When the whole turn's time is up (`Date.now()` scale). */
  turnEnds: number;
}

/** What `prepare` fixed: where the turn goes, its rendered body, the decoder's settings, the limits. */
interface Prepared {
  req: ProviderRequest;
  /** The request as errors and the result show it (no credentials). */
  request: TurnRequest;
  /** The caller's secrets, kept out of every text handed back. */
  secrets: string[];
  rendered: RenderedRequest;
  fetchFn: TurnFetch;
  /** The endpoint in the message's provenance (the render's). */
  endpoint: string;
  /** The account in the message's provenance (the render's): the caller's, else the key's label. */
  account: string | undefined;
  idSeed: string;
  limits: Limits;
  /** The credentials and signing name a SigV4 turn is signed with at each send (Bedrock). */
  aws: { credentials: AwsTurnCredentials; service: string } | undefined;
}

/** What `send` got: the answer to read (none after an abort or a timeout), and the limit that ended the wait. */
interface Sent {
  response: TurnFetchResponse | null;
  stopped: Stop | null;
}

/** What `read` saw, beyond the deltas it handed on and what the decoder holds. */
interface Read {
  /** The limit that stopped the turn (the wait for the answer, or reading it). */
  stopped: Stop | null;
  /** Why reading stopped early (not an abort). */
  broken: unknown;
  /** The payload of the first provider error event. */
  errorEvent: unknown;
  /** A 2xx answer that held no event: its content type and first characters. */
  unexpected: { status: number; contentType: string; excerpt: string } | null;
  /** The module's memory budget ran out while decoding. */
  memoryRanOut: boolean;
}

/** The caller's abort signal as `send` and `read` share it. */
class AbortWatch {
  /** The signal aborted (or the answer is not to be read because of it). */
  aborted = false;
  /** The body reader to cancel on an abort, once there is one. */
  reader: TurnByteReader | null = null;
  /** Settles with ABORTED when the signal aborts. */
  readonly wait: Promise<typeof ABORTED>;
  #wake: () => void = () => {};

  constructor(readonly signal: Signal) {
    this.wait = new Promise<typeof ABORTED>((resolve) => {
      this.#wake = () => resolve(ABORTED);
    });
  }

  /** The signal's abort listener. */
  readonly onAbort = (): void => {
    this.aborted = true;
    this.#wake();
    this.reader?.cancel(this.signal?.reason).catch(() => {});
  };
}

/** A turn on `options.conversation` (owned for the turn, then given back) or a transcript. */
export async function run(options: StreamTurnOptions, queue: DeltaSink, core: RenderCore): Promise<TurnResult> {
  const { conversation } = options;
  const owner = conversation !== undefined && conversation !== null ? own(conversation) : undefined;
  try {
    return await runOwned(options, queue, core, owner);
  } finally {
    owner?.release();
  }
}

/** A turn whose conversation (if any) `owner` holds: prepare → send → read → settle. */
export async function runOwned(options: StreamTurnOptions, queue: DeltaSink, core: RenderCore, owner: Ownership | undefined): Promise<TurnResult> {
  const prepared = prepare(options, core);
  const { provider, model, signal } = options;
  // The render entries load the stream decoders on the first streamed turn (after the render:
  // the request is fixed before anything is awaited).
  const Decoder = await core.streamDecoder();
  const { maxEventBytes } = prepared.limits;
  const decoder = new Decoder(provider, {
    model,
    endpoint: prepared.endpoint,
    idSeed: prepared.idSeed,
    ...(prepared.account === undefined ? {} : { account: prepared.account }),
    // the decoder reads binary event-stream frames up to the turn's event limit (Bedrock)
    ...(Number.isFinite(maxEventBytes) ? { maxEventBytes } : {}),
    ...(prepared.req.host === undefined ? {} : { host: prepared.req.host }),
  });
  const watch = new AbortWatch(signal);
  let outcome: StreamOutcome;
  let seen: Read = { stopped: null, broken: undefined, errorEvent: undefined, unexpected: null, memoryRanOut: false };
  try {
    if (signal?.aborted) {
      watch.aborted = true;
    } else {
      signal?.addEventListener("abort", watch.onAbort, { once: true });
      const sent = await send(prepared, watch);
      seen = await read(sent, prepared, decoder, queue, core, watch);
    }
    outcome = decoder.finish();
  } finally {
    signal?.removeEventListener("abort", watch.onAbort);
    decoder.free();
  }
  return settle(prepared, outcome, seen, watch.aborted, owner, core, provider);
}

/**
 * Phase 1, synchronous: everything that depends on the caller's history happens now, so that
 * later changes to the conversation do not change this turn's request. Throws a `TypeError` for
 * an unusable base URL, no history or no fetch, the render's `TurnwireError`, or a bad limit.
 */
function prepare(options: StreamTurnOptions, core: RenderCore): Prepared {
  const { provider, model, conversation, transcript } = options;
  const aws = awsSigning(options);
  const region = options.aws?.region ?? options.region;
  const host = options.host ?? options.render?.host ?? undefined;
  const { project, resource } = options;
  const req = providerRequest({ provider, model, apiKey: options.apiKey, baseURL: options.baseURL, region, host, project, resource, headers: options.headers });
  const request: TurnRequest = { url: redactUrl(req.url), provider, model };
  const secrets = secretsOf(options);
  const render = options.render ?? {};
  // continuity tokens bound to an account stay with it: the caller's label, else one derived
  // from the key (never the key itself)
  const key = typeof options.apiKey === "string" && options.apiKey !== "" ? options.apiKey : aws?.credentials.accessKeyId;
  const account = render.account ?? (key === undefined ? undefined : accountLabel(key));
  const renderOptions = {
    endpoint: req.baseURL,
    ...(account === undefined ? {} : { account }),
    ...render,
    ...(host === undefined ? {} : { host }),
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
  const fetchFn: TurnFetch | undefined = options.fetch ?? (globalThis.fetch as TurnFetch | undefined);
  if (typeof fetchFn !== "function") throw new TypeError("no fetch: this host has no globalThis.fetch; pass `fetch`");
  const idSeed = options.idSeed ?? `turn-${size}`;

  // a limit that is not one of its documented values rejects the turn before anything is sent
  const idleMs = limitMs("idleTimeoutMs", options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS);
  const turnMs = limitMs("timeoutMs", options.timeoutMs, DEFAULT_TURN_TIMEOUT_MS);
  const maxEventBytes = limitMs("maxEventBytes", options.maxEventBytes, DEFAULT_MAX_EVENT_BYTES);
  const maxReplyBytes = limitMs("maxReplyBytes", options.maxReplyBytes, DEFAULT_MAX_REPLY_BYTES);
  const maxErrorBodyBytes = limitMs("maxErrorBodyBytes", options.maxErrorBodyBytes, DEFAULT_MAX_ERROR_BODY_BYTES);
  const limits: Limits = { idleMs, turnMs, maxEventBytes, maxReplyBytes, maxErrorBodyBytes, turnEnds: Date.now() + turnMs };

  // The same endpoint in the message's provenance as in the render: continuity metadata is
  // replayed only to the endpoint that produced it.
  return { req, request, secrets, rendered, fetchFn, endpoint: renderOptions.endpoint ?? req.baseURL, account, idSeed, limits, aws };
}

/**
 * The SigV4 signing of a turn given `aws` credentials: a TypeError for a provider that is not on
 * AWS, for both `aws` and `apiKey`, or for credentials without their strings (never showing
 * them).
 */
function awsSigning(options: StreamTurnOptions): Prepared["aws"] {
  const { aws, provider } = options;
  if (aws === undefined || aws === null) return undefined;
  const service = options.host !== undefined ? hostSigningName(options.host, provider) : providerHttp(provider)?.signingName;
  if (service === undefined) throw new TypeError(`${provider} does not take AWS credentials (\`aws\`): give its apiKey`);
  if (options.apiKey !== undefined) throw new TypeError(`give ${provider} an apiKey (a Bedrock API key, sent as Bearer) or aws credentials (SigV4), not both`);
  if (typeof aws !== "object" || typeof aws.accessKeyId !== "string" || aws.accessKeyId === "" || typeof aws.secretAccessKey !== "string" || aws.secretAccessKey === "") {
    throw new TypeError("aws needs accessKeyId and secretAccessKey strings (and region); they are not shown");
  }
  if (aws.sessionToken !== undefined && typeof aws.sessionToken !== "string") throw new TypeError("aws.sessionToken must be a string when given; it is not shown");
  if (typeof aws.region !== "string" || !AWS_REGION.test(aws.region)) throw new TypeError(`aws.region must be an AWS region such as "us-east-1", got ${JSON.stringify(String(aws.region)).slice(0, 40)}`);
  return { credentials: aws, service };
}

/** The time left to wait for the next thing: the idle limit, within the turn's. */
function waitMs(limits: Limits, idle: number): { ms: number; why: "idle_timeout" | "turn_timeout" } {
  const left = limits.turnEnds - Date.now();
  return idle < left ? { ms: idle, why: "idle_timeout" } : { ms: Math.max(0, left), why: "turn_timeout" };
}

/**
 * Phase 2: POSTs the body (under the redirect policy, safe-fetch.mts) and waits for the answer,
 * within the idle and turn limits. Throws the `ProviderError` of a non-2xx answer or of no
 * answer (`network`), unless the signal aborted.
 */
async function send(p: Prepared, watch: AbortWatch): Promise<Sent> {
  const { signal } = watch;
  // the headers the body needs (Anthropic's betas and header params, ANT-42) go with it
  let headers = withBodyHeaders(p.req.headers, p.rendered.headers);
  if (p.aws !== undefined) {
    // SigV4 signs the URL as fetch sends it (its WHATWG form), these headers and this body
    const { credentials, service } = p.aws;
    const region = credentials.region;
    headers = { ...headers, ...(await signAwsRequest({ method: "POST", url: new URL(p.req.url).href, headers, body: p.rendered.body, credentials, region, service })) };
  }
  const init: TurnFetchInit = { method: "POST", headers, body: p.rendered.body };
  if (signal !== undefined && signal !== null) init.signal = signal;
  let response: TurnFetchResponse | null = null;
  let stopped: Stop | null = null;
  // the redirect policy: never to another origin (safe-fetch.mts)
  const answer = safeFetch(p.fetchFn, p.req.url, init, p.request, p.secrets);
  const wait = waitMs(p.limits, p.limits.idleMs);
  try {
    const got = await race(answer, wait.ms, watch.wait);
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
    if (!watch.aborted && !signal?.aborted) throw isProviderError(e) ? e : networkError(p.request, e);
    watch.aborted = true;
  }
  if (response !== null && (response.status < 200 || response.status > 299)) {
    throw httpError(p.request, response.status, response.headers, await boundedText(response, p.limits.maxErrorBodyBytes));
  }
  return { response, stopped };
}

/**
 * Phase 3: frames the answer (SSE, or a JSON array / NDJSON), decodes each event and hands the
 * deltas to `queue` as they come, until the stream's last event, its end, an abort or a limit.
 */
async function read(
  sent: Sent,
  p: Prepared,
  decoder: StreamDecoder,
  queue: DeltaSink,
  core: RenderCore,
  watch: AbortWatch,
): Promise<Read> {
  const { response } = sent;
  const { signal } = watch;
  const { idleMs, maxEventBytes, maxReplyBytes } = p.limits;
  const seen: Read = { stopped: sent.stopped, broken: undefined, errorEvent: undefined, unexpected: null, memoryRanOut: false };
  const contentType = response?.headers.get("content-type") ?? "";
  if (response !== null && watch.aborted) {
    // A fetch that ignored the signal answered anyway: nothing of it is read.
    response.body?.getReader().cancel(signal?.reason).catch(() => {});
  } else if (response !== null && (response.status === 204 || HTML.test(contentType))) {
    // A proxy's login page or a 204: no stream will come.
    const excerpt = response.status === 204 ? "" : ((await boundedText(response, EXCERPT_BYTES)) ?? "");
    seen.unexpected = { status: response.status, contentType, excerpt };
  } else if (response !== null) {
    let events = 0;
    let head = ""; // the first characters of the answer, should it hold no event
    const text = new TextDecoder();
    let sinceEvent = 0; // bytes read since the last complete event
    let received = 0; // bytes read in all
    let doneAt = Infinity; // when a chat stream's terminal event arrived (its [DONE] may follow)
    const push = (data: string | Uint8Array): void => {
      if (seen.memoryRanOut) return; // the rest of a chunk after memory ran out
      sinceEvent = 0;
      const bytes = typeof data !== "string";
      if (!bytes) events++;
      let deltas: StreamDelta[];
      try {
        deltas = decoder.push(data);
      } catch (e) {
        // The module's memory budget ran out: the event is kept, reading stops.
        if (!isOutOfMemory(core, e)) throw e;
        seen.memoryRanOut = true;
        return;
      }
      for (const d of deltas) {
        // bytes (event-stream frames): an answer that held events decoded some
        if (bytes && d.type !== "error") events++;
        if (d.type === "error" && d.code === "provider_error" && seen.errorEvent === undefined) seen.errorEvent = bytes ? exceptionPayload(d) : parseBody(data);
        // a frame past the turn's event limit is never buffered: the turn stops as on SSE
        if (d.type === "error" && d.code === "frame_too_large") seen.stopped = "event_too_large";
        if (d.type === "done" && doneAt === Infinity) doneAt = Date.now();
        queue.push(d.type === "error" ? redactDeep(d, p.secrets) : d);
      }
    };
    // a keep-alive between events starts the count again; one inside an unfinished event does not
    const onComment = (): void => {
      if (framing instanceof SseParser && !framing.inEvent) sinceEvent = 0;
    };
    // the wire's framing: AWS event-stream bytes go to the decoder as they come (it reads the
    // frames), NDJSON and JSON arrays are cut into values, anything else is SSE
    const wireFraming = p.req.framing ?? WIRE_HTTP[wireOf(p.request.provider)].framing;
    const framing =
      wireFraming === "event-stream"
        ? { feed: (chunk: Uint8Array): void => push(chunk), end: (): void => {} }
        : wireFraming === "ndjson" || JSON_FRAMED.test(response.headers.get("content-type") ?? "")
          ? new JsonArrayParser(push)
          : new SseParser({ onEvent: (e) => push(e.data), onComment });
    if (response.body === null) {
      seen.unexpected = { status: response.status, contentType, excerpt: "" };
    } else {
      const reader = response.body.getReader();
      watch.reader = reader;
      if (signal?.aborted) watch.onAbort();
      let closed = false;
      try {
        for (;;) {
          // After the terminal event of a chat stream, only its usage chunk and [DONE] may
          // follow, within AFTER_DONE_GRACE_MS of it (keep-alives do not extend that).
          const graceLeft = doneAt + AFTER_DONE_GRACE_MS - Date.now();
          const wait = waitMs(p.limits, Math.min(idleMs, Math.max(0, graceLeft)));
          const r = await race(reader.read(), wait.ms, watch.wait);
          if (r === ABORTED) break;
          if (r === TIMEOUT) {
            if (doneAt !== Infinity) closed = true;
            else seen.stopped = wait.why;
            break;
          }
          if (r.done) break;
          received += r.value.length;
          if (received > maxReplyBytes) {
            // the chunk that would take the answer past the limit is not decoded
            seen.stopped = "reply_too_large";
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
          if (seen.memoryRanOut || seen.stopped !== null) break;
          if (sinceEvent > maxEventBytes) {
            seen.stopped = "event_too_large";
            break;
          }

          if (watch.aborted) break;
        }
      } catch (e) {
        if (!watch.aborted) seen.broken = e;
      }
      if (watch.aborted || closed || seen.stopped !== null || seen.memoryRanOut) reader.cancel(signal?.reason).catch(() => {});
      else framing.end();
      // The body ended cleanly and held not one event: not a stream, not a response (only
      // keep-alive comments before the end is a stream cut short: incomplete, retryable).
      if (events === 0 && !watch.aborted && seen.stopped === null && seen.broken === undefined && !head.trimStart().startsWith(":")) {
        seen.unexpected = { status: response.status, contentType, excerpt: head };
      }
      try {
        reader.releaseLock();
      } catch {
        // a reader with a pending read (after a cancel) may refuse; nothing to release then
      }
    }
  }
  return seen;
}

/**
 * Phase 4: appends the turn's message through `owner` (a partial one too), then returns the
 * result, or throws the error that says how the turn ended (a stream error event, an answer
 * that was no stream, a limit, the memory budget, a timeout, a stream cut short). An aborted
 * turn resolves.
 */
function settle(p: Prepared, outcome: StreamOutcome, seen: Read, aborted: boolean, owner: Ownership | undefined, core: RenderCore, provider: string): TurnResult {
  const { request, rendered, limits } = p;
  const wasAborted = aborted && outcome.incomplete;
  let appended = false;
  if (owner !== undefined && outcome.message.blocks.length > 0) {
    try {
      owner.append(outcome.message);
      appended = true;
    } catch (e) {
      // Out of memory again: the message stays in the error's .result, the conversation as it was.
      if (!seen.memoryRanOut || !isOutOfMemory(core, e)) throw e;
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
    throw streamError(request, failure.errorType ?? "error", `${provider}: ${failure.message}`, seen.errorEvent ?? null, result);
  }
  const { stopped, unexpected } = seen;
  if (unexpected !== null) {
    throw unexpectedError(request, unexpected.status, unexpected.contentType, unexpected.excerpt, result.message.blocks.length > 0 ? result : undefined);
  }
  if (stopped === "event_too_large") throw limitError(request, result, stopped, limits.maxEventBytes);
  if (stopped === "reply_too_large") throw limitError(request, result, stopped, limits.maxReplyBytes);
  if (seen.memoryRanOut) throw memoryError(request, result);
  if (stopped !== null && outcome.incomplete) throw timeoutError(request, result, stopped, stopped === "idle_timeout" ? limits.idleMs : limits.turnMs);
  // A read that broke after the terminal event lost nothing: only an unfinished message fails.
  if (outcome.incomplete) throw incompleteError(request, result, seen.broken);
  return result;
}

/** The default id seed's part that grows with the history: its messages, or its text's length. */
function historySize(transcript: NonNullable<StreamTurnOptions["transcript"]>): string {
  if (typeof transcript === "string") return `t${transcript.length}`;
  return String(Array.isArray(transcript) ? transcript.length : transcript.messages.length);
}

/**
 * The payload of an event-stream exception as the AWS SDKs show it (`{ throttlingException:
 * { message } }`), from the decoder's error (whose message is `the provider reported an error
 * (type): message`).
 */
function exceptionPayload(d: Extract<StreamDelta, { type: "error" }>): unknown {
  const type = d.errorType ?? "error";
  const prefix = `the provider reported an error (${type}): `;
  return { [type]: { message: d.message.startsWith(prefix) ? d.message.slice(prefix.length) : d.message } };
}

/** A TurnwireError of the module's memory budget (`setMemoryBudget`). */
function isOutOfMemory(core: RenderCore, e: unknown): boolean {
  return core.isTurnwireError(e) && e.code === "out_of_memory";
}
