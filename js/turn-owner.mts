// One turn at a time per Conversation (internal module): while a turn is in flight it owns its
// conversation, so a second turn and free() are TurnInFlightErrors until it settles.
import { TurnInFlightError } from "./errors.mjs";

/** The conversations a turn is in flight on. */
const inFlight = new WeakSet<object>();

/** While a turn is in flight on `conversation`: no second turn, no `free()`. Returns the release. */
export function own(conversation: object): () => void {
  if (inFlight.has(conversation)) {
    throw new TurnInFlightError("a turn is already in flight on this conversation: await it (or abort it) before starting the next");
  }
  inFlight.add(conversation);
  const refuse = (): never => {
    throw new TurnInFlightError("this conversation's turn is still in flight: await it (or abort it) before free()");
  };
  const target = conversation as Record<PropertyKey, unknown>;
  const ownFree = Object.getOwnPropertyDescriptor(target, "free");
  const disposeKey = (Symbol as { dispose?: symbol }).dispose;
  const ownDispose = disposeKey === undefined ? undefined : Object.getOwnPropertyDescriptor(target, disposeKey);
  Object.defineProperty(target, "free", { value: refuse, configurable: true, writable: true });
  if (disposeKey !== undefined) Object.defineProperty(target, disposeKey, { value: refuse, configurable: true, writable: true });
  return () => {
    inFlight.delete(conversation);
    if (ownFree === undefined) delete target["free"];
    else Object.defineProperty(target, "free", ownFree);
    if (disposeKey !== undefined) {
      if (ownDispose === undefined) delete target[disposeKey];
      else Object.defineProperty(target, disposeKey, ownDispose);
    }
  };
}
