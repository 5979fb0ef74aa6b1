//! Why a render could not reuse its cached prefix ([`crate::RenderStats::fallback`]).

use std::fmt;

/// Why the cached prefix could not be used and the conversation rendered in full (or from an
/// earlier boundary). Every render still gives exactly [`crate::render`]'s result; a fallback
/// only costs time.
///
/// ```
/// use turnwire::Fallback;
/// assert_eq!(Fallback::SharedCallId.as_str(), "the tail mentions a call id of the prefix");
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Fallback {
    /// The messages after the boundary normalised to nothing.
    TailEmpty,
    /// The messages after the boundary turn thinking off for the whole request.
    ThinkingTurnedOff,
    /// A user turn follows a prefix that ends inside a tool loop (the turn's start moves).
    UserTurnAfterToolLoop,
    /// The messages after the boundary do not start a turn where the prefix ends.
    TailOpensMidTurn,
    /// The messages after the boundary mention a call id of the prefix.
    SharedCallId,
    /// A wire id of the messages after the boundary depends on the prefix (Kimi's call index)
    /// or is one of the prefix's.
    WireIdDependsOnPrefix,
    /// A tool name is sent differently after the prefix.
    ToolNameDependsOnPrefix,
    /// The normaliser or the adapter gave something the splice does not expect.
    UnexpectedRender,
    /// The body could not be spliced from the cached bytes.
    SpliceFailed,
    /// On a model that binds signed thinking to its prefix (ANT-52), a repair of the prefix may
    /// reach a signed block of the tail, or one of the tail (`system`, `tools`) the prefix's.
    ThinkingBinding,
    /// The history changes its tools mid-conversation (a tool change block): the tools a
    /// target without tool changes gets depend on the whole history.
    ToolChanges,
    /// The host edits the body's envelope (Bedrock and Vertex Claude: `anthropic_version`, no
    /// `model`; Bedrock's betas and `stream`; what a host refuses): rendered in full.
    HostEnvelope,
}

impl Fallback {
    /// What happened, in words.
    pub const fn as_str(self) -> &'static str {
        match self {
            Fallback::TailEmpty => "the tail normalised to nothing",
            Fallback::ThinkingTurnedOff => "the tail turns thinking off for the whole request",
            Fallback::UserTurnAfterToolLoop => {
                "a user turn follows a prefix that ends inside a tool loop"
            }
            Fallback::TailOpensMidTurn => {
                "the tail does not open with its first message as a user turn"
            }
            Fallback::SharedCallId => "the tail mentions a call id of the prefix",
            Fallback::WireIdDependsOnPrefix => "a wire id of the tail depends on the prefix",
            Fallback::ToolNameDependsOnPrefix => {
                "a tool name of the tail is sent differently after the prefix"
            }
            Fallback::UnexpectedRender => "the tail's render is not what a splice expects",
            Fallback::SpliceFailed => "the body could not be spliced",
            Fallback::ThinkingBinding => {
                "a repair reaches across the boundary to signed thinking bound to its prefix"
            }
            Fallback::ToolChanges => "the history changes its tools mid-conversation",
            Fallback::HostEnvelope => "the host edits the body's envelope",
        }
    }
}

impl fmt::Display for Fallback {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
