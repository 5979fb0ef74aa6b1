// A scripted reply resolved for one provider and one request: ids and signatures made up where
// the script left them out, stop reason and usage decided, stream pacing settled. The wire
// modules (providers/*.mts) only print a plan.
import type { IdSource } from "./ids.mjs";
import type { JsonObject, MockReply, Provider } from "./types.mjs";

export interface PlanText {
  type: "text";
  text: string;
  /** Gemini only. */
  thoughtSignature: string | null;
}

export interface PlanThinking {
  type: "thinking";
  thinking: string;
  signature: string;
  /** Responses reasoning item id. */
  id: string;
}

export interface PlanRedacted {
  type: "redacted_thinking";
  data: string;
  /** Responses reasoning item id. */
  id: string;
}

export interface PlanToolCall {
  type: "tool_call";
  /** The call id (Responses: `call_id`). */
  id: string;
  /** Responses `fc_…` item id. */
  itemId: string;
  name: string;
  /** JSON text of the arguments, streamed as is. */
  argumentsText: string;
  /** The arguments as an object, for formats that need one (`{}` when the text is not one). */
  argumentsObject: JsonObject;
  /** Gemini only. */
  thoughtSignature: string | null;
  /** Gemini only: whether the script gave an id. */
  explicitId: boolean;
}

export type PlanBlock = PlanText | PlanThinking | PlanRedacted | PlanToolCall;

export interface PlanUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export interface Plan {
  blocks: PlanBlock[];
  stopReason: "end" | "tool_use" | "max_tokens";
  usage: PlanUsage;
  delayMs: number;
  chunkSize: number;
  latencyMs: number;
  truncateAfter: number | null;
  errorAfter: number | null;
  errorStatus: number;
}

export interface PlanContext {
  provider: Provider;
  model: string;
  body: JsonObject;
  bodyBytes: number;
  ids: IdSource;
  delayMs: number;
  chunkSize: number;
}

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
const tokens = (chars: number): number => Math.ceil(chars / 4);
const count = (n: number | undefined): number | null =>
  typeof n === "number" && Number.isFinite(n) && n >= 0 ? Math.floor(n) : null;

/** Tool calls already in the request's assistant messages (Kimi numbers calls across the conversation). */
function priorToolCalls(body: JsonObject): number {
  const messages = body["messages"];
  if (!Array.isArray(messages)) return 0;
  let n = 0;
  for (const m of messages) {
    if (isObject(m) && m["role"] === "assistant" && Array.isArray(m["tool_calls"])) n += m["tool_calls"].length;
  }
  return n;
}

function toolCallId(ctx: PlanContext, name: string, index: number, prior: number): string {
  switch (ctx.provider) {
    case "anthropic":
      return ctx.ids.anthropicToolId();
    case "mistral":
      return ctx.ids.mistralToolId();
    case "kimi":
      return `functions.${name}:${prior + index}`;
    case "deepseek":
      return ctx.ids.deepseekToolId(index);
    case "bedrock-converse":
      // Bedrock's `tooluse_` and 22 characters (BDR-02)
      return `tooluse_${ctx.ids.chars("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-", 22)}`;
    case "ollama":
      // Ollama (since v0.12.10): `call_` and 8 lower-case letters and digits
      return `call_${ctx.ids.chars("abcdefghijklmnopqrstuvwxyz0123456789", 8)}`;
    default:
      return ctx.ids.openaiCallId();
  }
}

/** Resolves `reply` for the request in `ctx`. */
export function plan(reply: MockReply, ctx: PlanContext): Plan {
  const source = [...(reply.blocks ?? [])];
  if (reply.text !== undefined) source.push({ type: "text", text: reply.text });
  const gemini3 = ctx.provider === "gemini" && /gemini-3/i.test(ctx.model);
  const thinks = source.some((b) => b.type === "thinking" || b.type === "redacted_thinking");
  const prior = ctx.provider === "kimi" ? priorToolCalls(ctx.body) : 0;

  let callIndex = 0;
  let firstCallSigned = false;
  const blocks: PlanBlock[] = source.map((b): PlanBlock => {
    switch (b.type) {
      case "text":
        return { type: "text", text: b.text, thoughtSignature: b.thoughtSignature ?? null };
      case "thinking":
        return {
          type: "thinking",
          thinking: b.thinking,
          signature: b.signature ?? ctx.ids.base64(96),
          id: b.id ?? ctx.ids.responsesId("rs"),
        };
      case "redacted_thinking":
        return { type: "redacted_thinking", data: b.data, id: ctx.ids.responsesId("rs") };
      case "tool_call": {
        const args = b.arguments ?? {};
        let argumentsText: string;
        let argumentsObject: JsonObject = {};
        if (typeof args === "string") {
          argumentsText = args;
          try {
            const parsed: unknown = JSON.parse(args);
            if (isObject(parsed)) argumentsObject = parsed;
          } catch {
            // streamed as given; `{}` where an object is needed
          }
        } else {
          argumentsText = JSON.stringify(args);
          argumentsObject = args;
        }
        let thoughtSignature: string | null = null;
        if (ctx.provider === "gemini") {
          if (b.thoughtSignature !== undefined) thoughtSignature = b.thoughtSignature;
          else if (!firstCallSigned && (gemini3 || thinks)) thoughtSignature = ctx.ids.base64(64);
          firstCallSigned = true;
        }
        const id = b.id ?? toolCallId(ctx, b.name, callIndex, prior);
        callIndex++;
        return {
          type: "tool_call",
          id,
          itemId: ctx.ids.responsesId("fc"),
          name: b.name,
          argumentsText,
          argumentsObject,
          thoughtSignature,
          explicitId: b.id !== undefined,
        };
      }
    }
  });

  // Gemini 3 signs the last part of a reply without function calls.
  if (gemini3 && callIndex === 0) {
    for (let i = blocks.length - 1; i >= 0; i--) {
      const b = blocks[i];
      const given = source[i];
      if (b?.type === "text" && given?.type === "text") {
        if (given.thoughtSignature === undefined) b.thoughtSignature = ctx.ids.base64(64);
        break;
      }
    }
  }

  let outChars = 0;
  let thinkChars = 0;
  for (const b of blocks) {
    if (b.type === "text") outChars += b.text.length;
    else if (b.type === "thinking") thinkChars += b.thinking.length;
    else if (b.type === "tool_call") outChars += b.name.length + b.argumentsText.length;
  }
  const u = reply.usage ?? {};
  const reasoningTokens = count(u.reasoningTokens) ?? tokens(thinkChars);
  const usage: PlanUsage = {
    inputTokens: count(u.inputTokens) ?? Math.max(1, tokens(ctx.bodyBytes)),
    outputTokens: count(u.outputTokens) ?? Math.max(1, tokens(outChars) + reasoningTokens),
    cacheReadTokens: count(u.cacheReadTokens) ?? 0,
    cacheWriteTokens: count(u.cacheWriteTokens) ?? 0,
    reasoningTokens,
  };

  return {
    blocks,
    stopReason: reply.stopReason ?? (callIndex > 0 ? "tool_use" : "end"),
    usage,
    delayMs: count(reply.delayMs) ?? ctx.delayMs,
    chunkSize: Math.max(1, count(reply.chunkSize) ?? ctx.chunkSize),
    latencyMs: count(reply.latencyMs) ?? 0,
    truncateAfter: count(reply.truncateAfter),
    errorAfter: count(reply.errorAfter),
    errorStatus: count(reply.errorStatus) ?? 529,
  };
}

/** `text` in pieces of `size` code points (none for empty text). */
export function pieces(text: string, size: number): string[] {
  const chars = Array.from(text);
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}
