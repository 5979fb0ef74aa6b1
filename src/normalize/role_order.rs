//! Role order: system prompts to the system slot, same-speaker neighbours merged where the
//! provider needs strict alternation, and a leading user turn where the provider needs one.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::{NormalizeOptions, Profile};
use super::work::{Item, Msg};
use crate::model::{Block, Speaker, TextBlock};

/// Moves `system` messages into the provider's system slot: the ones that open the
/// conversation always, later ones only when the provider cannot take them in place. Returns the
/// hoisted texts in order.
pub(crate) fn hoist_system(
    msgs: Vec<Msg>,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, Vec<String>) {
    let mut system = Vec::new();
    let mut out = Vec::with_capacity(msgs.len());
    let mut seen_other = false;
    for m in msgs {
        if m.speaker != Speaker::System {
            seen_other = true;
            out.push(m);
            continue;
        }
        if seen_other && profile.system_anywhere {
            out.push(m);
            continue;
        }
        let texts: Vec<String> = m
            .items
            .iter()
            .filter_map(|i| match &i.block {
                Block::Text(t) => Some(t.text.clone()),
                Block::Code(c) => Some(c.code.clone()),
                _ => None,
            })
            .collect();
        if seen_other {
            diags.push(
                Diagnostic::new(
                    DiagnosticCode::SystemHoisted,
                    FaultClass::ProviderProjection,
                    format!(
                        "system message {} in the middle of the conversation was moved into the system prompt",
                        m.origin.map(|o| o.to_string()).unwrap_or_default()
                    ),
                )
                .at_message(m.origin),
            );
        }
        system.push(texts.join("\n\n"));
    }
    (out, system)
}

pub(crate) fn order(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::of(opts.target);
    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
    for m in msgs {
        if profile.alternation {
            if let Some(prev) = out.last_mut() {
                // Same-speaker neighbours merge. A tool message followed by user text shares the
                // provider's user role too; the adapter puts the text after the results.
                let same =
                    prev.speaker == m.speaker && matches!(m.speaker, Speaker::Ai | Speaker::Human);
                if same {
                    diags.push(
                        Diagnostic::new(
                            DiagnosticCode::MessagesMerged,
                            FaultClass::ProviderProjection,
                            format!(
                                "`{}` message {} follows another message of the same {} role; merged into it",
                                m.speaker.as_str(),
                                m.origin.map(|o| o.to_string()).unwrap_or_default(),
                                opts.target
                            ),
                        )
                        .at_message(m.origin),
                    );
                    prev.items.extend(m.items);
                    continue;
                }
            }
        }
        out.push(m);
    }
    if profile.leading_user && out.first().is_some_and(|m| m.speaker != Speaker::Human) {
        diags.push(Diagnostic::new(
            DiagnosticCode::LeadingUserInserted,
            FaultClass::ProviderProjection,
            format!(
                "{} needs the conversation to open with a user turn; one was inserted",
                opts.target
            ),
        ));
        out.insert(
            0,
            Msg::made_up(
                Speaker::Human,
                vec![Item {
                    block: Block::Text(TextBlock::new(opts.leading_user_text.clone())),
                    origin: None,
                }],
            ),
        );
    }
    out
}
