//! The interface between the stream decoder and one wire format's event parser.

use serde_json::Value;

use super::options::StreamOptions;
use super::state::StreamState;

/// One wire format's event parser (`src/providers/*/decode.rs`).
pub(crate) trait WireFormat {
    /// The wire API's name, for provenance (`messages`, `chat-completions`, …).
    fn api(&self) -> &'static str;

    /// The terminal event, named in the error of a stream that ended before it.
    fn terminal(&self) -> &'static str;

    /// Decodes one event (one SSE `data:` payload, parsed).
    fn event(&mut self, event: &Value, state: &mut StreamState, options: &StreamOptions);

    /// Whether the terminal event is the stream's last event. Chat streams send a usage chunk
    /// and the `[DONE]` marker after their `finish_reason`, so they end at `[DONE]`.
    fn ends_at_terminal(&self) -> bool {
        true
    }

    /// The `[DONE]` marker of chat streams (other formats ignore it).
    fn done_marker(&mut self, state: &mut StreamState) {
        let _ = state;
    }
}
