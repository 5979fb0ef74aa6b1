// SessionStoreError: what a session store answers instead of doing what was asked, with a
// stable code, and the optimistic-concurrency check every store shares (internal helpers).

/**
 * Why a session store refused:
 * - `"session_conflict"`: the session moved since the version the caller named (`ifVersion`);
 *   load it again, merge, and write with the new version;
 * - `"session_busy"`: another writer held the session for longer than the store waits (files:
 *   its lock; key-value stores: compare-and-set lost too many times in a row);
 * - `"invalid_session_id"`: the id is not a string the store can use as a name;
 * - `"damaged_session"`: what the store holds under the id is not a turnwire session.
 *
 * @example
 * ```ts
 * const code: SessionStoreErrorCode = "session_conflict";
 * ```
 */
export type SessionStoreErrorCode = "session_conflict" | "session_busy" | "invalid_session_id" | "damaged_session";

/**
 * A session store refused a load, save, append or delete. `code` says why; for a conflict,
 * `expectedVersion` is the caller's `ifVersion` and `actualVersion` the session's version now
 * (`undefined` when there is no such session).
 *
 * @example
 * ```ts
 * try {
 *   await store.append(id, [message], usage, { ifVersion: loaded.storeVersion });
 * } catch (e) {
 *   if (isSessionStoreError(e) && e.code === "session_conflict") reloadAndRetry();
 *   else throw e;
 * }
 * ```
 */
export class SessionStoreError extends Error {
  declare readonly name: "SessionStoreError";
  readonly code: SessionStoreErrorCode;
  /** The session's id, as the caller gave it (`String(id)` for a non-string). */
  readonly id: string;
  /** For a conflict: the version the caller expected (`null`: that there was no session). */
  readonly expectedVersion: string | null | undefined;
  /** For a conflict: the session's version now (`undefined`: there is no session). */
  readonly actualVersion: string | undefined;

  constructor(code: SessionStoreErrorCode, id: string, message: string, versions: { expected?: string | null; actual?: string | undefined } = {}) {
    super(message);
    this.code = code;
    this.id = id;
    this.expectedVersion = versions.expected;
    this.actualVersion = versions.actual;
  }
}
Object.defineProperty(SessionStoreError.prototype, "name", { value: "SessionStoreError", writable: true, configurable: true });

/**
 * Whether `value` is a `SessionStoreError` (from any copy of the package).
 *
 * @example
 * ```ts
 * if (isSessionStoreError(e) && e.code === "session_conflict") console.log(`moved to ${e.actualVersion}`);
 * ```
 */
export function isSessionStoreError(value: unknown): value is SessionStoreError {
  return value instanceof Error && value.name === "SessionStoreError" && typeof (value as { code?: unknown }).code === "string";
}

/**
 * Throws a `session_conflict` unless the session's `actual` version is the one `expected`
 * names: `undefined` accepts any, `null` only a missing session, a string only that version.
 * @internal
 */
export function checkVersion(id: string, expected: string | null | undefined, actual: string | undefined): void {
  if (expected === undefined || expected === actual || (expected === null && actual === undefined)) return;
  const now = actual === undefined ? "there is no such session" : `it is at version ${JSON.stringify(actual)}`;
  const wanted = expected === null ? "no session" : `version ${JSON.stringify(expected)}`;
  throw new SessionStoreError("session_conflict", id, `session ${JSON.stringify(id)} moved: expected ${wanted}, but ${now}`, { expected, actual });
}

/**
 * The `ifVersion` of write options, checked: `undefined`, `null` or a non-empty string.
 * @internal
 */
export function ifVersionOf(id: string, options: { ifVersion?: string | null } | undefined): string | null | undefined {
  const v = options?.ifVersion;
  if (v === undefined || v === null || (typeof v === "string" && v !== "")) return v;
  throw new TypeError(`session ${JSON.stringify(id)}: ifVersion must be a version string from a load or a write, or null for "no session yet"; got ${typeof v}`);
}

/**
 * The id of a session, checked once per call (a value whose `toString` changes between calls
 * cannot name two sessions): a non-empty string.
 * @internal
 */
export function sessionId(id: unknown): string {
  if (typeof id === "string" && id !== "") return id;
  throw new SessionStoreError("invalid_session_id", typeof id === "string" ? id : typeof id, `a session id must be a non-empty string, got ${typeof id === "string" ? "an empty string" : typeof id}`);
}

/**
 * A new version token: unique per write, so a deleted and re-created session never repeats one.
 * @internal
 */
export function newVersion(): string {
  const random = new Uint8Array(9);
  globalThis.crypto.getRandomValues(random);
  let s = Date.now().toString(36) + "-";
  for (const b of random) s += b.toString(36).padStart(2, "0");
  return s;
}
