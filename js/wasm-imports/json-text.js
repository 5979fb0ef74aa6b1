// JavaScript values as JSON text, nothing lost silently: imported by the wasm module
// (src/wasm/text.rs) for every value argument (transcripts, messages, options, bodies).
//
// The result is what JSON.stringify writes (toJSON honoured, `undefined` members left out),
// except for the values JSON.stringify would throw on or drop without a word; each of those is
// converted as below and reported as a repair with its JSON path:
//   circular reference    → the string "[Circular: <path of the object it points back to>]",
//                           the path from the root the caller names (`$[12]` for a message
//                           appended to a conversation of 12), so a value gives the same marker
//                           whether it comes in alone or inside its whole transcript
//   BigInt                → a number when it is a safe integer, else its exact decimal text
//   function, symbol      → left out (in an array: null), as JSON.stringify does
//   NaN, ±Infinity        → null, as JSON.stringify does
//   Map                   → an object of its entries (keys as strings)
//   Set                   → an array of its values
//   typed array, DataView,
//   ArrayBuffer           → an array of its numbers (bytes for DataView and ArrayBuffer)
//   RegExp                → its source text ("/a+/g")
//   Error                 → {"name", "message"}
//   WeakMap, WeakSet,
//   WeakRef, Promise      → left out: their contents cannot be read
//   a getter that throws  → the member is left out
// A Date becomes its ISO text through its own toJSON, as with JSON.stringify (no repair).
//
// Plain data takes the fast path: one walk that only looks (no copy), then the host's
// JSON.stringify. This file has exactly one export; the build script derives the CommonJS copy
// the Node require() glue loads from that.

/** Path step of a member name: `.name` when plain, `["odd name"]` otherwise (as in Rust). */
function step(key) {
  return /^[A-Za-z0-9_]+$/.test(key) ? "." + key : "[" + JSON.stringify(key) + "]";
}

function pathOf(root, keys) {
  let p = root;
  for (const k of keys) p += typeof k === "number" ? "[" + k + "]" : step(k);
  return p;
}

function isSpecial(v) {
  return (
    v instanceof Map || v instanceof Set || ArrayBuffer.isView(v) || v instanceof ArrayBuffer ||
    (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer) ||
    v instanceof RegExp || v instanceof Error || v instanceof WeakMap || v instanceof WeakSet ||
    (typeof WeakRef !== "undefined" && v instanceof WeakRef) || v instanceof Promise ||
    v instanceof Number || v instanceof String || v instanceof Boolean
  );
}

/** Whether JSON.stringify keeps everything of `v` (no repair needed). Only looks. */
function plain(v, depth, stack, maxDepth) {
  if (v === null) return true;
  const t = typeof v;
  if (t === "string" || t === "boolean") return true;
  if (t === "number") return Number.isFinite(v);
  if (t !== "object") return false;
  if (depth >= maxDepth || stack.includes(v)) return false;
  if (Array.isArray(v)) {
    stack.push(v);
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (x !== undefined && !plain(x, depth + 1, stack, maxDepth)) return false;
    }
    stack.pop();
    return true;
  }
  if (typeof v.toJSON === "function") return v instanceof Date && v.toJSON === Date.prototype.toJSON;
  if (isSpecial(v)) return false;
  stack.push(v);
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
    const x = v[k];
    if (x !== undefined && !plain(x, depth + 1, stack, maxDepth)) return false;
  }
  stack.pop();
  return true;
}

const LEAVE_OUT = Symbol("leave out");

class Converter {
  constructor(maxDepth, root) {
    this.maxDepth = maxDepth;
    this.root = root;
    this.stack = [];
    this.keys = [];
    this.repairs = [];
    this.tooDeep = null;
  }

  repair(message) {
    this.repairs.push({ path: pathOf(this.root, this.keys), message });
  }

  /** The JSON-compatible form of `value` found under `key`, or LEAVE_OUT. */
  value(value, key) {
    if ((typeof value === "object" && value !== null) || typeof value === "bigint") {
      let toJSON;
      try {
        toJSON = value.toJSON;
      } catch (e) {
        this.repair(`reading its toJSON threw (${describe(e)}); left out`);
        return LEAVE_OUT;
      }
      if (typeof toJSON === "function") {
        try {
          value = toJSON.call(value, String(key));
        } catch (e) {
          this.repair(`its toJSON threw (${describe(e)}); left out`);
          return LEAVE_OUT;
        }
      }
    }
    if (value instanceof Number || value instanceof String || value instanceof Boolean) value = value.valueOf();
    else if (typeof value === "object" && value !== null && Object.prototype.toString.call(value) === "[object BigInt]") value = value.valueOf();
    switch (typeof value) {
      case "string":
      case "boolean":
        return value;
      case "number":
        if (Number.isFinite(value)) return value;
        this.repair(`${value} has no JSON form; sent as null`);
        return null;
      case "bigint":
        if (value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER)) {
          this.repair(`the BigInt ${value}n was sent as the number ${Number(value)}`);
          return Number(value);
        }
        this.repair(`the BigInt ${value}n is beyond 2^53; sent as its exact decimal text`);
        return value.toString();
      case "function":
        this.repair("a function has no JSON form; left out");
        return LEAVE_OUT;
      case "symbol":
        this.repair(`the symbol ${String(value.description ?? "")} has no JSON form; left out`);
        return LEAVE_OUT;
      case "undefined":
        return LEAVE_OUT;
    }
    if (value === null) return null;
    return this.object(value);
  }

  object(value) {
    const at = this.stack.indexOf(value);
    if (at >= 0) {
      const target = pathOf(this.root, this.keys.slice(0, at));
      this.repair(`a circular reference (back to ${target}); sent as a marker string`);
      return `[Circular: ${target}]`;
    }
    if (this.stack.length >= this.maxDepth) {
      if (this.tooDeep === null) this.tooDeep = pathOf(this.root, this.keys);
      return null;
    }
    this.stack.push(value);
    try {
      return this.container(value);
    } finally {
      this.stack.pop();
    }
  }

  container(value) {
    if (Array.isArray(value)) return this.array(value, value.length);
    if (value instanceof Map) {
      this.repair(`a Map of ${value.size} entries was sent as an object`);
      const out = {};
      for (const [k, v] of value) {
        const name = typeof k === "string" ? k : String(k);
        this.keys.push(name);
        const x = this.value(v, name);
        this.keys.pop();
        if (x !== LEAVE_OUT) out[name] = x;
      }
      return out;
    }
    if (value instanceof Set) {
      this.repair(`a Set of ${value.size} values was sent as an array`);
      return this.array([...value], value.size);
    }
    if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer ||
        (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer)) {
      const kind = Object.prototype.toString.call(value).slice(8, -1);
      const items = ArrayBuffer.isView(value) && !(value instanceof DataView)
        ? Array.from(value)
        : Array.from(new Uint8Array(value.buffer ?? value, value.byteOffset ?? 0, value.byteLength));
      this.repair(`a ${kind} of ${items.length} items was sent as an array of numbers`);
      return this.array(items, items.length);
    }
    if (value instanceof RegExp) {
      this.repair("a RegExp was sent as its source text");
      return String(value);
    }
    if (value instanceof Error) {
      this.repair("an Error was sent as {name, message}");
      return { name: String(value.name), message: String(value.message) };
    }
    if (value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise ||
        (typeof WeakRef !== "undefined" && value instanceof WeakRef)) {
      this.repair(`a ${Object.prototype.toString.call(value).slice(8, -1)} has no readable contents; left out`);
      return LEAVE_OUT;
    }
    const out = {};
    let names;
    try {
      names = Object.keys(value);
    } catch (e) {
      this.repair(`its members could not be listed (${describe(e)}); sent as {}`);
      return out;
    }
    for (const name of names) {
      this.keys.push(name);
      let member;
      try {
        member = value[name];
      } catch (e) {
        this.repair(`reading it threw (${describe(e)}); left out`);
        this.keys.pop();
        continue;
      }
      const x = this.value(member, name);
      this.keys.pop();
      if (x !== LEAVE_OUT) out[name] = x;
    }
    return out;
  }

  array(items, length) {
    const out = new Array(length);
    for (let i = 0; i < length; i++) {
      this.keys.push(i);
      let x;
      try {
        x = this.value(items[i], i);
      } catch (e) {
        this.repair(`reading it threw (${describe(e)}); sent as null`);
        x = null;
      }
      this.keys.pop();
      out[i] = x === LEAVE_OUT ? null : x;
    }
    return out;
  }
}

function describe(e) {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return "unknown error";
  }
}

/**
 * The JSON text of `value`, whose path is `root` (`$`, or `$[12]` for an appended message):
 * a string when nothing needed converting, else
 * `[text, repairsJson, tooDeepPath]` where `repairsJson` is the JSON text of
 * `[{path, message}]` and `tooDeepPath` names where nesting passed `maxDepth` (text null then).
 * `text` is undefined when the value itself has no JSON form (undefined, a function, a symbol).
 * Never throws.
 */
export function toJsonText(value, maxDepth, root) {
  try {
    if (plain(value, 0, [], maxDepth)) return JSON.stringify(value);
  } catch {
    // a getter threw or a proxy refused: the careful path reports it
  }
  const c = new Converter(maxDepth, typeof root === "string" ? root : "$");
  let text;
  try {
    const v = c.value(value, "");
    text = v === LEAVE_OUT ? undefined : JSON.stringify(v);
  } catch (e) {
    c.repair(`the value could not be read (${describe(e)})`);
    text = undefined;
  }
  if (c.tooDeep !== null) return [null, JSON.stringify(c.repairs), c.tooDeep];
  return [text, JSON.stringify(c.repairs), null];
}
