// OpenAI Responses (`POST /v1/responses`). Output items: `reasoning` (id `rs_…`, summary,
// `encrypted_content` only when the request includes "reasoning.encrypted_content", as the API
// does), `message` (id `msg_…`, one output_text part), `function_call` (id `fc_…`, call_id).
// Stream (named events, each with `sequence_number`): response.created, response.in_progress;
// per item response.output_item.added, then
//   reasoning      response.reasoning_summary_part.added / reasoning_summary_text.delta* /
//                  reasoning_summary_text.done / reasoning_summary_part.done (when it has text)
//   message        response.content_part.added / output_text.delta* / output_text.done /
//                  content_part.done
//   function_call  response.function_call_arguments.delta* / function_call_arguments.done
// then response.output_item.done; finally response.completed (response.incomplete on max_tokens).
// No [DONE].
import { providerError } from "../errors.mjs";
import { pieces, type Plan, type PlanBlock } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import { event, type StreamItem, type Wire, type WireContext } from "./wire.mjs";

const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function wantsEncrypted(body: JsonObject): boolean {
  const include = body["include"];
  return Array.isArray(include) && include.includes("reasoning.encrypted_content");
}

interface Ids {
  response: string;
  /** Item id per block (reasoning and function_call ids come from the plan). */
  items: string[];
}

const planIds = new WeakMap<Plan, Ids>();
function ids(plan: Plan, ctx: WireContext): Ids {
  let v = planIds.get(plan);
  if (v === undefined) {
    v = {
      response: ctx.ids.responsesId("resp"),
      items: plan.blocks.map((b) =>
        b.type === "text" ? ctx.ids.responsesId("msg") : b.type === "tool_call" ? b.itemId : b.id,
      ),
    };
    planIds.set(plan, v);
  }
  return v;
}

function item(b: PlanBlock, id: string, encrypted: boolean, done: boolean): JsonObject {
  switch (b.type) {
    case "thinking":
    case "redacted_thinking": {
      const summary = b.type === "thinking" && b.thinking !== "" && done ? [{ type: "summary_text", text: b.thinking }] : [];
      const r: JsonObject = { id, type: "reasoning", summary };
      if (encrypted && done) r["encrypted_content"] = b.type === "thinking" ? b.signature : b.data;
      return r;
    }
    case "text":
      return {
        id,
        type: "message",
        status: done ? "completed" : "in_progress",
        content: done ? [{ type: "output_text", annotations: [], logprobs: [], text: b.text }] : [],
        role: "assistant",
      };
    case "tool_call":
      return {
        id,
        type: "function_call",
        status: done ? "completed" : "in_progress",
        arguments: done ? b.argumentsText : "",
        call_id: b.id,
        name: b.name,
      };
  }
}

function response(plan: Plan, ctx: WireContext, status: "in_progress" | "completed" | "incomplete" | "failed", output: JsonObject[]): JsonObject {
  const body = ctx.body;
  const reasoning = isObject(body["reasoning"]) ? body["reasoning"] : {};
  const u = plan.usage;
  return {
    id: ids(plan, ctx).response,
    object: "response",
    created_at: ctx.created,
    status,
    background: false,
    error: null,
    incomplete_details: status === "incomplete" ? { reason: "max_output_tokens" } : null,
    instructions: body["instructions"] ?? null,
    max_output_tokens: body["max_output_tokens"] ?? null,
    max_tool_calls: null,
    model: ctx.model,
    output,
    parallel_tool_calls: body["parallel_tool_calls"] ?? true,
    previous_response_id: body["previous_response_id"] ?? null,
    reasoning: { effort: reasoning["effort"] ?? null, summary: reasoning["summary"] ?? null },
    service_tier: "default",
    store: body["store"] ?? true,
    temperature: body["temperature"] ?? 1,
    text: { format: { type: "text" }, verbosity: "medium" },
    tool_choice: body["tool_choice"] ?? "auto",
    tools: body["tools"] ?? [],
    top_p: body["top_p"] ?? 1,
    truncation: "disabled",
    usage:
      status === "in_progress"
        ? null
        : {
            input_tokens: u.inputTokens,
            input_tokens_details: { cached_tokens: u.cacheReadTokens },
            output_tokens: u.outputTokens,
            output_tokens_details: { reasoning_tokens: u.reasoningTokens },
            total_tokens: u.inputTokens + u.outputTokens,
          },
    user: null,
    metadata: isObject(body["metadata"]) ? body["metadata"] : {},
  };
}

const finalStatus = (plan: Plan): "completed" | "incomplete" => (plan.stopReason === "max_tokens" ? "incomplete" : "completed");

export const responses: Wire = {
  json(plan, ctx) {
    const encrypted = wantsEncrypted(ctx.body);
    const itemIds = ids(plan, ctx).items;
    const output = plan.blocks.map((b, i) => item(b, itemIds[i] ?? "", encrypted, true));
    return response(plan, ctx, finalStatus(plan), output);
  },

  stream(plan, ctx) {
    const encrypted = wantsEncrypted(ctx.body);
    const itemIds = ids(plan, ctx).items;
    const out: StreamItem[] = [];
    let seq = 0;
    const emit = (type: string, fields: JsonObject): void => {
      out.push(event(type, { type, ...fields, sequence_number: seq++ }));
    };
    emit("response.created", { response: response(plan, ctx, "in_progress", []) });
    emit("response.in_progress", { response: response(plan, ctx, "in_progress", []) });
    const done: JsonObject[] = [];
    plan.blocks.forEach((b, output_index) => {
      const item_id = itemIds[output_index] ?? "";
      emit("response.output_item.added", { output_index, item: item(b, item_id, encrypted, false) });
      switch (b.type) {
        case "thinking":
          if (b.thinking !== "") {
            const at = { item_id, output_index, summary_index: 0 };
            emit("response.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
            for (const delta of pieces(b.thinking, plan.chunkSize)) emit("response.reasoning_summary_text.delta", { ...at, delta });
            emit("response.reasoning_summary_text.done", { ...at, text: b.thinking });
            emit("response.reasoning_summary_part.done", { ...at, part: { type: "summary_text", text: b.thinking } });
          }
          break;
        case "text": {
          const at = { item_id, output_index, content_index: 0 };
          emit("response.content_part.added", { ...at, part: { type: "output_text", annotations: [], logprobs: [], text: "" } });
          for (const delta of pieces(b.text, plan.chunkSize)) emit("response.output_text.delta", { ...at, delta, logprobs: [] });
          emit("response.output_text.done", { ...at, text: b.text, logprobs: [] });
          emit("response.content_part.done", { ...at, part: { type: "output_text", annotations: [], logprobs: [], text: b.text } });
          break;
        }
        case "tool_call": {
          const at = { item_id, output_index };
          for (const delta of pieces(b.argumentsText, plan.chunkSize)) emit("response.function_call_arguments.delta", { ...at, delta });
          emit("response.function_call_arguments.done", { ...at, arguments: b.argumentsText });
          break;
        }
        case "redacted_thinking":
          break;
      }
      const full = item(b, item_id, encrypted, true);
      done.push(full);
      emit("response.output_item.done", { output_index, item: full });
    });
    const status = finalStatus(plan);
    emit(status === "completed" ? "response.completed" : "response.incomplete", { response: response(plan, ctx, status, done) });
    return out;
  },

  streamError(plan, ctx, status, sent) {
    const { message } = providerError("openai-responses", status, { model: ctx.model }, ctx.ids);
    const failed = response(plan, ctx, "failed", []);
    failed["error"] = { code: status === 429 ? "rate_limit_exceeded" : "server_error", message };
    return [event("response.failed", { type: "response.failed", response: failed, sequence_number: sent })];
  },
};
