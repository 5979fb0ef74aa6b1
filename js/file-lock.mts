// A lock file per session for the file store (internal module): the writers of one session, in
// any number of processes on one host, take turns. The lock is a file created only if it does
// not exist (O_EXCL), naming its holder; a holder that died (kill -9) leaves it behind, and the
// next writer takes it over once it sees that process gone, or the lock older than any write.
import { hostname } from "node:os";
import { open, readFile, stat, unlink } from "node:fs/promises";
import { newVersion, SessionStoreError } from "./store-error.mjs";

/** Who holds a lock. */
interface Holder {
  pid: number;
  host: string;
  nonce: string;
  at: number;
}

/** How to wait for a lock. */
export interface LockOptions {
  /** How long a writer waits for the lock before `session_busy` (ms). */
  waitMs: number;
  /** A lock older than this is taken over whoever holds it: no write takes this long (ms). */
  staleMs: number;
}

/**
 * This host's name, or `""` where the host may not be asked (Deno without `--allow-sys`): the
 * lock is for one host, so the name only tells a lock file shared over a network apart.
 */
let host: string | undefined;
function thisHost(): string {
  if (host === undefined) {
    try {
      host = hostname();
    } catch {
      host = "";
    }
  }
  return host;
}

/** A lock or steal marker whose holder never wrote its name is stale after this long (ms). */
const UNNAMED_STALE_MS = 2_000;

/**
 * Runs `work` holding the lock file `path` (for the session `id`, in errors).
 *
 * @example
 * ```ts
 * await withLock(join(dir, "s1.lock"), "s1", { waitMs: 10_000, staleMs: 30_000 }, () => appendLine());
 * ```
 */
export async function withLock<T>(path: string, id: string, options: LockOptions, work: () => Promise<T>): Promise<T> {
  const me: Holder = { pid: process.pid, host: thisHost(), nonce: newVersion(), at: Date.now() };
  const giveUp = Date.now() + options.waitMs;
  for (let wait = 1; ; wait = Math.min(wait * 2, 50)) {
    if (await tryCreate(path, me)) break;
    await takeOverIfStale(path, options.staleMs);
    if (Date.now() > giveUp) {
      throw new SessionStoreError("session_busy", id, `session ${JSON.stringify(id)}: another writer has held ${path} for more than ${options.waitMs} ms`);
    }
    await new Promise((r) => setTimeout(r, wait));
  }
  try {
    return await work();
  } finally {
    // only our own lock: one taken over from us (we were stopped past staleMs) is the new holder's
    if ((await readHolder(path))?.nonce === me.nonce) await unlink(path).catch(() => {});
  }
}

/** Creates the lock naming `me`; false when it exists. */
async function tryCreate(path: string, me: Holder): Promise<boolean> {
  let handle;
  try {
    handle = await open(path, "wx", 0o600);
  } catch (e) {
    if ((e as { code?: string }).code === "EEXIST") return false;
    throw e;
  }
  try {
    await handle.writeFile(JSON.stringify({ ...me, at: Date.now() }));
  } finally {
    await handle.close();
  }
  return true;
}

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const h = JSON.parse(await readFile(path, "utf8")) as Partial<Holder>;
    return typeof h.nonce === "string" && typeof h.pid === "number" && typeof h.host === "string" && typeof h.at === "number" ? (h as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether process `pid` on this host is gone (where the host may not be asked — Deno without
 * `--allow-run` — it counts as running, and its lock is taken over after `staleMs`).
 */
function gone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (e) {
    return (e as { code?: string }).code === "ESRCH";
  }
}

/** Whether the lock at `path` (as read) belongs to no live writer. */
async function isStale(path: string, holder: Holder | undefined, staleMs: number): Promise<boolean> {
  if (holder === undefined) {
    // created but never named (its writer died between the two steps), or just now being named
    const age = await stat(path).then((s) => Date.now() - s.mtimeMs, () => 0);
    return age > UNNAMED_STALE_MS;
  }
  if (Date.now() - holder.at > staleMs) return true;
  return holder.host === thisHost() && holder.pid !== process.pid && gone(holder.pid);
}

/**
 * Removes a stale lock. Two writers may see the same stale lock: a steal marker (itself created
 * only if absent) lets one of them remove it, after reading it again, so a fresh lock that
 * replaced the stale one in between is never removed.
 */
async function takeOverIfStale(path: string, staleMs: number): Promise<void> {
  const holder = await readHolder(path);
  if (!(await isStale(path, holder, staleMs))) return;
  const marker = `${path}.steal`;
  const me: Holder = { pid: process.pid, host: thisHost(), nonce: newVersion(), at: Date.now() };
  if (!(await tryCreate(marker, me))) {
    const other = await readHolder(marker);
    if (await isStale(marker, other, UNNAMED_STALE_MS)) await unlink(marker).catch(() => {});
    return;
  }
  try {
    const again = await readHolder(path);
    if (again?.nonce === holder?.nonce && (await isStale(path, again, staleMs))) await unlink(path).catch(() => {});
  } finally {
    await unlink(marker).catch(() => {});
  }
}
