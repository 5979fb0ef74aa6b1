// Keeping the caller's secrets out of what turnwire hands back (internal module): the secrets of
// a request (its API key, the values of its auth headers, a base URL's password), their removal
// from text turnwire builds (error messages, bodies, stacks), URLs without credentials or key
// query values, and a header check that never quotes the value it refuses.

/** What `redactText` writes where a secret was. */
export const REDACTED = "[redacted]";

/** Secrets shorter than this are not looked for in text (a test key like "k" would hit every word). */
const MIN_SECRET = 8;

/** Header names whose values are secrets (authorization, x-api-key, x-goog-api-key, api-key, cookie…). */
const SECRET_HEADER = /auth|key|token|secret|passw|cookie|signature|session/i;

/** Query parameters whose values are secrets (Gemini's `?key=`, `api_key`, `access_token`, `sig`…). */
const SECRET_PARAM = /^(key|sig|code)$|key|token|secret|passw|signature|credential|auth/i;

/**
 * The secrets of a request: the API key, the values of auth-like headers (and the credential
 * after a `Bearer ` / `Basic ` scheme), a base URL's userinfo, the secret access key and session
 * token of AWS credentials (`aws`). Never throws.
 */
export function secretsOf(request: { apiKey?: unknown; headers?: unknown; baseURL?: unknown; url?: unknown; aws?: unknown }): string[] {
  const out = new Set<string>();
  const add = (v: unknown): void => {
    if (typeof v === "string" && v.length >= MIN_SECRET) out.add(v);
  };
  try {
    add(request.apiKey);
    if (typeof request.apiKey === "string") add(request.apiKey.trim());
    for (const [name, value] of headerEntries(request.headers)) {
      if (!SECRET_HEADER.test(name)) continue;
      add(value);
      const credential = /^\s*\S+\s+(\S.*)$/.exec(value)?.[1];
      add(credential);
      if (credential !== undefined && /^\s*basic\s/i.test(value)) add(decodeBase64(credential)?.split(":").slice(1).join(":"));
    }
    const aws = request.aws;
    if (typeof aws === "object" && aws !== null) {
      add((aws as { secretAccessKey?: unknown }).secretAccessKey);
      add((aws as { sessionToken?: unknown }).sessionToken);
    }
    for (const url of [request.baseURL, request.url]) {
      const user = userinfo(url);
      if (user !== undefined) {
        add(user.password);
        add(user.raw);
        add(basicCredentials(user.user, user.password));
      }
    }
  } catch {
    // a hostile headers object: what was collected so far
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** `text` with every one of `secrets` replaced by `[redacted]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED);
  return out;
}

/** Whether `text` holds one of `secrets`. */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return secrets.some((s) => text.includes(s));
}

/**
 * A copy of `value` (JSON-like: strings, arrays, plain objects) with the secrets taken out of
 * every string; `value` itself when it holds none.
 */
export function redactDeep<T>(value: T, secrets: readonly string[], depth = 0): T {
  if (secrets.length === 0) return value;
  if (typeof value === "string") return redactText(value, secrets) as T;
  if (typeof value !== "object" || value === null || depth > 64) return value;
  if (Array.isArray(value)) {
    let changed = false;
    const out = value.map((v) => {
      const r = redactDeep(v, secrets, depth + 1);
      if (r !== v) changed = true;
      return r;
    });
    return (changed ? out : value) as T;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return value;
  let changed = false;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const r = redactDeep(v, secrets, depth + 1);
    if (r !== v) changed = true;
    out[k] = r;
  }
  return (changed ? out : value) as T;
}

/**
 * `url` as it may be shown: without userinfo (`user:password@`), and with the values of
 * secret-looking query parameters (`key`, `api_key`, `access_token`, …) replaced by `REDACTED`.
 * Text that is not a URL gets the same treatment by pattern.
 *
 * @example
 * ```ts
 * redactUrl("https://u:p@host/v1beta/models/m:generateContent?key=abc&alt=sse"); // "https://host/v1beta/models/m:generateContent?key=REDACTED&alt=sse"
 * ```
 */
export function redactUrl(url: string): string {
  return withoutUserinfo(url).replace(/([?&;])([^=&#;]*)=([^&#;]*)/g, (whole, sep: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // a name that is not percent-encoded text: match it as it is
    }
    return SECRET_PARAM.test(decoded) ? `${sep}${name}=REDACTED` : whole;
  });
}

/** `url` without its userinfo (`user:password@`). */
export function withoutUserinfo(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/?#]*@/i, "$1");
}

/** The scheme, host and port of `url` (never a path, query or credentials); `"(no URL)"` when it is none. */
export function originOf(url: string): string {
  try {
    const u = new URL(url);
    return u.origin === "null" ? `${u.protocol}…` : u.origin;
  } catch {
    return "(not a URL)";
  }
}

/** The userinfo of an http(s) URL (decoded), when it has one. */
export function userinfo(url: unknown): { user: string; password: string; raw: string } | undefined {
  if (typeof url !== "string") return undefined;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(url);
  if (m?.[1] === undefined) return undefined;
  const raw = m[1];
  const colon = raw.indexOf(":");
  const decode = (s: string): string => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  return colon < 0 ? { user: decode(raw), password: "", raw } : { user: decode(raw.slice(0, colon)), password: decode(raw.slice(colon + 1)), raw };
}

/**
 * The first header that `fetch` would refuse (a name that is not a token; a value that, past its
 * leading and trailing whitespace, holds a line break, a NUL, another control character or a
 * character above U+00FF), as a description that never quotes the value; `undefined` when all
 * are fine.
 */
export function badHeader(headers: unknown): string | undefined {
  for (const [name, value] of headerEntries(headers)) {
    if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) return `a header name that is not a token (${JSON.stringify(name.slice(0, 40))})`;
    const trimmed = value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "");
    const at = trimmed.search(/[^\t\x20-\x7e\x80-\xff]/);
    if (at >= 0) {
      const c = trimmed.charCodeAt(at);
      const what = c === 10 ? "a line feed" : c === 13 ? "a carriage return" : c === 0 ? "a NUL" : c > 0xff ? "a character above U+00FF" : "a control character";
      return `the value of the ${name.toLowerCase()} header holds ${what} at character ${at} (the value is not shown)`;
    }
  }
  return undefined;
}

/** A header list of any form (a record, entries, `Headers`) as [name, value] pairs; never throws. */
export function headerEntries(headers: unknown): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (headers === undefined || headers === null || typeof headers !== "object") return out;
  try {
    const h = headers as { forEach?: (f: (value: string, name: string) => void) => void };
    if (Array.isArray(headers)) {
      for (const pair of headers as unknown[]) if (Array.isArray(pair)) out.push([String(pair[0]), String(pair[1])]);
    } else if (typeof h.forEach === "function") {
      h.forEach((value, name) => out.push([String(name), String(value)]));
    } else {
      for (const [name, value] of Object.entries(headers as Record<string, unknown>)) if (value !== undefined) out.push([name, String(value)]);
    }
  } catch {
    // a hostile headers object: what was read so far
  }
  return out;
}

/** `user:password` in base64 (UTF-8), as `Authorization: Basic` carries it. */
export function basicCredentials(user: string, password: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(`${user}:${password}`)) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function decodeBase64(text: string): string | undefined {
  try {
    return typeof atob === "function" ? atob(text.trim()) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `error` with the secrets taken out of its message, stack, body and cause (a cause that holds
 * one is replaced by a copy without it); any other value as it is. Errors are changed in place
 * (they are turnwire's own, made for this request).
 */
export function redactError<E>(error: E, secrets: readonly string[]): E {
  if (secrets.length === 0 || !(error instanceof Error)) return error;
  const e = error as Error & { body?: unknown; cause?: unknown; request?: { url?: unknown } };
  const set = (key: string, value: unknown): void => {
    try {
      Object.defineProperty(e, key, { value, writable: true, configurable: true, enumerable: Object.getOwnPropertyDescriptor(e, key)?.enumerable ?? false });
    } catch {
      // a frozen error: nothing to do
    }
  };
  if (holdsSecret(e.message, secrets)) set("message", redactText(e.message, secrets));
  const stack = safeStack(e);
  if (stack !== undefined && holdsSecret(stack, secrets)) set("stack", redactText(stack, secrets));
  if ("body" in e) {
    const body = redactDeep(e.body, secrets);
    if (body !== e.body) set("body", body);
  }
  const result = (e as { result?: { errors?: unknown } }).result;
  if (typeof result === "object" && result !== null && Array.isArray(result.errors)) {
    const errors = redactDeep(result.errors, secrets);
    if (errors !== result.errors) result.errors = errors;
  }
  if ("cause" in e && e.cause instanceof Error) {
    const cause = e.cause;
    const text = `${cause.message}\n${safeStack(cause) ?? ""}\n${String((cause as { cause?: unknown }).cause ?? "")}`;
    if (holdsSecret(text, secrets)) {
      const copy = new Error(redactText(cause.message, secrets));
      copy.name = cause.name;
      const code = (cause as { code?: unknown }).code;
      if (code !== undefined) (copy as Error & { code?: unknown }).code = code;
      copy.stack = redactText(safeStack(cause) ?? "", secrets);
      set("cause", copy);
    }
  } else if ("cause" in e && typeof e.cause === "string" && holdsSecret(e.cause, secrets)) {
    set("cause", redactText(e.cause, secrets));
  }
  return error;
}

function safeStack(e: Error): string | undefined {
  try {
    return typeof e.stack === "string" ? e.stack : undefined;
  } catch {
    return undefined;
  }
}
