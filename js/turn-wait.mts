// Waiting within a streamed turn's bounds (internal module): a promise raced against a timer and
// the caller's abort, and how a limit option reads.
/** Content types of a page, not of a stream or a response. */
export const HTML = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i;
/** How much of an unexpected answer is read for its error. */
export const EXCERPT_BYTES = 512;

export const ABORTED = Symbol("aborted");
export const TIMEOUT = Symbol("timeout");

/** A limit option: the default when not given; no limit (Infinity) for 0, negative or non-finite. */
export function limitMs(value: number | undefined, fallback: number): number {
  if (value === undefined || value === null) return fallback;
  return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : Infinity;
}

/** `promise`, unless `ms` pass first (TIMEOUT) or `abort` settles first (ABORTED). */
export async function race<T>(promise: Promise<T>, ms: number, abort: Promise<typeof ABORTED>): Promise<T | typeof TIMEOUT | typeof ABORTED> {
  if (!Number.isFinite(ms)) return Promise.race([promise, abort]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMEOUT), ms);
  });
  try {
    return await Promise.race([promise, abort, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
