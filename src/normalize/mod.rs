//! The normaliser: turns any canonical transcript, however damaged, into a protocol-valid one
//! for the target, and reports every repair as a [`Diagnostic`].
//!
//! One pass per file, each a pure function over the working transcript. The order they run in
//! is one table, [`passes::PASSES`]; each diagnostic names its [`Pass`]. Same input and options
//! give the same output (REQ-915-010).

mod aborted;
mod adjacency;
mod binding;
pub(crate) use binding::{binds as binds_thinking, reaches as reaches_thinking_prefix};
mod calls_last;
mod closure;
pub mod content;
mod continuity;
pub mod declarations;
mod dedupe;
mod identity;
pub mod media;
mod options;
pub mod orphans;
mod passes;
mod prefill;
mod replayed_blocks;
mod role_order;
mod server_tools;
mod speaker;
pub mod synthesize;
#[cfg(test)]
mod test_support;
mod thinking;
mod tool_changes;
mod tool_media;
mod tool_names;
mod unread_tokens;
mod work;

pub(crate) use passes::PASSES;
pub(crate) use work::{starts_turn, starts_turn_at};

pub use crate::vocab::{
    DedupeDecision, Diagnostic, DiagnosticCode, FaultClass, Pass, SyntheticReasonCode,
};
pub use options::{
    ForeignThinking, NormalizeOptions, OrphanPolicy, DEFAULT_BRIDGE_TEXT,
    DEFAULT_CONTINUATION_TEXT, DEFAULT_LEADING_USER_TEXT, DEFAULT_SYNTHETIC_RESULT_TEXT,
};
pub use tool_changes::ToolChanges;

use crate::model::Transcript;

/// The normaliser's output: a protocol-valid canonical transcript plus what the request needs.
#[derive(Debug, Clone, PartialEq)]
pub struct Normalized {
    /// The repaired transcript: no system messages; every call followed by a tool message with
    /// exactly one completion per call, in call order; no empty text or messages; roles ordered
    /// as the target needs.
    pub transcript: Transcript,
    /// System prompt texts taken out of the transcript, in order.
    pub system: Vec<String>,
    /// Whether thinking stays on for this request (it can be forced off by the history).
    pub thinking_enabled: bool,
    /// Tools the history calls that the request does not declare but must (see
    /// [`declarations`]), in order of first call.
    pub undeclared_tools: Vec<String>,
    /// What the tool changes the target cannot take mean for the request's tools (see
    /// [`ToolChanges`]); empty when the history has none or the target takes them in place.
    pub tool_changes: ToolChanges,
    /// Whether thinking left in the transcript goes back as a reasoning text field
    /// (`reasoning_content` targets).
    pub reasoning_field: bool,
    /// Every repair, in pass order.
    pub diagnostics: Vec<Diagnostic>,
}

impl Normalized {
    /// The repaired history as one transcript again: the system prompt texts as leading system
    /// messages, then the repaired messages, then (in a system message) the tool changes the
    /// target took as its tools list (what an exporter writes back, to be stored).
    ///
    /// ```
    /// use turnwire::{normalize, NormalizeOptions, Provider, Transcript};
    /// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"go"}]},
    ///   {"speaker":"system","blocks":[{"type":"text","text":"be brief"}]}]"#)?;
    /// let n = normalize(&t, &NormalizeOptions::new(Provider::Anthropic, "claude-sonnet-4-5"));
    /// assert_eq!(n.into_history().messages[0].speaker, turnwire::model::Speaker::System);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn into_history(self) -> Transcript {
        let mut messages: Vec<crate::model::Message> = self
            .system
            .iter()
            .map(|s| {
                crate::model::Message::new(
                    crate::model::Speaker::System,
                    vec![crate::model::Block::Text(crate::model::TextBlock::new(
                        s.as_str(),
                    ))],
                )
            })
            .collect();
        messages.extend(self.transcript.messages);
        // tool changes the target took as its tools list: kept, so the history renders the same
        let changes = self.tool_changes.left_out;
        if !changes.is_empty() {
            messages.push(crate::model::Message::new(
                crate::model::Speaker::System,
                changes
                    .into_iter()
                    .map(crate::model::Block::ToolChange)
                    .collect(),
            ));
        }
        Transcript::new(messages)
    }
}

/// Normalises `transcript` for `options.target`.
///
/// ```
/// use turnwire::{normalize, NormalizeOptions, Provider, Transcript};
/// let t = Transcript::from_json(r#"[
///   {"speaker":"human","blocks":[{"type":"text","text":"go"}]},
///   {"speaker":"ai","blocks":[{"type":"tool_call","id":"c1","name":"ls","parameters":{}}]},
///   {"speaker":"human","blocks":[{"type":"text","text":"stop"}]}
/// ]"#)?;
/// let n = normalize(&t, &NormalizeOptions::new(Provider::OpenAiChat, "gpt-5.2"));
/// // a synthetic completion now follows the call
/// assert_eq!(n.transcript.messages[2].speaker, turnwire::model::Speaker::Tool);
/// assert_eq!(n.diagnostics[0].code, turnwire::DiagnosticCode::SyntheticResultAdded);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn normalize(transcript: &Transcript, options: &NormalizeOptions) -> Normalized {
    normalize_traced(transcript.clone(), options, 0, None).0
}

/// [`normalize`] for a transcript it may take apart: the blocks move into the result instead of
/// being copied.
pub(crate) fn normalize_owned(transcript: Transcript, options: &NormalizeOptions) -> Normalized {
    normalize_traced(transcript, options, 0, None).0
}

/// How one normalisation went, for the incremental renderer ([`crate::Conversation`]).
#[derive(Debug, Clone, Default)]
pub(crate) struct Trace {
    /// The input message index of each output message (`None` for made-up messages).
    pub origins: Vec<Option<usize>>,
}

/// Whether the target has rules about the current turn (the messages after the user message
/// that opened it): Anthropic's thinking switch. For the others, where a user turn starts
/// changes nothing that was rendered before it (Gemini's placeholder signatures go on the
/// first call of every step, in every turn).
pub(crate) fn has_turn_rules(options: &NormalizeOptions) -> bool {
    options::Profile::for_options(options).thinking == options::ThinkingReplay::AnthropicSigned
}

/// The first assistant message of the current turn, when the turn opened before the messages
/// being normalised (the incremental renderer's tail inside a tool loop): whether it starts
/// with thinking the target replays, and its input position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TurnOpener {
    pub thinking: bool,
    pub origin: Option<usize>,
}

/// [`normalize`], with every input position shifted by `offset` (the transcript is the tail of
/// a longer one that starts at input message `offset`; `opener` is its current turn's opening
/// when that lies before it) and a [`Trace`] of the run.
pub(crate) fn normalize_traced(
    transcript: Transcript,
    options: &NormalizeOptions,
    offset: usize,
    opener: Option<TurnOpener>,
) -> (Normalized, Trace) {
    let mut msgs = work::from_transcript(transcript);
    if offset > 0 {
        for m in &mut msgs {
            m.origin = m.origin.map(|o| o + offset);
            for item in &mut m.items {
                item.origin = item.origin.map(|(mi, bi)| (mi + offset, bi));
            }
        }
    }
    let mut run = passes::Run::new(options, offset > 0, opener);
    let msgs = passes::run_all(msgs, &mut run);
    let origins = msgs.iter().map(|m| m.origin).collect();
    let normalized = Normalized {
        transcript: work::to_transcript(msgs),
        system: run.system,
        thinking_enabled: run.thinking_enabled,
        undeclared_tools: run.undeclared_tools,
        tool_changes: run.tool_changes,
        reasoning_field: matches!(
            run.profile.thinking,
            options::ThinkingReplay::ReasoningField { .. }
        ),
        diagnostics: run.diags,
    };
    (normalized, Trace { origins })
}
