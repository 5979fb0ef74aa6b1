// Uses every export of `turnwire/mock` with its declared types, in a consumer without Node or DOM
// types (tsconfig.json here: "types": [], no "dom"): the mock's declarations must need neither.
// The lines after the marker must fail to compile (each under @ts-expect-error).
import type { Provider as MainProvider } from "turnwire";
import {
  MOCK_PROVIDERS,
  startMockProviders,
  type JsonObject,
  type MockBlock,
  type MockEndpoint,
  type MockHttpError,
  type MockLogEntry,
  type MockProviders,
  type MockProvidersOptions,
  type MockRedactedThinkingBlock,
  type MockReply,
  type MockRequest,
  type MockScript,
  type MockStats,
  type MockTextBlock,
  type MockThinkingBlock,
  type MockToolCallBlock,
  type MockTurn,
  type MockUsage,
  type Provider,
  type Violation,
} from "turnwire/mock";

const sameProvider: MainProvider = "kimi" satisfies Provider;
const providers: readonly Provider[] = MOCK_PROVIDERS;

const text: MockTextBlock = { type: "text", text: "hi", thoughtSignature: null };
const thinking: MockThinkingBlock = { type: "thinking", thinking: "hm", signature: "sig", id: "rs_1" };
const redacted: MockRedactedThinkingBlock = { type: "redacted_thinking", data: "opaque" };
const args: JsonObject = { path: "a.rs" };
const call: MockToolCallBlock = { type: "tool_call", name: "read_file", arguments: args, thoughtSignature: null };
const blocks: MockBlock[] = [thinking, redacted, text, call, { type: "tool_call", name: "x", arguments: "{not json" }];
const usage: MockUsage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 1 };
const reply: MockReply = { blocks, usage, stopReason: "tool_use", delayMs: 5, chunkSize: 3, latencyMs: 0, truncateAfter: 4, errorAfter: 2, errorStatus: 529 };
const failure: MockHttpError = { kind: "error", status: 429, retryAfter: 2, message: "slow down", type: "rate_limit_error", latencyMs: 1 };
const turns: MockTurn[] = [reply, failure, { text: "plain" }];
const computed: MockScript = (req: MockRequest) => ({ text: `${req.provider} ${req.model} ${req.index} ${req.stream} ${Object.keys(req.body).length}` });
const options: MockProvidersOptions = {
  providers: ["anthropic", "gemini"],
  ports: { anthropic: 0 },
  apiKey: "k",
  validate: true,
  defaultTurn: computed,
  delayMs: 0,
  chunkSize: 12,
  seed: 7,
};

async function use(): Promise<number> {
  const mock: MockProviders = await startMockProviders(options);
  mock.script("anthropic", ...turns, computed);
  const endpoint: MockEndpoint = mock.endpoint("gemini");
  endpoint.script({ text: "x" });
  const urls: string[] = [endpoint.baseURL, endpoint.origin, mock.baseURL("anthropic"), String(endpoint.port)];
  const stats: MockStats = mock.stats;
  const log: MockLogEntry[] = mock.log;
  const first: MockLogEntry | undefined = log[0];
  const violations: Violation[] = first?.violations ?? [];
  const outcome: "accepted" | "rejected" | "scripted_error" | undefined = first?.outcome;
  const error: { type: string; message: string } | null | undefined = first?.error;
  mock.reset();
  await mock[Symbol.asyncDispose]();
  await mock.close();
  return stats.accepted + stats.rejected + stats.scriptedErrors + mock.pending("anthropic") + endpoint.pending + urls.length + violations.length +
    (outcome ? 1 : 0) + (error ? 1 : 0) + mock.providers.length + endpoint.stats.accepted + endpoint.log.length;
}
void use;
void sameProvider;
void providers;

// ---- every line below must fail to compile ----
// @ts-expect-error: unknown provider
void startMockProviders({ providers: ["bard"] });
// @ts-expect-error: an error turn needs its status
const noStatus: MockTurn = { kind: "error" };
// @ts-expect-error: block types are a closed set
const badBlock: MockBlock = { type: "image", data: "" };
// @ts-expect-error: stopReason is a closed set
const badStop: MockReply = { stopReason: "stop" };
void noStatus;
void badBlock;
void badStop;
