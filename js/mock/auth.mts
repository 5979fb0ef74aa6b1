// The credentials each provider expects and its answer when they are missing or wrong:
//   Anthropic  `x-api-key` or `Authorization: Bearer` (401 authentication_error) and
//              `anthropic-version` (400)
//   OpenAI-style (OpenAI, Mistral, Kimi, DeepSeek, compatible)  `Authorization: Bearer <key>` (401)
//   Gemini     `x-goog-api-key` or `?key=` (missing: 403 PERMISSION_DENIED, wrong: 400
//              API_KEY_INVALID, as Google answers)
import { providerError, type ErrorAnswer } from "./errors.mjs";
import type { IdSource } from "./ids.mjs";
import type { Provider } from "./types.mjs";

/** The `anthropic-version` values the API accepts. */
export const ANTHROPIC_VERSIONS: ReadonlySet<string> = new Set(["2023-01-01", "2023-06-01", "2026-10-21"]);

const header = (headers: Record<string, string | string[] | undefined>, name: string): string | undefined => {
  const v = headers[name];
  return Array.isArray(v) ? v.join(", ") : v;
};

/** `sk-abc…wxyz` as OpenAI prints a wrong key. */
const masked = (key: string): string => (key.length <= 8 ? "*".repeat(key.length) : `${key.slice(0, 3)}${"*".repeat(key.length - 7)}${key.slice(-4)}`);

/** The error answer for a request's credentials, or null when they pass. */
export function checkAuth(
  provider: Provider,
  headers: Record<string, string | string[] | undefined>,
  query: URLSearchParams,
  expected: string | undefined,
  ids: IdSource,
): ErrorAnswer | null {
  const wrong = (key: string): boolean => key === "" || (expected !== undefined && key !== expected);
  switch (provider) {
    case "anthropic": {
      // `x-api-key`, or since API version 2026-10-21 (which the 1.x SDKs send) `Authorization: Bearer`.
      const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header(headers, "authorization") ?? "")?.[1];
      const key = header(headers, "x-api-key") ?? bearer;
      if (key === undefined || key === "") return providerError(provider, 401, { message: "x-api-key header is required" }, ids);
      if (wrong(key)) return providerError(provider, 401, { message: "invalid x-api-key" }, ids);
      const version = header(headers, "anthropic-version");
      if (version === undefined || version === "") return providerError(provider, 400, { message: "anthropic-version: header is required" }, ids);
      if (!ANTHROPIC_VERSIONS.has(version)) return providerError(provider, 400, { message: `anthropic-version: "${version}" is not a valid version` }, ids);
      return null;
    }
    case "gemini": {
      const key = header(headers, "x-goog-api-key") ?? query.get("key") ?? undefined;
      if (key === undefined || key === "") return providerError(provider, 403, {}, ids);
      if (wrong(key))
        return providerError(
          provider,
          400,
          {
            message: "API key not valid. Please pass a valid API key.",
            details: [
              {
                "@type": "type.googleapis.com/google.rpc.ErrorInfo",
                reason: "API_KEY_INVALID",
                domain: "googleapis.com",
                metadata: { service: "generativelanguage.googleapis.com" },
              },
            ],
          },
          ids,
        );
      return null;
    }
    default: {
      const auth = header(headers, "authorization");
      const m = auth === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(auth);
      const key = m?.[1];
      if (key === undefined) {
        // DeepSeek, Mistral and Kimi: their usual 401 text (errors.mts).
        if (provider === "deepseek" || provider === "mistral" || provider === "kimi") return providerError(provider, 401, {}, ids);
        return providerError(
          provider,
          401,
          {
            message:
              "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with blank username) if you're accessing the API from your browser and are prompted for a username and password. You can obtain an API key from https://platform.openai.com/account/api-keys.",
            code: null,
          },
          ids,
        );
      }
      if (!wrong(key)) return null;
      switch (provider) {
        case "deepseek":
          return providerError(provider, 401, { message: `Authentication Fails, Your api key: ****${key.slice(-4)} is invalid` }, ids);
        case "mistral":
        case "kimi":
          return providerError(provider, 401, {}, ids);
        default:
          return providerError(
            provider,
            401,
            { message: `Incorrect API key provided: ${masked(key)}. You can find your API key at https://platform.openai.com/account/api-keys.` },
            ids,
          );
      }
    }
  }
}
