// The HTTP facts of every provider, in one place (internal module): which wire API it speaks,
// where its requests go, how its key and version travel, what switches streaming on, and where
// the mock providers serve it. `providerRequest`, `countTokensRequest`, `repairingFetch`, the
// relay and the mock ask these tables; none of them names a path or a header of its own.
// A new provider on a known wire API is one row of PROVIDER_HTTP; a new wire API, one row of
// WIRE_HTTP too.
import type { JsonObject, Provider } from "./turnwire.js";

/** The wire APIs: one per body shape. */
export type Wire = "messages" | "chat-completions" | "responses" | "generate-content" | "converse" | "ollama-chat";

/** What the request paths of a wire API are, appended to a provider's base URL. */
export interface WireHttp {
  /**
   * The streaming request's path; `{model}` stands for the URL-encoded model (Gemini, which
   * streams by URL).
   */
  readonly streamPath: string;
  /** The path of a whole (not streamed) answer; the same as `streamPath` where the body says it. */
  readonly wholePath: string;
  /** The token-counting path, for the wire APIs that have one. */
  readonly countTokensPath?: string;
  /**
   * How a client's request path is recognised (`repairingFetch`): a path ending with this text,
   * or matching this pattern (group 1 the model, group 2 present when it streams). None for the
   * wire APIs `repairingFetch` leaves alone (Converse: a SigV4 signature covers the body).
   */
  readonly clientPath?: string | RegExp;
  /** The header the API key goes in: `authorization` is sent as `Bearer {key}`. */
  readonly keyHeader: "x-api-key" | "authorization" | "x-goog-api-key";
  /** Headers every request carries (the API version). */
  readonly versionHeaders: Readonly<Record<string, string>>;
  /** Whether the body says `stream: true` (otherwise the URL says it). */
  readonly streamField: boolean;
  /** What a body without `stream` asks for (Ollama streams unless told `stream: false`); false when absent. */
  readonly streamsByDefault?: boolean;
  /**
   * How a streamed answer is framed when not SSE: `event-stream` (AWS's binary messages, handed
   * to the decoder as bytes) or `ndjson` (one JSON object a line).
   */
  readonly framing?: "event-stream" | "ndjson";
  /** The `accept` header of its streamed request (`text/event-stream` when absent). */
  readonly accept?: string;
  /**
   * The provider a request of this wire API is taken for when no row's `hosts` names its host
   * (and the one its own key or version header names).
   */
  readonly defaultProvider: Provider;
  /**
   * Where the mock serves a wire API with the model in its path: group 1 the model, group 2 the
   * method (`streamGenerateContent` streams). Other wire APIs are served at `mockPaths`.
   */
  readonly mockPath?: RegExp;
}

/**
 * The wire APIs, in the order `repairingFetch` guesses by key header (a `x-goog-api-key` says
 * Gemini before an `x-api-key` says Anthropic).
 */
export const WIRE_HTTP: Readonly<Record<Wire, WireHttp>> = Object.freeze({
  "generate-content": {
    streamPath: "/v1beta/models/{model}:streamGenerateContent?alt=sse",
    wholePath: "/v1beta/models/{model}:generateContent",
    countTokensPath: "/v1beta/models/{model}:countTokens",
    clientPath: /\/models\/([^/:]+):(stream)?generateContent$/i,
    keyHeader: "x-goog-api-key",
    versionHeaders: {},
    streamField: false,
    defaultProvider: "gemini",
    mockPath: /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/,
  },
  messages: {
    streamPath: "/v1/messages",
    wholePath: "/v1/messages",
    countTokensPath: "/v1/messages/count_tokens",
    clientPath: "/v1/messages",
    keyHeader: "x-api-key",
    versionHeaders: { "anthropic-version": "2023-06-01" },
    streamField: true,
    defaultProvider: "anthropic",
  },
  responses: {
    streamPath: "/responses",
    wholePath: "/responses",
    countTokensPath: "/responses/input_tokens",
    clientPath: "/responses",
    keyHeader: "authorization",
    versionHeaders: {},
    streamField: true,
    defaultProvider: "openai-responses",
  },
  "chat-completions": {
    streamPath: "/chat/completions",
    wholePath: "/chat/completions",
    clientPath: "/chat/completions",
    keyHeader: "authorization",
    versionHeaders: {},
    streamField: true,
    defaultProvider: "openai-compatible",
  },
  // Bedrock Converse: the model in the path (`:` is `%3A` on the wire), no `stream` field; a
  // Bedrock API key as Bearer (AWS_BEARER_TOKEN_BEDROCK) or SigV4 (hosts.md §1.1)
  converse: {
    streamPath: "/model/{model}/converse-stream",
    wholePath: "/model/{model}/converse",
    keyHeader: "authorization",
    versionHeaders: {},
    streamField: false,
    defaultProvider: "bedrock-converse",
    mockPath: /^\/model\/([^/]+)\/(converse|converse-stream)$/,
    framing: "event-stream",
    accept: "application/vnd.amazon.eventstream",
  },
  // Ollama's native chat API: no auth of its own (a key, when given, as Bearer: a proxy's or
  // ollama.com's), `stream` in the body and true when absent (docs/api.md), NDJSON answers
  "ollama-chat": {
    streamPath: "/api/chat",
    wholePath: "/api/chat",
    keyHeader: "authorization",
    versionHeaders: {},
    streamField: true,
    streamsByDefault: true,
    defaultProvider: "ollama",
    framing: "ndjson",
    accept: "application/x-ndjson",
  },
});

/** One provider's HTTP facts. */
export interface ProviderHttp {
  /** The wire API it speaks. */
  readonly wire: Wire;
  /** Its public base URL in the form its SDK takes (none for OpenAI-compatible servers). */
  readonly baseURL: string | undefined;
  /**
   * Whether the base URL an SDK takes ends in `/v1` (the client appends `/chat/completions` or
   * `/responses` to it): the mock serves the wire's paths under `/v1` then, and its `baseURL`
   * is `origin + "/v1"`.
   */
  readonly v1InBase: boolean;
  /** Its stream reports usage only when asked (`stream_options.include_usage`). */
  readonly usageOption: boolean;
  /** The host names its requests go to, for chat dialects `repairingFetch` tells apart by host. */
  readonly hosts: readonly RegExp[];
  /** A URL that names it wherever it occurs (to name the API of a request turnwire does not repair). */
  readonly urlHint?: RegExp;
  /** Paths the mock also serves (DeepSeek answers `/v1/chat/completions` too). */
  readonly mockAlsoServes: readonly string[];
  /**
   * The AWS signing name of a provider on AWS (`bedrock`): its requests may be signed with
   * SigV4 (`aws` credentials) instead of carrying an API key. Its `baseURL` names `{region}`.
   */
  readonly signingName?: string;
}

/**
 * Every provider's row, in the order the mock providers are listed (`MOCK_PROVIDERS`) and chat
 * hosts are tried.
 */
export const PROVIDER_HTTP: Readonly<Record<Provider, ProviderHttp>> = Object.freeze({
  anthropic: { wire: "messages", baseURL: "https://api.anthropic.com", v1InBase: false, usageOption: false, hosts: [], mockAlsoServes: [] },
  "openai-chat": {
    wire: "chat-completions",
    baseURL: "https://api.openai.com/v1",
    v1InBase: true,
    usageOption: true,
    hosts: [/(^|\.)api\.openai\.com$/, /\.openai\.azure\.com$/],
    mockAlsoServes: [],
  },
  "openai-responses": { wire: "responses", baseURL: "https://api.openai.com/v1", v1InBase: true, usageOption: false, hosts: [], mockAlsoServes: [] },
  gemini: {
    wire: "generate-content",
    baseURL: "https://generativelanguage.googleapis.com",
    v1InBase: false,
    usageOption: false,
    hosts: [],
    urlHint: /generativelanguage|aiplatform/i,
    mockAlsoServes: [],
  },
  mistral: { wire: "chat-completions", baseURL: "https://api.mistral.ai/v1", v1InBase: true, usageOption: false, hosts: [/(^|\.)api\.mistral\.ai$/], mockAlsoServes: [] },
  kimi: { wire: "chat-completions", baseURL: "https://api.moonshot.ai/v1", v1InBase: true, usageOption: false, hosts: [/(^|\.)api\.moonshot\.(ai|cn)$/], mockAlsoServes: [] },
  deepseek: {
    wire: "chat-completions",
    baseURL: "https://api.deepseek.com",
    v1InBase: false,
    usageOption: true,
    hosts: [/(^|\.)api\.deepseek\.com$/],
    mockAlsoServes: ["/v1/chat/completions"],
  },
  "openai-compatible": { wire: "chat-completions", baseURL: undefined, v1InBase: true, usageOption: true, hosts: [], mockAlsoServes: [] },
  "bedrock-converse": {
    wire: "converse",
    baseURL: "https://bedrock-runtime.{region}.amazonaws.com",
    v1InBase: false,
    usageOption: false,
    hosts: [/^bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com(\.cn)?$/],
    urlHint: /bedrock-runtime/i,
    mockAlsoServes: [],
    signingName: "bedrock",
  },
  ollama: { wire: "ollama-chat", baseURL: "http://localhost:11434", v1InBase: false, usageOption: false, hosts: [], mockAlsoServes: [] },
});

/** The providers, in the table's order. */
export const PROVIDERS: readonly Provider[] = Object.freeze(Object.keys(PROVIDER_HTTP) as Provider[]);

/** `provider`'s row, or undefined for a name that is not a provider. */
export function providerHttp(provider: Provider): ProviderHttp | undefined {
  return Object.prototype.hasOwnProperty.call(PROVIDER_HTTP, provider) ? PROVIDER_HTTP[provider] : undefined;
}

/** The wire API `provider` speaks (`chat-completions` for a name that is not a provider). */
export function wireOf(provider: Provider): Wire {
  return providerHttp(provider)?.wire ?? "chat-completions";
}

/** The wire APIs `repairingFetch` recognises by path (those with a `clientPath`), in WIRE_HTTP's order. */
export const WIRES: readonly Wire[] = Object.freeze((Object.keys(WIRE_HTTP) as Wire[]).filter((w) => WIRE_HTTP[w].clientPath !== undefined));

/** The provider of a `wire` request sent to `host` (a lower-case host name): the row naming it, else the wire's default. */
export function providerAt(wire: Wire, host: string): Provider {
  return PROVIDERS.find((p) => PROVIDER_HTTP[p].wire === wire && PROVIDER_HTTP[p].hosts.some((h) => h.test(host))) ?? WIRE_HTTP[wire].defaultProvider;
}

/** A region name as AWS writes them (`us-east-1`), nothing a URL could be bent with. */
export const AWS_REGION = /^[a-z]{2}(-[a-z0-9]+)+-\d+$/;

/** `path` with its `{model}` filled in: a `models/` prefix dropped, the name URL-encoded. */
export function withModel(path: string, model: string): string {
  if (!path.includes("{model}")) return path;
  const name = model.startsWith("models/") ? model.slice("models/".length) : model;
  return path.replace("{model}", () => encodeURIComponent(name));
}

/**
 * The request's headers with the ones its body needs (a render's `headers`: Anthropic's
 * header params and the betas of the blocks it replays, ANT-42) added: a name already there
 * (in any case) takes the new value, except `anthropic-beta`, whose values are joined with
 * commas, each once.
 */
export function withBodyHeaders(
  base: Readonly<Record<string, string>>,
  needed: Readonly<Record<string, string>> | undefined | null,
): Record<string, string> {
  const out: Record<string, string> = { ...base };
  for (const [name, value] of Object.entries(needed ?? {})) {
    const key = Object.keys(out).find((h) => h.toLowerCase() === name.toLowerCase()) ?? name;
    const had = out[key];
    if (key.toLowerCase() === "anthropic-beta" && had) {
      const betas = [...had.split(","), ...value.split(",")].map((b) => b.trim()).filter(Boolean);
      out[key] = [...new Set(betas)].join(",");
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** The headers that carry `apiKey` (none without one) and the version, for `wire`. */
export function authHeaders(wire: Wire, apiKey: string | undefined): Record<string, string> {
  const facts = WIRE_HTTP[wire];
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers[facts.keyHeader] = facts.keyHeader === "authorization" ? `Bearer ${apiKey}` : apiKey;
  return Object.assign(headers, facts.versionHeaders);
}

/**
 * The body fields that switch streaming on for `provider` (`stream: true`, and
 * `stream_options.include_usage` where usage comes only when asked); none when the URL says it.
 */
export function streamSwitches(provider: Provider): JsonObject {
  const row = providerHttp(provider);
  const extra: JsonObject = {};
  if (!WIRE_HTTP[row?.wire ?? "chat-completions"].streamField) return extra;
  extra["stream"] = true;
  if (row?.usageOption === true) extra["stream_options"] = { include_usage: true };
  return extra;
}

/** The paths the mock serves `provider`'s requests at (the streaming path without its query). */
export function mockPaths(provider: Provider): readonly string[] {
  const row = providerHttp(provider) ?? PROVIDER_HTTP["openai-compatible"];
  const path = WIRE_HTTP[row.wire].streamPath.split("?")[0] ?? "";
  return [(row.v1InBase ? "/v1" : "") + path, ...row.mockAlsoServes];
}

/** The base URL an SDK (or turnwire's shim) takes for `provider` on the mock's `origin`. */
export function mockBaseURL(provider: Provider, origin: string): string {
  return providerHttp(provider)?.v1InBase === false ? origin : `${origin}/v1`;
}
