// The handles the wasm module gives out (Conversation, StreamDecoder, StreamRelay), safe to
// misuse (internal module). Every method and accessor of a glue class is wrapped once, so that:
//  - a call after free() (or on something that is not a handle) is a TurnwireError `freed`, not
//    the glue's untyped "null pointer passed to rust";
//  - a call from inside another call on the same handle (a getter or toJSON of the outer call's
//    argument calling back) is a TurnwireError `reentrant_call`, not wasm-bindgen's "recursive
//    use of an object";
//  - free() from inside a call frees when that call returns (the glue's free would throw there
//    and leak the handle's memory), and free() of a freed handle does nothing.
// A frozen handle cannot be marked freed (the glue writes its pointer): its free() is a
// TurnwireError `invalid_value`, and its memory goes when it is garbage collected.
import { turnwireError } from "./errors.mjs";

/** What the glue keeps on a handle: its pointer into wasm memory, 0 once freed. */
interface Handle {
  __wbg_ptr?: unknown;
}

type Method = (this: Handle, ...args: unknown[]) => unknown;

/** The handles a call is running on. */
const busy = new WeakSet<object>();
/** The handles whose free() was called during a call on them. */
const freeLater = new WeakSet<object>();
/** The prototypes already wrapped. */
const done = new WeakSet<object>();

/** A TurnwireError of a handle (its path is the whole value, `$`). */
const handleError = (code: "freed" | "reentrant_call" | "invalid_value", message: string): Error => turnwireError(code, "$", message);

/** Whether `value` is a handle that has not been freed (reading a Proxy's pointer may throw). */
function live(value: unknown): value is Handle {
  if (typeof value !== "object" || value === null) return false;
  try {
    const ptr = (value as Handle).__wbg_ptr;
    return typeof ptr === "number" && ptr !== 0;
  } catch {
    return false;
  }
}

/** Whether the glue cannot write the handle's pointer (Object.freeze). */
function frozen(handle: Handle): boolean {
  return Object.getOwnPropertyDescriptor(handle, "__wbg_ptr")?.writable === false;
}

/** `f`, named `key` (for stack traces). */
function named(f: Method, key: string | symbol): Method {
  return Object.defineProperty(f, "name", { value: typeof key === "string" ? key : `[${key.description ?? ""}]` });
}

/**
 * Wraps each method and accessor of the glue class `C` (named `name` in errors), once. `refuse`,
 * when given, is asked first in every one of them (free() as `"free"`), and may throw: the turn
 * guard's check (turn-owner.mts).
 */
export function guardHandles(C: { prototype: object }, name: string, refuse?: (handle: object, key: PropertyKey) => void): void {
  const proto = C.prototype as Record<PropertyKey, unknown>;
  if (done.has(proto)) return;
  done.add(proto);
  const glueFree = proto["free"] as Method;
  const freeNow = (handle: Handle) => {
    if (!frozen(handle)) glueFree.call(handle);
  };

  const guardedFree = function free(this: Handle): void {
    refuse?.(this, "free");
    if (!live(this)) return; // freed already
    if (busy.has(this)) {
      freeLater.add(this);
      return;
    }
    if (frozen(this)) {
      throw handleError("invalid_value", `this ${name} is frozen, so free() cannot mark it freed: its memory is released when it is garbage collected (free it before freezing it, or do not freeze it)`);
    }
    glueFree.call(this);
  };

  const wrap = (method: Method, key: PropertyKey): Method =>
    function (this: Handle, ...args: unknown[]): unknown {
      refuse?.(this, key);
      if (!live(this)) {
        throw handleError("freed", `this ${name} was freed (free() or \`using\`) and cannot be used any more (or the method was called on something that is not a ${name})`);
      }
      if (busy.has(this)) {
        throw handleError("reentrant_call", `this ${name} is in the middle of another call (a getter or toJSON of that call's argument called back into it); call it after that call returns`);
      }
      busy.add(this);
      try {
        return method.apply(this, args);
      } finally {
        busy.delete(this);
        if (freeLater.has(this)) {
          freeLater.delete(this);
          freeNow(this);
        }
      }
    };

  for (const key of Reflect.ownKeys(proto)) {
    if (key === "constructor" || (typeof key === "string" && key.startsWith("__"))) continue;
    const d = Object.getOwnPropertyDescriptor(proto, key);
    if (d === undefined || !d.configurable) continue;
    if (typeof d.value === "function") d.value = d.value === glueFree ? guardedFree : named(wrap(d.value as Method, key), key);
    else {
      if (d.get !== undefined) d.get = wrap(d.get as Method, key);
      if (d.set !== undefined) d.set = wrap(d.set as Method, key);
    }
    Object.defineProperty(proto, key, d);
  }
}
