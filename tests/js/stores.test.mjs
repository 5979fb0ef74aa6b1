// Session stores under stress (issue 29, point 1 and "sessions shared by several processes"):
// the file store keeps every append that resolved — across saves, crashes (kill -9 at random
// moments, in a loop), races in one process and writers in several — and keeps its files
// private; every store has optimistic concurrency (`ifVersion` → `session_conflict`), tested
// for the memory store, key-value stores with and without compare-and-set, the file store, and
// Redis against a real redis-server this file starts. (IndexedDB: tests/js/runtimes, session
// pages in Chromium.) Runs in Node (node --test), Deno (deno test) and Bun (bun test).
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { after, describe, test } from "node:test";
import { isSessionStoreError, kvStore, memoryStore, redisStore } from "turnwire";
import { fileStore } from "turnwire/file-store";

const human = (text) => ({ speaker: "human", blocks: [{ type: "text", text }] });
const texts = (data) => data.transcript.map((m) => m.blocks[0].text);
const session = (...t) => ({ version: 1, transcript: t.map(human), usage: {}, savedAt: "" });
const root = mkdtempSync(join(tmpdir(), "turnwire-stores-"));
after(() => rmSync(root, { recursive: true, force: true }));
let folders = 0;
const folder = () => join(root, `f${++folders}`);

/** The runtime running this file, as a command for a child process. */
function runtime(file, args) {
  if (typeof globalThis.Deno !== "undefined") return [process.execPath, ["run", "-A", file, ...args]];
  return [process.execPath, [file, ...args]];
}

const conflict = (code = "session_conflict") => (e) => isSessionStoreError(e) && e.code === code;

describe("the file store keeps every append (issue 29.1)", () => {
  test("append 2, save, append 2, load: all five messages", async () => {
    const store = fileStore(folder());
    await store.save("s", session("a"));
    await store.append("s", [human("b")]);
    await store.append("s", [human("c")]);
    const loaded = await store.load("s");
    await store.save("s", loaded);
    await store.append("s", [human("d")]);
    await store.append("s", [human("e")]);
    assert.deepEqual(texts(await store.load("s")), ["a", "b", "c", "d", "e"]);
  });

  test("a save and an append made together in one process: the append lands after the save", async () => {
    const store = fileStore(folder());
    await store.save("s", session("a"));
    const all = [];
    for (let i = 0; i < 20; i++) {
      all.push(store.save("s", session("a")));
      all.push(store.append("s", [human(`m${i}`)]));
    }
    await Promise.all(all);
    assert.deepEqual(texts(await store.load("s")), ["a", "m19"], "each save replaced the session; the append made after it is kept");
    const racing = [store.append("s", [human("x")]), store.save("s", { ...session("a", "m19"), savedAt: "now" }), store.append("s", [human("y")])];
    await Promise.all(racing);
    assert.deepEqual(texts(await store.load("s")), ["a", "m19", "y"]);
  });

  test("files are private: the folder 0700, snapshot and log 0600, no temporary file or lock left", async () => {
    const dir = folder();
    const store = fileStore(dir);
    await store.append("s", [human("a")]);
    await store.save("s", session("a"));
    await store.append("s", [human("b")]);
    if (process.platform !== "win32") {
      assert.equal(statSync(dir).mode & 0o777, 0o700);
      for (const f of ["s.json", "s.log"]) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600, f);
    }
    assert.deepEqual(readdirSync(dir).sort(), ["s.json", "s.log"]);
  });

  test("a save that crashed left a temporary file: the next save removes it; a snapshot with a world-readable mode becomes 0600", async () => {
    const dir = folder();
    const store = fileStore(dir);
    await store.save("s", session("a"));
    writeFileSync(join(dir, "s.json.tmp"), '{"rev":"x","version":1,"transcript":[{"spe', { mode: 0o644 });
    writeFileSync(join(dir, "s.json.1764300000000-k3j2h1.tmp"), "{", { mode: 0o644 }); // an earlier release's name
    assert.deepEqual(texts(await store.load("s")), ["a"]);
    await store.save("s", session("a", "b"));
    assert.deepEqual(readdirSync(dir).sort(), ["s.json"]);
    if (process.platform !== "win32") assert.equal(statSync(join(dir, "s.json")).mode & 0o777, 0o600);
  });

  test("a crash after the snapshot and before the log was removed replays nothing twice, and the next append starts a new log", async () => {
    const dir = folder();
    const store = fileStore(dir);
    await store.save("s", session("a"));
    await store.append("s", [human("b")]);
    const log = readFileSync(join(dir, "s.log"));
    await store.save("s", await store.load("s"));
    writeFileSync(join(dir, "s.log"), log); // as if the save died before removing it
    assert.deepEqual(texts(await store.load("s")), ["a", "b"]);
    await store.append("s", [human("c")]);
    assert.deepEqual(texts(await store.load("s")), ["a", "b", "c"]);
  });

  test("an append reads no history: it works on a session whose snapshot it never parses; a log a crashed delete left is no session", async () => {
    const dir = folder();
    const store = fileStore(dir);
    await store.save("s", session("a", "b"));
    const text = readFileSync(join(dir, "s.json"), "utf8");
    writeFileSync(join(dir, "s.json"), text.replace('"transcript":[', '"transcript":[}'));
    const v = await store.append("s", [human("c")]);
    assert.equal(typeof v, "string");
    await assert.rejects(store.load("s"), conflict("damaged_session"));
    // a delete that crashed between removing the snapshot and the log
    await store.save("t", session("a"));
    await store.append("t", [human("b")]);
    rmSync(join(dir, "t.json"));
    assert.equal(await store.load("t"), undefined);
    await store.append("t", [human("new")], undefined, { ifVersion: null });
    assert.deepEqual(texts(await store.load("t")), ["new"]);
  });

  test("sessions written by the previous release (logBytes, a log without its first line) load and are rewritten on the next write", async () => {
    const dir = folder();
    mkdirSync(dir, { recursive: true });
    const line = (t) => `\n${JSON.stringify({ messages: [human(t)], at: "2026-11-01T00:00:00.000Z" })}\n`;
    const folded = line("b");
    writeFileSync(join(dir, "s.json"), JSON.stringify({ ...session("a", "b"), logBytes: Buffer.byteLength(folded) }));
    writeFileSync(join(dir, "s.log"), folded + line("c"));
    const store = fileStore(dir);
    assert.deepEqual(texts(await store.load("s")), ["a", "b", "c"]);
    await store.append("s", [human("d")]);
    assert.deepEqual(texts(await store.load("s")), ["a", "b", "c", "d"]);
    assert.match(readFileSync(join(dir, "s.json"), "utf8"), /^\{"rev":"/);
  });

  test("ids: only strings; one whose toString changes between calls never names a file", async () => {
    const dir = folder();
    const store = fileStore(dir);
    let calls = 0;
    const shifty = { toString: () => (calls++ === 0 ? "fine" : "../../escaped") };
    for (const bad of [shifty, 42, null, "", "../x", ".hidden", "a/b"]) {
      await assert.rejects(store.append(bad, [human("x")]), conflict("invalid_session_id"), String(bad));
      await assert.rejects(store.load(bad), conflict("invalid_session_id"));
    }
    assert.equal(existsSync(join(dir, "..", "..", "escaped.log")), false);
  });
});

describe("optimistic concurrency: ifVersion (issue 29, sessions shared by several processes)", () => {
  const map = () => new Map();
  const stores = [
    ["memoryStore", () => memoryStore(), "atomic"],
    ["kvStore with compareAndSet", () => {
      const m = map();
      return kvStore({
        get: async (k) => m.get(k) ?? null,
        put: async (k, v) => void m.set(k, v),
        delete: async (k) => void m.delete(k),
        compareAndSet: async (k, expected, v) => ((m.get(k) ?? null) === expected ? (m.set(k, v), true) : false),
      });
    }, "atomic"],
    ["kvStore without compareAndSet", () => {
      const m = map();
      return kvStore({ get: async (k) => m.get(k) ?? null, put: async (k, v) => void m.set(k, v), delete: async (k) => void m.delete(k) });
    }, "check-then-write"],
    ["fileStore", () => fileStore(folder()), "atomic"],
  ];
  for (const [name, make, promise] of stores) {
    test(`${name}: a stale version is refused with session_conflict and changes nothing; concurrency is "${promise}"`, async () => {
      const store = make();
      assert.equal(store.concurrency, promise);
      const v1 = await store.save("s", session("a"), { ifVersion: null });
      assert.equal(typeof v1, "string");
      await assert.rejects(store.save("s", session("other"), { ifVersion: null }), conflict());
      const loaded = await store.load("s");
      assert.equal(loaded.storeVersion, v1);
      const v2 = await store.append("s", [human("b")], undefined, { ifVersion: v1 });
      assert.notEqual(v2, v1);
      assert.equal((await store.load("s")).storeVersion, v2);
      const stale = await store.append("s", [human("lost?")], undefined, { ifVersion: v1 }).catch((e) => e);
      assert.ok(conflict()(stale), String(stale));
      assert.equal(stale.expectedVersion, v1);
      assert.equal(stale.actualVersion, v2);
      await assert.rejects(store.save("s", session("x"), { ifVersion: v1 }), conflict());
      assert.deepEqual(texts(await store.load("s")), ["a", "b"]);
      const v3 = await store.save("s", session("a", "b", "c"), { ifVersion: v2 });
      await store.delete("s");
      await assert.rejects(store.append("s", [human("d")], undefined, { ifVersion: v3 }), (e) => conflict()(e) && e.actualVersion === undefined);
      await assert.rejects(store.save("s", session("a"), { ifVersion: 7 }), TypeError);
    });
  }

  test("kvStore with compareAndSet: two writers appending at once both land", async () => {
    const m = new Map();
    let lose = 3; // the backend answers "someone else wrote" a few times, as under a real race
    const kv = {
      get: async (k) => m.get(k) ?? null,
      put: async (k, v) => void m.set(k, v),
      compareAndSet: async (k, expected, v) => {
        if (lose-- > 0) {
          m.set(k, JSON.stringify({ rev: `other-${lose}`, ...JSON.parse(m.get(k) ?? JSON.stringify(session())) }));
          return false;
        }
        if ((m.get(k) ?? null) !== expected) return false;
        m.set(k, v);
        return true;
      },
    };
    const a = kvStore(kv);
    const b = kvStore(kv);
    await Promise.all([a.append("s", [human("from a")]), b.append("s", [human("from b")])]);
    assert.deepEqual(texts(await a.load("s")).sort(), ["from a", "from b"]);
  });
});

describe("several processes, kill -9 (issue 29.1)", () => {
  const writer = resolve("store-writer.mjs");
  const start = (dir, name, report) => {
    const [cmd, args] = runtime(writer, [dir, "shared", name, report]);
    const child = spawn(cmd, args, { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise((r) => child.on("exit", (code, signal) => r({ code, signal, stderr })));
    return { child, exited };
  };
  const reported = (report) => (existsSync(report) ? readFileSync(report, "utf8").split("\n").filter(Boolean) : []);

  test("two writers of one session, killed at random moments 15 times: every append that resolved is there, once, in order", { timeout: 120_000 }, async () => {
    const dir = folder();
    const reports = { a: join(root, `a-${folders}.txt`), b: join(root, `b-${folders}.txt`) };
    const TRIALS = 15;
    const trials = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const a = start(dir, "a", reports.a);
      const b = start(dir, "b", reports.b);
      const t0 = Date.now();
      await new Promise((r) => setTimeout(r, 150 + Math.floor(Math.random() * 350)));
      a.child.kill("SIGKILL");
      await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 30)));
      b.child.kill("SIGKILL");
      for (const ended of [await a.exited, await b.exited]) {
        assert.equal(ended.signal, "SIGKILL", `a writer failed before it was killed: ${ended.stderr}`);
      }
      const data = await fileStore(dir).load("shared");
      const stored = texts(data ?? session());
      const missing = [...reported(reports.a), ...reported(reports.b)].filter((m) => !stored.includes(m));
      trials.push({ trial, ms: Date.now() - t0, stored: stored.length, missing: missing.length });
      assert.deepEqual(missing, [], `trial ${trial}: resolved appends missing after the kill`);
      assert.equal(new Set(stored).size, stored.length, `trial ${trial}: a message stored twice`);
      for (const name of ["a", "b"]) {
        const numbers = stored.filter((t) => t.startsWith(`${name}-`)).map((t) => Number(t.split("-")[1]));
        assert.deepEqual(numbers, [...numbers].sort((x, y) => x - y), `trial ${trial}: ${name}'s messages out of order`);
      }
    }
    const total = trials.at(-1).stored;
    console.log(`file store, ${TRIALS} kill -9 trials of two writers: ${total} messages stored, ${reported(reports.a).length + reported(reports.b).length} resolved writes reported, none missing`);
    assert.ok(total > TRIALS * 2, "the writers wrote something");
  });
});

describe("redisStore against a real redis-server", () => {
  const server = findRedisServer();
  const clientDir = process.env.TURNWIRE_REDIS_CLIENT;
  const skip = server === undefined ? "no redis-server on PATH (scripts/test-js.sh installs Debian's)" : clientDir === undefined ? "TURNWIRE_REDIS_CLIENT is not set (scripts/test-js.sh sets it)" : false;
  test("ifVersion, concurrent appends from two clients, delete", { skip }, async () => {
    const dir = mkdtempSync(join(tmpdir(), "turnwire-redis-"));
    const socket = join(dir, "redis.sock");
    const redis = spawn(server, ["--port", "0", "--unixsocket", socket, "--save", "", "--appendonly", "no", "--dir", dir], { stdio: "ignore" });
    try {
      for (let i = 0; i < 200 && !existsSync(socket); i++) await new Promise((r) => setTimeout(r, 25));
      const { createClient } = createRequire(join(clientDir, "node_modules", "x.js"))("redis");
      const connect = async () => {
        const client = createClient({ socket: { path: socket } });
        await client.connect();
        return client;
      };
      const c1 = await connect();
      const c2 = await connect();
      try {
        const store = (client) => redisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
        const one = store(c1);
        const two = store(c2);
        assert.equal(one.concurrency, "atomic");
        const v1 = await one.save("s", session("a"), { ifVersion: null });
        await assert.rejects(two.save("s", session("b"), { ifVersion: null }), conflict());
        const writes = [];
        for (let i = 0; i < 50; i++) writes.push(one.append("s", [human(`one-${i}`)]), two.append("s", [human(`two-${i}`)]));
        await Promise.all(writes);
        const loaded = await two.load("s");
        assert.equal(loaded.transcript.length, 101);
        assert.deepEqual(texts(loaded).filter((t) => t.startsWith("one-")), Array.from({ length: 50 }, (_, i) => `one-${i}`));
        // two writers race with the same version: exactly one wins, the loser is told
        const race = await Promise.allSettled([
          one.append("s", [human("x")], undefined, { ifVersion: loaded.storeVersion }),
          two.append("s", [human("y")], undefined, { ifVersion: loaded.storeVersion }),
        ]);
        assert.equal(race.filter((r) => r.status === "fulfilled").length, 1);
        assert.ok(conflict()(race.find((r) => r.status === "rejected").reason));
        assert.equal((await one.load("s")).transcript.length, 102);
        await assert.rejects(one.save("s", session("z"), { ifVersion: v1 }), conflict());
        await one.delete("s");
        assert.equal(await two.load("s"), undefined);
      } finally {
        await c1.quit();
        await c2.quit();
      }
    } finally {
      redis.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function findRedisServer() {
  for (const p of ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/usr/sbin/redis-server"]) if (existsSync(p)) return p;
  return undefined;
}
