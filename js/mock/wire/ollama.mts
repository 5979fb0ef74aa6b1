// Ollama's native chat API (`POST /api/chat`), as the mock prints a plan. The stream is NDJSON
// (`application/x-ndjson`), one ChatResponse a line: `{model, created_at, message: {role,
// content, thinking?, tool_calls?}, done: false}` per piece (thinking, then text, each tool call
// whole in a line of its own, its arguments an object, its id `call_…` as Ollama ≥ 0.12.10
// mints it), then `{…, message: {role, content: ""}, done: true, done_reason, total_duration,
// load_duration, prompt_eval_count, prompt_eval_duration, eval_count, eval_duration}`. The whole
// answer (`stream: false`) is one such object with the whole message. An error inside the stream
// is a line `{"error": "…"}`, Ollama's only error shape. Sources: ollama/ollama docs/api.md
// ("Generate a chat completion"), api/types.go (ChatResponse, Metrics, ToolCall) and
// server/routes.go (ChatHandler, toolCallId); the decoder that reads it is
// src/providers/ollama/decode.rs.
import { pieces, type Plan, type PlanBlock } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import type { StreamItem, Wire, WireContext } from "./wire.mjs";

const DONE_REASON = { end: "stop", tool_use: "stop", max_tokens: "length" } as const;

/** `created_at` of the `step`th line (RFC 3339, UTC). */
const createdAt = (ctx: WireContext, step: number): string => new Date(ctx.created * 1000 + step * 41).toISOString();

/** A call as Ollama writes it in `message.tool_calls`. */
function toolCall(b: Extract<PlanBlock, { type: "tool_call" }>, index: number): JsonObject {
  return { id: b.id, function: { index, name: b.name, arguments: b.argumentsObject } };
}

/** The counts and durations (nanoseconds) of the final object. */
function metrics(plan: Plan): JsonObject {
  const { inputTokens, outputTokens } = plan.usage;
  return {
    total_duration: 1_000_000 * (plan.latencyMs + 40 + outputTokens),
    load_duration: 21_093_000,
    prompt_eval_count: inputTokens,
    prompt_eval_duration: 1_000_000 * (1 + Math.ceil(inputTokens / 50)),
    eval_count: outputTokens,
    eval_duration: 1_000_000 * (1 + outputTokens),
  };
}

/** The whole message of a plan (redacted thinking has no Ollama form: left out). */
function message(plan: Plan): JsonObject {
  let content = "";
  let thinking = "";
  const calls: JsonObject[] = [];
  for (const b of plan.blocks) {
    if (b.type === "text") content += b.text;
    else if (b.type === "thinking") thinking += b.thinking;
    else if (b.type === "tool_call") calls.push(toolCall(b, calls.length));
  }
  const out: JsonObject = { role: "assistant", content };
  if (thinking !== "") out["thinking"] = thinking;
  if (calls.length > 0) out["tool_calls"] = calls;
  return out;
}

export const ollama: Wire = {
  json(plan, ctx) {
    return { model: ctx.model, created_at: createdAt(ctx, 0), message: message(plan), done_reason: DONE_REASON[plan.stopReason], done: true, ...metrics(plan) };
  },

  stream(plan, ctx) {
    const out: StreamItem[] = [];
    const line = (m: JsonObject): void => {
      out.push({ data: JSON.stringify({ model: ctx.model, created_at: createdAt(ctx, out.length), message: { role: "assistant", ...m }, done: false }) });
    };
    let calls = 0;
    for (const b of plan.blocks) {
      switch (b.type) {
        case "thinking":
          for (const thinking of pieces(b.thinking, plan.chunkSize)) line({ content: "", thinking });
          break;
        case "text":
          for (const content of pieces(b.text, plan.chunkSize)) line({ content });
          break;
        case "tool_call":
          line({ content: "", tool_calls: [toolCall(b, calls++)] });
          break;
        case "redacted_thinking":
          break;
      }
    }
    out.push({
      data: JSON.stringify({
        model: ctx.model,
        created_at: createdAt(ctx, out.length),
        message: { role: "assistant", content: "" },
        done: true,
        done_reason: DONE_REASON[plan.stopReason],
        ...metrics(plan),
      }),
    });
    return out;
  },

  streamError(_plan, _ctx, status) {
    // One `error` line: a busy server in the scheduler's words (server/sched.go ErrMaxQueue),
    // anything else as a runner that stopped mid-answer (the text of ollama/ollama issues)
    const error =
      status === 429 || status === 503 ? "server busy, please try again.  maximum pending requests exceeded" : "an error was encountered while running the model: unexpected EOF";
    return [{ data: JSON.stringify({ error }) }];
  },
};
