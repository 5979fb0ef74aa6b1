//! The normaliser's pass table: every pass, in the order it runs, with one signature.
//!
//! [`PASSES`] is the one place the order is written. [`super::normalize_traced`] runs it and
//! tags each diagnostic with the [`Pass`] that made it; the incremental renderer
//! ([`crate::Conversation`]) splits a render's diagnostics by the same table.

use super::options::Profile;
use super::work::Msg;
use super::{
    aborted, adjacency, binding, calls_last, closure, content, declarations, dedupe, identity,
    media, orphans, prefill, role_order, server_tools, speaker, synthesize, thinking, tool_changes,
    tool_media, tool_names, unread_tokens, Diagnostic, NormalizeOptions, TurnOpener,
};
use crate::vocab::Pass;

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
    pub tool_changes: super::ToolChanges,
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
            tool_changes: super::ToolChanges::default(),
        }
    }
}

/// A pass: the messages in, the messages out; diagnostics and other results go into the run.
pub(crate) type PassFn = fn(Vec<Msg>, &mut Run<'_>) -> Vec<Msg>;

/// Every pass, in the order it runs.
pub(crate) const PASSES: [(Pass, PassFn); 22] = [
    (Pass::SpeakerRepair, |m, r| speaker::repair(m, &mut r.diags)),
    (Pass::ServerTools, |m, r| {
        server_tools::project(m, r.options, &mut r.diags)
    }),
    (Pass::ContentHygiene, |m, r| {
        let m = content::clean(m, &mut r.diags);
        let m = unread_tokens::report(m, &mut r.diags);
        tool_names::trim(m, &r.options.declared_tools, &mut r.diags)
    }),
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
        // tool changes first: what is left of system messages is then placed or hoisted
        let (m, changes) = tool_changes::project(m, r.options, &mut r.diags);
        r.tool_changes = changes;
        let (m, system) = role_order::hoist_system(m, r.profile, &mut r.diags);
        r.system = system;
        m
    }),
    (Pass::RoleOrder, |m, r| {
        let m = role_order::order(m, r.options, r.after_prefix, &mut r.diags);
        // merged turns can bring text next to calls (BDR-10)
        calls_last::leave_text_out_of_call_turns(m, r.options, &mut r.diags)
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
        let defined = &r.tool_changes.defined;
        r.undeclared_tools = declarations::undeclared(&m, r.options, defined, &mut r.diags);
        m
    }),
    (Pass::ThinkingBinding, |m, r| {
        binding::report(m, r.options, r.thinking_enabled, &mut r.diags)
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
    use crate::vocab::Provider;

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
        for p in Provider::ALL {
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
