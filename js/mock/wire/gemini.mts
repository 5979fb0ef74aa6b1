// Gemini generateContent (`POST /v1beta/models/{model}:generateContent`, and
// `:streamGenerateContent?alt=sse`, whose events are `data: {GenerateContentResponse}` lines
// ending in CRLF CRLF, no [DONE]; without `alt=sse` the server sends the same chunks as one JSON
// array). Parts: thinking → `{text, thought: true}`; text → `{text}`; tool calls →
// `{functionCall: {name, args[, id]}}`, with `thoughtSignature` as a sibling of `functionCall` on
// the signed part (plan.mts: on Gemini 3 only the first call of the reply is signed). Stream:
// one chunk per text or thought piece, all parallel calls together in one chunk, the last chunk
// with finishReason and the full usageMetadata (earlier chunks carry the prompt count only).
import { providerError } from "../errors.mjs";
import { pieces, type Plan, type PlanBlock } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import { event, type StreamItem, type Wire, type WireContext } from "./wire.mjs";

const FINISH = { end: "STOP", tool_use: "STOP", max_tokens: "MAX_TOKENS" } as const;

function call(b: Extract<PlanBlock, { type: "tool_call" }>): JsonObject {
  const functionCall: JsonObject = b.explicitId ? { id: b.id, name: b.name, args: b.argumentsObject } : { name: b.name, args: b.argumentsObject };
  return b.thoughtSignature === null ? { functionCall } : { functionCall, thoughtSignature: b.thoughtSignature };
}

function parts(b: PlanBlock): JsonObject[] {
  switch (b.type) {
    case "thinking":
      return [{ text: b.thinking, thought: true }];
    case "text":
      return [b.thoughtSignature === null ? { text: b.text } : { text: b.text, thoughtSignature: b.thoughtSignature }];
    case "tool_call":
      return [call(b)];
    case "redacted_thinking":
      return [];
  }
}

function usage(plan: Plan, final: boolean): JsonObject {
  const u = plan.usage;
  if (!final) return { promptTokenCount: u.inputTokens, totalTokenCount: u.inputTokens };
  const candidates = Math.max(0, u.outputTokens - u.reasoningTokens);
  const out: JsonObject = {
    promptTokenCount: u.inputTokens,
    candidatesTokenCount: candidates,
    totalTokenCount: u.inputTokens + u.outputTokens,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: u.inputTokens }],
  };
  if (u.cacheReadTokens > 0) out["cachedContentTokenCount"] = u.cacheReadTokens;
  if (u.reasoningTokens > 0) out["thoughtsTokenCount"] = u.reasoningTokens;
  return out;
}

const responseIds = new WeakMap<Plan, string>();
function responseId(plan: Plan, ctx: WireContext): string {
  let id = responseIds.get(plan);
  if (id === undefined) {
    id = ctx.ids.geminiResponseId();
    responseIds.set(plan, id);
  }
  return id;
}

function chunk(plan: Plan, ctx: WireContext, chunkParts: JsonObject[], final: boolean): JsonObject {
  const candidate: JsonObject = { content: { parts: chunkParts, role: "model" } };
  if (final) candidate["finishReason"] = FINISH[plan.stopReason];
  candidate["index"] = 0;
  return { candidates: [candidate], usageMetadata: usage(plan, final), modelVersion: ctx.model, responseId: responseId(plan, ctx) };
}

export const gemini: Wire = {
  json(plan, ctx) {
    return chunk(plan, ctx, plan.blocks.flatMap(parts), true);
  },

  stream(plan, ctx) {
    // The part lists of the chunks, in order.
    const groups: JsonObject[][] = [];
    let calls: JsonObject[] | null = null;
    for (const b of plan.blocks) {
      if (b.type === "tool_call") {
        if (calls === null) {
          calls = [];
          groups.push(calls);
        }
        calls.push(call(b));
        continue;
      }
      calls = null;
      if (b.type === "thinking") {
        for (const text of pieces(b.thinking, plan.chunkSize)) groups.push([{ text, thought: true }]);
      } else if (b.type === "text") {
        const texts = pieces(b.text, plan.chunkSize);
        if (texts.length === 0) texts.push("");
        texts.forEach((text, i) => {
          const last = i === texts.length - 1;
          groups.push([last && b.thoughtSignature !== null ? { text, thoughtSignature: b.thoughtSignature } : { text }]);
        });
      }
    }
    if (groups.length === 0) groups.push([{ text: "" }]);
    return groups.map((g, i): StreamItem => event(undefined, chunk(plan, ctx, g, i === groups.length - 1)));
  },

  streamError(_plan, ctx, status) {
    const { body } = providerError("gemini", status, { model: ctx.model }, ctx.ids);
    return [event(undefined, body)];
  },
};
