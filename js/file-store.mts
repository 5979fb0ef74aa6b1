// Sessions in files (Node, Bun, Deno with node: modules): `turnwire/file-store`.
//
// Per session `<id>`, in one folder (0700 when created; every file 0600):
// - `<id>.json`: the snapshot, `{"rev": …, …session}`, written to `<id>.json.tmp`, synced and
//   renamed over the old one; `rev` is new on every save;
// - `<id>.log`: the messages appended since, one JSON line each, after a first line naming the
//   snapshot they follow (`{"turnwireLog":1,"after":<rev or null>,"id":…}`). A log that follows
//   an older snapshot is one a save already folded (the save crashed before removing it): it is
//   not replayed, and the next write removes it;
// - `<id>.lock`: held by the one writer at a time (file-lock.mts), across processes.
// A session's version is its snapshot's `rev` and, when it has a log, the log's id and how many
// bytes of whole lines it holds: every save and append makes a new one. Loads take no lock:
// they read the snapshot, the log, and the snapshot's `rev` again, and read again if a save came
// in between. Files from before versions (no `rev`, a log without its first line) still load,
// and the first write rewrites them in this form.
import { mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import { withLock } from "./file-lock.mjs";
import { checkSession, type SessionData, type SessionStore, type SessionWriteOptions } from "./session.mjs";
import { appendEntry, applyEntry, emptySession, type AppendEntry } from "./session-entry.mjs";
import { sessionQueue } from "./session-queue.mjs";
import { checkVersion, ifVersionOf, newVersion, SessionStoreError, sessionId } from "./store-error.mjs";

/**
 * Options of `fileStore`.
 *
 * @example
 * ```ts
 * const options: FileStoreOptions = { onDamaged: (id, line) => console.warn(`${id}: line ${line} was cut short`), lockWaitMs: 5_000 };
 * ```
 */
export interface FileStoreOptions {
  /** Called for each log line a crash cut short (its messages are lost; the rest loads). */
  onDamaged?: (id: string, line: number) => void;
  /** How long a write waits for another writer of the same session (default 10 s), then `session_busy`. */
  lockWaitMs?: number;
  /** A lock held longer than this is taken over (default 30 s; a write takes milliseconds). */
  lockStaleMs?: number;
}

/** What a log's first line says. */
interface LogHead {
  after: string | null;
  id: string;
}

/** A snapshot as read: the session, its rev (`undefined`: written before versions). */
interface Snapshot {
  data: SessionData & { logBytes?: unknown };
  rev: string | undefined;
}

/** A log as read: its head (`undefined`: written before versions), text and whole-line bytes. */
interface Log {
  head: LogHead | undefined;
  text: string;
  /** Bytes up to and including the last newline (a line being written, or cut, is not counted). */
  bytes: number;
}

const SNAPSHOT_HEAD = /^\{"rev":"([^"\\]*)"/;
const ID = /^[\w.-]{1,128}$/;

/**
 * A session store in the folder `dir` (created when missing). Ids are file names: letters,
 * digits, `.`, `_` and `-`, up to 128 characters, not starting with `.`. Every resolved `append`
 * and `save` is on disk (synced) and survives the process being killed at any moment; several
 * processes may write one session (a lock file makes them take turns), and `ifVersion` is exact
 * (`concurrency: "atomic"`). One host: the lock does not work across machines sharing a network
 * file system.
 *
 * @example
 * ```ts
 * import { fileStore } from "turnwire/file-store";
 * const store = fileStore(join(homedir(), ".my-agent", "sessions"));
 * await saveSession(store, "2026-11-26-refactor", { conversation, usage });
 * ```
 */
export function fileStore(dir: string, options: FileStoreOptions = {}): SessionStore {
  const lockOptions = { waitMs: positive(options.lockWaitMs, 10_000, "lockWaitMs"), staleMs: positive(options.lockStaleMs, 30_000, "lockStaleMs") };
  const queue = sessionQueue();
  const paths = (raw: unknown) => {
    const id = sessionId(raw);
    if (!ID.test(id) || id.startsWith(".")) {
      throw new SessionStoreError("invalid_session_id", id, `session id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-" (up to 128), not starting with "."`);
    }
    const base = join(dir, id);
    return { id, json: `${base}.json`, log: `${base}.log`, tmp: `${base}.json.tmp`, lock: `${base}.lock` };
  };
  type Paths = ReturnType<typeof paths>;
  const locked = <T,>(p: Paths, work: () => Promise<T>): Promise<T> =>
    queue(p.id, async () => {
      await mkdir(dir, { recursive: true, mode: 0o700 });
      return withLock(p.lock, p.id, lockOptions, work);
    });

  /** The session as stored, with its version; `undefined` when there is none. */
  const read = async (p: Paths): Promise<{ data: SessionData; version: string } | undefined> => {
    for (let round = 0; ; round++) {
      const snapshot = await readSnapshot(p);
      const log = await readLog(p.log);
      // a save that came in between: read again (it is rare, and each round is one save's worth)
      if (round < 20 && snapshot?.rev !== (await snapshotState(p.json)).rev) continue;
      if (snapshot === undefined && log === undefined) return undefined;
      const data: SessionData = snapshot?.data ?? emptySession();
      const rev = snapshot?.rev;
      let replay = "";
      let version: string | undefined;
      if ((snapshot !== undefined && rev === undefined) || (log !== undefined && log.head === undefined)) {
        // written before versions: the snapshot counts the bytes of the log it already holds
        const folded = typeof snapshot?.data.logBytes === "number" ? snapshot.data.logBytes : 0;
        const text = log?.text ?? "";
        replay = folded > 0 ? new TextDecoder().decode(new TextEncoder().encode(text).subarray(folded)) : text;
        version = `0.${log?.bytes ?? 0}`;
      } else {
        version = versionOf(rev, log?.head, log?.bytes ?? 0);
        if (version === undefined) return undefined; // only a log a deleted session left behind
        if (log?.head !== undefined && log.head.after === (rev ?? null)) replay = log.text;
      }
      delete (data as { logBytes?: unknown }).logBytes;
      replayLines(p.id, replay, data, options.onDamaged);
      return { data, version };
    }
  };

  const readSnapshot = async (p: Paths): Promise<Snapshot | undefined> => {
    const text = await readText(p.json);
    if (text === undefined) return undefined;
    let data: SessionData & { rev?: unknown; logBytes?: unknown };
    try {
      data = JSON.parse(text) as typeof data;
    } catch (e) {
      throw new SessionStoreError("damaged_session", p.id, `session ${JSON.stringify(p.id)}: ${p.json} is not JSON (${(e as Error).message})`);
    }
    checkSession(data, p.id);
    const rev = typeof data.rev === "string" ? data.rev : undefined;
    delete data.rev;
    return { data, rev };
  };

  /** Writes a new snapshot of `data` (synced, then renamed into place) and removes the log. */
  const writeSnapshot = async (p: Paths, data: SessionData): Promise<string> => {
    const rev = newVersion();
    const { storeVersion: _dropped, ...rest } = data;
    const handle = await open(p.tmp, "w", 0o600);
    try {
      await handle.chmod(0o600); // a temporary file a crash left behind may have other modes
      await handle.writeFile(JSON.stringify({ rev, ...rest }), "utf8");
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(p.tmp, p.json);
    await syncDir(dir);
    await rm(p.log, { force: true });
    await removeOldTemporaries(dir, p.id);
    return rev;
  };

  /**
   * Under the lock: the session's version, from the snapshot's first bytes and the log's first
   * line and end only (an append does not read the history); files from before versions are
   * read whole and rewritten first.
   */
  const currentVersion = async (p: Paths): Promise<string | undefined> => {
    const snapshot = await snapshotState(p.json);
    const log = await logState(p.log);
    if ((snapshot.exists && snapshot.rev === undefined) || (log !== undefined && log.head === undefined)) {
      const found = await read(p);
      return found === undefined ? undefined : writeSnapshot(p, found.data);
    }
    return versionOf(snapshot.exists ? snapshot.rev : undefined, log?.head, log?.bytes ?? 0);
  };

  return {
    concurrency: "atomic",
    async load(rawId) {
      const p = paths(rawId);
      return queue(p.id, async () => {
        const found = await read(p);
        return found === undefined ? undefined : { ...found.data, storeVersion: found.version };
      });
    },
    async save(rawId, data, writeOptions?: SessionWriteOptions) {
      const p = paths(rawId);
      const ifVersion = ifVersionOf(p.id, writeOptions);
      checkSession(data, p.id);
      const copy = JSON.parse(JSON.stringify(data)) as SessionData;
      return locked(p, async () => {
        if (ifVersion !== undefined) checkVersion(p.id, ifVersion, await currentVersion(p));
        return writeSnapshot(p, copy);
      });
    },
    async append(rawId, messages, usage, writeOptions?: SessionWriteOptions) {
      const p = paths(rawId);
      const ifVersion = ifVersionOf(p.id, writeOptions);
      const line = JSON.stringify(appendEntry(messages, usage));
      return locked(p, async () => {
        const version = await currentVersion(p);
        checkVersion(p.id, ifVersion, version);
        const rev = version === undefined ? null : (version.split(".")[0] as string);
        let log = await logState(p.log);
        if (log?.head !== undefined && log.head.after !== (rev === "-" ? null : rev)) {
          await rm(p.log, { force: true }); // folded by a save that crashed before removing it
          log = undefined;
        }
        const handle = await open(p.log, "a", 0o600);
        try {
          await handle.chmod(0o600);
          let head = log?.head;
          if (head === undefined) {
            head = { after: rev === "-" ? null : rev, id: newVersion() };
            await handle.appendFile(`${JSON.stringify({ turnwireLog: 1, ...head })}\n`, "utf8");
          }
          // a leading newline ends a line a crash cut short, so this entry stands on its own line
          await handle.appendFile(`\n${line}\n`, "utf8");
          await handle.sync();
          const { size } = await handle.stat();
          return `${rev ?? "-"}.${head.id}.${size}`;
        } finally {
          await handle.close();
        }
      });
    },
    async delete(rawId) {
      const p = paths(rawId);
      await locked(p, async () => {
        await rm(p.json, { force: true });
        await rm(p.log, { force: true });
        await rm(p.tmp, { force: true });
      });
    },
  };
}

/**
 * A session's version: its snapshot's rev (`-` for none) and, when the log follows that
 * snapshot, the log's id and whole-line bytes; `undefined` when there is no session (no
 * snapshot, and no log or only one that followed a deleted snapshot).
 */
function versionOf(rev: string | undefined, head: LogHead | undefined, bytes: number): string | undefined {
  const current = head !== undefined && head.after === (rev ?? null);
  if (rev === undefined && !current) return undefined;
  return current ? `${rev ?? "-"}.${head.id}.${bytes}` : (rev as string);
}

/** Adds the entries of log `text` to `data` (a line that is not JSON: `onDamaged`, skipped). */
function replayLines(id: string, text: string, data: SessionData, onDamaged: FileStoreOptions["onDamaged"]): void {
  const lines = text.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() === "") return;
    let entry: Partial<AppendEntry> & { turnwireLog?: unknown };
    try {
      entry = JSON.parse(line) as typeof entry;
    } catch {
      onDamaged?.(id, i + 1); // a write cut short: what it held is lost, the rest loads
      return;
    }
    if (entry.turnwireLog === undefined) applyEntry(data, entry); // else the log's first line
  });
}

async function readText(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return undefined;
    throw e;
  }
}

/** The log: its head, its whole lines as text (a line still being written is left out). */
async function readLog(path: string): Promise<Log | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return undefined;
    throw e;
  }
  const end = bytes.lastIndexOf(0x0a) + 1;
  const text = new TextDecoder().decode(bytes.subarray(0, end));
  const head = parseHead(text.slice(0, text.indexOf("\n")));
  // a log from before versions has no head: its last line may be cut short by a crash, and is
  // read whole (the reader reports it) as it always was
  if (head === undefined) return { head, text: new TextDecoder().decode(bytes), bytes: bytes.length };
  return { head, text, bytes: end };
}

/** Whether the snapshot exists and its `rev` (`undefined`: none, or written before versions). */
async function snapshotState(path: string): Promise<{ exists: boolean; rev: string | undefined }> {
  const head = await readHead(path, 256, false);
  return head === undefined ? { exists: false, rev: undefined } : { exists: true, rev: SNAPSHOT_HEAD.exec(head.text)?.[1] };
}

/** The log's head and whole-line bytes, from its first line and its end only. */
async function logState(path: string): Promise<{ head: LogHead | undefined; bytes: number } | undefined> {
  const head = await readHead(path, 4096, true);
  if (head === undefined) return undefined;
  const newline = head.text.indexOf("\n");
  return { head: newline < 0 ? undefined : parseHead(head.text.slice(0, newline)), bytes: head.wholeLineBytes };
}

/** The first `n` bytes of a file as text and, when `lines`, how many bytes its whole lines take. */
async function readHead(path: string, n: number, lines: boolean): Promise<{ text: string; wholeLineBytes: number } | undefined> {
  let handle;
  try {
    handle = await open(path, "r");
  } catch (e) {
    if ((e as { code?: string }).code === "ENOENT") return undefined;
    throw e;
  }
  try {
    const { size } = await handle.stat();
    const buffer = new Uint8Array(Math.min(n, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    // the end of the last whole line: read backwards in chunks from the end
    let end = 0;
    const chunk = new Uint8Array(65_536);
    for (let to = lines ? size : 0; to > 0 && end === 0; ) {
      const from = Math.max(0, to - chunk.length);
      const { bytesRead: got } = await handle.read(chunk, 0, to - from, from);
      const at = chunk.subarray(0, got).lastIndexOf(0x0a);
      if (at >= 0) end = from + at + 1;
      to = from;
    }
    return { text: new TextDecoder().decode(buffer.subarray(0, bytesRead)), wholeLineBytes: end };
  } finally {
    await handle.close();
  }
}

function parseHead(line: string): LogHead | undefined {
  try {
    const h = JSON.parse(line) as { turnwireLog?: unknown; after?: unknown; id?: unknown };
    if (h.turnwireLog === 1 && typeof h.id === "string" && (typeof h.after === "string" || h.after === null)) return { after: h.after, id: h.id };
  } catch {
    // not a head: a log from before versions
  }
  return undefined;
}

/** Temporary files of saves that crashed, as earlier releases named them (`<id>.json.<time>-<random>.tmp`). */
async function removeOldTemporaries(dir: string, id: string): Promise<void> {
  const prefix = `${id}.json.`;
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    if (name.startsWith(prefix) && /^\d+-[a-z0-9]+\.tmp$/.test(name.slice(prefix.length))) await rm(join(dir, name), { force: true });
  }
}

/** Syncs a folder after a rename, where the host allows it (not on every platform). */
async function syncDir(path: string): Promise<void> {
  let handle;
  try {
    handle = await open(path, "r");
    await handle.sync();
  } catch {
    // Windows and some file systems cannot sync a folder; the rename itself is still atomic
  } finally {
    await handle?.close();
  }
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (typeof value === "number" && value > 0 && !Number.isNaN(value)) return value;
  throw new RangeError(`fileStore: ${name} must be a positive number of milliseconds, got ${typeof value === "number" ? String(value) : typeof value}`);
}
