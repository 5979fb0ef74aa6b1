//! The client format's stream writer, one per wire API.

use super::{anthropic, chat, gemini, responses, Frame, RelayOptions};
use crate::streaming::{Delta, StreamOutcome};
use crate::vocab::Provider;

/// Writes decoded deltas as one wire API's stream.
#[derive(Debug)]
pub(super) enum Writer {
    Anthropic(anthropic::Stream),
    Chat(chat::Stream),
    Responses(responses::Stream),
    Gemini(gemini::Stream),
}

impl Writer {
    pub(super) fn new(to: Provider, options: RelayOptions) -> Self {
        match to {
            Provider::Anthropic => Writer::Anthropic(anthropic::Stream::new(options)),
            Provider::OpenAiResponses => Writer::Responses(responses::Stream::new(options)),
            Provider::Gemini => Writer::Gemini(gemini::Stream::new(options)),
            _ => Writer::Chat(chat::Stream::new(options)),
        }
    }

    /// The frames for one delta (none for `Usage` and `Done`: [`end`](Self::end) writes them).
    pub(super) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        match self {
            Writer::Anthropic(w) => w.delta(d, out),
            Writer::Chat(w) => w.delta(d, out),
            Writer::Responses(w) => w.delta(d, out),
            Writer::Gemini(w) => w.delta(d, out),
        }
    }

    /// The closing frames: stop reason, usage, the terminal event.
    pub(super) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        match self {
            Writer::Anthropic(w) => w.end(outcome, out),
            Writer::Chat(w) => w.end(outcome, out),
            Writer::Responses(w) => w.end(outcome, out),
            Writer::Gemini(w) => w.end(outcome, out),
        }
    }

    /// The format's error event, ending the stream.
    pub(super) fn error(&mut self, error_type: &str, message: &str, out: &mut Vec<Frame>) {
        match self {
            Writer::Anthropic(w) => w.error(error_type, message, out),
            Writer::Chat(_) => out.push(data(&super::error_body(
                Provider::OpenAiChat,
                error_type,
                message,
            ))),
            Writer::Responses(w) => w.error(error_type, message, out),
            Writer::Gemini(_) => out.push(data(&super::error_body(
                Provider::Gemini,
                error_type,
                message,
            ))),
        }
    }
}

/// A `data:`-only frame.
pub(super) fn data(v: &serde_json::Value) -> Frame {
    Frame {
        event: None,
        data: v.to_string(),
    }
}

/// A named event whose data repeats its name as `type` (Anthropic, Responses).
pub(super) fn named(event: &str, v: serde_json::Value) -> Frame {
    Frame {
        event: Some(event.to_string()),
        data: v.to_string(),
    }
}
