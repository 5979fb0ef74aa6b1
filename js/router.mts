// The router: which provider and model each turn goes to — a manual choice, a round robin or a
// failover — with retries and backoff, and a switch that waits for the turn in flight
// (REQ-915-002, 003, 050). It owns the conversation for the whole turn, every attempt included.
import { getCore, getRenderCore, type RenderCore } from "./core.mjs";
import { MAX_RETRY_AFTER_MS, ProviderError, TurnInFlightError, isProviderError } from "./errors.mjs";
import { streamOwnedTurn } from "./stream.mjs";
import { redactUrl } from "./secrets.mjs";
import { COUNT, DELAY, DELAY_CAP, FACTOR, choiceOption, numberOption, optionError } from "./options.mjs";
import { own, type Ownership } from "./turn-owner.mjs";
import type { AbortSignalLike, AwsTurnCredentials, TurnFetch, TurnRenderOptions, TurnResult, StreamTurnCommonOptions } from "./types.mjs";
import type { Conversation, Host, Provider, StreamDelta } from "./turnwire.js";

/**
 * Where a turn can go: a provider, a model, and how to reach them. `render` options are merged
 * over the turn's (this target's system prompt, thinking, maxTokens…). A `Target` is the
 * caller's configuration, its key included: the router hands back only its `TargetInfo`.
 *
 * @example
 * ```ts
 * const claude: Target = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey: process.env.ANTHROPIC_API_KEY };
 * ```
 */
export interface Target {
  provider: Provider;
  model: string;
  apiKey?: string | undefined;
  /** AWS credentials to sign with instead of an `apiKey` (Bedrock); never in an event. */
  aws?: AwsTurnCredentials | undefined;
  /** The region of a provider whose URL names one (Bedrock), when `aws` does not give it. */
  region?: string | undefined;
  /** Who serves the target's wire API (`bedrock`, `vertex`, `azure`, `openrouter`…; `streamTurn`'s `host`). */
  host?: Host | undefined;
  /** The Google Cloud project of a `vertex` target. */
  project?: string | undefined;
  /** The Azure resource of an `azure` or `foundry` target. */
  resource?: string | undefined;
  baseURL?: string | undefined;
  headers?: Record<string, string> | undefined;
  render?: TurnRenderOptions | undefined;
  fetch?: TurnFetch | undefined;
  /** A name for `switchTo` and events (default `provider:model`). */
  name?: string | undefined;
}

/**
 * What the router tells about a target — in its events, results, attempts and `current` — with
 * nothing secret: its name, provider, model and base URL (without credentials or key query
 * values; absent when the provider's default is used). Never its `apiKey`, `headers`, `fetch`
 * or `render` options. Safe to log.
 *
 * @example
 * ```ts
 * const onEvent = (e: RouterEvent) => { if (e.type === "attempt") console.log(e.target); }; // { name, provider, model, baseURL? }
 * ```
 */
export interface TargetInfo {
  readonly name: string;
  readonly provider: Provider;
  readonly model: string;
  readonly baseURL?: string | undefined;
}

/**
 * How a router picks targets:
 * - `"manual"` (default): the current target until `switchTo`; a retryable failure is retried
 *   on it after a backoff;
 * - `"round-robin"`: each turn goes to the next target; a retryable failure moves the turn to
 *   the next target, and the rotation goes on after the one that answered;
 * - `"failover"`: each turn starts on the first target that is not cooling down; a retryable
 *   failure moves the turn to the next target (one that failed with `retryAfterMs` cools down
 *   that long, else for the backoff).
 *
 * @example
 * ```ts
 * const strategy: RouterStrategy = "failover";
 * ```
 */
export type RouterStrategy = "manual" | "round-robin" | "failover";

/**
 * The delay before retrying a target: `retryAfterMs` when the provider sent one (clamped to
 * `MAX_RETRY_AFTER_MS`), else `initialMs × factor^(retry − 1)`, at most `maxMs` (and at most
 * `MAX_RETRY_AFTER_MS`). `initialMs`: a finite number ≥ 0 (default 500); `factor`: a finite
 * number ≥ 1 (default 2); `maxMs`: a number ≥ 0 or `Infinity` (default 30,000). Anything else
 * is a `TurnwireError` from `createRouter`.
 *
 * @example
 * ```ts
 * const backoff: Backoff = { initialMs: 250, factor: 2, maxMs: 8000 };
 * ```
 */
export interface Backoff {
  initialMs?: number;
  factor?: number;
  maxMs?: number;
}

/**
 * Options of `createRouter`.
 *
 * @example
 * ```ts
 * const options: RouterOptions = { strategy: "failover", maxAttempts: 4, partialReply: "drop" };
 * ```
 */
export interface RouterOptions {
  strategy?: RouterStrategy;
  /**
   * Attempts per turn, the first included: a positive integer, or `Infinity` to retry until the
   * signal aborts (default 3). Anything else (NaN, a string) is a `TurnwireError`.
   */
  maxAttempts?: number;
  backoff?: Backoff;
  /**
   * What becomes of the partial reply of a stream cut short before the turn is tried again:
   * `"drop"` (default) takes it out of the conversation, so the next attempt answers the same
   * history (the reply stays in the event and in the attempt's record); `"keep"` leaves it, and
   * the next attempt continues after it (its unfinished calls get synthetic results).
   */
  partialReply?: "drop" | "keep";
}

/**
 * One attempt of a routed turn.
 *
 * @example
 * ```ts
 * for (const a of result.attempts) console.log(a.target.name, a.error?.errorType ?? "ok");
 * ```
 */
export interface TurnAttempt {
  target: TargetInfo;
  /** The failure, when the attempt failed. */
  error?: ProviderError | undefined;
  /** The partial reply a cut stream left, and whether it was dropped. */
  partial?: { message: TurnResult["message"]; dropped: boolean } | undefined;
  /** How long the router waited before this attempt. */
  waitedMs: number;
}

/**
 * A routed turn's result: the turn's, plus the target that answered and every attempt.
 *
 * @example
 * ```ts
 * const { message, target, attempts } = await router.turn({ conversation });
 * ```
 */
export interface RoutedTurnResult extends TurnResult {
  target: TargetInfo;
  attempts: TurnAttempt[];
}

/**
 * What a router reports while a turn runs (each target as its `TargetInfo`: no key).
 *
 * @example
 * ```ts
 * const onEvent = (e: RouterEvent) => { if (e.type === "retry") console.warn(`retrying on ${e.target.name}`); };
 * ```
 */
export type RouterEvent =
  | { type: "attempt"; target: TargetInfo; attempt: number }
  | { type: "delta"; delta: StreamDelta; target: TargetInfo }
  | { type: "retry"; error: ProviderError; target: TargetInfo; waitMs: number; attempt: number }
  | { type: "switched"; from: TargetInfo; to: TargetInfo; deferred: boolean };

/**
 * What a routed turn takes: the conversation, and the turn options besides the target's.
 *
 * @example
 * ```ts
 * await router.turn({ conversation, signal, onEvent: (e) => e.type === "delta" && show(e.delta) });
 * ```
 */
export type RoutedTurnOptions = Omit<StreamTurnCommonOptions, "provider" | "model" | "apiKey" | "aws" | "region" | "host" | "project" | "resource" | "baseURL" | "headers" | "fetch"> & {
  conversation: Conversation;
  onEvent?: ((event: RouterEvent) => void) | undefined;
};

/**
 * A router over targets. `turn` runs one turn (retries included) on the conversation and owns
 * it meanwhile; `switchTo` changes the target of the next turn, and waits for the one in
 * flight (REQ-915-050). `targets`, `current` and `pending` are `TargetInfo`s: the keys, headers
 * and fetches stay in the `Target`s the router was given.
 *
 * @example
 * ```ts
 * router.switchTo("openai-chat"); // by provider, "provider:model", name, index or Target
 * ```
 */
export interface Router {
  readonly targets: ReadonlyArray<TargetInfo>;
  readonly strategy: RouterStrategy;
  /** The target the next turn starts on (the one in flight while a turn runs). */
  readonly current: TargetInfo;
  /** A switch asked for while a turn was in flight, applied when it settles. */
  readonly pending: TargetInfo | undefined;
  /** Whether a turn is in flight. */
  readonly inFlight: boolean;
  /** By index, name, provider, `"provider:model"`, one of `targets`, or a `Target` (added when new). */
  switchTo(target: Target | TargetInfo | string | number): void;
  turn(options: RoutedTurnOptions): Promise<RoutedTurnResult>;
}

type Named = Target & { name: string };

/**
 * A router over `targets` (REQ-915-002 / 003 / 050: a switch applies to the next turn, never the
 * one in flight; failover on retryable `ProviderError`s, honouring `retryAfterMs`).
 *
 * @example
 * ```ts
 * const router = createRouter(
 *   [{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: a }, { provider: "gemini", model: "gemini-2.5-pro", apiKey: g }],
 *   { strategy: "failover" },
 * );
 * const { message, target } = await router.turn({ conversation });
 * ```
 */
export function createRouter(targets: readonly Target[], options: RouterOptions = {}): Router {
  return new RouterImpl(targets, options, getCore);
}

/**
 * `createRouter` of `turnwire/render` (its turns run on the render module).
 * @internal
 */
export function createRouterOnRenderModule(targets: readonly Target[], options: RouterOptions = {}): Router {
  return new RouterImpl(targets, options, getRenderCore);
}

const nameOf = (t: Target) => t.name ?? `${t.provider}:${t.model}`;

/** A target as the router shows it: nothing secret (frozen, one per target). */
function infoOf(t: Named): TargetInfo {
  const info: { name: string; provider: Provider; model: string; baseURL?: string } = { name: t.name, provider: t.provider, model: t.model };
  if (typeof t.baseURL === "string") info.baseURL = redactUrl(t.baseURL);
  return Object.freeze(info);
}

class RouterImpl implements Router {
  readonly #targets: Named[];
  /** What the router shows of each target (`TargetInfo`), in the same order. */
  readonly #infos: TargetInfo[];
  readonly strategy: RouterStrategy;
  readonly #maxAttempts: number;
  readonly #backoff: Required<Backoff>;
  readonly #partial: "drop" | "keep";
  readonly #core: () => RenderCore;
  #current = 0;
  /** The target of the attempt in flight. */
  #serving: number | undefined;
  #pending: number | undefined;
  #inFlight = false;
  /** Per target: until when (Date.now()) failover skips it. */
  readonly #coolUntil: number[];

  constructor(targets: readonly Target[], options: RouterOptions, core: () => RenderCore) {
    if (!Array.isArray(targets) || targets.length === 0) throw new TypeError("createRouter needs at least one target");
    this.#targets = targets.map((t, i) => {
      if (typeof t?.provider !== "string" || typeof t.model !== "string") throw new TypeError(`targets[${i}] needs a provider and a model`);
      return { ...t, name: nameOf(t) };
    });
    this.#infos = this.#targets.map(infoOf);
    const strategy = options.strategy ?? "manual";
    if (!["manual", "round-robin", "failover"].includes(strategy)) throw new TypeError(`unknown strategy ${JSON.stringify(strategy)}: manual, round-robin or failover`);
    this.strategy = strategy;
    this.#maxAttempts = numberOption("maxAttempts", options.maxAttempts, 3, COUNT);
    this.#backoff = backoffOf(options.backoff);
    this.#partial = choiceOption("partialReply", options.partialReply, "drop", ["drop", "keep"]);
    this.#core = core;
    this.#coolUntil = this.#targets.map(() => 0);
  }

  get targets(): ReadonlyArray<TargetInfo> {
    return this.#infos;
  }
  get current(): TargetInfo {
    return this.#infos[this.#serving ?? this.#current] as TargetInfo;
  }
  get pending(): TargetInfo | undefined {
    return this.#pending === undefined ? undefined : this.#infos[this.#pending];
  }
  get inFlight(): boolean {
    return this.#inFlight;
  }

  switchTo(target: Target | TargetInfo | string | number): void {
    const i = this.#indexOf(target);
    if (this.#inFlight) {
      this.#pending = i;
      return;
    }
    this.#current = i;
  }

  #indexOf(target: Target | TargetInfo | string | number): number {
    if (typeof target === "number") {
      if (!Number.isInteger(target) || target < 0 || target >= this.#targets.length) throw new RangeError(`no target at index ${target}`);
      return target;
    }
    if (typeof target === "string") {
      const i = this.#targets.findIndex((t) => t.name === target || t.provider === target || `${t.provider}:${t.model}` === target);
      if (i < 0) throw new RangeError(`no target named ${JSON.stringify(target)} (targets: ${this.#targets.map((t) => t.name).join(", ")})`);
      return i;
    }
    const shown = this.#infos.indexOf(target as TargetInfo);
    if (shown >= 0) return shown;
    const found = this.#targets.findIndex((t) => t === target || (t.provider === target.provider && t.model === target.model && t.baseURL === target.baseURL && t.apiKey === (target as Target).apiKey));
    if (found >= 0) return found;
    // a copy of a TargetInfo (no key): the target of that name, provider and model
    const named = this.#infos.findIndex((t) => t.name === target.name && t.provider === target.provider && t.model === target.model);
    if (named >= 0 && !("apiKey" in target)) return named;
    const added: Named = { ...target, name: nameOf(target) };
    this.#targets.push(added);
    this.#infos.push(infoOf(added));
    this.#coolUntil.push(0);
    return this.#targets.length - 1;
  }

  async turn(options: RoutedTurnOptions): Promise<RoutedTurnResult> {
    const { conversation, onEvent, render, signal, ...turnOptions } = options;
    if (this.#inFlight) throw new TurnInFlightError("this router's turn is still in flight: await it before starting the next");
    const owner = own(conversation);
    this.#inFlight = true;
    const attempts: TurnAttempt[] = [];
    try {
      let at = this.#startIndex();
      // a target that asked to wait (retry-after) is waited for, also on the next turn
      let waitedMs = Math.max(0, (this.#coolUntil[at] ?? 0) - Date.now());
      await sleep(waitedMs, signal);
      for (let attempt = 1; ; attempt++) {
        const target = this.#targets[at] as Named;
        const info = this.#infos[at] as TargetInfo;
        this.#serving = at;
        onEvent?.({ type: "attempt", target: info, attempt });
        const record: TurnAttempt = { target: info, waitedMs };
        attempts.push(record);
        const before = conversation.length;
        try {
          const result = await this.#attempt(target, info, { ...turnOptions, render, signal, conversation }, owner, onEvent);
          if (this.strategy === "round-robin") this.#current = (at + 1) % this.#targets.length;
          return { ...result, target: info, attempts };
        } catch (e) {
          if (!isProviderError(e)) throw e;
          record.error = e;
          this.#dropPartial(e, record, owner, before);
          // one clock reading: the wait for this target is its whole cooldown, not a
          // millisecond less when the clock ticks in between
          const now = Date.now();
          if (!e.retryable || attempt >= this.#maxAttempts || signal?.aborted) {
            if (e.retryable) this.#coolUntil[at] = now + this.#delay(e, attempt);
            throw withAttempts(e, attempts);
          }
          this.#coolUntil[at] = now + this.#delay(e, attempt);
          const next = this.strategy === "manual" ? at : this.#nextAvailable(at);
          // another target at once; the same one (or one still cooling) when its wait is over
          waitedMs = Math.max(0, (this.#coolUntil[next] ?? 0) - now);
          onEvent?.({ type: "retry", error: e, target: this.#infos[next] as TargetInfo, waitMs: waitedMs, attempt: attempt + 1 });
          // a timer even for no wait: an abort can always stop the retries
          await sleep(waitedMs, signal, true);
          if (signal?.aborted) throw withAttempts(e, attempts);
          at = next;
        }
      }
    } finally {
      owner.release();
      this.#inFlight = false;
      this.#serving = undefined;
      this.#settle(onEvent);
    }
  }

  async #attempt(target: Named, info: TargetInfo, options: Omit<RoutedTurnOptions, "onEvent">, owner: Ownership, onEvent: RoutedTurnOptions["onEvent"]): Promise<TurnResult> {
    const render = { ...(options.render ?? {}), ...(target.render ?? {}) };
    const abort = new AbortController();
    const outer = options.signal;
    const onOuterAbort = () => abort.abort(outer?.reason);
    if (outer?.aborted) onOuterAbort();
    else outer?.addEventListener("abort", onOuterAbort, { once: true });
    const turn = streamOwnedTurn(
      { ...options, signal: abort.signal as AbortSignalLike, provider: target.provider, model: target.model, apiKey: target.apiKey, aws: target.aws, region: target.region, host: target.host, project: target.project, resource: target.resource, baseURL: target.baseURL, headers: target.headers, fetch: target.fetch, render },
      this.#core(),
      owner,
    );
    try {
      if (onEvent !== undefined) {
        try {
          for await (const delta of turn) onEvent({ type: "delta", delta, target: info });
        } catch (e) {
          // the caller's onEvent threw: end the turn before the conversation is given back,
          // so that its reply cannot land after the next turn's history
          if (!isProviderError(e)) {
            abort.abort(e);
            await turn.result.catch(() => undefined);
          }
          throw e;
        }
      }
      return await turn.result;
    } finally {
      outer?.removeEventListener("abort", onOuterAbort);
    }
  }

  /** A cut stream appended its partial reply: take it out again (`partialReply: "drop"`). */
  #dropPartial(e: ProviderError, record: TurnAttempt, owner: Ownership, before: number): void {
    const appended = e.result?.appended === true;
    if (!appended || e.result === undefined) return;
    const dropped = this.#partial === "drop";
    if (dropped) {
      owner.truncate(before);
      e.result.appended = false;
    }
    record.partial = { message: e.result.message, dropped };
  }

  #startIndex(): number {
    const n = this.#targets.length;
    if (this.strategy === "round-robin") {
      const i = this.#current;
      this.#current = (i + 1) % n;
      return i;
    }
    if (this.strategy === "failover") {
      const now = Date.now();
      for (let k = 0; k < n; k++) {
        const i = (this.#current + k) % n;
        if ((this.#coolUntil[i] ?? 0) <= now) return i;
      }
    }
    return this.#current;
  }

  #nextAvailable(from: number): number {
    const n = this.#targets.length;
    const now = Date.now();
    for (let k = 1; k <= n; k++) {
      const i = (from + k) % n;
      if ((this.#coolUntil[i] ?? 0) <= now) return i;
    }
    return (from + 1) % n;
  }

  #delay(e: ProviderError, attempt: number): number {
    if (e.retryAfterMs !== undefined) return Math.min(e.retryAfterMs, MAX_RETRY_AFTER_MS);
    const { initialMs, factor, maxMs } = this.#backoff;
    // 0 stays 0 (never 0 × Infinity); a long backoff waits no longer than a retry-after may
    const grown = initialMs === 0 ? 0 : initialMs * factor ** (attempt - 1);
    return Math.min(maxMs, grown, MAX_RETRY_AFTER_MS);
  }

  /** Applies a switch asked for during the turn (REQ-915-050). */
  #settle(onEvent: RoutedTurnOptions["onEvent"]): void {
    if (this.#pending === undefined) return;
    const from = this.current;
    this.#current = this.#pending;
    this.#pending = undefined;
    onEvent?.({ type: "switched", from, to: this.current, deferred: true });
  }
}

function withAttempts(e: ProviderError, attempts: TurnAttempt[]): ProviderError {
  Object.defineProperty(e, "attempts", { value: attempts, enumerable: false, configurable: true });
  return e;
}

/** The backoff options over their defaults, each checked (a bad one is a TurnwireError naming it). */
function backoffOf(backoff: unknown): Required<Backoff> {
  if (backoff === undefined) return { initialMs: 500, factor: 2, maxMs: 30_000 };
  if (typeof backoff !== "object" || backoff === null) {
    throw optionError("backoff", backoff, "an object of initialMs, factor and maxMs (each optional)", "invalid_type");
  }
  const b = backoff as Backoff;
  return {
    initialMs: numberOption("backoff.initialMs", b.initialMs, 500, DELAY),
    factor: numberOption("backoff.factor", b.factor, 2, FACTOR),
    maxMs: numberOption("backoff.maxMs", b.maxMs, 30_000, DELAY_CAP),
  };
}

/** Waits `ms` or until `signal` aborts; with `tick`, through a timer even for 0 ms (yields to the event loop). */
function sleep(ms: number, signal: AbortSignalLike | undefined, tick = false): Promise<void> {
  if (signal?.aborted || (ms <= 0 && !tick)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, Math.max(0, ms));
    signal?.addEventListener("abort", done, { once: true });
  });
}
