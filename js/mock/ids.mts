// Made-up ids and signatures in each provider's own lexical format, from a seeded generator:
// the same script played after the same `reset()` gives the same ids.

const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const HEX = "0123456789abcdef";
const BASE64 = ALNUM + "+/";

/** A small deterministic generator (mulberry32). */
export class IdSource {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  #next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** `length` characters drawn from `alphabet`. */
  chars(alphabet: string, length: number): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[Math.floor(this.#next() * alphabet.length)];
    return out;
  }

  alnum(length: number): string {
    return this.chars(ALNUM, length);
  }

  hex(length: number): string {
    return this.chars(HEX, length);
  }

  /** Base64 text of `bytes` made-up bytes (padded), like a real opaque signature. */
  base64(bytes: number): string {
    const body = this.chars(BASE64, Math.ceil((bytes * 4) / 3));
    return body + "=".repeat((4 - (body.length % 4)) % 4);
  }

  // --- per-provider formats -------------------------------------------------------------------

  /** Anthropic `toolu_01…` (24 base62 after the prefix). */
  anthropicToolId(): string {
    return `toolu_01${this.alnum(22)}`;
  }

  /** Anthropic message id `msg_01…`. */
  anthropicMessageId(): string {
    return `msg_01${this.alnum(22)}`;
  }

  /** Anthropic `request-id` / `request_id` value. */
  anthropicRequestId(): string {
    return `req_011C${this.alnum(20)}`;
  }

  /** OpenAI `call_…` (24 alphanumerics, 29 characters). */
  openaiCallId(): string {
    return `call_${this.alnum(24)}`;
  }

  /** OpenAI `chatcmpl-…`. */
  chatCompletionId(): string {
    return `chatcmpl-${this.alnum(29)}`;
  }

  /** Responses item ids: `resp_`, `rs_`, `msg_`, `fc_` + 50 hex. */
  responsesId(prefix: "resp" | "rs" | "msg" | "fc"): string {
    return `${prefix}_${this.hex(50)}`;
  }

  /** Mistral: exactly 9 alphanumerics. */
  mistralToolId(): string {
    return this.alnum(9);
  }

  /** DeepSeek `call_{nn}_…` (nn: the call's index in the reply). */
  deepseekToolId(index: number): string {
    return `call_${String(index).padStart(2, "0")}_${this.alnum(24)}`;
  }

  /** A UUID-shaped id (DeepSeek completion ids). */
  uuid(): string {
    const h = this.hex(32);
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
  }

  /** Gemini `responseId`. */
  geminiResponseId(): string {
    return this.chars(ALNUM + "-_", 22);
  }
}
