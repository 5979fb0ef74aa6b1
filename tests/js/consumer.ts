// Uses every export of the main entry with its declared types. Checked by scripts/test-js.sh
// with `tsc --noEmit --strict` against the installed package (tsconfig.json here).
import {
  Conversation,
  isTurnwireError,
  isValidToolId,
  normalize,
  projectToolId,
  projectToolIds,
  renderBody,
  renderForProvider,
  validateRequest,
  wasmMemoryBytes,
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
  type SyntheticReasonCode,
  type ToolCallRef,
  type Transcript,
  type TurnwireError,
  type UnknownBlock,
  type Violation,
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
  strictModels: false,
  compat: { maxIdLen: 40, alphanumericIds: false, reasoningField: "reasoning", images: true },
};

const out: Rendered = renderForProvider(history, options);
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

{
  using convo = new Conversation(history);
  convo.append({ speaker: "human", blocks: [{ type: "text", text: "more" }] });
  convo.append(withUnknown);
  convo.appendJson('{"speaker":"ai","blocks":[{"type":"text","text":"ok"}]}');
  const rendered: Uint8Array = convo.render(options);
  const object: Rendered = convo.renderObject(options);
  const saved: Transcript = convo.toJSON();
  const length: number = convo.length;
  void [rendered, object, saved, length];
}
const restored = Conversation.fromJSON(JSON.stringify(history));
const fromValue = Conversation.fromJSON(wrapped);
const empty = new Conversation();
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

export { callIds, sent, renamed, repaired, system, thinking, one, many, valid, memory };
