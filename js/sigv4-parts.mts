// AWS Signature Version 4's computation (internal module; sigv4.mts holds the public
// `signAwsRequest` and its options): the canonical request, the string to sign and the signature,
// on WebCrypto. The mock providers check signatures with it too.
import { headerEntries } from "./secrets.mjs";
import type { SignAwsRequestOptions } from "./sigv4.mjs";

/** The parts of a signature, for tests and for a server that checks one (the mock providers). */
export interface SigV4Parts {
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
  /** `host;x-amz-date;…` */
  signedHeaders: string;
  /** The headers to add to the request (lower-case names). */
  headers: Record<string, string>;
}

/** Headers never signed: hop-by-hop ones and what agents and proxies change (the AWS SDKs' list). */
const UNSIGNABLE = new Set([
  "authorization",
  "cache-control",
  "connection",
  "expect",
  "from",
  "keep-alive",
  "max-forwards",
  "pragma",
  "referer",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "user-agent",
  "x-amzn-trace-id",
]);

const ALGORITHM = "AWS4-HMAC-SHA256";
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

/**
 * The canonical request, string to sign, signature and headers of `options` (what
 * `signAwsRequest` computes). A server that checks a signature gives the request's
 * `SignedHeaders` as `signedHeaderNames`: exactly those are signed then.
 *
 * @example
 * ```ts
 * const { canonicalRequest, signature, headers } = await sigV4Parts({ method: "POST", url, body, credentials, region: "us-east-1", service: "bedrock" });
 * ```
 */
export async function sigV4Parts(options: SignAwsRequestOptions, signedHeaderNames?: readonly string[]): Promise<SigV4Parts> {
  const { credentials, region, service } = options;
  if (typeof credentials !== "object" || credentials === null) throw new TypeError("signAwsRequest needs credentials: { accessKeyId, secretAccessKey, sessionToken? }");
  const { accessKeyId, secretAccessKey, sessionToken } = credentials;
  if (typeof accessKeyId !== "string" || accessKeyId === "") throw new TypeError("signAwsRequest: credentials.accessKeyId must be a non-empty string");
  if (typeof secretAccessKey !== "string" || secretAccessKey === "") throw new TypeError("signAwsRequest: credentials.secretAccessKey must be a non-empty string (it is not shown)");
  if (sessionToken !== undefined && typeof sessionToken !== "string") throw new TypeError("signAwsRequest: credentials.sessionToken must be a string when given (it is not shown)");
  if (typeof region !== "string" || !/^[a-z0-9-]+$/.test(region)) throw new TypeError(`signAwsRequest: region must be an AWS region name such as "us-east-1", got ${JSON.stringify(String(region)).slice(0, 60)}`);
  if (typeof service !== "string" || !/^[a-z0-9-]+$/.test(service)) throw new TypeError(`signAwsRequest: service must be a signing name such as "bedrock", got ${JSON.stringify(String(service)).slice(0, 60)}`);
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new TypeError("signAwsRequest needs WebCrypto (globalThis.crypto.subtle), which this host does not have (a browser page needs a secure context)");

  const parts = splitUrl(options.url);
  const date = amzDate(options.now);
  const day = date.slice(0, 8);
  const scope = `${day}/${region}/${service}/aws4_request`;

  // the headers as they will be sent, lower-cased; repeated names keep their order
  const given = new Map<string, string[]>();
  for (const [name, value] of headerEntries(options.headers)) {
    const key = name.toLowerCase();
    if (key === "x-amz-date") continue; // ours wins
    given.set(key, [...(given.get(key) ?? []), value]);
  }
  const payloadHash = given.get("x-amz-content-sha256")?.[0] ?? (await sha256Hex(subtle, options.body));
  const added: Record<string, string> = { "x-amz-date": date };
  if (sessionToken !== undefined && sessionToken !== "") added["x-amz-security-token"] = sessionToken;
  if (options.contentSha256 !== false && !given.has("x-amz-content-sha256")) added["x-amz-content-sha256"] = payloadHash;
  if (!given.has("host")) given.set("host", [parts.host]);
  for (const [name, value] of Object.entries(added)) given.set(name, [value]);

  const names = (signedHeaderNames === undefined ? [...given.keys()].filter((n) => !UNSIGNABLE.has(n) && !/^(proxy-|sec-)/.test(n)) : signedHeaderNames.map((n) => n.toLowerCase()).filter((n) => given.has(n))).sort();
  const canonicalHeaders = names.map((n) => `${n}:${(given.get(n) ?? []).map(headerValue).join(",")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [options.method.toUpperCase(), canonicalUri(parts.path), canonicalQuery(parts.query), canonicalHeaders, signedHeaders, payloadHash].join("\n");
  const stringToSign = [ALGORITHM, date, scope, await sha256Hex(subtle, canonicalRequest)].join("\n");

  let key: ArrayBuffer = await hmac(subtle, utf8(`AWS4${secretAccessKey}`), day);
  for (const part of [region, service, "aws4_request"]) key = await hmac(subtle, new Uint8Array(key), part);
  const signature = hex(await hmac(subtle, new Uint8Array(key), stringToSign));
  added["authorization"] = `${ALGORITHM} Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { canonicalRequest, stringToSign, signature, signedHeaders, headers: added };
}

/**
 * The canonical URI of a request-line path (non-S3 rules): dot segments resolved, empty
 * segments dropped (a trailing `/` kept), each segment URI-encoded again.
 *
 * @example
 * ```ts
 * canonicalUri("/model/m-v1%3A0/converse"); // "/model/m-v1%253A0/converse"
 * ```
 */
export function canonicalUri(path: string): string {
  const segments: string[] = [];
  for (const s of path.split("/")) {
    if (s === "" || s === ".") continue;
    if (s === "..") segments.pop();
    else segments.push(s);
  }
  const trailing = segments.length > 0 && path.endsWith("/") ? "/" : "";
  return `/${segments.map(uriEncode).join("/")}${trailing}`;
}

/** The canonical query string: names and values decoded, encoded, sorted by name then value. */
function canonicalQuery(query: string): string {
  const pairs: Array<[string, string]> = [];
  for (const piece of query.split("&")) {
    if (piece === "") continue;
    const eq = piece.indexOf("=");
    const name = eq < 0 ? piece : piece.slice(0, eq);
    const value = eq < 0 ? "" : piece.slice(eq + 1);
    pairs.push([uriEncode(decoded(name)), uriEncode(decoded(value))]);
  }
  pairs.sort(([k1, v1], [k2, v2]) => (k1 < k2 ? -1 : k1 > k2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join("&");
}

/** A header value as signed: line breaks and whitespace runs as one space, trimmed. */
function headerValue(value: string): string {
  return value.replace(/[\r\n]+/g, " ").replace(/[ \t]+/g, " ").trim();
}

/** RFC 3986 encoding of every byte but the unreserved characters (`A-Z a-z 0-9 - _ . ~`), hex in upper case. */
function uriEncode(text: string): string {
  let out = "";
  for (const byte of utf8(text)) {
    const c = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(c) ? c : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

/** `text` with its percent-escapes decoded; as it is when they are not valid UTF-8. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The host (as `fetch` sends it: lower case, no default port), path and query of a URL, the path as written. */
function splitUrl(url: string): { host: string; path: string; query: string } {
  if (typeof url !== "string") throw new TypeError("signAwsRequest: url must be a string");
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(?:\?([^#]*))?/i.exec(url);
  let host: string;
  try {
    host = new URL(url).host;
  } catch {
    host = "";
  }
  if (m === null || host === "") throw new TypeError("signAwsRequest: url must be an absolute http(s) URL");
  return { host, path: m[1] === undefined || m[1] === "" ? "/" : m[1], query: m[2] ?? "" };
}

/** `20150830T123600Z` */
function amzDate(now: Date | number | undefined): string {
  const at = now === undefined ? new Date() : new Date(now);
  if (Number.isNaN(at.getTime())) throw new TypeError("signAwsRequest: now must be a valid Date or a number of milliseconds");
  return at.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, "");
}

function utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

function hex(bytes: ArrayBuffer): string {
  let out = "";
  for (const b of new Uint8Array(bytes)) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * The SHA-256 of a body (text as UTF-8) in hex, as `x-amz-content-sha256` carries it.
 *
 * @example
 * ```ts
 * await bodySha256(""); // "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
 * ```
 */
export async function bodySha256(body: string | Uint8Array | null | undefined): Promise<string> {
  const subtle = globalThis.crypto?.subtle;
  if (subtle === undefined) throw new TypeError("bodySha256 needs WebCrypto (globalThis.crypto.subtle)");
  return sha256Hex(subtle, body);
}

/** SHA-256 of a body (text as UTF-8), hex. */
async function sha256Hex(subtle: SubtleCrypto, body: string | Uint8Array | null | undefined): Promise<string> {
  if (body === undefined || body === null || body.length === 0) return EMPTY_SHA256;
  const bytes = typeof body === "string" ? utf8(body) : body;
  return hex(await subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
}

async function hmac(subtle: SubtleCrypto, key: Uint8Array, data: string): Promise<ArrayBuffer> {
  const k = await subtle.importKey("raw", key as Uint8Array<ArrayBuffer>, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return subtle.sign("HMAC", k, utf8(data) as Uint8Array<ArrayBuffer>);
}
