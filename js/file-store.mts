// Sessions in files (Node, Bun, Deno with node: modules): `turnwire/file-store`. One
// `<id>.json` snapshot per session, written atomically (a temporary file renamed over it), and an
// `<id>.log` of messages appended since, one JSON line each; loading replays the log, and the
// next save folds it into the snapshot. A line cut short by a crash is left out and reported.
// The snapshot records how many bytes of the log it already holds (`logBytes`), so a crash
// between writing it and removing the log replays nothing twice. One writer per session.
import { appendFile, mkdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { checkSession, type SessionData, type SessionStore, type UsageTotals } from "./session.mjs";
import type { Message } from "./turnwire.js";

/**
 * A session store in the folder `dir` (created when missing). Ids are file names: letters,
 * digits, `.`, `_` and `-`, up to 128 characters.
 *
 * @example
 * ```ts
 * import { fileStore } from "turnwire/file-store";
 * const store = fileStore(join(homedir(), ".my-agent", "sessions"));
 * await saveSession(store, "2026-11-26-refactor", { conversation, usage });
 * ```
 */
export function fileStore(dir: string, options: { onDamaged?: (id: string, line: number) => void } = {}): SessionStore {
  const file = (id: string, ext: string) => {
    if (!/^[\w.-]{1,128}$/.test(id) || id.startsWith(".")) throw new TypeError(`session id ${JSON.stringify(id)}: use letters, digits, ".", "_" and "-" (up to 128), not starting with "."`);
    return join(dir, `${id}.${ext}`);
  };
  const read = async (path: string): Promise<string | undefined> => {
    try {
      return await readFile(path, "utf8");
    } catch (e) {
      if ((e as { code?: string }).code === "ENOENT") return undefined;
      throw e;
    }
  };
  const writeAtomically = async (path: string, text: string) => {
    await mkdir(dir, { recursive: true });
    const temp = `${path}.${Date.now()}-${Math.random().toString(36).slice(2)}.tmp`;
    await writeFile(temp, text, "utf8");
    await rename(temp, path);
  };
  return {
    async load(id) {
      const snapshot = await read(file(id, "json"));
      const log = await read(file(id, "log"));
      if (snapshot === undefined && log === undefined) return undefined;
      let data: SessionData;
      try {
        data = snapshot === undefined ? { version: 1, transcript: [], usage: {}, savedAt: "" } : (JSON.parse(snapshot) as SessionData);
      } catch (e) {
        throw new TypeError(`session ${JSON.stringify(id)}: ${file(id, "json")} is not JSON (${(e as Error).message})`);
      }
      checkSession(data, id);
      // the part of the log the snapshot already holds (a crash after the snapshot was written)
      const stored = data as SessionData & { logBytes?: unknown };
      const folded = typeof stored.logBytes === "number" ? stored.logBytes : 0;
      delete stored.logBytes;
      const rest = folded > 0 ? new TextDecoder().decode(new TextEncoder().encode(log ?? "").subarray(folded)) : (log ?? "");
      const lines = rest.split("\n");
      lines.forEach((line, i) => {
        if (line.trim() === "") return;
        let entry: { messages?: Message[]; usage?: UsageTotals; at?: string };
        try {
          entry = JSON.parse(line) as typeof entry;
        } catch {
          options.onDamaged?.(id, i + 1); // a write cut short: what it held is lost, the rest loads
          return;
        }
        if (Array.isArray(entry.messages)) data.transcript.push(...entry.messages);
        if (entry.usage !== undefined) data.usage = entry.usage;
        if (typeof entry.at === "string") data.savedAt = entry.at;
      });
      return data;
    },
    async save(id, data) {
      // `data` is the whole session: the log so far is folded into it
      const logBytes = (await stat(file(id, "log")).catch(() => undefined))?.size ?? 0;
      await writeAtomically(file(id, "json"), JSON.stringify(logBytes > 0 ? { ...data, logBytes } : data));
      await rm(file(id, "log"), { force: true });
    },
    async append(id, messages, usage) {
      await mkdir(dir, { recursive: true });
      const entry: { messages: readonly Message[]; usage?: UsageTotals; at: string } = { messages, at: new Date().toISOString() };
      if (usage !== undefined) entry.usage = usage;
      // a leading newline ends a line a crash cut short, so this entry stands on its own line
      await appendFile(file(id, "log"), `\n${JSON.stringify(entry)}\n`, "utf8");
    },
    async delete(id) {
      await rm(file(id, "json"), { force: true });
      await rm(file(id, "log"), { force: true });
    },
  };
}
