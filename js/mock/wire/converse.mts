// Bedrock Converse (`POST /model/{modelId}/converse` and `/converse-stream`), as the mock prints a
// plan: the whole answer is a ConverseResponse; the stream is AWS event-stream messages
// (event-stream.mts) — messageStart, per block contentBlockStart (tool use only) /
// contentBlockDelta* / contentBlockStop, messageStop, metadata — each JSON payload with the
// random padding member `p` Bedrock adds; an error inside the stream is an exception message
// (`:message-type: exception`). Sources: API_runtime_ConverseStreamOutput and its members
// (hosts.md §1.3), the AWS SDK's ConverseStreamOutput (tests/js/mock-converse.test.mjs streams
// these frames through @aws-sdk/client-bedrock-runtime). Served at `/model/{modelId}/converse`
// and `/converse-stream` (routes.mts), behind `checkBedrockAuth`.
import { converseEvent, converseException } from "../event-stream.mjs";
import { pieces, type Plan, type PlanBlock } from "../plan.mjs";
import type { JsonObject } from "../types.mjs";
import type { Wire } from "./wire.mjs";

const STOP = { end: "end_turn", tool_use: "tool_use", max_tokens: "max_tokens" } as const;

/** Padding of `n` characters, as Bedrock's `p` member (its length varies; its content means nothing). */
const padding = (n: number): string => "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".slice(0, 1 + (n % 60));

function block(b: PlanBlock): JsonObject {
  switch (b.type) {
    case "text":
      return { text: b.text };
    case "thinking":
      return { reasoningContent: { reasoningText: { text: b.thinking, signature: b.signature } } };
    case "redacted_thinking":
      return { reasoningContent: { redactedContent: b.data } };
    case "tool_call":
      return { toolUse: { toolUseId: b.id, name: b.name, input: b.argumentsObject } };
  }
}

function usage(plan: Plan): JsonObject {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = plan.usage;
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens, cacheReadInputTokens: cacheReadTokens, cacheWriteInputTokens: cacheWriteTokens };
}

/**
 * The whole answer (`/converse`): a ConverseResponse.
 *
 * @example
 * ```ts
 * converseJson(plan).stopReason; // "end_turn"
 * ```
 */
export function converseJson(plan: Plan): JsonObject {
  return {
    output: { message: { role: "assistant", content: plan.blocks.map(block) } },
    stopReason: STOP[plan.stopReason],
    usage: usage(plan),
    metrics: { latencyMs: plan.latencyMs },
  };
}

/**
 * The stream (`/converse-stream`): one event-stream message per event, in order.
 *
 * @example
 * ```ts
 * const frames = converseStream(plan); // messageStart … metadata
 * ```
 */
export function converseStream(plan: Plan): Uint8Array[] {
  const out: Uint8Array[] = [];
  const emit = (type: string, payload: JsonObject): void => {
    out.push(converseEvent(type, { ...payload, p: padding(out.length * 7) }));
  };
  emit("messageStart", { role: "assistant" });
  plan.blocks.forEach((b, contentBlockIndex) => {
    const delta = (d: JsonObject): void => emit("contentBlockDelta", { contentBlockIndex, delta: d });
    switch (b.type) {
      case "text":
        for (const text of pieces(b.text, plan.chunkSize)) delta({ text });
        break;
      case "thinking":
        for (const text of pieces(b.thinking, plan.chunkSize)) delta({ reasoningContent: { text } });
        delta({ reasoningContent: { signature: b.signature } });
        break;
      case "redacted_thinking":
        delta({ reasoningContent: { redactedContent: b.data } });
        break;
      case "tool_call":
        emit("contentBlockStart", { contentBlockIndex, start: { toolUse: { toolUseId: b.id, name: b.name } } });
        for (const input of pieces(b.argumentsText, plan.chunkSize)) delta({ toolUse: { input } });
        break;
    }
    emit("contentBlockStop", { contentBlockIndex });
  });
  emit("messageStop", { stopReason: STOP[plan.stopReason] });
  emit("metadata", { usage: usage(plan), metrics: { latencyMs: plan.latencyMs } });
  return out;
}

/** The exception type ConverseStream reports for an error of `status` (its modeled stream errors). */
export function converseStreamErrorType(status: number): string {
  switch (status) {
    case 400:
      return "validationException";
    case 424:
      return "modelStreamErrorException";
    case 429:
      return "throttlingException";
    case 503:
      return "serviceUnavailableException";
    default:
      return "internalServerException";
  }
}

/**
 * The exception message that ends a stream with an error of `status`, with AWS's text where it
 * is known ([inferred] otherwise).
 */
export function converseStreamError(status: number): Uint8Array {
  const type = converseStreamErrorType(status);
  const message =
    type === "throttlingException"
      ? "Too many tokens, please wait before trying again."
      : type === "serviceUnavailableException"
        ? "The service is temporarily unable to handle the request."
        : type === "validationException"
          ? "The request is invalid."
          : type === "modelStreamErrorException"
            ? "The model's stream was interrupted."
            : "The server encountered an internal error.";
  return converseException(type, message);
}

/** The Converse wire as the mock server prints it: the frames as binary stream items. */
export const converse: Wire = {
  json: (plan) => converseJson(plan),
  stream: (plan) => converseStream(plan).map((bytes) => ({ bytes })),
  streamError: (_plan, _ctx, status) => [{ bytes: converseStreamError(status) }],
};
