// What one `append` adds to a session, the same in every store (internal module): its messages,
// the usage totals that replace the session's, and when it happened.
import type { SessionData, UsageTotals } from "./session.mjs";
import type { Message } from "./turnwire.js";

/** One append, as stores keep it (a file's log line, a Redis list item). */
export interface AppendEntry {
  messages: Message[];
  usage?: UsageTotals;
  at: string;
}

/**
 * The entry of an append, a JSON copy taken now: later changes to the caller's `messages` or
 * `usage` are not stored.
 *
 * @example
 * ```ts
 * const line = JSON.stringify(appendEntry([message], totals));
 * ```
 */
export function appendEntry(messages: readonly Message[], usage: UsageTotals | undefined): AppendEntry {
  const entry: AppendEntry = { messages: JSON.parse(JSON.stringify(messages)) as Message[], at: new Date().toISOString() };
  if (usage !== undefined) entry.usage = JSON.parse(JSON.stringify(usage)) as UsageTotals;
  return entry;
}

/** A session with nothing in it yet (what an append to a missing session starts from). */
export function emptySession(): SessionData {
  return { version: 1, transcript: [], usage: {}, savedAt: "" };
}

/**
 * Adds an entry (as read back: its members checked) to `data`, in place.
 *
 * @example
 * ```ts
 * applyEntry(data, JSON.parse(line));
 * ```
 */
export function applyEntry(data: SessionData, entry: Partial<AppendEntry>): SessionData {
  if (Array.isArray(entry.messages)) data.transcript.push(...entry.messages);
  if (entry.usage !== undefined) data.usage = entry.usage;
  if (typeof entry.at === "string") data.savedAt = entry.at;
  return data;
}
