//! The wire APIs turnwire writes, and the facts about each that every stage asks in place
//! (the way lightningcss handlers ask its `compat.rs`): one row per API, here.
//!
//! The adapters behind each API are in `providers/` (`providers/target.rs` chooses them); the
//! normaliser, the incremental renderer, the importers and the validators ask these facts
//! instead of matching on providers.

use super::Provider;

/// The wire API a provider speaks. Every provider has exactly one; every fact below names
/// every case, so a new provider or API cannot fall through to another's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum WireApi {
    /// Anthropic Messages.
    Messages,
    /// OpenAI Chat Completions and its dialects (Mistral, Kimi, DeepSeek, compatible servers).
    ChatCompletions,
    /// OpenAI Responses.
    Responses,
    /// Gemini generateContent.
    GenerateContent,
    /// AWS Bedrock Converse.
    Converse,
    /// Ollama's native `/api/chat`.
    OllamaChat,
}

/// Where a wire API keeps a tool call and the result that answers it, as the provider reads
/// them. The adapters write these members and the strict validators' pairing rules look them
/// up here; where the results must sit is each validator's own rule (a validator stands in for
/// the provider, so it does not take the renderer's word for the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pairing {
    /// What holds the calls: a block or item `type`, a part's data member, or the assistant
    /// message member that lists them.
    pub call: &'static str,
    /// The member of a call that holds its id.
    pub call_id: &'static str,
    /// What holds one result: a block or item `type`, a part's data member, or a message role.
    pub result: &'static str,
    /// The member of a result that names the call it answers.
    pub result_id: &'static str,
}

impl WireApi {
    /// The API `provider` speaks: the one place a provider is mapped to its wire.
    pub const fn of(provider: Provider) -> WireApi {
        match provider {
            Provider::Anthropic => WireApi::Messages,
            Provider::OpenAiResponses => WireApi::Responses,
            Provider::Gemini => WireApi::GenerateContent,
            Provider::OpenAiChat
            | Provider::Mistral
            | Provider::Kimi
            | Provider::DeepSeek
            | Provider::OpenAiCompatible => WireApi::ChatCompletions,
            Provider::BedrockConverse => WireApi::Converse,
            Provider::Ollama => WireApi::OllamaChat,
        }
    }

    /// The API's name in a message's provenance (`api`).
    pub const fn name(self) -> &'static str {
        match self {
            WireApi::Messages => "messages",
            WireApi::ChatCompletions => "chat-completions",
            WireApi::Responses => "responses",
            WireApi::GenerateContent => "generate-content",
            WireApi::Converse => "converse",
            WireApi::OllamaChat => "ollama-chat",
        }
    }

    /// The body member that holds the wire messages.
    pub const fn messages_key(self) -> &'static str {
        match self {
            WireApi::Messages
            | WireApi::ChatCompletions
            | WireApi::Converse
            | WireApi::OllamaChat => "messages",
            WireApi::Responses => "input",
            WireApi::GenerateContent => "contents",
        }
    }

    /// Whether the system prompt is the first wire message (chat dialects) rather than a body
    /// field of its own.
    pub const fn system_in_messages(self) -> bool {
        match self {
            WireApi::ChatCompletions | WireApi::OllamaChat => true,
            WireApi::Messages
            | WireApi::Responses
            | WireApi::GenerateContent
            | WireApi::Converse => false,
        }
    }

    /// The body fields turnwire derives from the history and the options; `extra` may not set
    /// them (`owned_fields`).
    pub const fn owned_fields(self) -> &'static [&'static str] {
        match self {
            WireApi::Messages => &[
                "model",
                "messages",
                "system",
                "tools",
                "thinking",
                "max_tokens",
                "temperature",
                "top_p",
                "tool_choice",
                "stop_sequences",
                "output_config",
            ],
            WireApi::ChatCompletions => &[
                "model",
                "messages",
                "tools",
                "thinking",
                "max_tokens",
                "max_completion_tokens",
                "reasoning_effort",
                "temperature",
                "top_p",
                "tool_choice",
                "stop",
                "response_format",
            ],
            WireApi::Responses => &[
                "model",
                "input",
                "instructions",
                "tools",
                "store",
                "include",
                "reasoning",
                "temperature",
                "top_p",
                "tool_choice",
                "text",
            ],
            WireApi::GenerateContent => &[
                "contents",
                "systemInstruction",
                "generationConfig",
                "tools",
                "toolConfig",
            ],
            // The model is in the URL (`/model/{modelId}/converse`).
            WireApi::Converse => &[
                "messages",
                "system",
                "toolConfig",
                "inferenceConfig",
                "additionalModelRequestFields",
            ],
            // `options` (sampling, `num_predict`, `stop`) is the render's: the caller's
            // `num_ctx` and the other runner options merge into it through `providerOptions`.
            WireApi::OllamaChat => &["model", "messages", "tools", "think", "format", "options"],
        }
    }

    /// Where the wire keeps a tool call and the result that answers it.
    pub const fn pairing(self) -> Pairing {
        match self {
            // `tool_use` blocks of an assistant message, answered by `tool_result` blocks at
            // the start of the next (user) message.
            WireApi::Messages => Pairing {
                call: "tool_use",
                call_id: "id",
                result: "tool_result",
                result_id: "tool_use_id",
            },
            // An assistant message's `tool_calls`, each answered by one `tool` message right
            // after it.
            WireApi::ChatCompletions => Pairing {
                call: "tool_calls",
                call_id: "id",
                result: "tool",
                result_id: "tool_call_id",
            },
            // `function_call` items, each answered by a `function_call_output` item after it.
            WireApi::Responses => Pairing {
                call: "function_call",
                call_id: "call_id",
                result: "function_call_output",
                result_id: "call_id",
            },
            // `functionCall` parts of a model content, answered by as many `functionResponse`
            // parts in the next (user) content; the `id`s are optional and pair when present.
            WireApi::GenerateContent => Pairing {
                call: "functionCall",
                call_id: "id",
                result: "functionResponse",
                result_id: "id",
            },
            // `toolUse` blocks of an assistant message, answered by `toolResult` blocks of the
            // next (user) message.
            WireApi::Converse => Pairing {
                call: "toolUse",
                call_id: "toolUseId",
                result: "toolResult",
                result_id: "toolUseId",
            },
            // An assistant message's `tool_calls`, each answered by one `tool` message after it
            // that names the tool (`tool_name`); the ids are Ollama 0.12.10's (2025-11-04), and
            // older servers match results by name and order (OLL-01).
            WireApi::OllamaChat => Pairing {
                call: "tool_calls",
                call_id: "id",
                result: "tool",
                result_id: "tool_call_id",
            },
        }
    }

    /// Whether the API replays reasoning as items of their own (Responses `reasoning` items),
    /// which a request must ask to get back encrypted.
    pub const fn reasoning_items(self) -> bool {
        match self {
            WireApi::Responses => true,
            WireApi::Messages
            | WireApi::ChatCompletions
            | WireApi::GenerateContent
            | WireApi::Converse
            | WireApi::OllamaChat => false,
        }
    }

    /// Whether the API's response stream is binary AWS event-stream frames
    /// (`application/vnd.amazon.eventstream`, read with `StreamDecoder::push_bytes`) rather than
    /// server-sent events (or Gemini's JSON array) of JSON text.
    pub const fn event_stream_frames(self) -> bool {
        match self {
            WireApi::Converse => true,
            WireApi::Messages
            | WireApi::ChatCompletions
            | WireApi::Responses
            | WireApi::GenerateContent
            | WireApi::OllamaChat => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_has_one_api_and_its_messages_key() {
        for p in Provider::ALL {
            let api = WireApi::of(p);
            assert_eq!(p.wire_api(), api.name(), "{p}");
            let key = api.messages_key();
            assert!(["messages", "input", "contents"].contains(&key), "{p}");
            assert!(api.owned_fields().contains(&key), "{p}");
            assert_eq!(
                api.system_in_messages(),
                matches!(api, WireApi::ChatCompletions | WireApi::OllamaChat)
            );
        }
    }
}
