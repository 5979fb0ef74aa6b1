// The part of node:assert/strict the suite uses, for runtimes without node:assert: workerd
// without nodejs_compat (the package must not need it) and the browser. Same semantics for
// what the suite passes: equal is Object.is, deepEqual is strict (prototypes, own enumerable
// keys, typed arrays element by element).
export class AssertionError extends Error {
  constructor(message) {
    super(message);
    this.name = "AssertionError";
  }
}

function show(x) {
  try {
    return typeof x === "bigint" ? `${x}n` : JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

function deepEqualValues(a, b) {
  if (Object.is(a, b)) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEqualValues(a[k], b[k])) return false;
  }
  return true;
}

function fail(message) {
  throw message instanceof Error ? message : new AssertionError(message ?? "Failed");
}

function ok(value, message) {
  if (!value) fail(message ?? `expected a truthy value, got ${show(value)}`);
}

function equal(actual, expected, message) {
  if (!Object.is(actual, expected)) fail(`${message ? `${message}: ` : ""}${show(actual)} !== ${show(expected)}`);
}

function notEqual(actual, expected, message) {
  if (Object.is(actual, expected)) fail(`${message ? `${message}: ` : ""}both are ${show(actual)}`);
}

function deepEqual(actual, expected, message) {
  if (!deepEqualValues(actual, expected)) {
    fail(`${message ? `${message}: ` : ""}not deep-equal:\n  actual:   ${show(actual)}\n  expected: ${show(expected)}`);
  }
}

function match(string, regexp, message) {
  if (typeof string !== "string" || !regexp.test(string)) fail(message ?? `${show(string)} does not match ${regexp}`);
}

/** throws(fn), throws(fn, ErrorClass | RegExp | (e) => boolean, message?) */
function throws(fn, expected, message) {
  if (typeof expected === "string") [expected, message] = [undefined, expected];
  let error;
  try {
    fn();
  } catch (e) {
    error = { e };
  }
  if (!error) fail(message ?? "Missing expected exception.");
  const { e } = error;
  if (expected === undefined) return;
  if (expected instanceof RegExp) return ok(expected.test(String(e)), message ?? `${e} does not match ${expected}`);
  if (expected === Error || expected.prototype instanceof Error) return ok(e instanceof expected, message ?? `${e} is not a ${expected.name}`);
  ok(expected(e) === true, message ?? `the validation function rejected ${e}`);
}

const assert = { AssertionError, ok, equal, notEqual, deepEqual, match, throws, fail, strictEqual: equal, deepStrictEqual: deepEqual };
export default assert;
