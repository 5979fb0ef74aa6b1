//! Render targets: each wire API's adapter behind one trait ([`Target`]), chosen by an
//! exhaustive enum ([`WireApi`]) as the stream decoders are (`src/stream/decoder.rs`).
//!
//! A render, the incremental renderer ([`crate::Conversation`]) and the importers ask the
//! target instead of matching on providers: where the body keeps its wire messages, whether the
//! system prompt is one of them, and how a normalised transcript becomes a body.

use crate::json::out::Out;

use super::{RenderOptions, Resolved};
use crate::normalize::Normalized;
use crate::providers::{anthropic, gemini, openai_chat, openai_responses, Projection, Provider};

/// One wire API's adapter: the shape of its body and how a normalised transcript is written
/// into it. Adapters only project; repairs belong to the normaliser.
pub(crate) trait Target {
    /// The API's name in provenance (`api`).
    const NAME: &'static str;
    /// The body member that holds the wire messages.
    const MESSAGES_KEY: &'static str;
    /// Whether the system prompt is the first wire message (chat dialects) rather than a body
    /// field of its own.
    const SYSTEM_IN_MESSAGES: bool;
    /// The body fields turnwire derives from the history and the options; `extra` may not set
    /// them ([`super::owned_fields`]).
    const OWNED_FIELDS: &'static [&'static str];
    /// Where the wire keeps a tool call and the result that answers it.
    const PAIRING: Pairing;
    /// Whether the API replays reasoning as items of their own (Responses `reasoning` items),
    /// which a request must ask to get back encrypted.
    const REASONING_ITEMS: bool;

    /// Writes the request body of a normalised transcript, with the projection state (ids,
    /// tool names, projection diagnostics) it used; `r` is what the call resolved once.
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection);
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

/// Anthropic Messages.
pub(crate) struct Messages;
/// OpenAI Chat Completions and its dialects (Mistral, Kimi, DeepSeek, compatible servers).
pub(crate) struct ChatCompletions;
/// OpenAI Responses.
pub(crate) struct Responses;
/// Gemini generateContent.
pub(crate) struct GenerateContent;

impl Target for Messages {
    const NAME: &'static str = "messages";
    const MESSAGES_KEY: &'static str = "messages";
    const SYSTEM_IN_MESSAGES: bool = false;
    const OWNED_FIELDS: &'static [&'static str] = &[
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
    ];
    /// `tool_use` blocks of an assistant message, answered by `tool_result` blocks at the start
    /// of the next (user) message.
    const PAIRING: Pairing = Pairing {
        call: "tool_use",
        call_id: "id",
        result: "tool_result",
        result_id: "tool_use_id",
    };
    const REASONING_ITEMS: bool = false;
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        anthropic::render::body(n, o, r)
    }
}

impl Target for ChatCompletions {
    const NAME: &'static str = "chat-completions";
    const MESSAGES_KEY: &'static str = "messages";
    const SYSTEM_IN_MESSAGES: bool = true;
    const OWNED_FIELDS: &'static [&'static str] = &[
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
    ];
    /// An assistant message's `tool_calls`, each answered by one `tool` message right after it.
    const PAIRING: Pairing = Pairing {
        call: "tool_calls",
        call_id: "id",
        result: "tool",
        result_id: "tool_call_id",
    };
    const REASONING_ITEMS: bool = false;
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        openai_chat::render::body(n, o, r)
    }
}

impl Target for Responses {
    const NAME: &'static str = "responses";
    const MESSAGES_KEY: &'static str = "input";
    const SYSTEM_IN_MESSAGES: bool = false;
    const OWNED_FIELDS: &'static [&'static str] = &[
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
    ];
    /// `function_call` items, each answered by a `function_call_output` item after it.
    const PAIRING: Pairing = Pairing {
        call: "function_call",
        call_id: "call_id",
        result: "function_call_output",
        result_id: "call_id",
    };
    const REASONING_ITEMS: bool = true;
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        openai_responses::render::body(n, o, r)
    }
}

impl Target for GenerateContent {
    const NAME: &'static str = "generate-content";
    const MESSAGES_KEY: &'static str = "contents";
    const SYSTEM_IN_MESSAGES: bool = false;
    const OWNED_FIELDS: &'static [&'static str] = &[
        "contents",
        "systemInstruction",
        "generationConfig",
        "tools",
        "toolConfig",
    ];
    /// `functionCall` parts of a model content, answered by as many `functionResponse` parts in
    /// the next (user) content; the `id`s are optional and pair when present.
    const PAIRING: Pairing = Pairing {
        call: "functionCall",
        call_id: "id",
        result: "functionResponse",
        result_id: "id",
    };
    const REASONING_ITEMS: bool = false;
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        gemini::render::body(n, o, r)
    }
}

/// The wire API a provider speaks. Every provider has exactly one; the matches below name
/// every case, so a new provider or API cannot fall through to another's behaviour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WireApi {
    Messages,
    ChatCompletions,
    Responses,
    GenerateContent,
}

/// Dispatches `$body` over the target of `$api` as the type `T`.
macro_rules! with_target {
    ($api:expr, $t:ident => $body:expr) => {
        match $api {
            WireApi::Messages => {
                type $t = Messages;
                $body
            }
            WireApi::ChatCompletions => {
                type $t = ChatCompletions;
                $body
            }
            WireApi::Responses => {
                type $t = Responses;
                $body
            }
            WireApi::GenerateContent => {
                type $t = GenerateContent;
                $body
            }
        }
    };
}

impl WireApi {
    /// The API `provider` speaks.
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
        }
    }

    /// The API's name in provenance ([`Target::NAME`]).
    pub const fn name(self) -> &'static str {
        with_target!(self, T => T::NAME)
    }

    /// [`Target::MESSAGES_KEY`].
    pub const fn messages_key(self) -> &'static str {
        with_target!(self, T => T::MESSAGES_KEY)
    }

    /// [`Target::SYSTEM_IN_MESSAGES`].
    pub const fn system_in_messages(self) -> bool {
        with_target!(self, T => T::SYSTEM_IN_MESSAGES)
    }

    /// [`Target::OWNED_FIELDS`].
    pub const fn owned_fields(self) -> &'static [&'static str] {
        with_target!(self, T => T::OWNED_FIELDS)
    }

    /// [`Target::REASONING_ITEMS`].
    pub const fn reasoning_items(self) -> bool {
        with_target!(self, T => T::REASONING_ITEMS)
    }

    /// [`Target::body`].
    pub fn body<'a>(
        self,
        n: &'a Normalized,
        o: &'a RenderOptions,
        r: &'a Resolved,
    ) -> (Out<'a>, Projection) {
        with_target!(self, T => T::body(n, o, r))
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
            assert_eq!(api.system_in_messages(), api == WireApi::ChatCompletions);
        }
    }

    /// What the validators' pairing rules look up is what the adapters write: a call and its
    /// result, rendered for every provider, hold the members [`Target::PAIRING`] names.
    #[test]
    fn the_adapters_write_the_pairing_members_the_validators_read() {
        let t = crate::Transcript::from_json(
            r#"[{"speaker":"human","blocks":[{"type":"text","text":"list"}]},
                {"speaker":"ai","blocks":[{"type":"tool_call","id":"call_1","name":"ls","parameters":{}}]},
                {"speaker":"tool","blocks":[{"type":"tool_response","callId":"call_1","toolName":"ls","result":"a.txt"}]}]"#,
        )
        .unwrap();
        for p in Provider::ALL {
            let o = RenderOptions::new(p, p.reference_model());
            let body = crate::render_body(&t, &o).unwrap();
            let text = String::from_utf8(body).unwrap();
            let pairing = with_target!(WireApi::of(p), T => T::PAIRING);
            for member in [pairing.call, pairing.result] {
                let quoted = format!("\"{member}\"");
                assert!(text.contains(&quoted), "{p}: no {quoted} in {text}");
            }
            // Gemini pairs by position and name; its ids are optional and turnwire writes none.
            if WireApi::of(p) == WireApi::GenerateContent {
                continue;
            }
            for id in [pairing.call_id, pairing.result_id] {
                let quoted = format!("\"{id}\":");
                assert!(text.contains(&quoted), "{p}: no {quoted} in {text}");
            }
        }
    }
}
