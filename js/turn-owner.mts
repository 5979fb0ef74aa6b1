// One turn at a time per Conversation (internal module): while a turn is in flight it owns its
// conversation, so a second turn, an append or an edit, and free() are TurnInFlightErrors until
// it settles (REQ-915-050: the history and the provider stay bound to the turn in flight).
//
// No method is swapped for the turn: the handle guard (handle-guard.mts) wraps each method of a
// Conversation class once, and that one wrapper asks `refuseInFlight` first. A refused method
// looks the conversation up in the in-flight set; the turn's own append and truncate pass with a
// one-call pass (`turnCall`), taken by the first refused method they enter. Nothing is written
// on the conversation itself, so a frozen or sealed one is owned and given back like any other,
// and releasing it cannot fail.
import { TurnInFlightError } from "./errors.mjs";
import { guardHandles } from "./handle-guard.mjs";

/** The conversations a turn is in flight on. */
const inFlight = new WeakSet<object>();

/** The conversations whose turn is making its own call (its append or truncate) right now. */
const turnCall = new WeakSet<object>();

/** The Conversation prototypes whose methods ask `refuseInFlight` (extendConversation's, and any own() met). */
const guarded = new WeakSet<object>();

type Method = (this: object, ...args: unknown[]) => unknown;

/** The methods a turn in flight refuses to anyone else, and why. */
const REFUSED: ReadonlyMap<PropertyKey, string> = new Map<PropertyKey, string>([
  ["free", "free()"],
  ["append", "an append"],
  ["appendJson", "an append"],
  ["truncate", "an edit"],
  ["replace", "an edit"],
  ["splice", "an edit"],
  ["spliceArray", "an edit"],
  ["compact", "an edit"],
  ...((Symbol as { dispose?: symbol }).dispose === undefined ? [] : [[(Symbol as { dispose: symbol }).dispose, "free()"] as [symbol, string]]),
]);

/** What a turn holds while it owns a conversation. */
export interface Ownership {
  /** Appends the turn's own message (the one append allowed while in flight). */
  append(message: unknown): void;
  /** Cuts the conversation back to `length` messages (the router drops a cut-off reply). */
  truncate(length: number): unknown[];
  /** Gives the conversation back. */
  release(): void;
}

/** Whether a turn is in flight on `conversation`. */
export function isOwned(conversation: object): boolean {
  return inFlight.has(conversation);
}

/**
 * The turn guard's check, first in every guarded method of a Conversation: a refused method
 * (`key`) on a conversation whose turn is in flight throws a TurnInFlightError, unless it is the
 * turn's own call.
 */
export function refuseInFlight(conversation: object, key: PropertyKey): void {
  const what = REFUSED.get(key);
  if (what === undefined || !inFlight.has(conversation)) return;
  if (turnCall.delete(conversation)) return; // the turn's own append or truncate: one call passes
  throw new TurnInFlightError(`this conversation's turn is still in flight: await it (or abort it) before ${what}`);
}

/** The handle guard with the turn guard, on a Conversation class (once). */
export function guardConversation(C: { prototype: object }): void {
  guarded.add(C.prototype);
  guardHandles(C, "Conversation", refuseInFlight);
}

/** While a turn is in flight on `conversation`: no second turn, no append or edit, no `free()`. */
export function own(conversation: object): Ownership {
  if (inFlight.has(conversation)) {
    throw new TurnInFlightError("a turn is already in flight on this conversation: await it (or abort it) before starting the next");
  }
  const proto: unknown = Object.getPrototypeOf(conversation);
  // a conversation of a glue class no entry extended (another copy of the glue) is guarded now
  if (typeof proto === "object" && proto !== null && !guarded.has(proto) && typeof (proto as { __destroy_into_raw?: unknown }).__destroy_into_raw === "function") {
    guardConversation({ prototype: proto });
  }
  // a guarded class's own methods (an instance's own `append` is not the conversation's)
  const from = (typeof proto === "object" && proto !== null && guarded.has(proto) ? proto : conversation) as Record<string, unknown>;
  const ownAppend = from["append"] as Method;
  const ownTruncate = from["truncate"] as Method;
  inFlight.add(conversation);
  /** `method` called as the turn's own call. */
  const asTurn = (method: Method, arg: unknown): unknown => {
    turnCall.add(conversation);
    try {
      return method.call(conversation, arg);
    } finally {
      turnCall.delete(conversation);
    }
  };
  return {
    append: (message) => void asTurn(ownAppend, message),
    truncate: (length) => asTurn(ownTruncate, length) as unknown[],
    release: () => {
      inFlight.delete(conversation);
    },
  };
}
