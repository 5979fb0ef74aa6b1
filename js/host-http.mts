// Where a request to a host goes and how it authenticates (internal module), from the host table
// (hosts.generated.mts, written from src/hosts.rs: base URL templates, auth kinds, where the
// version goes, whether `stream` is a body field) and the paths below, which the table does not
// hold. `providerRequest` asks `hostRoute` when a caller names a `host`; without one, the
// provider's own row (provider-http.mts) decides as before.
//
// Paths, read at their sources on 2026-11-28:
//   bedrock   /model/{id}/invoke-with-response-stream, /model/{id}/invoke: anthropics/
//             anthropic-sdk-typescript packages/bedrock-sdk/src/client.ts (00da52f); the stream
//             is event-stream frames (`chunk` events, bedrock-sdk core/streaming.ts)
//   vertex    {base}/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:
//             streamRawPredict | :rawPredict (vertex-sdk src/client.ts, 00da52f); Gemini
//             …/publishers/google/models/{model}:streamGenerateContent?alt=sse | :generateContent,
//             and in express mode (an API key, no project) publishers/google/models/… on
//             https://aiplatform.googleapis.com/v1 (@google/genai 2.32.0, pinned); region
//             `global` → aiplatform.googleapis.com, `us`/`eu` → aiplatform.{us,eu}.rep.googleapis.com
//             (vertex-sdk client.ts)
//   azure     {base}/chat/completions | /responses on https://{resource}.openai.azure.com/openai/v1,
//             the deployment as `model`, the key in `api-key` (openai 6.49.0 azure.js, pinned)
//   the rest  the wire's first-party path on the row's base URL.
import { turnwireError } from "./errors.mjs";
import { HOST_TABLE } from "./hosts.generated.mjs";

/** A host's name (the table's). */
export type HostName = (typeof HOST_TABLE.hosts)[number];

/** One (host, wire API) row of the table. */
export type HostRow = (typeof HOST_TABLE.rows)[number];

/** The paths of a request on a wire API: `{model}`, `{project}`, `{region}` are filled in. */
interface Paths {
  readonly stream: string;
  readonly whole: string;
}

/** Each wire API's first-party path, appended to a row's base URL. */
const WIRE_PATHS: Readonly<Record<HostRow["wire"], Paths>> = {
  messages: { stream: "/v1/messages", whole: "/v1/messages" },
  "chat-completions": { stream: "/chat/completions", whole: "/chat/completions" },
  responses: { stream: "/responses", whole: "/responses" },
  "generate-content": { stream: "/models/{model}:streamGenerateContent?alt=sse", whole: "/models/{model}:generateContent" },
  converse: { stream: "/model/{model}/converse-stream", whole: "/model/{model}/converse" },
  "ollama-chat": { stream: "/api/chat", whole: "/api/chat" },
};

/** The hosts whose path differs from their wire's first-party one. */
const HOST_PATHS: Readonly<Record<string, Paths>> = {
  "bedrock messages": { stream: "/model/{model}/invoke-with-response-stream", whole: "/model/{model}/invoke" },
  "vertex messages": {
    stream: "/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:streamRawPredict",
    whole: "/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict",
  },
  "vertex generate-content": {
    stream: "/projects/{project}/locations/{region}/publishers/google/models/{model}:streamGenerateContent?alt=sse",
    whole: "/projects/{project}/locations/{region}/publishers/google/models/{model}:generateContent",
  },
};

/** Vertex Gemini in express mode (an API key and no project). */
const VERTEX_EXPRESS: Paths = {
  stream: "/publishers/google/models/{model}:streamGenerateContent?alt=sse",
  whole: "/publishers/google/models/{model}:generateContent",
};
const VERTEX_GLOBAL = "https://aiplatform.googleapis.com/v1";

/** A DNS label (a region or an Azure resource goes into the host name). */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;
/** A Google Cloud project id or number (a domain-scoped one has `example.com:`). */
const PROJECT = /^[a-z0-9][a-z0-9.:-]{0,99}$/i;

/** The host names, in the table's order. */
export const HOST_NAMES: readonly HostName[] = HOST_TABLE.hosts;

/**
 * The row of `host` for `provider`: a TurnwireError `invalid_value` at `$.host` for a name that
 * is not a host, or a host that does not serve `provider` (Rust's words, `hosts::resolve`).
 */
export function hostRow(host: unknown, provider: string): HostRow {
  if (typeof host !== "string") throw turnwireError("invalid_type", "$.host", `host must be a string, one of ${HOST_NAMES.join(", ")}`);
  if (!(HOST_NAMES as readonly string[]).includes(host)) {
    throw turnwireError("invalid_value", "$.host", `unknown host \`${host.slice(0, 40)}\`; expected one of ${HOST_NAMES.join(", ")}`);
  }
  const row = HOST_TABLE.rows.find((r) => r.host === host && (r.providers as readonly string[]).includes(provider));
  if (row === undefined) {
    const served = [...new Set(HOST_TABLE.rows.filter((r) => r.host === host).flatMap((r) => [...r.providers]))];
    throw turnwireError("invalid_value", "$.host", `host \`${host}\` does not serve provider \`${provider}\`; ${host} serves ${served.join(", ")}`);
  }
  return row;
}

/** What a request to a host needs besides what the caller gives. */
export interface HostRouteOptions {
  provider: string;
  model: string;
  apiKey?: string | undefined;
  /** Replaces the row's base URL (its placeholders are not filled). */
  baseURL?: string | undefined;
  region?: string | undefined;
  project?: string | undefined;
  resource?: string | undefined;
}

/** A host's request, except its body: base URL (a given one, or the row's filled in), path, headers and streaming switches. */
export interface HostRoute {
  row: HostRow;
  /** The base URL, not yet checked as a URL (providerRequest does that). */
  base: string;
  /** The streaming path (with its query). */
  path: string;
  /** The path of a whole answer. */
  wholePath: string;
  /** The auth and version headers. */
  headers: Record<string, string>;
  /** Whether the streamed answer is AWS event-stream frames (Bedrock). */
  framing: "event-stream" | undefined;
  /** Whether `stream: true` goes in the body (else the URL says it). */
  streamInBody: boolean;
}

/**
 * The route of a request to `host`. Throws the `invalid_value` of `hostRow`, or a TypeError for
 * a placeholder the caller did not fill (`region`, `project`, `resource`) or filled with
 * something that is not one.
 */
export function hostRoute(host: unknown, o: HostRouteOptions): HostRoute {
  const row = hostRow(host, o.provider);
  const express = row.host === "vertex" && row.wire === "generate-content" && o.project === undefined && o.apiKey !== undefined;
  const paths = express ? VERTEX_EXPRESS : (HOST_PATHS[`${row.host} ${row.wire}`] ?? WIRE_PATHS[row.wire]);
  const fill = (template: string, inHost: boolean): string =>
    template.replace(/\{(region|project|resource|model)\}/g, (_, name: "region" | "project" | "resource" | "model") => {
      if (name === "model") {
        const id = encodeURIComponent(o.model.startsWith("models/") ? o.model.slice("models/".length) : o.model);
        // Vertex's versioned ids (`claude-sonnet-4-5@20250929`) go with their `@`, as the vertex-sdk sends them
        return row.host === "vertex" ? id.replace(/%40/g, "@") : id;
      }
      const value = o[name];
      const shape = name === "project" ? PROJECT : LABEL;
      if (typeof value !== "string" || !shape.test(value)) {
        const got = value === undefined ? "none" : typeof value === "string" && value.length <= 40 && shape.test(value.trim()) ? JSON.stringify(value) : `a value that is not one`;
        throw new TypeError(`host ${row.host} needs a ${name} (the \`${name}\` option${inHost ? ", part of its host name" : ""}), got ${got}`);
      }
      return inHost ? value.toLowerCase() : encodeURIComponent(value);
    });
  let base: string;
  if (o.baseURL !== undefined) base = o.baseURL;
  else if (express) base = VERTEX_GLOBAL;
  else if (row.host === "vertex" && o.region === "global") base = VERTEX_GLOBAL;
  else if (row.host === "vertex" && (o.region === "us" || o.region === "eu")) base = `https://aiplatform.${o.region}.rep.googleapis.com/v1`;
  else base = fill(row.baseUrl, true);
  const headers: Record<string, string> = {};
  if (o.apiKey !== undefined) {
    const auth = express ? { header: "x-goog-api-key" } : row.auth.find((a) => a !== "sigv4" && a !== "none");
    if (auth === "bearer") headers["authorization"] = `Bearer ${o.apiKey}`;
    else if (typeof auth === "object") headers[auth.header] = o.apiKey;
  }
  const version = row.version as { header?: string; value: string } | null;
  if (version?.header !== undefined) headers[version.header] = version.value;
  return {
    row,
    base,
    path: fill(paths.stream, false),
    wholePath: fill(paths.whole, false),
    headers,
    framing: row.host === "bedrock" ? "event-stream" : undefined,
    streamInBody: row.streamInBody,
  };
}

/** Whether requests to `host` for `provider` may be signed with AWS SigV4 (`aws` credentials): its signing name, else undefined. */
export function hostSigningName(host: unknown, provider: string): string | undefined {
  const row = hostRow(host, provider);
  return (row.auth as readonly unknown[]).includes("sigv4") ? "bedrock" : undefined;
}

/**
 * The host a URL belongs to by the table's URL patterns (`host-glob[:port][/path-prefix]`, `*`
 * one or more characters of a host name; the longest matching pattern wins), as Rust's
 * `hosts::of_url`; undefined for any other URL (a proxy, a mock).
 */
export function hostOfUrl(url: string): HostName | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const authority = parsed.host.toLowerCase();
  const hostname = parsed.hostname.toLowerCase();
  const path = parsed.pathname;
  let best: { host: HostName; length: number } | undefined;
  for (const r of HOST_TABLE.rows) {
    for (const p of r.urlPatterns as readonly string[]) {
      const slash = p.indexOf("/");
      const hostPat = slash < 0 ? p : p.slice(0, slash);
      const prefix = slash < 0 ? "" : p.slice(slash);
      const name = hostPat.includes(":") ? authority : hostname;
      const star = hostPat.indexOf("*");
      const head = star < 0 ? hostPat : hostPat.slice(0, star);
      const tail = star < 0 ? "" : hostPat.slice(star + 1);
      const hostOk =
        star < 0
          ? name === hostPat
          : name.length > head.length + tail.length && name.startsWith(head) && name.endsWith(tail) && !/[/:]/.test(name.slice(head.length, name.length - tail.length));
      const pathOk = prefix === "" || path === prefix || path.startsWith(`${prefix}/`);
      if (hostOk && pathOk && (best === undefined || p.length > best.length)) best = { host: r.host, length: p.length };
    }
  }
  return best?.host;
}

/** Whether `host` serves `provider` (a row names both). */
export function hostServes(host: string, provider: string): boolean {
  return HOST_TABLE.rows.some((r) => r.host === host && (r.providers as readonly string[]).includes(provider));
}
