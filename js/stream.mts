// streamTurn: one model turn over the injected fetch. Rust renders the request body and decodes
// the stream; the turn runs in turn-runner.mts (prepare → send → read → settle); this file hands
// its deltas and result to the caller (TurnStream).
import { getCore, getRenderCore, type RenderCore } from "./core.mjs";
import { redactDeep, redactError, secretsOf } from "./secrets.mjs";
import type { Ownership } from "./turn-owner.mjs";
import { run, runOwned } from "./turn-runner.mjs";
import type { StreamDelta } from "./turnwire.js";
import type { StreamTurnOptions, TurnResult, TurnStream } from "./types.mjs";

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

/** The result with the secrets taken out of its stream problems (a provider may echo a key). */
function redactResultErrors(result: TurnResult, secrets: readonly string[]): TurnResult {
  const errors = redactDeep(result.errors, secrets);
  if (errors !== result.errors) result.errors = errors;
  return result;
}
