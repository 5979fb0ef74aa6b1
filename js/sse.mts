// Stream framing: the WHATWG event-stream parser (SSE) and a JSON array / NDJSON splitter (Gemini
// `:streamGenerateContent` without `alt=sse`). They only cut bytes into event payloads; what a
// payload means is the StreamDecoder's business (Rust).
//
// Why not depend on `eventsource-parser` (the usual choice, and the reference our tests compare
// with): the package has no runtime dependencies, and its browser entry works as plain ES modules
// without a bundler (a page whose import map names "turnwire" only, as the Chromium test page
// does). A bare `import "eventsource-parser"` inside dist/ breaks exactly that: tried with headless
// Chromium 156, the page fails with `TypeError: Failed to resolve module specifier
// "eventsource-parser"` unless every user adds the dependency to their import map too. (Deno 2,
// by contrast, resolved it from node_modules without permissions, and bundlers would too.) Its
// current major (4.x) also needs Node >= 22.12 while turnwire supports Node >= 20, so we would be
// held on 3.x. Speed is no reason either way: on 8 MB of provider events in 4 KB chunks both parse
// at 140-180 MB/s (sse-conformance.test.mjs prints the numbers). The parser below is ~150 lines;
// tests/js/sse-conformance.test.mjs feeds realistic streams of the eight SSE providers, cut at
// random byte offsets, to both parsers and requires the same events.

/**
 * One server-sent event.
 *
 * @example
 * ```ts
 * const e: SseEvent = { event: "message", data: "[DONE]", id: undefined, lastEventId: "" };
 * ```
 */
export interface SseEvent {
  /** The `event:` field, `"message"` when the event named none (WHATWG). */
  event: string;
  /** The `data:` lines joined with `\n`. */
  data: string;
  /** The `id:` field of this event's own lines, if it had one. */
  id: string | undefined;
  /** The last event ID of the stream so far (WHATWG `lastEventId`: `id:` fields persist). */
  lastEventId: string;
}

/**
 * Callbacks of an `SseParser`.
 *
 * @example
 * ```ts
 * const parser = new SseParser({ onEvent: (e) => console.log(e.data), onComment: (c) => console.debug(":", c) });
 * ```
 */
export interface SseParserOptions {
  /** Every event, as soon as its blank line arrives. */
  onEvent(event: SseEvent): void;
  /** A `retry:` field that is all ASCII digits: the reconnection time in ms. */
  onRetry?(ms: number): void;
  /** A comment line (`: keep-alive`), without the colon and one leading space. */
  onComment?(text: string): void;
}

const LF = 10;
const CR = 13;
const COLON = 58;
const SPACE = 32;
const DIGITS = /^[0-9]+$/;

/**
 * A WHATWG-conformant `text/event-stream` parser: feed it bytes (UTF-8, decoded across chunk
 * boundaries; a leading BOM is dropped) or text, cut anywhere; it calls `onEvent` for each
 * event. Lines end with CR, LF or CRLF (also split across chunks); `data:` lines join with `\n`;
 * `event:`, `id:` and `retry:` follow the spec; comments and unknown fields are skipped. An
 * event not closed by a blank line when the stream ends is dropped, as the spec says.
 *
 * @example
 * ```ts
 * const parser = new SseParser((e) => console.log(e.event, JSON.parse(e.data)));
 * const reader = response.body!.getReader();
 * for (let r = await reader.read(); !r.done; r = await reader.read()) parser.feed(r.value);
 * parser.end();
 * ```
 */
export class SseParser {
  readonly #onEvent: (event: SseEvent) => void;
  readonly #onRetry: ((ms: number) => void) | undefined;
  readonly #onComment: ((text: string) => void) | undefined;
  #decoder: TextDecoder | null = null;
  #started = false;
  /** The previous chunk ended with CR: an LF first in the next chunk belongs to that line break. */
  #afterCR = false;
  /** The start of a line whose end has not arrived yet (pieces, joined once). */
  #pending: string[] = [];
  #data = "";
  #hasData = false;
  #event = "";
  #id: string | undefined = undefined;
  #lastEventId = "";
  /** A field line arrived since the last blank line: an event has begun. */
  #open = false;

  /** Takes `onEvent`, or every callback as `SseParserOptions`. */
  constructor(options: SseParserOptions | ((event: SseEvent) => void)) {
    if (typeof options === "function") {
      this.#onEvent = options;
      this.#onRetry = undefined;
      this.#onComment = undefined;
    } else {
      this.#onEvent = (e) => options.onEvent(e);
      this.#onRetry = options.onRetry ? (ms) => options.onRetry?.(ms) : undefined;
      this.#onComment = options.onComment ? (t) => options.onComment?.(t) : undefined;
    }
  }

  /** Parses the next piece of the stream: bytes (UTF-8) or text; use one kind per stream. */
  feed(chunk: Uint8Array | string): void {
    let text: string;
    if (typeof chunk === "string") {
      text = chunk;
      if (!this.#started && text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    } else {
      // TextDecoder drops a BOM at the start of the stream and keeps split code points.
      this.#decoder ??= new TextDecoder("utf-8");
      text = this.#decoder.decode(chunk, { stream: true });
    }
    if (text !== "") this.#started = true;
    this.#lines(text);
  }

  /**
   * Whether an event has begun and not ended: a field line (`data:`, `event:`, …) or part of a
   * line arrived since the last blank line. A comment then is inside the event, not between two.
   *
   * @example
   * ```ts
   * parser.feed("data: {\n");
   * parser.inEvent; // true, until the blank line
   * ```
   */
  get inEvent(): boolean {
    return this.#open || this.#pending.length > 0;
  }

  /** The stream ended: flushes the UTF-8 decoder; an unfinished event is dropped. The parser can then read a new stream. */
  end(): void {
    if (this.#decoder) {
      const rest = this.#decoder.decode();
      if (rest !== "") this.#lines(rest);
    }
    this.#pending = [];
    this.#data = "";
    this.#hasData = false;
    this.#event = "";
    this.#id = undefined;
    this.#open = false;
    this.#afterCR = false;
    this.#started = false;
  }

  #lines(text: string): void {
    let start = 0;
    if (this.#afterCR && text.length > 0) {
      this.#afterCR = false;
      if (text.charCodeAt(0) === LF) start = 1;
    }
    const n = text.length;
    for (let i = start; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c !== LF && c !== CR) continue;
      let line = text.slice(start, i);
      if (this.#pending.length > 0) {
        this.#pending.push(line);
        line = this.#pending.join("");
        this.#pending = [];
      }
      this.#line(line);
      if (c === CR) {
        if (i + 1 < n) {
          if (text.charCodeAt(i + 1) === LF) i++;
        } else {
          this.#afterCR = true;
        }
      }
      start = i + 1;
    }
    if (start < n) this.#pending.push(text.slice(start));
  }

  #line(line: string): void {
    if (line === "") {
      this.#dispatch();
      return;
    }
    const colon = line.indexOf(":");
    if (colon === 0) {
      this.#onComment?.(line.slice(line.charCodeAt(1) === SPACE ? 2 : 1));
      return;
    }
    this.#open = true;
    let field = line;
    let value = "";
    if (colon > 0) {
      field = line.slice(0, colon);
      value = line.slice(line.charCodeAt(colon + 1) === SPACE ? colon + 2 : colon + 1);
    }
    switch (field) {
      case "data":
        this.#data = this.#hasData ? `${this.#data}\n${value}` : value;
        this.#hasData = true;
        break;
      case "event":
        this.#event = value;
        break;
      case "id":
        if (!value.includes("\0")) {
          this.#id = value;
          this.#lastEventId = value;
        }
        break;
      case "retry":
        if (DIGITS.test(value)) this.#onRetry?.(parseInt(value, 10));
        break;
      default:
        break;
    }
  }

  #dispatch(): void {
    if (this.#hasData) {
      this.#onEvent({ event: this.#event === "" ? "message" : this.#event, data: this.#data, id: this.#id, lastEventId: this.#lastEventId });
    }
    this.#data = "";
    this.#hasData = false;
    this.#event = "";
    this.#id = undefined;
    this.#open = false;
  }
}

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;

const isSpace = (c: number): boolean => c === SPACE || c === LF || c === CR || c === 9;

/**
 * Splits a streamed JSON array (`[{…},\r\n{…}]`, what Gemini's `:streamGenerateContent` answers
 * without `alt=sse`) or a sequence of JSON values (NDJSON, concatenated JSON) into the text of
 * each top-level element, as soon as it is complete. The first non-blank character decides: `[`
 * is the array wrapper, anything else starts a sequence. Text inside strings (brackets,
 * escaped quotes) is never mistaken for structure. It does not validate the JSON: the
 * StreamDecoder parses each element. An element cut off by the end of the stream is dropped.
 *
 * @example
 * ```ts
 * const parser = new JsonArrayParser((json) => decoder.push(json));
 * parser.feed('[{"candidates":[]}');
 * parser.feed(',\r\n{"candidates":[]}]');
 * parser.end();
 * ```
 */
export class JsonArrayParser {
  readonly #onValue: (json: string) => void;
  #decoder: TextDecoder | null = null;
  #mode: "start" | "array" | "sequence" | "done" = "start";
  #depth = 0;
  #inString = false;
  #escape = false;
  /** Inside a top-level value (object, array, string or scalar). */
  #inValue = false;
  #scalar = false;
  #pending: string[] = [];

  constructor(onValue: (json: string) => void) {
    this.#onValue = onValue;
  }

  /** Parses the next piece: bytes (UTF-8) or text; use one kind per stream. */
  feed(chunk: Uint8Array | string): void {
    let text: string;
    if (typeof chunk === "string") {
      text = chunk;
    } else {
      this.#decoder ??= new TextDecoder("utf-8");
      text = this.#decoder.decode(chunk, { stream: true });
    }
    this.#scan(text);
  }

  /** The stream ended: a last scalar is emitted; an unfinished object or array is dropped. */
  end(): void {
    if (this.#decoder) this.#scan(this.#decoder.decode());
    if (this.#inValue && this.#scalar) this.#emit("");
    this.#pending = [];
    this.#inValue = false;
  }

  #emit(tail: string): void {
    this.#pending.push(tail);
    const json = this.#pending.join("").trim();
    this.#pending = [];
    this.#inValue = false;
    this.#scalar = false;
    if (json !== "") this.#onValue(json);
  }

  #scan(text: string): void {
    const n = text.length;
    let start = 0; // where the current value's text starts in `text`
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (this.#inValue) {
        if (this.#inString) {
          if (this.#escape) this.#escape = false;
          else if (c === BACKSLASH) this.#escape = true;
          else if (c === QUOTE) {
            this.#inString = false;
            if (this.#depth === 0) this.#emit(text.slice(start, i + 1));
          }
        } else if (this.#scalar) {
          if (isSpace(c) || c === COMMA || c === CLOSE_BRACKET) {
            this.#emit(text.slice(start, i));
            i--; // look at the delimiter again, outside the value
          }
        } else if (c === QUOTE) {
          this.#inString = true;
        } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
          this.#depth++;
        } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
          this.#depth--;
          if (this.#depth === 0) this.#emit(text.slice(start, i + 1));
        }
        continue;
      }
      if (isSpace(c) || this.#mode === "done") continue;
      if (this.#mode === "start") {
        if (c === OPEN_BRACKET) {
          this.#mode = "array";
          continue;
        }
        this.#mode = "sequence";
      }
      if (c === COMMA) continue;
      if (c === CLOSE_BRACKET && this.#mode === "array") {
        this.#mode = "done";
        continue;
      }
      // A value starts here.
      this.#inValue = true;
      start = i;
      if (c === OPEN_BRACE || c === OPEN_BRACKET) {
        this.#depth = 1;
      } else if (c === QUOTE) {
        this.#depth = 0;
        this.#inString = true;
      } else {
        this.#depth = 0;
        this.#scalar = true;
      }
    }
    if (this.#inValue) this.#pending.push(text.slice(start));
  }
}
