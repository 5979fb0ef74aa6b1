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

/** Replaces every `toolCallId` / `id` of a result part found in `back` (projected → original). */
function mapIds<T>(value: T, back: Map<string, string>, keys: string[]): T {
  if (back.size === 0 || value === null || typeof value !== "object") return value;
  const copy = { ...(value as Record<string, unknown>) };
  for (const key of keys) {
    const id = copy[key];
    if (typeof id === "string" && back.has(id)) copy[key] = back.get(id);
  }
  return copy as T;
}

/**
 * The AI SDK language-model middleware: on every step, the prompt is repaired for the wrapped
 * model as a turnwire render would (continuity it cannot replay dropped or turned into text,
 * results next to their calls, call ids in the provider's format) and the ids it projected are
 * mapped back in the step's result and stream, so the application's history keeps its ids.
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
  // projected id → the application's id, per prompt (one step at a time per wrapped call)
  const back = new Map<string, string>();
  return {
    specificationVersion: "v3" as const,
    async transformParams<P extends { prompt: unknown[] }>({ params, model }: { params: P; model: WrappedModel }): Promise<P> {
      const provider = options.provider ?? providerOfModel(model.provider);
      const target = { ...options.render, provider, model: model.modelId } as RenderOptions;
      const repaired = getCore().repairModelMessages(plainFiles(params.prompt), target);
      if (repaired.diagnostics.length > 0) options.onDiagnostics?.(repaired.diagnostics, { provider, model: model.modelId });
      back.clear();
      for (const [original, projected] of Object.entries(repaired.idMap ?? {})) if (original !== projected) back.set(projected, original);
      return { ...params, prompt: urlFiles(repaired.messages) };
    },
    async wrapGenerate<R extends { content?: unknown[] }>({ doGenerate }: { doGenerate: () => PromiseLike<R> }): Promise<R> {
      const result = await doGenerate();
      if (!Array.isArray(result.content)) return result;
      return { ...result, content: result.content.map((c) => mapIds(c, back, ["toolCallId"])) };
    },
    async wrapStream<R extends { stream: unknown }>({ doStream }: { doStream: () => PromiseLike<R> }): Promise<R> {
      const result = await doStream();
      // Web streams, typed structurally: the declarations must not need the DOM library.
      const source = result.stream as { pipeThrough(transform: WebTransform): unknown };
      const { TransformStream } = globalThis as unknown as { TransformStream: WebTransformConstructor };
      const stream = source.pipeThrough(
        new TransformStream({
          transform(part, controller) {
            controller.enqueue(mapIds(part, back, ["toolCallId", "id"]));
          },
        }),
      );
      return { ...result, stream };
    },
  };
}
