// One provider's HTTP server on 127.0.0.1: route → credentials → JSON → strict validation (the
// package's own validateRequest, same wasm) → the next scripted turn → the answer in the
// provider's format. Every request is logged and counted.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { validateRequest } from "../node.mjs";
import { WIRE_HTTP, wireOf } from "../provider-http.mjs";
import { awsError, checkAuth, checkBedrockAuth } from "./auth.mjs";
import { checkHostAuth, hostRoute, invokeChunk } from "./hosts.mjs";
import { providerError, violationError, type ErrorAnswer } from "./errors.mjs";
import { IdSource } from "./ids.mjs";
import { plan, type Plan } from "./plan.mjs";
import { baseURL, route, type Route } from "./routes.mjs";
import { shapeError } from "./shape.mjs";
import type {
  JsonObject,
  MockLogEntry,
  MockReply,
  MockRequest,
  MockScript,
  MockStats,
  MockTurn,
  Provider,
  Violation,
} from "./types.mjs";
import { anthropic } from "./wire/anthropic.mjs";
import { deepseek, kimi, mistral, openaiChat, openaiCompatible } from "./wire/chat.mjs";
import { converse } from "./wire/converse.mjs";
import { gemini } from "./wire/gemini.mjs";
import { ollama } from "./wire/ollama.mjs";
import { responses } from "./wire/responses.mjs";
import type { StreamItem, Wire, WireContext } from "./wire/wire.mjs";

const WIRES: Record<Provider, Wire> = {
  anthropic,
  "openai-chat": openaiChat,
  "openai-responses": responses,
  gemini,
  mistral,
  kimi,
  deepseek,
  "openai-compatible": openaiCompatible,
  "bedrock-converse": converse,
  ollama,
};

const MAX_BODY_BYTES = 32 * 1024 * 1024;
/** On every answer, so that a browser page (another origin) can call the mock with fetch. */
const CORS: Readonly<Record<string, string>> = { "access-control-allow-origin": "*", "access-control-expose-headers": "*" };
const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-goog-api-key", "x-amz-security-token", "api-key"]);

export interface ServerSettings {
  apiKey: string | undefined;
  validate: boolean;
  defaultTurn: MockScript | undefined;
  delayMs: number;
  chunkSize: number;
  seed: number;
}

/** Node's `rawHeaders` (`[name, value, name, value, …]`) as pairs, repeated names kept. */
function headerPairs(raw: readonly string[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (let i = 0; i + 1 < raw.length; i += 2) out.push([raw[i] ?? "", raw[i + 1] ?? ""]);
  return out;
}

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

/** A JSON text that did not parse, in each provider's words. */
function parseError(provider: Provider, ids: IdSource): ErrorAnswer {
  switch (provider) {
    case "anthropic":
      return providerError(provider, 400, { message: "There was an error parsing the body of your request. Please make sure it is valid JSON." }, ids);
    case "gemini":
      return providerError(provider, 400, { message: "Invalid JSON payload received. Unexpected token." }, ids);
    // [inferred] AWS's text for a body it cannot read (InvokeModel's, public reports)
    case "bedrock-converse":
      return providerError(provider, 400, { message: "Malformed input request, please reformat your input and try again." }, ids);
    // Go's encoding/json error, as Ollama's handlers return it
    case "ollama":
      return providerError(provider, 400, { message: "invalid character looking for beginning of value" }, ids);
    default:
      return providerError(
        provider,
        400,
        {
          message:
            "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)",
        },
        ids,
      );
  }
}

export class ProviderServer {
  readonly provider: Provider;
  readonly #settings: ServerSettings;
  readonly #server: Server;
  readonly #onLog: (entry: MockLogEntry) => void;
  readonly #seed: number;
  #ids: IdSource;
  #queue: MockScript[] = [];
  #log: MockLogEntry[] = [];
  #stats: MockStats = { accepted: 0, rejected: 0, scriptedErrors: 0 };
  #requests = 0;
  #port = 0;
  #closing = false;
  #closed: Promise<void> | null = null;
  /** Pending stream delays: cleared (and resolved) by close(). */
  readonly #timers = new Map<ReturnType<typeof setTimeout>, () => void>();

  constructor(provider: Provider, index: number, settings: ServerSettings, onLog: (entry: MockLogEntry) => void) {
    this.provider = provider;
    this.#settings = settings;
    this.#onLog = onLog;
    this.#seed = (settings.seed * 8 + index) >>> 0;
    this.#ids = new IdSource(this.#seed);
    this.#server = createServer((req, res) => {
      this.#handle(req, res).catch(() => {
        if (!res.destroyed) res.destroy();
      });
    });
  }

  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => reject(error);
      this.#server.once("error", fail);
      this.#server.listen(port, "127.0.0.1", () => {
        this.#server.off("error", fail);
        resolve();
      });
    });
    const address = this.#server.address();
    if (address === null || typeof address === "string") throw new Error("mock provider: the server has no TCP address");
    this.#port = address.port;
  }

  get port(): number {
    return this.#port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.#port}`;
  }

  get baseURL(): string {
    return baseURL(this.provider, this.origin);
  }

  get stats(): MockStats {
    return { ...this.#stats };
  }

  get log(): MockLogEntry[] {
    return [...this.#log];
  }

  get pending(): number {
    return this.#queue.length;
  }

  script(turns: MockScript[]): void {
    this.#queue.push(...turns);
  }

  reset(): void {
    this.#queue = [];
    this.#log = [];
    this.#stats = { accepted: 0, rejected: 0, scriptedErrors: 0 };
    this.#requests = 0;
    this.#ids = new IdSource(this.#seed);
  }

  close(): Promise<void> {
    if (this.#closed === null) {
      this.#closing = true;
      for (const [timer, wake] of this.#timers) {
        clearTimeout(timer);
        wake();
      }
      this.#timers.clear();
      this.#closed = new Promise<void>((resolve) => {
        this.#server.close(() => resolve());
        this.#server.closeAllConnections();
      });
    }
    return this.#closed;
  }

  #sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#closing) return Promise.resolve();
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#timers.delete(timer);
        resolve();
      }, ms);
      this.#timers.set(timer, resolve);
    });
  }

  // --- one request ------------------------------------------------------------------------------

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = req.method ?? "GET";
    // A browser's CORS preflight: allowed, neither logged nor counted (it is not an API call).
    if (method === "OPTIONS") {
      const asked = req.headers["access-control-request-headers"];
      res.writeHead(204, {
        ...CORS,
        "access-control-allow-methods": "POST, OPTIONS",
        "access-control-allow-headers": typeof asked === "string" && asked !== "" ? asked : "*",
        "access-control-max-age": "600",
      });
      res.end();
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers[name] = SECRET_HEADERS.has(name) ? "***" : Array.isArray(value) ? value.join(", ") : value;
    }
    const entry: MockLogEntry = {
      provider: this.provider,
      method,
      path: (url.pathname + url.search).replace(/([?&]key=)[^&]*/g, "$1***"),
      headers,
      body: null,
      model: null,
      stream: false,
      status: 0,
      outcome: "rejected",
      violations: [],
      error: null,
      scripted: false,
    };

    // The body, whole.
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += chunk.byteLength;
      if (size > MAX_BODY_BYTES) return this.#reject(res, entry, providerError(this.provider, 413, {}, this.#ids));
      chunks.push(chunk);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    const text = new TextDecoder().decode(bytes);
    let parsed: unknown = undefined;
    let parsedOk = false;
    if (text !== "") {
      try {
        parsed = JSON.parse(text);
        parsedOk = true;
      } catch {
        parsed = undefined;
      }
    }
    entry.body = text === "" ? null : parsedOk ? parsed : text;

    // a host's path (Vertex, Bedrock InvokeModel, Azure) on this provider's server: its own auth
    const h = method === "POST" ? hostRoute(this.provider, url.pathname) : null;
    const r: Route | null = h !== null ? { model: h.model, pathStream: false, geminiSse: false, host: h.host, eventStream: h.host === "bedrock" } : method === "POST" ? route(this.provider, url.pathname, url.searchParams) : null;
    if (r === null) {
      const message =
        this.provider === "openai-chat" || this.provider === "openai-responses" || this.provider === "openai-compatible"
          ? `Invalid URL (${method} ${url.pathname})`
          : undefined;
      return this.#reject(res, entry, providerError(this.provider, 404, { message }, this.#ids));
    }

    // a host's path: its own auth; Bedrock Converse: a Bedrock API key (Bearer), or a SigV4
    // signature recomputed over the request as sent
    const auth =
      h !== null
        ? await checkHostAuth(h, { method, target: req.url ?? "/", rawHeaders: req.rawHeaders, body: bytes }, this.#settings.apiKey, this.provider, this.#ids)
        : this.provider === "bedrock-converse"
          ? await checkBedrockAuth({ method, target: req.url ?? "/", headers: headerPairs(req.rawHeaders), body: bytes }, { apiKey: this.#settings.apiKey })
          : checkAuth(this.provider, req.headers, url.searchParams, this.#settings.apiKey, this.#ids);
    if (auth !== null) return this.#reject(res, entry, auth);

    if (!parsedOk || !isObject(parsed)) return this.#reject(res, entry, parseError(this.provider, this.#ids));
    const body = parsed;
    const model = r.model ?? (typeof body["model"] === "string" ? body["model"] : null);
    entry.model = model;
    // a host's path says it, or the body (Ollama streams unless it says `stream: false`), or
    // (Gemini, Bedrock Converse) the URL
    const facts = WIRE_HTTP[wireOf(this.provider)];
    const stream = h?.stream ?? (facts.streamField ? (body["stream"] ?? facts.streamsByDefault ?? false) === true : r.pathStream);
    entry.stream = stream;

    const version = req.headers["anthropic-version"];
    const shape = h !== null ? null : shapeError(this.provider, body, typeof version === "string" ? version : undefined);
    if (shape !== null) return this.#reject(res, entry, providerError(this.provider, 400, { message: shape, model: model ?? undefined }, this.#ids));

    if (this.#settings.validate) {
      let violations: Violation[];
      try {
        violations = h === null ? validateRequest(this.provider, body, model) : validateRequest(this.provider, body, model, h.host);
      } catch (e) {
        const message = e instanceof Error ? e.message : String(e);
        return this.#reject(res, entry, providerError(this.provider, 400, { message, model: model ?? undefined }, this.#ids));
      }
      entry.violations = violations;
      const first = violations[0];
      if (first !== undefined) {
        // Bedrock answers a body it refuses as AWS does: 400 ValidationException, `{"message"}`
        const answer = h?.host === "bedrock" ? awsError(400, "ValidationException", first.message) : violationError(this.provider, first, model ?? undefined, this.#ids);
        answer.headers["x-turnwire-mock-rules"] = [...new Set(violations.map((v) => v.rule))].join(",");
        return this.#reject(res, entry, answer);
      }
    }

    // The turn.
    const request: MockRequest = { provider: this.provider, model: model ?? "", body, stream, index: this.#requests++ };
    const queued = this.#queue.shift();
    entry.scripted = queued !== undefined;
    const script: MockScript = queued ?? this.#settings.defaultTurn ?? { text: `Hello from the turnwire mock ${this.provider} provider.` };
    let turn: MockTurn;
    try {
      turn = typeof script === "function" ? script(request) : script;
    } catch (e) {
      const message = `mock script failed: ${e instanceof Error ? e.message : String(e)}`;
      return this.#answerError(res, entry, providerError(this.provider, 500, { message }, this.#ids), "scripted_error", 0);
    }

    if (turn.kind === "error") {
      const answer = providerError(
        this.provider,
        turn.status,
        { message: turn.message, type: turn.type, retryAfter: turn.retryAfter, model: model ?? undefined },
        this.#ids,
      );
      return this.#answerError(res, entry, answer, "scripted_error", turn.latencyMs ?? 0);
    }
    return this.#reply(res, entry, turn, body, model ?? "", text, r);
  }

  #record(entry: MockLogEntry, status: number, outcome: MockLogEntry["outcome"]): void {
    entry.status = status;
    entry.outcome = outcome;
    if (outcome === "accepted") this.#stats.accepted++;
    else if (outcome === "rejected") this.#stats.rejected++;
    else this.#stats.scriptedErrors++;
    this.#log.push(entry);
    this.#onLog(entry);
  }

  #reject(res: ServerResponse, entry: MockLogEntry, answer: ErrorAnswer): Promise<void> {
    return this.#answerError(res, entry, answer, "rejected", 0);
  }

  async #answerError(res: ServerResponse, entry: MockLogEntry, answer: ErrorAnswer, outcome: MockLogEntry["outcome"], latencyMs: number): Promise<void> {
    entry.error = { type: answer.type, message: answer.message };
    this.#record(entry, answer.status, outcome);
    await this.#sleep(latencyMs);
    if (res.destroyed) return;
    const json = JSON.stringify(answer.body);
    res.writeHead(answer.status, {
      "content-type": this.provider === "gemini" ? "application/json; charset=UTF-8" : "application/json",
      ...CORS,
      ...answer.headers,
    });
    res.end(json);
  }

  async #reply(res: ServerResponse, entry: MockLogEntry, reply: MockReply, body: JsonObject, model: string, text: string, r: Route): Promise<void> {
    const p = plan(reply, {
      provider: this.provider,
      model,
      body,
      bodyBytes: new TextEncoder().encode(text).byteLength,
      ids: this.#ids,
      delayMs: this.#settings.delayMs,
      chunkSize: this.#settings.chunkSize,
    });
    const ctx: WireContext = { provider: this.provider, model, body, ids: this.#ids, created: Math.floor(Date.now() / 1000) };
    const wire = WIRES[this.provider];
    const extra = this.#idHeaders();
    this.#record(entry, 200, "accepted");
    await this.#sleep(p.latencyMs);
    if (res.destroyed) return;

    const framing = WIRE_HTTP[wireOf(this.provider)].framing;
    if (!entry.stream) {
      const json = JSON.stringify(wire.json(p, ctx));
      res.writeHead(200, { "content-type": this.provider === "gemini" ? "application/json; charset=UTF-8" : "application/json", ...CORS, ...extra });
      if (p.truncateAfter !== null) {
        await this.#write(res, json.slice(0, Math.floor(json.length / 2)));
        res.destroy();
        return;
      }
      res.end(json);
      return;
    }

    const items = wire.stream(p, ctx);
    const arrayMode = this.provider === "gemini" && !r.geminiSse;
    const contentType =
      framing === "event-stream"
        ? "application/vnd.amazon.eventstream"
        : framing === "ndjson"
          ? "application/x-ndjson"
          : arrayMode
            ? "application/json; charset=UTF-8"
            : this.provider === "gemini"
              ? "text/event-stream"
              : "text/event-stream; charset=utf-8";
    res.writeHead(200, {
      "content-type": r.eventStream === true ? "application/vnd.amazon.eventstream" : contentType,
      "cache-control": "no-cache",
      ...CORS,
      ...extra,
    });
    res.flushHeaders();
    res.socket?.setNoDelay(true);
    await this.#writeStream(res, p, ctx, wire, items, arrayMode, r.eventStream === true);
  }

  /** The request-id header each provider sends with every answer. */
  #idHeaders(): Record<string, string> {
    switch (this.provider) {
      case "anthropic":
        return { "request-id": this.#ids.anthropicRequestId() };
      case "openai-chat":
      case "openai-responses":
        return { "x-request-id": `req_${this.#ids.hex(32)}` };
      case "bedrock-converse":
        return { "x-amzn-requestid": this.#ids.uuid() };
      default:
        return {};
    }
  }

  /**
   * One stream item as sent: an SSE event, a JSON array element, an NDJSON line, an event-stream
   * frame the wire wrote (Bedrock Converse), or (`eventStream`, Bedrock InvokeModel) an event
   * wrapped in a `chunk` frame.
   */
  #frame(item: { event?: string; data: string } | { bytes: Uint8Array }, index: number, arrayMode: boolean, eventStream = false): string | Uint8Array {
    if ("bytes" in item) return item.bytes;
    if (eventStream) return invokeChunk(item.data);
    if (arrayMode) return (index === 0 ? "[" : ",\r\n") + item.data;
    if (WIRE_HTTP[wireOf(this.provider)].framing === "ndjson") return `${item.data}\n`;
    if (this.provider === "gemini") return `data: ${item.data}\r\n\r\n`;
    return item.event === undefined ? `data: ${item.data}\n\n` : `event: ${item.event}\ndata: ${item.data}\n\n`;
  }

  /** Writes `data`; resolves once it has been handed to the socket (or the socket is gone). */
  #write(res: ServerResponse, data: string | Uint8Array): Promise<void> {
    return new Promise<void>((resolve) => {
      res.write(data, () => resolve());
    });
  }

  async #writeStream(res: ServerResponse, p: Plan, ctx: WireContext, wire: Wire, items: StreamItem[], arrayMode: boolean, eventStream: boolean): Promise<void> {
    let closed = false;
    res.once("close", () => {
      closed = true;
    });
    const gone = (): boolean => closed || this.#closing || res.destroyed;
    // Cutting the connection: only once what was sent has left, so the client gets exactly it.
    let flushed: Promise<void> = Promise.resolve();
    const cut = async (): Promise<void> => {
      await flushed;
      res.destroy();
    };
    let sent = 0;
    for (const item of items) {
      if (gone()) return;
      if ("comment" in item) {
        if (!arrayMode && !eventStream && WIRE_HTTP[wireOf(this.provider)].framing === undefined) flushed = this.#write(res, `: ${item.comment}\n\n`);
        continue;
      }
      if (p.truncateAfter !== null && sent >= p.truncateAfter) return cut();
      if (p.errorAfter !== null && sent >= p.errorAfter) {
        if (sent > 0) await this.#sleep(p.delayMs);
        if (gone()) return;
        for (const e of wire.streamError(p, ctx, p.errorStatus, sent)) {
          if (!("comment" in e)) res.write(this.#frame(e, sent++, arrayMode, eventStream));
        }
        res.end(arrayMode ? "]" : undefined);
        return;
      }
      if (sent > 0) await this.#sleep(p.delayMs);
      if (gone()) return;
      flushed = this.#write(res, this.#frame(item, sent, arrayMode, eventStream));
      sent++;
    }
    if (gone()) return;
    // truncateAfter ≥ the stream's length: still cut the connection instead of ending it cleanly.
    if (p.truncateAfter !== null) return cut();
    res.end(arrayMode ? "]" : undefined);
  }
}
