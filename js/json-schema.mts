// Checking a tool call's arguments against the tool's JSON Schema before the tool runs
// (internal module). The keywords models and tool schemas use: type (with integer and null),
// enum, const, properties, required, additionalProperties, patternProperties, items,
// prefixItems, min/max Items/Length/Properties, minimum, maximum, exclusive bounds, multipleOf,
// pattern, uniqueItems, allOf, anyOf, oneOf, not, if/then/else, local $ref (#/$defs/…,
// #/definitions/…) and OpenAPI's nullable. Annotations (format, description, default…) and
// keywords it does not know are not checked. No code generation (`new Function` is refused by
// edge runtimes), no dependency. `pattern` and `patternProperties` run in linear time
// (pattern.mts): a pattern with a backreference or a lookaround is not checked.
import { testPattern } from "./pattern.mjs";

/** One way the arguments break the schema: where (a JSON path) and what. */
export interface SchemaIssue {
  path: string;
  message: string;
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Schema = boolean | { [keyword: string]: unknown };

/** How deep `$ref`s may nest before a schema counts as cyclic. */
const MAX_REF_DEPTH = 64;
/** How many issues a check reports at most. */
const MAX_ISSUES = 20;

/** The issues of `value` against `schema` (none: it conforms). */
export function checkJsonSchema(schema: unknown, value: unknown): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  check(schema as Schema, value as Json, "$", { root: schema as Schema, issues, refs: 0 });
  return issues.slice(0, MAX_ISSUES);
}

interface Ctx {
  root: Schema;
  issues: SchemaIssue[];
  refs: number;
}

const isObject = (v: unknown): v is { [key: string]: Json } => typeof v === "object" && v !== null && !Array.isArray(v);
const has = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

function typeOf(v: Json): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function hasType(v: Json, type: string): boolean {
  const actual = typeOf(v);
  return actual === type || (type === "number" && actual === "integer");
}

function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equal(x, b[i] as Json));
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => has(b, k) && equal(a[k] as Json, b[k] as Json));
  }
  return false;
}

const key = (path: string, k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
const show = (v: unknown) => {
  const s = JSON.stringify(v);
  return s === undefined ? String(v) : s.length > 60 ? `${s.slice(0, 57)}...` : s;
};

/** Whether `value` conforms, without reporting (for anyOf / oneOf / not / if). */
function conforms(schema: Schema, value: Json, ctx: Ctx): boolean {
  const probe: Ctx = { root: ctx.root, issues: [], refs: ctx.refs };
  check(schema, value, "$", probe);
  return probe.issues.length === 0;
}

function check(schema: Schema, value: Json, path: string, ctx: Ctx): void {
  if (ctx.issues.length >= MAX_ISSUES) return;
  const fail = (message: string, at = path) => void ctx.issues.push({ path: at, message });
  if (schema === true || schema === undefined) return;
  if (schema === false) return fail("no value is allowed here");
  if (!isObject(schema)) return;
  const s = schema as { [k: string]: unknown };
  if (typeof s["$ref"] === "string") {
    // a $ref this checker cannot follow (remote, an anchor) is left to the provider
    const target = resolveRef(ctx.root, s["$ref"]);
    if (target !== undefined) {
      if (ctx.refs >= MAX_REF_DEPTH) return fail("the schema's $refs nest too deep");
      check(target, value, path, { ...ctx, refs: ctx.refs + 1 });
    }
  }
  if (s["nullable"] === true && value === null) return;
  if (!checkType(s, value, fail)) return;
  if (Array.isArray(s["enum"]) && !s["enum"].some((e) => equal(e as Json, value))) {
    fail(`expected one of ${(s["enum"] as unknown[]).map(show).join(", ")}, got ${show(value)}`);
  }
  if ("const" in s && !equal(s["const"] as Json, value)) fail(`expected ${show(s["const"])}, got ${show(value)}`);
  if (typeof value === "number") checkNumber(s, value, fail);
  if (typeof value === "string") checkString(s, value, fail);
  if (Array.isArray(value)) checkArray(s, value, path, ctx, fail);
  if (isObject(value)) checkObject(s, value, path, ctx, fail);
  checkCombinators(s, value, path, ctx, fail);
}

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let at: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let part: string;
    try {
      part = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (!isObject(at) || !has(at, part)) return undefined;
    at = (at as { [k: string]: unknown })[part];
  }
  return at as Schema;
}

function checkType(s: { [k: string]: unknown }, value: Json, fail: (m: string) => void): boolean {
  const type = s["type"];
  const types = typeof type === "string" ? [type] : Array.isArray(type) ? type.filter((t): t is string => typeof t === "string") : [];
  if (types.length === 0 || types.some((t) => hasType(value, t))) return true;
  fail(`expected ${types.join(" or ")}, got ${typeOf(value) === "integer" ? "number" : typeOf(value)}`);
  return false;
}

function checkNumber(s: { [k: string]: unknown }, v: number, fail: (m: string) => void): void {
  const n = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  const min = n("minimum");
  const max = n("maximum");
  const exMin = n("exclusiveMinimum") ?? (s["exclusiveMinimum"] === true ? min : undefined);
  const exMax = n("exclusiveMaximum") ?? (s["exclusiveMaximum"] === true ? max : undefined);
  if (min !== undefined && s["exclusiveMinimum"] !== true && v < min) fail(`must be at least ${min}, got ${v}`);
  if (max !== undefined && s["exclusiveMaximum"] !== true && v > max) fail(`must be at most ${max}, got ${v}`);
  if (exMin !== undefined && v <= exMin) fail(`must be more than ${exMin}, got ${v}`);
  if (exMax !== undefined && v >= exMax) fail(`must be less than ${exMax}, got ${v}`);
  const step = n("multipleOf");
  if (step !== undefined && step > 0 && Math.abs(v / step - Math.round(v / step)) > 1e-9) fail(`must be a multiple of ${step}, got ${v}`);
}

function checkString(s: { [k: string]: unknown }, v: string, fail: (m: string) => void): void {
  const length = [...v].length;
  if (typeof s["minLength"] === "number" && length < s["minLength"]) fail(`must be at least ${s["minLength"]} characters, got ${length}`);
  if (typeof s["maxLength"] === "number" && length > s["maxLength"]) fail(`must be at most ${s["maxLength"]} characters, got ${length}`);
  if (typeof s["pattern"] === "string") {
    // a pattern JavaScript cannot read, or that needs backtracking, is not checked
    const verdict = testPattern(s["pattern"], v);
    if (verdict === "no_match") fail(`must match /${s["pattern"]}/, got ${show(v)}`);
    else if (verdict === "over_budget") fail(`is too long (${v.length} characters) to check against /${s["pattern"]}/`);
  }
}

function checkArray(s: { [k: string]: unknown }, v: Json[], path: string, ctx: Ctx, fail: (m: string) => void): void {
  if (typeof s["minItems"] === "number" && v.length < s["minItems"]) fail(`must have at least ${s["minItems"]} items, got ${v.length}`);
  if (typeof s["maxItems"] === "number" && v.length > s["maxItems"]) fail(`must have at most ${s["maxItems"]} items, got ${v.length}`);
  const prefix = Array.isArray(s["prefixItems"]) ? (s["prefixItems"] as Schema[]) : Array.isArray(s["items"]) ? (s["items"] as Schema[]) : [];
  prefix.forEach((item, i) => {
    if (i < v.length) check(item, v[i] as Json, `${path}[${i}]`, ctx);
  });
  const rest = Array.isArray(s["items"]) ? s["additionalItems"] : s["items"];
  if (rest !== undefined && !Array.isArray(rest)) {
    for (let i = prefix.length; i < v.length; i++) check(rest as Schema, v[i] as Json, `${path}[${i}]`, ctx);
  }
  if (s["uniqueItems"] === true) {
    const dup = v.findIndex((x, i) => v.findIndex((y) => equal(x, y)) !== i);
    if (dup >= 0) fail(`items must be unique; item ${dup} repeats an earlier one`);
  }
}

function checkObject(s: { [k: string]: unknown }, v: { [key: string]: Json }, path: string, ctx: Ctx, fail: (m: string, at?: string) => void): void {
  const props = isObject(s["properties"]) ? (s["properties"] as { [k: string]: Schema }) : {};
  const patterns = isObject(s["patternProperties"]) ? Object.entries(s["patternProperties"] as { [k: string]: Schema }) : [];
  if (Array.isArray(s["required"])) {
    for (const name of s["required"]) {
      if (typeof name === "string" && !has(v, name)) fail(`required property \`${name}\` is missing`, key(path, name));
    }
  }
  const count = Object.keys(v).length;
  if (typeof s["minProperties"] === "number" && count < s["minProperties"]) fail(`must have at least ${s["minProperties"]} properties, got ${count}`);
  if (typeof s["maxProperties"] === "number" && count > s["maxProperties"]) fail(`must have at most ${s["maxProperties"]} properties, got ${count}`);
  for (const [name, item] of Object.entries(v)) {
    const at = key(path, name);
    let known = false;
    if (Object.prototype.hasOwnProperty.call(props, name)) {
      known = true;
      check(props[name] as Schema, item, at, ctx);
    }
    for (const [pattern, sub] of patterns) {
      const verdict = testPattern(pattern, name);
      if (verdict === "over_budget") fail(`the property name is too long (${name.length} characters) to check against /${pattern}/`, at);
      if (verdict === "match") {
        known = true;
        check(sub, item, at, ctx);
      }
    }
    const extra = s["additionalProperties"];
    if (!known && extra !== undefined) {
      if (extra === false) fail(`property \`${name}\` is not allowed (allowed: ${Object.keys(props).join(", ") || "none"})`, at);
      else check(extra as Schema, item, at, ctx);
    }
  }
}

function checkCombinators(s: { [k: string]: unknown }, value: Json, path: string, ctx: Ctx, fail: (m: string) => void): void {
  if (Array.isArray(s["allOf"])) for (const sub of s["allOf"]) check(sub as Schema, value, path, ctx);
  if (Array.isArray(s["anyOf"]) && !s["anyOf"].some((sub) => conforms(sub as Schema, value, ctx))) {
    fail(`matches none of the ${s["anyOf"].length} allowed shapes (anyOf)`);
  }
  if (Array.isArray(s["oneOf"])) {
    const matching = s["oneOf"].filter((sub) => conforms(sub as Schema, value, ctx)).length;
    if (matching !== 1) fail(`matches ${matching} of the ${s["oneOf"].length} shapes of oneOf; exactly 1 must match`);
  }
  if ("not" in s && conforms(s["not"] as Schema, value, ctx)) fail("matches a shape that is not allowed (not)");
  if ("if" in s) {
    const branch = conforms(s["if"] as Schema, value, ctx) ? s["then"] : s["else"];
    if (branch !== undefined) check(branch as Schema, value, path, ctx);
  }
}
