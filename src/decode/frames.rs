//! The binary event stream of Bedrock (`application/vnd.amazon.eventstream`): bytes cut
//! anywhere → frames (`streaming/event_stream`) → the events the wire decoder reads.

use serde_json::{Map, Value};

use super::StreamDecoder;
use crate::streaming::error::StreamError;
use crate::streaming::event_stream::{Frame, FrameReader, MessageType};
use crate::streaming::Delta;
use crate::vocab::{Host, WireApi};

impl StreamDecoder {
    /// Decodes the next bytes of a binary event stream (`application/vnd.amazon.eventstream`,
    /// Bedrock's ConverseStream), cut anywhere: every frame they complete is decoded as the
    /// event `{"<:event-type>": payload}` (an exception frame as `{"<:exception-type>":
    /// payload}`), which is what [`push`](Self::push) takes as JSON text. Returns the deltas of
    /// every completed frame, or the first error among them (the deltas are then in
    /// [`take_held_deltas`](Self::take_held_deltas)).
    ///
    /// A frame that fails its CRC32 check, is longer than
    /// [`StreamOptions::max_event_bytes`], or cannot be read is reported (`frame_crc_mismatch`,
    /// `frame_too_large`, `invalid_frame`); when its lengths cannot be trusted, nothing after it
    /// can be read and the decoder [closes](Self::is_closed) with the partial message. A stream
    /// that ends inside a frame gets an `invalid_frame` error from [`finish`](Self::finish).
    ///
    /// Only a stream of binary frames reads bytes (see [`reads_bytes`](Self::reads_bytes));
    /// another reports them as an `unexpected_event` and ignores them. Claude on Bedrock
    /// InvokeModel (`anthropic` with the `bedrock` host) sends `chunk` frames whose payload
    /// `{"bytes": "<base64>"}` is one Anthropic event: it is decoded as that event.
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// let mut d = StreamDecoder::new(turnwire::Provider::BedrockConverse, StreamOptions::default());
    /// // a frame whose prelude CRC does not match: nothing after it can be trusted
    /// let e = d.push_bytes(&[0, 0, 0, 16, 0, 0, 0, 0, 1, 2, 3, 4]).unwrap_err();
    /// assert_eq!(e.code(), "frame_crc_mismatch");
    /// assert!(d.is_closed());
    /// ```
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<Vec<Delta>, StreamError> {
        if !self.reads_bytes() {
            self.state.error(StreamError::unexpected(
                self.wire.get_ref().api(),
                format!(
                    "{} bytes of a binary event stream: `{}` streams JSON text, push it as text",
                    bytes.len(),
                    self.provider.as_str()
                ),
            ));
            return self.state.end_event();
        }
        let max = self.options.max_frame();
        let reader = self.frames.get_or_insert_with(|| FrameReader::new(max));
        let frames = reader.push(bytes);
        let stopped = reader.is_stopped();
        let mut deltas = Vec::new();
        let mut first = None;
        for frame in frames {
            let r = match frame {
                Ok(f) => self.push_frame(&f),
                Err(e) => {
                    self.state.error(e);
                    self.state.end_event()
                }
            };
            match r {
                Ok(d) => deltas.extend(d),
                Err(e) => {
                    deltas.append(&mut self.state.held);
                    first.get_or_insert(e);
                }
            }
        }
        if stopped {
            self.state.closed = true;
        }
        match first {
            Some(e) => {
                self.state.held = deltas;
                Err(e)
            }
            None => Ok(deltas),
        }
    }

    /// Whether this stream is binary AWS event-stream frames read with
    /// [`push_bytes`](Self::push_bytes): Bedrock ConverseStream, and Claude on Bedrock
    /// InvokeModelWithResponseStream (`anthropic` with the `bedrock` host).
    ///
    /// ```
    /// use turnwire::stream::{StreamDecoder, StreamOptions};
    /// use turnwire::{Host, Provider};
    /// let mut o = StreamOptions::for_model("claude-sonnet-4-5");
    /// assert!(!StreamDecoder::new(Provider::Anthropic, o.clone()).reads_bytes());
    /// o.host = Some(Host::Bedrock);
    /// assert!(StreamDecoder::new(Provider::Anthropic, o).reads_bytes());
    /// ```
    pub fn reads_bytes(&self) -> bool {
        WireApi::of(self.provider).event_stream_frames() || self.invoke_chunks()
    }

    /// Frames whose `chunk` events wrap one Anthropic event each (InvokeModel).
    fn invoke_chunks(&self) -> bool {
        WireApi::of(self.provider) == WireApi::Messages && self.options.host == Some(Host::Bedrock)
    }

    /// One InvokeModel frame: a `chunk` is the Anthropic event its base64 `bytes` hold; a
    /// `…Exception` ends the stream with the provider's error.
    fn push_invoke(&mut self, key: &str, text: &str, at: u64) -> Result<Vec<Delta>, StreamError> {
        let payload = match crate::json::depth::from_str(text) {
            Ok(v) => v,
            Err(e) => {
                self.state.error(StreamError::InvalidJson {
                    detail: format!("the `{key}` frame at byte {at}: {e}"),
                });
                return self.state.end_event();
            }
        };
        if key.ends_with("Exception") {
            let message = ["message", "Message", "originalMessage"]
                .iter()
                .find_map(|k| payload.get(*k).and_then(Value::as_str))
                .unwrap_or_default();
            if !self.state.closed {
                self.state.provider_error(key, message);
                self.state.closed = true;
            }
            return self.state.end_event();
        }
        if key != "chunk" {
            self.state.error(StreamError::UnknownEventType {
                event_type: crate::excerpt::excerpt(key),
            });
            return self.state.end_event();
        }
        let Some(encoded) = payload.get("bytes").and_then(Value::as_str) else {
            self.state.error(StreamError::unexpected(
                self.wire.get_ref().api(),
                format!("the `chunk` frame at byte {at} has no base64 `bytes` string"),
            ));
            return self.state.end_event();
        };
        let event = crate::model::media_data::base64_decode(encoded)
            .map_err(|e| format!("not base64 ({e})"))
            .and_then(|b| String::from_utf8(b).map_err(|_| "not UTF-8 once decoded".to_string()));
        match event {
            Ok(event) => self.push(&event),
            Err(why) => {
                self.state.error(StreamError::InvalidJson {
                    detail: format!("the `bytes` of the `chunk` frame at byte {at} are {why}"),
                });
                self.state.end_event()
            }
        }
    }

    /// One event-stream frame, as the event its headers name.
    fn push_frame(&mut self, f: &Frame) -> Result<Vec<Delta>, StreamError> {
        if f.message_type() == MessageType::Error {
            // an unmodeled error: its code and message are in headers
            if !self.state.closed {
                let code = f.string(":error-code").unwrap_or("error");
                let message = f.string(":error-message").unwrap_or_default();
                self.state.provider_error(code, message);
            }
            return self.state.end_event();
        }
        let (key, text) = match frame_event(f, self.wire.get_ref().api()) {
            Ok(event) => event,
            Err(e) => {
                self.state.error(e);
                return self.state.end_event();
            }
        };
        if self.invoke_chunks() {
            return self.push_invoke(key, text, f.offset);
        }
        if self.state.closed {
            return self.after_end(&format!("{{\"{key}\":{text}}}"));
        }
        let payload = if text.trim().is_empty() {
            Some(Value::Object(Map::new()))
        } else {
            self.parse_event(text)
        };
        match payload {
            Some(p) => {
                let mut event = Map::new();
                event.insert(key.to_string(), p);
                self.push_value(&Value::Object(event))
            }
            None => self.state.end_event(),
        }
    }
}

/// The event a frame carries: its type (`:event-type`, or `:exception-type` for an
/// exception) and its payload as text, or why it carries none.
fn frame_event<'f>(f: &'f Frame, api: &str) -> Result<(&'f str, &'f str), StreamError> {
    let at = f.offset;
    let key = match f.message_type() {
        MessageType::Event => f.event_type(),
        MessageType::Exception => f.exception_type(),
        MessageType::Error | MessageType::Other(_) => None,
    };
    let Some(key) = key.filter(|k| !k.is_empty()) else {
        let what = match f.message_type() {
            MessageType::Other(other) => format!("of message type `{other}`"),
            _ => "without its type header".to_string(),
        };
        return Err(StreamError::unexpected(
            api,
            format!("an event-stream frame {what} at byte {at}"),
        ));
    };
    if let Some(ct) = f.content_type().filter(|c| !c.contains("json")) {
        return Err(StreamError::unexpected(
            api,
            format!("the `{key}` frame at byte {at} carries `{ct}`, not JSON"),
        ));
    }
    let text = std::str::from_utf8(&f.payload).map_err(|_| StreamError::InvalidJson {
        detail: format!("the payload of the `{key}` frame at byte {at} is not UTF-8"),
    })?;
    Ok((key, text))
}
