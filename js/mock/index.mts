/**
 * # turnwire/mock — strict local mock providers (Node only)
 *
 * One HTTP server on 127.0.0.1 per wire format, speaking the provider's real request paths,
 * auth headers, JSON answers, SSE streams and error bodies closely enough that the official
 * SDKs (`openai`, `@anthropic-ai/sdk`, `@google/genai`) parse them. Every request body is
 * checked with turnwire's own `validateRequest` (the same wasm as `import "turnwire"`): a body
 * that breaks a provider rule gets the provider's HTTP 400 with its error shape and text, and
 * counts in `stats.rejected`. Meant for tests and demos: no network, no keys.
 *
 * | provider            | served paths                                              | `baseURL`         |
 * | ------------------- | --------------------------------------------------------- | ----------------- |
 * | `anthropic`         | `POST /v1/messages` (`x-api-key` or Bearer; `anthropic-version` 2023-06-01 or 2026-10-21) | origin |
 * | `openai-chat`       | `POST /v1/chat/completions` (Bearer)                      | origin + `/v1`    |
 * | `openai-responses`  | `POST /v1/responses` (Bearer)                             | origin + `/v1`    |
 * | `gemini`            | `POST /v1beta/models/{model}:generateContent`, `:streamGenerateContent[?alt=sse]` (`x-goog-api-key` or `?key=`) | origin |
 * | `mistral`, `kimi`, `openai-compatible` | `POST /v1/chat/completions` (Bearer)   | origin + `/v1`    |
 * | `deepseek`          | `POST /chat/completions`, `POST /v1/chat/completions` (Bearer) | origin       |
 * | `bedrock-converse`  | `POST /model/{modelId}/converse`, `/converse-stream` (a Bedrock API key as Bearer, or SigV4 signed with the mock's test credentials; AWS event-stream answers) | origin |
 * | `ollama`            | `POST /api/chat` (no key; NDJSON answers)                 | origin            |
 *
 * Hosts (`host` of `streamTurn` and `providerRequest`) on the same servers, with the host's auth
 * and the body validated for the host (its envelope: `anthropic_version` in the body, no `model`):
 *
 * | host      | server              | served paths                                                | `baseURL` for the host |
 * | --------- | ------------------- | ----------------------------------------------------------- | ---------------------- |
 * | `vertex`  | `anthropic`         | `POST /v1/projects/{p}/locations/{r}/publishers/anthropic/models/{m}:streamRawPredict` (`:rawPredict`; Bearer access token, else Google's 401) | origin + `/v1` |
 * | `bedrock` | `anthropic`         | `POST /model/{id}/invoke-with-response-stream` (`/invoke`; Bearer API key or SigV4 with `MOCK_AWS_CREDENTIALS`); the stream is event-stream `chunk` frames | origin |
 * | `azure`   | `openai-chat`, `openai-responses` | `POST /openai/v1/chat/completions`, `/openai/v1/responses` (`api-key` or Bearer, else Azure's 401) | origin + `/openai/v1` |
 *
 * `baseURL` is what an SDK takes as its base URL (OpenAI SDK `baseURL`, Anthropic SDK `baseURL`,
 * `@google/genai` `httpOptions.baseUrl`), and what turnwire's fetch shim takes. A missing or
 * wrong key gets the provider's 401 (Gemini: 403 / 400, as Google answers); with the `apiKey`
 * option only that key passes. Every answer allows CORS, so a browser page can call the mock.
 *
 * ## Scripting
 * Each server has a queue of turns; each accepted request takes the next one (a rejected request
 * takes none). An empty queue answers `defaultTurn` (a short text). A turn is either a reply,
 * played back in the provider's own format, or an HTTP error:
 *
 * - `{ text }` or `{ blocks: [...] }` with `text`, `thinking` (+ `signature`), `redacted_thinking`
 *   and `tool_call` blocks (several calls = parallel calls; ids in the provider's format);
 * - pacing: `delayMs` between stream events, `latencyMs` before the headers, `chunkSize`;
 * - failure: `truncateAfter: n` (connection closed after n events), `errorAfter: n`
 *   (the provider's in-stream error event after n events);
 * - `{ kind: "error", status: 429 | 500 | 503 | 529 | … }`: the provider's error body and
 *   headers (`retry-after` on 429). Counted in `stats.scriptedErrors`, never in `rejected`.
 *
 * A turn may also be a function of the request (`(req) => turn`), e.g. to answer tool results.
 * Requests stream when the body says `"stream": true` (Gemini: `:streamGenerateContent`;
 * Bedrock: `/converse-stream`; Ollama unless the body says `"stream": false`); otherwise the
 * answer is one JSON body.
 *
 * @example
 * ```ts
 * import { renderBody } from "turnwire";
 * import { startMockProviders } from "turnwire/mock";
 *
 * await using mock = await startMockProviders();
 * mock.script(
 *   "anthropic",
 *   { kind: "error", status: 529 },                                  // overloaded first
 *   { blocks: [
 *     { type: "thinking", thinking: "Two files to read." },
 *     { type: "tool_call", name: "read_file", arguments: { path: "a.rs" } },
 *     { type: "tool_call", name: "read_file", arguments: { path: "b.rs" } },
 *   ] },
 * );
 * const body = renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5", extra: { stream: true } });
 * const res = await fetch(`${mock.baseURL("anthropic")}/v1/messages`, {
 *   method: "POST",
 *   headers: { "x-api-key": "test", "anthropic-version": "2023-06-01", "content-type": "application/json" },
 *   body,
 * }); // 529 overloaded_error; the retry streams thinking + two tool_use blocks
 * console.log(`requests: ${mock.stats.accepted} accepted, ${mock.stats.rejected} rejected`);
 * ```
 *
 * @module
 */

import { PROVIDERS } from "../provider-http.mjs";
import { ProviderServer, type ServerSettings } from "./server.mjs";
import type {
  MockEndpoint,
  MockLogEntry,
  MockProviders,
  MockProvidersOptions,
  MockScript,
  MockStats,
  Provider,
} from "./types.mjs";

export type {
  JsonObject,
  MockBlock,
  MockEndpoint,
  MockHttpError,
  MockLogEntry,
  MockProviders,
  MockProvidersOptions,
  MockRedactedThinkingBlock,
  MockReply,
  MockRequest,
  MockScript,
  MockStats,
  MockTextBlock,
  MockThinkingBlock,
  MockToolCallBlock,
  MockTurn,
  MockUsage,
  Provider,
  Violation,
} from "./types.mjs";

/**
 * Every provider the mock serves, in start order.
 *
 * @example
 * ```ts
 * for (const p of MOCK_PROVIDERS) console.log(p, mock.baseURL(p));
 * ```
 */
export const MOCK_PROVIDERS: readonly Provider[] = Object.freeze([...PROVIDERS]);

const finiteOr = (v: number | undefined, fallback: number): number => (typeof v === "number" && Number.isFinite(v) && v >= 0 ? v : fallback);

class Endpoint implements MockEndpoint {
  readonly #server: ProviderServer;

  constructor(server: ProviderServer) {
    this.#server = server;
  }

  get provider(): Provider {
    return this.#server.provider;
  }
  get baseURL(): string {
    return this.#server.baseURL;
  }
  get origin(): string {
    return this.#server.origin;
  }
  get port(): number {
    return this.#server.port;
  }
  get stats(): MockStats {
    return this.#server.stats;
  }
  get log(): MockLogEntry[] {
    return this.#server.log;
  }
  get pending(): number {
    return this.#server.pending;
  }
  script(...turns: MockScript[]): void {
    this.#server.script(turns);
  }
}

class Mock implements MockProviders {
  readonly providers: readonly Provider[];
  readonly #servers: Map<Provider, ProviderServer>;
  readonly #endpoints: Map<Provider, Endpoint>;
  #log: MockLogEntry[] = [];
  #closed: Promise<void> | null = null;

  constructor(servers: ProviderServer[], log: MockLogEntry[]) {
    this.#servers = new Map(servers.map((s) => [s.provider, s]));
    this.#endpoints = new Map(servers.map((s) => [s.provider, new Endpoint(s)]));
    this.providers = Object.freeze(servers.map((s) => s.provider));
    this.#log = log;
  }

  #server(provider: Provider): ProviderServer {
    const s = this.#servers.get(provider);
    if (s === undefined) throw new RangeError(`mock provider "${String(provider)}" is not running (started: ${this.providers.join(", ")})`);
    return s;
  }

  endpoint(provider: Provider): MockEndpoint {
    this.#server(provider);
    const e = this.#endpoints.get(provider);
    if (e === undefined) throw new RangeError(`mock provider "${String(provider)}" is not running`);
    return e;
  }

  baseURL(provider: Provider): string {
    return this.#server(provider).baseURL;
  }

  script(provider: Provider, ...turns: MockScript[]): void {
    this.#server(provider).script(turns);
  }

  pending(provider: Provider): number {
    return this.#server(provider).pending;
  }

  get stats(): MockStats {
    const total: MockStats = { accepted: 0, rejected: 0, scriptedErrors: 0 };
    for (const s of this.#servers.values()) {
      const st = s.stats;
      total.accepted += st.accepted;
      total.rejected += st.rejected;
      total.scriptedErrors += st.scriptedErrors;
    }
    return total;
  }

  get log(): MockLogEntry[] {
    return [...this.#log];
  }

  reset(): void {
    for (const s of this.#servers.values()) s.reset();
    this.#log.length = 0;
  }

  close(): Promise<void> {
    if (this.#closed === null) this.#closed = Promise.all([...this.#servers.values()].map((s) => s.close())).then(() => undefined);
    return this.#closed;
  }

  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

/**
 * Starts one strict mock server per provider on 127.0.0.1 (ephemeral ports unless `ports` says
 * otherwise) and resolves when all of them listen. Close them with `close()` or `await using`.
 *
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import { startMockProviders } from "turnwire/mock";
 *
 * await using mock = await startMockProviders({ providers: ["openai-chat"] });
 * mock.script("openai-chat", { text: "Hello!", delayMs: 10 });
 * const client = new OpenAI({ baseURL: mock.baseURL("openai-chat"), apiKey: "test" });
 * const stream = await client.chat.completions.create({ model: "gpt-5.2", messages: [{ role: "user", content: "hi" }], stream: true });
 * for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta.content ?? "");
 * ```
 */
export async function startMockProviders(options: MockProvidersOptions = {}): Promise<MockProviders> {
  const wanted = options.providers ?? MOCK_PROVIDERS;
  const unknown = wanted.find((p) => !MOCK_PROVIDERS.includes(p));
  if (unknown !== undefined) throw new RangeError(`unknown provider "${String(unknown)}" (known: ${MOCK_PROVIDERS.join(", ")})`);
  const providers = [...new Set(wanted)];
  const settings: ServerSettings = {
    apiKey: options.apiKey,
    validate: options.validate ?? true,
    defaultTurn: options.defaultTurn,
    delayMs: finiteOr(options.delayMs, 0),
    chunkSize: Math.max(1, Math.floor(finiteOr(options.chunkSize, 12))),
    seed: Math.floor(finiteOr(options.seed, 1)),
  };
  const log: MockLogEntry[] = [];
  const servers = providers.map(
    (p) =>
      new ProviderServer(p, MOCK_PROVIDERS.indexOf(p), settings, (entry) => {
        log.push(entry);
      }),
  );
  try {
    await Promise.all(servers.map((s) => s.listen(options.ports?.[s.provider] ?? 0)));
  } catch (e) {
    await Promise.all(servers.map((s) => s.close()));
    throw e;
  }
  return new Mock(servers, log);
}
