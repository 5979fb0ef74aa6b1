// Waiting within a streamed turn's bounds (internal module): a promise raced against a timer and
// the caller's abort, and how a limit option reads.
import { LIMIT_OR_ZERO, numberOption } from "./options.mjs";

/** Content types of a page, not of a stream or a response. */
export const HTML = /^\s*(?:text\/html|application\/xhtml\+xml)\b/i;
/** How much of an unexpected answer is read for its error. */
export const EXCERPT_BYTES = 512;

export const ABORTED = Symbol("aborted");
export const TIMEOUT = Symbol("timeout");

/**
 * A limit option of `streamTurn` (`name`): the default when not given; a positive number; no
 * limit (Infinity) for `Infinity` or `0`; anything else a TurnwireError naming it.
 */
export function limitMs(name: string, value: unknown, fallback: number): number {
  const n = numberOption(name, value, fallback, LIMIT_OR_ZERO);
  return n === 0 ? Infinity : n;
}

/** The longest delay a timer takes as it is (2^31 − 1 ms): a longer one fires at once in Node. */
const MAX_TIMER_MS = 2_147_483_647;

/** `promise`, unless `ms` pass first (TIMEOUT) or `abort` settles first (ABORTED). */
export async function race<T>(promise: Promise<T>, ms: number, abort: Promise<typeof ABORTED>): Promise<T | typeof TIMEOUT | typeof ABORTED> {
  if (!Number.isFinite(ms)) return Promise.race([promise, abort]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => {
    const ends = Date.now() + ms;
    const arm = (left: number): void => {
      timer = setTimeout(() => (left > MAX_TIMER_MS ? arm(ends - Date.now()) : resolve(TIMEOUT)), Math.min(left, MAX_TIMER_MS));
    };
    arm(ms);
  });
  try {
    return await Promise.race([promise, abort, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
