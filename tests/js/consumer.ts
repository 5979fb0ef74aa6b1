// Uses every export of the main entry with its declared types. Checked by scripts/test-js.sh
// with `tsc --noEmit --strict` against the installed package (tsconfig.json here).
import {
  AFTER_DONE_GRACE_MS,
  Conversation,
  DEFAULT_BASE_URLS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_ERROR_BODY_BYTES,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_TURN_TIMEOUT_MS,
  MAX_RETRY_AFTER_MS,
  isProviderError,
  isTurnInFlightError,
  isTurnwireError,
  JsonArrayParser,
  ProviderError,
  providerRequest,
  TurnInFlightError,
  SseParser,
  StreamDecoder,
  streamTurn,
  runToolCall,
  runToolCalls,
  toolDeclarations,
  type Tool,
  type ToolContext,
  type RunToolCallsOptions,
  type StandardSchemaLike,
  createRouter,
  runAgent,
  compact,
  safeCutPoints,
  type Router,
  type Target,
  type TargetInfo,
  type RoutedTurnResult,
  type AgentEvent,
  type AgentResult,
  type CompactResult,
  isValidToolId,
  normalize,
  projectToolId,
  projectToolIds,
  renderBody,
  renderForProvider,
  renderRequest,
  validateRequest,
  wasmMemoryBytes,
  memoryStats,
  setMemoryBudget,
  fromAiSdk,
  fromAnthropic,
  fromGemini,
  repairModelMessages,
  toAiSdk,
  fromOpenAIChat,
  fromPiAi,
  toPiAi,
  providerOfModel,
  turnwireMiddleware,
  type TurnwireMiddlewareOptions,
  repairRequestBody,
  repairingFetch,
  type RepairedRequest,
  type RepairingFetchOptions,
  type RepairedRequestInfo,
  type RepairingFetchTarget,
  StreamRelay,
  relayWhole,
  relayErrorBody,
  type RelayOptions,
  fromRequestBody,
  fromResponsesInput,
  type Imported,
  type ImportSource,
  type MemoryStats,
  type Block,
  type Diagnostic,
  type DiagnosticCode,
  type ErrorCode,
  type FaultClass,
  type IdFormat,
  type Message,
  type NormalizeResult,
  type Provider,
  type RenderOptions,
  type Rendered,
  type RenderedRequest,
  type BlobLike,
  type Pass,
  type SyntheticReasonCode,
  type ToolCallRef,
  type ToolCallState,
  type ToolDeclaration,
  type ToolStatus,
  type Transcript,
  type TurnwireError,
  type UnknownBlock,
  type Violation,
  type AbortSignalLike,
  type Delta,
  type MinimalAbortSignal,
  type ProviderErrorInit,
  type ProviderErrorKind,
  type ProviderRequest,
  type ProviderRequestOptions,
  signAwsRequest,
  type AwsCredentials,
  type SignAwsRequestOptions,
  type SseEvent,
  type SseParserOptions,
  type StopReason,
  type StreamDelta,
  type StreamErrorCode,
  type StreamErrorInfo,
  type StreamOptions,
  type StreamOutcome,
  type StreamTurnCommonOptions,
  type StreamTurnOptions,
  type TurnByteReader,
  type TurnByteReadResult,
  type TurnByteStream,
  type TurnFetch,
  type TurnFetchInit,
  type TurnFetchResponse,
  type TurnRenderOptions,
  type TurnRequest,
  type TurnResult,
  type TurnStream,
  type Usage,
} from "turnwire";

const history: Message[] = [
  { speaker: "system", blocks: [{ type: "text", text: "be brief" }] },
  { speaker: "human", blocks: [{ type: "text", text: "hi" }, { type: "media", mimeType: "image/png", data: "iVBORw0KGgo=", encoding: "base64" }] },
  {
    speaker: "ai",
    metadata: { provider: "anthropic", model: "claude-sonnet-4-5", providerBaseURL: null, usage: { in: 3 } },
    blocks: [
      { type: "thinking", thought: "hm", signature: "sig" },
      { type: "tool_call", id: "hist_tool_1", name: "grep", parameters: { q: "TODO" } },
      { type: "code", code: "x", language: "rust" },
    ],
  },
  { speaker: "tool", blocks: [{ type: "tool_response", callId: "hist_tool_1", toolName: "grep", result: { n: 3 }, isComplete: true }] },
];
const wrapped: Transcript = { messages: history, sessionId: "s1" };
const citation = { type: "citation", url: "https://example.com" } as UnknownBlock;
const withUnknown: Message = { speaker: "ai", blocks: [citation as unknown as Block] };

const provider: Provider = "anthropic";
const options: RenderOptions = {
  provider,
  model: "claude-sonnet-4-5",
  endpoint: "https://api.anthropic.com",
  maxTokens: 4096,
  system: "You are terse.",
  tools: [{ name: "grep", description: "Search", parameters: { type: "object" } }],
  thinking: { enabled: true, budgetTokens: 2048, effort: "high" },
  temperature: 1,
  topP: 1,
  extra: { stream: true, metadata: { user_id: "u" } },
  syntheticResultText: "cancelled",
  orphanResults: "reconstruct-call",
  foreignThinking: "text",
  trustUnattributedThinking: false,
  leadingUserText: "(continued)",
  bridgeText: "ok",
  continuationText: "Continue.",
  strictModels: false,
  compat: { maxIdLen: 40, alphanumericIds: false, reasoningField: "reasoning", images: true },
};

const out: Rendered = renderForProvider(history, options);
const rendered: RenderedRequest = renderRequest(history, options);
const renderedBody: string = rendered.body;
const renderedPass: Pass | undefined = rendered.diagnostics[0]?.pass;
const body: { [key: string]: unknown } = out.body;
const sent: string | undefined = out.idMap["hist_tool_1"];
const renamed: Record<string, string> = out.toolNames;
const diagnostics: Diagnostic[] = out.diagnostics;
for (const d of diagnostics) {
  const code: DiagnosticCode = d.code;
  const fault: FaultClass = d.fault;
  const at: number | undefined = d.messageIndex;
  const why: SyntheticReasonCode | undefined = d.syntheticReason;
  const kept: [number, number] | undefined = d.dedupe?.keptAt;
  const target: Provider | undefined = d.provider;
  void [code, fault, at, why, kept, target];
}

const bytes: Uint8Array = renderBody(JSON.stringify(wrapped), options);
const normalized: NormalizeResult = normalize(wrapped, options);
const repaired: Transcript = normalized.transcript;
const system: string[] = normalized.system;
const thinking: boolean = normalized.thinkingEnabled;

const violations: Violation[] = validateRequest("anthropic", bytes, "claude-sonnet-4-5");
validateRequest("openai-chat", body);
validateRequest("gemini", "{}");
for (const v of violations) {
  const rule: string = v.rule;
  const path: string = v.path;
  void [rule, path, v.message];
}

const format: IdFormat = { compat: { maxLen: 40, alphanumeric: true } };
const calls: ToolCallRef[] = [{ id: "a", name: "grep" }, { id: "b" }];
const one: string = projectToolId("anthropic", "call_1", "grep");
const many: string[] = projectToolIds(format, calls);
const valid: boolean = isValidToolId("mistral", "abcDEF123");
const memory: number = wasmMemoryBytes();
memoryStats({ resetPeak: true });
const stats: MemoryStats = memoryStats();
const budget: number | null = stats.budgetBytes;
setMemoryBudget(budget);
const live: number = stats.liveBytes + stats.peakBytes + stats.wasmBytes;
const importSource: ImportSource = { provider: "kimi", model: "kimi-k2-thinking", endpoint: "https://api.moonshot.ai/v1" };
const imports: Imported[] = [
  fromRequestBody("anthropic", renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5" })),
  fromAnthropic([{ role: "user", content: "hi" }], "be brief", { model: "claude-sonnet-4-5" }),
  fromOpenAIChat([{ role: "user", content: "hi" }], importSource),
  fromResponsesInput("hi", null),
  fromGemini([{ role: "user", parts: [{ text: "hi" }] }], { parts: [{ text: "be brief" }] }, { model: "gemini-2.5-pro" }),
];
const sdkMessages: unknown[] = toAiSdk(history).messages;
imports.push(fromAiSdk(sdkMessages, { provider: "anthropic", model: "claude-sonnet-4-5" }));
imports.push(fromPiAi(toPiAi(history).context));
const middlewareOptions: TurnwireMiddlewareOptions = { render: { trustUnattributedThinking: true }, onDiagnostics: (d, target) => void [d.length, target.provider] };
const middleware = turnwireMiddleware(middlewareOptions);
const middlewareProvider: Provider = providerOfModel("anthropic.messages");
const repairedSdk: unknown[] = repairModelMessages(sdkMessages, { provider: "gemini", model: "gemini-2.5-pro" }).messages;
const repairedRequest: RepairedRequest = repairRequestBody("anthropic", { model: "claude-sonnet-4-5", max_tokens: 64, messages: [] }, {}, { provider: "anthropic" });
const sentBytes: Uint8Array = repairedRequest.body;
const fetchOptions: RepairingFetchOptions = {
  target: { provider: "deepseek" },
  onDiagnostics: (d, request: RepairedRequestInfo) => void [d.length, request.url, request.provider, request.model],
  onError: (e, request) => void [e, request.url],
};
const sdkFetch = repairingFetch(fetchOptions);
const ownFetch = repairingFetch({ fetch: async (url: string, init?: { body?: unknown }) => ({ url, init }) });
void [sentBytes, sdkFetch, ownFetch("https://example.com/v1/messages")];
const crossTarget: RepairingFetchTarget = { provider: "gemini", model: "gemini-2.5-pro", apiKey: "k", baseURL: "https://example.com", headers: { "x-a": "1" } };
const crossFetch = repairingFetch({ target: crossTarget, onAnswer: (outcome, request) => void [outcome.message, request.model] });
const relayOptions: RelayOptions = { model: "claude-sonnet-4-6", id: "msg_1", created: 0 };
{
  using relay = new StreamRelay("gemini", "anthropic", relayOptions);
  const sseText: string = relay.push('{"candidates":[]}') + relay.finish();
  const relayClosed: boolean = relay.closed;
  void [sseText, relayClosed, relay.outcome().stopReason];
}
const relayedWhole: JsonObjectLike = relayWhole("gemini", "openai-chat", { candidates: [] }, relayOptions).body;
const relayedError: JsonObjectLike = relayErrorBody("anthropic", "RESOURCE_EXHAUSTED", "quota");
void [crossFetch, relayedWhole, relayedError];
const reimported: Uint8Array = renderBody(imports[0]!.transcript, imports[0]!.options ?? { provider: "gemini", model: "gemini-2.5-pro" });

{
  using convo = new Conversation(history);
  convo.append({ speaker: "human", blocks: [{ type: "text", text: "more" }] });
  convo.append(withUnknown);
  convo.appendJson('{"speaker":"ai","blocks":[{"type":"text","text":"ok"}]}');
  const rendered: Uint8Array = convo.render(options);
  const object: Rendered = convo.renderObject(options);
  const saved: Transcript = convo.toJSON();
  const length: number = convo.length;
  const blob: BlobLike = convo.renderBlob(options);
  const blobSize: number = blob.size;
  const first: Message | undefined = convo.at(0);
  const cut: Message[] = convo.truncate(2);
  const old: Message = convo.replace(-1, { speaker: "human", blocks: [{ type: "text", text: "edited" }] });
  const spliced: Message[] = convo.splice(1, 0, { speaker: "ai", blocks: [{ type: "text", text: "a" }] }, { speaker: "human", blocks: [{ type: "text", text: "b" }] });
  const rest: Message[] = convo.splice(1);
  const calls: ToolCallState[] = convo.toolCalls();
  const open: ToolStatus[] = convo.openCalls().map((c) => c.status);
  const busy: boolean = convo.inFlight;
  void [rendered, object, saved, length, blobSize, first, cut, old, spliced, rest, calls, open, busy];
}
const restored = Conversation.fromJSON(JSON.stringify(history));
const fromValue = Conversation.fromJSON(wrapped);
const empty = new Conversation();
empty.cacheTargets = 8; // a round robin over eight providers
const cachedTargets: number = empty.cacheTargets;
restored.free();
fromValue.free();
empty.free();

/** Blocks narrow on `type`. */
function callIds(messages: Message[]): string[] {
  const ids: string[] = [];
  for (const m of messages) {
    for (const b of m.blocks) {
      switch (b.type) {
        case "tool_call":
          ids.push(b.id);
          break;
        case "tool_response":
          ids.push(b.callId);
          break;
        case "text": {
          const t: string = b.text;
          void t;
          break;
        }
      }
    }
  }
  return ids;
}

try {
  renderBody("[{", options);
} catch (e: unknown) {
  if (isTurnwireError(e)) {
    const err: TurnwireError = e;
    const code: ErrorCode = e.code;
    const name: "TurnwireError" = e.name;
    const path: string = e.path;
    const asError: Error = err;
    void [code, name, path, asError];
  }
}

// ---- streaming in: StreamDecoder, SSE framing, streamTurn, ProviderError (no DOM types here) ----

{
  using decoder = new StreamDecoder("anthropic", { model: "claude-sonnet-4-5", endpoint: "https://api.anthropic.com", idSeed: "t1" } satisfies StreamOptions);
  using bare = new StreamDecoder("gemini"); // options are optional
  bare.push("[DONE]");
  const pushed: StreamDelta[] = decoder.push('{"type":"message_start","message":{"id":"msg_1"}}');
  for (const d of pushed) {
    if (d.type === "error") {
      const code: StreamErrorCode = d.code;
      const providerType: string | undefined = d.errorType;
      void [code, providerType];
    } else {
      const delta: Delta = d;
      if (delta.type === "text") void delta.text;
      if (delta.type === "usage") void (delta.usage satisfies Usage);
    }
  }
  const snapshot: StreamOutcome = decoder.snapshot();
  const done: StreamOutcome = decoder.finish();
  const stop: StopReason = done.stopReason;
  const problems: StreamErrorInfo[] = done.errors;
  void [snapshot, stop, problems, decoder.provider];
}

const sseOptions: SseParserOptions = { onEvent: (e: SseEvent) => void e.data, onRetry: (ms: number) => void ms, onComment: (c: string) => void c };
const sse = new SseParser(sseOptions);
sse.feed(Uint8Array.from("data: {}\n\n", (c) => c.charCodeAt(0)));
sse.feed("data: [DONE]\n\n");
const midEvent: boolean = sse.inEvent;
void midEvent;
sse.end();
new SseParser((e) => {
  const fields: [string, string, string | undefined, string] = [e.event, e.data, e.id, e.lastEventId];
  void fields;
}).end();
const array = new JsonArrayParser((json: string) => void JSON.parse(json));
array.feed('[{"a":1}]');
array.end();

const request: ProviderRequest = providerRequest({ provider: "gemini", model: "gemini-3-pro-preview", apiKey: "k", baseURL: "http://127.0.0.1:9", headers: { "x-trace": "1" } } satisfies ProviderRequestOptions);
const requestParts: [string, string, Record<string, string>, JsonObjectLike] = [request.url, request.baseURL, request.headers, request.extra];
type JsonObjectLike = { [key: string]: unknown };
const anthropicBase: string = DEFAULT_BASE_URLS.anthropic;
const awsCredentials: AwsCredentials = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: undefined };
const signing: SignAwsRequestOptions = { method: "POST", url: "https://bedrock-runtime.us-east-1.amazonaws.com/model/m/converse", headers: [["content-type", "application/json"]], body: new Uint8Array(0), credentials: awsCredentials, region: "us-east-1", service: "bedrock", now: 0, contentSha256: true };
const awsHeaders: Promise<Record<string, string>> = signAwsRequest(signing);

/** A fetch double written against turnwire's own types: a body that yields one SSE event. */
const fakeFetch: TurnFetch = async (url: string, init: TurnFetchInit) => {
  const bytes = Uint8Array.from(`data: ${JSON.stringify({ url, size: init.body.length, method: init.method, headers: init.headers })}\n\n`, (c) => c.charCodeAt(0));
  let sent = false;
  const reader: TurnByteReader = {
    read: async (): Promise<TurnByteReadResult> => (sent ? { done: true } : ((sent = true), { done: false, value: bytes })),
    cancel: async () => {},
    releaseLock: () => {},
  };
  const body: TurnByteStream = { getReader: () => reader };
  const response: TurnFetchResponse = { status: 200, headers: { get: (name: string) => (name === "content-type" ? "text/event-stream" : null) }, body, text: async () => "" };
  return response;
};
const neverAborted: MinimalAbortSignal = { aborted: false, reason: undefined, addEventListener() {}, removeEventListener() {} };
const signal: AbortSignalLike = neverAborted;
const renderOptions: TurnRenderOptions = { tools: [{ name: "grep" }], thinking: { enabled: true, budgetTokens: 2048 }, maxTokens: 8192, extra: { stream: true } };
const common: StreamTurnCommonOptions = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k", baseURL: "http://127.0.0.1:9", render: renderOptions, signal, fetch: fakeFetch, headers: {}, idSeed: "t" };

async function runTurns(conversation: Conversation): Promise<TurnResult> {
  const withConversation: StreamTurnOptions = { ...common, conversation };
  const withTranscript: StreamTurnOptions = { ...common, transcript: history };
  const turn: TurnStream = streamTurn(withConversation);
  for await (const d of turn) if (d.type === "text") void d.text;
  const result: TurnResult = await turn;
  const same: Promise<TurnResult> = turn.result;
  const where: TurnRequest = result.request;
  const flags: [boolean, boolean, boolean] = [result.aborted, result.appended, result.incomplete];
  const fromRender: [Diagnostic[], Record<string, string>, Record<string, string>] = [result.diagnostics, result.idMap, result.toolNames];
  const message: Message = result.message;
  void [same, where, flags, fromRender, message];
  try {
    return await streamTurn(withTranscript);
  } catch (e: unknown) {
    if (isProviderError(e)) {
      const kind: ProviderErrorKind = e.kind;
      const facts: [string, number, string, boolean, number | undefined, unknown] = [e.provider, e.status, e.errorType, e.retryable, e.retryAfterMs, e.body];
      const partial: TurnResult | undefined = e.result;
      const sentTo: TurnRequest | undefined = e.request;
      const name: "ProviderError" = e.name;
      const asError: Error = e;
      void [kind, facts, partial, sentTo, name, asError];
    }
    if (isTurnInFlightError(e)) {
      const code: "turn_in_flight" = e.code;
      const busy: TurnInFlightError = e;
      void [code, busy];
    }
    throw e;
  }
}
const limits: StreamTurnCommonOptions = {
  provider: "anthropic",
  model: "claude-sonnet-4-5",
  idleTimeoutMs: DEFAULT_IDLE_TIMEOUT_MS,
  timeoutMs: Math.min(DEFAULT_TURN_TIMEOUT_MS, 10 * AFTER_DONE_GRACE_MS),
  maxEventBytes: DEFAULT_MAX_EVENT_BYTES,
  maxReplyBytes: DEFAULT_MAX_REPLY_BYTES,
  maxErrorBodyBytes: DEFAULT_MAX_ERROR_BODY_BYTES,
};
const longestWait: number = MAX_RETRY_AFTER_MS;
const init: ProviderErrorInit = { kind: "network", provider: "kimi", status: 0, errorType: "network", message: "down", retryable: true, cause: new Error("x") };
const made: ProviderError = new ProviderError(init);

const readTool: Tool<{ path: string }> = {
  name: "read_file",
  description: "Read a file",
  parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
  execute: async ({ path }: { path: string }, { signal, callId }: ToolContext) => `${path} ${callId} ${String(signal.aborted)}`,
};
const zodLike: StandardSchemaLike<{ n: number }> = { "~standard": { version: 1, vendor: "x", validate: (v) => ({ value: v as { n: number } }) } };
const countTool: Tool<{ n: number }> = { name: "count", parameters: zodLike, execute: ({ n }) => n + 1 };
const runOptions: RunToolCallsOptions = { concurrency: 2, timeoutMs: 1000, onResult: (r, c) => void [r.callId, c.name] };
async function runTools(message: Message): Promise<Message> {
  const one = await runToolCall({ type: "tool_call", id: "c", name: "count", parameters: { n: 1 } }, [countTool]);
  void one.result;
  const declared: ToolDeclaration[] = toolDeclarations([readTool, countTool]);
  void declared;
  return runToolCalls(message, [readTool, countTool], runOptions);
}

async function agentLoop(conversation: Conversation): Promise<AgentResult> {
  const targets: Target[] = [{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k" }, { provider: "gemini", model: "gemini-2.5-pro", name: "backup" }];
  const router: Router = createRouter(targets, { strategy: "failover", maxAttempts: 4, backoff: { initialMs: 100 }, partialReply: "keep" });
  router.switchTo("backup");
  const pendingName: string | undefined = router.pending?.name;
  const routed: RoutedTurnResult = await router.turn({ conversation, onEvent: (e) => void (e.type === "retry" ? e.waitMs : 0) });
  const shown: TargetInfo = routed.target;
  const where: string | undefined = shown.baseURL;
  router.switchTo(router.targets[0] as TargetInfo);
  void [pendingName, routed.target.name, routed.attempts.length, where];
  const points: number[] = safeCutPoints(conversation.toJSON());
  const compacted: CompactResult = await compact(conversation, { keepLastTurns: 2, summarize: (messages) => `summary of ${messages.length + points.length}` });
  void compacted.removed;
  return runAgent({ conversation, router, tools: [readTool], maxTurns: 4, onEvent: (e: AgentEvent) => void (e.type === "tool-result" ? e.response.callId : e.type) });
}

export { agentLoop, runTools, callIds, sent, renamed, repaired, system, thinking, one, many, valid, memory, live, imports, reimported, repairedSdk, middleware, middlewareProvider, requestParts, anthropicBase, awsHeaders, runTurns, made, limits, longestWait, cachedTargets };
