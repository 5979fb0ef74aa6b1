// AWS Signature Version 4 (js/sigv4.mts, `signAwsRequest`): every case of tests/fixtures/sigv4
// (the awslabs/aws-c-auth header-signing suite, Apache-2.0, see its README, and one Bedrock
// ConverseStream case) gives the case's canonical request, string to sign and signature (read
// from the installed package's internal dist/sigv4-parts.mjs); the Bedrock case and generated requests
// sign as @smithy/signature-v4 (the AWS SDK for JavaScript's signer, pinned in
// tests/js/mock-sdk as a test reference) signs them; and the secret key and session token are
// among the secrets turnwire keeps out of errors. sigv4-suite.mjs runs the signatures in every
// runtime.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, createHmac } from "node:crypto";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { createServer } from "node:http";
import { isProviderError, providerRequest, signAwsRequest, streamTurn } from "turnwire";
import { loadFixtures } from "./fixtures.mjs";
import { bedrockAuthRequest } from "./mock-helpers.mjs";
import { sigV4Case, sigV4Fixtures } from "./sigv4-suite.mjs";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { sigV4Parts, canonicalUri } = await import(new URL("sigv4-parts.mjs", dist).href);
const { secretsOf, redactText } = await import(new URL("secrets.mjs", dist).href);
const cases = sigV4Fixtures(loadFixtures(process.env.TURNWIRE_FIXTURES)).map(sigV4Case);

const sdk = createRequire(join(resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk"), "package.json"));
const { SignatureV4 } = sdk("@smithy/signature-v4");
/** The SDK's hash interface on node:crypto (what @smithy/hash-node does). */
class Sha256 {
  constructor(secret) {
    this.h = secret === undefined ? createHash("sha256") : createHmac("sha256", secret);
  }
  update(data) {
    this.h.update(data);
  }
  async digest() {
    return new Uint8Array(this.h.digest());
  }
}

/** What @smithy/signature-v4 signs for the same request (path and query as written). */
async function smithy(options) {
  const u = /^https:\/\/([^/?#]*)([^?#]*)(?:\?(.*))?$/.exec(options.url);
  const query = {};
  for (const piece of (u[3] ?? "").split("&").filter(Boolean)) {
    const [k, v = ""] = piece.split("=");
    query[decodeURIComponent(k)] = decodeURIComponent(v);
  }
  const signer = new SignatureV4({ credentials: options.credentials, region: options.region, service: options.service, sha256: Sha256, applyChecksum: options.contentSha256 !== false });
  const headers = { host: u[1], ...Object.fromEntries(options.headers) };
  const signed = await signer.sign({ method: options.method, protocol: "https:", hostname: u[1], path: u[2], query, headers, body: options.body }, { signingDate: options.now });
  return signed.headers.authorization;
}

describe("sigv4: the aws-c-auth suite and the Bedrock case", () => {
  test("the fixtures: 31 AWS cases (of aws-c-auth's 38, see README.md) and the Bedrock case", () => {
    assert.equal(cases.length, 32);
    assert.ok(cases.every((c) => c.expected.authorization !== undefined), "each case has its signed request");
  });

  for (const c of cases) {
    test(`${c.name}: canonical request, string to sign, signature`, async () => {
      const parts = await sigV4Parts(c.options);
      assert.equal(parts.canonicalRequest, c.expected.canonicalRequest);
      assert.equal(parts.stringToSign, c.expected.stringToSign);
      assert.equal(parts.signature, c.expected.signature);
      assert.equal(parts.headers.authorization, c.expected.authorization);
    });
  }

  test("the Bedrock case signs as @smithy/signature-v4 signs it", async () => {
    const c = cases.find((x) => x.name === "sigv4/bedrock-converse-stream");
    assert.equal(await smithy(c.options), c.expected.authorization);
    assert.equal((await signAwsRequest(c.options)).authorization, c.expected.authorization);
  });

  test("generated requests (model ids with : / % and spaces, queries, repeated and padded headers, tokens, bodies) sign as @smithy/signature-v4 signs them", async () => {
    let seed = 7;
    const rand = (n) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const pick = (xs) => xs[rand(xs.length)];
    const ids = ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", "arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-sonnet-4-20250514-v1:0", "amazon.nova-pro-v1:0", "meta.llama4-maverick-17b-instruct-v1:0", "a b~c(d)!*'"];
    for (let i = 0; i < 200; i++) {
      const model = pick(ids);
      const path = `/model/${encodeURIComponent(model)}/${pick(["converse", "converse-stream", "invoke"])}`;
      const query = pick(["", "?a=1", "?b=x%20y&a=2", "?z=%E1%88%B4&Z=1"]);
      const headers = [
        ["content-type", pick(["application/json", " application/json  ", "application/json;  charset=utf-8"])],
        ...(rand(2) ? [["accept", "application/vnd.amazon.eventstream"]] : []),
        ...(rand(2) ? [["X-Amzn-Bedrock-Trace", pick(["ENABLED", "DISABLED"])]] : []),
        ...(rand(3) === 0 ? [["user-agent", "turnwire"]] : []),
      ];
      const options = {
        method: "POST",
        url: `https://bedrock-runtime.${pick(["us-east-1", "eu-west-3"])}.amazonaws.com${path}${query}`,
        headers,
        body: JSON.stringify({ messages: [{ role: "user", content: [{ text: `hi ${"é".repeat(rand(5))} ${i}` }] }] }),
        credentials: { accessKeyId: `AKID${i}`, secretAccessKey: `secret/${i}+key`, ...(rand(2) ? { sessionToken: `token+/=${i}` } : {}) },
        region: pick(["us-east-1", "eu-west-3"]),
        service: "bedrock",
        now: new Date(Date.UTC(2026, rand(12), 1 + rand(28), rand(24), rand(60), rand(60))),
        contentSha256: rand(4) !== 0,
      };
      assert.equal((await sigV4Parts(options)).headers.authorization, await smithy(options), `${options.url} ${JSON.stringify(headers)}`);
    }
  });

  test("canonical URI: each segment of the wire path encoded again, dot and empty segments removed", () => {
    assert.equal(canonicalUri("/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse"), "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse");
    assert.equal(canonicalUri("/model/arn%3Aaws%3Abedrock%3Aus-east-1%3A1%3Ainference-profile%2Fx/converse"), "/model/arn%253Aaws%253Abedrock%253Aus-east-1%253A1%253Ainference-profile%252Fx/converse");
    assert.equal(canonicalUri("//a/./b/../c//"), "/a/c/");
    assert.equal(canonicalUri(""), "/");
  });
});

describe("sigv4: the secret stays out", () => {
  test("secretsOf holds the secret access key and the session token of `aws`", () => {
    const aws = { region: "us-east-1", accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE" };
    const secrets = secretsOf({ aws });
    assert.ok(secrets.includes(aws.secretAccessKey));
    assert.ok(secrets.includes(aws.sessionToken));
    assert.equal(redactText(`key ${aws.secretAccessKey} token ${aws.sessionToken}`, secrets), "key [redacted] token [redacted]");
    assert.deepEqual(secretsOf({ aws: { get secretAccessKey() { throw new Error("hostile"); } } }), []);
  });

  test("the signed headers never hold the secret key", async () => {
    for (const c of cases) {
      const headers = await signAwsRequest(c.options);
      assert.ok(!JSON.stringify(headers).includes(c.options.credentials.secretAccessKey), c.name);
    }
  });
});

describe("sigv4: streamTurn's aws option", () => {
  const aws = { region: "us-east-1", accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
  const never = async () => assert.fail("nothing is sent");

  test("a provider that is not on AWS refuses AWS credentials, before sending and without showing them", async () => {
    await assert.rejects(streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", aws, transcript: [{ role: "user", content: "hi" }], fetch: never }).result, (e) => {
      assert.ok(e instanceof TypeError);
      assert.match(e.message, /anthropic does not take AWS credentials/);
      assert.ok(!e.message.includes(aws.secretAccessKey) && !e.message.includes(aws.accessKeyId));
      return true;
    });
  });
});

describe("sigv4: bedrock-converse", () => {
  const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
  const HISTORY = [{ role: "user", content: "Hello" }];

  test("providerRequest: the region's endpoint, the model id encoded in the path, Bearer key, the event-stream accept, no stream field", () => {
    const r = providerRequest({ provider: "bedrock-converse", model: MODEL, apiKey: "bedrock-api-key-abc", region: "eu-west-3" });
    assert.equal(r.url, "https://bedrock-runtime.eu-west-3.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
    assert.equal(r.baseURL, "https://bedrock-runtime.eu-west-3.amazonaws.com");
    assert.deepEqual(r.headers, { "content-type": "application/json", accept: "application/vnd.amazon.eventstream", authorization: "Bearer bedrock-api-key-abc" });
    assert.deepEqual(r.extra, {});
    assert.throws(() => providerRequest({ provider: "bedrock-converse", model: MODEL }), /bedrock-converse needs a region/);
    assert.throws(() => providerRequest({ provider: "bedrock-converse", model: MODEL, region: "us-east-1.evil.example/x" }), TypeError);
    assert.equal(providerRequest({ provider: "bedrock-converse", model: MODEL, baseURL: "http://127.0.0.1:9" }).url, "http://127.0.0.1:9/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
  });

  test("streamTurn signs with aws (SigV4 over the rendered body) and the mock's check accepts it; a wrong secret is AWS's 403, never showing it", async () => {
    const { checkBedrockAuth, MOCK_AWS_CREDENTIALS } = await import(new URL("mock/auth.mjs", dist).href);
    const seen = [];
    const server = createServer(async (req, res) => {
      const request = await bedrockAuthRequest(req);
      const answer = await checkBedrockAuth(request, { apiKey: "bedrock-api-key-abc" });
      seen.push({ target: req.url, headers: Object.fromEntries(request.headers.map(([n, v]) => [n.toLowerCase(), v])), body: JSON.parse(new TextDecoder().decode(request.body)), answer });
      // accepted: this server then answers a Converse validation error (converse-ollama.test.mjs streams whole turns)
      const out = answer ?? { status: 400, headers: { "content-type": "application/json", "x-amzn-errortype": "ValidationException:http://internal.amazon.com/coral/com.amazon.bedrock/" }, body: { message: "accepted by the mock's auth" } };
      res.writeHead(out.status, out.headers);
      res.end(JSON.stringify(out.body));
    });
    await new Promise((r) => server.listen(0, "127.0.0.1", r));
    const baseURL = `http://127.0.0.1:${server.address().port}`;
    const turn = (auth) => streamTurn({ provider: "bedrock-converse", model: MODEL, baseURL, transcript: HISTORY, ...auth }).result;
    try {
      const aws = { region: "us-east-1", ...MOCK_AWS_CREDENTIALS, sessionToken: "IQoJb3JpZ2luX2VjEXAMPLEtoken" };
      await assert.rejects(turn({ aws }), (e) => isProviderError(e) && e.status === 400 && e.errorType === "ValidationException" && e.retryable === false);
      const signed = seen.at(-1);
      assert.equal(signed.answer, null, "the signature checks out");
      assert.equal(signed.target, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream");
      assert.match(signed.headers.authorization, /^AWS4-HMAC-SHA256 Credential=AKIDTURNWIREMOCK0001\/\d{8}\/us-east-1\/bedrock\/aws4_request, SignedHeaders=accept;content-type;host;x-amz-content-sha256;x-amz-date;x-amz-security-token, Signature=[0-9a-f]{64}$/);
      assert.equal(signed.headers["x-amz-security-token"], aws.sessionToken);
      assert.ok(Array.isArray(signed.body.messages), "the rendered Converse body");

      const secret = "wrong/secret+key/000000000000";
      await assert.rejects(turn({ aws: { ...aws, secretAccessKey: secret } }), (e) => {
        assert.ok(isProviderError(e));
        assert.deepEqual([e.status, e.errorType, e.retryable], [403, "InvalidSignatureException", false]);
        assert.ok(e.message.includes("The request signature we calculated does not match the signature you provided."), e.message);
        for (const text of [e.message, JSON.stringify(e.body), String(e.stack), JSON.stringify(e.request)]) {
          assert.ok(!text.includes(secret) && !text.includes(aws.sessionToken), text);
        }
        return true;
      });

      // a Bedrock API key instead: Bearer, accepted; a wrong one: 403
      await assert.rejects(turn({ apiKey: "bedrock-api-key-abc" }), (e) => e.status === 400 && e.errorType === "ValidationException");
      assert.equal(seen.at(-1).headers.authorization, "Bearer bedrock-api-key-abc");
      await assert.rejects(turn({ apiKey: "bedrock-api-key-xyz" }), (e) => e.status === 403 && e.message.includes("Authentication failed: Please make sure your API Key is valid."));
      await assert.rejects(turn({ apiKey: "k", aws }), /not both/);
      await assert.rejects(turn({ aws: { ...aws, region: "moon" } }), /aws\.region/);
    } finally {
      server.close();
    }
  });
});
