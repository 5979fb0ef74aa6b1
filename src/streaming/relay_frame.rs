//! What a relay writes: the client format's server-sent events ([`Frame`]), the options of an
//! answer written in another format ([`RelayOptions`]), and the parts of a decoded message every
//! format's writer (`providers/<wire>/relay.rs`) takes in order.

use serde_json::{json, Value};

use super::StreamOutcome;
use crate::model::Block;

/// One server-sent event of the client's format.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Frame {
    /// The `event:` line (Anthropic and Responses name their events); `None` for `data:` only.
    pub event: Option<String>,
    /// The `data:` payload.
    pub data: String,
}

impl Frame {
    /// The frame as SSE text, ending with the blank line.
    ///
    /// ```
    /// let f = turnwire::relay::Frame { event: Some("ping".into()), data: "{}".into() };
    /// assert_eq!(f.to_sse(), "event: ping\ndata: {}\n\n");
    /// ```
    pub fn to_sse(&self) -> String {
        match &self.event {
            Some(e) => format!("event: {e}\ndata: {}\n\n", self.data),
            None => format!("data: {}\n\n", self.data),
        }
    }
}

/// What a relay writes that the answer does not say.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelayOptions {
    /// The model the client asked for (its answers name it).
    pub model: String,
    /// The id of the answer (message, completion or response id), unique per turn; item ids
    /// are made from it.
    pub id: String,
    /// Unix seconds, for the formats that carry a creation time.
    pub created: u64,
}

impl RelayOptions {
    /// Options with `created` 0.
    ///
    /// ```
    /// let o = turnwire::relay::RelayOptions::new("gpt-5.2", "chatcmpl_1");
    /// assert_eq!(o.created, 0);
    /// ```
    pub fn new(model: impl Into<String>, id: impl Into<String>) -> Self {
        RelayOptions {
            model: model.into(),
            id: id.into(),
            created: 0,
        }
    }
}

/// The parts of a decoded message a client's format can carry, in order.
pub(crate) enum Part<'a> {
    Text(&'a str),
    Thinking(&'a str),
    Call {
        id: &'a str,
        name: &'a str,
        arguments: Value,
    },
}

/// The message's text, thinking and tool calls (media and other blocks have no place in an
/// answer's content).
pub(crate) fn parts(outcome: &StreamOutcome) -> Vec<Part<'_>> {
    outcome
        .message
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(Part::Text(&t.text)),
            Block::Thinking(t) => Some(Part::Thinking(&t.thought)),
            Block::ToolCall(c) => Some(Part::Call {
                id: &c.id,
                name: &c.name,
                arguments: c.parameters.clone().unwrap_or_else(|| json!({})),
            }),
            _ => None,
        })
        .collect()
}

/// The prompt's tokens as the OpenAI and Gemini formats count them (cached ones included), and
/// the cached ones.
pub(crate) fn prompt_tokens(u: &super::Usage) -> (u32, u32) {
    let cached = u.cache_read_tokens.unwrap_or(0);
    let total = u.input_tokens.unwrap_or(0) + cached + u.cache_write_tokens.unwrap_or(0);
    (total, cached)
}

/// A `data:`-only frame.
pub(crate) fn data(v: &serde_json::Value) -> Frame {
    Frame {
        event: None,
        data: v.to_string(),
    }
}

/// A named event whose data repeats its name as `type` (Anthropic, Responses).
pub(crate) fn named(event: &str, v: serde_json::Value) -> Frame {
    Frame {
        event: Some(event.to_string()),
        data: v.to_string(),
    }
}
