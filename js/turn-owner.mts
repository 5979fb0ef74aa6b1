// One turn at a time per Conversation (internal module): while a turn is in flight it owns its
// conversation, so a second turn, an append or an edit, and free() are TurnInFlightErrors until
// it settles (REQ-915-050: the history and the provider stay bound to the turn in flight).
//
// The refusal is on the class's prototype (guardTurns, once per glue class): each refused method
// looks the conversation up in the in-flight set, and the turn's own append and truncate call
// the methods as they were before the guard. Nothing is written on the conversation itself, so a
// frozen or sealed one is owned and given back like any other, and releasing it cannot fail.
import { TurnInFlightError } from "./errors.mjs";

/** The conversations a turn is in flight on. */
const inFlight = new WeakSet<object>();

/** Per guarded prototype: its refused methods as they were before the guard. */
const unguarded = new WeakMap<object, Map<PropertyKey, Method>>();

type Method = (this: object, ...args: unknown[]) => unknown;

/** The methods a turn in flight refuses to anyone else, and why. */
const REFUSED: ReadonlyArray<[string, string]> = [
  ["free", "free()"],
  ["append", "an append"],
  ["appendJson", "an append"],
  ["truncate", "an edit"],
  ["replace", "an edit"],
  ["splice", "an edit"],
  ["spliceArray", "an edit"],
  ["compact", "an edit"],
];

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

/** Makes the refused methods of `proto` (a Conversation class's prototype) refuse while in flight. */
export function guardTurns(proto: object): void {
  if (unguarded.has(proto)) return;
  const target = proto as Record<PropertyKey, unknown>;
  const disposeKey = (Symbol as { dispose?: symbol }).dispose;
  const keys: Array<[PropertyKey, string]> = [...REFUSED];
  if (disposeKey !== undefined) keys.push([disposeKey, "free()"]);
  const originals = new Map<PropertyKey, Method>();
  for (const [key, what] of keys) {
    const original = target[key];
    if (typeof original !== "function") continue;
    originals.set(key, original as Method);
    const guarded = function (this: object, ...args: unknown[]): unknown {
      if (inFlight.has(this)) {
        throw new TurnInFlightError(`this conversation's turn is still in flight: await it (or abort it) before ${what}`);
      }
      return (original as Method).apply(this, args);
    };
    Object.defineProperty(guarded, "name", { value: typeof key === "string" ? key : "[Symbol.dispose]" });
    Object.defineProperty(target, key, { value: guarded, writable: true, configurable: true });
  }
  unguarded.set(proto, originals);
}

/** While a turn is in flight on `conversation`: no second turn, no append or edit, no `free()`. */
export function own(conversation: object): Ownership {
  if (inFlight.has(conversation)) {
    throw new TurnInFlightError("a turn is already in flight on this conversation: await it (or abort it) before starting the next");
  }
  const proto: unknown = Object.getPrototypeOf(conversation);
  // a conversation of a glue class no entry extended (another copy of the glue) is guarded now
  if (typeof proto === "object" && proto !== null && !unguarded.has(proto) && typeof (proto as { __destroy_into_raw?: unknown }).__destroy_into_raw === "function") {
    guardTurns(proto);
  }
  const originals = typeof proto === "object" && proto !== null ? unguarded.get(proto) : undefined;
  const method = (key: string): Method => (originals?.get(key) ?? (conversation as Record<string, unknown>)[key]) as Method;
  const ownAppend = method("append");
  const ownTruncate = method("truncate");
  inFlight.add(conversation);
  return {
    append: (message) => void ownAppend.call(conversation, message),
    truncate: (length) => ownTruncate.call(conversation, length) as unknown[],
    release: () => {
      inFlight.delete(conversation);
    },
  };
}
