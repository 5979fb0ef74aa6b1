// turnwireMiddleware: the AI SDK's language-model middleware (`wrapLanguageModel`). It repairs
// and re-shapes the prompt for the wrapped model's provider in Rust (repairModelMessages) and
// maps the call ids it projected back in what the model returns; this file only moves data.
import { getCore } from "./core.mjs";
import type { Diagnostic, Provider, RenderOptions } from "./turnwire.js";

/** Options of `turnwireMiddleware`. */
export interface TurnwireMiddlewareOptions {
  /** The wrapped model's provider, when `model.provider` does not say it (a custom name). */
  provider?: Provider;
  /** Render options besides provider and model (`thinking`, `trustUnattributedThinking`, …). */
  render?: Omit<RenderOptions, "provider" | "model">;
  /** Called with every repair of a step's prompt (nothing is called when there was none). */
  onDiagnostics?: (diagnostics: Diagnostic[], target: { provider: Provider; model: string }) => void;
}

/** A web `TransformStream`, as much of it as the middleware uses. */
interface WebTransform {
  readable: unknown;
  writable: unknown;
}
type WebTransformConstructor = new (transformer: {
  transform(part: unknown, controller: { enqueue(part: unknown): void }): void;
}) => WebTransform;

/** The parts of the AI SDK's model the middleware reads. */
interface WrappedModel {
  provider: string;
  modelId: string;
}

/**
 * turnwire's provider for an AI SDK model's `provider` string (`anthropic.messages`,
 * `openai.responses`, `openai.chat`, `google.generative-ai`, `mistral.chat`, `deepseek.chat`,
 * `moonshotai.chat`, …); anything else is `openai-compatible`.
 */
export function providerOfModel(provider: string): Provider {
  const [family = ""] = provider.split(".");
  if (family === "anthropic" || provider.endsWith(".anthropic.messages")) return "anthropic";
  if (provider.endsWith(".responses")) return "openai-responses";
  if (family === "openai" || family === "azure") return "openai-chat";
  if (family === "google" || family === "vertex" || family === "googleVertex") return "gemini";
  if (family === "mistral") return "mistral";
  if (family === "deepseek") return "deepseek";
  if (family === "moonshotai") return "kimi";
  return "openai-compatible";
}

/** Bytes as base64 (file data the JSON boundary could not carry as it is). */
function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

/** The prompt with `fix` applied to the data of every file part. */
function mapFileData(prompt: unknown[], fix: (data: unknown) => unknown): unknown[] {
  return prompt.map((m) => {
    const message = m as { content?: unknown };
    if (!Array.isArray(message.content)) return m;
    const content = message.content.map((p) => {
      const part = p as { type?: string; data?: unknown };
      return part.type === "file" ? { ...part, data: fix(part.data) } : p;
    });
    return { ...message, content };
  });
}

/** File data as JSON can carry it: bytes as base64, URLs as strings. */
const plainFiles = (prompt: unknown[]): unknown[] =>
  mapFileData(prompt, (d) => (d instanceof Uint8Array ? base64(d) : d instanceof URL ? d.href : d));

/** File data that is an address goes back to the providers as a `URL` (a string is base64 to them). */
const urlFiles = (prompt: unknown[]): unknown[] =>
  mapFileData(prompt, (d) => (typeof d === "string" && /^https?:\/\//.test(d) ? new URL(d) : d));

/** What the middleware changed in one step's prompt, to undo in what the model returns. */
interface Renames {
  /** projected call id → the application's */
  ids: Map<string, string>;
  /** sent tool name → the application's */
  names: Map<string, string>;
}

/** `part` with its call id (`toolCallId`, or `id` on `tool-input-*` stream parts) and tool name mapped back. */
function mapBack<T>(part: T, renames: Renames | undefined): T {
  if (renames === undefined || part === null || typeof part !== "object") return part;
  const copy = { ...(part as Record<string, unknown>) };
  for (const key of ["toolCallId", "id"]) {
    const id = copy[key];
    if (typeof id === "string" && renames.ids.has(id)) copy[key] = renames.ids.get(id);
  }
  const name = copy["toolName"];
  if (typeof name === "string" && renames.names.has(name)) copy["toolName"] = renames.names.get(name);
  return copy as T;
}

/** A pair map reversed (`{a: b}` → `b → a`), without the pairs that did not change. */
function reversed(pairs: Record<string, string> | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const [original, sent] of Object.entries(pairs ?? {})) if (original !== sent) out.set(sent, original);
  return out;
}

/** The step's parameters the middleware reads and changes (a V3 / V4 call's options). */
interface StepParams {
  prompt: unknown[];
  tools?: Array<{ type: string; name: string; description?: string; inputSchema?: unknown }>;
  toolChoice?: { type: string; toolName?: string };
  providerOptions?: Record<string, Record<string, unknown> | undefined>;
}

/** The thinking switch of `@ai-sdk/anthropic`'s provider options, as render options. */
function anthropicThinking(params: StepParams): RenderOptions["thinking"] {
  const thinking = params.providerOptions?.["anthropic"]?.["thinking"] as { type?: string; budgetTokens?: number } | undefined;
  if (thinking?.type === "enabled") return thinking.budgetTokens === undefined ? { enabled: true } : { enabled: true, budgetTokens: thinking.budgetTokens };
  if (thinking?.type === "adaptive" || thinking?.type === "between_tools") return { enabled: true };
  return undefined;
}

/**
 * The AI SDK language-model middleware: on every step, the prompt is repaired for the wrapped
 * model as a turnwire render would (continuity it cannot replay dropped or turned into text,
 * results next to their calls, call ids in the provider's format, tool names the provider
 * refuses renamed — in the declarations too); the ids and names it changed are mapped back in
 * the step's result and stream, so the application's history keeps its own and its tools are
 * found. When the history cannot be replayed with Anthropic thinking on (a tool loop whose last
 * turn another provider wrote), `providerOptions.anthropic.thinking` is turned off for that
 * step, as the render turns it off (`thinking_disabled_for_request`).
 * The AI SDK throws `MissingToolResultsError` before any middleware runs: repair a stored
 * history with `repairModelMessages` first.
 *
 * @example
 * ```ts
 * import { generateText, wrapLanguageModel } from "ai";
 * import { turnwireMiddleware } from "turnwire";
 * const model = wrapLanguageModel({ model: anthropic("claude-sonnet-4-6"), middleware: turnwireMiddleware() });
 * const { text } = await generateText({ model, messages });
 * ```
 */
export function turnwireMiddleware(options: TurnwireMiddlewareOptions = {}) {
  // The renames of each step, by the transformed params the AI SDK hands to wrapGenerate /
  // wrapStream (so concurrent calls through one middleware keep theirs apart).
  const renamesOf = new WeakMap<object, Renames>();
  return {
    specificationVersion: "v3" as const,
    async transformParams<P extends StepParams>({ params, model }: { params: P; model: WrappedModel }): Promise<P> {
      const provider = options.provider ?? providerOfModel(model.provider);
      const functions = (params.tools ?? []).filter((t) => t.type === "function");
      const thinking = provider === "anthropic" ? anthropicThinking(params) : undefined;
      const target = {
        ...options.render,
        provider,
        model: model.modelId,
        ...(functions.length > 0 ? { tools: functions.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema })) } : {}),
        ...(thinking !== undefined ? { thinking } : {}),
      } as RenderOptions;
      const repaired = getCore().repairModelMessages(plainFiles(params.prompt), target);
      if (repaired.diagnostics.length > 0) options.onDiagnostics?.(repaired.diagnostics, { provider, model: model.modelId });
      const renames: Renames = { ids: reversed(repaired.idMap), names: reversed(repaired.toolNames) };
      const sent = new Map([...renames.names].map(([s, o]) => [o, s]));
      const out: P = { ...params, prompt: urlFiles(repaired.messages) };
      if (sent.size > 0 && params.tools !== undefined) {
        out.tools = params.tools.map((t) => (t.type === "function" && sent.has(t.name) ? { ...t, name: sent.get(t.name) ?? t.name } : t));
      }
      if (params.toolChoice?.toolName !== undefined && sent.has(params.toolChoice.toolName)) {
        out.toolChoice = { ...params.toolChoice, toolName: sent.get(params.toolChoice.toolName) };
      }
      if (thinking !== undefined && repaired.diagnostics.some((d) => d.code === "thinking_disabled_for_request")) {
        out.providerOptions = { ...params.providerOptions, anthropic: { ...params.providerOptions?.["anthropic"], thinking: { type: "disabled" } } };
      }
      renamesOf.set(out, renames);
      return out;
    },
    async wrapGenerate<R extends { content?: unknown[] }>({ doGenerate, params }: { doGenerate: () => PromiseLike<R>; params?: object }): Promise<R> {
      const result = await doGenerate();
      const renames = params === undefined ? undefined : renamesOf.get(params);
      if (!Array.isArray(result.content) || renames === undefined) return result;
      return { ...result, content: result.content.map((c) => mapBack(c, renames)) };
    },
    async wrapStream<R extends { stream: unknown }>({ doStream, params }: { doStream: () => PromiseLike<R>; params?: object }): Promise<R> {
      const result = await doStream();
      const renames = params === undefined ? undefined : renamesOf.get(params);
      if (renames === undefined || (renames.ids.size === 0 && renames.names.size === 0)) return result;
      // Web streams, typed structurally: the declarations must not need the DOM library.
      const source = result.stream as { pipeThrough(transform: WebTransform): unknown };
      const { TransformStream } = globalThis as unknown as { TransformStream: WebTransformConstructor };
      const stream = source.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            controller.enqueue(mapBack(part, renames));
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
