// The credentials each provider expects and its answer when they are missing or wrong:
//   Anthropic  `x-api-key` or `Authorization: Bearer` (401 authentication_error) and
//              `anthropic-version` (400)
//   OpenAI-style (OpenAI, Mistral, Kimi, DeepSeek, compatible)  `Authorization: Bearer <key>` (401)
//   Gemini     `x-goog-api-key` or `?key=` (missing: 403 PERMISSION_DENIED, wrong: 400
//              API_KEY_INVALID, as Google answers)
//   Bedrock    `Authorization: Bearer <Bedrock API key>`, or AWS Signature Version 4 recomputed
//              with the mock's test credentials (`checkBedrockAuth`, async: WebCrypto)
//   Ollama     none (a local server takes any request; a key sent as Bearer is ignored)
import { bodySha256, sigV4Parts } from "../sigv4-parts.mjs";
import type { AwsCredentials } from "../sigv4.mjs";
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
    case "ollama":
      return null;
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

/**
 * The AWS credentials the mock providers check SigV4 signatures with (test values, never real
 * ones), unless a server is given its own.
 */
export const MOCK_AWS_CREDENTIALS: Readonly<AwsCredentials> = Object.freeze({
  accessKeyId: "AKIDTURNWIREMOCK0001",
  secretAccessKey: "turnwire/mock/wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
});

/** An AWS JSON error answer: the type in `x-amzn-ErrorType` (none when `type` is undefined), the text in the body. */
export function awsError(status: number, type: string | undefined, message: string, key: "message" | "Message" = "message"): ErrorAnswer {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (type !== undefined) headers["x-amzn-errortype"] = `${type}:http://internal.amazon.com/coral/com.amazon.coral.service/`;
  return { status, body: { [key]: message }, headers, type: type ?? `http_${status}`, message };
}

/** What `checkBedrockAuth` reads of a request. */
export interface BedrockAuthRequest {
  method: string;
  /** The request line's target: the path as sent (`/model/m-v1%3A0/converse`) and its query. */
  target: string;
  /** The request's headers: Node's `rawHeaders` as pairs, or a record (repeated values as arrays). */
  headers: ReadonlyArray<readonly [string, string]> | Record<string, string | string[] | undefined>;
  body: Uint8Array;
}

/** What a Bedrock request is checked against. */
export interface BedrockAuthExpected {
  /** The Bedrock API key a Bearer request must give; any non-empty one when undefined. */
  apiKey?: string | undefined;
  /** The credentials signatures are checked with (default `MOCK_AWS_CREDENTIALS`). */
  credentials?: Readonly<AwsCredentials> | undefined;
}

/** `SignedHeaders` etc. of a SigV4 `Authorization` header. */
const SIGV4_AUTH = /^AWS4-HMAC-SHA256\s+Credential=([^/,\s]+)\/(\d{8})\/([^/,\s]+)\/([^/,\s]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;._-]+),\s*Signature=([0-9a-f]{64})\s*$/;

/**
 * The error answer for a Bedrock request's credentials, or null when they pass: a Bedrock API
 * key as `Authorization: Bearer`, or an AWS Signature Version 4 (service `bedrock`) that the mock
 * recomputes from the request as it arrived (path as sent, signed headers, body) with the test
 * credentials. Answers as AWS does: a signature that does not match is 403
 * `InvalidSignatureException` with the canonical string and string to sign the server expected;
 * an unknown access key 403 `UnrecognizedClientException`; a wrong API key 403
 * `Authentication failed: Please make sure your API Key is valid.`
 *
 * @example
 * ```ts
 * const answer = await checkBedrockAuth({ method: "POST", target: req.url, headers: pairs(req.rawHeaders), body }, { apiKey });
 * ```
 */
export async function checkBedrockAuth(request: BedrockAuthRequest, expected: BedrockAuthExpected = {}): Promise<ErrorAnswer | null> {
  const pairs: Array<[string, string]> = Array.isArray(request.headers)
    ? request.headers.map(([n, v]) => [n, v] as [string, string])
    : Object.entries(request.headers as Record<string, string | string[] | undefined>).flatMap(([n, v]) => (v === undefined ? [] : Array.isArray(v) ? v.map((x) => [n, x] as [string, string]) : [[n, v] as [string, string]]));
  const get = (name: string): string | undefined => pairs.find(([n]) => n.toLowerCase() === name)?.[1];
  const auth = get("authorization")?.trim();
  // [inferred] AWS's text for a request with no credentials (its services answer so)
  if (auth === undefined || auth === "") return awsError(403, "MissingAuthenticationTokenException", "Missing Authentication Token");
  const bearer = /^Bearer\s+(\S+)$/i.exec(auth)?.[1];
  if (bearer !== undefined) {
    // anomalyco/opencode#47073, ai4s-research/open-science#53: `Message`, capitalised
    if (expected.apiKey !== undefined && bearer !== expected.apiKey) return awsError(403, undefined, "Authentication failed: Please make sure your API Key is valid.", "Message");
    return null;
  }
  const m = SIGV4_AUTH.exec(auth);
  // [inferred] the header is neither a Bearer key nor a whole SigV4 one
  if (m === null) return awsError(403, "IncompleteSignatureException", `Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters. Authorization=${auth.split(/\s/)[0] ?? ""}`);
  const [, accessKeyId, day, region, service, signedHeaders, signature] = m;
  const credentials = expected.credentials ?? MOCK_AWS_CREDENTIALS;
  // Arize-ai/openinference#2358, Aider-AI/aider#1986
  if (accessKeyId !== credentials.accessKeyId) return awsError(403, "UnrecognizedClientException", "The security token included in the request is invalid.");
  const amzDate = get("x-amz-date") ?? "";
  const at = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  // [inferred] AWS's wording for a signed request without its date
  if (at === null || amzDate.slice(0, 8) !== day) return awsError(400, "IncompleteSignatureException", "Authorization header requires existence of either a 'X-Amz-Date' or a 'Date' header.");
  const now = Date.UTC(Number(at[1]), Number(at[2]) - 1, Number(at[3]), Number(at[4]), Number(at[5]), Number(at[6]));
  // AWS's wording for a credential scoped to another service ([inferred] for Bedrock)
  if (service !== "bedrock") return awsError(403, "InvalidSignatureException", "Credential should be scoped to correct service: 'bedrock'. ");
  const host = get("host") ?? "bedrock-runtime.us-east-1.amazonaws.com";
  let parts: Awaited<ReturnType<typeof sigV4Parts>>;
  try {
    parts = await sigV4Parts(
      {
        method: request.method,
        url: `http://${host}${request.target}`,
        headers: pairs.filter(([n]) => n.toLowerCase() !== "authorization"),
        body: request.body,
        credentials: { accessKeyId: credentials.accessKeyId, secretAccessKey: credentials.secretAccessKey },
        region: region ?? "",
        service,
        now,
        contentSha256: false,
      },
      (signedHeaders ?? "").split(";"),
    );
  } catch (e) {
    // a region or target the signer refuses: [inferred] AWS's answer to a credential it cannot read
    return awsError(403, "IncompleteSignatureException", `Credential is not a valid credential scope: ${e instanceof Error ? e.message : String(e)}`);
  }
  // a claimed body hash that is not the body's own does not match either
  const claimed = get("x-amz-content-sha256");
  const hashOk = claimed === undefined || claimed === "UNSIGNED-PAYLOAD" || claimed === (await bodySha256(request.body));
  if (parts.signature === signature && hashOk) return null;
  // BerriAI/litellm#14763, aws-beam/aws-erlang#161: the text, then what the server computed
  return awsError(
    403,
    "InvalidSignatureException",
    "The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\n" +
      `The Canonical String for this request should have been\n'${parts.canonicalRequest}'\n\nThe String-to-Sign should have been\n'${parts.stringToSign}'\n`,
  );
}
