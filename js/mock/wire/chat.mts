// The chat-completions family: OpenAI Chat, Mistral, Kimi, DeepSeek and OpenAI-compatible
// servers. Same framing (`data: {chunk}` lines ending in `data: [DONE]`), different dialects:
//
//   openai-chat        first delta {role, content: "", refusal: null}; tool calls by index (id,
//                      type, name and empty arguments first, then argument fragments); usage in
//                      a last `choices: []` chunk only with stream_options.include_usage (every
//                      chunk then carries `usage: null`); no reasoning on the wire.
//   openai-compatible  the same, reasoning as `reasoning_content` deltas.
//   deepseek           the same with `reasoning_content`, `: keep-alive` comment first, DeepSeek
//                      usage fields (prompt_cache_hit_tokens / prompt_cache_miss_tokens).
//   kimi               `reasoning_content`; usage inside the finishing choice (Moonshot's place).
//   mistral            every tool call whole in one delta; thinking as Magistral content chunks
//                      ([{type: "thinking", thinking: [{type: "text", text}]}]); usage on the
//                      finishing chunk, always.
import { providerError } from "../errors.mjs";
import { pieces, type Plan, type PlanToolCall } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import { event, type StreamItem, type Wire, type WireContext } from "./wire.mjs";

const FINISH = { end: "stop", tool_use: "tool_calls", max_tokens: "length" } as const;

type Dialect = "openai-chat" | "openai-compatible" | "deepseek" | "kimi" | "mistral";

const reasoningField = (d: Dialect): boolean => d === "deepseek" || d === "kimi" || d === "openai-compatible";
const isObject = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);

function includeUsage(body: JsonObject): boolean {
  const o = body["stream_options"];
  return isObject(o) && o["include_usage"] === true;
}

function usage(d: Dialect, plan: Plan): JsonObject {
  const u = plan.usage;
  const base: JsonObject = {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
  };
  switch (d) {
    case "openai-chat":
      return {
        ...base,
        prompt_tokens_details: { cached_tokens: u.cacheReadTokens, audio_tokens: 0 },
        completion_tokens_details: {
          reasoning_tokens: u.reasoningTokens,
          audio_tokens: 0,
          accepted_prediction_tokens: 0,
          rejected_prediction_tokens: 0,
        },
      };
    case "deepseek":
      return {
        ...base,
        prompt_tokens_details: { cached_tokens: u.cacheReadTokens },
        ...(u.reasoningTokens > 0 ? { completion_tokens_details: { reasoning_tokens: u.reasoningTokens } } : {}),
        prompt_cache_hit_tokens: u.cacheReadTokens,
        prompt_cache_miss_tokens: u.inputTokens - u.cacheReadTokens,
      };
    case "kimi":
      return u.cacheReadTokens > 0 ? { ...base, cached_tokens: u.cacheReadTokens } : base;
    default:
      return base;
  }
}

interface Ids {
  id: string;
  fingerprint: string | null;
}

/** One completion id per plan, shared by json() and stream(). */
const planIds = new WeakMap<Plan, Ids>();
function ids(d: Dialect, plan: Plan, ctx: WireContext): Ids {
  let v = planIds.get(plan);
  if (v === undefined) {
    switch (d) {
      case "deepseek":
        v = { id: ctx.ids.uuid(), fingerprint: "fp_mock_prod0820_fp8_kvcache" };
        break;
      case "mistral":
        v = { id: ctx.ids.hex(32), fingerprint: null };
        break;
      case "kimi":
        v = { id: ctx.ids.chatCompletionId(), fingerprint: "fpv0_mock" };
        break;
      case "openai-compatible":
        v = { id: ctx.ids.chatCompletionId(), fingerprint: null };
        break;
      default:
        v = { id: ctx.ids.chatCompletionId(), fingerprint: `fp_${ctx.ids.hex(10)}` };
    }
    planIds.set(plan, v);
  }
  return v;
}

function texts(plan: Plan): string {
  return plan.blocks.map((b) => (b.type === "text" ? b.text : "")).join("");
}

function reasoning(plan: Plan): string {
  return plan.blocks.map((b) => (b.type === "thinking" ? b.thinking : "")).join("");
}

function calls(plan: Plan): PlanToolCall[] {
  return plan.blocks.filter((b): b is PlanToolCall => b.type === "tool_call");
}

function wholeCall(d: Dialect, c: PlanToolCall, index: number): JsonObject {
  const fn = { name: c.name, arguments: c.argumentsText };
  return d === "kimi" || d === "mistral" ? { index, id: c.id, type: "function", function: fn } : { id: c.id, type: "function", function: fn };
}

function message(d: Dialect, plan: Plan): JsonObject {
  const text = texts(plan);
  const think = reasoning(plan);
  const toolCalls = calls(plan).map((c, i) => wholeCall(d, c, i));
  const m: JsonObject = { role: "assistant" };
  if (d === "mistral" && think !== "") {
    const content: JsonObject[] = [{ type: "thinking", thinking: [{ type: "text", text: think }] }];
    if (text !== "") content.push({ type: "text", text });
    m["content"] = content;
  } else if (d === "openai-chat" || d === "openai-compatible") {
    m["content"] = text === "" && toolCalls.length > 0 ? null : text;
  } else {
    m["content"] = text;
  }
  if (reasoningField(d) && think !== "") m["reasoning_content"] = think;
  if (d === "openai-chat") {
    m["refusal"] = null;
    m["annotations"] = [];
  }
  if (toolCalls.length > 0) m["tool_calls"] = toolCalls;
  return m;
}

function chat(d: Dialect): Wire {
  return {
    json(plan, ctx) {
      const { id, fingerprint } = ids(d, plan, ctx);
      const choice: JsonObject = { index: 0, message: message(d, plan), finish_reason: FINISH[plan.stopReason] };
      if (d !== "mistral" && d !== "kimi") choice["logprobs"] = null;
      const out: JsonObject = { id, object: "chat.completion", created: ctx.created, model: ctx.model, choices: [choice], usage: usage(d, plan) };
      if (d === "openai-chat") out["service_tier"] = "default";
      if (fingerprint !== null) out["system_fingerprint"] = fingerprint;
      return out;
    },

    stream(plan, ctx) {
      const { id, fingerprint } = ids(d, plan, ctx);
      const withUsage = includeUsage(ctx.body) && d !== "kimi" && d !== "mistral";
      const chunk = (delta: JsonObject, finish: string | null, extra: JsonObject = {}, choiceExtra: JsonObject = {}): StreamItem => {
        const choice: JsonObject = { index: 0, delta, ...(d === "mistral" || d === "kimi" ? {} : { logprobs: null }), finish_reason: finish, ...choiceExtra };
        const c: JsonObject = { id, object: "chat.completion.chunk", created: ctx.created, model: ctx.model };
        if (d === "openai-chat") c["service_tier"] = "default";
        if (fingerprint !== null) c["system_fingerprint"] = fingerprint;
        c["choices"] = [choice];
        if (withUsage) c["usage"] = null;
        return event(undefined, { ...c, ...extra });
      };

      const out: StreamItem[] = [];
      if (d === "deepseek") out.push({ comment: "keep-alive" });
      out.push(chunk(d === "openai-chat" ? { role: "assistant", content: "", refusal: null } : { role: "assistant", content: "" }, null));

      const size = plan.chunkSize;
      const allCalls = calls(plan);
      let callIndex = 0;
      let mistralCallsSent = false;
      for (const b of plan.blocks) {
        switch (b.type) {
          case "thinking":
            if (reasoningField(d)) for (const p of pieces(b.thinking, size)) out.push(chunk({ reasoning_content: p }, null));
            else if (d === "mistral")
              for (const p of pieces(b.thinking, size)) out.push(chunk({ content: [{ type: "thinking", thinking: [{ type: "text", text: p }] }] }, null));
            break;
          case "text":
            for (const p of pieces(b.text, size)) out.push(chunk({ content: p }, null));
            break;
          case "tool_call": {
            if (d === "mistral") {
              if (!mistralCallsSent) out.push(chunk({ tool_calls: allCalls.map((c, i) => wholeCall(d, c, i)) }, null));
              mistralCallsSent = true;
              break;
            }
            const index = callIndex++;
            out.push(chunk({ tool_calls: [{ index, id: b.id, type: "function", function: { name: b.name, arguments: "" } }] }, null));
            for (const p of pieces(b.argumentsText, size)) out.push(chunk({ tool_calls: [{ index, function: { arguments: p } }] }, null));
            break;
          }
          case "redacted_thinking":
            break;
        }
      }

      const finish = FINISH[plan.stopReason];
      if (d === "kimi") out.push(chunk({}, finish, {}, { usage: usage(d, plan) }));
      else if (d === "mistral") out.push(chunk({}, finish, { usage: usage(d, plan) }));
      else out.push(chunk({}, finish));
      if (withUsage) {
        const c: JsonObject = { id, object: "chat.completion.chunk", created: ctx.created, model: ctx.model };
        if (d === "openai-chat") c["service_tier"] = "default";
        if (fingerprint !== null) c["system_fingerprint"] = fingerprint;
        c["choices"] = [];
        c["usage"] = usage(d, plan);
        out.push(event(undefined, c));
      }
      out.push({ data: "[DONE]" });
      return out;
    },

    streamError(_plan, ctx, status) {
      const { body } = providerError(d, status, { model: ctx.model }, ctx.ids);
      return [event(undefined, body)];
    },
  };
}

export const openaiChat = chat("openai-chat");
export const openaiCompatible = chat("openai-compatible");
export const deepseek = chat("deepseek");
export const kimi = chat("kimi");
export const mistral = chat("mistral");
