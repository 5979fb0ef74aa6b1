// AWS Signature Version 4 for a request sent with `fetch` (Bedrock's SigV4 auth), on WebCrypto
// only (`crypto.subtle` SHA-256 and HMAC: Node >= 20, Deno, Bun, workerd, browsers, edge-light).
// No dependency. This module is the public half (`signAwsRequest` and its options);
// sigv4-parts.mts computes the signature. The secret key is used there and nowhere else: it
// never enters the wasm module, and what they return or throw never holds it.
//
// The rules (AWS's "Create a signed AWS API request", the AWS SDKs' signers, and the
// awslabs/aws-c-auth test suite under tests/fixtures/sigv4/):
//   - canonical URI: the request line's path with its dot segments and empty segments removed,
//     then each segment URI-encoded again (every service but S3): a Bedrock model id
//     `…-v1:0` is `…-v1%3A0` on the wire and `…-v1%253A0` in the canonical request
//     (BerriAI/litellm#13738 and #14763, higress-group/higress#2396 and #3590, tontinton/maki#212);
//   - canonical query: each name and value decoded, URI-encoded, sorted by name, then value;
//   - canonical headers: names lower-cased, values trimmed with inner whitespace runs as one
//     space, repeated names joined with `,`; `host`, `x-amz-date`, and `x-amz-security-token` /
//     `x-amz-content-sha256` when sent, are signed; hop-by-hop and agent headers are not.

import { sigV4Parts } from "./sigv4-parts.mjs";

/** AWS credentials: an access key, its secret, and the session token of temporary ones. */
export interface AwsCredentials {
  /** `AKIA…` (long-term) or `ASIA…` (temporary). */
  accessKeyId: string;
  /** The secret access key: signs, is never sent. */
  secretAccessKey: string;
  /** The session token of temporary credentials (STS, SSO, a role): sent as `x-amz-security-token`. */
  sessionToken?: string | undefined;
}

/**
 * What `signAwsRequest` signs.
 *
 * @example
 * ```ts
 * const o: SignAwsRequestOptions = { method: "POST", url, headers, body, credentials, region: "us-east-1", service: "bedrock" };
 * ```
 */
export interface SignAwsRequestOptions {
  /** The HTTP method (`POST`). */
  method: string;
  /**
   * The URL as the request line carries it: its path is signed as written (percent-escapes
   * included, each segment encoded again). `fetch` sends a URL in its WHATWG form (a space as
   * `%20`, non-ASCII percent-encoded), so give `new URL(url).href` for a URL that may hold such
   * characters; `providerRequest`'s URLs are in that form.
   */
  url: string;
  /** The headers that will be sent (a record, `[name, value]` pairs or a `Headers`); all but hop-by-hop and agent headers are signed. */
  headers?: Record<string, string> | ReadonlyArray<readonly [string, string]> | { forEach(f: (value: string, name: string) => void): void } | undefined;
  /** The body that will be sent, as text (UTF-8) or bytes; none for an empty body. */
  body?: string | Uint8Array | null | undefined;
  credentials: AwsCredentials;
  /** The region (`us-east-1`). */
  region: string;
  /** The signing name of the service (`bedrock` for Bedrock Runtime). */
  service: string;
  /** The signing time (default now): a `Date` or milliseconds since the epoch. */
  now?: Date | number | undefined;
  /**
   * Whether to send and sign `x-amz-content-sha256` (the body's SHA-256), as the AWS SDKs for
   * JavaScript do for every service. Default true.
   */
  contentSha256?: boolean | undefined;
}

/**
 * The headers that sign a request with AWS Signature Version 4 (header form): `x-amz-date`,
 * `x-amz-security-token` with temporary credentials, `x-amz-content-sha256` (unless
 * `contentSha256: false`) and `authorization`. Add them to the request's headers and send its
 * URL, headers and body unchanged. Rejects with a `TypeError` for missing credentials, region or
 * service, or a host without WebCrypto; its messages never hold the secret.
 *
 * @example
 * ```ts
 * const url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream";
 * const headers = { "content-type": "application/json" };
 * const signed = await signAwsRequest({ method: "POST", url, headers, body, credentials, region: "us-east-1", service: "bedrock" });
 * await fetch(url, { method: "POST", headers: { ...headers, ...signed }, body });
 * ```
 */
export async function signAwsRequest(options: SignAwsRequestOptions): Promise<Record<string, string>> {
  return (await sigV4Parts(options)).headers;
}
