// The retry classification of AWS's error types (js/classify.mts, internal: read here from the
// installed package's dist/): Bedrock Runtime's ConverseError set, named in the `x-amzn-ErrorType`
// header of an HTTP error (stream-suite.mjs checks those answers through streamTurn in every
// runtime) or, in lower camel case, in the `:exception-type` of an event-stream exception
// (hosts.md §1.3), classifies the same way either way.
import { describe, test } from "node:test";
import assert from "node:assert/strict";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { amznErrorType, awsRetryable, retryableType, readErrorBody, streamError } = await import(new URL("classify.mjs", dist).href);

// [type, retryable]: the AWS SDK's ConverseError / ConverseStreamOutput exceptions, then AWS's auth errors
const TYPES = [
  ["ThrottlingException", true],
  ["ModelNotReadyException", true],
  ["ModelTimeoutException", true],
  ["InternalServerException", true],
  ["ServiceUnavailableException", true],
  ["ModelStreamErrorException", true],
  ["ValidationException", false],
  ["AccessDeniedException", false],
  ["ResourceNotFoundException", false],
  ["ModelErrorException", false],
  ["ServiceQuotaExceededException", false],
  ["ConflictException", false],
  ["InvalidSignatureException", false],
  ["UnrecognizedClientException", false],
  ["ExpiredTokenException", false],
];
const lowerCamel = (t) => t[0].toLowerCase() + t.slice(1);

describe("AWS error types", () => {
  test("each type classifies the same in the header form, the SDK form and the stream's lower camel form", () => {
    for (const [type, retryable] of TYPES) {
      assert.equal(awsRetryable(`${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`), retryable, type);
      assert.equal(awsRetryable(type), retryable, type);
      assert.equal(retryableType(lowerCamel(type)), retryable, lowerCamel(type));
    }
  });

  test("an exception frame's type makes a stream ProviderError retryable or not", () => {
    const request = { url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse-stream", provider: "openai-compatible", model: "m" };
    const result = { message: { blocks: [] }, errors: [], appended: false };
    const throttled = streamError(request, "throttlingException", "Too many tokens, please wait before trying again.", { message: "Too many tokens, please wait before trying again." }, result);
    assert.deepEqual([throttled.kind, throttled.errorType, throttled.retryable], ["stream", "throttlingException", true]);
    const invalid = streamError(request, "validationException", "bad", { message: "bad" }, result);
    assert.deepEqual([invalid.kind, invalid.errorType, invalid.retryable], ["stream", "validationException", false]);
  });

  test("other providers' types are not read as AWS's", () => {
    for (const t of ["overloaded_error", "RESOURCE_EXHAUSTED", "rate_limit_exceeded", "SomeOtherException", "Exception", "throttling"]) assert.equal(awsRetryable(t), undefined, t);
    assert.equal(retryableType("overloaded_error"), true);
    assert.equal(retryableType("invalid_request_error"), false);
  });

  test("x-amzn-ErrorType is cut at ':'; the body's message is `message`, `Message`, and `__type` names the type", () => {
    const headers = (v) => ({ get: (n) => (n === "x-amzn-errortype" ? v : null) });
    assert.equal(amznErrorType(headers("ThrottlingException:http://internal.amazon.com/coral/com.amazon.bedrock/")), "ThrottlingException");
    assert.equal(amznErrorType(headers("ValidationException")), "ValidationException");
    assert.equal(amznErrorType(headers(null)), undefined);
    assert.equal(amznErrorType(headers("")), undefined);
    assert.deepEqual(readErrorBody("openai-compatible", { message: "m" }), { type: undefined, message: "m" });
    assert.deepEqual(readErrorBody("openai-compatible", { Message: "M" }), { type: undefined, message: "M" });
    assert.deepEqual(readErrorBody("openai-compatible", { __type: "com.amazon.coral.service#UnrecognizedClientException", message: "The security token included in the request is invalid." }), {
      type: "UnrecognizedClientException",
      message: "The security token included in the request is invalid.",
    });
  });
});
