// AWS Signature Version 4 (`signAwsRequest`, Bedrock's SigV4 auth) through the public JS API, in
// every runtime (suite.mjs calls it; Node ESM and CJS, Deno, Bun, workerd and Chromium run it,
// each on its own WebCrypto): every case of tests/fixtures/sigv4 (the awslabs/aws-c-auth
// header-signing suite, Apache-2.0, and one Bedrock ConverseStream case cross-checked with
// @smithy/signature-v4 in sigv4.test.mjs) must give the case's `Authorization` header, which
// holds the signed header list and the signature. sigv4.test.mjs also checks each case's
// canonical request and string to sign (Node).
// Like suite.mjs it imports nothing that a browser page or a worker could not load.

/**
 * A test case's request.txt (`METHOD PATH HTTP/1.1`, `Name:value` lines, a line that starts
 * with whitespace continuing the value above, a blank line, the body) and context.json as the
 * options of `signAwsRequest`; `expected` holds the case's files.
 */
export function sigV4Case(fixture) {
  const { files } = fixture;
  const context = JSON.parse(files["context.json"]);
  const lines = files["request.txt"].split("\n");
  const first = lines[0];
  const method = first.slice(0, first.indexOf(" "));
  const path = first.slice(first.indexOf(" ") + 1, first.lastIndexOf(" HTTP/1.1"));
  const headers = [];
  let i = 1;
  for (; i < lines.length && lines[i] !== ""; i++) {
    const line = lines[i];
    if (/^[ \t]/.test(line) && headers.length > 0) {
      headers[headers.length - 1][1] += `\n${line}`;
    } else {
      const colon = line.indexOf(":");
      headers.push([line.slice(0, colon), line.slice(colon + 1)]);
    }
  }
  const body = lines.slice(i + 1).join("\n");
  const host = headers.find(([name]) => name.toLowerCase() === "host")?.[1] ?? "";
  const { credentials } = context;
  return {
    name: fixture.name,
    options: {
      method,
      url: `https://${host}${path}`,
      headers,
      body,
      credentials: {
        accessKeyId: credentials.access_key_id,
        secretAccessKey: credentials.secret_access_key,
        ...(credentials.token === undefined ? {} : { sessionToken: credentials.token }),
      },
      region: context.region,
      service: context.service,
      now: new Date(context.timestamp),
      contentSha256: context.sign_body === true,
    },
    expected: {
      canonicalRequest: files["header-canonical-request.txt"],
      stringToSign: files["header-string-to-sign.txt"],
      signature: files["header-signature.txt"].trim(),
      authorization: /^Authorization:(.*)$/m.exec(files["header-signed-request.txt"])?.[1],
    },
  };
}

/** The sigv4 cases of the host's fixtures. */
export const sigV4Fixtures = (fixtures) => fixtures.filter((f) => f.sigv4);

export function defineSigV4Suite(api, label, host) {
  const { describe, test, assert } = host;
  const cases = sigV4Fixtures(host.fixtures).map(sigV4Case);

  describe(`signAwsRequest (${label})`, () => {
    test("the fixtures hold the AWS suite's cases and the Bedrock case", () => {
      assert.ok(cases.length >= 30, `${cases.length} sigv4 cases`);
      assert.ok(cases.some((c) => c.name === "sigv4/bedrock-converse-stream"));
    });

    test("every case signs to the case's Authorization header", async () => {
      for (const c of cases) {
        const headers = await api.signAwsRequest(c.options);
        assert.equal(headers.authorization, c.expected.authorization, c.name);
        assert.ok(headers.authorization.endsWith(`Signature=${c.expected.signature}`), c.name);
        assert.equal(headers["x-amz-date"], c.options.now.toISOString().replace(/\.\d{3}Z$/, "Z").replace(/[-:]/g, ""), c.name);
        assert.equal(headers["x-amz-security-token"], c.options.credentials.sessionToken, c.name);
        assert.equal("x-amz-content-sha256" in headers, c.options.contentSha256, c.name);
        assert.ok(!JSON.stringify(headers).includes(c.options.credentials.secretAccessKey), c.name);
      }
    });

    test("a Bedrock model id is signed encoded twice (%3A on the wire, %253A signed)", async () => {
      const c = cases.find((x) => x.name === "sigv4/bedrock-converse-stream");
      assert.ok(c.options.url.includes("-v1%3A0/converse-stream"));
      assert.ok(c.expected.canonicalRequest.includes("-v1%253A0/converse-stream"));
      const once = await api.signAwsRequest({ ...c.options, url: c.options.url.replace("%3A", ":") });
      assert.notEqual(once.authorization, c.expected.authorization, "the wire's %3A is what is signed, not the decoded ':'");
    });

    test("bad credentials, region or service reject with a TypeError that never shows the secret", async () => {
      const c = cases[0];
      const secret = c.options.credentials.secretAccessKey;
      for (const bad of [
        { credentials: { accessKeyId: "", secretAccessKey: secret } },
        { credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "" } },
        { credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: secret, sessionToken: 7 } },
        { region: "" },
        { service: "Bedrock Runtime" },
        { url: "/model/x/converse" },
        { now: Number.NaN },
      ]) {
        // (no assert.rejects: the harness's assert has none)
        let thrown;
        try {
          await api.signAwsRequest({ ...c.options, ...bad });
        } catch (e) {
          thrown = e;
        }
        assert.ok(thrown instanceof TypeError, `${JSON.stringify(Object.keys(bad))}: ${thrown}`);
        assert.ok(!thrown.message.includes(secret));
      }
    });
  });
}
