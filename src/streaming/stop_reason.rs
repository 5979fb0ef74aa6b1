//! Why a model turn ended.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Why the model stopped, mapped from each provider's own vocabulary.
///
/// The string form (`end_turn`, `tool_use`, …) is stable; a reason turnwire does not know is kept
/// as [`StopReason::Other`] with the provider's own string.
///
/// | provider | end_turn | tool_use | max_tokens | stop_sequence | refusal / content_filter | pause |
/// |---|---|---|---|---|---|---|
/// | Anthropic `stop_reason` | `end_turn` | `tool_use` | `max_tokens` | `stop_sequence` | `refusal` | `pause_turn` |
/// | Chat `finish_reason` | `stop` | `tool_calls`, `function_call` | `length`, `model_length` | — | `content_filter` | — |
/// | Responses status | `completed` | `completed` with calls | `incomplete` (`max_output_tokens`) | — | refusal content, `incomplete` (`content_filter`) | — |
/// | Bedrock Converse `stopReason` | `end_turn` | `tool_use` | `max_tokens` | `stop_sequence` | `content_filtered`, `guardrail_intervened` | — |
/// | Gemini `finishReason` | `STOP` | `STOP` with calls | `MAX_TOKENS` | — | `SAFETY`, `RECITATION`, `BLOCKLIST`, `PROHIBITED_CONTENT`, `SPII`, `IMAGE_SAFETY` | — |
///
/// A provider error ends the turn with [`StopReason::Error`]; a stream that ended before the
/// provider said why it stopped ends with [`StopReason::Incomplete`].
///
/// ```
/// use turnwire::stream::StopReason;
/// assert_eq!(StopReason::parse("tool_use"), StopReason::ToolUse);
/// assert_eq!(StopReason::parse("FINISH_REASON_UNSPECIFIED").as_str(), "FINISH_REASON_UNSPECIFIED");
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "wasm-bind",
    derive(tsify::Tsify),
    tsify(
        type = "\"end_turn\" | \"tool_use\" | \"max_tokens\" | \"stop_sequence\" | \"refusal\" | \"content_filter\" | \"pause\" | \"error\" | \"incomplete\" | (string & {})"
    )
)]
pub enum StopReason {
    /// The model finished its answer.
    EndTurn,
    /// The model stopped to have tools called.
    ToolUse,
    /// The output token limit was reached.
    MaxTokens,
    /// A caller-given stop sequence was generated.
    StopSequence,
    /// The model refused to answer.
    Refusal,
    /// The provider's content filter stopped the output.
    ContentFilter,
    /// The provider paused a long turn (Anthropic `pause_turn`); send the turn back to continue.
    Pause,
    /// The provider reported an error in the stream.
    Error,
    /// The stream ended before the provider said why the turn stopped.
    Incomplete,
    /// Any other reason, as the provider spelled it.
    Other(String),
}

impl StopReason {
    /// The stable string form (the provider's own string for [`StopReason::Other`]).
    ///
    /// ```
    /// assert_eq!(turnwire::stream::StopReason::MaxTokens.as_str(), "max_tokens");
    /// ```
    pub fn as_str(&self) -> &str {
        match self {
            StopReason::EndTurn => "end_turn",
            StopReason::ToolUse => "tool_use",
            StopReason::MaxTokens => "max_tokens",
            StopReason::StopSequence => "stop_sequence",
            StopReason::Refusal => "refusal",
            StopReason::ContentFilter => "content_filter",
            StopReason::Pause => "pause",
            StopReason::Error => "error",
            StopReason::Incomplete => "incomplete",
            StopReason::Other(s) => s,
        }
    }

    /// Reads the stable string form; any other string becomes [`StopReason::Other`].
    ///
    /// ```
    /// use turnwire::stream::StopReason;
    /// assert_eq!(StopReason::parse("pause"), StopReason::Pause);
    /// assert_eq!(StopReason::parse("weird"), StopReason::Other("weird".into()));
    /// ```
    pub fn parse(s: &str) -> StopReason {
        match s {
            "end_turn" => StopReason::EndTurn,
            "tool_use" => StopReason::ToolUse,
            "max_tokens" => StopReason::MaxTokens,
            "stop_sequence" => StopReason::StopSequence,
            "refusal" => StopReason::Refusal,
            "content_filter" => StopReason::ContentFilter,
            "pause" => StopReason::Pause,
            "error" => StopReason::Error,
            "incomplete" => StopReason::Incomplete,
            other => StopReason::Other(other.to_string()),
        }
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for StopReason {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for StopReason {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(StopReason::parse(&s))
    }
}
