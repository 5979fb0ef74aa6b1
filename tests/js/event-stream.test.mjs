// The mock providers' AWS event-stream encoder (js/mock/event-stream.mts, internal: read here
// from the installed package's dist/mock/): its frames are byte for byte the frames
// @smithy/eventstream-codec (the AWS SDK for JavaScript's codec, pinned in tests/js/mock-sdk as
// a test reference) writes for the same headers and payload, with every header type, and that
// codec decodes them back; its CRC32 is gzip's.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { join, resolve } from "node:path";

const dist = new URL("./node_modules/turnwire/dist/", import.meta.url);
const { crc32, encodeEventStreamMessage, converseEvent, converseException } = await import(new URL("mock/event-stream.mjs", dist).href);
const sdk = createRequire(join(resolve(process.env.TURNWIRE_MOCK_SDK ?? "../js-mock-sdk"), "package.json"));
const { EventStreamCodec, Int64 } = sdk("@smithy/eventstream-codec");
const codec = new EventStreamCodec(
  (bytes) => new TextDecoder().decode(bytes),
  (text) => new TextEncoder().encode(text),
);

/** Our header shapes as the SDK's (a long as its Int64). */
const asSdk = (headers) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, typeof v === "string" ? { type: "string", value: v } : v.type === "long" ? { type: "long", value: Int64.fromNumber(Number(v.value)) } : v]));
const hex = (bytes) => Buffer.from(bytes).toString("hex");

describe("event-stream frames (the mock's encoder)", () => {
  test("CRC32 is gzip's", () => {
    assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
    assert.equal(crc32(new Uint8Array(0)), 0);
  });

  test("every header type and an empty message encode as the AWS SDK's codec encodes them", () => {
    const cases = [
      [{}, new Uint8Array(0)],
      [{ ":event-type": "messageStart", ":content-type": "application/json", ":message-type": "event" }, new TextEncoder().encode('{"role":"assistant","p":"abcdefgh"}')],
      [
        {
          "event-type": { type: "integer", value: 40972 },
          "content-type": { type: "string", value: "application/json" },
          "bool false": { type: "boolean", value: false },
          "bool true": { type: "boolean", value: true },
          byte: { type: "byte", value: -49 },
          "byte buf": { type: "binary", value: new TextEncoder().encode("I'm a little teapot!") },
          timestamp: { type: "timestamp", value: new Date(8675309) },
          int16: { type: "short", value: 42 },
          int64: { type: "long", value: 42424242n },
          uuid: { type: "uuid", value: "01020304-0506-0708-090a-0b0c0d0e0f10" },
        },
        new TextEncoder().encode("{'foo':'bar'}"),
      ],
      [{ ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" }, new TextEncoder().encode(JSON.stringify({ contentBlockIndex: 0, delta: { text: "é 🙂 ".repeat(400) } }))],
    ];
    for (const [headers, body] of cases) {
      const ours = encodeEventStreamMessage(headers, body);
      assert.equal(hex(ours), hex(codec.encode({ headers: asSdk(headers), body })), JSON.stringify(Object.keys(headers)));
      const back = codec.decode(ours);
      assert.deepEqual(new Uint8Array(back.body), body);
      assert.deepEqual(Object.keys(back.headers), Object.keys(headers));
    }
  });

  test("Converse events and exceptions decode with the codec: headers as Bedrock sends them, a JSON payload", () => {
    const event = codec.decode(converseEvent("contentBlockDelta", { contentBlockIndex: 0, delta: { text: "Hi" } }));
    assert.deepEqual(
      Object.fromEntries(Object.entries(event.headers).map(([k, v]) => [k, v.value])),
      { ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" },
    );
    assert.deepEqual(JSON.parse(new TextDecoder().decode(event.body)), { contentBlockIndex: 0, delta: { text: "Hi" } });
    const exception = codec.decode(converseException("throttlingException", "Too many tokens, please wait before trying again."));
    assert.deepEqual(
      Object.fromEntries(Object.entries(exception.headers).map(([k, v]) => [k, v.value])),
      { ":exception-type": "throttlingException", ":content-type": "application/json", ":message-type": "exception" },
    );
    assert.deepEqual(JSON.parse(new TextDecoder().decode(exception.body)), { message: "Too many tokens, please wait before trying again." });
  });

  test("a frame whose CRC is damaged is refused by the codec (the checksums are real)", () => {
    const frame = converseEvent("messageStop", { stopReason: "end_turn" });
    const bad = frame.slice();
    bad[bad.length - 1] ^= 1;
    assert.throws(() => codec.decode(bad), /checksum/i);
    const badPrelude = frame.slice();
    badPrelude[9] ^= 1;
    assert.throws(() => codec.decode(badPrelude), /checksum/i);
  });

  test("header names and values out of range throw", () => {
    assert.throws(() => encodeEventStreamMessage({ "": "x" }, ""), RangeError);
    assert.throws(() => encodeEventStreamMessage({ ["n".repeat(256)]: "x" }, ""), RangeError);
    assert.throws(() => encodeEventStreamMessage({ u: { type: "uuid", value: "nope" } }, ""), RangeError);
    assert.throws(() => encodeEventStreamMessage({ s: "x".repeat(65536) }, ""), RangeError);
  });
});
