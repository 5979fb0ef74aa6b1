// One turn at a time per Conversation (internal module): while a turn is in flight it owns its
// conversation, so a second turn, an append or an edit, and free() are TurnInFlightErrors until
// it settles (REQ-915-050: the history and the provider stay bound to the turn in flight).
import { TurnInFlightError } from "./errors.mjs";

/** The conversations a turn is in flight on. */
const inFlight = new WeakSet<object>();

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

/** While a turn is in flight on `conversation`: no second turn, no append or edit, no `free()`. */
export function own(conversation: object): Ownership {
  if (inFlight.has(conversation)) {
    throw new TurnInFlightError("a turn is already in flight on this conversation: await it (or abort it) before starting the next");
  }
  inFlight.add(conversation);
  const target = conversation as Record<PropertyKey, unknown>;
  const ownAppend = target["append"] as (message: unknown) => void;
  const ownTruncate = target["truncate"] as (length: number) => unknown[];
  const saved: Array<[PropertyKey, PropertyDescriptor | undefined]> = [];
  const refuse = (what: string) => (): never => {
    throw new TurnInFlightError(`this conversation's turn is still in flight: await it (or abort it) before ${what}`);
  };
  const disposeKey = (Symbol as { dispose?: symbol }).dispose;
  const keys: Array<[PropertyKey, string]> = [...REFUSED];
  if (disposeKey !== undefined) keys.push([disposeKey, "free()"]);
  for (const [key, what] of keys) {
    saved.push([key, Object.getOwnPropertyDescriptor(target, key)]);
    Object.defineProperty(target, key, { value: refuse(what), configurable: true, writable: true });
  }
  return {
    append: (message) => ownAppend.call(conversation, message),
    truncate: (length) => ownTruncate.call(conversation, length),
    release: () => {
      inFlight.delete(conversation);
      for (const [key, descriptor] of saved) {
        if (descriptor === undefined) delete target[key];
        else Object.defineProperty(target, key, descriptor);
      }
    },
  };
}
