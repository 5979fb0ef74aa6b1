// What every wire format module provides: the non-streaming JSON answer, the stream events, and
// the in-stream error event for a plan (plan.mts).
import type { IdSource } from "../ids.mjs";
import type { Plan } from "../plan.mjs";
import type { JsonObject, Provider } from "../types.mjs";

/**
 * One stream event: `event:` name (when the format names events) and `data:` text (an NDJSON
 * line on Ollama); an SSE comment; or a binary event-stream message (Bedrock).
 */
export type StreamItem = { event?: string; data: string } | { comment: string } | { bytes: Uint8Array };

export interface WireContext {
  provider: Provider;
  model: string;
  /** The request body. */
  body: JsonObject;
  ids: IdSource;
  /** Unix seconds. */
  created: number;
}

export interface Wire {
  /** The non-streaming answer body. */
  json(plan: Plan, ctx: WireContext): JsonObject;
  /** The stream, every event in order (the terminating `[DONE]` included where the format has one). */
  stream(plan: Plan, ctx: WireContext): StreamItem[];
  /** The events that end a stream with an error of `status`, after `sent` events of `stream`. */
  streamError(plan: Plan, ctx: WireContext, status: number, sent: number): StreamItem[];
}

/** `{ event, data: JSON.stringify(value) }` */
export const event = (name: string | undefined, value: unknown): StreamItem =>
  name === undefined ? { data: JSON.stringify(value) } : { event: name, data: JSON.stringify(value) };
