// Which requests each provider's server answers: method and path, the model (Gemini: from the
// path), whether the answer streams, and the base URL an SDK takes; the paths and bases are the
// provider table's (../provider-http.mts).
import { mockBaseURL, mockPaths, WIRE_HTTP, wireOf } from "../provider-http.mjs";
import type { Provider } from "./types.mjs";

export interface Route {
  /** Gemini and Bedrock: the model named by the path. */
  model: string | null;
  /** The path asks for a stream: Gemini `:streamGenerateContent`, Bedrock `/converse-stream`. */
  pathStream: boolean;
  /** Gemini `alt=sse` (otherwise a streamed JSON array). */
  geminiSse: boolean;
  /** The host whose path this is (hosts.mts), when not the provider's own. */
  host?: string | undefined;
  /** The stream is AWS event-stream frames (Bedrock InvokeModel). */
  eventStream?: boolean | undefined;
}

/** The route of `POST path?query` on `provider`'s server, or null (404). */
export function route(provider: Provider, path: string, query: URLSearchParams): Route | null {
  const served = WIRE_HTTP[wireOf(provider)].mockPath;
  if (served === undefined) return mockPaths(provider).includes(path) ? { model: null, pathStream: false, geminiSse: false } : null;
  const m = served.exec(path);
  if (!m || m[1] === undefined) return null;
  const stream = m[2] === "streamGenerateContent" || m[2] === "converse-stream";
  let model: string;
  try {
    model = decodeURIComponent(m[1]);
  } catch {
    return null; // a malformed escape names no model
  }
  return { model, pathStream: stream, geminiSse: stream && query.get("alt") === "sse" };
}

/** The base URL an SDK (or turnwire's shim) takes for `provider` on `origin`. */
export function baseURL(provider: Provider, origin: string): string {
  return mockBaseURL(provider, origin);
}
