// turnwire/file-store: sessions in files (Node, Bun, Deno). The store's types are the main
// entry's (SessionStore, SessionData).
import type { SessionStore } from "./index.js";

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

/**
 * A session store in the folder `dir` (created when missing, mode 0700): per session an
 * `<id>.json` snapshot (written to a temporary file, synced and renamed over the old one) and an
 * `<id>.log` of the messages appended since, one JSON line each; every file is 0600. Every
 * resolved `append` and `save` is on disk and survives the process being killed at any moment;
 * several processes may write one session (a lock file makes them take turns) and `ifVersion`
 * is exact (`concurrency: "atomic"`) on one host. A line cut short by a crash is left out and
 * reported to `onDamaged`. Ids are file names: letters, digits, `.`, `_` and `-`, up to 128
 * characters, not starting with `.`.
 *
 * @example
 * ```ts
 * import { fileStore } from "turnwire/file-store";
 * const store = fileStore(join(homedir(), ".my-agent", "sessions"));
 * await saveSession(store, "2026-11-26-refactor", { conversation, usage });
 * ```
 */
export declare function fileStore(dir: string, options?: FileStoreOptions): SessionStore;
