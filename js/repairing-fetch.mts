// repairingFetch: a `fetch` for the official SDK clients (openai, @anthropic-ai/sdk,
// @google/genai). It recognises a provider request by its path, has Rust repair and render the
// body again (repairRequestBody) and forwards it; this file only moves bytes and headers.
import { getCore } from "./core.mjs";
import { hostOfUrl, hostServes, type HostName } from "./host-http.mjs";
import { PROVIDER_HTTP, PROVIDERS, providerAt, WIRE_HTTP, WIRES, wireOf, withBodyHeaders } from "./provider-http.mjs";
import { providerRequest } from "./providers.mjs";
import { relayTurn } from "./relay-fetch.mjs";
import { safeFetch } from "./safe-fetch.mjs";
import { headerEntries, redactUrl, secretsOf } from "./secrets.mjs";
import type { Diagnostic, Provider, RenderOptions, StreamOutcome } from "./turnwire.js";

/**
 * A function shaped like `fetch`: what `repairingFetch` wraps and returns (the global `fetch`,
 * an SDK's `Fetch` type, a test double).
 *
 * @example
 * ```ts
 * const logging: FetchLike = (url: string, init?: RequestInit) => fetch(url, init);
 * ```
 */
export type FetchLike = (input: never, init?: never) => Promise<unknown>;

/**
 * The host's `fetch` type where its declarations have one (DOM, `@types/node`, Deno, Bun), else
 * a plain `(url, init?) => Promise<unknown>`.
 *
 * @example
 * ```ts
 * const f: GlobalFetch = repairingFetch();
 * ```
 */
export type GlobalFetch = typeof globalThis extends { fetch: infer F extends FetchLike }
  ? F
  : (input: string, init?: Record<string, unknown>) => Promise<unknown>;

/** What forwarding calls: any fetch, its parameters unchecked (they are the caller's own). */
type Send = (input: unknown, init?: unknown) => Promise<unknown>;

/**
 * What a repaired request was: the API its path names, and what it was rendered for.
 *
 * @example
 * ```ts
 * const seen: RepairedRequestInfo = { url: "https://api.openai.com/v1/chat/completions", provider: "openai-chat", model: "gpt-5.2" };
 * ```
 */
export interface RepairedRequestInfo {
  /** Where it was sent, without credentials or a key (`?key=REDACTED`). */
  url: string;
  /** The provider it was rendered for. */
  provider: Provider;
  /** The model it was rendered for. */
  model: string;
}

/**
 * Where `repairingFetch` sends a request: render options set over the body's own, and, for a
 * provider of another API than the client's, how to reach it.
 *
 * @example
 * ```ts
 * const t: RepairingFetchTarget = { provider: "gemini", model: "gemini-2.5-pro", apiKey: process.env.GEMINI_API_KEY };
 * ```
 */
export interface RepairingFetchTarget extends Partial<RenderOptions> {
  /** The target's base URL (default: its public one, `DEFAULT_BASE_URLS`); another API only. */
  baseURL?: string;
  /** The target's API key; another API only (the client's own key goes to its own API). */
  apiKey?: string;
  /** Extra headers for the target; another API only. */
  headers?: Record<string, string>;
}

/**
 * Options of `repairingFetch`.
 *
 * @example
 * ```ts
 * const o: RepairingFetchOptions = { target: { provider: "deepseek" }, onDiagnostics: (d) => console.warn(d) };
 * ```
 */
export interface RepairingFetchOptions<F extends FetchLike = GlobalFetch> {
  /**
   * The `fetch` that sends the repaired request (default `globalThis.fetch`); it is asked for
   * `redirect: "manual"` (one that follows redirects anyway is the caller's business).
   */
  fetch?: F;
  /** Called with the repairs of each request that needed any. */
  onDiagnostics?: (diagnostics: Diagnostic[], request: RepairedRequestInfo) => void;
  /**
   * Render options set over the body's own. `provider` names the dialect of a chat body (the
   * URL's host says it otherwise: api.openai.com, api.mistral.ai, api.moonshot.ai,
   * api.deepseek.com; any other host is `openai-compatible`); `model` re-targets the request.
   * A provider of another API than the client's (an Anthropic client answered by Gemini)
   * needs `model` (and `apiKey`, `baseURL` as that provider wants them): the request goes
   * there, and its answer, streamed or whole, or its error, is written back in the client's
   * format.
   */
  target?: RepairingFetchTarget;
  /**
   * Called with each answer of another API's provider, decoded: its message keeps the
   * continuity tokens (thinking signatures, thought signatures) the client's format has no
   * place for.
   */
  onAnswer?: (outcome: StreamOutcome, request: RepairedRequestInfo) => void;
  /**
   * Called when a body could not be read (not JSON, not a request turnwire knows): the request
   * is then sent as it was, and the provider answers it.
   */
  onError?: (error: unknown, request: { url: string; provider: Provider }) => void;
}

/** The API a request's path names, and the Gemini model in it. */
interface Route {
  provider: Provider;
  model?: string;
  /** The path asks for a stream (Gemini's `:streamGenerateContent`). */
  streaming: boolean;
  /** The host the URL names (the host table's URL patterns, or a host's own path), when it serves the provider. */
  host?: HostName;
}

/**
 * The paths of hosts that name the model in the URL (Claude on Vertex: `…/publishers/anthropic/
 * models/{model}:streamRawPredict`; on Bedrock InvokeModel: `/model/{id}/invoke-with-response-stream`).
 */
const HOST_ROUTES: ReadonlyArray<readonly [RegExp, Provider, HostName]> = [
  [/\/publishers\/anthropic\/models\/([^/:]+):(?:rawPredict|(streamRawPredict))$/, "anthropic", "vertex"],
  [/\/model\/([^/]+)\/invoke(-with-response-stream)?$/, "anthropic", "bedrock"],
];

/** The provider request `url` is, by its path (and host for chat dialects); none for others. */
function routeOf(url: string): Route | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  const path = parsed.pathname.replace(/\/+$/, "");
  for (const [pattern, provider, host] of HOST_ROUTES) {
    const m = pattern.exec(path);
    if (m?.[1] !== undefined) return { provider, model: decodeURIComponent(m[1]), streaming: m[2] !== undefined, host };
  }
  const route = firstPartyRoute(parsed, path);
  const host = route === undefined ? undefined : hostOfUrl(url);
  return route !== undefined && host !== undefined && hostServes(host, route.provider) ? { ...route, host } : route;
}

/** The first-party API a request's path names. */
function firstPartyRoute(parsed: URL, path: string): Route | undefined {
  for (const wire of WIRES) {
    const client = WIRE_HTTP[wire].clientPath;
    if (client === undefined) continue;
    if (typeof client === "string") {
      if (path.endsWith(client)) return { provider: providerAt(wire, parsed.hostname.toLowerCase()), streaming: false };
      continue;
    }
    const m = client.exec(path);
    if (m?.[1] !== undefined) return { provider: providerAt(wire, parsed.hostname.toLowerCase()), model: decodeURIComponent(m[1]), streaming: m[2] !== undefined };
  }
  return undefined;
}

/**
 * The API a request turnwire does not repair is probably for (its key header, its host), to
 * name it in an error.
 */
function guessProvider(url: string, headers: Record<string, string>): Provider {
  for (const wire of WIRES) {
    const facts = WIRE_HTTP[wire];
    const hint = PROVIDER_HTTP[facts.defaultProvider].urlHint;
    const named = (facts.keyHeader !== "authorization" && facts.keyHeader in headers) || Object.keys(facts.versionHeaders).some((h) => h in headers);
    if (named || (hint !== undefined && hint.test(url))) return facts.defaultProvider;
  }
  try {
    const host = new URL(url).hostname.toLowerCase();
    return PROVIDERS.find((p) => PROVIDER_HTTP[p].hosts.some((h) => h.test(host))) ?? "openai-compatible";
  } catch {
    return "openai-compatible";
  }
}

/** The body's JSON, when it is JSON. */
function bodyJson(body: string | Uint8Array): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(typeof body === "string" ? body : new TextDecoder().decode(body));
    return typeof v === "object" && v !== null ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the client's body asks for a stream (`stream: true`). */
const isStreamBody = (body: string | Uint8Array): boolean => bodyJson(body)?.["stream"] === true;

/** The model the client asked for: its body's, or the Gemini URL's. */
function clientModel(body: string | Uint8Array, route: Route): string {
  const model = bodyJson(body)?.["model"];
  return typeof model === "string" ? model : (route.model ?? "");
}

/** A header list of any form (`Headers`, entries, a record) as a lower-cased record. */
function headerRecord(headers: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headerEntries(headers)) out[name.toLowerCase()] = value;
  return out;
}

/** The body as bytes or text, when it is one turnwire can read without consuming a stream. */
function bodyOf(body: unknown): string | Uint8Array | undefined {
  if (typeof body === "string" || body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body)) return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return undefined;
}

/** A `Request`-shaped input (its URL, method, headers, signal and body reader). */
interface RequestLike {
  url: string;
  method?: string;
  headers?: unknown;
  signal?: unknown;
  text?: () => Promise<string>;
}

/**
 * A `fetch` that repairs every provider request an SDK client sends before it goes out: it
 * reads the body (`repairRequestBody`: Anthropic `/v1/messages`, chat `/chat/completions`,
 * Responses `/responses`, Gemini `:generateContent` / `:streamGenerateContent`), renders it
 * again for the same provider — tool results next to their calls, continuity the model cannot
 * replay dropped, ids in the provider's format, with `target`'s options set over the body's —
 * and forwards it with the client's URL, headers and signal. Streaming and whole answers pass
 * through untouched. Other requests (model lists, files, uploads) are forwarded as they are.
 * With a `target` of another API (and its `model`, `apiKey`, `baseURL`), the request goes to
 * that provider and its answer is written back in the client's format, streamed or whole.
 *
 * Every request it sends (repaired, relayed or untouched) goes with `redirect: "manual"` and
 * follows only a redirect to the same origin (a 307 or 308 with the same method, headers and
 * body; a 301, 302 or 303 of a GET): anything else rejects with a `ProviderError`
 * (`errorType: "redirect_refused"`, which an SDK client reports as a connection error with it as
 * `cause`), so a key never reaches another origin. A failed or throwing `fetch` rejects with a
 * `ProviderError` of kind `"network"` (an abort with the fetch's own error). The URLs handed to
 * `onDiagnostics`, `onError` and `onAnswer` have no credentials and no key (`?key=REDACTED`).
 *
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import Anthropic from "@anthropic-ai/sdk";
 * import { GoogleGenAI } from "@google/genai";
 * import { repairingFetch } from "turnwire";
 *
 * const openai = new OpenAI({ fetch: repairingFetch() });
 * const anthropic = new Anthropic({ fetch: repairingFetch({ onDiagnostics: (d) => console.warn(d) }) });
 * const google = new GoogleGenAI({ apiKey, httpOptions: { fetch: repairingFetch() } });
 * const deepseek = new OpenAI({ baseURL: "https://api.deepseek.com", fetch: repairingFetch({ target: { provider: "deepseek" } }) });
 * // an Anthropic client answered by Gemini
 * const claudeShaped = new Anthropic({ apiKey: "unused", fetch: repairingFetch({ target: { provider: "gemini", model: "gemini-2.5-pro", apiKey } }) });
 * ```
 */
export function repairingFetch<F extends FetchLike = GlobalFetch>(options: RepairingFetchOptions<F> = {}): F {
  const target = options.target ?? {};
  if (typeof target !== "object" || target === null) throw new TypeError("repairingFetch: `target` must be render options like { provider, model }");
  const send = (): Send => {
    const f = (options.fetch ?? (globalThis as { fetch?: unknown }).fetch) as Send | undefined;
    if (typeof f !== "function") throw new TypeError("repairingFetch: this runtime has no global fetch; pass `fetch`");
    return f;
  };
  const repairing = async (input: unknown, init?: Record<string, unknown>): Promise<unknown> => {
    const request = typeof input === "object" && input !== null && !(input instanceof URL) ? (input as RequestLike) : undefined;
    const url = request?.url ?? String(input);
    const shown = redactUrl(url);
    /** Sends under the redirect policy (safe-fetch.mts): never to another origin. */
    const forward = (to: unknown, with_: Record<string, unknown> | undefined, provider?: Provider, model = ""): Promise<unknown> => {
      const headers = with_?.["headers"] ?? request?.headers;
      const who = provider ?? guessProvider(url, headerRecord(headers));
      return safeFetch(send(), to, with_, { url: redactUrl(String(typeof to === "string" ? to : url)), provider: who, model }, secretsOf({ headers, url }));
    };
    const method = String(init?.["method"] ?? request?.method ?? "GET").toUpperCase();
    const route = method === "POST" ? routeOf(url) : undefined;
    if (route === undefined) return forward(input, init);
    let body = bodyOf(init?.["body"]);
    if (body === undefined && init?.["body"] === undefined && typeof request?.text === "function") body = await request.text();
    if (body === undefined) return forward(input, init, route.provider);
    // A SigV4-signed request (Bedrock) is sent as it is: a repaired body would not match its signature.
    if (/^\s*AWS4-HMAC-SHA256\b/i.test(headerRecord(init?.["headers"] ?? request?.headers)["authorization"] ?? "")) {
      options.onError?.(new TypeError("repairingFetch: the request is signed with AWS SigV4; a repaired body would not match its signature, so it is sent as it is"), { url: shown, provider: route.provider });
      return forward(input, init, route.provider);
    }
    const core = getCore();
    const across = target.provider !== undefined && wireOf(target.provider) !== wireOf(route.provider);
    const { baseURL, apiKey, headers: targetHeaders, ...render } = target;
    let streaming = false;
    if (across) {
      if (target.model === undefined) {
        throw new TypeError(`repairingFetch: a ${String(target.provider)} target for a ${wireOf(route.provider)} client needs target.model`);
      }
      streaming = route.streaming || isStreamBody(body);
      // the target's own streaming switches (its other fields are dropped: request_field_dropped)
      if (streaming && target.provider !== undefined) {
        const switches = providerRequest({ provider: target.provider, model: target.model, baseURL, apiKey, headers: targetHeaders }).extra;
        render.extra = { ...render.extra, ...switches };
      }
    }
    let repaired;
    try {
      // the host the URL names renders the body in its envelope (unless the target names one)
      const hosted = route.host !== undefined && render.host === undefined && !across ? { ...render, host: route.host } : render;
      const source = { model: route.model, endpoint: new URL(url).origin, ...(route.host === undefined ? {} : { host: route.host }) };
      repaired = core.repairRequestBody(route.provider, body, source, hosted);
    } catch (e) {
      options.onError?.(e, { url: shown, provider: route.provider });
      return forward(input, init, route.provider);
    }
    const info = { url: shown, provider: repaired.provider, model: repaired.model };
    if (repaired.diagnostics.length > 0) options.onDiagnostics?.(repaired.diagnostics, info);
    const signal = init?.["signal"] ?? request?.signal;
    if (across && target.provider !== undefined && target.model !== undefined) {
      const onAnswer = options.onAnswer;
      return relayTurn(send() as (url: string, init: Record<string, unknown>) => Promise<unknown>, {
        client: route.provider,
        clientModel: clientModel(body, route),
        streaming,
        target: { provider: target.provider, model: target.model, baseURL, apiKey, headers: withBodyHeaders(targetHeaders ?? {}, repaired.headers) },
        body: repaired.body,
        signal,
        onAnswer: onAnswer === undefined ? undefined : (outcome) => onAnswer(outcome, info),
      });
    }
    // the headers the repaired body needs (Anthropic's betas and header params, ANT-42)
    const headers = withBodyHeaders(headerRecord(init?.["headers"] ?? request?.headers), repaired.headers);
    delete headers["content-length"];
    const forwarded: Record<string, unknown> = { ...init, method: "POST", headers, body: repaired.body };
    if (signal !== undefined) forwarded["signal"] = signal;
    return forward(url, forwarded, repaired.provider, repaired.model);
  };
  return repairing as unknown as F;
}
