// Sessions in the browser's IndexedDB: one structured-clone record per session, with its version
// in a `rev` member. Every write is one read-write transaction (read, check, write), so
// `ifVersion` is exact between tabs and workers.
import { checkSession, type SessionData, type SessionStore } from "./session.mjs";
import { appendEntry, applyEntry, emptySession } from "./session-entry.mjs";
import { sessionQueue } from "./session-queue.mjs";
import { checkVersion, ifVersionOf, newVersion, sessionId } from "./store-error.mjs";

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
type IdbObjectStore = { get(key: string): IdbRequest<unknown>; put(value: unknown, key: string): IdbRequest<unknown>; delete(key: string): IdbRequest<unknown> };
interface IdbTransaction {
  objectStore(name: string): IdbObjectStore;
  abort(): void;
  oncomplete: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  error: unknown;
}

/** A stored record: the session and its version (`"0"` for one written before versions). */
type Record_ = SessionData & { rev?: unknown };

const versionOf = (r: Record_ | undefined): string | undefined => (r === undefined ? undefined : typeof r.rev === "string" ? r.rev : "0");

/**
 * Sessions in the browser's IndexedDB (database `name`, object store `sessions`), each a
 * structured-clone copy of its data. Every write is one read-write transaction, so appends from
 * two tabs never lose a message and `ifVersion` is exact (`concurrency: "atomic"`).
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
  const queue = sessionQueue();
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
  /**
   * One transaction: `work` gets the store and a way to fail it (the transaction is aborted and
   * the promise rejects with that error); resolves with what `work`'s `done` was given.
   */
  const run = async <T,>(mode: "readonly" | "readwrite", work: (s: IdbObjectStore, done: (value: T) => void, fail: (e: unknown) => void) => void): Promise<T | undefined> => {
    const database = await open();
    return new Promise((resolve, reject) => {
      const tx = database.transaction(STORE, mode);
      let value: T | undefined;
      let failure: { error: unknown } | undefined;
      tx.oncomplete = () => (failure === undefined ? resolve(value) : reject(failure.error));
      tx.onerror = () => reject(failure?.error ?? tx.error);
      tx.onabort = () => reject(failure?.error ?? tx.error);
      try {
        work(
          tx.objectStore(STORE),
          (v) => (value = v),
          (e) => {
            failure = { error: e };
            tx.abort();
          },
        );
      } catch (e) {
        failure = { error: e };
        tx.abort();
      }
    });
  };
  /** Reads the record, checks `ifVersion`, writes `change(current)` at a new version: one transaction. */
  const write = (id: string, ifVersion: string | null | undefined, change: (current: SessionData | undefined) => SessionData) =>
    run<string>("readwrite", (s, done, fail) => {
      const get = s.get(id);
      get.onsuccess = () => {
        try {
          const current = get.result as Record_ | undefined;
          checkVersion(id, ifVersion, versionOf(current));
          if (current !== undefined) {
            checkSession(current, id);
            delete current.rev;
          }
          const version = newVersion();
          const { storeVersion: _dropped, ...next } = change(current);
          s.put({ rev: version, ...next }, id);
          done(version);
        } catch (e) {
          fail(e);
        }
      };
    }) as Promise<string>;
  return {
    concurrency: "atomic",
    load: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        const record = await run<Record_ | undefined>("readonly", (s, done) => {
          const get = s.get(id);
          get.onsuccess = () => done(get.result as Record_ | undefined);
        });
        if (record === undefined) return undefined;
        checkSession(record, id);
        const version = versionOf(record) as string;
        delete record.rev;
        return { ...record, storeVersion: version };
      });
    },
    save: async (rawId, data, options) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, options);
      const copy = JSON.parse(JSON.stringify(data)) as SessionData;
      return queue(id, () => write(id, ifVersion, () => copy));
    },
    append: async (rawId, messages, usage, options) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, options);
      const entry = appendEntry(messages, usage);
      return queue(id, () => write(id, ifVersion, (current) => applyEntry(current ?? emptySession(), entry)));
    },
    delete: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        await run("readwrite", (s) => void s.delete(id));
      });
    },
  };
}
