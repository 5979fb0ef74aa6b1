//! What the wires' thinking builders share (`providers/anthropic/thinking.rs`,
//! `providers/gemini/thinking.rs`): the effort level sent for the one asked, and the note on
//! what could not be sent as asked.
//!
//! Anthropic: a budget for
//! Claude 4.5 and earlier (`{"type": "enabled", "budget_tokens"}`), adaptive thinking for
//! Claude 4.6 and later (`{"type": "adaptive"}`; Opus 4.6 and Sonnet 4.6 still take a budget
//! the caller asks for, Opus 4.7 and later refuse one, ANT-34), and `output_config.effort` at
//! the highest level the model takes that is not above the caller's (ANT-41).
//!
//! Gemini 3: `thinkingConfig.thinkingLevel` from the caller's `effort`, at the highest level the
//! model takes that is not above it (GEM-14); a caller's `budgetTokens` without an effort is sent
//! as `thinkingBudget`, which Gemini 3 still takes; with neither, the model's own default level.
//! Never both (GEM-14). Gemini 2.5 takes a budget only.

use crate::models::EFFORTS;
use crate::vocab::{Diagnostic, DiagnosticCode};

/// A `thinking_budget_adjusted` note on the option at `path`.
pub(crate) fn note(message: String, path: &str) -> Diagnostic {
    super::controls::note(DiagnosticCode::ThinkingBudgetAdjusted, message).at_path(path)
}

/// The effort level of `levels` (lowest first) sent for `asked`: the highest one not above it,
/// or the lowest when all are above.
///
/// ```ignore
/// assert_eq!(effort_level("xhigh", &["low", "medium", "high", "max"]), Some("high"));
/// ```
pub(crate) fn effort_level(asked: &str, levels: &[&'static str]) -> Option<&'static str> {
    let rank = |e: &str| EFFORTS.iter().position(|x| *x == e);
    let asked = rank(asked)?;
    levels
        .iter()
        .rev()
        .find(|l| rank(l).is_some_and(|r| r <= asked))
        .or(levels.first())
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_effort_sent_is_the_highest_level_not_above_the_one_asked() {
        let to_max = &["low", "medium", "high", "max"];
        assert_eq!(effort_level("xhigh", to_max), Some("high"));
        assert_eq!(effort_level("max", to_max), Some("max"));
        assert_eq!(effort_level("minimal", to_max), Some("low"));
        assert_eq!(effort_level("none", to_max), Some("low"));
        assert_eq!(
            effort_level("medium", &["low", "medium", "high"]),
            Some("medium")
        );
        assert_eq!(effort_level("high", &[]), None);
        assert_eq!(effort_level("turbo", to_max), None);
    }
}
