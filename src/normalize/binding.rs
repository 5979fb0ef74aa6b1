//! Signed thinking bound to its conversation (ANT-52). On the models that bind a thinking
//! block to the bytes before it (`system`, `tools`, every earlier message: Fable 5.1 and the
//! others of [`crate::models::ModelCaps::thinking_binding`]) a repair that changed those bytes
//! makes the API drop the block (with `drop_block`, which the render sends) or refuse the
//! request. This pass runs last: it finds the first signed block that follows such a repair
//! and reports it (`thinking_prefix_changed`, with how many blocks follow it).
//!
//! "Changed" is against the history and options as the caller gave them: turnwire cannot see
//! the request that produced a block. A history stored from earlier renders with the same
//! options may have carried the same repair then; its blocks pass the check and `drop_block`
//! drops nothing. Repairs keep a prefix where they can: a system message stays in place on
//! these models (ANT-25), so nothing is hoisted into `system`.

use super::options::NormalizeOptions;
use super::work::Msg;
use super::{Diagnostic, DiagnosticCode, FaultClass};
use crate::model::{Block, ProviderMeta};
use crate::vocab::Provider;

/// What a repair changed, as far as a block's prefix goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Reach {
    /// `system` or `tools`: before every block.
    All,
    /// Input message `.0` (block `.1` when known): before the blocks of later messages, and
    /// the later blocks of that message.
    At(usize, Option<usize>),
}

/// What `d` changed, when it changed bytes a block's prefix holds: a repair of the history (or
/// of the system prompt and the declarations), not a setting of the request.
fn reach(d: &Diagnostic) -> Option<Reach> {
    use DiagnosticCode as C;
    let global = matches!(d.code, C::SystemHoisted | C::ToolDeclared)
        || (matches!(d.code, C::ToolNameProjected | C::ToolNameTrimmed)
            && d.message_index.is_none());
    if global {
        return Some(Reach::All);
    }
    let in_history = matches!(
        d.code,
        C::SpeakerRepaired
            | C::DuplicateCallDropped
            | C::DuplicateCallIdRenamed
            | C::DuplicateResultDropped
            | C::OrphanResultAsText
            | C::OrphanResultDropped
            | C::OrphanCallReconstructed
            | C::SyntheticResultAdded
            | C::ResultMoved
            | C::EmptyTextRemoved
            | C::EmptyMessageRemoved
            | C::EmptyResultFilled
            | C::ParametersNormalized
            | C::AbortedTurnTrimmed
            | C::ThinkingDropped
            | C::ThinkingAsText
            | C::ContinuityDropped
            | C::MessagesMerged
            | C::LeadingUserInserted
            | C::BlockOmitted
            | C::MediaMoved
            | C::BlockMoved
            | C::MediaTypeCorrected
            | C::ToolNameProjected
            | C::ToolNameTrimmed
            | C::ServerToolAsText
            | C::SystemMoved
    );
    if !in_history {
        return None;
    }
    // a repair with no position (an inserted first turn) is before everything
    Some(match d.message_index {
        Some(m) => Reach::At(m, d.block_index),
        None => Reach::All,
    })
}

/// Whether `d` is a repair that changes bytes a signed block's prefix holds, and whether it
/// changes them before every block (`system`, `tools`): `(changes, everywhere)`. The
/// incremental renderer falls back to a whole render when such a repair and a signed block it
/// reaches lie on two sides of its boundary.
pub(crate) fn reaches(d: &Diagnostic) -> (bool, bool) {
    match reach(d) {
        None => (false, false),
        Some(Reach::All) => (true, true),
        Some(Reach::At(..)) => (true, false),
    }
}

/// Whether the request binds signed thinking to its prefix: a model that does, thinking on.
pub(crate) fn binds(options: &NormalizeOptions, thinking_on: bool) -> bool {
    // Claude on Bedrock binds as Claude does (BDR-17)
    matches!(
        options.target,
        Provider::Anthropic | Provider::BedrockConverse
    ) && options.caps.thinking_binding
        && thinking_on
}

/// Whether a change of `r` lies before the block at input (message, block) `at`.
fn before(r: Reach, (m, b): (usize, usize)) -> bool {
    match r {
        Reach::All => true,
        Reach::At(j, bi) => j < m || (j == m && bi.is_some_and(|x| x < b)),
    }
}

/// Reports the first signed thinking block (`thinking`, `redacted_thinking`) a repair reached
/// before, on a model that binds thinking, with thinking on; the messages pass unchanged.
pub(crate) fn report(
    msgs: Vec<Msg>,
    options: &NormalizeOptions,
    thinking_on: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if !binds(options, thinking_on) {
        return msgs;
    }
    let repairs: Vec<(Reach, &Diagnostic)> = diags
        .iter()
        .filter_map(|d| reach(d).map(|r| (r, d)))
        .collect();
    if repairs.is_empty() {
        return msgs;
    }
    let signed = msgs.iter().flat_map(|m| &m.items).filter_map(|i| {
        let keeps = matches!(
            &i.block,
            Block::Thinking(t) if matches!(
                t.meta,
                Some(ProviderMeta::AnthropicSignature { .. } | ProviderMeta::AnthropicRedacted { .. })
            )
        );
        if keeps {
            i.origin
        } else {
            None
        }
    });
    let mut first = None;
    let mut count = 0usize;
    for at in signed {
        let cause = repairs.iter().find(|(r, _)| before(*r, at));
        if let Some((_, d)) = cause {
            count += 1;
            if first.is_none() {
                first = Some((at, d.code, d.message_index));
            }
        }
    }
    let Some(((m, b), code, where_)) = first else {
        return msgs;
    };
    let place = match where_ {
        Some(j)
            if !matches!(
                code,
                DiagnosticCode::SystemHoisted | DiagnosticCode::ToolDeclared
            ) =>
        {
            format!("message {j}")
        }
        _ => "the system prompt or the tool declarations".to_string(),
    };
    let more = match count {
        1 => String::new(),
        n => format!(" (and {} later signed blocks)", n - 1),
    };
    let mut d = Diagnostic::new(
        DiagnosticCode::ThinkingPrefixChanged,
        FaultClass::ProviderProjection,
        format!(
            "the signed thinking block at message {m} block {b}{more} follows a repair that changed {place} ({}); {} binds a thinking block to everything before it, so the API drops the block (`thinking.block_binding.prefix_mismatch_behavior: \"drop_block\"`, sent with its beta) or, set to \"error\", refuses the request (ANT-52)",
            code.as_str(),
            options.model
        ),
    )
    .at(Some((m, b)))
    .at_path(format!("$[{m}].blocks[{b}]"));
    if count > 1 {
        d.count = Some(count);
    }
    diags.push(d);
    msgs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diag(code: DiagnosticCode, at: Option<(usize, usize)>) -> Diagnostic {
        Diagnostic::new(code, FaultClass::PairingOrdering, "x").at(at)
    }

    #[test]
    fn a_history_repair_reaches_the_blocks_after_it_and_settings_reach_none() {
        let r = reach(&diag(DiagnosticCode::SyntheticResultAdded, Some((2, 0))));
        assert_eq!(r, Some(Reach::At(2, Some(0))));
        assert!(before(Reach::At(2, Some(0)), (3, 0)));
        assert!(!before(Reach::At(2, Some(0)), (1, 0)));
        assert!(before(Reach::At(3, Some(0)), (3, 1)));
        assert!(!before(Reach::At(3, Some(1)), (3, 0)));
        assert_eq!(
            reach(&diag(DiagnosticCode::ToolDeclared, Some((9, 0)))),
            Some(Reach::All)
        );
        assert_eq!(reach(&diag(DiagnosticCode::SamplingAdjusted, None)), None);
        assert_eq!(
            reach(&diag(
                DiagnosticCode::ContinuationUserInserted,
                Some((4, 0))
            )),
            None
        );
    }
}
