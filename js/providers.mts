// Where each provider's streaming request goes and with which headers, and the body fields that
// switch streaming on (sent through the render's `extra`, never written into the body here).
import { authHeaders, AWS_REGION, PROVIDER_HTTP, PROVIDERS, providerHttp, streamSwitches, WIRE_HTTP, wireOf, withModel } from "./provider-http.mjs";
import { hostRoute } from "./host-http.mjs";
import { basicCredentials, redactUrl, userinfo, withoutUserinfo } from "./secrets.mjs";
import type { Host, JsonObject, Provider } from "./turnwire.js";

/**
 * Each provider's public base URL, in the form its SDK takes it (what `baseURL` replaces).
 * OpenAI-compatible servers have none: give theirs. Bedrock's names `{region}` (the `region`
 * option fills it in); Ollama's is the local server's.
 *
 * @example
 * ```ts
 * DEFAULT_BASE_URLS.anthropic; // "https://api.anthropic.com"
 * ```
 */
export const DEFAULT_BASE_URLS: Readonly<Record<Exclude<Provider, "openai-compatible">, string>> = Object.freeze(
  Object.fromEntries(PROVIDERS.flatMap((p) => (PROVIDER_HTTP[p].baseURL === undefined ? [] : [[p, PROVIDER_HTTP[p].baseURL]]))) as Record<Exclude<Provider, "openai-compatible">, string>,
);

/**
 * What `providerRequest` needs.
 *
 * @example
 * ```ts
 * const o: ProviderRequestOptions = { provider: "gemini", model: "gemini-3-pro-preview", apiKey: "…" };
 * ```
 */
export interface ProviderRequestOptions {
  provider: Provider;
  model: string;
  apiKey?: string | undefined;
  /** Default `DEFAULT_BASE_URLS[provider]`; a trailing `/` is ignored. */
  baseURL?: string | undefined;
  /** The region of a provider or host whose default base URL names one (Bedrock: `us-east-1`; Vertex: `us-east5`, `global`). */
  region?: string | undefined;
  /**
   * Who serves the provider's wire API (default: the provider's own API): `bedrock` (Claude on
   * InvokeModel), `vertex` (Claude, Gemini), `azure` and `foundry`, `openrouter`, `xai`,
   * `deepseek`, `kimi`, `zai`, `bedrock-mantle`, `ollama`… The URL, auth and version header
   * are the host's; render with the same `host`. A name that is not a host, or a host that does
   * not serve `provider`, is a TurnwireError `invalid_value` at `$.host`.
   */
  host?: Host | undefined;
  /** The Google Cloud project of a Vertex request (without one, a Vertex Gemini `apiKey` is an express-mode key). */
  project?: string | undefined;
  /** The Azure resource of an `azure` or `foundry` request (`https://{resource}.openai.azure.com`). */
  resource?: string | undefined;
  /** Extra headers; they win over turnwire's. */
  headers?: Record<string, string> | undefined;
}

/**
 * A provider's streaming request, except its body.
 *
 * @example
 * ```ts
 * const { url, headers, extra } = providerRequest({ provider: "openai-chat", model: "gpt-5.2", apiKey });
 * const body = renderBody(history, { provider: "openai-chat", model: "gpt-5.2", extra });
 * const response = await fetch(url, { method: "POST", headers, body });
 * ```
 */
export interface ProviderRequest {
  /** Where to POST. */
  url: string;
  /** The base URL it was made from (without a trailing `/`, nor credentials). */
  baseURL: string;
  /** `content-type`, `accept`, the auth header and version headers, then the caller's. */
  headers: Record<string, string>;
  /**
   * The body fields that switch streaming on, for the render's `extra`: `stream: true`
   * (+ `stream_options: { include_usage: true }` for OpenAI Chat, DeepSeek and OpenAI-compatible
   * servers); none for Gemini and Bedrock Converse, which stream by URL.
   */
  extra: JsonObject;
  /** The host the request goes to, when the caller named one. */
  host?: Host | undefined;
  /** `event-stream` when the streamed answer is AWS event-stream frames (Bedrock): push its bytes to the decoder. */
  framing?: "event-stream" | undefined;
}

/**
 * The URL, headers and streaming switches of a streaming request to `provider` (what
 * `streamTurn` sends; also for callers that send with their own client): Anthropic
 * `POST {base}/v1/messages` (`x-api-key`, `anthropic-version: 2023-06-01`), OpenAI Chat, Mistral,
 * Kimi, DeepSeek and OpenAI-compatible `POST {base}/chat/completions` (Bearer), OpenAI
 * Responses `POST {base}/responses` (Bearer), Gemini
 * `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse` (`x-goog-api-key`), Bedrock
 * Converse `POST {base}/model/{model}/converse-stream` (the model id URL-encoded once; base
 * `https://bedrock-runtime.{region}.amazonaws.com`; a Bedrock API key as Bearer, or `aws`
 * credentials in `streamTurn`; AWS event-stream answers), Ollama `POST {base}/api/chat` (base
 * `http://localhost:11434`; no key needed, one given goes as Bearer; NDJSON answers).
 * A base URL with credentials (`https://user:password@proxy`, which `fetch` refuses) is used
 * without them, and they go as `authorization: Basic …`. Throws a `TypeError` for an unknown
 * provider, a missing base URL (OpenAI-compatible), one that is not an absolute URL, or one with
 * credentials when the request has an `authorization` header already (its message never shows
 * them).
 *
 * @example
 * ```ts
 * providerRequest({ provider: "gemini", model: "gemini-3-pro-preview", apiKey: "k" }).url;
 * // "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse"
 * ```
 */
export function providerRequest(options: ProviderRequestOptions): ProviderRequest {
  const { provider, model, apiKey } = options;
  const given = options.baseURL;
  const row = providerHttp(provider);
  if (row === undefined) throw new TypeError(`unknown provider "${String(provider)}"`);
  const host = options.host === undefined ? undefined : hostRoute(options.host, options);
  const fallback = host !== undefined ? host.base : given === undefined ? regional(provider, row.baseURL, options.region) : row.baseURL;
  const raw = given ?? fallback;
  if (raw === undefined || raw === "") throw new TypeError(`${provider} needs a baseURL (the server's URL, e.g. "http://localhost:8000/v1")`);
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new TypeError(`baseURL is not an absolute URL: ${JSON.stringify(redactUrl(String(raw)))}`);
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new TypeError(`baseURL must be http(s): ${JSON.stringify(redactUrl(raw))}`);
  // credentials in the URL (`https://user:password@host`, which fetch refuses) go as basic auth
  const credentials = userinfo(raw);
  const baseURL = withoutUserinfo(raw).replace(/\/+$/, "");

  const wire = WIRE_HTTP[row.wire];
  // AWS event-stream frames (Bedrock): the turn runner pushes the answer's bytes to the decoder
  const framing = host !== undefined ? host.framing : wire.framing === "event-stream" ? "event-stream" : undefined;
  const accept = framing === "event-stream" ? "application/vnd.amazon.eventstream" : (wire.accept ?? "text/event-stream");
  const headers: Record<string, string> = { "content-type": "application/json", accept, ...(host?.headers ?? authHeaders(row.wire, apiKey)) };
  const url = baseURL + (host?.path ?? withModel(wire.streamPath, model));
  const firstParty: JsonObject = streamSwitches(provider);
  const extra: JsonObject = host === undefined || host.streamInBody ? firstParty : {};
  // turnwire's names are lower-case: a caller's header of any case replaces the same one.
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  if (credentials !== undefined) {
    if (headers["authorization"] !== undefined) {
      throw new TypeError(
        `baseURL ${JSON.stringify(redactUrl(raw))} holds credentials (user:password@) and the ${provider} request has an authorization header already: give the proxy's credentials as a header of their own`,
      );
    }
    headers["authorization"] = `Basic ${basicCredentials(credentials.user, credentials.password)}`;
  }
  const out: ProviderRequest = { url, baseURL, headers, extra };
  if (host !== undefined) out.host = host.row.host;
  if (framing !== undefined) out.framing = framing;
  return out;
}

/** `baseURL` with its `{region}` filled in; a TypeError when it names one and `region` is not a region name. */
function regional(provider: Provider, baseURL: string | undefined, region: string | undefined): string | undefined {
  if (baseURL === undefined || !baseURL.includes("{region}")) return baseURL;
  if (typeof region !== "string" || !AWS_REGION.test(region)) {
    throw new TypeError(`${provider} needs a region (\`region\` or \`aws.region\`, e.g. "us-east-1"), got ${region === undefined ? "none" : JSON.stringify(String(region)).slice(0, 40)}`);
  }
  return baseURL.replace("{region}", region);
}

/** The providers with a token-counting endpoint (`renderCountTokens`). */
export type CountingProvider = "anthropic" | "openai-responses" | "gemini";

/**
 * The URL and headers of a token-counting request (its body is `renderCountTokens`'s):
 * Anthropic `POST {base}/v1/messages/count_tokens`, OpenAI Responses
 * `POST {base}/responses/input_tokens`, Gemini `POST {base}/v1beta/models/{model}:countTokens`,
 * with the auth and version headers of `providerRequest`. Throws a `TypeError` for a provider
 * without one, or a bad base URL.
 *
 * @example
 * ```ts
 * const { url, headers } = countTokensRequest({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey });
 * const body = JSON.stringify(renderCountTokens(history, { provider: "anthropic", model: "claude-sonnet-4-5" }).body);
 * const { input_tokens } = await (await fetch(url, { method: "POST", headers, body })).json();
 * ```
 */
export function countTokensRequest(options: ProviderRequestOptions & { provider: CountingProvider }): { url: string; headers: Record<string, string> } {
  const { provider, model } = options;
  const path = WIRE_HTTP[wireOf(provider)].countTokensPath;
  if (path === undefined) {
    throw new TypeError(`${String(provider)} has no token-counting endpoint (${listed(PROVIDERS.filter((p) => WIRE_HTTP[wireOf(p)].countTokensPath !== undefined))} have one)`);
  }
  const { baseURL, headers } = providerRequest(options);
  // a JSON answer, not a stream; the caller's headers still win
  const counted: Record<string, string> = { ...headers, accept: "application/json" };
  for (const [name, value] of Object.entries(options.headers ?? {})) counted[name.toLowerCase()] = value;
  return { url: baseURL + withModel(path, model), headers: counted };
}

/** `a, b and c`. */
function listed(names: readonly string[]): string {
  return names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}
