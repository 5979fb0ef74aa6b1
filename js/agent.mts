// The agent loop: turn → tools → turn until the model stops, through the router and the one
// tool path (REQ-915-029, 033, 034, 045). An interactive CLI calls it once per user message, a
// one-shot run calls it once, and a subagent calls it inside another agent's tool: the same
// batching, the same filtering, the same history writes.
import { isProviderError, type ProviderError } from "./errors.mjs";
import { COUNT, LIMIT_OR_ZERO, numberOption } from "./options.mjs";
import type { RoutedTurnResult, Router, RouterEvent } from "./router.mjs";
import { addTokens, addUsage as addTurnUsage, type UsageTotals } from "./session.mjs";
import { runToolCalls, toolDeclarations, type Tool } from "./tools.mjs";
import { own } from "./turn-owner.mjs";
import type { AbortSignalLike, TurnRenderOptions } from "./types.mjs";
import type { Conversation, Message, ToolResponseBlock, Usage } from "./turnwire.js";

/**
 * What `runAgent` reports as it goes: the router's events (attempts, deltas, retries, a
 * deferred switch), each turn's result (diagnostics, id map, usage, target), each tool result
 * as it settles, and each message it appended.
 *
 * @example
 * ```ts
 * const onEvent = (e: AgentEvent) => {
 *   if (e.type === "delta" && e.delta.type === "text") process.stdout.write(e.delta.text);
 *   if (e.type === "tool-result") console.log(`\n[${e.response.toolName}] ${e.response.error ?? "ok"}`);
 * };
 * ```
 */
export type AgentEvent =
  | RouterEvent
  | { type: "turn"; result: RoutedTurnResult; turn: number }
  | { type: "tool-result"; response: ToolResponseBlock; turn: number }
  | { type: "appended"; message: Message; index: number };

/**
 * Why `runAgent` stopped: the model answered without calling a tool (`"done"`), `maxTurns`
 * turns ran (`"max_turns"`), the signal aborted (`"aborted"`: open calls were recorded
 * cancelled), or a turn failed for good (`"error"`, with `error`).
 *
 * @example
 * ```ts
 * if (result.stopped === "max_turns") console.warn("the agent is still working; run it again to continue");
 * ```
 */
export type AgentStop = "done" | "max_turns" | "aborted" | "error";

/**
 * Options of `runAgent`.
 *
 * @example
 * ```ts
 * const options: RunAgentOptions = { conversation, router, tools, maxTurns: 20, signal: controller.signal };
 * ```
 */
export interface RunAgentOptions {
  conversation: Conversation;
  router: Router;
  tools?: readonly Tool[];
  /** Model turns at most: a positive integer, or `Infinity` (default 16). */
  maxTurns?: number;
  signal?: AbortSignalLike;
  /** Render options for every turn (system prompt, maxTokens…); `tools` are added from `tools`. */
  render?: TurnRenderOptions;
  /** How many tool calls run at once: a positive integer, or `Infinity` (default: all of a turn's; `runToolCalls`). */
  concurrency?: number;
  /** How long one tool call may take, in ms: a positive number, `0` or `Infinity` for no limit (the default). */
  toolTimeoutMs?: number;
  onEvent?: (event: AgentEvent) => void;
}

/**
 * What `runAgent` did: the turns it ran, why it stopped, and the usage they add up to.
 *
 * @example
 * ```ts
 * const { turns, stopped, usage } = await runAgent({ conversation, router, tools });
 * console.log(`${turns.length} turns, ${usage.outputTokens} tokens out, stopped: ${stopped}`);
 * ```
 */
export interface AgentResult {
  turns: RoutedTurnResult[];
  stopped: AgentStop;
  usage: Usage;
  /** The same usage per `provider:model` that answered (add it to a session's totals). */
  usageByModel: UsageTotals;
  /** The failure, when `stopped` is `"error"`. */
  error?: ProviderError | Error | undefined;
}

/**
 * Runs the agent loop on `conversation`: a turn through `router`; when the model called tools,
 * they run as one batch (`runToolCalls`) and their message is appended; again until the model
 * answers without a call, `maxTurns` ran, `signal` aborted, or a turn failed for good. On
 * abort, calls without a result get cancelled completions through the same path (REQ-915-034).
 * Resolves, never rejects for a provider's failure (`stopped: "error"`); rejects at once with a
 * `TurnwireError` naming an option that is not one of its accepted values (`maxTurns: NaN`).
 *
 * @example
 * ```ts
 * conversation.append({ speaker: "human", blocks: [{ type: "text", text: "Fix the failing test" }] });
 * const { stopped, turns } = await runAgent({ conversation, router, tools, signal, onEvent });
 * ```
 */
export async function runAgent(options: RunAgentOptions): Promise<AgentResult> {
  const { conversation, router, signal, onEvent } = options;
  const tools = options.tools ?? [];
  const maxTurns = numberOption("maxTurns", options.maxTurns, 16, COUNT);
  const concurrency = numberOption("concurrency", options.concurrency, Infinity, COUNT);
  const toolTimeoutMs = numberOption("toolTimeoutMs", options.toolTimeoutMs, Infinity, LIMIT_OR_ZERO);
  const render: TurnRenderOptions = { ...(options.render ?? {}) };
  if (tools.length > 0) render.tools = [...(render.tools ?? []), ...toolDeclarations(tools)];
  const turns: RoutedTurnResult[] = [];
  const usage: Usage = {};
  const usageByModel: UsageTotals = {};
  const finish = (stopped: AgentStop, error?: ProviderError | Error): AgentResult => ({ turns, stopped, usage, usageByModel, ...(error === undefined ? {} : { error }) });

  while (turns.length < maxTurns) {
    if (signal?.aborted) return finish("aborted");
    let turn: RoutedTurnResult;
    try {
      turn = await router.turn({ conversation, render, signal, onEvent });
    } catch (e) {
      if (signal?.aborted) return finish("aborted"); // e.g. during the router's wait before a retry
      if (isProviderError(e)) return finish("error", e);
      throw e;
    }
    turns.push(turn);
    onEvent?.({ type: "turn", result: turn, turn: turns.length });
    addTokens(usage, turn.usage);
    addTurnUsage(usageByModel, turn.target.provider, turn.target.model, turn.usage);
    if (turn.appended) onEvent?.({ type: "appended", message: turn.message, index: conversation.length - 1 });
    const calls = turn.message.blocks.filter((b) => b.type === "tool_call");
    if (calls.length > 0) {
      // the tools' turn owns the conversation too: nothing may land between the calls and their results
      const owner = own(conversation);
      try {
        const results = await runToolCalls(turn.message, tools, {
          signal,
          concurrency,
          timeoutMs: toolTimeoutMs,
          onResult: (response) => onEvent?.({ type: "tool-result", response, turn: turns.length }),
        });
        // the same continuation path as a user message (REQ-915-033)
        owner.append(results);
        onEvent?.({ type: "appended", message: results, index: conversation.length - 1 });
      } finally {
        owner.release();
      }
    }
    if (turn.aborted || signal?.aborted) return finish("aborted");
    if (calls.length === 0) return finish("done");
  }
  return finish("max_turns");
}
