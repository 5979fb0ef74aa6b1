//! Gemini's `thinkingConfig`, chosen from the capability table. Gemini 3:
//! `thinkingConfig.thinkingLevel` from the caller's `effort`, at the highest level the model
//! takes that is not above it (GEM-14); a caller's `budgetTokens` without an effort is sent as
//! `thinkingBudget`, which Gemini 3 still takes; with neither, the model's own default level.
//! Never both (GEM-14). Gemini 2.5 takes a budget only.

use serde_json::Value;

use crate::request::{
    effort_level, thinking_note as note, RenderOptions, Resolved, DEFAULT_THINKING_BUDGET,
};
use crate::vocab::Diagnostic;

/// Gemini's `thinkingConfig` for this request, when thinking is on, and what could not be sent
/// as asked.
pub(crate) fn gemini_thinking(
    o: &RenderOptions,
    r: &Resolved,
    on: bool,
) -> (Option<Value>, Vec<Diagnostic>) {
    let mut notes = Vec::new();
    if !on {
        return (None, notes);
    }
    let asked = r.thinking.as_ref();
    let effort = asked.and_then(|t| t.effort.as_deref());
    let budget = r.limits.thinking_budget.unwrap_or(DEFAULT_THINKING_BUDGET);
    let mut config = serde_json::Map::new();
    // summary `none`: the thought summaries are not returned
    let thoughts = asked.and_then(|t| t.summary.as_deref()) != Some("none");
    config.insert("includeThoughts".into(), thoughts.into());
    if r.caps.efforts.is_empty() {
        config.insert("thinkingBudget".into(), budget.into());
        if let Some(e) = effort {
            notes.push(note(
                format!("{} takes a thinking budget and no thinking level (GEM-14); effort `{e}` was not sent", o.model),
                "$.thinking.effort",
            ));
        }
        return (Some(Value::Object(config)), notes);
    }
    match effort.and_then(|e| effort_level(e, r.caps.efforts).map(|l| (e, l))) {
        Some((e, level)) => {
            if level != e {
                notes.push(note(
                    format!(
                        "{} takes the thinking levels {} (GEM-14); effort `{e}` was sent as `{}`",
                        o.model,
                        r.caps.efforts.join(", "),
                        level.to_ascii_uppercase()
                    ),
                    "$.thinking.effort",
                ));
            }
            config.insert("thinkingLevel".into(), level.to_ascii_uppercase().into());
            if let Some(b) = asked.and_then(|t| t.budget_tokens) {
                notes.push(note(
                    format!("Gemini takes a thinking level or a thinking budget, not both (GEM-14); the level from effort `{e}` was sent and budgetTokens {b} was not"),
                    "$.thinking.budgetTokens",
                ));
            }
        }
        None if asked.and_then(|t| t.budget_tokens).is_some() => {
            config.insert("thinkingBudget".into(), budget.into());
        }
        None => {}
    }
    (Some(Value::Object(config)), notes)
}
