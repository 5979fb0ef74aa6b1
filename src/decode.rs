//! The stream decoder: one type for every wire format, driving the wire's event parser
//! (chosen by the seam, `providers/target.rs`) over the shared assembler (`streaming/`).

use serde_json::{Map, Value};

use crate::streaming::error::StreamError;
use crate::streaming::event_stream::FrameReader;
use crate::streaming::options::StreamOptions;
use crate::streaming::outcome::StreamOutcome;
use crate::streaming::state::StreamState;
use crate::streaming::surrogate_halves;

/// How much of an ignored event its `event_after_end` error quotes (characters).
const EXCERPT_CHARS: usize = 120;
use crate::model::{Message, Metadata, Provenance, Speaker};
use crate::providers::WireDecoder;
use crate::streaming::Delta;
use crate::vocab::Provider;
use crate::vocab::WireApi;

/// Decodes one provider response stream into a canonical assistant message.
///
/// Feed it every SSE `data:` payload in order with [`push`](StreamDecoder::push) (the JSON
/// text; `[DONE]` too; a leading `data:` is stripped, blank payloads are ignored) and get back
/// [`Delta`]s for a live view; then [`finish`](StreamDecoder::finish) gives the
/// [`StreamOutcome`]: the message, usage, stop reason, whether the stream was complete, and
/// every error. Which events each wire format handles is listed in the [module
/// docs](crate::stream).
///
/// The decoder never panics and never gets stuck: an event with a problem returns a
/// [`StreamError`], its usable content is still assembled, and the next event is decoded as
/// usual.
///
/// ```
/// use turnwire::stream::{Delta, StreamDecoder, StreamOptions};
/// use turnwire::Provider;
/// let mut d = StreamDecoder::new(Provider::Anthropic, StreamOptions::for_model("claude-sonnet-4-5"));
/// for event in [
///     r#"{"type":"message_start","message":{"id":"msg_1","model":"claude-sonnet-4-5-20250929","usage":{"input_tokens":12,"output_tokens":1}}}"#,
///     r#"{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_01A","name":"ls","input":{}}}"#,
///     r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"dir\":"}}"#,
///     r#"{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"\"src\"}"}}"#,
///     r#"{"type":"content_block_stop","index":0}"#,
///     r#"{"type":"message_delta","delta":{"stop_reason":"tool_use"},"usage":{"output_tokens":20}}"#,
///     r#"{"type":"message_stop"}"#,
/// ] {
///     d.push(event)?;
/// }
/// let out = d.finish();
/// assert!(!out.incomplete && out.errors.is_empty());
/// assert_eq!(out.stop_reason.as_str(), "tool_use");
/// let m = out.to_value()["message"].clone();
/// assert_eq!(m["blocks"][0], serde_json::json!({"type": "tool_call", "id": "toolu_01A", "name": "ls", "parameters": {"dir": "src"}}));
/// assert_eq!(m["metadata"]["model"], "claude-sonnet-4-5"); // the requested alias (see StreamOptions)
/// # Ok::<(), turnwire::stream::StreamError>(())
/// ```
#[derive(Debug, Clone)]
pub struct StreamDecoder {
    provider: Provider,
    options: StreamOptions,
    wire: WireDecoder,
    state: StreamState,
    /// The high half of a surrogate pair the last event's text ended with (escaped), waiting
    /// for its low half at the start of the next event.
    pending_high: Option<u16>,
    /// The frame reader of a binary event stream, from the first
    /// [`push_bytes`](StreamDecoder::push_bytes).
    frames: Option<FrameReader>,
}

impl StreamDecoder {
    /// A decoder for a response stream of `provider` (the chat dialects — `openai-chat`,
    /// `mistral`, `kimi`, `deepseek`, `openai-compatible` — share one wire format).
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let d = StreamDecoder::new(turnwire::Provider::Kimi, StreamOptions::for_model("kimi-k2-thinking"));
    /// assert_eq!(d.provider(), turnwire::Provider::Kimi);
    /// ```
    pub fn new(provider: Provider, options: StreamOptions) -> Self {
        StreamDecoder {
            provider,
            options,
            wire: WireDecoder::of(WireApi::of(provider)),
            state: StreamState::default(),
            pending_high: None,
            frames: None,
        }
    }

    /// The provider whose stream this decodes.
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let d = StreamDecoder::new(turnwire::Provider::Gemini, StreamOptions::default());
    /// assert_eq!(d.provider().as_str(), "gemini");
    /// ```
    pub fn provider(&self) -> Provider {
        self.provider
    }

    /// Decodes one SSE `data:` payload. Returns what it added, or the event's first error.
    /// On an error the event's usable content is still assembled into the message (only its
    /// deltas are not returned), and every error of the stream is also in the outcome.
    ///
    /// ```
    /// use turnwire::stream::{Delta, StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::DeepSeek, StreamOptions::default());
    /// let deltas = d.push(r#"data: {"choices":[{"index":0,"delta":{"reasoning_content":"Hmm"}}]}"#)?;
    /// assert_eq!(deltas, vec![Delta::Reasoning { text: "Hmm".into() }]);
    /// assert_eq!(d.push("not json").unwrap_err().code(), "invalid_json");
    /// # Ok::<(), turnwire::stream::StreamError>(())
    /// ```
    pub fn push(&mut self, event: &str) -> Result<Vec<Delta>, StreamError> {
        let trimmed = event.trim();
        let payload = trimmed
            .strip_prefix("data:")
            .map_or(trimmed, str::trim_start);
        if payload.is_empty() {
            return Ok(Vec::new());
        }
        if payload == "[DONE]" {
            return self.done_marker();
        }
        if self.state.closed {
            return self.after_end(payload);
        }
        match self.parse_event(payload) {
            Some(v) => self.push_value(&v),
            None => self.state.end_event(),
        }
    }

    /// Parses one event's JSON text, joining the halves of a surrogate pair cut between this
    /// event and the last; `None` (with an `invalid_json` error recorded) when it is not JSON.
    fn parse_event(&mut self, payload: &str) -> Option<Value> {
        // The high half of a pair the previous event ended with, if any: this event's text
        // must start with its low half, else it is left out (reported).
        let waiting = self.pending_high.take();
        let mut joined = false;
        let parsed = match crate::json::depth::from_str(payload) {
            Ok(v) => Ok(v),
            // Text cut between the halves of a surrogate pair: join them, or U+FFFD.
            Err(e) => match surrogate_halves::rewrite(payload, waiting) {
                Some(r) => {
                    joined = r.joined;
                    self.pending_high = r.pending;
                    r.errors.into_iter().for_each(|e| self.state.note(e));
                    crate::json::depth::from_str(&r.text).or(Err(e))
                }
                None => Err(e),
            },
        };
        if let (Some(high), false) = (waiting, joined) {
            self.state.note(surrogate_halves::left_out(high));
        }
        match parsed {
            Ok(v) => Some(v),
            Err(e) => {
                self.state.error(StreamError::InvalidJson {
                    detail: e.to_string(),
                });
                None
            }
        }
    }

    /// Decodes one event that is already parsed (the string `"[DONE]"` is the chat marker).
    ///
    /// ```
    /// use turnwire::stream::{Delta, StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::Gemini, StreamOptions::default());
    /// let chunk = serde_json::json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}}]});
    /// assert_eq!(d.push_value(&chunk)?, vec![Delta::Text { text: "Hi".into() }]);
    /// # Ok::<(), turnwire::stream::StreamError>(())
    /// ```
    pub fn push_value(&mut self, event: &Value) -> Result<Vec<Delta>, StreamError> {
        if event.as_str() == Some("[DONE]") {
            return self.done_marker();
        }
        if self.state.closed {
            return self.after_end(&event.to_string());
        }
        self.wire.get().event(event, &mut self.state, &self.options);
        if self.state.terminal && self.wire.get_ref().ends_at_terminal() {
            self.state.closed = true;
        }
        self.state.end_event()
    }

    /// Whether the stream's last event has arrived (the terminal event, or a chat stream's
    /// `[DONE]` after it): nothing more belongs to this turn, so a reader can stop reading even
    /// if the connection stays open. Later events are ignored (`event_after_end`).
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::Anthropic, StreamOptions::default());
    /// d.push(r#"{"type":"message_start","message":{"id":"m","model":"c"}}"#)?;
    /// assert!(!d.is_closed());
    /// d.push(r#"{"type":"message_stop"}"#)?;
    /// assert!(d.is_closed());
    /// # Ok::<(), turnwire::stream::StreamError>(())
    /// ```
    pub fn is_closed(&self) -> bool {
        self.state.closed
    }

    /// The deltas of the last event [`push`](Self::push) answered with an error: an error does
    /// not undo what the event carried (an orphan text delta still became text). Empty when
    /// taken, and after an event without error.
    ///
    /// ```
    /// use turnwire::stream::{Delta, StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::Anthropic, StreamOptions::default());
    /// let orphan = r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#;
    /// assert!(d.push(orphan).is_err());
    /// assert_eq!(d.take_held_deltas(), vec![Delta::Text { text: "Hi".into() }]);
    /// ```
    pub fn take_held_deltas(&mut self) -> Vec<Delta> {
        std::mem::take(&mut self.state.held)
    }

    /// The `[DONE]` marker: ends a chat stream; ignored by the other formats.
    fn done_marker(&mut self) -> Result<Vec<Delta>, StreamError> {
        if !self.state.closed {
            self.wire.get().done_marker(&mut self.state);
            if self.state.terminal {
                self.state.closed = true;
            }
        }
        self.state.end_event()
    }

    /// An event after the last one: ignored, and reported.
    fn after_end(&mut self, payload: &str) -> Result<Vec<Delta>, StreamError> {
        let excerpt: String = payload.chars().take(EXCERPT_CHARS).collect();
        self.state.error(StreamError::AfterEnd {
            terminal: self.wire.get_ref().terminal().to_string(),
            excerpt,
        });
        self.state.end_event()
    }

    /// The outcome as it stands, without ending the stream (a live snapshot, or the partial
    /// turn after the caller aborted).
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::OpenAiChat, StreamOptions::default());
    /// d.push(r#"{"choices":[{"index":0,"delta":{"content":"partial"}}]}"#)?;
    /// assert!(d.outcome().incomplete);
    /// d.push(r#"{"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}"#)?;
    /// assert!(!d.outcome().incomplete);
    /// # Ok::<(), turnwire::stream::StreamError>(())
    /// ```
    pub fn outcome(&self) -> StreamOutcome {
        let s = &self.state;
        let complete = s.terminal && !s.failed;
        let (blocks, unfinished) = s.blocks.blocks();
        let mut errors = s.errors.clone();
        if !s.terminal {
            errors.push(StreamError::Incomplete {
                expected: self.wire.get_ref().terminal().to_string(),
            });
        }
        errors.extend(unfinished);
        if s.dropped_errors > 0 {
            errors.push(StreamError::ErrorsDropped {
                count: s.dropped_errors,
                kept: s.errors.len(),
            });
        }
        let stop_reason = s.final_stop_reason(complete);
        let model = provenance_model(self.options.model.as_deref(), s.model.as_deref());
        let mut extra = Map::new();
        extra.insert("stopReason".into(), stop_reason.as_str().into());
        if !s.usage.is_empty() {
            extra.insert("usage".into(), s.usage.to_value());
        }
        if !complete {
            extra.insert("incomplete".into(), true.into());
        }
        if let Some(id) = &s.response_id {
            extra.insert("responseId".into(), id.clone().into());
        }
        if let Some(reported) = s.model.as_deref().filter(|r| Some(*r) != model.as_deref()) {
            extra.insert("responseModel".into(), reported.into());
        }
        for (k, v) in &s.answer {
            extra.insert(k.clone(), v.clone());
        }
        let metadata = Metadata {
            provenance: Provenance {
                provider: Some(self.provider.as_str().to_string()),
                api: Some(self.wire.get_ref().api().to_string()),
                model,
                endpoint: self.options.endpoint.clone(),
                host: self.options.host.map(|h| h.as_str().to_string()),
                account: self.options.account.clone(),
            },
            extra,
        };
        let mut blocks = blocks;
        if self.provider == crate::vocab::Provider::Anthropic {
            crate::model::fallback::attribute(blocks.iter_mut());
        }
        let mut message = Message::new(Speaker::Ai, blocks);
        message.metadata = Some(metadata);
        StreamOutcome {
            message,
            usage: s.usage,
            stop_reason,
            incomplete: !complete,
            errors,
        }
    }

    /// Ends the stream: the canonical message and how the turn ended. A stream that never
    /// reached its terminal event gives the partial message, `incomplete: true` and an
    /// `incomplete` error.
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::OpenAiResponses, StreamOptions::for_model("gpt-5.2"));
    /// d.push(r#"{"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","content":[]}}"#)?;
    /// d.push(r#"{"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"content_index":0,"delta":"Hi"}"#)?;
    /// let out = d.finish();
    /// assert!(out.incomplete);
    /// assert_eq!(out.message.blocks.len(), 1);
    /// # Ok::<(), turnwire::stream::StreamError>(())
    /// ```
    pub fn finish(mut self) -> StreamOutcome {
        if let Some(high) = self.pending_high.take() {
            self.state.note(surrogate_halves::left_out(high));
        }
        if let Some(e) = self.frames.as_ref().and_then(FrameReader::end) {
            self.state.note(e);
        }
        self.outcome()
    }
}

/// The model a message's provenance names: the reported model, except that a dated snapshot
/// of the requested model (`gpt-5.2-2025-12-11` for `gpt-5.2`) is recorded under the requested
/// name, which is what the next render's target names. Gemini's `models/` prefix is dropped.
fn provenance_model(requested: Option<&str>, reported: Option<&str>) -> Option<String> {
    let reported = reported.map(|r| r.strip_prefix("models/").unwrap_or(r));
    match (requested.filter(|r| !r.is_empty()), reported) {
        (Some(req), Some(rep)) if rep == req || is_snapshot_of(rep, req) => Some(req.to_string()),
        (_, Some(rep)) => Some(rep.to_string()),
        (req, None) => req.map(str::to_string),
    }
}

/// `reported` is `requested` plus a `-` and a date or version made of digits and dashes.
fn is_snapshot_of(reported: &str, requested: &str) -> bool {
    reported
        .strip_prefix(requested)
        .and_then(|rest| rest.strip_prefix('-'))
        .is_some_and(|rest| {
            rest.bytes().any(|b| b.is_ascii_digit())
                && rest.bytes().all(|b| b.is_ascii_digit() || b == b'-')
        })
}

mod frames;
#[cfg(test)]
mod tests;
