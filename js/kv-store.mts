// Sessions in a key-value store of strings (Workers KV, Upstash, Deno KV wrapped, a Map) and in
// this process's memory. Each session is one JSON value whose `rev` member is its version; with
// the backend's compare-and-set, `ifVersion` and appends are exact between processes.
import { checkSession, type SessionData, type SessionStore } from "./session.mjs";
import { appendEntry, applyEntry, emptySession } from "./session-entry.mjs";
import { sessionQueue } from "./session-queue.mjs";
import { checkVersion, ifVersionOf, newVersion, SessionStoreError, sessionId } from "./store-error.mjs";

/**
 * A key-value store of strings: Cloudflare Workers KV, Vercel KV / Upstash Redis, Deno KV
 * wrapped, a `Map`… `get` answers `null` or `undefined` for a missing key. `compareAndSet`,
 * where the backend has one, writes `value` only if the key still holds `expected` (`null`: only
 * if it is missing) and answers whether it wrote: with it, `ifVersion` is exact and two
 * processes appending to one session never lose a message.
 *
 * @example
 * ```ts
 * const kv: KeyValue = { get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) };
 * // Deno KV: compare-and-set through its versionstamps
 * const denoKv: KeyValue = {
 *   get: async (k) => (await db.get<string>([k])).value,
 *   put: (k, v) => db.set([k], v),
 *   delete: (k) => db.delete([k]),
 *   compareAndSet: async (k, expected, v) => {
 *     const now = await db.get<string>([k]);
 *     if ((now.value ?? null) !== expected) return false;
 *     return (await db.atomic().check(now).set([k], v).commit()).ok;
 *   },
 * };
 * ```
 */
export interface KeyValue {
  get(key: string): Promise<string | null | undefined> | string | null | undefined;
  put(key: string, value: string): Promise<unknown> | unknown;
  delete?(key: string): Promise<unknown> | unknown;
  compareAndSet?(key: string, expected: string | null, value: string): Promise<boolean> | boolean;
}

/** How many lost compare-and-sets in a row an append takes before it gives up (`session_busy`). */
const MAX_CAS_ROUNDS = 64;

/** A stored value: the session and the version it is at (`"0"` for one written before versions). */
interface Stored {
  data: SessionData;
  version: string;
}

/** The session in a stored JSON text, its `rev` member taken out as its version. */
function parseStored(text: string, id: string): Stored {
  let value: SessionData & { rev?: unknown };
  try {
    value = JSON.parse(text) as SessionData & { rev?: unknown };
  } catch (e) {
    throw new SessionStoreError("damaged_session", id, `session ${JSON.stringify(id)}: its stored JSON is damaged (${(e as Error).message})`);
  }
  checkSession(value, id);
  const version = typeof value.rev === "string" ? value.rev : "0";
  delete value.rev;
  delete value.storeVersion;
  return { data: value, version };
}

/** The JSON text of a session at `version` (`rev` first, so it can be read without the rest). */
function storedText(data: SessionData, version: string): string {
  const { storeVersion: _dropped, ...rest } = data;
  return JSON.stringify({ rev: version, ...rest });
}

/**
 * Sessions in this process's memory (tests, a server that keeps them for a while). Writes are
 * atomic (`concurrency: "atomic"`).
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * ```
 */
export function memoryStore(): SessionStore {
  const map = new Map<string, string>();
  return kvStore({
    get: (k) => map.get(k),
    put: (k, v) => void map.set(k, v),
    delete: (k) => void map.delete(k),
    compareAndSet: (k, expected, v) => {
      if ((map.get(k) ?? null) !== expected) return false;
      map.set(k, v);
      return true;
    },
  });
}

/**
 * Sessions in a key-value store of strings, one JSON value per session under `prefix + id`.
 * `append` reads, adds and writes the whole value back. With the backend's `compareAndSet` the
 * write is conditional: a concurrent writer's change is read again and kept (appends), or
 * reported (`ifVersion`: `session_conflict`), so `concurrency` is `"atomic"`. Without it (Workers
 * KV has none; a Durable Object's storage can offer one) `ifVersion` is checked just before the
 * write (`"check-then-write"`): keep one writer per session there.
 *
 * @example
 * ```ts
 * // Cloudflare Workers: a KV namespace bound as SESSIONS
 * const store = kvStore({ get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) });
 * ```
 */
export function kvStore(kv: KeyValue, options: { prefix?: string } = {}): SessionStore {
  const key = (id: string) => `${options.prefix ?? "turnwire-session:"}${id}`;
  const cas = typeof kv.compareAndSet === "function" ? kv.compareAndSet.bind(kv) : undefined;
  const queue = sessionQueue();
  const read = async (id: string): Promise<{ text: string | null; stored: Stored | undefined }> => {
    const text = (await kv.get(key(id))) ?? null;
    return { text, stored: text === null ? undefined : parseStored(text, id) };
  };
  /** Writes `change(current)` at a new version, unless `ifVersion` says otherwise. */
  const write = async (id: string, ifVersion: string | null | undefined, change: (current: SessionData | undefined) => SessionData, always: boolean): Promise<string> => {
    for (let round = 0; round < MAX_CAS_ROUNDS; round++) {
      const { text, stored } = await read(id);
      checkVersion(id, ifVersion, stored?.version);
      const version = newVersion();
      const next = storedText(change(stored?.data), version);
      if (cas === undefined || (always && ifVersion === undefined)) {
        await kv.put(key(id), next);
        return version;
      }
      if (await cas(key(id), text, next)) return version;
      // another writer won: read again (a conditional write then reports the conflict)
    }
    throw new SessionStoreError("session_busy", id, `session ${JSON.stringify(id)}: other writers changed it ${MAX_CAS_ROUNDS} times in a row while this write was tried`);
  };
  return {
    concurrency: cas === undefined ? "check-then-write" : "atomic",
    load: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        const { stored } = await read(id);
        return stored === undefined ? undefined : { ...stored.data, storeVersion: stored.version };
      });
    },
    save: async (rawId, data, options) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, options);
      return queue(id, () => write(id, ifVersion, () => data, true));
    },
    append: async (rawId, messages, usage, options) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, options);
      const entry = appendEntry(messages, usage);
      return queue(id, () => write(id, ifVersion, (current) => applyEntry(current ?? emptySession(), entry), false));
    },
    delete: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        await kv.delete?.(key(id));
      });
    },
  };
}
