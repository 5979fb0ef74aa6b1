// What the Conversation class gets from JavaScript (internal module): the variadic `splice`
// (wasm exports take a fixed argument list; it calls `spliceArray`), `inFlight`, and the handle
// guard (handle-guard.mts: a typed error after free(), or from a call inside another) asking the
// turn guard first (turn-owner.mts). Every entry applies it to its glue's class once.
import { guardConversation, isOwned } from "./turn-owner.mjs";

/** The part of the glue's Conversation class this extends. */
interface ConversationClass {
  prototype: object;
}

const done = new WeakSet<object>();

/** Adds `splice(start, deleteCount?, ...messages)` and `inFlight` to `C.prototype`, and the guards. */
export function extendConversation(C: ConversationClass): void {
  const proto = C.prototype as Record<string, unknown>;
  if (done.has(proto)) return;
  done.add(proto);
  // the glue's own methods only: `splice` calls `spliceArray`, which must not count as a call
  // inside a call (and refuses an edit while a turn is in flight)
  guardConversation(C);
  Object.defineProperty(proto, "splice", {
    value: function splice(this: { spliceArray(start: unknown, deleteCount: unknown, messages: unknown[]): unknown }, start: unknown, deleteCount?: unknown, ...messages: unknown[]) {
      return this.spliceArray(start, arguments.length < 2 ? undefined : (deleteCount ?? 0), messages);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(proto, "inFlight", {
    get(this: object) {
      return isOwned(this);
    },
    configurable: true,
  });
}
