// The mock's Bedrock credential check (js/mock/auth.mts `checkBedrockAuth`, internal: read here
// from the installed package's dist/mock/), on a Node server on 127.0.0.1 that answers with it:
// requests signed by signAwsRequest and by the official @aws-sdk/client-bedrock-runtime (from
// tests/js/mock-sdk) pass with the mock's test credentials; a wrong secret, a changed body or
// path, an unknown key get AWS's answers (403 InvalidSignatureException with the canonical
// string the server expected, UnrecognizedClientException), which the SDK and turnwire's
// error classification read as AWS's; Bedrock API keys (Bearer) pass or fail.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";
import { signAwsRequest } from "turnwire";
import { bedrockAuthRequest } from "./mock-helpers.mjs";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { checkBedrockAuth, MOCK_AWS_CREDENTIALS } = await import(new URL("mock/auth.mjs", dist).href);
const { httpError } = await import(new URL("classify.mjs", dist).href);
const sdk = createRequire(join(resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk"), "package.json"));

const MODEL = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const PATH = `/model/${encodeURIComponent(MODEL)}/converse`;
const BODY = JSON.stringify({ messages: [{ role: "user", content: [{ text: "Hello" }] }] });
const API_KEY = "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t";
const ANSWER = { output: { message: { role: "assistant", content: [{ text: "Hi" }] } }, stopReason: "end_turn", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } };

let server;
let origin;
/** Each request's target as it arrived, and the answer given. */
const seen = [];

before(async () => {
  server = createServer(async (req, res) => {
    const answer = await checkBedrockAuth(await bedrockAuthRequest(req), { apiKey: API_KEY });
    seen.push({ target: req.url, answer });
    if (answer === null) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(ANSWER));
    } else {
      res.writeHead(answer.status, answer.headers);
      res.end(JSON.stringify(answer.body));
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

/** POSTs with fetch, signed by signAwsRequest with `credentials`; `tamper` changes what is sent after signing. */
async function signedPost(credentials, tamper = {}) {
  const url = `${origin}${PATH}`;
  const headers = { "content-type": "application/json", accept: "application/json" };
  const signed = await signAwsRequest({ method: "POST", url, headers, body: BODY, credentials, region: "us-east-1", service: tamper.service ?? "bedrock" });
  const response = await fetch(tamper.url ?? url, { method: "POST", headers: { ...headers, ...signed }, body: tamper.body ?? BODY });
  return { response, text: await response.text() };
}

describe("mock Bedrock auth: SigV4", () => {
  test("a request signed by signAwsRequest with the test credentials passes; the model id arrives as %3A", async () => {
    const { response, text } = await signedPost(MOCK_AWS_CREDENTIALS);
    assert.equal(response.status, 200, text);
    assert.equal(seen.at(-1).target, "/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse");
    const withToken = await signedPost({ ...MOCK_AWS_CREDENTIALS, sessionToken: "IQoJb3JpZ2luX2VjEXAMPLE" });
    assert.equal(withToken.response.status, 200, withToken.text);
  });

  test("a wrong secret: 403 InvalidSignatureException, AWS's text and the canonical string with %253A", async () => {
    const { response, text } = await signedPost({ ...MOCK_AWS_CREDENTIALS, secretAccessKey: "not-the-secret-key" });
    assert.equal(response.status, 403);
    assert.equal(response.headers.get("x-amzn-errortype"), "InvalidSignatureException:http://internal.amazon.com/coral/com.amazon.coral.service/");
    const { message } = JSON.parse(text);
    assert.ok(message.startsWith("The request signature we calculated does not match the signature you provided. Check your AWS Secret Access Key and signing method. Consult the service documentation for details.\n\nThe Canonical String for this request should have been\n'POST\n/model/us.anthropic.claude-sonnet-4-5-20250929-v1%253A0/converse\n"), message);
    assert.ok(message.includes("\n\nThe String-to-Sign should have been\n'AWS4-HMAC-SHA256\n"), message);
    assert.ok(!message.includes("not-the-secret-key") && !message.includes(MOCK_AWS_CREDENTIALS.secretAccessKey));
    // turnwire reads it as AWS's, not retryable
    const e = httpError({ url: PATH, provider: "openai-compatible", model: MODEL }, response.status, response.headers, text);
    assert.deepEqual([e.errorType, e.retryable], ["InvalidSignatureException", false]);
    assert.ok(e.message.startsWith("openai-compatible answered 403 (InvalidSignatureException): The request signature we calculated does not match"), e.message);
  });

  test("what is sent differs from what was signed (body, path, service): 403", async () => {
    for (const tamper of [{ body: BODY.replace("Hello", "Hellp") }, { url: `${origin}${PATH.replace("%3A", ":")}` }, { service: "bedrock-runtime" }]) {
      const { response, text } = await signedPost(MOCK_AWS_CREDENTIALS, tamper);
      assert.equal(response.status, 403, `${JSON.stringify(tamper)}: ${text}`);
      assert.match(response.headers.get("x-amzn-errortype"), /^InvalidSignatureException:/);
    }
  });

  test("an unknown access key: 403 UnrecognizedClientException", async () => {
    const { response, text } = await signedPost({ accessKeyId: "AKIDUNKNOWN000000000", secretAccessKey: MOCK_AWS_CREDENTIALS.secretAccessKey });
    assert.equal(response.status, 403);
    assert.match(response.headers.get("x-amzn-errortype"), /^UnrecognizedClientException:/);
    assert.deepEqual(JSON.parse(text), { message: "The security token included in the request is invalid." });
  });

  test("the official @aws-sdk/client-bedrock-runtime signs a Converse request the mock accepts, and reads its 403 as InvalidSignatureException", async () => {
    const { BedrockRuntimeClient, ConverseCommand } = sdk("@aws-sdk/client-bedrock-runtime");
    const { NodeHttpHandler } = sdk("@smithy/node-http-handler");
    const client = (credentials) => new BedrockRuntimeClient({ region: "us-east-1", endpoint: origin, credentials, maxAttempts: 1, requestHandler: new NodeHttpHandler() });
    const messages = [{ role: "user", content: [{ text: "Hello" }] }];
    const ok = await client({ ...MOCK_AWS_CREDENTIALS }).send(new ConverseCommand({ modelId: MODEL, messages }));
    assert.equal(ok.output.message.content[0].text, "Hi");
    assert.equal(seen.at(-1).target, PATH);
    await assert.rejects(client({ ...MOCK_AWS_CREDENTIALS, secretAccessKey: "wrong" }).send(new ConverseCommand({ modelId: MODEL, messages })), (e) => {
      assert.equal(e.name, "InvalidSignatureException");
      assert.equal(e.$metadata.httpStatusCode, 403);
      return true;
    });
  });
});

describe("mock Bedrock auth: API keys and no credentials", () => {
  const post = (headers) => fetch(`${origin}${PATH}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: BODY });

  test("the Bedrock API key as Bearer passes; another one is 403 with AWS's text", async () => {
    assert.equal((await post({ authorization: `Bearer ${API_KEY}` })).status, 200);
    const wrong = await post({ authorization: "Bearer bedrock-api-key-d3Jvbmc=" });
    assert.equal(wrong.status, 403);
    assert.deepEqual(await wrong.json(), { Message: "Authentication failed: Please make sure your API Key is valid." });
  });

  test("no credentials: 403 MissingAuthenticationTokenException; a malformed SigV4 header: IncompleteSignatureException", async () => {
    const none = await post({});
    assert.equal(none.status, 403);
    assert.match(none.headers.get("x-amzn-errortype"), /^MissingAuthenticationTokenException:/);
    const bad = await post({ authorization: "AWS4-HMAC-SHA256 Credential=AKID" });
    assert.equal(bad.status, 403);
    assert.match(bad.headers.get("x-amzn-errortype"), /^IncompleteSignatureException:/);
  });
});
