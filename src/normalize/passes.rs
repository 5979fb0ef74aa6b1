//! The normaliser's pass table: every pass, in the order it runs, with one signature.
//!
//! [`PASSES`] is the one place the order is written. [`super::normalize_traced`] runs it and
//! tags each diagnostic with the [`Pass`] that made it; the incremental renderer
//! ([`crate::Conversation`]) splits a render's diagnostics by the same table.

use serde::Serialize;

use super::options::Profile;
use super::work::Msg;
use super::{
    aborted, adjacency, calls_last, closure, content, declarations, dedupe, identity, media,
    orphans, prefill, role_order, server_tools, speaker, synthesize, thinking, tool_media,
    Diagnostic, NormalizeOptions, TurnOpener,
};

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
    /// Empty text, empty messages, malformed arguments and empty results.
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
        }
    }

    /// The pass's place in [`PASSES`].
    pub(crate) fn index(self) -> usize {
        PASSES.iter().position(|(p, _)| *p == self).unwrap_or(0)
    }
}

/// What the passes read (the options, resolved once) and what they produce besides the
/// messages: the diagnostics, the system prompt, the request's thinking switch and the tools
/// to declare.
pub(crate) struct Run<'a> {
    pub options: &'a NormalizeOptions,
    pub profile: Profile,
    /// Whether the messages follow others already rendered (the incremental renderer's tail).
    pub after_prefix: bool,
    /// The current turn's first assistant message, when it lies before the messages.
    pub opener: Option<TurnOpener>,
    pub diags: Vec<Diagnostic>,
    pub system: Vec<String>,
    pub thinking_enabled: bool,
    pub undeclared_tools: Vec<String>,
}

impl<'a> Run<'a> {
    pub fn new(
        options: &'a NormalizeOptions,
        after_prefix: bool,
        opener: Option<TurnOpener>,
    ) -> Self {
        Run {
            options,
            profile: Profile::for_options(options),
            after_prefix,
            opener,
            diags: Vec::new(),
            system: Vec::new(),
            thinking_enabled: options.thinking_enabled,
            undeclared_tools: Vec::new(),
        }
    }
}

/// A pass: the messages in, the messages out; diagnostics and other results go into the run.
pub(crate) type PassFn = fn(Vec<Msg>, &mut Run<'_>) -> Vec<Msg>;

/// Every pass, in the order it runs.
pub(crate) const PASSES: [(Pass, PassFn); 21] = [
    (Pass::SpeakerRepair, |m, r| speaker::repair(m, &mut r.diags)),
    (Pass::ServerTools, |m, r| {
        server_tools::project(m, r.options.target, &mut r.diags)
    }),
    (Pass::ContentHygiene, |m, r| content::clean(m, &mut r.diags)),
    (Pass::CallIdentity, |m, r| identity::assign(m, &mut r.diags)),
    (Pass::Dedupe, |m, r| dedupe::dedupe(m, &mut r.diags)),
    (Pass::Orphans, |m, r| {
        orphans::handle(m, r.options.orphan_results, &mut r.diags)
    }),
    (Pass::AssistantPieces, |m, r| {
        role_order::merge_assistant_pieces(m, r.options, &mut r.diags)
    }),
    (Pass::Closure, |m, r| {
        closure::close(m, &r.options.synthetic_result_text, &mut r.diags)
    }),
    (Pass::Adjacency, |m, r| adjacency::place(m, &mut r.diags)),
    (Pass::AbortedTurns, |m, r| {
        aborted::trim(m, r.options, &mut r.diags)
    }),
    (Pass::Media, |m, r| {
        media::project(m, r.options, &mut r.diags)
    }),
    (Pass::ToolResultMedia, |m, r| {
        tool_media::place(m, r.options, &mut r.diags)
    }),
    (Pass::CallsLast, |m, r| {
        calls_last::order(m, r.options, &mut r.diags)
    }),
    (Pass::ThinkingPolicy, |m, r| {
        let m = thinking::apply(m, r.options, &mut r.diags);
        // Dropping what the target cannot replay (a text part that was only a foreign
        // signature) can leave a turn ending in thinking again.
        aborted::trim(m, r.options, &mut r.diags)
    }),
    (Pass::SystemHoisting, |m, r| {
        let (m, system) = role_order::hoist_system(m, r.profile, &mut r.diags);
        r.system = system;
        m
    }),
    (Pass::RoleOrder, |m, r| {
        role_order::order(m, r.options, r.after_prefix, &mut r.diags)
    }),
    (Pass::Prefill, |m, r| {
        prefill::settle(m, r.options, &mut r.diags)
    }),
    (Pass::ThinkingPosition, |m, r| {
        thinking::enforce_leading(m, r.options, &mut r.diags)
    }),
    (Pass::ThinkingSetting, |m, r| {
        let (m, on) = thinking::request_setting(m, r.options, r.opener, &mut r.diags);
        r.thinking_enabled = on;
        m
    }),
    (Pass::Continuity, |m, r| {
        synthesize::supply(m, r.options, &mut r.diags)
    }),
    (Pass::Declarations, |m, r| {
        r.undeclared_tools = declarations::undeclared(&m, r.options, &mut r.diags);
        m
    }),
];

/// Runs every pass of [`PASSES`] in order, tagging each diagnostic with its pass.
pub(crate) fn run_all(mut msgs: Vec<Msg>, run: &mut Run<'_>) -> Vec<Msg> {
    for (pass, f) in PASSES {
        let from = run.diags.len();
        msgs = f(msgs, run);
        for d in run.diags.get_mut(from..).unwrap_or_default() {
            d.pass = Some(pass);
        }
    }
    msgs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Transcript;
    use crate::providers::Provider;

    #[test]
    fn every_pass_is_in_the_table_once_and_in_its_place() {
        for (i, (pass, _)) in PASSES.iter().enumerate() {
            assert_eq!(pass.index(), i, "{}", pass.as_str());
            assert_eq!(
                serde_json::to_value(pass).ok(),
                Some(serde_json::Value::String(pass.as_str().into()))
            );
        }
    }

    #[test]
    fn every_normaliser_diagnostic_names_its_pass_in_table_order() {
        let t = Transcript::from_json(
            r#"[{"speaker":"ai","blocks":[{"type":"tool_call","id":"a","name":"ls","parameters":{}},
                {"type":"tool_response","callId":"a","toolName":"ls","result":"x"}]},
              {"speaker":"human","blocks":[{"type":"text","text":"   "}]},
              {"speaker":"system","blocks":[{"type":"text","text":"late system"}]},
              {"speaker":"tool","blocks":[{"type":"tool_response","callId":"gone","toolName":"ls","result":"y"}]},
              {"speaker":"ai","blocks":[{"type":"tool_call","id":"b","name":"cat","parameters":{}}]}]"#,
        )
        .unwrap();
        for p in Provider::IMPLEMENTED {
            let n = super::super::normalize(&t, &NormalizeOptions::new(p, "m"));
            assert!(n.diagnostics.len() >= 4, "{p}: {:?}", n.diagnostics);
            let order: Vec<usize> = n
                .diagnostics
                .iter()
                .map(|d| d.pass.map_or(usize::MAX, Pass::index))
                .collect();
            assert!(order.iter().all(|&i| i < PASSES.len()), "{p}: {order:?}");
            assert!(order.windows(2).all(|w| w[0] <= w[1]), "{p}: {order:?}");
        }
    }
}
