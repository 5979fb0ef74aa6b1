// The AWS event-stream framing (`application/vnd.amazon.eventstream`, Bedrock's ConverseStream),
// written by the mock providers: one message is
//   [total length u32][headers length u32][prelude CRC32][headers][payload][message CRC32]
// (big-endian; the CRC32 is the gzip one, over the 8 prelude bytes, then over everything before
// the last 4), a header `[name length u8][name][type u8][value]`. Types: 0 true, 1 false,
// 2 byte, 3 short, 4 int, 5 long, 6 bytes (u16 length), 7 string (u16 length), 8 timestamp (i64
// milliseconds), 9 uuid (16 bytes). Sources: the AWS "Event stream encoding" pages (Transcribe,
// Lex) and the AWS SDK for JavaScript's codec (@smithy/eventstream-codec, which
// tests/js/event-stream.test.mjs decodes these frames with and compares bytes to).

/** A header value with its wire type (the AWS SDK's shapes; a long as a bigint). */
export type EventStreamHeaderValue =
  | { type: "boolean"; value: boolean }
  | { type: "byte" | "short" | "integer"; value: number }
  | { type: "long"; value: bigint }
  | { type: "binary"; value: Uint8Array }
  | { type: "string"; value: string }
  | { type: "timestamp"; value: Date | number }
  | { type: "uuid"; value: string };

/** CRC-32 (IEEE 802.3, reflected 0xEDB88320: gzip's) table. */
const CRC_TABLE = ((): Uint32Array => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/**
 * The CRC-32 of `bytes` (gzip's).
 *
 * @example
 * ```ts
 * crc32(new TextEncoder().encode("123456789")); // 0xcbf43926
 * ```
 */
export function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = (CRC_TABLE[(c ^ b) & 0xff] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const utf8 = new TextEncoder();

/** One header's bytes. */
function headerBytes(name: string, header: EventStreamHeaderValue): Uint8Array {
  const n = utf8.encode(name);
  if (n.length === 0 || n.length > 255) throw new RangeError(`event-stream header name must be 1..255 bytes: ${JSON.stringify(name)}`);
  let value: Uint8Array;
  let type: number;
  const fixed = (size: number, write: (v: DataView) => void): Uint8Array => {
    const b = new Uint8Array(size);
    write(new DataView(b.buffer));
    return b;
  };
  const sized = (bytes: Uint8Array): Uint8Array => {
    if (bytes.length > 0xffff) throw new RangeError(`event-stream header ${name} is longer than 65535 bytes`);
    const b = new Uint8Array(2 + bytes.length);
    new DataView(b.buffer).setUint16(0, bytes.length);
    b.set(bytes, 2);
    return b;
  };
  switch (header.type) {
    case "boolean":
      type = header.value ? 0 : 1;
      value = new Uint8Array(0);
      break;
    case "byte":
      type = 2;
      value = fixed(1, (v) => v.setInt8(0, header.value));
      break;
    case "short":
      type = 3;
      value = fixed(2, (v) => v.setInt16(0, header.value));
      break;
    case "integer":
      type = 4;
      value = fixed(4, (v) => v.setInt32(0, header.value));
      break;
    case "long":
      type = 5;
      value = fixed(8, (v) => v.setBigInt64(0, header.value));
      break;
    case "binary":
      type = 6;
      value = sized(header.value);
      break;
    case "string":
      type = 7;
      value = sized(utf8.encode(header.value));
      break;
    case "timestamp":
      type = 8;
      value = fixed(8, (v) => v.setBigInt64(0, BigInt(header.value instanceof Date ? header.value.getTime() : header.value)));
      break;
    case "uuid": {
      type = 9;
      const hex = header.value.replace(/-/g, "");
      if (!/^[0-9a-fA-F]{32}$/.test(hex)) throw new RangeError(`event-stream header ${name} is not a UUID`);
      value = new Uint8Array(16);
      for (let i = 0; i < 16; i++) value[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
      break;
    }
  }
  const out = new Uint8Array(1 + n.length + 1 + value.length);
  out[0] = n.length;
  out.set(n, 1);
  out[1 + n.length] = type;
  out.set(value, 2 + n.length);
  return out;
}

/**
 * One event-stream message: `headers` in their order (a plain string is a string header) and
 * `payload` (text as UTF-8).
 *
 * @example
 * ```ts
 * encodeEventStreamMessage({ ":event-type": "messageStop", ":content-type": "application/json", ":message-type": "event" }, '{"stopReason":"end_turn"}');
 * ```
 */
export function encodeEventStreamMessage(headers: Readonly<Record<string, string | EventStreamHeaderValue>>, payload: Uint8Array | string): Uint8Array {
  const parts = Object.entries(headers).map(([name, v]) => headerBytes(name, typeof v === "string" ? { type: "string", value: v } : v));
  const headersLength = parts.reduce((n, p) => n + p.length, 0);
  const body = typeof payload === "string" ? utf8.encode(payload) : payload;
  const total = 16 + headersLength + body.length;
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  view.setUint32(0, total);
  view.setUint32(4, headersLength);
  view.setUint32(8, crc32(out.subarray(0, 8)));
  let at = 12;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  out.set(body, at);
  view.setUint32(total - 4, crc32(out.subarray(0, total - 4)));
  return out;
}

/**
 * A ConverseStream event (`messageStart`, `contentBlockDelta`, `messageStop`, `metadata`, …)
 * with its JSON payload, headed as Bedrock heads it.
 */
export function converseEvent(eventType: string, payload: unknown): Uint8Array {
  return encodeEventStreamMessage({ ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" }, JSON.stringify(payload));
}

/**
 * A ConverseStream exception (`throttlingException`, `internalServerException`,
 * `modelStreamErrorException`, `validationException`, `serviceUnavailableException`) with its
 * `{"message": …}` payload.
 */
export function converseException(exceptionType: string, message: string): Uint8Array {
  return encodeEventStreamMessage({ ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" }, JSON.stringify({ message }));
}
