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



/** A render for sending: the body as JSON text (byte for byte `renderBody`'s), with the id map,
 * the tool names that changed and every diagnostic, as `renderForProvider` gives them. */
export interface RenderedRequest extends RenderReport {
    body: string;
}


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



/** The host's `Blob` (every runtime turnwire supports has one); a minimal shape where the
 * TypeScript `lib` has none. */
export type BlobLike = typeof globalThis extends { Blob: { prototype: infer T } } ? T : { readonly size: number; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> };


/** The result of a render: the body (typed per provider when the provider is known), the id
 * map, the tool names that changed and every diagnostic. */
export interface Rendered<Body extends object = JsonObject> {
    /** The whole request body, sendable as is. */
    body: Body;
    /** Canonical ↔ provider call ids. */
    idMap: Record<string, string>;
    /** Tool names that had to change to fit the provider's rules: original → sent. Use it to
     * map the model's calls back to your tools. */
    toolNames: Record<string, string>;
    /** Every repair and lossy projection. */
    diagnostics: Diagnostic[];
    /** HTTP headers the body needs, header → value (absent when none): send them with it
     * (Anthropic `anthropic-beta`, `anthropic-user-profile-id`). */
    headers?: Record<string, string>;
}

/**
 * Renders a transcript into the request body for `options.provider`, with the id map, the
 * tool names that changed and every repair as a diagnostic. Plain objects out; the body is
 * typed per provider (`Rendered<AnthropicBody>` for `provider: "anthropic"`, …).
 *
 * @example
 * ```ts
 * const { body, idMap, diagnostics } = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" });
 * body.messages; // ChatMessage[]
 * ```
 */
export function renderForProvider<P extends Provider>(transcript: Transcript | string, options: RenderOptions & { provider: P }): Rendered<ProviderBodies[P]>;

/**
 * Renders the token-counting request for what `renderForProvider` would send: Anthropic
 * `count_tokens`, OpenAI Responses `input_tokens`, Gemini `countTokens` (`countTokensRequest`
 * gives the URL and headers). Another provider is an `unsupported_option` error.
 *
 * @example
 * ```ts
 * const { body } = renderCountTokens(history, { provider: "anthropic", model: "claude-sonnet-4-5", tools });
 * const { input_tokens } = await (await fetch(countTokensRequest({ provider: "anthropic", model, apiKey }).url, { method: "POST", headers, body: JSON.stringify(body) })).json();
 * ```
 */
export function renderCountTokens<P extends keyof CountTokensBodies>(transcript: Transcript | string, options: RenderOptions & { provider: P }): Rendered<CountTokensBodies[P]>;



/** What `repairRequestBody` returns. */
export interface RepairedRequest {
    /** The repaired body: UTF-8 JSON bytes, ready to send. */
    body: Uint8Array;
    /** The provider it was rendered for. */
    provider: Provider;
    /** The model it was rendered for. */
    model: string;
    /** Canonical ↔ sent call ids. */
    idMap: Record<string, string>;
    /** Tool names that had to change: original → sent. */
    toolNames: Record<string, string>;
    /** Every repair: what the importer could not carry, then the render's. */
    diagnostics: Diagnostic[];
    /** HTTP headers the body needs, header → value (absent when none): send them with it
     * (Anthropic `anthropic-beta`, `anthropic-user-profile-id`). */
    headers?: Record<string, string>;
}



/** What a `StreamDecoder` is told before the first event (all optional). */
export interface StreamOptions {
    /** The model the request asked for (the message's provenance names it). */
    model?: string;
    /** The base URL the request went to. */
    endpoint?: string;
    /** The host that served it (`"bedrock"`, `"vertex"`, `"deepseek"`…), stamped on the answer's provenance. */
    host?: Host;
    /** The account the request went out under (an opaque label, never a key), stamped on the answer's provenance. */
    account?: string;
    /** A string unique to this turn, to mint ids for calls the provider sent without one. */
    idSeed?: string;
    /** The largest binary event-stream frame read (Bedrock), in bytes; a longer one is skipped with a `frame_too_large` error. Default 16 MiB. */
    maxEventBytes?: number;
}

/** The stable codes of stream decoding problems. */
export type StreamErrorCode =
| "invalid_json" | "unexpected_event" | "orphan_delta" | "orphan_reasoning_delta"
| "orphan_tool_delta" | "duplicate_start" | "duplicate_message_start" | "duplicate_tool_call"
| "unknown_tool_complete" | "unknown_block_stop" | "invalid_arguments" | "unfinished_tool_call"
| "provider_error" | "incomplete" | "event_after_end" | "errors_dropped" | "lone_surrogate_replaced"
| "frame_crc_mismatch" | "invalid_frame" | "frame_too_large" | "unknown_event_type";

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



/** What a relay writes that the answer does not say. */
export interface RelayOptions {
    /** The model the client asked for (its answers name it). */
    model: string;
    /** The answer's id (message, completion or response id); item ids are made from it. */
    id: string;
    /** Unix seconds, for the formats that carry a creation time (default 0). */
    created?: number;
}



/** Who wrote the assistant turns of an imported history, when the format does not say. */
export interface ImportSource {
    /** The chat dialect of `fromOpenAIChat` (default `"openai-chat"`). */
    provider?: Provider;
    /** The model of the assistant turns (a request body's own `model` otherwise; required for Gemini bodies). */
    model?: string;
    /** The base URL that served them. */
    endpoint?: string;
    /** The host that served them (`"bedrock"`, `"vertex"`, `"deepseek"`…); when absent, a body's `anthropic_version` says it. */
    host?: Host;
    /** The account that served them, as you name it (an opaque label, never a key). */
    account?: string;
}

/** What an importer read. */
export interface Imported {
    /** The canonical transcript, continuity tokens typed with their provenance. */
    transcript: Transcript;
    /** The render options a request body implied (model, limits, tools, thinking, sampling, other fields as `extra`). */
    options?: RenderOptions;
    /** What the transcript could not carry as the input had it (`import_opaque`, `import_converted`), with JSON paths. */
    diagnostics: Diagnostic[];
}



export interface Conversation {
    /**
     * Removes `deleteCount` messages from `start` on (all of them when left out), puts
     * `messages` in their place and returns the removed ones, as `Array.prototype.splice`
     * does (a negative `start` counts from the end). Refused with a `TurnInFlightError`
     * while a turn is in flight.
     *
     * @example
     * ```ts
     * convo.splice(-1, 1, { speaker: "human", blocks: [{ type: "text", text: "try again" }] });
     * ```
     */
    splice(start: number, deleteCount?: number, ...messages: Message[]): Message[];
    /**
     * Whether a turn (`streamTurn`, `runAgent`) is in flight on this conversation: while it
     * is, appends, edits, a second turn and `free()` are `TurnInFlightError`s.
     */
    readonly inFlight: boolean;
}

/**
 * A block of a history: its message and its index in that message.
 */
export interface BlockRef {
    /**
     * The message's index.
     */
    messageIndex: number;
    /**
     * The block's index in the message.
     */
    blockIndex: number;
}

/**
 * A host: who serves a wire API (the `host` render option, a provenance's `host`).
 *
 * ```
 * use turnwire::{Host, Provider};
 * let h: Host = "vertex".parse()?;
 * assert_eq!(h.as_str(), "vertex");
 * assert_eq!(Host::of(Provider::Anthropic), Some(Host::Anthropic));
 * assert_eq!(Host::of(Provider::OpenAiCompatible), None); // the caller's base URL
 * # Ok::<(), turnwire::Error>(())
 * ```
 */
export type Host = "anthropic" | "openai" | "google" | "mistral" | "bedrock" | "bedrock-mantle" | "vertex" | "azure" | "foundry" | "openrouter" | "xai" | "deepseek" | "kimi" | "zai" | "ollama";

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
export type DiagnosticCode = "speaker_repaired" | "duplicate_call_dropped" | "duplicate_call_id_renamed" | "duplicate_result_dropped" | "orphan_result_as_text" | "orphan_result_dropped" | "orphan_call_reconstructed" | "synthetic_result_added" | "result_moved" | "empty_text_removed" | "empty_message_removed" | "empty_result_filled" | "parameters_normalized" | "aborted_turn_trimmed" | "thinking_dropped" | "thinking_as_text" | "continuity_dropped" | "reasoning_reused" | "continuity_synthesized" | "thinking_disabled_for_request" | "messages_merged" | "leading_user_inserted" | "assistant_bridge_inserted" | "system_hoisted" | "block_omitted" | "media_moved" | "block_moved" | "media_type_corrected" | "feature_unavailable" | "tool_name_projected" | "tool_name_trimmed" | "sampling_adjusted" | "tool_declared" | "lone_surrogate_replaced" | "non_json_value_replaced" | "max_tokens_chosen" | "thinking_budget_adjusted" | "continuation_user_inserted" | "prefill_whitespace_trimmed" | "import_opaque" | "import_converted" | "request_field_dropped" | "tool_choice_lowered" | "stop_sequences_adjusted" | "cache_adjusted" | "cache_prefix_changed" | "server_tool_as_text" | "server_tool_unavailable" | "header_param_moved" | "system_moved" | "context_edits_reordered" | "thinking_prefix_changed" | "tool_change_projected";

/**
 * A stable, machine-readable error code. The string form never changes between releases.
 */
export type ErrorCode = "invalid_json" | "invalid_type" | "missing_field" | "invalid_value" | "unknown_provider" | "unsupported_provider" | "empty_transcript" | "read_failed" | "unsupported_model" | "out_of_memory" | "out_of_range" | "unsupported_option" | "freed" | "reentrant_call";

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
    /**
     * Load the tool only when a tool search finds it (Anthropic `defer_loading`); targets
     * without tool search declare it as any other tool (`feature_unavailable`).
     */
    deferLoading?: boolean;
}

/**
 * A wire format turnwire renders for.
 */
export type Provider = "anthropic" | "openai-chat" | "openai-responses" | "gemini" | "mistral" | "kimi" | "deepseek" | "openai-compatible" | "bedrock-converse" | "ollama";

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
     * Who serves the wire (`bedrock`, `vertex`, `azure`, `deepseek`…; see `turnwire::hosts`):
     * the body takes the host's envelope (Bedrock and Vertex Claude name the model in the URL
     * and the version in the body) and continuity artifacts of another host are not
     * replayed. Default: the provider's own API ([`Host::of`]). A host that does not serve the
     * provider is `invalid_value`.
     */
    host?: Host;
    /**
     * The account the request goes out under (organisation, project or API key; with the end
     * user where the provider binds to one), as you name it — an opaque label such as
     * `"acme-prod"`, never a key itself. Signatures and encrypted reasoning minted under
     * another account are not replayed (their provenance's `account`).
     */
    account?: string;
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
     * Which tools the model may or must call (`tool_choice`, Gemini `toolConfig`).
     */
    toolChoice?: ToolChoice;
    /**
     * Texts that end the model's answer (`stop_sequences`, `stop`, Gemini
     * `generationConfig.stopSequences`), each within the provider's limits.
     */
    stopSequences?: string[];
    /**
     * Structured output: the answer is JSON matching a schema (Anthropic
     * `output_config.format`, Chat `response_format`, Responses `text.format`, Gemini
     * `responseJsonSchema`).
     */
    responseFormat?: ResponseFormat;
    /**
     * Prompt caching: Anthropic breakpoints and their lifetime, OpenAI `prompt_cache_key`.
     */
    cache?: CacheOptions;
    /**
     * Tools the provider runs itself (`web_search`, `code_execution`), declared in each
     * provider's own form; a target without one leaves it out with a diagnostic.
     */
    serverTools?: ServerTool[];
    /**
     * Per-provider request fields, keyed by provider name, merged into the body rendered for
     * that provider as a JSON Merge Patch and checked by its strict validator (see
     * `providerOptions` in the README); the other providers' entries are ignored.
     */
    providerOptions?: ProviderOptions;
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
     * Text of the user turn appended after a final assistant message when the model takes no
     * prefill (Claude 4.6+, deepseek-reasoner).
     */
    continuationText?: string;
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
    /**
     * JSON path of the input value concerned (`$[3].blocks[0].result`, `$.system` for
     * render options), when a repair was made while reading it.
     */
    path?: string;
    /**
     * How many occurrences this one diagnostic stands for, when it summarises several.
     */
    count?: number;
    /**
     * The normaliser pass that made this repair; absent for what was repaired while reading
     * the input or projecting it for the provider.
     */
    pass?: Pass;
}

/**
 * One normaliser pass, named by what it repairs, listed in the order the passes run. A
 * diagnostic names the pass that made it (`pass`): `closure` for a synthetic completion,
 * `thinking_policy` for thinking the target cannot replay, and so on.
 */
export type Pass = "speaker_repair" | "server_tools" | "content_hygiene" | "call_identity" | "dedupe" | "orphans" | "assistant_pieces" | "closure" | "adjacency" | "aborted_turns" | "media" | "tool_result_media" | "calls_last" | "thinking_policy" | "system_hoisting" | "role_order" | "prefill" | "thinking_position" | "thinking_setting" | "continuity" | "declarations" | "thinking_binding";

/**
 * One tool call of a history and where it stands ([`tool_calls`] has an example).
 */
export interface ToolCallState {
    /**
     * The call's canonical id.
     */
    id: string;
    /**
     * The tool it calls.
     */
    name: string;
    /**
     * Where the call is: its message and its block in that message.
     */
    messageIndex: number;
    /**
     * The block index of the call in its message.
     */
    blockIndex: number;
    /**
     * `complete`, `errored`, or `pending` (no response yet, or only a pending one).
     */
    status: ToolStatus;
    /**
     * Where the response that decides the status is, when there is one.
     */
    result?: BlockRef;
    /**
     * How many responses answer the call (more than one: a render keeps the best, see
     * `DedupeDecision`).
     */
    responses: number;
    /**
     * Why turnwire made up the deciding response, when it did (`missing_result`, …).
     */
    synthetic?: SyntheticReasonCode;
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
     * Anthropic thinking budget (default 1024; must stay below `maxTokens`). Claude 4.6 and
     * later think adaptively: Opus 4.6 and Sonnet 4.6 take a budget only when one is given,
     * Opus 4.7 and later none.
     */
    budgetTokens?: number;
    /**
     * Reasoning effort, one of `none`, `minimal`, `low`, `medium`, `high`, `xhigh`, `max`:
     * OpenAI `reasoning_effort` / `reasoning.effort` as given; Anthropic `output_config.effort`
     * at the highest level the model takes that is not above it.
     */
    effort?: Effort;
    /**
     * Whether the model's reasoning comes back summarized: `auto` (the default), `concise`,
     * `detailed` or `none`. OpenAI Responses `reasoning.summary` (`none`: left out); Anthropic
     * adaptive thinking `display` (`summarized`, or `omitted` for `none`).
     */
    summary?: "auto" | "concise" | "detailed" | "none";
}

/**
 * The lifecycle state of one tool interaction: `errored`, `complete` or `pending`.
 */
export type ToolStatus = "errored" | "complete" | "pending";

/**
 * The module's memory, in bytes.
 */
export interface MemoryStats {
    /**
     * Allocated and not yet freed: conversations, decoders, a call's work.
     */
    liveBytes: number;
    /**
     * The most in use at once since the module started or since `resetPeak` was asked.
     */
    peakBytes: number;
    /**
     * The budget (`null`: none); a call that takes more throws `out_of_memory`.
     */
    budgetBytes: number | null;
    /**
     * The WebAssembly memory's size: the high-water mark, which never shrinks.
     */
    wasmBytes: number;
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
     * Tool changes the target cannot take in place (ANT-53): left out of `transcript`, taken as
     * the request's tools list. Keep them with the history (a system message after it) so the
     * stored history renders the same again.
     */
    toolChanges: ToolChangeBlock[];
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
 * What a render reports besides its body, for a caller that has the body as bytes or text
 * (Rust `Conversation::write_request`, JS `renderRequest`): the id map, the tool names that
 * changed and every diagnostic, exactly as a whole render gives them.
 */
export interface RenderReport {
    /**
     * Canonical ↔ provider call ids.
     */
    idMap: Record<string, string>;
    /**
     * Tool names that had to change to fit the provider's rules: original → sent.
     */
    toolNames: Record<string, string>;
    /**
     * Every repair and lossy projection.
     */
    diagnostics: Diagnostic[];
    /**
     * HTTP headers the body needs (see [`Rendered::headers`]); absent when none.
     */
    headers?: Record<string, string>;
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
 * | Bedrock Converse `stopReason` | `end_turn` | `tool_use` | `max_tokens` | `stop_sequence` | `content_filtered`, `guardrail_intervened` | — |
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
export type SyntheticReasonCode = "missing_result" | "pending_result" | "open_at_end" | "reconstructed_call" | "compacted";


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
     * The message at `index` (negative: from the end), or `undefined`.
     *
     * @example
     * ```ts
     * const last = convo.at(-1);
     * ```
     */
    at(index: number): Message | undefined;
    /**
     * Replaces messages `start..end` with `summary` (a human or ai message) and returns them
     * (negative indexes count from the end, as in `splice`).
     * The summary records what went under `compaction`: `{messages, calls, results}` — calls
     * kept whose results were removed (rendered with a `compacted` synthetic completion) and
     * results kept whose calls were removed. Between two `safeCutPoints()` nothing is
     * separated. Refused while a turn is in flight.
     *
     * @example
     * ```ts
     * convo.compact(1, 40, { speaker: "human", blocks: [{ type: "text", text: summaryText }] });
     * ```
     */
    compact(start: number, end: number, summary: Message): Message[];
    /**
     * The range `compact` would replace to keep the last `keepLastTurns` turns (default 2; a
     * turn starts at a user message, or at a tool loop's step when there are too few of them)
     * and the first `keepFirst` messages (default 0) with a system prompt at the head: `start`
     * and `end` are safe cut points, and `start >= end` means nothing to replace.
     *
     * @example
     * ```ts
     * const { start, end } = convo.compactionRange(2);
     * ```
     */
    compactionRange(keepLastTurns?: number | null, keepFirst?: number | null): { start: number; end: number };
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
     * The calls still waiting for a result (no response, or only a pending one): run them,
     * or record them cancelled, before the next turn.
     *
     * @example
     * ```ts
     * if (convo.openCalls().length > 0) convo.append(await runToolCalls(convo.at(-1), tools));
     * ```
     */
    openCalls(): ToolCallState[];
    /**
     * Renders the request body as a `Blob` (`fetch` sends it as is). The pieces that come
     * from the render cache are kept as `Blob`s of their own and reused, so on a long
     * conversation a render after an append costs the new turn, not a copy of the whole
     * history: the body's bytes are exactly `render`'s.
     *
     * @example
     * ```ts
     * await fetch(url, { method: "POST", headers, body: convo.renderBlob({ provider: "anthropic", model: "claude-sonnet-4-5" }) });
     * ```
     */
    renderBlob(options: RenderOptions): BlobLike;
    /**
     * Renders `{ body, idMap, toolNames, diagnostics }` as plain objects.
     */
    renderObject(options: RenderOptions): Rendered;
    /**
     * Renders for sending: `{ body, idMap, toolNames, diagnostics }` with the body as JSON text
     * (exactly `render`'s bytes, decoded), in one call and without building the body as
     * objects (what `streamTurn` sends).
     */
    renderRequest(options: RenderOptions): RenderedRequest;
    /**
     * Renders the request body for `options.provider` as UTF-8 JSON bytes.
     */
    render(options: RenderOptions): Uint8Array;
    /**
     * Puts `message` at `index` (negative: from the end) and returns the one that was there.
     * An index with no message is an `out_of_range` error, a bad message an error at
     * `$[index]…`; either way nothing changes.
     *
     * @example
     * ```ts
     * convo.replace(-1, { speaker: "human", blocks: [{ type: "text", text: "shorter, please" }] });
     * ```
     */
    replace(index: number, message: Message): Message;
    /**
     * The indexes where this history can be cut without separating a call from its result.
     *
     * @example
     * ```ts
     * const points = convo.safeCutPoints();
     * ```
     */
    safeCutPoints(): number[];
    /**
     * The transcript in its JSON history shape (so `JSON.stringify(conversation)` works).
     */
    toJSON(): Transcript;
    /**
     * Every tool call of the history with its status (`complete`, `errored`, `pending`),
     * where it is and which response decides it, reconstructed from the messages.
     *
     * @example
     * ```ts
     * for (const call of convo.toolCalls()) console.log(call.name, call.status);
     * ```
     */
    toolCalls(): ToolCallState[];
    /**
     * Keeps the first `length` messages and returns the others (what a retry from an earlier
     * point, or an undo, removes). The render caches stay valid: an edit near the end costs
     * about what an append costs.
     *
     * @example
     * ```ts
     * const removed = convo.truncate(convo.length - 2);
     * ```
     */
    truncate(length: number): Message[];
    /**
     * How many render targets (distinct options) keep a cache, least recently rendered dropped
     * first (default 4: each cache holds about the history's size again). Raise it for a round robin
     * over more providers; a target whose cache was dropped renders in full once.
     */
    cacheTargets: number;
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
    constructor(provider: Provider, options?: StreamOptions);
    /**
     * Decodes one event: an SSE `data:` payload (with or without the `data:` prefix), a JSON
     * chunk, or `[DONE]`. For `bedrock-converse`, and `anthropic` with the `bedrock` host
     * (InvokeModel), also the response body's bytes as they arrive (a `Uint8Array` cut
     * anywhere: `application/vnd.amazon.eventstream` frames); a `Uint8Array` for a provider
     * that streams text is an `invalid_type` error. Returns what it added (text, reasoning,
     * tool-call progress, usage, done) or, for a problem, one
     * `{ type: "error", code, message }` entry: the decoder keeps what it could and goes on.
     */
    push(event: string | Uint8Array): StreamDelta[];
    /**
     * What has arrived so far, as `finish()` would return it now (the decoder goes on).
     */
    snapshot(): StreamOutcome;
    /**
     * Whether the stream's last event has arrived (the terminal event, or a chat stream's
     * `[DONE]` after it): stop reading then, even if the connection stays open. Later events
     * are ignored with an `event_after_end` error.
     */
    readonly closed: boolean;
    /**
     * The provider this decoder reads.
     */
    readonly provider: Provider;
}

/**
 * A streamed answer of provider `from`, rewritten event by event as `to`'s stream: push each
 * SSE `data:` payload of the answer, send on the SSE text returned. A provider error in the
 * stream becomes `to`'s error event. Continuity tokens the client's format cannot hold stay in
 * `outcome()`. Call `free()` (or `using`) when done.
 *
 * @example
 * ```ts
 * using relay = new StreamRelay("gemini", "anthropic", { model: "claude-sonnet-4-6", id: "msg_1" });
 * for (const data of geminiEvents) controller.enqueue(encoder.encode(relay.push(data)));
 * controller.enqueue(encoder.encode(relay.finish()));
 * ```
 */
export class StreamRelay {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * The answer's body ended: the end frames if the answer stopped without saying it was over.
     */
    finish(): string;
    /**
     * A relay for one answer.
     */
    constructor(from: Provider, to: Provider, options: RelayOptions);
    /**
     * What was decoded so far (the message with its continuity tokens).
     */
    outcome(): StreamOutcome;
    /**
     * The client's SSE text for one event of the answer (empty when it adds nothing).
     */
    push(event: string): string;
    /**
     * Whether the client's stream is complete.
     */
    readonly closed: boolean;
}

/**
 * The documented context window of a model (prompt and output tokens together), or
 * `undefined` for a model turnwire's table does not know and for `openai-compatible` servers
 * (their window depends on the model behind them).
 *
 * @example
 * ```ts
 * contextWindow("anthropic", "claude-sonnet-4-5"); // 200000
 * ```
 */
export function contextWindow(provider: Provider, model: string): number | undefined;

/**
 * Reads AI SDK `ModelMessage[]` (ai v5–v7) into `{ transcript, diagnostics }`: continuity from
 * each part's `providerOptions` (`anthropic.signature` / `redactedData`, `openai.itemId` +
 * `reasoningEncryptedContent`, `google.thoughtSignature`). `source.provider` and `source.model`
 * say who wrote the assistant turns (the AI SDK does not store it).
 *
 * @example
 * ```ts
 * const { transcript } = fromAiSdk(result.response.messages, { provider: "anthropic", model: "claude-sonnet-4-5" });
 * ```
 */
export function fromAiSdk(messages: unknown[], source?: ImportSource): Imported;

/**
 * Reads Anthropic `messages` (and `system`) into `{ transcript, diagnostics }`.
 *
 * @example
 * ```ts
 * const { transcript } = fromAnthropic(messages, system, { model: "claude-sonnet-4-5" });
 * ```
 */
export function fromAnthropic(messages: unknown[], system?: string | unknown[] | null, source?: ImportSource): Imported;

/**
 * Reads Gemini `contents` (and `systemInstruction`) into `{ transcript, diagnostics }`.
 *
 * @example
 * ```ts
 * const { transcript } = fromGemini(contents, systemInstruction, { model: "gemini-3-pro-preview" });
 * ```
 */
export function fromGemini(contents: unknown[], system_instruction?: JsonObject | null, source?: ImportSource): Imported;

/**
 * Reads OpenAI Chat `messages` (any chat dialect: `source.provider`) into
 * `{ transcript, diagnostics }`.
 *
 * @example
 * ```ts
 * const { transcript } = fromOpenAIChat(messages, { provider: "deepseek", model: "deepseek-reasoner" });
 * ```
 */
export function fromOpenAIChat(messages: unknown[], source?: ImportSource): Imported;

/**
 * Reads a pi-ai `Context` (`systemPrompt`, `messages`, `tools`) or its messages into
 * `{ transcript, diagnostics }`: each assistant message's `provider` / `api` / `model` becomes
 * its provenance, and its signature fields are read as that `api` writes them.
 *
 * @example
 * ```ts
 * const { transcript } = fromPiAi(context);
 * ```
 */
export function fromPiAi(context: JsonObject | unknown[], source?: ImportSource): Imported;

/**
 * Reads a request body turnwire renders for `provider`, or one another library built for that
 * API, back into `{ transcript, options, diagnostics }`: repair it and render it for any
 * provider. The body may be an object, JSON text or bytes.
 *
 * @example
 * ```ts
 * const { transcript, options } = fromRequestBody("anthropic", bodyBuiltElsewhere);
 * const gemini = renderBody(transcript, { ...options, provider: "gemini", model: "gemini-2.5-pro" });
 * ```
 */
export function fromRequestBody(provider: Provider, body: JsonObject | string | Uint8Array, source?: ImportSource): Imported;

/**
 * Reads OpenAI Responses `input` items (and `instructions`) into `{ transcript, diagnostics }`.
 *
 * @example
 * ```ts
 * const { transcript } = fromResponsesInput(input, instructions, { model: "gpt-5.2" });
 * ```
 */
export function fromResponsesInput(input: string | unknown[], instructions?: string | null, source?: ImportSource): Imported;

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
 * The module's memory: bytes in use, their peak, the budget and the WebAssembly memory's size.
 * `memoryStats({ resetPeak: true })` starts a new peak measurement after reading this one.
 *
 * @example
 * ```ts
 * memoryStats({ resetPeak: true });
 * await streamTurn(...);
 * console.log(memoryStats().peakBytes);
 * ```
 */
export function memoryStats(options?: { resetPeak?: boolean }): MemoryStats;

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
 * `to`'s error body for an error of another provider (its type or status, and message).
 *
 * @example
 * ```ts
 * relayErrorBody("anthropic", "RESOURCE_EXHAUSTED", "Quota exceeded"); // {type: "error", error: {…}}
 * ```
 */
export function relayErrorBody(to: Provider, error_type: string, message: string): JsonObject;

/**
 * A whole answer of `from` written as `to`'s whole answer: `{ body, outcome }`. An error
 * answer becomes `to`'s error body.
 *
 * @example
 * ```ts
 * const { body } = relayWhole("gemini", "openai-chat", await res.json(), { model: "gpt-5.2", id: "chatcmpl_1" });
 * ```
 */
export function relayWhole(from: Provider, to: Provider, answer: JsonObject, options: RelayOptions): { body: JsonObject; outcome: StreamOutcome };

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
 * Renders a transcript for sending: the request body as JSON text (exactly `renderBody`'s
 * bytes, decoded) with the id map, the tool names that changed and every diagnostic, in one
 * call, without building the body as objects (what `streamTurn` sends).
 *
 * @example
 * ```ts
 * const { body, diagnostics } = renderRequest(history, { provider: "gemini", model: "gemini-2.5-pro" });
 * await fetch(url, { method: "POST", headers, body });
 * ```
 */
export function renderRequest(transcript: Transcript | string, options: RenderOptions): RenderedRequest;

/**
 * Repairs AI SDK `ModelMessage[]` for `options.provider` and `options.model` as a render would
 * (every tool call answered before the next user turn, so the AI SDK's
 * `MissingToolResultsError` cannot fire; continuity the model cannot replay dropped or turned
 * into text; system messages first; call ids in the target's format, `idMap` mapping the
 * input's to them; tool names `options.tools` declares that the target refuses renamed,
 * `toolNames` mapping them) and returns `{ messages, diagnostics, idMap, toolNames }` to pass
 * to `generateText` / `streamText`.
 *
 * @example
 * ```ts
 * const { messages: repaired } = repairModelMessages(messages, { provider: "openai-chat", model: "gpt-5.2" });
 * await generateText({ model: openai.chat("gpt-5.2"), messages: repaired, allowSystemInMessages: true });
 * ```
 */
export function repairModelMessages(messages: unknown[], options: RenderOptions, source?: ImportSource): { messages: unknown[]; diagnostics: Diagnostic[]; idMap?: Record<string, string>; toolNames?: Record<string, string> };

/**
 * Repairs a request body built for `provider` (by an SDK, the AI SDK, pi-ai, …): reads it,
 * then renders it again for the same provider, or for `target.provider` and `target.model`
 * with `target`'s other render options set over the body's own. `source.model` names the
 * model when the body does not (a Gemini body: it is in the URL). The body's other fields
 * stay, unless `target` names a provider of another API (`request_field_dropped`).
 *
 * @example
 * ```ts
 * const { body, diagnostics } = repairRequestBody("openai-chat", init.body);
 * const moved = repairRequestBody("anthropic", init.body, {}, { provider: "gemini", model: "gemini-2.5-pro" });
 * ```
 */
export function repairRequestBody(provider: Provider, body: JsonObject | string | Uint8Array, source?: ImportSource, target?: Partial<RenderOptions>): RepairedRequest;

/**
 * The message indexes where a history can be cut or summarised without separating a tool call
 * from its result (REQ-915-028): no call/result pair spans the index and no tool message starts
 * there. `0` and the length are always among them.
 *
 * @example
 * ```ts
 * const points = safeCutPoints(history); // e.g. [0, 1, 4, 9, 12]
 * ```
 */
export function safeCutPoints(transcript: Transcript | string): number[];

/**
 * Sets the module's memory budget in bytes (`null`: none; the default is 2 GiB, half the
 * 4 GiB wasm32 limit). Rendering, appending, reading a transcript and decoding an event stop
 * with a `TurnwireError` `out_of_memory` once more than the budget is in use; a
 * `Conversation` then drops its render caches and keeps its messages. The check runs between
 * a call's stages, so a call can go past the budget by about one render of its history.
 *
 * @example
 * ```ts
 * setMemoryBudget(256 * 1024 * 1024);
 * try { convo.render(options); } catch (e) { if (isTurnwireError(e) && e.code === "out_of_memory") convo.cacheTargets = 1; }
 * ```
 */
export function setMemoryBudget(bytes: number | null): void;

/**
 * Writes a transcript as AI SDK `ModelMessage[]`, continuity tokens under the
 * `providerOptions` keys the `@ai-sdk/*` providers read back. Returns `{ messages,
 * diagnostics }` (blocks the shape has no place for). It writes what is there: use
 * `repairModelMessages`, or `normalize` first, for a history the AI SDK accepts.
 *
 * @example
 * ```ts
 * const { messages } = toAiSdk(conversation.toJSON());
 * ```
 */
export function toAiSdk(transcript: Transcript | string): { messages: unknown[]; diagnostics: Diagnostic[] };

/**
 * Writes a transcript as a pi-ai `Context` (`{ context, diagnostics }`): assistant messages
 * name their `provider`, `api` and `model` as pi-ai spells them, signatures sit where that
 * `api` reads them. Media other than base64 images has no pi-ai part and is reported.
 *
 * @example
 * ```ts
 * const { context } = toPiAi(conversation.toJSON());
 * ```
 */
export function toPiAi(transcript: Transcript | string): { context: JsonObject; diagnostics: Diagnostic[] };

/**
 * Checks a request body against every strict rule of `provider` that one body can show and
 * returns the violations (rule id, JSON path, message); an empty array means none is broken.
 * The body may be an object, JSON text or the bytes `renderBody` returned. Give `model` for
 * the rules that depend on a model the body does not name (Gemini 3 signatures, GEM-05), and
 * `host` for a body sent to a host other than the provider's own (its envelope: Bedrock's and
 * Vertex's `anthropic_version` in the body and no `model`; what it refuses; HST-00 when it does
 * not serve the provider).
 *
 * @example
 * ```ts
 * const problems = validateRequest("anthropic", renderBody(history, options));
 * validateRequest("anthropic", renderBody(history, { ...options, host: "vertex" }), "claude-sonnet-4-5", "vertex");
 * ```
 */
export function validateRequest(provider: Provider, body: JsonObject | string | Uint8Array, model?: string | null, host?: Host | null): Violation[];

/**
 * The size of this module's WebAssembly memory in bytes. It grows when needed and never
 * shrinks; a value that stays put across many calls means nothing is leaking.
 */
export function wasmMemoryBytes(): number;

declare global {
    interface SymbolConstructor {
        /** The method `using` calls at the end of its block (ES2026 explicit resource management). */
        readonly dispose: unique symbol;
    }
}

// ---- The JavaScript half of the API (js/*.mts: streamTurn, ProviderError, SseParser, …) ----

/**
 * The part of an `AbortSignal` that turnwire uses, for hosts whose type declarations have none.
 *
 * @example
 * ```ts
 * const signal: MinimalAbortSignal = new AbortController().signal;
 * ```
 */
export interface MinimalAbortSignal {
    readonly aborted: boolean;
    readonly reason: unknown;
    addEventListener(type: "abort", listener: () => void, options?: {
        once?: boolean;
    }): void;
    removeEventListener(type: "abort", listener: () => void): void;
}
/**
 * The host's `AbortSignal` type where its declarations have one (the DOM lib, `@types/node`,
 * Deno, Bun, Workers), else `MinimalAbortSignal`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * const signal: AbortSignalLike = controller.signal;
 * ```
 */
export type AbortSignalLike = typeof globalThis extends {
    AbortSignal: {
        prototype: infer T;
    };
} ? T : MinimalAbortSignal;
/**
 * What `streamTurn` passes to `fetch`: always a POST with a JSON body (a string rendered by
 * turnwire), the provider's headers, `redirect: "manual"` (turnwire follows only a same-origin
 * 307 or 308 itself), and the caller's `signal` when one was given.
 *
 * @example
 * ```ts
 * const logging: TurnFetch = (url, init) => {
 *   console.log(init.method, url, init.body.length, "bytes");
 *   return fetch(url, init);
 * };
 * ```
 */
export interface TurnFetchInit {
    method: "POST";
    headers: Record<string, string>;
    body: string;
    /** Always `"manual"`: a redirect comes back to turnwire, which never follows one to another origin. */
    redirect?: "manual";
    signal?: AbortSignalLike;
}
/**
 * One read of a response body reader (a `ReadableStreamDefaultReader<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const r: TurnByteReadResult = await reader.read();
 * if (!r.done) console.log(r.value.byteLength);
 * ```
 */
export type TurnByteReadResult = {
    done: true;
    value?: Uint8Array | undefined;
} | {
    done: false;
    value: Uint8Array;
};
/**
 * A response body reader (a `ReadableStreamDefaultReader<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const reader: TurnByteReader = response.body.getReader();
 * ```
 */
export interface TurnByteReader {
    read(): Promise<TurnByteReadResult>;
    cancel(reason?: unknown): Promise<void>;
    releaseLock(): void;
}
/**
 * A response body (a `ReadableStream<Uint8Array>` fits).
 *
 * @example
 * ```ts
 * const body: TurnByteStream = new Response("data: {}\n\n").body!;
 * ```
 */
export interface TurnByteStream {
    getReader(): TurnByteReader;
}
/**
 * What the injected `fetch` must resolve with (a `Response` fits).
 *
 * @example
 * ```ts
 * const fake: TurnFetch = async () => new Response(sseText, { headers: { "content-type": "text/event-stream" } });
 * ```
 */
export interface TurnFetchResponse {
    readonly status: number;
    /** `"opaqueredirect"` for a redirect a browser hides (refused: its target cannot be checked). */
    readonly type?: string;
    readonly headers: {
        get(name: string): string | null;
    };
    readonly body: TurnByteStream | null;
    text(): Promise<string>;
}
/**
 * The `fetch` streamTurn sends with: `globalThis.fetch` by default; any function of this shape
 * (a proxy, a logger, a test double returning a `Response` over a `ReadableStream`). It is asked
 * for `redirect: "manual"`; one that ignores that and follows redirects itself (to another
 * origin, with the key) does so on its caller's behalf, not turnwire's.
 *
 * @example
 * ```ts
 * const turn = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", conversation, fetch: (url, init) => fetch(url, init) });
 * ```
 */
export type TurnFetch = (url: string, init: TurnFetchInit) => Promise<TurnFetchResponse>;
/**
 * Render options besides the target (`provider` and `model` come from the turn's options).
 * `endpoint` defaults to the turn's base URL; `extra` is merged over the streaming switches
 * (`stream`, `stream_options`), so a key given here wins.
 *
 * @example
 * ```ts
 * const render: TurnRenderOptions = { maxTokens: 8192, thinking: { enabled: true, budgetTokens: 2048 }, tools };
 * ```
 */
export type TurnRenderOptions = Omit<RenderOptions, "provider" | "model">;
/**
 * AWS credentials and the region a turn is signed for (AWS Signature Version 4: Bedrock).
 *
 * @example
 * ```ts
 * const aws: AwsTurnCredentials = { region: "us-east-1", accessKeyId: process.env.AWS_ACCESS_KEY_ID!, secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY!, sessionToken: process.env.AWS_SESSION_TOKEN };
 * ```
 */
export interface AwsTurnCredentials extends AwsCredentials {
    /** The region (`us-east-1`): where the request goes and what it is signed for. */
    region: string;
}
/**
 * Options of `streamTurn` shared by both history forms.
 *
 * @example
 * ```ts
 * const common: StreamTurnCommonOptions = { provider: "openai-chat", model: "gpt-5.2", apiKey: process.env.OPENAI_API_KEY };
 * ```
 */
export interface StreamTurnCommonOptions {
    /** The wire format to talk. */
    provider: Provider;
    /** The model to ask. */
    model: string;
    /**
     * Sent as the provider wants it (`x-api-key`, `Authorization: Bearer`, `x-goog-api-key`); left
     * out, no auth header is sent. Never in an error, event or result.
     */
    apiKey?: string | undefined;
    /**
     * AWS credentials to sign the request with (SigV4), for a provider on AWS (Bedrock) instead of
     * an `apiKey`; the signature is computed in JS on WebCrypto before each send. The secret key
     * and session token are never sent, nor in an error, event or result.
     */
    aws?: AwsTurnCredentials | undefined;
    /** The region of a provider whose URL names one (Bedrock) when `aws` does not give it (a Bedrock API key's turn). */
    region?: string | undefined;
    /**
     * Who serves the provider's wire API (default: the provider's own API), as `providerRequest`'s
     * `host`: the turn goes to the host's URL with its auth, renders with the host's body envelope
     * and stamps the host on the message's provenance (`bedrock`: Claude on InvokeModel, signed
     * with `aws` or a Bedrock API key; `vertex`: an OAuth access token as `apiKey`; `azure`: the
     * key in `api-key`, the deployment as `model`). An unknown host, or one that does not serve
     * `provider`: a TurnwireError `invalid_value` at `$.host`.
     */
    host?: Host | undefined;
    /** The Google Cloud project of a `vertex` turn. */
    project?: string | undefined;
    /** The Azure resource of an `azure` or `foundry` turn. */
    resource?: string | undefined;
    /**
     * The provider's base URL, as its SDK takes it (`DEFAULT_BASE_URLS` when left out; required
     * for `openai-compatible`). A mock provider's `baseURL` works as it is. Credentials in it
     * (`https://user:password@proxy`) go as basic auth and are shown nowhere.
     */
    baseURL?: string | undefined;
    /** Render options besides provider and model: tools, system, maxTokens, thinking, extra, … */
    render?: TurnRenderOptions | undefined;
    /** Aborting ends the turn cleanly: the result resolves with `aborted: true` and what arrived. */
    signal?: AbortSignalLike | undefined;
    /** The fetch to send with (default `globalThis.fetch`). */
    fetch?: TurnFetch | undefined;
    /** Extra request headers; they win over turnwire's. */
    headers?: Record<string, string> | undefined;
    /**
     * A string unique to this turn, for ids of calls the provider sent without one and without a
     * response id (default: `turn-` and the history's size, its number of messages, so each turn
     * of a conversation gets its own).
     */
    idSeed?: string | undefined;
    /**
     * The longest wait for the next bytes of the answer, in ms (default `DEFAULT_IDLE_TIMEOUT_MS`,
     * 300,000: reasoning models can think for minutes between events). Past it the turn fails with
     * a `ProviderError` of kind `"timeout"` (`errorType: "idle_timeout"`, retryable) whose
     * `.result` holds what arrived. `0` or `Infinity`: no limit. Each limit below takes the same
     * values: left out, its default; a positive number; `0` or `Infinity` for no limit. Anything
     * else (a string, `NaN`, a negative number, `null`) rejects the turn with a `TurnwireError`
     * naming the option (`code` `"invalid_type"` or `"invalid_value"`), before anything is sent.
     */
    idleTimeoutMs?: number | undefined;
    /**
     * The longest the whole turn may take, in ms (default `DEFAULT_TURN_TIMEOUT_MS`, one hour: a
     * stream that trickles under the idle timeout still ends); past it, `errorType: "turn_timeout"`.
     */
    timeoutMs?: number | undefined;
    /**
     * The most bytes one SSE event (or JSON chunk) may take before it is complete (default
     * `DEFAULT_MAX_EVENT_BYTES`, 16 MiB); past it the turn fails with kind `"limit"`
     * (`errorType: "event_too_large"`, not retryable), what arrived kept.
     */
    maxEventBytes?: number | undefined;
    /**
     * The most bytes the whole streamed answer may take (default `DEFAULT_MAX_REPLY_BYTES`, 64 MiB);
     * past it the turn fails with kind `"limit"` (`errorType: "reply_too_large"`, not retryable),
     * what arrived kept. It stops an endless stream of valid events.
     */
    maxReplyBytes?: number | undefined;
    /** The most bytes read of a non-2xx answer's body (default `DEFAULT_MAX_ERROR_BODY_BYTES`, 64 KiB). */
    maxErrorBodyBytes?: number | undefined;
}
/**
 * Options of `streamTurn`: the common options and either a `Conversation` (the turn's message
 * is appended to it) or a transcript (the caller appends `result.message`).
 *
 * @example
 * ```ts
 * const options: StreamTurnOptions = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation };
 * ```
 */
export type StreamTurnOptions = StreamTurnCommonOptions & ({
    /** The history; the turn's message (a partial one too) is appended to it. */
    conversation: Conversation;
    transcript?: undefined;
} | {
    /** The history (a value or its JSON text); append `result.message` yourself. */
    transcript: Transcript | string;
    conversation?: undefined;
});
/**
 * Where a turn's request went.
 *
 * @example
 * ```ts
 * const { url, provider, model }: TurnRequest = result.request;
 * ```
 */
export interface TurnRequest {
    /** The URL, without credentials or a secret query value (`?key=REDACTED`). */
    url: string;
    provider: Provider;
    model: string;
}
/**
 * What a turn ends with: the decoder's outcome (the canonical message, usage, stop reason,
 * `incomplete`, every stream problem), the render's diagnostics, id map and renamed tools, where
 * the request went, and whether the caller aborted it.
 *
 * @example
 * ```ts
 * const result: TurnResult = await streamTurn({ provider: "gemini", model: "gemini-3-pro-preview", conversation });
 * for (const b of result.message.blocks) if (b.type === "tool_call") run(b.name, b.parameters);
 * ```
 */
export interface TurnResult extends StreamOutcome {
    /** The repairs the render made to the history before sending it. */
    diagnostics: Diagnostic[];
    /** Canonical call id → the id sent to the provider. */
    idMap: Record<string, string>;
    /** Tool names that had to change for the provider: canonical → sent. */
    toolNames: Record<string, string>;
    request: TurnRequest;
    /** The caller's signal ended the turn before the stream did (then `incomplete` is true too). */
    aborted: boolean;
    /**
     * The message was appended to the options' `conversation` (false with a transcript, and when
     * nothing arrived).
     */
    appended: boolean;
}
/**
 * One streamed turn: iterate it for deltas (text, reasoning, tool-call progress, usage, and the
 * decoder's `{ type: "error" }` entries), and await it (or its `result`) for the `TurnResult`.
 * The request is sent at once and the stream is read whether or not anyone iterates; leaving
 * the loop early stops the deltas, not the turn (abort the `signal` for that). It can be
 * iterated once. A failure rejects `result` and is thrown by the loop, too.
 *
 * @example
 * ```ts
 * const turn = streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation });
 * for await (const d of turn) if (d.type === "text") process.stdout.write(d.text);
 * const { message, usage, stopReason } = await turn;
 * ```
 */
export interface TurnStream extends AsyncIterable<StreamDelta>, PromiseLike<TurnResult> {
    /** The turn's result; the same promise `await turn` waits for. */
    readonly result: Promise<TurnResult>;
}

/**
 * Where a `ProviderError` came from: a non-2xx answer (`"http"`; a redirect turnwire refused to
 * follow too, `errorType: "redirect_refused"`), no answer at all (`"network"`: fetch threw, DNS,
 * refused connection, CORS; or a header value fetch would refuse, `errorType: "invalid_header"`,
 * nothing sent), an error the provider sent inside a 200 stream
 * (`"stream"`), a stream that ended before its terminal event (`"incomplete"`), a stream that
 * went silent or ran past the turn's time (`"timeout"`), one past a size limit (`"limit"`), or a
 * 2xx answer that is neither a stream nor a response (`"unexpected"`: an HTML login page, an
 * empty body, a 204).
 *
 * @example
 * ```ts
 * if (isProviderError(e) && e.kind === "http" && e.status === 401) askForAnotherKey();
 * ```
 */
export type ProviderErrorKind = "http" | "network" | "stream" | "incomplete" | "timeout" | "limit" | "unexpected";
/**
 * The fields of a `ProviderError`.
 *
 * @example
 * ```ts
 * const init: ProviderErrorInit = { kind: "http", provider: "anthropic", status: 529, errorType: "overloaded_error", message: "Overloaded", retryable: true };
 * ```
 */
export interface ProviderErrorInit {
    kind: ProviderErrorKind;
    provider: Provider;
    status: number;
    errorType: string;
    message: string;
    retryable: boolean;
    retryAfterMs?: number | undefined;
    body?: unknown;
    request?: TurnRequest | undefined;
    result?: TurnResult | undefined;
    cause?: unknown;
}
/** The longest retry delay a `retry-after` header is taken at (one hour); longer ones are clamped to it. */
export declare const MAX_RETRY_AFTER_MS = 3600000;
/**
 * A provider failed the turn. `retryable` says whether the same request may succeed later or
 * elsewhere (429, 5xx, 529 / overloaded, Gemini `UNAVAILABLE` / `RESOURCE_EXHAUSTED`, network
 * failures, cut streams: true; 400, 401, 403, 404, quota exhausted: false): the signal for
 * failover. On an HTTP or network error nothing was appended to the conversation; on a
 * `"stream"` or `"incomplete"` error the partial message was (it is `result.message`). Its
 * message, stack, `body` and `cause` never hold the request's API key, auth header values or
 * base URL password (a provider that echoes them gets `[redacted]`).
 *
 * @example
 * ```ts
 * try {
 *   await streamTurn({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey, conversation });
 * } catch (e) {
 *   if (!isProviderError(e) || !e.retryable) throw e;
 *   await sleep(e.retryAfterMs ?? 1000);
 *   await streamTurn({ provider: "openai-chat", model: "gpt-5.2", apiKey: openaiKey, conversation });
 * }
 * ```
 */
export declare class ProviderError extends Error {
    readonly name: "ProviderError";
    readonly kind: ProviderErrorKind;
    readonly provider: Provider;
    /** The HTTP status: the error answer's, 200 for errors inside a stream, 0 when there was no answer. */
    readonly status: number;
    /**
     * The provider's own error type: Anthropic `error.type`, OpenAI `error.code` (else `type`),
     * Gemini `error.status`, Mistral / Kimi / DeepSeek `type`; `"network"`, `"incomplete_stream"`,
     * `"redirect_refused"`, `"invalid_header"`, or `http_<status>` when the answer named none.
     */
    readonly errorType: string;
    /** Whether retrying (later, or with another provider) may succeed. */
    readonly retryable: boolean;
    /** How long the provider asked to wait (`retry-after-ms`, `retry-after`), if it did. */
    readonly retryAfterMs: number | undefined;
    /** The parsed error body (or its text); for a stream error, the error event's payload. */
    readonly body: unknown;
    /** Where the request went. */
    readonly request: TurnRequest | undefined;
    /** For `"stream"` and `"incomplete"` errors: the partial turn, already appended. */
    readonly result: TurnResult | undefined;
    constructor(init: ProviderErrorInit);
}
/**
 * Whether `value` is a `ProviderError` (from any copy of the package: ESM and CommonJS ones
 * are different classes, so prefer this to `instanceof`).
 *
 * @example
 * ```ts
 * catch (e) { if (isProviderError(e) && e.retryable) return failover(); throw e; }
 * ```
 */
export declare function isProviderError(value: unknown): value is ProviderError;
/**
 * A second turn was started on a `Conversation` whose turn is still in flight, or the
 * conversation was freed during its turn. A turn in flight owns its conversation until it
 * settles: await it (or abort it) first. `code` is `"turn_in_flight"`.
 *
 * @example
 * ```ts
 * try { await streamTurn({ ...options, conversation }); } catch (e) { if (isTurnInFlightError(e)) await previousTurn; }
 * ```
 */
export declare class TurnInFlightError extends Error {
    readonly name: "TurnInFlightError";
    readonly code: "turn_in_flight";
}
/**
 * Whether `value` is a `TurnInFlightError` (from any copy of the package).
 *
 * @example
 * ```ts
 * if (isTurnInFlightError(e)) console.log("one turn at a time per conversation");
 * ```
 */
export declare function isTurnInFlightError(value: unknown): value is TurnInFlightError;

/**
 * Each provider's public base URL, in the form its SDK takes it (what `baseURL` replaces).
 * OpenAI-compatible servers have none: give theirs. Bedrock's names `{region}` (the `region`
 * option fills it in); Ollama's is the local server's.
 *
 * @example
 * ```ts
 * DEFAULT_BASE_URLS.anthropic; // "https://api.anthropic.com"
 * ```
 */
export declare const DEFAULT_BASE_URLS: Readonly<Record<Exclude<Provider, "openai-compatible">, string>>;
/**
 * What `providerRequest` needs.
 *
 * @example
 * ```ts
 * const o: ProviderRequestOptions = { provider: "gemini", model: "gemini-3-pro-preview", apiKey: "…" };
 * ```
 */
export interface ProviderRequestOptions {
    provider: Provider;
    model: string;
    apiKey?: string | undefined;
    /** Default `DEFAULT_BASE_URLS[provider]`; a trailing `/` is ignored. */
    baseURL?: string | undefined;
    /** The region of a provider or host whose default base URL names one (Bedrock: `us-east-1`; Vertex: `us-east5`, `global`). */
    region?: string | undefined;
    /**
     * Who serves the provider's wire API (default: the provider's own API): `bedrock` (Claude on
     * InvokeModel), `vertex` (Claude, Gemini), `azure` and `foundry`, `openrouter`, `xai`,
     * `deepseek`, `kimi`, `zai`, `bedrock-mantle`, `ollama`… The URL, auth and version header
     * are the host's; render with the same `host`. A name that is not a host, or a host that does
     * not serve `provider`, is a TurnwireError `invalid_value` at `$.host`.
     */
    host?: Host | undefined;
    /** The Google Cloud project of a Vertex request (without one, a Vertex Gemini `apiKey` is an express-mode key). */
    project?: string | undefined;
    /** The Azure resource of an `azure` or `foundry` request (`https://{resource}.openai.azure.com`). */
    resource?: string | undefined;
    /** Extra headers; they win over turnwire's. */
    headers?: Record<string, string> | undefined;
}
/**
 * A provider's streaming request, except its body.
 *
 * @example
 * ```ts
 * const { url, headers, extra } = providerRequest({ provider: "openai-chat", model: "gpt-5.2", apiKey });
 * const body = renderBody(history, { provider: "openai-chat", model: "gpt-5.2", extra });
 * const response = await fetch(url, { method: "POST", headers, body });
 * ```
 */
export interface ProviderRequest {
    /** Where to POST. */
    url: string;
    /** The base URL it was made from (without a trailing `/`, nor credentials). */
    baseURL: string;
    /** `content-type`, `accept`, the auth header and version headers, then the caller's. */
    headers: Record<string, string>;
    /**
     * The body fields that switch streaming on, for the render's `extra`: `stream: true`
     * (+ `stream_options: { include_usage: true }` for OpenAI Chat, DeepSeek and OpenAI-compatible
     * servers); none for Gemini and Bedrock Converse, which stream by URL.
     */
    extra: JsonObject;
    /** The host the request goes to, when the caller named one. */
    host?: Host | undefined;
    /** `event-stream` when the streamed answer is AWS event-stream frames (Bedrock): push its bytes to the decoder. */
    framing?: "event-stream" | undefined;
}
/**
 * The URL, headers and streaming switches of a streaming request to `provider` (what
 * `streamTurn` sends; also for callers that send with their own client): Anthropic
 * `POST {base}/v1/messages` (`x-api-key`, `anthropic-version: 2023-06-01`), OpenAI Chat, Mistral,
 * Kimi, DeepSeek and OpenAI-compatible `POST {base}/chat/completions` (Bearer), OpenAI
 * Responses `POST {base}/responses` (Bearer), Gemini
 * `POST {base}/v1beta/models/{model}:streamGenerateContent?alt=sse` (`x-goog-api-key`), Bedrock
 * Converse `POST {base}/model/{model}/converse-stream` (the model id URL-encoded once; base
 * `https://bedrock-runtime.{region}.amazonaws.com`; a Bedrock API key as Bearer, or `aws`
 * credentials in `streamTurn`; AWS event-stream answers), Ollama `POST {base}/api/chat` (base
 * `http://localhost:11434`; no key needed, one given goes as Bearer; NDJSON answers).
 * A base URL with credentials (`https://user:password@proxy`, which `fetch` refuses) is used
 * without them, and they go as `authorization: Basic …`. Throws a `TypeError` for an unknown
 * provider, a missing base URL (OpenAI-compatible), one that is not an absolute URL, or one with
 * credentials when the request has an `authorization` header already (its message never shows
 * them).
 *
 * @example
 * ```ts
 * providerRequest({ provider: "gemini", model: "gemini-3-pro-preview", apiKey: "k" }).url;
 * // "https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:streamGenerateContent?alt=sse"
 * ```
 */
export declare function providerRequest(options: ProviderRequestOptions): ProviderRequest;
/** The providers with a token-counting endpoint (`renderCountTokens`). */
export type CountingProvider = "anthropic" | "openai-responses" | "gemini";
/**
 * The URL and headers of a token-counting request (its body is `renderCountTokens`'s):
 * Anthropic `POST {base}/v1/messages/count_tokens`, OpenAI Responses
 * `POST {base}/responses/input_tokens`, Gemini `POST {base}/v1beta/models/{model}:countTokens`,
 * with the auth and version headers of `providerRequest`. Throws a `TypeError` for a provider
 * without one, or a bad base URL.
 *
 * @example
 * ```ts
 * const { url, headers } = countTokensRequest({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey });
 * const body = JSON.stringify(renderCountTokens(history, { provider: "anthropic", model: "claude-sonnet-4-5" }).body);
 * const { input_tokens } = await (await fetch(url, { method: "POST", headers, body })).json();
 * ```
 */
export declare function countTokensRequest(options: ProviderRequestOptions & {
    provider: CountingProvider;
}): {
    url: string;
    headers: Record<string, string>;
};

/**
 * One server-sent event.
 *
 * @example
 * ```ts
 * const e: SseEvent = { event: "message", data: "[DONE]", id: undefined, lastEventId: "" };
 * ```
 */
export interface SseEvent {
    /** The `event:` field, `"message"` when the event named none (WHATWG). */
    event: string;
    /** The `data:` lines joined with `\n`. */
    data: string;
    /** The `id:` field of this event's own lines, if it had one. */
    id: string | undefined;
    /** The last event ID of the stream so far (WHATWG `lastEventId`: `id:` fields persist). */
    lastEventId: string;
}
/**
 * Callbacks of an `SseParser`.
 *
 * @example
 * ```ts
 * const parser = new SseParser({ onEvent: (e) => console.log(e.data), onComment: (c) => console.debug(":", c) });
 * ```
 */
export interface SseParserOptions {
    /** Every event, as soon as its blank line arrives. */
    onEvent(event: SseEvent): void;
    /** A `retry:` field that is all ASCII digits: the reconnection time in ms. */
    onRetry?(ms: number): void;
    /** A comment line (`: keep-alive`), without the colon and one leading space. */
    onComment?(text: string): void;
}
/**
 * A WHATWG-conformant `text/event-stream` parser: feed it bytes (UTF-8, decoded across chunk
 * boundaries; a leading BOM is dropped) or text, cut anywhere; it calls `onEvent` for each
 * event. Lines end with CR, LF or CRLF (also split across chunks); `data:` lines join with `\n`;
 * `event:`, `id:` and `retry:` follow the spec; comments and unknown fields are skipped. An
 * event not closed by a blank line when the stream ends is dropped, as the spec says.
 *
 * @example
 * ```ts
 * const parser = new SseParser((e) => console.log(e.event, JSON.parse(e.data)));
 * const reader = response.body!.getReader();
 * for (let r = await reader.read(); !r.done; r = await reader.read()) parser.feed(r.value);
 * parser.end();
 * ```
 */
export declare class SseParser {
    #private;
    /** Takes `onEvent`, or every callback as `SseParserOptions`. */
    constructor(options: SseParserOptions | ((event: SseEvent) => void));
    /** Parses the next piece of the stream: bytes (UTF-8) or text; use one kind per stream. */
    feed(chunk: Uint8Array | string): void;
    /**
     * Whether an event has begun and not ended: a field line (`data:`, `event:`, …) or part of a
     * line arrived since the last blank line. A comment then is inside the event, not between two.
     *
     * @example
     * ```ts
     * parser.feed("data: {\n");
     * parser.inEvent; // true, until the blank line
     * ```
     */
    get inEvent(): boolean;
    /** The stream ended: flushes the UTF-8 decoder; an unfinished event is dropped. The parser can then read a new stream. */
    end(): void;
}
/**
 * Splits a streamed JSON array (`[{…},\r\n{…}]`, what Gemini's `:streamGenerateContent` answers
 * without `alt=sse`) or a sequence of JSON values (NDJSON, concatenated JSON) into the text of
 * each top-level element, as soon as it is complete. The first non-blank character decides: `[`
 * is the array wrapper, anything else starts a sequence. Text inside strings (brackets,
 * escaped quotes) is never mistaken for structure. It does not validate the JSON: the
 * StreamDecoder parses each element. An element cut off by the end of the stream is dropped.
 *
 * @example
 * ```ts
 * const parser = new JsonArrayParser((json) => decoder.push(json));
 * parser.feed('[{"candidates":[]}');
 * parser.feed(',\r\n{"candidates":[]}]');
 * parser.end();
 * ```
 */
export declare class JsonArrayParser {
    #private;
    constructor(onValue: (json: string) => void);
    /** Parses the next piece: bytes (UTF-8) or text; use one kind per stream. */
    feed(chunk: Uint8Array | string): void;
    /** The stream ended: a last scalar is emitted; an unfinished object or array is dropped. */
    end(): void;
}

/** The default idle timeout of `streamTurn` (ms): reasoning models can think for minutes between events. */
export declare const DEFAULT_IDLE_TIMEOUT_MS = 300000;
/**
 * The default longest a whole streamed turn may take (ms): one hour. The official SDKs time a
 * request out after 10 minutes (`DEFAULT_TIMEOUT = 600000` in openai and @anthropic-ai/sdk),
 * but only until the answer starts; Anthropic's SDK reckons up to 60 minutes for 128,000 output
 * tokens (`calculateNonstreamingTimeout`), so a long streamed turn gets that, and a stream that
 * trickles a byte at a time under the idle timeout still ends.
 */
export declare const DEFAULT_TURN_TIMEOUT_MS = 3600000;
/** The default most bytes one stream event may take before it is complete (16 MiB). */
export declare const DEFAULT_MAX_EVENT_BYTES: number;
/**
 * The default most bytes a whole streamed answer may take (64 MiB): an endless stream of valid
 * events (a model stuck in a loop behind a proxy, a hostile server) stops there instead of
 * growing the module's memory to its limit. A long reply is well under 1 MiB.
 */
export declare const DEFAULT_MAX_REPLY_BYTES: number;
/** The default most bytes read of a non-2xx answer's body (64 KiB). */
export declare const DEFAULT_MAX_ERROR_BODY_BYTES: number;
/** How long a chat stream may take after its `finish_reason` for its usage chunk and `[DONE]` (ms). */
export declare const AFTER_DONE_GRACE_MS = 2000;

/**
 * Runs one model turn: renders the history with turnwire for `provider` and `model` (with
 * `render` options and the streaming switches), POSTs it with `fetch` to the provider's streaming
 * endpoint, frames the answer (SSE, or Gemini's JSON array), decodes it with a `StreamDecoder`,
 * and returns a `TurnStream`: iterate it for deltas, await it for the `TurnResult`. With
 * `conversation`, the turn's message is appended to it (a partial one too), so the next render
 * continues from it; with `transcript`, append `result.message` yourself. Runs one turn at a
 * time per conversation: a second `streamTurn` on a conversation whose turn is in flight rejects
 * with a `TurnInFlightError`, and so does its `free()` until the turn settles.
 *
 * Failures reject the result (and end the loop with the same error); the function itself never
 * throws:
 * - a non-2xx answer: a `ProviderError` (`kind: "http"`: status, the provider's `errorType` and
 *   message, `retryable`, `retryAfterMs`, the parsed `body`); nothing is appended;
 * - no answer (fetch threw, synchronously or not): `kind: "network"`, `status: 0`, retryable;
 *   nothing is appended;
 * - a redirect turnwire does not follow: `kind: "http"`, `errorType: "redirect_refused"`, not
 *   retryable. The request goes with `redirect: "manual"`; only a 307 or 308 to the same origin
 *   is followed (the same method, headers and body, at most 5 hops): a key and the conversation
 *   never go to another origin. A `fetch` of yours that ignores `redirect` follows as it likes;
 * - a header value `fetch` would refuse (a key with a line break or a NUL): `kind: "network"`,
 *   `errorType: "invalid_header"`, not retryable, nothing sent, the value never in the message;
 * - an error event inside the stream (Anthropic `error`, Responses `response.failed`, an error
 *   chunk): `kind: "stream"`, retryable per its type, with `.result`, the partial turn, whose
 *   message was appended;
 * - a stream that ended or broke before its terminal event: `kind: "incomplete"`,
 *   `errorType: "incomplete_stream"`, retryable, with `.result` (appended);
 * - the module's memory budget (`setMemoryBudget`) ran out while decoding: `kind: "limit"`,
 *   `errorType: "out_of_memory"`, not retryable, with `.result` (appended when memory allowed);
 * - a render error (bad options or history, or `out_of_memory`): the `TurnwireError`; an
 *   unusable base URL: a `TypeError`.
 *
 * No error, event or result holds the API key, an auth header's value or a base URL's password
 * (`https://user:password@host` is sent as basic auth and shown without it).
 *
 * Aborting `signal` is not a failure: the response body is cancelled and the result resolves
 * with `aborted: true`, `incomplete: true` and what arrived, appended (nothing when nothing
 * arrived); the next render closes the open tool calls.
 *
 * @example
 * ```ts
 * import { Conversation, streamTurn } from "turnwire";
 *
 * const conversation = new Conversation([{ speaker: "human", blocks: [{ type: "text", text: "What is in src/?" }] }]);
 * const turn = streamTurn({
 *   provider: "anthropic",
 *   model: "claude-sonnet-4-5",
 *   apiKey: process.env.ANTHROPIC_API_KEY,
 *   conversation,
 *   render: { tools: [{ name: "list_files", parameters: { type: "object", properties: { path: { type: "string" } } } }] },
 * });
 * for await (const d of turn) if (d.type === "text") process.stdout.write(d.text);
 * const { message, stopReason, usage } = await turn; // message is already in `conversation`
 * ```
 */
export declare function streamTurn(options: StreamTurnOptions): TurnStream;

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
        readonly jsonSchema?: {
            readonly input: (options: {
                target: string;
            }) => Record<string, unknown>;
        };
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
export type StandardResult<Output> = {
    readonly value: Output;
    readonly issues?: undefined;
} | {
    readonly issues: ReadonlyArray<{
        readonly message: string;
        readonly path?: ReadonlyArray<PropertyKey | {
            readonly key: PropertyKey;
        }>;
    }>;
};
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
export declare function runToolCalls(message: Message, tools: readonly Tool[], options?: RunToolCallsOptions): Promise<Message>;
/**
 * Runs one tool call on its own, outside a turn loop (REQ-915-035): the same checks, timeout
 * and cancellation as `runToolCalls`, for a utility that needs one tool once.
 *
 * @example
 * ```ts
 * const response = await runToolCall({ type: "tool_call", id: "c1", name: "read_file", parameters: { path: "a.rs" } }, tools);
 * ```
 */
export declare function runToolCall(call: ToolCallBlock, tools: readonly Tool[], options?: Omit<RunToolCallsOptions, "concurrency">): Promise<ToolResponseBlock>;
/**
 * The declarations of `tools` for render options (`RenderOptions.tools`): a Standard Schema
 * becomes its JSON Schema (`~standard.jsonSchema.input`).
 *
 * @example
 * ```ts
 * const body = renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5", tools: toolDeclarations(tools) });
 * ```
 */
export declare function toolDeclarations(tools: readonly Tool[]): ToolDeclaration[];

/**
 * Where a turn can go: a provider, a model, and how to reach them. `render` options are merged
 * over the turn's (this target's system prompt, thinking, maxTokens…). A `Target` is the
 * caller's configuration, its key included: the router hands back only its `TargetInfo`.
 *
 * @example
 * ```ts
 * const claude: Target = { provider: "anthropic", model: "claude-sonnet-4-5", apiKey: process.env.ANTHROPIC_API_KEY };
 * ```
 */
export interface Target {
    provider: Provider;
    model: string;
    apiKey?: string | undefined;
    /** AWS credentials to sign with instead of an `apiKey` (Bedrock); never in an event. */
    aws?: AwsTurnCredentials | undefined;
    /** The region of a provider whose URL names one (Bedrock), when `aws` does not give it. */
    region?: string | undefined;
    /** Who serves the target's wire API (`bedrock`, `vertex`, `azure`, `openrouter`…; `streamTurn`'s `host`). */
    host?: Host | undefined;
    /** The Google Cloud project of a `vertex` target. */
    project?: string | undefined;
    /** The Azure resource of an `azure` or `foundry` target. */
    resource?: string | undefined;
    baseURL?: string | undefined;
    headers?: Record<string, string> | undefined;
    render?: TurnRenderOptions | undefined;
    fetch?: TurnFetch | undefined;
    /** A name for `switchTo` and events (default `provider:model`). */
    name?: string | undefined;
}
/**
 * What the router tells about a target — in its events, results, attempts and `current` — with
 * nothing secret: its name, provider, model and base URL (without credentials or key query
 * values; absent when the provider's default is used). Never its `apiKey`, `headers`, `fetch`
 * or `render` options. Safe to log.
 *
 * @example
 * ```ts
 * const onEvent = (e: RouterEvent) => { if (e.type === "attempt") console.log(e.target); }; // { name, provider, model, baseURL? }
 * ```
 */
export interface TargetInfo {
    readonly name: string;
    readonly provider: Provider;
    readonly model: string;
    readonly baseURL?: string | undefined;
}
/**
 * How a router picks targets:
 * - `"manual"` (default): the current target until `switchTo`; a retryable failure is retried
 *   on it after a backoff;
 * - `"round-robin"`: each turn goes to the next target; a retryable failure moves the turn to
 *   the next target, and the rotation goes on after the one that answered;
 * - `"failover"`: each turn starts on the first target that is not cooling down; a retryable
 *   failure moves the turn to the next target (one that failed with `retryAfterMs` cools down
 *   that long, else for the backoff).
 *
 * @example
 * ```ts
 * const strategy: RouterStrategy = "failover";
 * ```
 */
export type RouterStrategy = "manual" | "round-robin" | "failover";
/**
 * The delay before retrying a target: `retryAfterMs` when the provider sent one (clamped to
 * `MAX_RETRY_AFTER_MS`), else `initialMs × factor^(retry − 1)`, at most `maxMs` (and at most
 * `MAX_RETRY_AFTER_MS`). `initialMs`: a finite number ≥ 0 (default 500); `factor`: a finite
 * number ≥ 1 (default 2); `maxMs`: a number ≥ 0 or `Infinity` (default 30,000). Anything else
 * is a `TurnwireError` from `createRouter`.
 *
 * @example
 * ```ts
 * const backoff: Backoff = { initialMs: 250, factor: 2, maxMs: 8000 };
 * ```
 */
export interface Backoff {
    initialMs?: number;
    factor?: number;
    maxMs?: number;
}
/**
 * Options of `createRouter`.
 *
 * @example
 * ```ts
 * const options: RouterOptions = { strategy: "failover", maxAttempts: 4, partialReply: "drop" };
 * ```
 */
export interface RouterOptions {
    strategy?: RouterStrategy;
    /**
     * Attempts per turn, the first included: a positive integer, or `Infinity` to retry until the
     * signal aborts (default 3). Anything else (NaN, a string) is a `TurnwireError`.
     */
    maxAttempts?: number;
    backoff?: Backoff;
    /**
     * What becomes of the partial reply of a stream cut short before the turn is tried again:
     * `"drop"` (default) takes it out of the conversation, so the next attempt answers the same
     * history (the reply stays in the event and in the attempt's record); `"keep"` leaves it, and
     * the next attempt continues after it (its unfinished calls get synthetic results).
     */
    partialReply?: "drop" | "keep";
}
/**
 * One attempt of a routed turn.
 *
 * @example
 * ```ts
 * for (const a of result.attempts) console.log(a.target.name, a.error?.errorType ?? "ok");
 * ```
 */
export interface TurnAttempt {
    target: TargetInfo;
    /** The failure, when the attempt failed. */
    error?: ProviderError | undefined;
    /** The partial reply a cut stream left, and whether it was dropped. */
    partial?: {
        message: TurnResult["message"];
        dropped: boolean;
    } | undefined;
    /** How long the router waited before this attempt. */
    waitedMs: number;
}
/**
 * A routed turn's result: the turn's, plus the target that answered and every attempt.
 *
 * @example
 * ```ts
 * const { message, target, attempts } = await router.turn({ conversation });
 * ```
 */
export interface RoutedTurnResult extends TurnResult {
    target: TargetInfo;
    attempts: TurnAttempt[];
}
/**
 * What a router reports while a turn runs (each target as its `TargetInfo`: no key).
 *
 * @example
 * ```ts
 * const onEvent = (e: RouterEvent) => { if (e.type === "retry") console.warn(`retrying on ${e.target.name}`); };
 * ```
 */
export type RouterEvent = {
    type: "attempt";
    target: TargetInfo;
    attempt: number;
} | {
    type: "delta";
    delta: StreamDelta;
    target: TargetInfo;
} | {
    type: "retry";
    error: ProviderError;
    target: TargetInfo;
    waitMs: number;
    attempt: number;
} | {
    type: "switched";
    from: TargetInfo;
    to: TargetInfo;
    deferred: boolean;
};
/**
 * What a routed turn takes: the conversation, and the turn options besides the target's.
 *
 * @example
 * ```ts
 * await router.turn({ conversation, signal, onEvent: (e) => e.type === "delta" && show(e.delta) });
 * ```
 */
export type RoutedTurnOptions = Omit<StreamTurnCommonOptions, "provider" | "model" | "apiKey" | "aws" | "region" | "host" | "project" | "resource" | "baseURL" | "headers" | "fetch"> & {
    conversation: Conversation;
    onEvent?: ((event: RouterEvent) => void) | undefined;
};
/**
 * A router over targets. `turn` runs one turn (retries included) on the conversation and owns
 * it meanwhile; `switchTo` changes the target of the next turn, and waits for the one in
 * flight (REQ-915-050). `targets`, `current` and `pending` are `TargetInfo`s: the keys, headers
 * and fetches stay in the `Target`s the router was given.
 *
 * @example
 * ```ts
 * router.switchTo("openai-chat"); // by provider, "provider:model", name, index or Target
 * ```
 */
export interface Router {
    readonly targets: ReadonlyArray<TargetInfo>;
    readonly strategy: RouterStrategy;
    /** The target the next turn starts on (the one in flight while a turn runs). */
    readonly current: TargetInfo;
    /** A switch asked for while a turn was in flight, applied when it settles. */
    readonly pending: TargetInfo | undefined;
    /** Whether a turn is in flight. */
    readonly inFlight: boolean;
    /** By index, name, provider, `"provider:model"`, one of `targets`, or a `Target` (added when new). */
    switchTo(target: Target | TargetInfo | string | number): void;
    turn(options: RoutedTurnOptions): Promise<RoutedTurnResult>;
}
/**
 * A router over `targets` (REQ-915-002 / 003 / 050: a switch applies to the next turn, never the
 * one in flight; failover on retryable `ProviderError`s, honouring `retryAfterMs`).
 *
 * @example
 * ```ts
 * const router = createRouter(
 *   [{ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: a }, { provider: "gemini", model: "gemini-2.5-pro", apiKey: g }],
 *   { strategy: "failover" },
 * );
 * const { message, target } = await router.turn({ conversation });
 * ```
 */
export declare function createRouter(targets: readonly Target[], options?: RouterOptions): Router;

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
export type AgentEvent = RouterEvent | {
    type: "turn";
    result: RoutedTurnResult;
    turn: number;
} | {
    type: "tool-result";
    response: ToolResponseBlock;
    turn: number;
} | {
    type: "appended";
    message: Message;
    index: number;
};
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
export declare function runAgent(options: RunAgentOptions): Promise<AgentResult>;

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
export declare function contextUsage(usage: Usage, provider: Provider, model: string): ContextUsage;
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
    summarize(messages: Message[], range: {
        start: number;
        end: number;
    }): string | Message | Promise<string | Message>;
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
export declare function compact(conversation: Conversation, options: CompactOptions): Promise<CompactResult>;

/**
 * Usage added up per `provider:model`, with the number of turns.
 *
 * @example
 * ```ts
 * const totals: UsageTotals = { "anthropic:claude-sonnet-4-5": { turns: 3, inputTokens: 5120, outputTokens: 830 } };
 * ```
 */
export type UsageTotals = Record<string, Usage & {
    turns: number;
}>;
/**
 * What a store keeps of a session.
 *
 * @example
 * ```ts
 * const data: SessionData = { version: 1, transcript: convo.toJSON() as Message[], usage: {}, savedAt: new Date().toISOString() };
 * ```
 */
export interface SessionData {
    version: 1;
    /** The messages, in the canonical history shape (`conversation.toJSON()`). */
    transcript: Message[];
    usage: UsageTotals;
    /** The router target the session was on (a name, `provider:model`), to resume on it. */
    target?: string | undefined;
    /** The caller's own data (a title, a working directory…): JSON values. */
    meta?: Record<string, unknown> | undefined;
    /** When it was last written (ISO 8601). */
    savedAt: string;
    /**
     * The session's version in its store, set by `load` (and by `saveSession`): give it back as
     * `ifVersion` to write only if no one else wrote the session since. Never stored as data.
     */
    storeVersion?: string | undefined;
}
/**
 * Options of a store's `save` and `append`: `ifVersion` makes the write conditional — a
 * version string (`storeVersion` from a load or the value a write resolved with) writes only if
 * the session is still at that version, `null` only if there is no session yet; otherwise the
 * write fails with a `SessionStoreError` of code `"session_conflict"` and changes nothing.
 *
 * @example
 * ```ts
 * const loaded = await store.load("s1");
 * const next = await store.append("s1", [message], undefined, { ifVersion: loaded?.storeVersion ?? null });
 * ```
 */
export interface SessionWriteOptions {
    ifVersion?: string | null | undefined;
}
/**
 * Where sessions live. `load` gives the session with its `storeVersion`; `save` replaces a
 * session; `append` adds messages (and replaces the usage totals) without rewriting the history
 * where the store can (files append a line). Both resolve with the session's new version and
 * take `ifVersion` for optimistic concurrency (`SessionWriteOptions`). Every store of turnwire
 * runs one process's calls on one session in the order they were made; `concurrency` says what
 * it guarantees between processes.
 *
 * @example
 * ```ts
 * const store: SessionStore = memoryStore();
 * const version = await store.save("s1", data);
 * await store.append("s1", [message], undefined, { ifVersion: version });
 * ```
 */
export interface SessionStore {
    load(id: string): Promise<SessionData | undefined>;
    save(id: string, data: SessionData, options?: SessionWriteOptions): Promise<string | void>;
    append(id: string, messages: readonly Message[], usage?: UsageTotals, options?: SessionWriteOptions): Promise<string | void>;
    delete(id: string): Promise<void>;
    /**
     * What `ifVersion` guarantees when several processes write one session: `"atomic"` — the
     * check and the write are one step, the loser of a race always gets `session_conflict`
     * (files, memory, IndexedDB, Redis, a key-value store with `compareAndSet`);
     * `"check-then-write"` — a stale version is caught, but two writes at the same instant can
     * both pass (a key-value store without `compareAndSet`, such as Workers KV). A store without
     * the member makes no promise.
     */
    readonly concurrency?: "atomic" | "check-then-write";
}
/**
 * Adds one turn's usage to the totals of its provider and model.
 *
 * @example
 * ```ts
 * addUsage(totals, result.target.provider, result.target.model, result.usage);
 * ```
 */
export declare function addUsage(totals: UsageTotals, provider: Provider | string, model: string, usage: Usage | undefined): UsageTotals;
/**
 * Adds totals to totals (a run's `usageByModel` to a session's usage), turn counts included.
 *
 * @example
 * ```ts
 * mergeUsage(session.usage, result.usageByModel);
 * ```
 */
export declare function mergeUsage(into: UsageTotals, more: UsageTotals): UsageTotals;
/**
 * Prices in a currency per million tokens. `cacheRead` / `cacheWrite` default to `input`.
 *
 * @example
 * ```ts
 * const sonnet: Prices = { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 };
 * ```
 */
export interface Prices {
    input: number;
    output: number;
    cacheRead?: number;
    cacheWrite?: number;
}
/**
 * What `usage` cost: one turn's usage with one price list, or totals with prices per
 * `provider:model` (or per provider); a model with no price is an error naming it.
 * `inputTokens` are the prompt tokens not read from or written to a cache, as turnwire reports
 * them; reasoning is part of `outputTokens`.
 *
 * @example
 * ```ts
 * const dollars = cost(session.usage, { "anthropic:claude-sonnet-4-5": { input: 3, output: 15, cacheRead: 0.3 } });
 * ```
 */
export declare function cost(usage: Usage | UsageTotals, prices: Prices | Record<string, Prices>): number;
/**
 * Saves a conversation, its usage totals, the target it is on and the caller's data. With
 * `ifVersion` (a loaded session's `storeVersion`), only if no one wrote the session since
 * (else a `SessionStoreError` of code `"session_conflict"`). Resolves with what was stored and,
 * when the store reports it, its new `storeVersion`.
 *
 * @example
 * ```ts
 * const saved = await saveSession(store, "s1", { conversation, usage, target: router.current.name });
 * await saveSession(store, "s1", { conversation, usage, ifVersion: saved.storeVersion });
 * ```
 */
export declare function saveSession(store: SessionStore, id: string, session: {
    conversation: Conversation;
    usage?: UsageTotals;
    target?: string;
    meta?: Record<string, unknown>;
    ifVersion?: string | null;
}): Promise<SessionData>;
/**
 * A loaded session: a new `Conversation` over its messages, its usage totals, target, data and
 * `storeVersion` (for `ifVersion`).
 *
 * @example
 * ```ts
 * const session: LoadedSession | undefined = await loadSession(store, "s1");
 * ```
 */
export interface LoadedSession {
    conversation: Conversation;
    usage: UsageTotals;
    target?: string;
    meta?: Record<string, unknown>;
    savedAt: string;
    storeVersion?: string;
}
/**
 * Loads a session into a new `Conversation` (free it when done), or `undefined` when the store
 * has none under `id`. The next request it renders is byte for byte the one the saved
 * conversation would have sent.
 *
 * @example
 * ```ts
 * const session = await loadSession(store, "s1");
 * if (session) router.switchTo(session.target ?? 0);
 * ```
 */
export declare function loadSession(store: SessionStore, id: string): Promise<LoadedSession | undefined>;

/**
 * Why a session store refused:
 * - `"session_conflict"`: the session moved since the version the caller named (`ifVersion`);
 *   load it again, merge, and write with the new version;
 * - `"session_busy"`: another writer held the session for longer than the store waits (files:
 *   its lock; key-value stores: compare-and-set lost too many times in a row);
 * - `"invalid_session_id"`: the id is not a string the store can use as a name;
 * - `"damaged_session"`: what the store holds under the id is not a turnwire session.
 *
 * @example
 * ```ts
 * const code: SessionStoreErrorCode = "session_conflict";
 * ```
 */
export type SessionStoreErrorCode = "session_conflict" | "session_busy" | "invalid_session_id" | "damaged_session";
/**
 * A session store refused a load, save, append or delete. `code` says why; for a conflict,
 * `expectedVersion` is the caller's `ifVersion` and `actualVersion` the session's version now
 * (`undefined` when there is no such session).
 *
 * @example
 * ```ts
 * try {
 *   await store.append(id, [message], usage, { ifVersion: loaded.storeVersion });
 * } catch (e) {
 *   if (isSessionStoreError(e) && e.code === "session_conflict") reloadAndRetry();
 *   else throw e;
 * }
 * ```
 */
export declare class SessionStoreError extends Error {
    readonly name: "SessionStoreError";
    readonly code: SessionStoreErrorCode;
    /** The session's id, as the caller gave it (`String(id)` for a non-string). */
    readonly id: string;
    /** For a conflict: the version the caller expected (`null`: that there was no session). */
    readonly expectedVersion: string | null | undefined;
    /** For a conflict: the session's version now (`undefined`: there is no session). */
    readonly actualVersion: string | undefined;
    constructor(code: SessionStoreErrorCode, id: string, message: string, versions?: {
        expected?: string | null;
        actual?: string | undefined;
    });
}
/**
 * Whether `value` is a `SessionStoreError` (from any copy of the package).
 *
 * @example
 * ```ts
 * if (isSessionStoreError(e) && e.code === "session_conflict") console.log(`moved to ${e.actualVersion}`);
 * ```
 */
export declare function isSessionStoreError(value: unknown): value is SessionStoreError;

/**
 * A key-value store of strings: Cloudflare Workers KV, Vercel KV / Upstash Redis, Deno KV
 * wrapped, a `Map`… `get` answers `null` or `undefined` for a missing key. `compareAndSet`,
 * where the backend has one, writes `value` only if the key still holds `expected` (`null`: only
 * if it is missing) and answers whether it wrote: with it, `ifVersion` is exact and two
 * processes appending to one session never lose a message.
 *
 * @example
 * ```ts
 * const kv: KeyValue = { get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) };
 * // Deno KV: compare-and-set through its versionstamps
 * const denoKv: KeyValue = {
 *   get: async (k) => (await db.get<string>([k])).value,
 *   put: (k, v) => db.set([k], v),
 *   delete: (k) => db.delete([k]),
 *   compareAndSet: async (k, expected, v) => {
 *     const now = await db.get<string>([k]);
 *     if ((now.value ?? null) !== expected) return false;
 *     return (await db.atomic().check(now).set([k], v).commit()).ok;
 *   },
 * };
 * ```
 */
export interface KeyValue {
    get(key: string): Promise<string | null | undefined> | string | null | undefined;
    put(key: string, value: string): Promise<unknown> | unknown;
    delete?(key: string): Promise<unknown> | unknown;
    compareAndSet?(key: string, expected: string | null, value: string): Promise<boolean> | boolean;
}
/**
 * Sessions in this process's memory (tests, a server that keeps them for a while). Writes are
 * atomic (`concurrency: "atomic"`).
 *
 * @example
 * ```ts
 * const store = memoryStore();
 * ```
 */
export declare function memoryStore(): SessionStore;
/**
 * Sessions in a key-value store of strings, one JSON value per session under `prefix + id`.
 * `append` reads, adds and writes the whole value back. With the backend's `compareAndSet` the
 * write is conditional: a concurrent writer's change is read again and kept (appends), or
 * reported (`ifVersion`: `session_conflict`), so `concurrency` is `"atomic"`. Without it (Workers
 * KV has none; a Durable Object's storage can offer one) `ifVersion` is checked just before the
 * write (`"check-then-write"`): keep one writer per session there.
 *
 * @example
 * ```ts
 * // Cloudflare Workers: a KV namespace bound as SESSIONS
 * const store = kvStore({ get: (k) => env.SESSIONS.get(k), put: (k, v) => env.SESSIONS.put(k, v), delete: (k) => env.SESSIONS.delete(k) });
 * ```
 */
export declare function kvStore(kv: KeyValue, options?: {
    prefix?: string;
}): SessionStore;

/**
 * Sessions in the browser's IndexedDB (database `name`, object store `sessions`), each a
 * structured-clone copy of its data. Every write is one read-write transaction, so appends from
 * two tabs never lose a message and `ifVersion` is exact (`concurrency: "atomic"`).
 *
 * @example
 * ```ts
 * const store = indexedDbStore(); // in a page or a worker
 * ```
 */
export declare function indexedDbStore(options?: {
    name?: string;
    factory?: unknown;
}): SessionStore;

/**
 * The one Redis command the store needs, `EVAL`, as a function of the script, its keys and its
 * arguments, answering what Redis answered (arrays, strings, integers, `null`). Upstash's client
 * has exactly this method; for node-redis and ioredis wrap theirs.
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const client = await createClient({ url: "redis://127.0.0.1:6379" }).connect();
 * const redis: RedisLike = { eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) };
 * // ioredis: { eval: (script, keys, args) => io.eval(script, keys.length, ...keys, ...args) }
 * ```
 */
export interface RedisLike {
    eval(script: string, keys: string[], args: string[]): Promise<unknown>;
}
/**
 * Sessions in Redis (Redis 6 or later, Valkey, Upstash, a cluster): `prefix{id}` holds a
 * session's snapshot, `prefix{id}:log` the messages appended since (an append is one `RPUSH`,
 * not a rewrite). Each call is one Lua script, so appends from many processes all land and
 * `ifVersion` is exact (`concurrency: "atomic"`).
 *
 * @example
 * ```ts
 * import { createClient } from "redis";
 * const client = await createClient().connect();
 * const store = redisStore({ eval: (script, keys, args) => client.eval(script, { keys, arguments: args }) });
 * await saveSession(store, "s1", { conversation, usage });
 * ```
 */
export declare function redisStore(redis: RedisLike, options?: {
    prefix?: string;
}): SessionStore;

/** Options of `turnwireMiddleware`. */
export interface TurnwireMiddlewareOptions {
    /** The wrapped model's provider, when `model.provider` does not say it (a custom name). */
    provider?: Provider;
    /** Render options besides provider and model (`thinking`, `trustUnattributedThinking`, …). */
    render?: Omit<RenderOptions, "provider" | "model">;
    /** Called with every repair of a step's prompt (nothing is called when there was none). */
    onDiagnostics?: (diagnostics: Diagnostic[], target: {
        provider: Provider;
        model: string;
    }) => void;
}
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
export declare function providerOfModel(provider: string): Provider;
/** The step's parameters the middleware reads and changes (a V3 / V4 call's options). */
interface StepParams {
    prompt: unknown[];
    tools?: Array<{
        type: string;
        name: string;
        description?: string;
        inputSchema?: unknown;
    }>;
    toolChoice?: {
        type: string;
        toolName?: string;
    };
    providerOptions?: Record<string, Record<string, unknown> | undefined>;
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
export declare function turnwireMiddleware(options?: TurnwireMiddlewareOptions): {
    specificationVersion: "v3";
    transformParams<P extends StepParams>({ params, model }: {
        params: P;
        model: WrappedModel;
    }): Promise<P>;
    wrapGenerate<R extends {
        content?: unknown[];
    }>({ doGenerate, params }: {
        doGenerate: () => PromiseLike<R>;
        params?: object;
    }): Promise<R>;
    wrapStream<R extends {
        stream: unknown;
    }>({ doStream, params }: {
        doStream: () => PromiseLike<R>;
        params?: object;
    }): Promise<R>;
};

/**
 * A function shaped like `fetch`: what `repairingFetch` wraps and returns (the global `fetch`,
 * an SDK's `Fetch` type, a test double).
 *
 * @example
 * ```ts
 * const logging: FetchLike = (url: string, init?: RequestInit) => fetch(url, init);
 * ```
 */
export type FetchLike = (input: never, init?: never) => Promise<unknown>;
/**
 * The host's `fetch` type where its declarations have one (DOM, `@types/node`, Deno, Bun), else
 * a plain `(url, init?) => Promise<unknown>`.
 *
 * @example
 * ```ts
 * const f: GlobalFetch = repairingFetch();
 * ```
 */
export type GlobalFetch = typeof globalThis extends {
    fetch: infer F extends FetchLike;
} ? F : (input: string, init?: Record<string, unknown>) => Promise<unknown>;
/**
 * What a repaired request was: the API its path names, and what it was rendered for.
 *
 * @example
 * ```ts
 * const seen: RepairedRequestInfo = { url: "https://api.openai.com/v1/chat/completions", provider: "openai-chat", model: "gpt-5.2" };
 * ```
 */
export interface RepairedRequestInfo {
    /** Where it was sent, without credentials or a key (`?key=REDACTED`). */
    url: string;
    /** The provider it was rendered for. */
    provider: Provider;
    /** The model it was rendered for. */
    model: string;
}
/**
 * Where `repairingFetch` sends a request: render options set over the body's own, and, for a
 * provider of another API than the client's, how to reach it.
 *
 * @example
 * ```ts
 * const t: RepairingFetchTarget = { provider: "gemini", model: "gemini-2.5-pro", apiKey: process.env.GEMINI_API_KEY };
 * ```
 */
export interface RepairingFetchTarget extends Partial<RenderOptions> {
    /** The target's base URL (default: its public one, `DEFAULT_BASE_URLS`); another API only. */
    baseURL?: string;
    /** The target's API key; another API only (the client's own key goes to its own API). */
    apiKey?: string;
    /** Extra headers for the target; another API only. */
    headers?: Record<string, string>;
}
/**
 * Options of `repairingFetch`.
 *
 * @example
 * ```ts
 * const o: RepairingFetchOptions = { target: { provider: "deepseek" }, onDiagnostics: (d) => console.warn(d) };
 * ```
 */
export interface RepairingFetchOptions<F extends FetchLike = GlobalFetch> {
    /**
     * The `fetch` that sends the repaired request (default `globalThis.fetch`); it is asked for
     * `redirect: "manual"` (one that follows redirects anyway is the caller's business).
     */
    fetch?: F;
    /** Called with the repairs of each request that needed any. */
    onDiagnostics?: (diagnostics: Diagnostic[], request: RepairedRequestInfo) => void;
    /**
     * Render options set over the body's own. `provider` names the dialect of a chat body (the
     * URL's host says it otherwise: api.openai.com, api.mistral.ai, api.moonshot.ai,
     * api.deepseek.com; any other host is `openai-compatible`); `model` re-targets the request.
     * A provider of another API than the client's (an Anthropic client answered by Gemini)
     * needs `model` (and `apiKey`, `baseURL` as that provider wants them): the request goes
     * there, and its answer, streamed or whole, or its error, is written back in the client's
     * format.
     */
    target?: RepairingFetchTarget;
    /**
     * Called with each answer of another API's provider, decoded: its message keeps the
     * continuity tokens (thinking signatures, thought signatures) the client's format has no
     * place for.
     */
    onAnswer?: (outcome: StreamOutcome, request: RepairedRequestInfo) => void;
    /**
     * Called when a body could not be read (not JSON, not a request turnwire knows): the request
     * is then sent as it was, and the provider answers it.
     */
    onError?: (error: unknown, request: {
        url: string;
        provider: Provider;
    }) => void;
}
/**
 * A `fetch` that repairs every provider request an SDK client sends before it goes out: it
 * reads the body (`repairRequestBody`: Anthropic `/v1/messages`, chat `/chat/completions`,
 * Responses `/responses`, Gemini `:generateContent` / `:streamGenerateContent`), renders it
 * again for the same provider — tool results next to their calls, continuity the model cannot
 * replay dropped, ids in the provider's format, with `target`'s options set over the body's —
 * and forwards it with the client's URL, headers and signal. Streaming and whole answers pass
 * through untouched. Other requests (model lists, files, uploads) are forwarded as they are.
 * With a `target` of another API (and its `model`, `apiKey`, `baseURL`), the request goes to
 * that provider and its answer is written back in the client's format, streamed or whole.
 *
 * Every request it sends (repaired, relayed or untouched) goes with `redirect: "manual"` and
 * follows only a redirect to the same origin (a 307 or 308 with the same method, headers and
 * body; a 301, 302 or 303 of a GET): anything else rejects with a `ProviderError`
 * (`errorType: "redirect_refused"`, which an SDK client reports as a connection error with it as
 * `cause`), so a key never reaches another origin. A failed or throwing `fetch` rejects with a
 * `ProviderError` of kind `"network"` (an abort with the fetch's own error). The URLs handed to
 * `onDiagnostics`, `onError` and `onAnswer` have no credentials and no key (`?key=REDACTED`).
 *
 * @example
 * ```ts
 * import OpenAI from "openai";
 * import Anthropic from "@anthropic-ai/sdk";
 * import { GoogleGenAI } from "@google/genai";
 * import { repairingFetch } from "turnwire";
 *
 * const openai = new OpenAI({ fetch: repairingFetch() });
 * const anthropic = new Anthropic({ fetch: repairingFetch({ onDiagnostics: (d) => console.warn(d) }) });
 * const google = new GoogleGenAI({ apiKey, httpOptions: { fetch: repairingFetch() } });
 * const deepseek = new OpenAI({ baseURL: "https://api.deepseek.com", fetch: repairingFetch({ target: { provider: "deepseek" } }) });
 * // an Anthropic client answered by Gemini
 * const claudeShaped = new Anthropic({ apiKey: "unused", fetch: repairingFetch({ target: { provider: "gemini", model: "gemini-2.5-pro", apiKey } }) });
 * ```
 */
export declare function repairingFetch<F extends FetchLike = GlobalFetch>(options?: RepairingFetchOptions<F>): F;

/** AWS credentials: an access key, its secret, and the session token of temporary ones. */
export interface AwsCredentials {
    /** `AKIA…` (long-term) or `ASIA…` (temporary). */
    accessKeyId: string;
    /** The secret access key: signs, is never sent. */
    secretAccessKey: string;
    /** The session token of temporary credentials (STS, SSO, a role): sent as `x-amz-security-token`. */
    sessionToken?: string | undefined;
}
/**
 * What `signAwsRequest` signs.
 *
 * @example
 * ```ts
 * const o: SignAwsRequestOptions = { method: "POST", url, headers, body, credentials, region: "us-east-1", service: "bedrock" };
 * ```
 */
export interface SignAwsRequestOptions {
    /** The HTTP method (`POST`). */
    method: string;
    /**
     * The URL as the request line carries it: its path is signed as written (percent-escapes
     * included, each segment encoded again). `fetch` sends a URL in its WHATWG form (a space as
     * `%20`, non-ASCII percent-encoded), so give `new URL(url).href` for a URL that may hold such
     * characters; `providerRequest`'s URLs are in that form.
     */
    url: string;
    /** The headers that will be sent (a record, `[name, value]` pairs or a `Headers`); all but hop-by-hop and agent headers are signed. */
    headers?: Record<string, string> | ReadonlyArray<readonly [string, string]> | {
        forEach(f: (value: string, name: string) => void): void;
    } | undefined;
    /** The body that will be sent, as text (UTF-8) or bytes; none for an empty body. */
    body?: string | Uint8Array | null | undefined;
    credentials: AwsCredentials;
    /** The region (`us-east-1`). */
    region: string;
    /** The signing name of the service (`bedrock` for Bedrock Runtime). */
    service: string;
    /** The signing time (default now): a `Date` or milliseconds since the epoch. */
    now?: Date | number | undefined;
    /**
     * Whether to send and sign `x-amz-content-sha256` (the body's SHA-256), as the AWS SDKs for
     * JavaScript do for every service. Default true.
     */
    contentSha256?: boolean | undefined;
}
/**
 * The headers that sign a request with AWS Signature Version 4 (header form): `x-amz-date`,
 * `x-amz-security-token` with temporary credentials, `x-amz-content-sha256` (unless
 * `contentSha256: false`) and `authorization`. Add them to the request's headers and send its
 * URL, headers and body unchanged. Rejects with a `TypeError` for missing credentials, region or
 * service, or a host without WebCrypto; its messages never hold the secret.
 *
 * @example
 * ```ts
 * const url = "https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse-stream";
 * const headers = { "content-type": "application/json" };
 * const signed = await signAwsRequest({ method: "POST", url, headers, body, credentials, region: "us-east-1", service: "bedrock" });
 * await fetch(url, { method: "POST", headers: { ...headers, ...signed }, body });
 * ```
 */
export declare function signAwsRequest(options: SignAwsRequestOptions): Promise<Record<string, string>>;
