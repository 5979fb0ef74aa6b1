// Sessions: a conversation saved and loaded through a store — in memory, any key-value store
// (edge KV, Redis, Deno KV), the browser's IndexedDB, or files (turnwire/file-store, Node) — with
// its usage totals per provider and model, so that a fresh process or page resumes it and sends
// exactly the request the original would have sent.
import { getAnyCore } from "./core.mjs";
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
}

/**
 * Where sessions live. `save` replaces a session; `append` adds messages (and replaces the usage
 * totals) without rewriting the history where the store can (files append a line).
 *
 * @example
 * ```ts
 * const store: SessionStore = memoryStore();
 * await store.save("s1", data);
 * ```
 */
export interface SessionStore {
  load(id: string): Promise<SessionData | undefined>;
  save(id: string, data: SessionData): Promise<void>;
  append(id: string, messages: readonly Message[], usage?: UsageTotals): Promise<void>;
  delete(id: string): Promise<void>;
}

/**
 * A key-value store of strings: Cloudflare Workers KV, Vercel KV / Upstash Redis, Deno KV
 * wrapped, a `Map`… `get` answers `null` or `undefined` for a missing key.
 *
 * @example
 * ```ts
 * const kv: KeyValue = { get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) };
 * ```
 */
export interface KeyValue {
  get(key: string): Promise<string | null | undefined> | string | null | undefined;
  put(key: string, value: string): Promise<unknown> | unknown;
  delete?(key: string): Promise<unknown> | unknown;
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
  const key = `${provider}:${model}`;
  const entry = (totals[key] ??= { turns: 0 });
  entry.turns++;
  addTokens(entry, usage);
  return totals;
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
    const entry = (into[key] ??= { turns: 0 });
    entry.turns += u.turns ?? 0;
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
    const p = prices[key] ?? prices[key.split(":")[0] as string];
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
 * Saves a conversation, its usage totals, the target it is on and the caller's data.
 *
 * @example
 * ```ts
 * await saveSession(store, "s1", { conversation, usage, target: router.current.name });
 * ```
 */
export async function saveSession(
  store: SessionStore,
  id: string,
  session: { conversation: Conversation; usage?: UsageTotals; target?: string; meta?: Record<string, unknown> },
): Promise<SessionData> {
  const data: SessionData = {
    version: 1,
    transcript: messagesOf(session.conversation),
    usage: session.usage ?? {},
    savedAt: new Date().toISOString(),
  };
  if (session.target !== undefined) data.target = session.target;
  if (session.meta !== undefined) data.meta = session.meta;
  await store.save(id, data);
  return data;
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
export async function loadSession(
  store: SessionStore,
  id: string,
): Promise<{ conversation: Conversation; usage: UsageTotals; target?: string; meta?: Record<string, unknown>; savedAt: string } | undefined> {
  const data = await store.load(id);
  if (data === undefined) return undefined;
  checkSession(data, id);
  const out: { conversation: Conversation; usage: UsageTotals; target?: string; meta?: Record<string, unknown>; savedAt: string } = {
    conversation: new (getAnyCore().Conversation)(data.transcript),
    usage: data.usage ?? {},
    savedAt: data.savedAt,
  };
  if (data.target !== undefined) out.target = data.target;
  if (data.meta !== undefined) out.meta = data.meta;
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
    throw new TypeError(`session ${JSON.stringify(id)}: not a turnwire session (version 1 with a transcript array)`);
  }
}

function parse(text: string, id: string): SessionData {
  let data: SessionData;
  try {
    data = JSON.parse(text) as SessionData;
  } catch (e) {
    throw new TypeError(`session ${JSON.stringify(id)}: its stored JSON is damaged (${(e as Error).message})`);
  }
  checkSession(data, id);
  return data;
}

/**
 * Sessions in this process's memory (tests, a server that keeps them for a while).
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * ```
 */
export function memoryStore(): SessionStore {
  const map = new Map<string, string>();
  return kvStore({ get: (k) => map.get(k), put: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) });
}

/**
 * Sessions in a key-value store of strings, one JSON value per session under `prefix + id`.
 * `append` reads, adds and writes the whole value back: a KV store has no atomic append, so two
 * writers of one session must not race (one session, one agent).
 *
 * @example
 * ```ts
 * // Cloudflare Workers: a KV namespace bound as SESSIONS
 * const store = kvStore({ get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) });
 * ```
 */
export function kvStore(kv: KeyValue, options: { prefix?: string } = {}): SessionStore {
  const key = (id: string) => `${options.prefix ?? "turnwire-session:"}${id}`;
  const load = async (id: string) => {
    const text = await kv.get(key(id));
    return text === null || text === undefined ? undefined : parse(text, id);
  };
  return {
    load,
    async save(id, data) {
      await kv.put(key(id), JSON.stringify(data));
    },
    async append(id, messages, usage) {
      const data = (await load(id)) ?? { version: 1 as const, transcript: [], usage: {}, savedAt: "" };
      data.transcript.push(...messages);
      if (usage !== undefined) data.usage = usage;
      data.savedAt = new Date().toISOString();
      await kv.put(key(id), JSON.stringify(data));
    },
    async delete(id) {
      await kv.delete?.(key(id));
    },
  };
}

/** The part of the browser's `indexedDB` this store uses. */
interface IdbFactory {
  open(name: string, version?: number): IdbRequest<IdbDatabase>;
}
interface IdbRequest<T> {
  result: T;
  error: unknown;
  onsuccess: (() => void) | null;
  onerror: (() => void) | null;
  onupgradeneeded?: (() => void) | null;
  onblocked?: (() => void) | null;
}
interface IdbDatabase {
  objectStoreNames: { contains(name: string): boolean };
  createObjectStore(name: string): unknown;
  transaction(names: string, mode: "readonly" | "readwrite"): IdbTransaction;
  close(): void;
}
interface IdbTransaction {
  objectStore(name: string): { get(key: string): IdbRequest<unknown>; put(value: unknown, key: string): IdbRequest<unknown>; delete(key: string): IdbRequest<unknown> };
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  error: unknown;
}

/**
 * Sessions in the browser's IndexedDB (database `name`, object store `sessions`), each a
 * structured-clone copy of its data. `append` is one read-write transaction, so it is atomic.
 *
 * @example
 * ```ts
 * const store = indexedDbStore(); // in a page or a worker
 * ```
 */
export function indexedDbStore(options: { name?: string; factory?: unknown } = {}): SessionStore {
  const factory = (options.factory ?? (globalThis as { indexedDB?: unknown }).indexedDB) as IdbFactory | undefined;
  const name = options.name ?? "turnwire";
  const STORE = "sessions";
  let db: Promise<IdbDatabase> | undefined;
  const open = () =>
    (db ??= new Promise<IdbDatabase>((resolve, reject) => {
      if (factory === undefined) return reject(new TypeError("indexedDbStore: this host has no indexedDB"));
      const req = factory.open(name, 1);
      req.onupgradeneeded = () => {
        if (!req.result.objectStoreNames.contains(STORE)) req.result.createObjectStore(STORE);
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
      req.onblocked = () => reject(new Error(`indexedDbStore: database ${JSON.stringify(name)} is blocked by another open connection`));
    }).catch((e: unknown) => {
      db = undefined; // a failed open is tried again on the next call
      throw e;
    }));
  const run = async <T,>(mode: "readonly" | "readwrite", work: (s: ReturnType<IdbTransaction["objectStore"]>) => IdbRequest<T> | void): Promise<T | undefined> => {
    const database = await open();
    return new Promise((resolve, reject) => {
      const tx = database.transaction(STORE, mode);
      const req = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(req ? req.result : undefined);
      tx.onerror = () => reject(tx.error);
      tx.onabort = () => reject(tx.error);
    });
  };
  return {
    async load(id) {
      const data = (await run("readonly", (s) => s.get(id))) as SessionData | undefined;
      if (data === undefined) return undefined;
      checkSession(data, id);
      return data;
    },
    async save(id, data) {
      await run("readwrite", (s) => void s.put(JSON.parse(JSON.stringify(data)), id));
    },
    async append(id, messages, usage) {
      await run("readwrite", (s) => {
        const get = s.get(id);
        get.onsuccess = () => {
          const data = (get.result as SessionData | undefined) ?? { version: 1 as const, transcript: [], usage: {}, savedAt: "" };
          data.transcript.push(...(JSON.parse(JSON.stringify(messages)) as Message[]));
          if (usage !== undefined) data.usage = JSON.parse(JSON.stringify(usage)) as UsageTotals;
          data.savedAt = new Date().toISOString();
          s.put(data, id);
        };
      });
    },
    async delete(id) {
      await run("readwrite", (s) => void s.delete(id));
    },
  };
}
