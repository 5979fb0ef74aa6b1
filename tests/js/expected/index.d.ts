/* tslint:disable */
/* eslint-disable */

/**
 * What every turnwire function throws: a real `Error` whose `name` is `"TurnwireError"`, with
 * a stable `code` and the JSON `path` of the bad input (`$[2].blocks[0].id`, `$.maxTokens`;
 * `$` when the whole input is at fault). A failed call leaves the module usable.
 */
export interface TurnwireError extends Error {
    readonly name: "TurnwireError";
    readonly code: ErrorCode;
    readonly path: string;
}



/** Any JSON object. */
export type JsonObject = { [key: string]: unknown };

/** Who speaks: the user, the model, tool results, or a system prompt. */
export type Speaker = "human" | "ai" | "tool" | "system";

/** Where a message or block came from; continuity tokens are replayed only when it matches. */
export interface Provenance {
    provider?: string | null;
    api?: string | null;
    model?: string | null;
    endpoint?: string | null;
}

/** Message metadata: provenance (`providerBaseURL` is the endpoint) and anything else stored. */
export interface MessageMetadata {
    provider?: string | null;
    api?: string | null;
    model?: string | null;
    providerBaseURL?: string | null;
    [key: string]: unknown;
}

/** `{"type": "text"}`; Gemini may sign a text part (`thoughtSignature`). */
export interface TextBlock {
    type: "text";
    text: string;
    thoughtSignature?: string | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/**
 * `{"type": "thinking"}` with at most one continuity token: Anthropic `signature` or
 * `redactedData`, OpenAI `reasoningId` + `encryptedContent`, Gemini `thoughtSignature`.
 */
export interface ThinkingBlock {
    type: "thinking";
    thought?: string | null;
    sourceField?: string | null;
    signature?: string | null;
    redactedData?: string | null;
    reasoningId?: string | null;
    encryptedContent?: string | null;
    thoughtSignature?: string | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/** `{"type": "tool_call"}`: `id` is the canonical (provider-neutral) call id. */
export interface ToolCallBlock {
    type: "tool_call";
    id: string;
    name: string;
    parameters?: unknown;
    description?: string | null;
    thoughtSignature?: string | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/** `{"type": "tool_response"}` answering the call `callId`. */
export interface ToolResponseBlock {
    type: "tool_response";
    callId: string;
    toolName?: string | null;
    result?: unknown;
    error?: string | null;
    isComplete?: boolean | null;
    synthetic?: SyntheticReasonCode | null;
    [key: string]: unknown;
}

/** `{"type": "media"}`: base64 bytes or a URL (`http(s):` or `data:`). */
export interface MediaBlock {
    type: "media";
    mimeType: string;
    data: string;
    encoding?: "base64" | "url" | null;
    caption?: string | null;
    filename?: string | null;
    [key: string]: unknown;
}

/** `{"type": "code"}`, sent as a fenced text block. */
export interface CodeBlock {
    type: "code";
    code: string;
    language?: string | null;
    [key: string]: unknown;
}

/**
 * A block of a type turnwire does not know. It is accepted and kept verbatim (and left out of
 * provider bodies), but it is not part of `Block`, so that `switch (block.type)` narrows: cast
 * such a block (`as unknown as Block`) where you build one.
 */
export interface UnknownBlock {
    type: string;
    [key: string]: unknown;
}

/** One block of a message, discriminated by `type`. */
export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ToolResponseBlock | MediaBlock | CodeBlock;

/** One message of the canonical transcript; unknown members survive a round trip. */
export interface Message {
    speaker: Speaker;
    blocks: Block[];
    metadata?: MessageMetadata | null;
    [key: string]: unknown;
}

/**
 * The canonical transcript: an array of messages, or `{ messages: [...] }` whose other members
 * are kept. Functions that take a transcript also take its JSON text.
 */
export type Transcript = Message[] | { messages: Message[]; [key: string]: unknown };



/** What a `StreamDecoder` is told before the first event (all optional). */
export interface StreamOptions {
    /** The model the request asked for (the message's provenance names it). */
    model?: string;
    /** The base URL the request went to. */
    endpoint?: string;
    /** A string unique to this turn, to mint ids for calls the provider sent without one. */
    idSeed?: string;
}

/** The stable codes of stream decoding problems. */
export type StreamErrorCode =
| "invalid_json" | "unexpected_event" | "orphan_delta" | "orphan_reasoning_delta"
| "orphan_tool_delta" | "duplicate_start" | "duplicate_tool_call" | "unknown_tool_complete"
| "unknown_block_stop" | "invalid_arguments" | "unfinished_tool_call" | "provider_error"
| "incomplete";

/** A problem found while decoding; `errorType` is the provider's own type for `provider_error`. */
export interface StreamErrorInfo {
    code: StreamErrorCode;
    message: string;
    errorType?: string;
}

/** What `StreamDecoder.push` returns: progress for a UI, or a decoding problem (the decoder goes on). */
export type StreamDelta = Delta | ({ type: "error" } & StreamErrorInfo);

/** What `StreamDecoder.finish` returns. */
export interface StreamOutcome {
    /** The canonical assistant message, ready to append to the transcript. */
    message: Message;
    usage: Usage;
    stopReason: StopReason;
    /** The stream ended before its terminal event, or with a provider error. */
    incomplete: boolean;
    /** Every problem of the stream, in order. */
    errors: StreamErrorInfo[];
}


/**
 * A progress report of [`StreamDecoder::push`](super::StreamDecoder::push): what the event
 * added to the message being assembled. A UI can render these as they arrive; the message
 * itself comes from [`StreamDecoder::finish`](super::StreamDecoder::finish).
 *
 * The JSON form is tagged by `type` in camelCase (`text`, `reasoning`, `toolCallStart`,
 * `toolCallArguments`, `toolCallComplete`, `usage`, `done`), with camelCase fields.
 *
 * ```
 * use turnwire::stream::{Delta, StopReason};
 * let d = Delta::Done { stop_reason: StopReason::ToolUse };
 * assert_eq!(serde_json::to_string(&d)?, r#"{"type":"done","stopReason":"tool_use"}"#);
 * let t = Delta::ToolCallArguments { id: "call_1".into(), delta: "{\"a\"".into() };
 * assert_eq!(serde_json::to_string(&t)?, r#"{"type":"toolCallArguments","id":"call_1","delta":"{\"a\""}"#);
 * # Ok::<(), serde_json::Error>(())
 * ```
 */
export type Delta = { type: "text"; text: string } | { type: "reasoning"; text: string } | { type: "toolCallStart"; id: string; name: string } | { type: "toolCallArguments"; id: string; delta: string } | { type: "toolCallComplete"; id: string; name: string; arguments: unknown } | { type: "usage"; usage: Usage } | { type: "done"; stopReason: StopReason };

/**
 * A provider's tool-call id format: `"openai"` (`call_…` ≤ 40), `"anthropic"` (`toolu_…`),
 * `"responses"` (`call_…` ≤ 64), `"kimi"` (`functions.{name}:{index}`), `"mistral"` (9
 * alphanumerics), or a generic OpenAI-compatible server's `{ compat: { maxLen, alphanumeric } }`.
 */
export type IdFormat = "openai" | "anthropic" | "responses" | "kimi" | "mistral" | { compat: { maxLen: number; alphanumeric?: boolean } };

/**
 * A stable diagnostic code. The string form never changes.
 */
export type DiagnosticCode = "speaker_repaired" | "duplicate_call_dropped" | "duplicate_call_id_renamed" | "duplicate_result_dropped" | "orphan_result_as_text" | "orphan_result_dropped" | "orphan_call_reconstructed" | "synthetic_result_added" | "result_moved" | "empty_text_removed" | "empty_message_removed" | "empty_result_filled" | "parameters_normalized" | "aborted_turn_trimmed" | "thinking_dropped" | "thinking_as_text" | "continuity_dropped" | "reasoning_reused" | "continuity_synthesized" | "thinking_disabled_for_request" | "messages_merged" | "leading_user_inserted" | "assistant_bridge_inserted" | "system_hoisted" | "block_omitted" | "media_moved" | "block_moved" | "media_type_corrected" | "tool_name_projected" | "sampling_adjusted" | "tool_declared";

/**
 * A stable, machine-readable error code. The string form never changes between releases.
 */
export type ErrorCode = "invalid_json" | "invalid_type" | "missing_field" | "invalid_value" | "unknown_provider" | "unsupported_provider" | "empty_transcript" | "read_failed" | "unsupported_model";

/**
 * A tool the model may call, declared in the request.
 */
export interface ToolDeclaration {
    /**
     * Tool name (projected to the provider's name rules when needed).
     */
    name: string;
    /**
     * What the tool does.
     */
    description?: string;
    /**
     * JSON Schema of the arguments.
     */
    parameters?: JsonObject;
}

/**
 * A wire format turnwire renders for.
 */
export type Provider = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "mistral" | "kimi" | "deepseek" | "openai-compatible";

/**
 * Everything a render needs besides the transcript.
 *
 * The JSON form (CLI `--options`, JavaScript) uses camelCase names:
 * `{"provider": "anthropic", "model": "…", "maxTokens": 4096, "system": "…", "tools": […],
 * "thinking": {"enabled": true, "budgetTokens": 2048}, "orphanResults": "text"}`.
 */
export interface RenderOptions {
    /**
     * Target wire format.
     */
    provider: Provider;
    /**
     * Target model id.
     */
    model: string;
    /**
     * Target endpoint base URL, when it matters for continuity (same model, other host).
     */
    endpoint?: string;
    /**
     * Output token limit (`max_tokens`; `max_completion_tokens` for OpenAI). Anthropic needs
     * one: 4096 when absent.
     */
    maxTokens?: number;
    /**
     * System prompt, placed before any `system` messages of the transcript.
     */
    system?: string;
    /**
     * Tool declarations.
     */
    tools?: ToolDeclaration[];
    /**
     * Thinking setting.
     */
    thinking?: ThinkingOptions;
    /**
     * Sampling temperature.
     */
    temperature?: number;
    /**
     * Nucleus sampling.
     */
    topP?: number;
    /**
     * Further top-level request fields, copied into the body as they are (`stream`,
     * `metadata`, …). They never override fields turnwire sets.
     */
    extra?: JsonObject;
    /**
     * Text of synthetic completions.
     */
    syntheticResultText?: string;
    /**
     * What to do with results whose call is gone.
     */
    orphanResults?: OrphanPolicy;
    /**
     * What to do with thinking the target cannot replay.
     */
    foreignThinking?: ForeignThinking;
    /**
     * Treat signed thinking without provenance as the target model's own.
     */
    trustUnattributedThinking?: boolean;
    /**
     * Text of an inserted leading user turn.
     */
    leadingUserText?: string;
    /**
     * Text of an assistant turn inserted between tool results and a user message (Mistral).
     */
    bridgeText?: string;
    /**
     * Reject models turnwire does not know or that lack the continuity features it needs
     * (`unsupported_model`); without it unknown models get the provider's safe defaults.
     */
    strictModels?: boolean;
    /**
     * Settings of a generic OpenAI-compatible server (`openai-compatible` only).
     */
    compat?: CompatOptions;
}

/**
 * One call for `projectToolIds`: its canonical id and its tool name (Kimi ids contain it).
 */
export interface ToolCallRef {
    /**
     * The canonical call id.
     */
    id: string;
    /**
     * The call's tool name.
     */
    name?: string;
}

/**
 * One diagnostic record (REQ-915-039/040): every repair and every lossy projection.
 */
export interface Diagnostic {
    /**
     * Stable code.
     */
    code: DiagnosticCode;
    /**
     * Fault class.
     */
    fault: FaultClass;
    /**
     * Human-readable explanation.
     */
    message: string;
    /**
     * Index of the input message concerned.
     */
    messageIndex?: number;
    /**
     * Index of the block within that input message.
     */
    blockIndex?: number;
    /**
     * Canonical call id concerned.
     */
    callId?: string;
    /**
     * The id emitted on the wire for that call (and its result).
     */
    emittedId?: string;
    /**
     * Dedupe decision and rationale.
     */
    dedupe?: DedupeDecision;
    /**
     * Reason code of a synthetic completion.
     */
    syntheticReason?: SyntheticReasonCode;
    /**
     * The provider format rendered for.
     */
    provider?: Provider;
}

/**
 * One violation of a provider rule (ids from `provider-rules.md`, e.g. `ANT-04`, `OAC-02`).
 */
export interface Violation {
    /**
     * The rule id.
     */
    rule: string;
    /**
     * JSON path of the offending part of the body.
     */
    path: string;
    /**
     * What is wrong, in the provider's words where known.
     */
    message: string;
}

/**
 * The caller's thinking setting for this request.
 */
export interface ThinkingOptions {
    /**
     * Thinking on or off.
     */
    enabled: boolean;
    /**
     * Anthropic thinking budget (default 1024; must stay below `maxTokens`).
     */
    budgetTokens?: number;
    /**
     * Reasoning effort for OpenAI-style targets (`low`, `medium`, `high`).
     */
    effort?: string;
}

/**
 * The result of a render.
 */
export interface Rendered {
    /**
     * The whole request body, sendable as is.
     */
    body: JsonObject;
    /**
     * Canonical ↔ provider call ids.
     */
    idMap: Record<string, string>;
    /**
     * Tool names that had to change to fit the provider's rules: original → sent. Use it to
     * map the model's calls back to your tools.
     */
    toolNames: Record<string, string>;
    /**
     * Every repair and lossy projection.
     */
    diagnostics: Diagnostic[];
}

/**
 * The three fault classes of REQ-915-040.
 */
export type FaultClass = "canonical_state" | "pairing_ordering" | "provider_projection";

/**
 * Token counts of one model turn, normalised across providers.
 *
 * Every count is optional: a provider reports what it reports, and a stream cut short may
 * report nothing. The counts are additive, whatever the provider's own convention:
 *
 * - `input_tokens` are the prompt tokens that were neither read from nor written to a prompt
 *   cache, so `input + cache_read + cache_write` is the whole prompt (OpenAI and Gemini count
 *   cached tokens inside their prompt count; the decoders subtract them);
 * - `output_tokens` include `reasoning_tokens` (Gemini reports thoughts apart from the
 *   candidates; the decoder adds them).
 *
 * Counts are `u32` so that they cross into JavaScript as plain numbers.
 *
 * ```
 * use turnwire::stream::Usage;
 * let u = Usage { input_tokens: Some(10), cache_read_tokens: Some(90), output_tokens: Some(5), ..Usage::default() };
 * assert_eq!(u.total_tokens(), 105);
 * assert_eq!(serde_json::to_string(&u)?, r#"{"inputTokens":10,"outputTokens":5,"cacheReadTokens":90}"#);
 * # Ok::<(), serde_json::Error>(())
 * ```
 */
export interface Usage {
    /**
     * Prompt tokens not served from or written to a cache.
     */
    inputTokens?: number;
    /**
     * Generated tokens, reasoning included.
     */
    outputTokens?: number;
    /**
     * Prompt tokens read from a prompt cache.
     */
    cacheReadTokens?: number;
    /**
     * Prompt tokens written to a prompt cache (Anthropic `cache_creation_input_tokens`).
     */
    cacheWriteTokens?: number;
    /**
     * Of the output, the tokens spent on reasoning.
     */
    reasoningTokens?: number;
}

/**
 * What `normalize` returns.
 */
export interface NormalizeResult {
    /**
     * The repaired transcript: every call answered exactly once and next to its call, no
     * empty content, roles ordered as the target needs, system messages taken out.
     */
    transcript: Transcript;
    /**
     * System prompt texts taken out of the transcript, in order.
     */
    system: string[];
    /**
     * Whether thinking stays on for this request (the history can force it off).
     */
    thinkingEnabled: boolean;
    /**
     * Every repair, in pass order.
     */
    diagnostics: Diagnostic[];
}

/**
 * What a generic OpenAI-compatible server (Groq, xAI, OpenRouter, Ollama, vLLM…) accepts.
 * The defaults are the portable strict profile: ids as OpenAI's, no reasoning fields, images.
 */
export interface CompatOptions {
    /**
     * Longest tool-call id the server takes (OpenAI: 40).
     */
    maxIdLen?: number;
    /**
     * Ids may only use ASCII letters and digits (no `_` or `-`).
     */
    alphanumericIds?: boolean;
    /**
     * Name of the assistant field that carries reasoning text back (`reasoning_content`,
     * `reasoning`), or none when the server rejects reasoning fields (Groq, GRQ-01).
     */
    reasoningField?: string | undefined;
    /**
     * Whether image parts are accepted.
     */
    images?: boolean;
}

/**
 * What to do with a tool result whose call is no longer in the history (compaction).
 */
export type OrphanPolicy = "text" | "drop" | "reconstruct-call";

/**
 * What to do with thinking the target cannot replay (another provider's or model's, unsigned).
 */
export type ForeignThinking = "drop" | "text";

/**
 * Which completion a dedupe kept and why.
 */
export interface DedupeDecision {
    /**
     * Input position of the kept completion, in words.
     */
    kept: string;
    /**
     * Input position of the dropped completion, in words.
     */
    dropped: string;
    /**
     * Input (message, block) index of the kept completion; absent for a synthesised one.
     */
    keptAt?: [number, number];
    /**
     * Input (message, block) index of the dropped completion.
     */
    droppedAt?: [number, number];
    /**
     * Why the kept one won.
     */
    rationale: string;
}

/**
 * Why the model stopped, mapped from each provider's own vocabulary.
 *
 * The string form (`end_turn`, `tool_use`, …) is stable; a reason turnwire does not know is kept
 * as [`StopReason::Other`] with the provider's own string.
 *
 * | provider | end_turn | tool_use | max_tokens | stop_sequence | refusal / content_filter | pause |
 * |---|---|---|---|---|---|---|
 * | Anthropic `stop_reason` | `end_turn` | `tool_use` | `max_tokens` | `stop_sequence` | `refusal` | `pause_turn` |
 * | Chat `finish_reason` | `stop` | `tool_calls`, `function_call` | `length`, `model_length` | — | `content_filter` | — |
 * | Responses status | `completed` | `completed` with calls | `incomplete` (`max_output_tokens`) | — | refusal content, `incomplete` (`content_filter`) | — |
 * | Gemini `finishReason` | `STOP` | `STOP` with calls | `MAX_TOKENS` | — | `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY` | — |
 *
 * A provider error ends the turn with [`StopReason::Error`]; a stream that ended before the
 * provider said why it stopped ends with [`StopReason::Incomplete`].
 *
 * ```
 * use turnwire::stream::StopReason;
 * assert_eq!(StopReason::parse("tool_use"), StopReason::ToolUse);
 * assert_eq!(StopReason::parse("FINISH_REASON_UNSPECIFIED").as_str(), "FINISH_REASON_UNSPECIFIED");
 * ```
 */
export type StopReason = "end_turn" | "tool_use" | "max_tokens" | "stop_sequence" | "refusal" | "content_filter" | "pause" | "error" | "incomplete" | (string & {});

/**
 * Why turnwire made up a tool completion ([`SyntheticReason`]), serialised by its stable
 * string.
 */
export type SyntheticReasonCode = "missing_result" | "pending_result" | "open_at_end" | "reconstructed_call";


/**
 * A conversation kept in wasm memory: append messages as they happen, render for any
 * provider on every turn. Call `free()` (or `using`) when done: the memory is not
 * JavaScript's, and a `FinalizationRegistry` only frees it eventually.
 *
 * @example
 * ```ts
 * using convo = new Conversation();
 * convo.append({ speaker: "human", blocks: [{ type: "text", text: "hi" }] });
 * const body = convo.render({ provider: "anthropic", model: "claude-sonnet-4-5" });
 * ```
 */
export class Conversation {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Appends one message given as JSON text.
     */
    appendJson(json: string): void;
    /**
     * Appends one message. A bad message is a `TurnwireError` whose path is the index it
     * would have had (`$[12].blocks[0].id`); the conversation is left unchanged.
     */
    append(message: Message): void;
    /**
     * A conversation from a transcript's JSON text (what `JSON.stringify(conversation)`
     * wrote) or from a transcript value.
     */
    static fromJSON(transcript: Transcript | string): Conversation;
    /**
     * A conversation, empty or starting from a transcript (a value or its JSON text).
     */
    constructor(transcript?: Transcript | string | null);
    /**
     * Renders `{ body, idMap, toolNames, diagnostics }` as plain objects.
     */
    renderObject(options: RenderOptions): Rendered;
    /**
     * Renders the request body for `options.provider` as UTF-8 JSON bytes.
     */
    render(options: RenderOptions): Uint8Array;
    /**
     * The transcript in its JSON history shape (so `JSON.stringify(conversation)` works).
     */
    toJSON(): Transcript;
    /**
     * The number of messages.
     */
    readonly length: number;
}

/**
 * Decodes one response stream of `provider` (its SSE `data:` payloads or JSON chunks, one
 * per `push`) into the canonical assistant message. Blocks keep the order they started in;
 * continuity metadata (thinking signatures, encrypted reasoning, Gemini thought signatures) is
 * kept, typed, with the provider and model that produced it. Call `free()` (or `using`) when
 * done.
 *
 * @example
 * ```ts
 * using decoder = new StreamDecoder("anthropic", { model: "claude-sonnet-4-5" });
 * for (const data of sseDataPayloads) for (const d of decoder.push(data)) if (d.type === "text") ui.append(d.text);
 * const { message, usage, stopReason } = decoder.finish();
 * conversation.append(message);
 * ```
 */
export class StreamDecoder {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Ends the stream and returns the message, usage, stop reason and every problem. A stream
     * that ended before its terminal event gives the partial message with `incomplete: true`;
     * append it as it is (the next render closes its open calls). The decoder cannot be used
     * afterwards.
     */
    finish(): StreamOutcome;
    /**
     * A decoder for one stream of `provider`.
     */
    constructor(provider: Provider, options: StreamOptions);
    /**
     * Decodes one event: an SSE `data:` payload (with or without the `data:` prefix), a JSON
     * chunk, or `[DONE]`. Returns what it added (text, reasoning, tool-call progress, usage,
     * done) or, for a problem, one `{ type: "error", code, message }` entry: the decoder keeps
     * what it could and goes on.
     */
    push(event: string): StreamDelta[];
    /**
     * What has arrived so far, as `finish()` would return it now (the decoder goes on).
     */
    snapshot(): StreamOutcome;
    /**
     * The provider this decoder reads.
     */
    readonly provider: Provider;
}

/**
 * Whether `value` is an error thrown by turnwire (from any copy of the module).
 *
 * @example
 * ```ts
 * try { renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5" }); }
 * catch (e) { if (isTurnwireError(e)) console.error(e.code, e.path, e.message); else throw e; }
 * ```
 */
export function isTurnwireError(value: unknown): value is TurnwireError;

/**
 * Whether `id` is lexically valid for `format` (prefix, characters, length).
 *
 * @example
 * ```ts
 * isValidToolId("openai", "call_abc123"); // true
 * ```
 */
export function isValidToolId(format: IdFormat, id: string): boolean;

/**
 * Repairs a transcript for `options.provider` and `options.model` exactly as
 * `renderForProvider` would, and returns the canonical result instead of a request body.
 *
 * @example
 * ```ts
 * const { transcript, diagnostics } = normalize(history, { provider: "anthropic", model: "claude-sonnet-4-5" });
 * ```
 */
export function normalize(transcript: Transcript | string, options: RenderOptions): NormalizeResult;

/**
 * The provider id of one call (its canonical `id`, its `tool` name), as the first call of a
 * conversation would get it.
 *
 * @example
 * ```ts
 * projectToolId("anthropic", "call_abc123", "read_file"); // "toolu_abc123"
 * ```
 */
export function projectToolId(format: IdFormat, id: string, tool?: string | null): string;

/**
 * The ids of a conversation's calls, given in conversation order: what a render sends for
 * them (deterministic, injective, and an id never changes as the conversation grows).
 *
 * @example
 * ```ts
 * projectToolIds("mistral", [{ id: "hist_tool_1", name: "grep" }, { id: "hist_tool_2" }]);
 * ```
 */
export function projectToolIds(format: IdFormat, calls: ToolCallRef[]): string[];

/**
 * Renders and returns only the request body: UTF-8 JSON bytes, ready to send. The same input
 * and options always give the same bytes, identical to the Rust API's `render_body`.
 *
 * @example
 * ```ts
 * await fetch(url, { method: "POST", headers, body: renderBody(historyJson, { provider: "anthropic", model: "claude-sonnet-4-5" }) });
 * ```
 */
export function renderBody(transcript: Transcript | string, options: RenderOptions): Uint8Array;

/**
 * Renders a transcript into the request body for `options.provider`, with the id map, the
 * tool names that changed and every repair as a diagnostic. Plain objects out.
 *
 * @example
 * ```ts
 * const { body, idMap, diagnostics } = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" });
 * ```
 */
export function renderForProvider(transcript: Transcript | string, options: RenderOptions): Rendered;

/**
 * Checks a request body against every strict rule of `provider` that one body can show and
 * returns the violations (rule id, JSON path, message); an empty array means none is broken.
 * The body may be an object, JSON text or the bytes `renderBody` returned. Give `model` for
 * the rules that depend on a model the body does not name (Gemini 3 signatures, GEM-05).
 *
 * @example
 * ```ts
 * const problems = validateRequest("anthropic", renderBody(history, options));
 * ```
 */
export function validateRequest(provider: Provider, body: JsonObject | string | Uint8Array, model?: string | null): Violation[];

/**
 * The size of this module's WebAssembly memory in bytes. It grows when needed and never
 * shrinks; a value that stays put across many calls means nothing is leaking.
 */
export function wasmMemoryBytes(): number;
