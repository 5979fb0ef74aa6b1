// Compacting a conversation (REQ-915-026…028): the range to summarise is chosen between safe
// cut points (the Rust core says where a history can be cut without separating a call from its
// result), the caller writes the summary, and the core replaces the range with it, recording
// what it removed.
import { getAnyCore } from "./core.mjs";
import { TurnInFlightError } from "./errors.mjs";
import { COUNT_OR_ZERO, numberOption } from "./options.mjs";
import type { Conversation, Message, Provider, Usage } from "./turnwire.js";

/**
 * How full a model's context window was on a turn.
 *
 * @example
 * ```ts
 * const { fraction } = contextUsage(turn.usage, turn.target.provider, turn.target.model);
 * ```
 */
export interface ContextUsage {
  /** What the next request starts from: the turn's prompt (cached parts included) and its reply. */
  tokens: number;
  /** The model's documented window (`contextWindow`), when turnwire knows it. */
  window: number | undefined;
  /** `tokens / window`, when the window is known. */
  fraction: number | undefined;
}

/**
 * How full the context window is after a turn, from the usage the provider reported: the
 * prompt (input, cache reads and writes) plus the reply, which the next request carries too.
 * Compact before `fraction` nears 1 (say at 0.8): the provider refuses a request past it.
 *
 * @example
 * ```ts
 * const { fraction } = contextUsage(result.usage, "anthropic", "claude-sonnet-4-5");
 * if (fraction !== undefined && fraction > 0.8) await compact(conversation, { summarize });
 * ```
 */
export function contextUsage(usage: Usage, provider: Provider, model: string): ContextUsage {
  const tokens = (usage.inputTokens ?? 0) + (usage.cacheReadTokens ?? 0) + (usage.cacheWriteTokens ?? 0) + (usage.outputTokens ?? 0);
  const window = getAnyCore().contextWindow(provider, model) ?? undefined;
  return { tokens, window, fraction: window === undefined ? undefined : tokens / window };
}

/**
 * Options of `compact`.
 *
 * @example
 * ```ts
 * const options: CompactOptions = { keepLastTurns: 3, summarize: async (messages) => summarizeWithModel(messages) };
 * ```
 */
export interface CompactOptions {
  /**
   * Turns kept as they are at the end (default 2): the summary replaces what comes before. A
   * turn starts at a user message; a history with too few of them (one long tool loop) counts
   * the steps of its tool loops (an assistant message after results) instead. 0 or a positive
   * integer; anything else rejects with a `TurnwireError`.
   */
  keepLastTurns?: number;
  /** Messages kept as they are at the start (the task statement), rounded up to a safe cut point: 0 (default) or a positive integer. */
  keepFirst?: number;
  /**
   * Writes the summary of the messages about to be removed: its text (it becomes a human
   * message) or a whole message (human or ai).
   */
  summarize(messages: Message[], range: { start: number; end: number }): string | Message | Promise<string | Message>;
}

/**
 * What `compact` did.
 *
 * @example
 * ```ts
 * const { compacted, removed } = await compact(conversation, { summarize });
 * if (compacted) console.log(`${removed.length} messages summarised`);
 * ```
 */
export interface CompactResult {
  /** Whether anything was replaced (not when fewer turns than `keepLastTurns` + 1 exist). */
  compacted: boolean;
  /** The range that was replaced, `start` inclusive, `end` exclusive (in the history before). */
  start: number;
  end: number;
  /** The messages the summary replaced. */
  removed: Message[];
  /** The summary as it now stands in the conversation (with its `compaction` record). */
  summary?: Message;
}

/**
 * Replaces the older part of `conversation` with a summary the caller writes, keeping the last
 * `keepLastTurns` user turns and the first `keepFirst` messages. The range ends and starts at
 * safe cut points (`conversation.safeCutPoints()`), so no tool call is separated from its
 * result (REQ-915-028), and every render after it stays valid for every provider
 * (REQ-915-026). Refused while a turn is in flight; if the conversation changes while
 * `summarize` runs, nothing is replaced and it throws.
 *
 * @example
 * ```ts
 * if (lastTurn.usage.inputTokens > 0.8 * contextWindow) {
 *   await compact(conversation, {
 *     keepLastTurns: 2,
 *     summarize: async (messages) => (await oneShotSummary(messages)).text,
 *   });
 * }
 * ```
 */
export async function compact(conversation: Conversation, options: CompactOptions): Promise<CompactResult> {
  if (typeof options?.summarize !== "function") throw new TypeError("compact needs a `summarize` function");
  if (conversation.inFlight) throw new TurnInFlightError("a turn is in flight on this conversation: compact it after the turn settles");
  // which messages go is a decision about the history's shape: the core makes it
  const keepLastTurns = numberOption("keepLastTurns", options.keepLastTurns, 2, COUNT_OR_ZERO);
  const keepFirst = numberOption("keepFirst", options.keepFirst, 0, COUNT_OR_ZERO);
  const { start, end } = conversation.compactionRange(keepLastTurns, keepFirst);
  if (end <= start) return { compacted: false, start, end, removed: [] };
  const removed: Message[] = [];
  for (let i = start; i < end; i++) removed.push(conversation.at(i) as Message);
  const snapshot = JSON.stringify(removed);
  const length = conversation.length;
  const written = await options.summarize(removed, { start, end });
  const summary: Message = typeof written === "string" ? { speaker: "human", blocks: [{ type: "text", text: written }] } : written;
  if (conversation.length < length || JSON.stringify(removed.map((_, k) => conversation.at(start + k))) !== snapshot) {
    throw new Error("the conversation changed while the summary was written; nothing was compacted (compact again)");
  }
  conversation.compact(start, end, summary);
  return { compacted: true, start, end, removed, summary: conversation.at(start) as Message };
}
