// The hosts a mock provider also serves, each at the path the real host takes and with its auth
// checked as the real host does (the paths are written here from the hosts' documentation and
// SDKs, not taken from turnwire's client table, so that a wrong client path fails):
//   Anthropic server  Vertex  POST /v1/projects/{p}/locations/{r}/publishers/anthropic/models/
//                             {model}:streamRawPredict | :rawPredict, `Authorization: Bearer
//                             <OAuth access token>` (401 UNAUTHENTICATED without)
//                     Bedrock POST /model/{modelId}/invoke-with-response-stream | /invoke, a
//                             Bedrock API key as Bearer or SigV4 (`checkBedrockAuth`); the stream
//                             is event-stream `chunk` frames, `{"bytes": base64(event)}`
//   OpenAI servers    Azure   POST /openai/v1/chat/completions | /openai/v1/responses, the key in
//                             `api-key` (or an Entra token as Bearer)
// The body is validated for the host (`validateRequest(provider, body, model, host)`: the
// host's envelope, then the wire's rules).
import { checkBedrockAuth } from "./auth.mjs";
import { encodeEventStreamMessage } from "./event-stream.mjs";
import { providerError, type ErrorAnswer } from "./errors.mjs";
import type { IdSource } from "./ids.mjs";
import type { Provider } from "./types.mjs";

/** A request to a host: which one, the model its path names, whether its path says it streams. */
export interface HostRoute {
  host: "vertex" | "bedrock" | "azure";
  /** The model (deployment) the path names, or null when the body names it. */
  model: string | null;
  /** Whether the path says the answer streams; null when the body's `stream` says it. */
  stream: boolean | null;
}

const VERTEX_CLAUDE = /^\/v1\/projects\/[^/]+\/locations\/[^/]+\/publishers\/anthropic\/models\/([^/:]+):(streamRawPredict|rawPredict)$/;
const BEDROCK_INVOKE = /^\/model\/([^/]+)\/(invoke|invoke-with-response-stream)$/;

/** The host route of `POST path` on `provider`'s server, or null. */
export function hostRoute(provider: Provider, path: string): HostRoute | null {
  if (provider === "anthropic") {
    const v = VERTEX_CLAUDE.exec(path);
    if (v !== null && v[1] !== undefined) return { host: "vertex", model: decodeURIComponent(v[1]), stream: null };
    const b = BEDROCK_INVOKE.exec(path);
    if (b !== null && b[1] !== undefined) return { host: "bedrock", model: decodeURIComponent(b[1]), stream: b[2] === "invoke-with-response-stream" };
  }
  if ((provider === "openai-chat" && path === "/openai/v1/chat/completions") || (provider === "openai-responses" && path === "/openai/v1/responses")) {
    return { host: "azure", model: null, stream: null };
  }
  return null;
}

/** What a host's auth check reads of a request. */
export interface HostAuthRequest {
  method: string;
  /** The request line's target, as sent. */
  target: string;
  /** Node's `rawHeaders`. */
  rawHeaders: readonly string[];
  body: Uint8Array;
}

const GOOGLE_AUTH_HELP = "Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.";

/** A Google API error body (`{"error": {code, message, status}}`). */
function googleError(status: number, message: string, statusName: string): ErrorAnswer {
  return { status, type: statusName, message, headers: {}, body: { error: { code: status, message, status: statusName } } };
}

/** An Azure OpenAI auth error (the `401` of a missing or wrong key). */
function azureError(): ErrorAnswer {
  const message =
    "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.";
  return { status: 401, type: "401", message, headers: {}, body: { error: { code: "401", message } } };
}

/** The error answer for the credentials of a request to a host, or null when they pass. */
export async function checkHostAuth(route: HostRoute, request: HostAuthRequest, expected: string | undefined, provider: Provider, ids: IdSource): Promise<ErrorAnswer | null> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i + 1 < request.rawHeaders.length; i += 2) pairs.push([request.rawHeaders[i] ?? "", request.rawHeaders[i + 1] ?? ""]);
  const get = (name: string): string | undefined => pairs.find(([n]) => n.toLowerCase() === name)?.[1];
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(get("authorization") ?? "")?.[1];
  const wrong = (key: string): boolean => key === "" || (expected !== undefined && key !== expected);
  switch (route.host) {
    case "bedrock":
      return checkBedrockAuth({ method: request.method, target: request.target, headers: pairs, body: request.body }, { apiKey: expected });
    case "vertex":
      // Google's 401s for a request without an OAuth token and with a bad one
      if (bearer === undefined) return googleError(401, `Request is missing required authentication credential. ${GOOGLE_AUTH_HELP}`, "UNAUTHENTICATED");
      if (wrong(bearer)) return googleError(401, `Request had invalid authentication credentials. ${GOOGLE_AUTH_HELP}`, "UNAUTHENTICATED");
      return null;
    case "azure": {
      const key = get("api-key") ?? bearer;
      if (key === undefined || wrong(key)) return azureError();
      return null;
    }
  }
  return providerError(provider, 401, {}, ids);
}

/** One Anthropic stream event's text as the Bedrock InvokeModelWithResponseStream `chunk` frame carrying it. */
export function invokeChunk(data: string): Uint8Array {
  let binary = "";
  for (const b of new TextEncoder().encode(data)) binary += String.fromCharCode(b);
  const bytes = btoa(binary);
  return encodeEventStreamMessage({ ":event-type": "chunk", ":content-type": "application/json", ":message-type": "event" }, JSON.stringify({ bytes }));
}
