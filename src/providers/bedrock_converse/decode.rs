//! Bedrock ConverseStream decoding: the events inside the `application/vnd.amazon.eventstream`
//! frames, each `{"<eventType>": payload}`.
//!
//! Skeleton of issue 32: every event is reported as `unexpected_event` until the decoder of
//! the Converse events lands (the framing is `streaming::event_stream`).

use serde_json::Value;

use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StreamError, StreamOptions};

const FORMAT: &str = "Bedrock ConverseStream";

/// The ConverseStream decoder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder;

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        "converse"
    }

    fn terminal(&self) -> &'static str {
        "messageStop"
    }

    fn event(&mut self, event: &Value, state: &mut StreamState, options: &StreamOptions) {
        let _ = (event, options);
        state.error(StreamError::unexpected(
            FORMAT,
            "this build does not decode ConverseStream events yet",
        ));
    }
}
