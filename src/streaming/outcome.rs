//! The result of a whole stream: the canonical message and how the turn ended.

use serde_json::{Map, Value};

use super::error::StreamError;
use super::stop_reason::StopReason;
use super::usage::Usage;
use crate::model::Message;

/// What [`StreamDecoder::finish`](super::StreamDecoder::finish) returns.
///
/// `message` is the canonical assistant message (speaker `ai`, blocks in start order, typed
/// continuity metadata, provenance). Its `metadata` also records `stopReason`, `usage` (when
/// any count is known) and `incomplete: true` (when the stream ended early), so a stored
/// message keeps them.
///
/// A stream that ended before its terminal event, or with a provider error, is `incomplete`:
/// the message holds what arrived (text, finished calls, unfinished calls with whatever
/// arguments parse), and `errors` says why. The next render closes open calls and trims an
/// aborted turn, so the partial message can be appended as it is.
///
/// ```
/// use turnwire::stream::{StreamDecoder, StreamOptions};
/// use turnwire::Provider;
/// let mut d = StreamDecoder::new(Provider::OpenAiChat, StreamOptions::for_model("gpt-5.2"));
/// d.push(r#"{"choices":[{"index":0,"delta":{"content":"Hel"}}]}"#)?;
/// let out = d.finish(); // no finish_reason, no [DONE]
/// assert!(out.incomplete);
/// assert_eq!(out.errors[0].code(), "incomplete");
/// assert_eq!(out.to_value()["message"]["blocks"][0]["text"], "Hel");
/// # Ok::<(), turnwire::stream::StreamError>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct StreamOutcome {
    /// The assembled assistant message.
    pub message: Message,
    /// Token usage the stream reported.
    pub usage: Usage,
    /// Why the turn ended.
    pub stop_reason: StopReason,
    /// The stream ended before its terminal event or with a provider error.
    pub incomplete: bool,
    /// Every error found while decoding, in order (including the ones `push` returned).
    pub errors: Vec<StreamError>,
}

impl StreamOutcome {
    /// The JSON form: `{message, usage, stopReason, incomplete, errors}`, the message in the
    /// canonical JSON history shape and each error as `{code, message}`.
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// use turnwire::Provider;
    /// let d = StreamDecoder::new(Provider::Anthropic, StreamOptions::default());
    /// let v = d.finish().to_value();
    /// assert_eq!(v["stopReason"], "incomplete");
    /// assert_eq!(v["message"]["speaker"], "ai");
    /// ```
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        o.insert("message".into(), self.message.write());
        o.insert("usage".into(), self.usage.to_value());
        o.insert("stopReason".into(), self.stop_reason.as_str().into());
        o.insert("incomplete".into(), self.incomplete.into());
        let errors = self
            .errors
            .iter()
            .map(|e| {
                let mut eo = Map::new();
                eo.insert("code".into(), e.code().into());
                eo.insert("message".into(), e.message().into());
                Value::Object(eo)
            })
            .collect();
        o.insert("errors".into(), Value::Array(errors));
        Value::Object(o)
    }
}
