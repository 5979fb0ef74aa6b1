// The session stores' types as a user writes against them (issue 29): versions, ifVersion, the
// typed error, Redis and key-value backends with compare-and-set, the file store's options.
// Checked by scripts/test-js.sh with `tsc --noEmit --strict` (tsconfig.json here).
import {
  Conversation,
  isSessionStoreError,
  kvStore,
  loadSession,
  memoryStore,
  redisStore,
  saveSession,
  SessionStoreError,
  type KeyValue,
  type LoadedSession,
  type Message,
  type RedisLike,
  type SessionData,
  type SessionStore,
  type SessionStoreErrorCode,
  type SessionWriteOptions,
} from "turnwire";
import { fileStore, type FileStoreOptions } from "turnwire/file-store";

const map = new Map<string, string>();
const kv: KeyValue = {
  get: (k) => map.get(k),
  put: (k, v) => void map.set(k, v),
  compareAndSet: (k, expected, v) => ((map.get(k) ?? null) === expected ? (map.set(k, v), true) : false),
};
const redis: RedisLike = { eval: async (_script, keys, args) => [keys.length, args.length] };
const options: FileStoreOptions = { onDamaged: (id, line) => void [id, line], lockWaitMs: 5_000, lockStaleMs: 60_000 };
const stores: SessionStore[] = [memoryStore(), kvStore(kv, { prefix: "s:" }), redisStore(redis), fileStore("/tmp/sessions", options)];

async function resume(store: SessionStore, message: Message): Promise<string | void> {
  const loaded: LoadedSession | undefined = await loadSession(store, "s1");
  const version: string | undefined = loaded?.storeVersion;
  const write: SessionWriteOptions = { ifVersion: version ?? null };
  try {
    return await store.append("s1", [message], undefined, write);
  } catch (e) {
    if (isSessionStoreError(e)) {
      const code: SessionStoreErrorCode = e.code;
      const now: string | undefined = e.actualVersion;
      void [code, now, e.expectedVersion, e.id];
    }
    throw e;
  }
}

async function save(store: SessionStore, conversation: Conversation): Promise<SessionData> {
  const data = await saveSession(store, "s1", { conversation, ifVersion: null });
  const promise: "atomic" | "check-then-write" | undefined = store.concurrency;
  void promise;
  if (data.storeVersion !== undefined) await saveSession(store, "s1", { conversation, ifVersion: data.storeVersion });
  return data;
}

const failure: SessionStoreError = new SessionStoreError("session_busy", "s1", "busy");
export { stores, resume, save, failure };
