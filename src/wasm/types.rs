//! TypeScript types written by hand: the canonical transcript (the JSON history shape read and
//! written by `src/model`, IContent) and the JS-only argument types.
//!
//! The transcript crosses the boundary as JSON, not through serde derives, so its type is
//! declared here; `tests/js` type-checks a consumer against it and renders real fixtures with
//! it, and the golden `tests/js/expected/index.d.ts` shows every change.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_TRANSCRIPT: &'static str = r#"
/** Any JSON object. */
export type JsonObject = { [key: string]: unknown };

/** Which tools the model may or must call: it decides (`"auto"`), none (`"none"`), at least
 * one (`"required"`), or the named declared tool. Rendered as Anthropic `tool_choice`, the chat
 * APIs' `tool_choice`, Gemini `toolConfig.functionCallingConfig`. */
export type ToolChoice = "auto" | "none" | "required" | { name: string };

/** Structured output: the answer is JSON matching `schema`. `name` (1-64 letters, digits, `_`,
 * `-`) and `description` are OpenAI's; `strict: true` asks OpenAI's strict mode, which needs
 * every object schema closed (`additionalProperties: false`, every property `required`). */
export interface ResponseFormat {
    type: "json_schema";
    name: string;
    schema: JsonObject;
    description?: string;
    strict?: boolean;
}

/** Prompt caching. Anthropic: a `cache_control` mark on the last tool (`"tools"`), on the
 * system prompt (`"system"`, sent as one text block) and the API's automatic breakpoint on the
 * last message block (`"messages"`, top-level `cache_control`); `"auto"` (the default) is all
 * three, and every mark gets `ttl`. OpenAI: `key` becomes `prompt_cache_key` (a key over 64
 * characters is sent as a stable hash). Gemini, Mistral, Kimi, DeepSeek and compatible servers
 * cache implicitly: explicit settings are not sent, with a `cache_adjusted` diagnostic. */
export interface CacheOptions {
    breakpoints?: "auto" | ("tools" | "system" | "messages")[];
    ttl?: "5m" | "1h";
    key?: string;
}

/** A tool the provider runs itself. Anthropic: `web_search_20250305` (every option) and
 * `code_execution_20250825` entries in `tools`. OpenAI Responses: `web_search` (`allowedDomains`
 * as `filters.allowed_domains`, `userLocation`) and `code_interpreter`. Gemini: `googleSearch`
 * and `codeExecution` (Gemini 3 also with function declarations, through
 * `toolConfig.includeServerSideToolInvocations`; Gemini 2.x declares the functions only).
 * OpenAI Chat: web search as `web_search_options` for its search models. Tool search
 * (`tool_search_regex`, `tool_search_bm25`: Anthropic's `tool_search_tool_*_20251119`) loads
 * the tools declared with `deferLoading`. What a target lacks is
 * left out with a `server_tool_unavailable` diagnostic. */
export interface ServerTool {
    type: "web_search" | "code_execution" | "tool_search_regex" | "tool_search_bm25";
    /** At most this many uses per request (Anthropic). */
    maxUses?: number;
    /** Only these domains (Anthropic, OpenAI Responses); not with `blockedDomains`. */
    allowedDomains?: string[];
    /** Never these domains (Anthropic). */
    blockedDomains?: string[];
    /** Where the user is, for local results (Anthropic, OpenAI). */
    userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
}

/** Reasoning effort, lowest first. OpenAI targets get it as given (`reasoning_effort`,
 * `reasoning.effort`); Anthropic gets `output_config.effort` at the highest level the model
 * takes that is not above it. */
export type Effort = "none" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";

/** Who speaks: the user, the model, tool results, or a system prompt. */
export type Speaker = "human" | "ai" | "tool" | "system";

/** Where a message or block came from; continuity tokens are replayed only when it matches. */
export interface Provenance {
    provider?: string | null;
    api?: string | null;
    model?: string | null;
    endpoint?: string | null;
    /** The host that served it (`"bedrock"`, `"vertex"`…); when absent, the host the endpoint's URL names. */
    host?: string | null;
    /** The account the model served under, as the caller names it (never a key). */
    account?: string | null;
}

/** Message metadata: provenance (`providerBaseURL` is the endpoint) and anything else stored. */
export interface MessageMetadata {
    provider?: string | null;
    api?: string | null;
    model?: string | null;
    providerBaseURL?: string | null;
    /** The host that served it (see `Provenance.host`). */
    host?: string | null;
    /** The account the model served under, as the caller names it (never a key). */
    account?: string | null;
    [key: string]: unknown;
}

/**
 * `{"type": "text"}`; Gemini may sign a text part (`thoughtSignature`); an OpenAI Responses
 * assistant message labels it (`phase`, ORS-18).
 */
export interface TextBlock {
    type: "text";
    text: string;
    thoughtSignature?: string | null;
    phase?: "commentary" | "final_answer" | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/**
 * `{"type": "thinking"}` with at most one continuity token: Anthropic `signature` or
 * `redactedData`, OpenAI `reasoningId` + `encryptedContent`, Gemini `thoughtSignature`,
 * OpenRouter `reasoningDetails` (the whole `reasoning_details` array, ORT-02).
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
    reasoningDetails?: unknown[] | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/**
 * `{"type": "tool_call"}`: `id` is the canonical (provider-neutral) call id. `openaiItem`: the
 * OpenAI Responses client-tool item it was read from (`{type: "apply_patch_call", status, …}`,
 * ORS-19), sent back as that item to Responses.
 */
export interface ToolCallBlock {
    type: "tool_call";
    id: string;
    name: string;
    parameters?: unknown;
    description?: string | null;
    thoughtSignature?: string | null;
    openaiItem?: JsonObject | null;
    provenance?: Provenance | null;
    [key: string]: unknown;
}

/**
 * `{"type": "tool_response"}` answering the call `callId`. `openaiItem`: the OpenAI Responses
 * output item it was read from (`{type: "shell_call_output", …}`, ORS-19).
 */
export interface ToolResponseBlock {
    type: "tool_response";
    callId: string;
    toolName?: string | null;
    result?: unknown;
    error?: string | null;
    isComplete?: boolean | null;
    synthetic?: SyntheticReasonCode | null;
    openaiItem?: JsonObject | null;
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
/** `{"type": "server_tool"}`: a server tool's call or result (a web search, a code run) as its
 * provider sent it (`wire`), replayed unchanged to that provider and sent to others as `text`
 * (derived from `wire` when absent). The stream decoders produce these. */
export interface ServerToolBlock {
    type: "server_tool";
    provider: "anthropic" | "gemini" | "openai-responses" | (string & {});
    phase: "call" | "result";
    id?: string;
    name?: string;
    wire: JsonObject;
    text?: string;
    [key: string]: unknown;
}

/** `{"type": "tool_change"}`: a tool offered (`add`) or withdrawn (`remove`) from this point
 * of the conversation on — a declared tool by `name`, an MCP server's tool (`name` and
 * `serverName`) or all its tools (`serverName`), or a tool carried with its `definition`. In a
 * system message it is Anthropic's `tool_addition` / `tool_removal`; after a tool response, a
 * tool the result loaded (`tool_reference`). Targets without tool changes get the tools in
 * force at the end of the history (`tool_change_projected`). */
export interface ToolChangeBlock {
    type: "tool_change";
    change: "add" | "remove";
    name?: string;
    serverName?: string;
    definition?: JsonObject;
    [key: string]: unknown;
}

export type Block = TextBlock | ThinkingBlock | ToolCallBlock | ToolResponseBlock | MediaBlock | CodeBlock | ServerToolBlock | ToolChangeBlock;

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
"#;

#[wasm_bindgen]
extern "C" {
    /// A transcript as a JS value or its JSON text.
    #[wasm_bindgen(typescript_type = "Transcript | string")]
    pub type TranscriptInput;

    /// One message as a JS value.
    #[wasm_bindgen(typescript_type = "Message")]
    pub type MessageInput;
}
