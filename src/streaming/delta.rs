//! What one stream event changed, for user interfaces.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::stop_reason::StopReason;
use super::usage::Usage;

/// A progress report of [`StreamDecoder::push`](super::StreamDecoder::push): what the event
/// added to the message being assembled. A UI can render these as they arrive; the message
/// itself comes from [`StreamDecoder::finish`](super::StreamDecoder::finish).
///
/// The JSON form is tagged by `type` in camelCase (`text`, `reasoning`, `toolCallStart`,
/// `toolCallArguments`, `toolCallComplete`, `usage`, `done`), with camelCase fields.
///
/// ```
/// use turnwire::stream::{Delta, StopReason};
/// let d = Delta::Done { stop_reason: StopReason::ToolUse };
/// assert_eq!(serde_json::to_string(&d)?, r#"{"type":"done","stopReason":"tool_use"}"#);
/// let t = Delta::ToolCallArguments { id: "call_1".into(), delta: "{\"a\"".into() };
/// assert_eq!(serde_json::to_string(&t)?, r#"{"type":"toolCallArguments","id":"call_1","delta":"{\"a\""}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum Delta {
    /// Answer text.
    Text {
        /// The new text.
        text: String,
    },
    /// Reasoning text (thinking, reasoning summary, `reasoning_content`).
    Reasoning {
        /// The new text.
        text: String,
    },
    /// A tool call began.
    ToolCallStart {
        /// The call's canonical id (the provider's own id when it gave one).
        id: String,
        /// The tool's name.
        name: String,
    },
    /// A piece of a tool call's arguments, as raw JSON text.
    ToolCallArguments {
        /// The call's canonical id.
        id: String,
        /// The next piece of the arguments' JSON text.
        delta: String,
    },
    /// A tool call is complete.
    ToolCallComplete {
        /// The call's canonical id.
        id: String,
        /// The tool's name.
        name: String,
        /// The parsed arguments (`{}` when they were not valid JSON; an error says so).
        #[cfg_attr(feature = "wasm-bind", tsify(type = "unknown"))]
        arguments: Value,
    },
    /// New usage counts (all counts known so far, not an increment).
    Usage {
        /// The usage so far.
        usage: Usage,
    },
    /// The provider ended the turn.
    Done {
        /// Why it ended.
        stop_reason: StopReason,
    },
}
