// Which requests each provider's server answers: method and path, the model (Gemini: from the
// path), whether the answer streams, and the base URL an SDK takes.
import type { Provider } from "./types.mjs";

export interface Route {
  /** Gemini: the model named by the path. */
  model: string | null;
  /** Gemini: `:streamGenerateContent`. */
  geminiStream: boolean;
  /** Gemini `alt=sse` (otherwise a streamed JSON array). */
  geminiSse: boolean;
}

const GEMINI = /^\/v1(?:beta)?\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

/** The route of `POST path?query` on `provider`'s server, or null (404). */
export function route(provider: Provider, path: string, query: URLSearchParams): Route | null {
  const plain: Route = { model: null, geminiStream: false, geminiSse: false };
  switch (provider) {
    case "anthropic":
      return path === "/v1/messages" ? plain : null;
    case "openai-responses":
      return path === "/v1/responses" ? plain : null;
    case "deepseek":
      return path === "/chat/completions" || path === "/v1/chat/completions" ? plain : null;
    case "gemini": {
      const m = GEMINI.exec(path);
      if (!m || m[1] === undefined) return null;
      const stream = m[2] === "streamGenerateContent";
      return { model: decodeURIComponent(m[1]), geminiStream: stream, geminiSse: stream && query.get("alt") === "sse" };
    }
    default:
      return path === "/v1/chat/completions" ? plain : null;
  }
}

/** The base URL an SDK (or turnwire's shim) takes for `provider` on `origin`. */
export function baseURL(provider: Provider, origin: string): string {
  switch (provider) {
    case "anthropic":
    case "gemini":
    case "deepseek":
      return origin;
    default:
      return `${origin}/v1`;
  }
}
