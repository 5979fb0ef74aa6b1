//! The request bodies `renderForProvider` writes, typed per provider (`AnthropicBody`, …,
//! `BedrockConverseBody`, `OllamaBody`), the token-counting bodies and `ProviderOptions` (a deep
//! partial of each). Declared for every module of the package (the render options refer to
//! `ProviderOptions`); `bodies.rs` declares the functions that return them. `make test` checks
//! each type against every golden body and against the official SDKs' types
//! (`tests/js/sdk-types`): every golden body of `tests/fixtures` type-checks as its provider's
//! body type (with excess-property checks), and each body type with an official SDK is
//! assignable to the SDK's request parameter type. Fields given through `extra` are not in these
//! types. The bodies are type aliases, not interfaces, so that each is also a `JsonObject` (and
//! `Rendered<AnthropicBody>` a `Rendered`).

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TS_BODY_TYPES: &'static str = r#"
/** An Anthropic prompt-cache mark (`cache`). */
export interface AnthropicCacheControl {
    type: "ephemeral";
    ttl?: "5m" | "1h";
}

/** Text in an Anthropic message, system prompt or tool result. */
export interface AnthropicTextBlock {
    type: "text";
    text: string;
    cache_control?: AnthropicCacheControl;
}

/** An Anthropic image or document, inline (base64) or by URL. */
export type AnthropicMediaBlock =
    | { type: "image"; source: { type: "base64"; media_type: "image/jpeg" | "image/png" | "image/gif" | "image/webp"; data: string } | { type: "url"; url: string } }
    | { type: "document"; source: { type: "base64"; media_type: "application/pdf"; data: string } | { type: "url"; url: string } };

/** A block of an Anthropic message. */
export type AnthropicContentBlock =
    | AnthropicTextBlock
    | AnthropicMediaBlock
    | { type: "thinking"; thinking: string; signature: string }
    | { type: "redacted_thinking"; data: string }
    | { type: "tool_use"; id: string; name: string; input: JsonObject }
    | { type: "tool_result"; tool_use_id: string; content: string | (AnthropicTextBlock | AnthropicMediaBlock | AnthropicToolReference)[]; is_error?: boolean }
    | AnthropicServerToolBlock
    | AnthropicCompactionBlock
    | AnthropicFallbackBlock;

/** A `compaction` block: the summary Anthropic wrote of the conversation before it, replayed in
 * its assistant message as the API sent it (beta, with its `anthropic-beta` header in the
 * render's `headers`). A block the API sent with `tool_changes` is replayed with them too;
 * their type is the SDK's (`BetaCompactionBlockParam`). */
export interface AnthropicCompactionBlock {
    type: "compaction";
    content?: string | null;
    encrypted_content?: string | null;
    signature?: string | null;
    cache_control?: AnthropicCacheControl | null;
}

/** A `fallback` block: where a refused turn moved from one model to another (beta, server-side
 * fallback), kept in place in its assistant message. */
export interface AnthropicFallbackBlock {
    type: "fallback";
    from: { model: string };
    to: { model: string };
    trigger?: { type: "refusal"; category: "cyber" | "bio" | "frontier_llm" | "reasoning_extraction" | "general_harms" | null };
}

/** A message of an Anthropic request: a user or assistant turn, or a system message where it
 * stood in the conversation (models that take them, ANT-25), its texts joined in one block and
 * the tool changes it carries (ANT-53). */
export type AnthropicMessage =
    | { role: "user" | "assistant"; content: AnthropicContentBlock[] }
    | { role: "system"; content: (AnthropicTextBlock | AnthropicToolChange)[] };

/** A tool a tool search or a tool result loaded (`tool_reference`, ANT-53). */
export interface AnthropicToolReference {
    type: "tool_reference";
    tool_name: string;
    cache_control?: AnthropicCacheControl | null;
}

/** The tool a tool change names: a declared tool, an MCP server's tool or all of its tools, or
 * (additions only) a tool defined in place. */
export type AnthropicToolChangeTarget =
    | { type: "tool_reference"; name: string }
    | { type: "mcp_tool_reference"; server_name: string; name: string }
    | { type: "mcp_toolset_reference"; server_name: string };

/** A tool added or removed mid-conversation, in a system message (beta
 * `mid-conversation-tool-changes-2026-07-01`, ANT-53; a definition in place also
 * `inline-tools-2026-09-15`). */
export type AnthropicToolChange =
    | { type: "tool_addition"; tool: AnthropicToolChangeTarget | { type: "tool_definition"; definition: AnthropicToolDeclaration }; cache_control?: AnthropicCacheControl | null }
    | { type: "tool_removal"; tool: AnthropicToolChangeTarget; cache_control?: AnthropicCacheControl | null };

/** What Anthropic does with a replayed thinking block whose conversation prefix changed
 * (ANT-52): turnwire sends `drop_block`. */
export interface AnthropicBlockBinding {
    prefix_mismatch_behavior?: "error" | "drop_block" | null;
}

/** A function tool declared to Anthropic; `defer_loading` leaves it out of the prompt until a
 * tool search loads it (ANT-54). */
export interface AnthropicToolDeclaration {
    name: string;
    description?: string;
    input_schema: { type: "object"; [key: string]: unknown };
    cache_control?: AnthropicCacheControl;
    defer_loading?: boolean;
}

/** A server tool's call or result, replayed to Anthropic as the API sent it (`serverTools`).
 * Result blocks of other server tools (`text_editor_code_execution_tool_result`,
 * `web_fetch_tool_result`, …) are replayed the same way; their types are the SDK's. */
export type AnthropicServerToolBlock =
    | { type: "server_tool_use"; id: string; name: "web_search" | "web_fetch" | "code_execution" | "bash_code_execution" | "text_editor_code_execution" | "tool_search_tool_regex" | "tool_search_tool_bm25"; input: JsonObject }
    | { type: "web_search_tool_result"; tool_use_id: string; content: { type: "web_search_result"; url: string; title: string; encrypted_content: string; page_age?: string | null }[] | { type: "web_search_tool_result_error"; error_code: "invalid_tool_input" | "unavailable" | "max_uses_exceeded" | "too_many_requests" | "query_too_long" | "request_too_large" } }
    | { type: "code_execution_tool_result"; tool_use_id: string; content: { type: "code_execution_result"; stdout: string; stderr: string; return_code: number; content: { type: "code_execution_output"; file_id: string }[] } | { type: "code_execution_tool_result_error"; error_code: "invalid_tool_input" | "unavailable" | "too_many_requests" | "execution_time_exceeded" } }
    | { type: "tool_search_tool_result"; tool_use_id: string; content: { type: "tool_search_tool_search_result"; tool_references: AnthropicToolReference[] } | { type: "tool_search_tool_result_error"; error_code: "invalid_tool_input" | "unavailable" | "too_many_requests" | "execution_time_exceeded"; error_message?: string | null } }
    | { type: "bash_code_execution_tool_result"; tool_use_id: string; content: { type: "bash_code_execution_result"; stdout: string; stderr: string; return_code: number; content: { type: "bash_code_execution_output"; file_id: string }[] } | { type: "bash_code_execution_tool_result_error"; error_code: "invalid_tool_input" | "unavailable" | "too_many_requests" | "execution_time_exceeded" | "output_file_too_large" } };

/** A server tool declared to Anthropic (`serverTools`). */
export type AnthropicServerToolDeclaration =
    | { type: "web_search_20250305"; name: "web_search"; max_uses?: number; allowed_domains?: string[]; blocked_domains?: string[]; user_location?: { type: "approximate"; city?: string; region?: string; country?: string; timezone?: string }; cache_control?: AnthropicCacheControl }
    | { type: "code_execution_20250825"; name: "code_execution"; cache_control?: AnthropicCacheControl }
    | { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex"; cache_control?: AnthropicCacheControl }
    | { type: "tool_search_tool_bm25_20251119"; name: "tool_search_tool_bm25"; cache_control?: AnthropicCacheControl };

/** The Anthropic Messages request body `renderForProvider` writes. */
export type AnthropicBody = {
    model: string;
    max_tokens: number;
    system?: string | AnthropicTextBlock[];
    messages: AnthropicMessage[];
    tools?: (AnthropicToolDeclaration | AnthropicServerToolDeclaration)[];
    tool_choice?: { type: "auto" } | { type: "none" } | { type: "any" } | { type: "tool"; name: string };
    stop_sequences?: string[];
    output_config?: {
        effort?: "low" | "medium" | "high" | "xhigh" | "max";
        format?: { type: "json_schema"; schema: JsonObject };
    };
    /** `block_binding` on the models that bind thinking to its conversation (beta
     * `thinking-binding-controls-2026-08-01`, ANT-52). */
    thinking?: { type: "enabled"; budget_tokens: number; block_binding?: AnthropicBlockBinding } | { type: "adaptive"; display?: "summarized" | "omitted"; block_binding?: AnthropicBlockBinding } | { type: "disabled" };
    cache_control?: AnthropicCacheControl;
    temperature?: number;
    top_p?: number;
};

/** A part of a Chat Completions message. */
export type ChatContentPart =
    | ChatTextPart
    | { type: "image_url"; image_url: { url: string }; prompt_cache_breakpoint?: ChatCacheBreakpoint }
    | { type: "input_audio"; input_audio: { data: string; format: "wav" | "mp3" }; prompt_cache_breakpoint?: ChatCacheBreakpoint };

/** A text part of a Chat Completions message; the cache breakpoint on gpt-5.6 and later (OAC-31). */
export type ChatTextPart = { type: "text"; text: string; prompt_cache_breakpoint?: ChatCacheBreakpoint };

/** An explicit prompt cache breakpoint on a Chat Completions part (gpt-5.6 and later, OAC-31). */
export type ChatCacheBreakpoint = { mode: "explicit" };

/** A tool call of a Chat Completions assistant message. */
export interface ChatToolCall {
    id: string;
    type: "function";
    function: { name: string; arguments: string };
}

/** A Chat Completions message as turnwire writes it; Kimi, DeepSeek and compatible servers
 * also take reasoning text back (`reasoning_content`, or the field `compat.reasoningField`
 * names), OpenRouter the `reasoning_details` array it gave (ORT-02), Mistral a tool message's
 * `name` and a final assistant message's `prefix`. */
export type ChatMessage =
    | { role: "system"; content: string | ChatTextPart[] }
    | { role: "user"; content: string | ChatContentPart[] }
    | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[]; reasoning_content?: string; reasoning_details?: unknown[]; prefix?: boolean }
    | { role: "tool"; tool_call_id: string; content: string; name?: string };

/** The Chat Completions request body `renderForProvider` writes for `openai-chat`, `mistral`,
 * `kimi`, `deepseek` and `openai-compatible`. */
export type ChatBody = {
    model: string;
    messages: ChatMessage[];
    tools?: { type: "function"; function: { name: string; description?: string; parameters?: JsonObject } }[];
    tool_choice?: "auto" | "none" | "required" | "any" | { type: "function"; function: { name: string } };
    /** Web search (`serverTools`), OpenAI's search models only. */
    web_search_options?: { user_location?: { type: "approximate"; approximate: { city?: string; region?: string; country?: string; timezone?: string } } };
    max_completion_tokens?: number;
    max_tokens?: number;
    reasoning_effort?: Effort;
    /** Kimi K2.6 with thinking on: `keep: "all"` (the server reads every historical `reasoning_content`). */
    thinking?: { type: "enabled" | "disabled"; keep?: "all" };
    stop?: string[];
    response_format?: { type: "json_schema"; json_schema: { name: string; description?: string; schema: JsonObject; strict?: boolean } };
    prompt_cache_key?: string;
    temperature?: number;
    top_p?: number;
};

/** An input item of an OpenAI Responses request. Reasoning is replayed without its item id
 * (with `store: false` the id refers to nothing the server kept: ORS-05), which the API takes
 * and the official SDK's type does not (it requires `id`). An assistant message keeps its
 * `phase` (ORS-18); a `compaction` item and an `additional_tools` item are replayed as the API
 * sent them, without their ids (ORS-20). */
export type ResponsesInputItem =
    | { type: "message"; role: "user" | "system" | "developer"; content: string | ResponsesInputPart[] }
    | { type: "message"; role: "assistant"; content: string; phase?: "commentary" | "final_answer" }
    | { type: "function_call"; call_id: string; name: string; arguments: string }
    | { type: "function_call_output"; call_id: string; output: string | ResponsesInputPart[] }
    | { type: "reasoning"; summary: { type: "summary_text"; text: string }[]; encrypted_content?: string }
    | { type: "compaction"; encrypted_content: string }
    /** Tools the API added mid-conversation, each as the API listed it. */
    | { type: "additional_tools"; role: "developer"; tools: JsonObject[] }
    | ResponsesClientToolItem;

/** Who made a client-tool call: the model itself, or a `program` item (its `call_id`). */
export type ResponsesCaller = { type: "direct" } | { type: "program"; caller_id: string };

/** A Codex-style client-tool call or its output (ORS-19), replayed as it was read: its
 * members other than the optional item `id` (required ids — `local_shell_call`, `program`,
 * `program_output` — are kept). A call another provider made is sent as a `function_call`. */
export type ResponsesClientToolItem =
    | { type: "custom_tool_call"; call_id: string; name: string; input: string; namespace?: string; caller?: ResponsesCaller | null }
    | { type: "custom_tool_call_output"; call_id: string; output: string | ResponsesInputPart[] }
    | { type: "apply_patch_call"; call_id: string; status: "in_progress" | "completed"; operation: { type: "create_file" | "update_file"; path: string; diff: string } | { type: "delete_file"; path: string }; caller?: ResponsesCaller | null }
    | { type: "apply_patch_call_output"; call_id: string; status: "completed" | "failed"; output?: string | null; caller?: ResponsesCaller | null }
    | { type: "shell_call"; call_id: string; action: { commands: string[]; timeout_ms?: number | null; max_output_length?: number | null }; status?: "in_progress" | "completed" | "incomplete" | null; caller?: ResponsesCaller | null; environment?: { type: "local"; skills?: { name: string; description: string; path: string }[] } | { type: "container_reference"; container_id: string } | null }
    | { type: "shell_call_output"; call_id: string; output: { stdout: string; stderr: string; outcome: { type: "exit"; exit_code: number } | { type: "timeout" } }[]; max_output_length?: number | null; status?: "in_progress" | "completed" | "incomplete" | null; caller?: ResponsesCaller | null }
    | { type: "local_shell_call"; id: string; call_id: string; status: "in_progress" | "completed" | "incomplete"; action: { type: "exec"; command: string[]; env: { [variable: string]: string }; timeout_ms?: number | null; user?: string | null; working_directory?: string | null } }
    /** The output names its call by `id` (the call's `call_id`). */
    | { type: "local_shell_call_output"; id: string; output: string; status?: "in_progress" | "completed" | "incomplete" | null }
    /** A client-run tool search; its `arguments` are the model's, as it sent them. */
    | { type: "tool_search_call"; call_id: string; arguments: unknown; execution?: "client"; status?: "in_progress" | "completed" | "incomplete" | null }
    /** The tools the client's search found, each as the client gave it. */
    | { type: "tool_search_output"; call_id: string; tools: JsonObject[]; execution?: "client"; status?: "in_progress" | "completed" | "incomplete" | null }
    | { type: "program"; id: string; call_id: string; code: string; fingerprint: string }
    | { type: "program_output"; id: string; call_id: string; result: string; status: "completed" | "incomplete" };

/** Text or an image in a Responses input message or function output. A breakpoint of the
 * explicit prompt cache (gpt-5.6+, ORS-21) sits on the system prompt's text. */
export type ResponsesInputPart =
    | { type: "input_text"; text: string; prompt_cache_breakpoint?: { mode: "explicit" } }
    | { type: "input_image"; image_url: string; detail: "auto" }
    | { type: "input_file"; filename: string; file_data: string };

/** The OpenAI Responses request body `renderForProvider` writes. */
export type ResponsesBody = {
    model: string;
    input: ResponsesInputItem[];
    instructions?: string;
    tools?: (
        | { type: "function"; name: string; description?: string; parameters: JsonObject | null; strict: boolean }
        | { type: "web_search"; filters?: { allowed_domains?: string[] }; user_location?: { type: "approximate"; city?: string; region?: string; country?: string; timezone?: string } }
        | { type: "code_interpreter"; container: { type: "auto" } }
    )[];
    tool_choice?: "auto" | "none" | "required" | { type: "function"; name: string };
    reasoning?: { effort?: Effort; summary?: "auto" | "concise" | "detailed" };
    include?: "reasoning.encrypted_content"[];
    text?: { format: { type: "json_schema"; name: string; description?: string; schema: JsonObject; strict?: boolean } };
    store: false;
    max_output_tokens?: number;
    prompt_cache_key?: string;
    /** Explicit prompt caching (gpt-5.6+, ORS-21): only the marked breakpoints are cached. */
    prompt_cache_options?: { mode?: "implicit" | "explicit"; ttl?: "30m" };
    temperature?: number;
    top_p?: number;
};

/** A part of a Gemini content. */
export type GeminiPart =
    | { text: string; thoughtSignature?: string }
    | { inlineData: { mimeType: string; data: string } }
    | { fileData: { mimeType?: string; fileUri: string } }
    | { functionCall: { name: string; args: JsonObject; id?: string }; thoughtSignature?: string }
    | { functionResponse: { name: string; response: JsonObject; id?: string; parts?: { inlineData: { mimeType: string; data: string } }[] } }
    | GeminiServerToolPart;

/** Code Gemini ran, or a server-side tool it called (`serverTools`), replayed as it came. */
export type GeminiServerToolPart =
    | { executableCode: { language: "PYTHON" | "LANGUAGE_UNSPECIFIED"; code: string; id?: string }; thoughtSignature?: string }
    | { codeExecutionResult: { outcome: "OUTCOME_OK" | "OUTCOME_FAILED" | "OUTCOME_DEADLINE_EXCEEDED" | "OUTCOME_UNSPECIFIED"; output?: string; id?: string }; thoughtSignature?: string }
    | { toolCall: JsonObject; thoughtSignature?: string }
    | { toolResponse: JsonObject; thoughtSignature?: string };

/** The Gemini generateContent request body `renderForProvider` writes (the model goes in the
 * URL). */
export type GeminiBody = {
    contents: { role: "user" | "model"; parts: GeminiPart[] }[];
    systemInstruction?: { parts: { text: string }[] };
    tools?: ({ functionDeclarations: { name: string; description?: string; parametersJsonSchema?: JsonObject }[] } | { googleSearch: Record<string, never> } | { codeExecution: Record<string, never> })[];
    toolConfig?: { functionCallingConfig?: { mode: "AUTO" | "ANY" | "NONE"; allowedFunctionNames?: string[] }; includeServerSideToolInvocations?: boolean };
    generationConfig?: {
        maxOutputTokens?: number;
        temperature?: number;
        topP?: number;
        stopSequences?: string[];
        responseMimeType?: "application/json";
        responseJsonSchema?: JsonObject;
        thinkingConfig?: { includeThoughts?: boolean; thinkingBudget?: number; thinkingLevel?: "MINIMAL" | "LOW" | "MEDIUM" | "HIGH" };
    };
};

/** The Chat Completions request body `renderForProvider` writes for `openai-chat` (the tool
 * choices OpenAI takes). */
export type OpenAIChatBody = Omit<ChatBody, "tool_choice"> & {
    tool_choice?: "auto" | "none" | "required" | { type: "function"; function: { name: string } };
    /** Explicit prompt cache breakpoints only (gpt-5.6 and later, OAC-31). */
    prompt_cache_options?: { mode?: "implicit" | "explicit"; ttl?: "30m" };
};

/** A Bedrock prompt-cache point (`cache`, Claude and Nova models, BDR-18): in `system` after
 * the prompt and among the tools after the last one (never for Nova). */
export interface BedrockCachePoint {
    type: "default";
    ttl?: "5m" | "1h";
}

/** An image or a document inside a Converse message or tool result. Its bytes are base64 text,
 * as the HTTP API takes them in JSON (the AWS SDK's types hold them as `Uint8Array` and encode
 * them when they send). A document's `name` keeps only the characters Bedrock takes (BDR-19). */
export type BedrockMediaBlock =
    | { image: { format: "png" | "jpeg" | "gif" | "webp"; source: { bytes: string } } }
    | { document: { format: "pdf" | "csv" | "doc" | "docx" | "xls" | "xlsx" | "html" | "txt" | "md"; name: string; source: { bytes: string } } };

/** A block of a Converse message: an object with exactly one member. Reasoning is replayed only
 * to the Claude model that signed it (BDR-14..16), its redacted form as base64 text. A tool
 * result holds a JSON object as `json` (BDR-06), any other result as text; `status` goes to
 * Claude and Nova only (BDR-20). */
export type BedrockContentBlock =
    | { text: string }
    | BedrockMediaBlock
    | { toolUse: { toolUseId: string; name: string; input: JsonObject } }
    | { toolResult: { toolUseId: string; content: ({ text: string } | { json: JsonObject } | BedrockMediaBlock)[]; status?: "success" | "error" } }
    | { reasoningContent: { reasoningText: { text: string; signature: string } } | { redactedContent: string } };

/** A message of a Converse request; a system text said mid-conversation joins `system`. */
export type BedrockMessage = {
    role: "user" | "assistant";
    content: BedrockContentBlock[];
};

/** The Bedrock Converse request body `renderForProvider` writes for `bedrock-converse`: the
 * same for `/converse` and `/converse-stream`. The model goes in the URL
 * (`/model/{modelId}/converse-stream`), never in the body; `toolConfig` is sent whenever the
 * history holds tool blocks (BDR-03). */
export type BedrockConverseBody = {
    messages: BedrockMessage[];
    system?: ({ text: string } | { cachePoint: BedrockCachePoint })[];
    toolConfig?: {
        tools: ({ toolSpec: { name: string; description?: string; inputSchema: { json: JsonObject } } } | { cachePoint: BedrockCachePoint })[];
        /** Converse has no `none`: toolChoice `none` is left out, with a diagnostic. */
        toolChoice?: { auto: Record<string, never> } | { any: Record<string, never> } | { tool: { name: string } };
    };
    inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
    /** A response format: the JSON schema as JSON text. */
    outputConfig?: { textFormat: { type: "json_schema"; structure: { jsonSchema: { schema: string; name: string; description?: string } } } };
    /** Claude's thinking and effort as the Messages API takes them (BDR-17), its betas in the
     * body (`anthropic_beta`); other families get none. */
    additionalModelRequestFields?: {
        thinking?: AnthropicBody["thinking"];
        output_config?: { effort: NonNullable<NonNullable<AnthropicBody["output_config"]>["effort"]> };
        anthropic_beta?: string[];
    };
};

/** A message of an Ollama `/api/chat` request: one string of content; a user's images as bare
 * base64 (OLL-03); an assistant's reasoning in `thinking` and its calls with object arguments
 * (OLL-02); a tool result naming its tool and call (OLL-01). */
export type OllamaMessage =
    | { role: "system"; content: string }
    | { role: "user"; content: string; images?: string[] }
    | { role: "assistant"; content: string; thinking?: string; tool_calls?: { id: string; function: { name: string; arguments: JsonObject } }[] }
    | { role: "tool"; content: string; tool_name: string; tool_call_id: string };

/** The Ollama `/api/chat` request body `renderForProvider` writes for `ollama`. No `stream`
 * (the HTTP layer writes it) and no `options.num_ctx` unless `providerOptions` sets it; `think`
 * only when the options say, a level for the models that take one (gpt-oss). */
export type OllamaBody = {
    model: string;
    messages: OllamaMessage[];
    tools?: { type: "function"; function: { name: string; description?: string; parameters?: JsonObject } }[];
    think?: boolean | "low" | "medium" | "high";
    /** A response format: its JSON Schema. */
    format?: JsonObject;
    options?: { num_predict?: number; temperature?: number; top_p?: number; stop?: string[] };
};

/** A JSON Merge Patch of a body type: every member optional, `null` to remove it, objects open
 * to fields turnwire does not model. */
export type BodyPatch<T> = T extends readonly unknown[]
    ? T
    : T extends object
      ? { [K in keyof T]?: BodyPatch<T[K]> | null } & { [key: string]: unknown }
      : T;

/** `providerOptions`: per provider, fields merged into the body rendered for it (a JSON Merge
 * Patch, RFC 7396) and checked by its strict validator; never the history (`messages`, `input`,
 * `contents`). The other providers' entries are ignored.
 *
 * @example
 * ```ts
 * renderForProvider(history, { provider: "anthropic", model, providerOptions: {
 *   anthropic: { top_k: 40, thinking: { display: "summarized" } },
 *   gemini: { generationConfig: { topK: 40 } },
 * } });
 * ```
 */
export type ProviderOptions = {
    anthropic?: BodyPatch<Omit<AnthropicBody, "messages">>;
    "openai-chat"?: BodyPatch<Omit<OpenAIChatBody, "messages">>;
    "openai-responses"?: BodyPatch<Omit<ResponsesBody, "input">>;
    gemini?: BodyPatch<Omit<GeminiBody, "contents">>;
    mistral?: BodyPatch<Omit<ChatBody, "messages">>;
    kimi?: BodyPatch<Omit<ChatBody, "messages">>;
    deepseek?: BodyPatch<Omit<ChatBody, "messages">>;
    "openai-compatible"?: BodyPatch<Omit<ChatBody, "messages">>;
    "bedrock-converse"?: BodyPatch<Omit<BedrockConverseBody, "messages">>;
    ollama?: BodyPatch<Omit<OllamaBody, "messages">>;
};

/** The body of Anthropic's `POST /v1/messages/count_tokens`. */
export type AnthropicCountTokensBody = Pick<AnthropicBody, "model" | "messages" | "system" | "tools" | "tool_choice" | "thinking" | "output_config" | "cache_control">;

/** The body of OpenAI's `POST /responses/input_tokens`. */
export type ResponsesInputTokensBody = Pick<ResponsesBody, "model" | "input" | "instructions" | "tools" | "tool_choice" | "reasoning" | "text">;

/** The body of Gemini's `POST /v1beta/models/{model}:countTokens`: the whole request, so that
 * the system instruction and the tools count too. */
export type GeminiCountTokensBody = { generateContentRequest: GeminiBody & { model: string } };

/** The providers with a token-counting endpoint, and their body types. */
export interface CountTokensBodies {
    anthropic: AnthropicCountTokensBody;
    "openai-responses": ResponsesInputTokensBody;
    gemini: GeminiCountTokensBody;
}


/** Each provider's request body type. */
export interface ProviderBodies {
    anthropic: AnthropicBody;
    "openai-chat": OpenAIChatBody;
    "openai-responses": ResponsesBody;
    gemini: GeminiBody;
    mistral: ChatBody;
    kimi: ChatBody;
    deepseek: ChatBody;
    "openai-compatible": ChatBody;
    "bedrock-converse": BedrockConverseBody;
    ollama: OllamaBody;
}
"#;
