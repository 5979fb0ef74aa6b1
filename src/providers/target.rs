//! The render seam: each wire API's adapter behind one trait ([`Target`]), chosen by the
//! exhaustive [`WireApi`] of `vocab/` (whose facts, such as where the body keeps its wire
//! messages, are asked there in place).
//!
//! [`WireDecoder`] is the same choice for a response stream, [`WireWriter`] for an answer
//! written in a client's format (the relay).
//!
//! A render and the incremental renderer ([`crate::Conversation`]) call [`WireApi::body`]; it
//! is the one `match` from a wire API to its adapter. A new wire API is a folder beside this
//! file with a `render::body`, a [`Target`] here and a row in `vocab/wire_api.rs`.

use crate::json::out::Out;
use crate::normalize::Normalized;
use crate::request::{RenderOptions, Resolved};
use serde_json::{Map, Value};

use super::read::{ImportSource, Imported};
use crate::error::Error;
use crate::vocab::Provider;

use crate::streaming::relay_frame::{data, Frame, RelayOptions};
use crate::streaming::wire::WireFormat;
use crate::streaming::{Delta, StreamOutcome};
use crate::vocab::WireApi;

use super::{
    anthropic, bedrock_converse, gemini, ollama, openai_chat, openai_responses, Projection,
};

/// One wire API's adapter: how a normalised transcript is written into its body. Adapters
/// only project; repairs belong to the normaliser.
pub(crate) trait Target {
    /// Writes the request body of a normalised transcript, with the projection state (ids,
    /// tool names, projection diagnostics) it used; `r` is what the call resolved once.
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection);
}

/// Anthropic Messages.
pub(crate) struct Messages;
/// OpenAI Chat Completions and its dialects (Mistral, Kimi, DeepSeek, compatible servers).
pub(crate) struct ChatCompletions;
/// OpenAI Responses.
pub(crate) struct Responses;
/// Gemini generateContent.
pub(crate) struct GenerateContent;
/// AWS Bedrock Converse.
pub(crate) struct Converse;
/// Ollama's native `/api/chat`.
pub(crate) struct OllamaChat;

impl Target for Messages {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        anthropic::render::body(n, o, r)
    }
}

impl Target for ChatCompletions {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        openai_chat::render::body(n, o, r)
    }
}

impl Target for Responses {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        openai_responses::render::body(n, o, r)
    }
}

impl Target for GenerateContent {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        gemini::render::body(n, o, r)
    }
}

impl Target for Converse {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        bedrock_converse::render::body(n, o, r)
    }
}

impl Target for OllamaChat {
    fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
        ollama::render::body(n, o, r)
    }
}

impl WireApi {
    /// The body of a normalised transcript, written by this API's adapter ([`Target::body`]).
    pub(crate) fn body<'a>(
        self,
        n: &'a Normalized,
        o: &'a RenderOptions,
        r: &'a Resolved,
    ) -> (Out<'a>, Projection) {
        match self {
            WireApi::Messages => Messages::body(n, o, r),
            WireApi::ChatCompletions => ChatCompletions::body(n, o, r),
            WireApi::Responses => Responses::body(n, o, r),
            WireApi::GenerateContent => GenerateContent::body(n, o, r),
            WireApi::Converse => Converse::body(n, o, r),
            WireApi::OllamaChat => OllamaChat::body(n, o, r),
        }
    }
}

/// A wire API's stream event parser behind a [`crate::decode::StreamDecoder`]: one per wire,
/// chosen by [`WireDecoder::of`].
#[derive(Debug, Clone)]
pub(crate) enum WireDecoder {
    Messages(anthropic::decode::Decoder),
    ChatCompletions(openai_chat::decode::Decoder),
    Responses(openai_responses::decode::Decoder),
    GenerateContent(gemini::decode::Decoder),
    Converse(bedrock_converse::decode::Decoder),
    OllamaChat(ollama::decode::Decoder),
}

impl WireDecoder {
    /// A fresh parser for a stream of `api`.
    pub(crate) fn of(api: WireApi) -> WireDecoder {
        match api {
            WireApi::Messages => WireDecoder::Messages(Default::default()),
            WireApi::ChatCompletions => WireDecoder::ChatCompletions(Default::default()),
            WireApi::Responses => WireDecoder::Responses(Default::default()),
            WireApi::GenerateContent => WireDecoder::GenerateContent(Default::default()),
            WireApi::Converse => WireDecoder::Converse(Default::default()),
            WireApi::OllamaChat => WireDecoder::OllamaChat(Default::default()),
        }
    }

    /// The parser, to feed an event.
    pub(crate) fn get(&mut self) -> &mut dyn WireFormat {
        match self {
            WireDecoder::Messages(d) => d,
            WireDecoder::ChatCompletions(d) => d,
            WireDecoder::Responses(d) => d,
            WireDecoder::GenerateContent(d) => d,
            WireDecoder::Converse(d) => d,
            WireDecoder::OllamaChat(d) => d,
        }
    }

    /// The parser, to ask what it knows.
    pub(crate) fn get_ref(&self) -> &dyn WireFormat {
        match self {
            WireDecoder::Messages(d) => d,
            WireDecoder::ChatCompletions(d) => d,
            WireDecoder::Responses(d) => d,
            WireDecoder::GenerateContent(d) => d,
            WireDecoder::Converse(d) => d,
            WireDecoder::OllamaChat(d) => d,
        }
    }
}

/// A wire API's answer writer behind a [`crate::relay::StreamRelay`]: decoded deltas written
/// as that API's stream, chosen by [`WireWriter::of`].
#[derive(Debug)]
pub(crate) enum WireWriter {
    Messages(anthropic::relay::Stream),
    ChatCompletions(openai_chat::relay::Stream),
    Responses(openai_responses::relay::Stream),
    GenerateContent(gemini::relay::Stream),
    Converse(bedrock_converse::relay::Stream),
    OllamaChat(ollama::relay::Stream),
}

impl WireWriter {
    /// A writer of one streamed answer in `api`'s format.
    pub(crate) fn of(api: WireApi, options: RelayOptions) -> WireWriter {
        match api {
            WireApi::Messages => WireWriter::Messages(anthropic::relay::Stream::new(options)),
            WireApi::ChatCompletions => {
                WireWriter::ChatCompletions(openai_chat::relay::Stream::new(options))
            }
            WireApi::Responses => {
                WireWriter::Responses(openai_responses::relay::Stream::new(options))
            }
            WireApi::GenerateContent => {
                WireWriter::GenerateContent(gemini::relay::Stream::new(options))
            }
            WireApi::Converse => {
                WireWriter::Converse(bedrock_converse::relay::Stream::new(options))
            }
            WireApi::OllamaChat => WireWriter::OllamaChat(ollama::relay::Stream::new(options)),
        }
    }

    /// The frames for one delta (none for `Usage` and `Done`: [`end`](Self::end) writes them).
    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        match self {
            WireWriter::Messages(w) => w.delta(d, out),
            WireWriter::ChatCompletions(w) => w.delta(d, out),
            WireWriter::Responses(w) => w.delta(d, out),
            WireWriter::GenerateContent(w) => w.delta(d, out),
            WireWriter::Converse(w) => w.delta(d, out),
            WireWriter::OllamaChat(w) => w.delta(d, out),
        }
    }

    /// The closing frames: stop reason, usage, the terminal event.
    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        match self {
            WireWriter::Messages(w) => w.end(outcome, out),
            WireWriter::ChatCompletions(w) => w.end(outcome, out),
            WireWriter::Responses(w) => w.end(outcome, out),
            WireWriter::GenerateContent(w) => w.end(outcome, out),
            WireWriter::Converse(w) => w.end(outcome, out),
            WireWriter::OllamaChat(w) => w.end(outcome, out),
        }
    }

    /// The format's error event, ending the stream.
    pub(crate) fn error(&mut self, error_type: &str, message: &str, out: &mut Vec<Frame>) {
        match self {
            WireWriter::Messages(w) => w.error(error_type, message, out),
            WireWriter::ChatCompletions(_) => {
                out.push(data(&openai_chat::relay::error_body(error_type, message)))
            }
            WireWriter::Responses(w) => w.error(error_type, message, out),
            WireWriter::GenerateContent(_) => {
                out.push(data(&gemini::relay::error_body(error_type, message)))
            }
            WireWriter::Converse(w) => w.error(error_type, message, out),
            WireWriter::OllamaChat(w) => w.error(error_type, message, out),
        }
    }
}

impl WireApi {
    /// A decoded answer written as this API's whole (not streamed) answer.
    pub(crate) fn whole_answer(self, outcome: &StreamOutcome, options: &RelayOptions) -> Value {
        match self {
            WireApi::Messages => anthropic::relay::whole(outcome, options),
            WireApi::ChatCompletions => openai_chat::relay::whole(outcome, options),
            WireApi::Responses => openai_responses::relay::whole(outcome, options),
            WireApi::GenerateContent => gemini::relay::whole(outcome, options),
            WireApi::Converse => bedrock_converse::relay::whole(outcome, options),
            WireApi::OllamaChat => ollama::relay::whole(outcome, options),
        }
    }

    /// This API's error body for an error of type `error_type` (Responses answers errors in the
    /// same shape as Chat Completions).
    pub(crate) fn error_body(self, error_type: &str, message: &str) -> Value {
        match self {
            WireApi::Messages => anthropic::relay::error_body(error_type, message),
            WireApi::ChatCompletions | WireApi::Responses => {
                openai_chat::relay::error_body(error_type, message)
            }
            WireApi::GenerateContent => gemini::relay::error_body(error_type, message),
            WireApi::Converse => bedrock_converse::relay::error_body(error_type, message),
            WireApi::OllamaChat => ollama::relay::error_body(error_type, message),
        }
    }
}

impl WireApi {
    /// Reads a request body of this API (`provider` names the chat dialect) back into a
    /// transcript and the options it implies: the wire's importer, `providers/<wire>/read.rs`.
    pub(crate) fn read_body(
        self,
        provider: Provider,
        body: &Map<String, Value>,
        source: &ImportSource,
    ) -> Result<Imported, Error> {
        match self {
            WireApi::Messages => anthropic::read::from_body(body, source),
            WireApi::ChatCompletions => openai_chat::read::from_body(provider, body, source),
            WireApi::Responses => openai_responses::read::from_body(body, source),
            WireApi::GenerateContent => gemini::read::from_body(body, source),
            WireApi::Converse => bedrock_converse::read::from_body(body, source),
            WireApi::OllamaChat => ollama::read::from_body(body, source),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Provider;

    /// What the validators' pairing rules look up is what the adapters write: a call and its
    /// result, rendered for every provider, hold the members [`WireApi::pairing`] names.
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
            let pairing = WireApi::of(p).pairing();
            for member in [pairing.call, pairing.result] {
                let quoted = format!("\"{member}\"");
                assert!(text.contains(&quoted), "{p}: no {quoted} in {text}");
            }
            // Gemini pairs by position and name; its ids are optional and turnwire writes none.
            // (The pairing members are nested in Converse's union blocks; checked above.)
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
