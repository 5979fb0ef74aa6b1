// One tool-execution path (REQ-915-029…035): the calls of one assistant message run as a batch,
// in parallel up to a limit, and come back as the one tool message that answers every call
// exactly once — a result, an error, a timeout or, on abort, a cancellation recorded as such.
// Interactive loops, one-shot calls and subagents all go through it (runAgent does).
import { checkJsonSchema, type SchemaIssue } from "./json-schema.mjs";
import { COUNT, LIMIT_OR_ZERO, numberOption } from "./options.mjs";
import type { AbortSignalLike } from "./types.mjs";
import type { JsonObject, Message, ToolCallBlock, ToolDeclaration, ToolResponseBlock } from "./turnwire.js";

/**
 * A Standard Schema (zod, valibot, arktype…): `~standard.validate` checks the arguments, and a
 * Standard JSON Schema's `~standard.jsonSchema.input()` gives the declaration sent to providers.
 *
 * @example
 * ```ts
 * import { z } from "zod"; // zod >= 4.2 implements both
 * const parameters: StandardSchemaLike = z.object({ path: z.string() });
 * ```
 */
export interface StandardSchemaLike<Output = unknown> {
  readonly "~standard": {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly jsonSchema?: { readonly input: (options: { target: string }) => Record<string, unknown> };
  };
}

/**
 * What a Standard Schema's `validate` returns.
 *
 * @example
 * ```ts
 * const r: StandardResult<{ path: string }> = { value: { path: "a.rs" } };
 * ```
 */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<{ readonly message: string; readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> }> };

/**
 * What a tool's `execute` gets besides its arguments.
 *
 * @example
 * ```ts
 * const execute = async (args: { url: string }, { signal }: ToolContext) => (await fetch(args.url, { signal })).text();
 * ```
 */
export interface ToolContext {
  /** Aborted when the batch is aborted or this call times out: stop work and return. */
  signal: AbortSignalLike;
  /** The call's id (the canonical one, as in the history). */
  callId: string;
}

/**
 * A tool the model may call: its declaration and the function that runs it. `parameters` is a
 * JSON Schema object or a Standard Schema; the arguments are checked against it before
 * `execute` runs, and a call whose arguments do not fit gets an error result instead.
 * `execute` returns the result: a string as it is, anything else as JSON (`undefined`: a
 * completed call with no output); a throw is an error result.
 *
 * @example
 * ```ts
 * const readFile: Tool<{ path: string }> = {
 *   name: "read_file",
 *   description: "Read a UTF-8 file",
 *   parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
 *   execute: ({ path }, { signal }) => readFile(path, { encoding: "utf8", signal }),
 * };
 * ```
 */
export interface Tool<Args = any> {
  name: string;
  description?: string;
  parameters?: JsonObject | StandardSchemaLike<Args>;
  execute(args: Args, context: ToolContext): unknown;
}

/**
 * How `runToolCalls` runs a batch.
 *
 * @example
 * ```ts
 * const options: RunToolCallsOptions = { signal: controller.signal, concurrency: 4, timeoutMs: 60_000 };
 * ```
 */
export interface RunToolCallsOptions {
  /** Aborting it cancels the calls still running: each gets a cancelled completion at once. */
  signal?: AbortSignalLike;
  /** How many calls run at once: a positive integer, or `Infinity` (default: all of them). */
  concurrency?: number;
  /**
   * A call still running after this long, in ms (its argument check included), gets a timeout
   * error and its signal is aborted: a positive number, or `0` or `Infinity` for no limit (the default).
   */
  timeoutMs?: number;
  /** Called with each call's response as it settles (in completion order). */
  onResult?: (response: ToolResponseBlock, call: ToolCallBlock) => void;
}

/** What a cancelled call's response says (`cancelled: true` marks it too). */
const CANCELLED_TEXT = "The tool call was cancelled before it finished.";

/**
 * Runs the tool calls of one assistant message as a batch (REQ-915-031) and resolves with the
 * tool message that answers each call exactly once, in the calls' order: real results, errors
 * (unknown tool, arguments that do not fit the schema, a throw), timeouts (`timedOut: true`)
 * and, when `signal` aborts, cancelled completions (`cancelled: true`) for the calls still
 * running — never a missing one. The message holds `tool_response` blocks only (REQ-915-032);
 * append it to the conversation as any other message (REQ-915-033). Never rejects for a
 * tool's failure (a throw, a schema whose `validate` throws or hangs, an error whose `message`
 * throws); rejects with a `TypeError` when `message` holds no tool call, and with a
 * `TurnwireError` for a `concurrency` or `timeoutMs` that is not one of their accepted values.
 *
 * @example
 * ```ts
 * const turn = await streamTurn({ ...target, conversation, render: { tools: toolDeclarations(tools) } });
 * if (turn.message.blocks.some((b) => b.type === "tool_call")) {
 *   conversation.append(await runToolCalls(turn.message, tools, { signal }));
 * }
 * ```
 */
export async function runToolCalls(message: Message, tools: readonly Tool[], options: RunToolCallsOptions = {}): Promise<Message> {
  const calls = (message?.blocks ?? []).filter((b): b is ToolCallBlock => b?.type === "tool_call");
  if (calls.length === 0) throw new TypeError("runToolCalls: the message holds no tool_call block");
  const byName = toolMap(tools);
  const limit = numberOption("concurrency", options.concurrency, calls.length, COUNT);
  numberOption("timeoutMs", options.timeoutMs, 0, LIMIT_OR_ZERO);
  const responses: ToolResponseBlock[] = new Array(calls.length);
  let next = 0;
  const worker = async () => {
    while (next < calls.length) {
      const i = next++;
      const call = calls[i] as ToolCallBlock;
      const response = await runOne(call, byName, options);
      responses[i] = response;
      options.onResult?.(response, call);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, calls.length) }, worker));
  return { speaker: "tool", blocks: responses };
}

/**
 * Runs one tool call on its own, outside a turn loop (REQ-915-035): the same checks, timeout
 * and cancellation as `runToolCalls`, for a utility that needs one tool once.
 *
 * @example
 * ```ts
 * const response = await runToolCall({ type: "tool_call", id: "c1", name: "read_file", parameters: { path: "a.rs" } }, tools);
 * ```
 */
export async function runToolCall(call: ToolCallBlock, tools: readonly Tool[], options: Omit<RunToolCallsOptions, "concurrency"> = {}): Promise<ToolResponseBlock> {
  if (call?.type !== "tool_call") throw new TypeError("runToolCall: expected a tool_call block");
  numberOption("timeoutMs", options.timeoutMs, 0, LIMIT_OR_ZERO);
  const response = await runOne(call, toolMap(tools), options);
  options.onResult?.(response, call);
  return response;
}

/**
 * The declarations of `tools` for render options (`RenderOptions.tools`): a Standard Schema
 * becomes its JSON Schema (`~standard.jsonSchema.input`).
 *
 * @example
 * ```ts
 * const body = renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5", tools: toolDeclarations(tools) });
 * ```
 */
export function toolDeclarations(tools: readonly Tool[]): ToolDeclaration[] {
  return tools.map((t) => {
    const declaration: ToolDeclaration = { name: t.name };
    if (t.description !== undefined) declaration.description = t.description;
    const schema = jsonSchemaOf(t);
    if (schema !== undefined) declaration.parameters = schema;
    return declaration;
  });
}

function toolMap(tools: readonly Tool[]): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const [i, t] of (tools ?? []).entries()) {
    if (typeof t?.name !== "string" || typeof t.execute !== "function") {
      throw new TypeError(`tools[${i}] needs a string \`name\` and an \`execute\` function`);
    }
    if (byName.has(t.name)) throw new TypeError(`tools[${i}]: two tools are named ${JSON.stringify(t.name)}`);
    byName.set(t.name, t);
  }
  return byName;
}

function isStandard(p: unknown): p is StandardSchemaLike {
  return typeof p === "object" && p !== null && "~standard" in p;
}

function jsonSchemaOf(t: Tool): JsonObject | undefined {
  const p = t.parameters;
  if (p === undefined) return undefined;
  if (!isStandard(p)) return p as JsonObject;
  const convert = p["~standard"].jsonSchema?.input;
  if (typeof convert !== "function") {
    throw new TypeError(`tool ${JSON.stringify(t.name)}: its Standard Schema (${p["~standard"].vendor}) has no JSON Schema converter (~standard.jsonSchema); give a JSON Schema object as \`parameters\``);
  }
  const { $schema: _ignored, ...schema } = convert({ target: "draft-2020-12" });
  return schema as JsonObject;
}

/** The response of one call: checked, run, timed, cancellable. */
async function runOne(call: ToolCallBlock, byName: Map<string, Tool>, options: Omit<RunToolCallsOptions, "concurrency">): Promise<ToolResponseBlock> {
  const base = { type: "tool_response", callId: call.id, toolName: call.name } as const;
  const outer = options.signal;
  if (outer?.aborted) return cancelled(base, outer);
  const tool = byName.get(call.name);
  if (tool === undefined) {
    const known = [...byName.keys()].join(", ") || "none";
    return { ...base, error: `Unknown tool ${JSON.stringify(call.name)} (available: ${known}).` };
  }
  const args = call.parameters ?? {};
  // the timeout and the signal cover the argument check too (a Standard Schema's validate may hang)
  const controller = new AbortController();
  let settle: ((r: ToolResponseBlock) => void) | undefined;
  const stopped = new Promise<ToolResponseBlock>((resolve) => (settle = resolve));
  const onAbort = () => {
    controller.abort(outer?.reason);
    settle?.(cancelled(base, outer));
  };
  outer?.addEventListener("abort", onAbort, { once: true });
  const limit = options.timeoutMs;
  const timer =
    limit !== undefined && Number.isFinite(limit) && limit > 0
      ? setTimeout(() => {
          controller.abort(new Error(`timed out after ${limit} ms`));
          settle?.({ ...base, error: `The tool call timed out after ${limit} ms.`, timedOut: true });
        }, Math.min(limit, 2_147_483_647))
      : undefined;
  const ran = (async (): Promise<ToolResponseBlock> => {
    let checked: { value: unknown } | { issues: SchemaIssue[] };
    try {
      checked = await checkArguments(tool, args);
    } catch (e) {
      return { ...base, error: `Could not check the arguments for ${tool.name}: ${errorText(e)}.` };
    }
    if ("issues" in checked) {
      const list = checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ");
      return { ...base, error: `Invalid arguments for ${tool.name}: ${list}.` };
    }
    // aborted or timed out while the arguments were checked: the tool does not run
    if (controller.signal.aborted) return cancelled(base, outer);
    try {
      const value = await tool.execute(checked.value, { signal: controller.signal as AbortSignalLike, callId: call.id });
      return value === undefined ? { ...base, result: null, isComplete: true } : { ...base, result: value };
    } catch (e) {
      return { ...base, error: errorText(e) };
    }
  })();
  try {
    return await Promise.race([ran, stopped]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

async function checkArguments(tool: Tool, args: unknown): Promise<{ value: unknown } | { issues: SchemaIssue[] }> {
  const p = tool.parameters;
  if (p === undefined) return { value: args };
  if (isStandard(p)) {
    const r = await p["~standard"].validate(args);
    if (r.issues === undefined) return { value: r.value };
    // a throw here is an error result, as a throwing validate is
    if (!Array.isArray(r.issues as unknown)) throw new TypeError("its validate answered `issues` that are not a list");
    return {
      issues: Array.from(r.issues, (i) => ({
        path: "$" + Array.from(i.path ?? [], (seg) => pathPart(typeof seg === "object" && seg !== null ? seg.key : seg)).join(""),
        message: String(i.message),
      })),
    };
  }
  const issues = checkJsonSchema(p, args);
  return issues.length === 0 ? { value: args } : { issues };
}

function pathPart(key: PropertyKey): string {
  if (typeof key === "number") return `[${key}]`;
  const k = String(key);
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `.${k}` : `[${JSON.stringify(k)}]`;
}

function cancelled(base: { type: "tool_response"; callId: string; toolName: string }, signal: AbortSignalLike | undefined): ToolResponseBlock {
  let why = "";
  try {
    const reason = (signal as { reason?: unknown } | undefined)?.reason;
    if (reason instanceof Error && reason.name !== "AbortError") why = ` (${errorText(reason)})`;
  } catch {
    // a reason whose name throws: the call is cancelled all the same
  }
  return { ...base, error: `${CANCELLED_TEXT.slice(0, -1)}${why}.`, cancelled: true };
}

/** What a thrown value says, as a string; never throws (a getter, a Proxy or a toString may). */
function errorText(e: unknown): string {
  const attempts: (() => unknown)[] = [
    () => (e instanceof Error ? e.message || e.name : typeof e === "string" ? e : JSON.stringify(e)),
    () => String(e),
  ];
  for (const attempt of attempts) {
    try {
      const text = attempt();
      if (typeof text === "string" && text !== "") return text;
    } catch {
      // the next way
    }
  }
  return "the tool threw a value that cannot be shown";
}
