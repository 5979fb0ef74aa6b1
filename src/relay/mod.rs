//! An answer of one provider, written in another provider's wire format: what lets a client of
//! one API (an Anthropic SDK) be answered by a provider of another (Gemini) through
//! `repairingFetch({ target })`.
//!
//! The answer is decoded with the [`StreamDecoder`] (streamed or whole), and its deltas, or the
//! decoded message, are written as the client's API would have sent them: Anthropic Messages
//! events and `message`, Chat Completions chunks and `chat.completion`, Responses events and
//! `response`, Gemini `GenerateContentResponse` chunks. Continuity tokens belong to the model
//! that wrote them and the client's format has no place for a foreign one: they are left out
//! of what is written and stay in the decoded [`StreamOutcome`].
//!
//! ```
//! use turnwire::relay::{RelayOptions, StreamRelay};
//! use turnwire::Provider;
//! let mut relay = StreamRelay::new(Provider::Gemini, Provider::Anthropic, RelayOptions::new("claude-sonnet-4-6", "msg_1"));
//! let frames = relay.push(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]},"finishReason":"STOP"}]}"#);
//! let events: Vec<&str> = frames.iter().filter_map(|f| f.event.as_deref()).collect();
//! assert_eq!(events[..3], ["message_start", "content_block_start", "content_block_delta"]);
//! assert_eq!(events.last(), Some(&"message_stop"));
//! ```

pub use crate::streaming::relay_frame::{Frame, RelayOptions};

use serde_json::Value;

use crate::decode::StreamDecoder;
use crate::providers::WireWriter;
use crate::streaming::{StreamError, StreamOptions, StreamOutcome};
use crate::vocab::{Provider, WireApi};

/// A streamed answer of `from`, rewritten event by event in `to`'s streaming format.
#[derive(Debug)]
pub struct StreamRelay {
    decoder: StreamDecoder,
    writer: WireWriter,
    ended: bool,
}

impl StreamRelay {
    /// A relay for one streamed answer.
    pub fn new(from: Provider, to: Provider, options: RelayOptions) -> Self {
        let decode = StreamOptions::for_model(options.model.clone());
        StreamRelay {
            decoder: StreamDecoder::new(from, decode),
            writer: WireWriter::of(WireApi::of(to), options),
            ended: false,
        }
    }

    /// Decodes one event of the answer (an SSE `data:` payload or a JSON chunk) and returns the
    /// client's frames for it. A provider error in the stream becomes the client format's error
    /// event; other decoding problems stay in [`outcome`](Self::outcome)'s errors.
    pub fn push(&mut self, event: &str) -> Vec<Frame> {
        let mut out = Vec::new();
        if self.ended {
            return out;
        }
        let deltas = match self.decoder.push(event) {
            Ok(d) => d,
            Err(StreamError::Provider {
                error_type,
                message,
            }) => {
                self.writer.error(&error_type, &message, &mut out);
                self.ended = true;
                return out;
            }
            Err(_) => self.decoder.take_held_deltas(),
        };
        for d in &deltas {
            self.writer.delta(d, &mut out);
        }
        // The end is written once the answer's last event came (a chat stream's usage chunk
        // and `[DONE]` follow its finish reason).
        if self.decoder.is_closed() {
            self.writer.end(&self.decoder.outcome(), &mut out);
            self.ended = true;
        }
        out
    }

    /// The answer's body ended: writes the end if the answer said why it stopped but not
    /// that it was over (a chat stream without `[DONE]`). A stream cut short gets no end, as
    /// the client's own provider would have sent none.
    pub fn finish(&mut self) -> Vec<Frame> {
        let mut out = Vec::new();
        let outcome = self.decoder.outcome();
        if !self.ended && !outcome.incomplete {
            self.writer.end(&outcome, &mut out);
            self.ended = true;
        }
        out
    }

    /// Whether the answer's last event was written (the client's stream is complete).
    pub fn is_closed(&self) -> bool {
        self.ended
    }

    /// What was decoded so far: the message with its continuity tokens, usage, stop reason.
    pub fn outcome(&self) -> StreamOutcome {
        self.decoder.outcome()
    }
}

/// A whole (not streamed) answer of `from`, written as `to`'s whole answer. An error answer
/// (`{"error": …}` of any format) is written as `to`'s error body.
///
/// ```
/// use serde_json::json;
/// use turnwire::relay::{relay_whole, RelayOptions};
/// use turnwire::Provider;
/// let gemini = json!({"candidates": [{"content": {"role": "model", "parts": [{"text": "Hi"}]}, "finishReason": "STOP"}],
///     "usageMetadata": {"promptTokenCount": 3, "candidatesTokenCount": 1, "totalTokenCount": 4}});
/// let (chat, _) = relay_whole(Provider::Gemini, Provider::OpenAiChat, &gemini, &RelayOptions::new("gpt-5.2", "chatcmpl_1"));
/// assert_eq!(chat["choices"][0]["message"]["content"], "Hi");
/// assert_eq!(chat["usage"]["prompt_tokens"], 3);
/// ```
pub fn relay_whole(
    from: Provider,
    to: Provider,
    answer: &Value,
    options: &RelayOptions,
) -> (Value, StreamOutcome) {
    let mut decoder = StreamDecoder::new(from, StreamOptions::for_model(options.model.clone()));
    let pushed = decoder.push_value(answer);
    let outcome = decoder.finish();
    if let Err(StreamError::Provider {
        error_type,
        message,
    }) = pushed
    {
        return (error_body(to, &error_type, &message), outcome);
    }
    let body = WireApi::of(to).whole_answer(&outcome, options);
    (body, outcome)
}

/// `to`'s error body for an error of type `error_type` (a provider's own type or status).
///
/// ```
/// let b = turnwire::relay::error_body(turnwire::Provider::Anthropic, "rate_limit_error", "slow down");
/// assert_eq!(b["error"]["message"], "slow down");
/// ```
pub fn error_body(to: Provider, error_type: &str, message: &str) -> Value {
    WireApi::of(to).error_body(error_type, message)
}
