// turnwire/file-store: sessions in files (Node, Bun, Deno). The store's types are the main
// entry's (SessionStore, SessionData).
import type { SessionStore } from "./index.js";

/**
 * A session store in the folder `dir` (created when missing): one `<id>.json` snapshot written
 * atomically (a temporary file renamed over it) and an `<id>.log` of messages appended since,
 * one JSON line each. A line cut short by a crash is left out and reported to `onDamaged`.
 * Ids are file names: letters, digits, `.`, `_` and `-`, up to 128 characters.
 *
 * @example
 * ```ts
 * import { fileStore } from "turnwire/file-store";
 * const store = fileStore(join(homedir(), ".my-agent", "sessions"));
 * await saveSession(store, "2026-11-26-refactor", { conversation, usage });
 * ```
 */
export declare function fileStore(dir: string, options?: { onDamaged?: (id: string, line: number) => void }): SessionStore;
