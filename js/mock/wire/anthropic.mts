// Anthropic Messages (`POST /v1/messages`). Stream: message_start, then per block
// content_block_start / content_block_delta* / content_block_stop (a `ping` after the first
// start), message_delta (stop reason, output tokens), message_stop. Deltas: text_delta;
// thinking_delta then one signature_delta; input_json_delta (an empty one first, as the API
// does). redacted_thinking arrives whole in its content_block_start.
import { providerError } from "../errors.mjs";
import { pieces, type Plan, type PlanBlock } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import { event, type StreamItem, type Wire, type WireContext } from "./wire.mjs";

const STOP = { end: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens" } as const;

function block(b: PlanBlock): JsonObject {
  switch (b.type) {
    case "text":
      return { type: "text", text: b.text };
    case "thinking":
      return { type: "thinking", thinking: b.thinking, signature: b.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: b.data };
    case "tool_call":
      return { type: "tool_use", id: b.id, name: b.name, input: b.argumentsObject };
  }
}

function usage(plan: Plan, outputTokens: number): JsonObject {
  return {
    input_tokens: plan.usage.inputTokens,
    cache_creation_input_tokens: plan.usage.cacheWriteTokens,
    cache_read_input_tokens: plan.usage.cacheReadTokens,
    output_tokens: outputTokens,
    service_tier: "standard",
  };
}

/** One message id per plan, shared by json() and stream(). */
const messageIds = new WeakMap<Plan, string>();
function messageId(plan: Plan, ctx: WireContext): string {
  let id = messageIds.get(plan);
  if (id === undefined) {
    id = ctx.ids.anthropicMessageId();
    messageIds.set(plan, id);
  }
  return id;
}

export const anthropic: Wire = {
  json(plan, ctx) {
    return {
      id: messageId(plan, ctx),
      type: "message",
      role: "assistant",
      model: ctx.model,
      content: plan.blocks.map(block),
      stop_reason: STOP[plan.stopReason],
      stop_sequence: null,
      usage: usage(plan, plan.usage.outputTokens),
    };
  },

  stream(plan, ctx) {
    const out: StreamItem[] = [];
    out.push(
      event("message_start", {
        type: "message_start",
        message: {
          id: messageId(plan, ctx),
          type: "message",
          role: "assistant",
          model: ctx.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: usage(plan, 1),
        },
      }),
    );
    plan.blocks.forEach((b, index) => {
      const start = (content_block: JsonObject): void => {
        out.push(event("content_block_start", { type: "content_block_start", index, content_block }));
        if (index === 0) out.push(event("ping", { type: "ping" }));
      };
      const delta = (d: JsonObject): void => {
        out.push(event("content_block_delta", { type: "content_block_delta", index, delta: d }));
      };
      switch (b.type) {
        case "text":
          start({ type: "text", text: "" });
          for (const text of pieces(b.text, plan.chunkSize)) delta({ type: "text_delta", text });
          break;
        case "thinking":
          start({ type: "thinking", thinking: "", signature: "" });
          for (const thinking of pieces(b.thinking, plan.chunkSize)) delta({ type: "thinking_delta", thinking });
          delta({ type: "signature_delta", signature: b.signature });
          break;
        case "redacted_thinking":
          start({ type: "redacted_thinking", data: b.data });
          break;
        case "tool_call":
          start({ type: "tool_use", id: b.id, name: b.name, input: {} });
          delta({ type: "input_json_delta", partial_json: "" });
          for (const partial_json of pieces(b.argumentsText, plan.chunkSize)) delta({ type: "input_json_delta", partial_json });
          break;
      }
      out.push(event("content_block_stop", { type: "content_block_stop", index }));
    });
    if (plan.blocks.length === 0) out.push(event("ping", { type: "ping" }));
    out.push(
      event("message_delta", {
        type: "message_delta",
        delta: { stop_reason: STOP[plan.stopReason], stop_sequence: null },
        usage: { output_tokens: plan.usage.outputTokens },
      }),
    );
    out.push(event("message_stop", { type: "message_stop" }));
    return out;
  },

  streamError(_plan, ctx, status) {
    const { body } = providerError("anthropic", status, { model: ctx.model }, ctx.ids);
    return [event("error", body)];
  },
};
