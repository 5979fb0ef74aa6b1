//! Errors found while decoding a stream.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

/// A problem with one stream event, or with the stream as a whole.
///
/// None of these stops the decoder: the event's usable content is still assembled (an orphan
/// text delta still becomes text, a call with broken arguments is still kept), and the next
/// event is decoded as usual. [`StreamDecoder::push`](super::StreamDecoder::push) returns the
/// first error of an event; [`StreamOutcome::errors`](super::StreamOutcome::errors) lists every
/// error of the stream. The caller decides what an error means for the turn.
///
/// [`code`](StreamError::code) is a stable machine-readable string. The JSON form is
/// `{"code", "message"}`.
///
/// ```
/// use turnwire::stream::StreamError;
/// let e = StreamError::Provider { error_type: "overloaded_error".into(), message: "Overloaded".into() };
/// assert_eq!(e.code(), "provider_error");
/// assert_eq!(e.to_string(), "the provider reported an error (overloaded_error): Overloaded");
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum StreamError {
    /// The event is not JSON.
    #[error("the event is not valid JSON: {detail}")]
    InvalidJson {
        /// The parser's message.
        detail: String,
    },
    /// The event is JSON but not an event of this wire format.
    #[error("the event is not a {format} stream event: {detail}")]
    UnexpectedEvent {
        /// The wire format being decoded.
        format: String,
        /// What is wrong with it.
        detail: String,
    },
    /// A text delta for a block that was never started (its text is kept in a new block).
    #[error("text delta for block `{key}`, which was never started (the text was kept)")]
    OrphanDelta {
        /// The provider's block key (index or item id).
        key: String,
    },
    /// A reasoning delta for a block that was never started (its text is kept in a new block).
    #[error("reasoning delta for block `{key}`, which was never started (the text was kept)")]
    OrphanReasoningDelta {
        /// The provider's block key.
        key: String,
    },
    /// Tool-call arguments for a call that was never started (they are dropped: there is no
    /// call to attach them to).
    #[error("tool-call arguments for `{key}`, which was never started (dropped)")]
    OrphanToolDelta {
        /// The provider's block key.
        key: String,
    },
    /// A block was started while a block with the same key was still open.
    #[error("block `{key}` was started while it was still open")]
    DuplicateStart {
        /// The provider's block key.
        key: String,
    },
    /// A second `message_start` in one Anthropic stream (two answers spliced together by a
    /// proxy, a replayed prefix): ignored, the message keeps the first one's id, model and
    /// usage; the events after it are decoded as usual.
    #[error("a second `message_start` (id `{id}`) in one stream was ignored: the message keeps the first one's (`{first}`) id, model and usage")]
    DuplicateMessageStart {
        /// The second one's message id.
        id: String,
        /// The first one's message id.
        first: String,
    },
    /// A second tool call with an id already used in this stream (both calls are kept).
    #[error("tool call id `{id}` was used twice in this stream (both calls were kept)")]
    DuplicateToolCall {
        /// The repeated id.
        id: String,
    },
    /// A completion event for a tool call that was never started.
    #[error("completion for tool call `{key}`, which was never started")]
    UnknownToolComplete {
        /// The provider's block key.
        key: String,
    },
    /// A stop event for a block that was never started or is already closed.
    #[error("stop for block `{key}`, which is not open")]
    UnknownBlockStop {
        /// The provider's block key.
        key: String,
    },
    /// A completed tool call's arguments are not JSON. The call is kept with `{}` as its
    /// arguments and the raw text in its `rawArguments` field.
    #[error("the arguments of tool call `{id}` ({name}) are not valid JSON: {detail}")]
    InvalidArguments {
        /// The call's canonical id.
        id: String,
        /// The tool name.
        name: String,
        /// The parser's message.
        detail: String,
    },
    /// A tool call was still streaming when the stream ended. It is kept with its arguments
    /// if they parse, else with `{}` and the raw text in `rawArguments`.
    #[error("tool call `{id}` ({name}) was not finished when the stream ended")]
    UnfinishedToolCall {
        /// The call's canonical id.
        id: String,
        /// The tool name.
        name: String,
    },
    /// The provider reported an error inside the stream (Anthropic `error` event, Responses
    /// `error` / `response.failed`, an `error` object in a chat or Gemini chunk).
    #[error("the provider reported an error ({error_type}): {message}")]
    Provider {
        /// The provider's error type or code (`overloaded_error`, `server_error`,
        /// `RESOURCE_EXHAUSTED`, …).
        error_type: String,
        /// The provider's message.
        message: String,
    },
    /// Half of a surrogate pair that no other half completed (a server that cut its text by
    /// UTF-16 units): replaced by U+FFFD, or left out when it ended an event.
    #[error("{detail}")]
    LoneSurrogate {
        /// What was found and done.
        detail: String,
    },
    /// An event arrived after the stream's last event (`message_stop`, `response.completed`, a
    /// Gemini `finishReason`, a chat stream's `[DONE]`); it was ignored, nothing of it is in
    /// the message.
    #[error("an event arrived after the stream ended ({terminal}) and was ignored: {excerpt}")]
    AfterEnd {
        /// The event that ended the stream.
        terminal: String,
        /// The start of the ignored event.
        excerpt: String,
    },
    /// More problems than [`MAX_STREAM_ERRORS`](crate::stream::MAX_STREAM_ERRORS) were found;
    /// the first ones are kept, the rest only counted here.
    #[error("{count} more problems in this stream were not kept (the first {kept} are)")]
    ErrorsDropped {
        /// How many were not kept.
        count: usize,
        /// How many are kept.
        kept: usize,
    },
    /// A frame of an AWS event stream (`application/vnd.amazon.eventstream`, Bedrock) failed
    /// its CRC32 check. A bad `prelude` CRC (over the two lengths) is fatal: the lengths cannot
    /// be trusted, so nothing after it is read and the message is what came before. A bad
    /// `message` CRC (over the whole frame) skips that frame; the next one is read as usual.
    #[error("the {part} CRC32 of the event-stream frame at byte {offset} does not match; {}", if .part == "prelude" { "its lengths cannot be trusted, so the rest of the stream was not read" } else { "the frame was skipped" })]
    FrameCrcMismatch {
        /// `prelude` or `message`.
        part: String,
        /// Where the frame starts in the stream (bytes).
        offset: u64,
    },
    /// An event-stream frame that cannot be read: impossible lengths (fatal, like a bad
    /// prelude CRC), headers that do not parse (an unknown value type, a name cut short; the
    /// frame is skipped), or a stream that ended inside a frame.
    #[error("invalid event-stream frame at byte {offset}: {detail}")]
    InvalidFrame {
        /// Where the frame starts in the stream (bytes).
        offset: u64,
        /// What is wrong with it.
        detail: String,
    },
    /// An event-stream frame longer than the stream's event limit (`max_event_bytes`, 16 MiB by
    /// default): reported as soon as its prelude arrives and skipped without being buffered.
    #[error("the event-stream frame at byte {offset} is {size} bytes, over the limit of {limit}; it was skipped unread")]
    FrameTooLarge {
        /// Where the frame starts in the stream (bytes).
        offset: u64,
        /// Its total length.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// An event whose type the wire format does not define (a Bedrock `:event-type` outside
    /// the ConverseStream union): ignored, nothing of it is in the message.
    #[error("unknown event type `{event_type}` (ignored)")]
    UnknownEventType {
        /// The event type as the stream named it.
        event_type: String,
    },
    /// The stream ended before its terminal event: the message is partial.
    #[error("the stream ended before {expected}; the message is partial")]
    Incomplete {
        /// The terminal event that never came.
        expected: String,
    },
}

impl StreamError {
    /// The stable machine-readable code.
    ///
    /// ```
    /// use turnwire::stream::StreamError;
    /// assert_eq!(StreamError::Incomplete { expected: "message_stop".into() }.code(), "incomplete");
    /// ```
    pub fn code(&self) -> &'static str {
        match self {
            StreamError::InvalidJson { .. } => "invalid_json",
            StreamError::UnexpectedEvent { .. } => "unexpected_event",
            StreamError::OrphanDelta { .. } => "orphan_delta",
            StreamError::OrphanReasoningDelta { .. } => "orphan_reasoning_delta",
            StreamError::OrphanToolDelta { .. } => "orphan_tool_delta",
            StreamError::DuplicateStart { .. } => "duplicate_start",
            StreamError::DuplicateMessageStart { .. } => "duplicate_message_start",
            StreamError::DuplicateToolCall { .. } => "duplicate_tool_call",
            StreamError::UnknownToolComplete { .. } => "unknown_tool_complete",
            StreamError::UnknownBlockStop { .. } => "unknown_block_stop",
            StreamError::InvalidArguments { .. } => "invalid_arguments",
            StreamError::UnfinishedToolCall { .. } => "unfinished_tool_call",
            StreamError::Provider { .. } => "provider_error",
            StreamError::Incomplete { .. } => "incomplete",
            StreamError::AfterEnd { .. } => "event_after_end",
            StreamError::LoneSurrogate { .. } => "lone_surrogate_replaced",
            StreamError::ErrorsDropped { .. } => "errors_dropped",
            StreamError::FrameCrcMismatch { .. } => "frame_crc_mismatch",
            StreamError::InvalidFrame { .. } => "invalid_frame",
            StreamError::FrameTooLarge { .. } => "frame_too_large",
            StreamError::UnknownEventType { .. } => "unknown_event_type",
        }
    }

    /// The human-readable message (the `Display` text).
    ///
    /// ```
    /// use turnwire::stream::StreamError;
    /// let e = StreamError::OrphanToolDelta { key: "3".into() };
    /// assert!(e.message().contains("never started"));
    /// ```
    pub fn message(&self) -> String {
        self.to_string()
    }

    pub(crate) fn unexpected(format: &str, detail: impl Into<String>) -> StreamError {
        StreamError::UnexpectedEvent {
            format: format.to_string(),
            detail: detail.into(),
        }
    }
}

impl Serialize for StreamError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("StreamError", 2)?;
        st.serialize_field("code", self.code())?;
        st.serialize_field("message", &self.message())?;
        st.end()
    }
}
