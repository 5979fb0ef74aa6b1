// Sessions in Redis: per session a hash (the snapshot and its rev) and a list of the entries
// appended since, both under one hash tag so they live in one cluster slot. Every operation is
// one Lua script, which Redis runs atomically: `ifVersion` is exact and concurrent appends from
// any number of processes all land.
import { checkSession, type SessionData, type SessionStore } from "./session.mjs";
import { appendEntry, applyEntry, emptySession, type AppendEntry } from "./session-entry.mjs";
import { sessionQueue } from "./session-queue.mjs";
import { checkVersion, ifVersionOf, newVersion, SessionStoreError, sessionId } from "./store-error.mjs";

/**
 * The one Redis command the store needs, `EVAL`, as a function of the script, its keys and its
 * arguments, answering what Redis answered (arrays, strings, integers, `null`). Upstash's client
 * has exactly this method; for node-redis and ioredis wrap theirs.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const client = await createClient({ url: "redis://127.0.0.1:6379" }).connect();
 * const redis: RedisLike = { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) };
 * // ioredis: { eval: (script, keys, args) => io.eval(script, keys.length, ...keys, ...args) }
 * ```
 */
export interface RedisLike {
  eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}

/** The session's version: its snapshot's rev and how many entries were appended since. */
const VERSION = `local rev = redis.call('HGET', KEYS[1], 'rev')
local current = false
if rev then current = rev .. '.' .. redis.call('LLEN', KEYS[2]) end
if ARGV[1] == 'none' and current then return {'conflict', current} end
if ARGV[1] == 'is' and current ~= ARGV[2] then
  if current then return {'conflict', current} end
  return {'conflict'}
end
`;

const LOAD = `local rev = redis.call('HGET', KEYS[1], 'rev')
if not rev then return false end
local log = redis.call('LRANGE', KEYS[2], 0, -1)
return {rev, redis.call('HGET', KEYS[1], 'data'), log}`;

const SAVE = `${VERSION}redis.call('HSET', KEYS[1], 'rev', ARGV[3], 'data', ARGV[4])
redis.call('DEL', KEYS[2])
return {'ok', ARGV[3] .. '.0'}`;

const APPEND = `${VERSION}if not rev then
  rev = ARGV[3]
  redis.call('HSET', KEYS[1], 'rev', rev, 'data', ARGV[4])
end
local n = redis.call('RPUSH', KEYS[2], ARGV[5])
return {'ok', rev .. '.' .. n}`;

const DELETE = `redis.call('DEL', KEYS[1], KEYS[2])
return 1`;

/**
 * Sessions in Redis (Redis 6 or later, Valkey, Upstash, a cluster): `prefix{id}` holds a
 * session's snapshot, `prefix{id}:log` the messages appended since (an append is one `RPUSH`,
 * not a rewrite). Each call is one Lua script, so appends from many processes all land and
 * `ifVersion` is exact (`concurrency: "atomic"`).
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const client = await createClient().connect();
 * const store = redisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
 * await saveSession(store, "s1", { conversation, usage });
 * ```
 */
export function redisStore(redis: RedisLike, options: { prefix?: string } = {}): SessionStore {
  if (typeof redis?.eval !== "function") throw new TypeError("redisStore needs { eval(script, keys, args) } (see RedisLike for node-redis and ioredis)");
  const prefix = options.prefix ?? "turnwire-session:";
  const keys = (id: string) => [`${prefix}{${id}}`, `${prefix}{${id}}:log`];
  const queue = sessionQueue();
  /** The mode and expected version a script checks. */
  const check = (ifVersion: string | null | undefined): [string, string] =>
    ifVersion === undefined ? ["any", ""] : ifVersion === null ? ["none", ""] : ["is", ifVersion];
  /** A write script's answer: the new version, or the conflict it reports. */
  const written = (id: string, ifVersion: string | null | undefined, answer: unknown): string => {
    const [status, version] = Array.isArray(answer) ? (answer as unknown[]).map((v) => (v instanceof Uint8Array ? new TextDecoder().decode(v) : v)) : [];
    if (status === "ok" && typeof version === "string") return version;
    if (status === "conflict") {
      checkVersion(id, ifVersion, typeof version === "string" ? version : undefined);
    }
    throw new SessionStoreError("damaged_session", id, `session ${JSON.stringify(id)}: Redis answered the write with ${JSON.stringify(answer)}`);
  };
  return {
    concurrency: "atomic",
    load: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        const answer = await redis.eval(LOAD, keys(id), []);
        if (answer === null || answer === undefined || answer === false) return undefined;
        const [rev, text, log] = answer as [unknown, unknown, unknown];
        if (typeof rev !== "string" || typeof text !== "string" || !Array.isArray(log)) {
          throw new SessionStoreError("damaged_session", id, `session ${JSON.stringify(id)}: not a turnwire session in Redis`);
        }
        let data: SessionData;
        try {
          data = JSON.parse(text) as SessionData;
          checkSession(data, id);
          for (const line of log) applyEntry(data, JSON.parse(String(line)) as Partial<AppendEntry>);
        } catch (e) {
          if (e instanceof SessionStoreError) throw e;
          throw new SessionStoreError("damaged_session", id, `session ${JSON.stringify(id)}: its stored JSON is damaged (${(e as Error).message})`);
        }
        return { ...data, storeVersion: `${rev}.${log.length}` };
      });
    },
    save: async (rawId, data, writeOptions) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, writeOptions);
      checkSession(data, id);
      const { storeVersion: _dropped, ...rest } = data;
      const text = JSON.stringify(rest);
      return queue(id, async () => written(id, ifVersion, await redis.eval(SAVE, keys(id), [...check(ifVersion), newVersion(), text])));
    },
    append: async (rawId, messages, usage, writeOptions) => {
      const id = sessionId(rawId);
      const ifVersion = ifVersionOf(id, writeOptions);
      const line = JSON.stringify(appendEntry(messages, usage));
      const empty = JSON.stringify(emptySession());
      return queue(id, async () => written(id, ifVersion, await redis.eval(APPEND, keys(id), [...check(ifVersion), newVersion(), empty, line])));
    },
    delete: async (rawId) => {
      const id = sessionId(rawId);
      return queue(id, async () => {
        await redis.eval(DELETE, keys(id), []);
      });
    },
  };
}
