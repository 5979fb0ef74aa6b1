// Sessions: a conversation saved and loaded through a store — in memory, any key-value store
// (edge KV, Redis, Deno KV), the browser's IndexedDB, or files (turnwire/file-store, Node) — with
// its usage totals per provider and model, so that a fresh process or page resumes it and sends
// exactly the request the original would have sent.
import { getAnyCore } from "./core.mjs";
import { SessionStoreError } from "./store-error.mjs";
import type { Conversation, Message, Provider, Usage } from "./turnwire.js";

/**
 * Usage added up per `provider:model`, with the number of turns.
 *
 * @example
 * ```ts
 * const totals: UsageTotals = { "anthropic:claude-sonnet-4-5": { turns: 3, inputTokens: 5120, outputTokens: 830 } };
 * ```
 */
export type UsageTotals = Record<string, Usage & { turns: number }>;

/**
 * What a store keeps of a session.
 *
 * @example
 * ```ts
 * const data: SessionData = { version: 1, transcript: convo.toJSON() as Message[], usage: {}, savedAt: new Date().toISOString() };
 * ```
 */
export interface SessionData {
  version: 1;
  /** The messages, in the canonical history shape (`conversation.toJSON()`). */
  transcript: Message[];
  usage: UsageTotals;
  /** The router target the session was on (a name, `provider:model`), to resume on it. */
  target?: string | undefined;
  /** The caller's own data (a title, a working directory…): JSON values. */
  meta?: Record<string, unknown> | undefined;
  /** When it was last written (ISO 8601). */
  savedAt: string;
  /**
   * The session's version in its store, set by `load` (and by `saveSession`): give it back as
   * `ifVersion` to write only if no one else wrote the session since. Never stored as data.
   */
  storeVersion?: string | undefined;
}

/**
 * Options of a store's `save` and `append`: `ifVersion` makes the write conditional — a
 * version string (`storeVersion` from a load or the value a write resolved with) writes only if
 * the session is still at that version, `null` only if there is no session yet; otherwise the
 * write fails with a `SessionStoreError` of code `"session_conflict"` and changes nothing.
 *
 * @example
 * ```ts
 * const loaded = await store.load("s1");
 * const next = await store.append("s1", [message], undefined, { ifVersion: loaded?.storeVersion ?? null });
 * ```
 */
export interface SessionWriteOptions {
  ifVersion?: string | null | undefined;
}

/**
 * Where sessions live. `load` gives the session with its `storeVersion`; `save` replaces a
 * session; `append` adds messages (and replaces the usage totals) without rewriting the history
 * where the store can (files append a line). Both resolve with the session's new version and
 * take `ifVersion` for optimistic concurrency (`SessionWriteOptions`). Every store of turnwire
 * runs one process's calls on one session in the order they were made; `concurrency` says what
 * it guarantees between processes.
 *
 * @example
 * ```ts
 * const store: SessionStore = memoryStore();
 * const version = await store.save("s1", data);
 * await store.append("s1", [message], undefined, { ifVersion: version });
 * ```
 */
export interface SessionStore {
  load(id: string): Promise<SessionData | undefined>;
  save(id: string, data: SessionData, options?: SessionWriteOptions): Promise<string | void>;
  append(id: string, messages: readonly Message[], usage?: UsageTotals, options?: SessionWriteOptions): Promise<string | void>;
  delete(id: string): Promise<void>;
  /**
   * What `ifVersion` guarantees when several processes write one session: `"atomic"` — the
   * check and the write are one step, the loser of a race always gets `session_conflict`
   * (files, memory, IndexedDB, Redis, a key-value store with `compareAndSet`);
   * `"check-then-write"` — a stale version is caught, but two writes at the same instant can
   * both pass (a key-value store without `compareAndSet`, such as Workers KV). A store without
   * the member makes no promise.
   */
  readonly concurrency?: "atomic" | "check-then-write";
}

/**
 * Adds one turn's usage to the totals of its provider and model.
 *
 * @example
 * ```ts
 * addUsage(totals, result.target.provider, result.target.model, result.usage);
 * ```
 */
export function addUsage(totals: UsageTotals, provider: Provider | string, model: string, usage: Usage | undefined): UsageTotals {
  const entry = entryOf(totals, `${provider}:${model}`);
  entry.turns++;
  addTokens(entry, usage);
  return totals;
}

/**
 * The entry of `key` in `totals`, made an own property when new: a key such as `__proto__` (in
 * a loaded session's JSON) is counted as an entry like any other, and no prototype is written.
 */
function entryOf(totals: UsageTotals, key: string): Usage & { turns: number } {
  if (Object.prototype.hasOwnProperty.call(totals, key)) return totals[key] as Usage & { turns: number };
  const entry = { turns: 0 };
  Object.defineProperty(totals, key, { value: entry, enumerable: true, writable: true, configurable: true });
  return entry;
}

/**
 * Adds the token counts of `usage` to `into`: what every sum of usage does.
 * @internal
 */
export function addTokens(into: Usage, usage: Usage | undefined): void {
  for (const k of ["inputTokens", "outputTokens", "cacheReadTokens", "cacheWriteTokens", "reasoningTokens"] as const) {
    const v = usage?.[k];
    if (typeof v === "number") into[k] = (into[k] ?? 0) + v;
  }
}

/**
 * Adds totals to totals (a run's `usageByModel` to a session's usage), turn counts included.
 *
 * @example
 * ```ts
 * mergeUsage(session.usage, result.usageByModel);
 * ```
 */
export function mergeUsage(into: UsageTotals, more: UsageTotals): UsageTotals {
  for (const [key, u] of Object.entries(more)) {
    const entry = entryOf(into, key);
    entry.turns += typeof u?.turns === "number" ? u.turns : 0;
    addTokens(entry, u);
  }
  return into;
}

/**
 * Prices in a currency per million tokens. `cacheRead` / `cacheWrite` default to `input`.
 *
 * @example
 * ```ts
 * const sonnet: Prices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
 * ```
 */
export interface Prices {
  input: number;
  output: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/**
 * What `usage` cost: one turn's usage with one price list, or totals with prices per
 * `provider:model` (or per provider); a model with no price is an error naming it.
 * `inputTokens` are the prompt tokens not read from or written to a cache, as turnwire reports
 * them; reasoning is part of `outputTokens`.
 *
 * @example
 * ```ts
 * const dollars = cost(session.usage, { "anthropic:claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3 } });
 * ```
 */
export function cost(usage: Usage | UsageTotals, prices: Prices | Record<string, Prices>): number {
  const one = (u: Usage, p: Prices) =>
    ((u.inputTokens ?? 0) * p.input + (u.outputTokens ?? 0) * p.output + (u.cacheReadTokens ?? 0) * (p.cacheRead ?? p.input) + (u.cacheWriteTokens ?? 0) * (p.cacheWrite ?? p.input)) / 1e6;
  if (isPrices(prices)) {
    if (!isTotals(usage)) return one(usage, prices);
    return Object.values(usage).reduce((sum, u) => sum + one(u, prices), 0);
  }
  if (!isTotals(usage)) throw new TypeError("cost: one turn's usage takes one price list ({input, output, …})");
  let sum = 0;
  for (const [key, u] of Object.entries(usage)) {
    // own entries only: a `__proto__` or `constructor` key has no price unless one is given
    const price = (k: string) => (Object.prototype.hasOwnProperty.call(prices, k) ? prices[k] : undefined);
    const p = price(key) ?? price(key.split(":")[0] as string);
    if (p === undefined) throw new TypeError(`cost: no prices for ${key}`);
    sum += one(u, p);
  }
  return sum;
}

const isPrices = (p: unknown): p is Prices => typeof (p as Prices).input === "number" && typeof (p as Prices).output === "number";
const isTotals = (u: Usage | UsageTotals): u is UsageTotals => {
  const values = Object.values(u);
  return values.length === 0 || values.some((v) => typeof v === "object" && v !== null);
};

/**
 * Saves a conversation, its usage totals, the target it is on and the caller's data. With
 * `ifVersion` (a loaded session's `storeVersion`), only if no one wrote the session since
 * (else a `SessionStoreError` of code `"session_conflict"`). Resolves with what was stored and,
 * when the store reports it, its new `storeVersion`.
 *
 * @example
 * ```ts
 * const saved = await saveSession(store, "s1", { conversation, usage, target: router.current.name });
 * await saveSession(store, "s1", { conversation, usage, ifVersion: saved.storeVersion });
 * ```
 */
export async function saveSession(
  store: SessionStore,
  id: string,
  session: { conversation: Conversation; usage?: UsageTotals; target?: string; meta?: Record<string, unknown>; ifVersion?: string | null },
): Promise<SessionData> {
  const data: SessionData = {
    version: 1,
    transcript: messagesOf(session.conversation),
    usage: session.usage ?? {},
    savedAt: new Date().toISOString(),
  };
  if (session.target !== undefined) data.target = session.target;
  if (session.meta !== undefined) data.meta = session.meta;
  const version = await store.save(id, data, session.ifVersion === undefined ? undefined : { ifVersion: session.ifVersion });
  if (typeof version === "string") data.storeVersion = version;
  return data;
}

/**
 * A loaded session: a new `Conversation` over its messages, its usage totals, target, data and
 * `storeVersion` (for `ifVersion`).
 *
 * @example
 * ```ts
 * const session: LoadedSession | undefined = await loadSession(store, "s1");
 * ```
 */
export interface LoadedSession {
  conversation: Conversation;
  usage: UsageTotals;
  target?: string;
  meta?: Record<string, unknown>;
  savedAt: string;
  storeVersion?: string;
}

/**
 * Loads a session into a new `Conversation` (free it when done), or `undefined` when the store
 * has none under `id`. The next request it renders is byte for byte the one the saved
 * conversation would have sent.
 *
 * @example
 * ```ts
 * const session = await loadSession(store, "s1");
 * if (session) router.switchTo(session.target ?? 0);
 * ```
 */
export async function loadSession(store: SessionStore, id: string): Promise<LoadedSession | undefined> {
  const data = await store.load(id);
  if (data === undefined) return undefined;
  checkSession(data, id);
  const out: LoadedSession = {
    conversation: new (getAnyCore().Conversation)(data.transcript),
    usage: data.usage ?? {},
    savedAt: data.savedAt,
  };
  if (data.target !== undefined) out.target = data.target;
  if (data.meta !== undefined) out.meta = data.meta;
  if (typeof data.storeVersion === "string") out.storeVersion = data.storeVersion;
  return out;
}

function messagesOf(conversation: Conversation): Message[] {
  const t = conversation.toJSON() as Message[] | { messages: Message[] };
  return Array.isArray(t) ? t : t.messages;
}

/**
 * Throws unless `data` is a turnwire session (version 1 with a transcript array).
 * @internal
 */
export function checkSession(data: SessionData, id: string): void {
  if (data === null || typeof data !== "object" || data.version !== 1 || !Array.isArray(data.transcript)) {
    throw new SessionStoreError("damaged_session", id, `session ${JSON.stringify(id)}: not a turnwire session (version 1 with a transcript array)`);
  }
}


