//! The normaliser's passes by name: what a diagnostic says made it.

use serde::Serialize;

/// One normaliser pass, named by what it repairs, listed in the order the passes run. A
/// diagnostic names the pass that made it (`pass`): `closure` for a synthetic completion,
/// `thinking_policy` for thinking the target cannot replay, and so on.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum Pass {
    /// Blocks stored under the wrong speaker move to the right one.
    SpeakerRepair,
    /// Server-tool blocks replayed to the provider that ran them, sent as text to others.
    ServerTools,
    /// Empty text, empty messages, malformed arguments, empty results, and tool names with
    /// whitespace around them.
    ContentHygiene,
    /// Every call gets one canonical id; results are paired with their calls.
    CallIdentity,
    /// Duplicate calls and duplicate completions.
    Dedupe,
    /// Results whose call is gone (by the orphan policy).
    Orphans,
    /// Pieces of one assistant turn merged (targets that need strict alternation).
    AssistantPieces,
    /// A completion for every call (synthetic where none exists).
    Closure,
    /// Results placed right after the message that made the call.
    Adjacency,
    /// Turns that ended in thinking (aborted) trimmed.
    AbortedTurns,
    /// Media the target cannot take.
    Media,
    /// Media inside tool results placed where the target takes it.
    ToolResultMedia,
    /// Calls last in their message (OpenAI Responses).
    CallsLast,
    /// Thinking the target cannot replay dropped or turned into text; continuity tokens kept
    /// only for their provider and model.
    ThinkingPolicy,
    /// System messages moved into the target's system slot.
    SystemHoisting,
    /// Roles ordered and merged as the target needs.
    RoleOrder,
    /// A final assistant message (prefill) made acceptable.
    Prefill,
    /// Thinking first in its message where the target needs it.
    ThinkingPosition,
    /// Whether thinking stays on for the request.
    ThinkingSetting,
    /// Continuity tokens the target requires supplied (documented placeholders).
    Continuity,
    /// Tools the history calls added to the request's declarations.
    Declarations,
    /// Signed thinking whose prefix a repair changed, on models that bind it (ANT-52).
    ThinkingBinding,
}

impl Pass {
    /// The stable string form (the same as its JSON form).
    ///
    /// ```
    /// use turnwire::{normalize, NormalizeOptions, Pass, Provider, Transcript};
    /// let t = Transcript::from_json(r#"[
    ///   {"speaker":"human","blocks":[{"type":"text","text":"go"}]},
    ///   {"speaker":"ai","blocks":[{"type":"tool_call","id":"c1","name":"ls","parameters":{}}]}
    /// ]"#)?;
    /// let n = normalize(&t, &NormalizeOptions::new(Provider::OpenAiChat, "gpt-5.2"));
    /// assert_eq!(n.diagnostics[0].pass, Some(Pass::Closure));
    /// assert_eq!(Pass::Closure.as_str(), "closure");
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Pass::SpeakerRepair => "speaker_repair",
            Pass::ServerTools => "server_tools",
            Pass::ContentHygiene => "content_hygiene",
            Pass::CallIdentity => "call_identity",
            Pass::Dedupe => "dedupe",
            Pass::Orphans => "orphans",
            Pass::AssistantPieces => "assistant_pieces",
            Pass::Closure => "closure",
            Pass::Adjacency => "adjacency",
            Pass::AbortedTurns => "aborted_turns",
            Pass::Media => "media",
            Pass::ToolResultMedia => "tool_result_media",
            Pass::CallsLast => "calls_last",
            Pass::ThinkingPolicy => "thinking_policy",
            Pass::SystemHoisting => "system_hoisting",
            Pass::RoleOrder => "role_order",
            Pass::Prefill => "prefill",
            Pass::ThinkingPosition => "thinking_position",
            Pass::ThinkingSetting => "thinking_setting",
            Pass::Continuity => "continuity",
            Pass::Declarations => "declarations",
            Pass::ThinkingBinding => "thinking_binding",
        }
    }

    /// The pass's place in the normaliser's pass table (`normalize::PASSES`), which lists the
    /// passes in this enum's order.
    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}
