//! The thinking switch and effort of Anthropic and Gemini, chosen from the capability table.
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

use serde_json::Value;

use super::{RenderOptions, Resolved, DEFAULT_THINKING_BUDGET};
use crate::json::obj::obj;
use crate::models::{ThinkingMode, EFFORTS};
use crate::vocab::{Diagnostic, DiagnosticCode};

/// What an Anthropic request is sent with for thinking.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct AnthropicThinking {
    /// The `thinking` member, when thinking is on.
    pub thinking: Option<Value>,
    /// The `output_config.effort` level to send.
    pub effort: Option<&'static str>,
    /// What could not be sent as asked, as diagnostics.
    pub notes: Vec<Diagnostic>,
}

fn note(message: String, path: &str) -> Diagnostic {
    super::controls::note(DiagnosticCode::ThinkingBudgetAdjusted, message).at_path(path)
}

/// Adaptive thinking; with a `summary`, its `display`: `omitted` for `none`, else `summarized`.
fn adaptive(summary: Option<&str>) -> Value {
    match summary {
        None => obj!({"type": "adaptive"}),
        Some("none") => obj!({"type": "adaptive", "display": "omitted"}),
        Some(_) => obj!({"type": "adaptive", "display": "summarized"}),
    }
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

/// Resolves Anthropic's thinking member and effort for this request; `on` is whether thinking
/// stays on after the normaliser.
pub(crate) fn anthropic_thinking(o: &RenderOptions, r: &Resolved, on: bool) -> AnthropicThinking {
    let mut out = AnthropicThinking::default();
    let asked_budget = r.thinking.as_ref().and_then(|t| t.budget_tokens);
    let summary = r.thinking.as_ref().and_then(|t| t.summary.as_deref());
    if on {
        let budget = r.limits.thinking_budget.unwrap_or(DEFAULT_THINKING_BUDGET);
        out.thinking = Some(match r.caps.thinking_mode {
            ThinkingMode::Budget => obj!({"type": "enabled", "budget_tokens": budget}),
            ThinkingMode::AdaptiveOrBudget if asked_budget.is_some() => {
                obj!({"type": "enabled", "budget_tokens": budget})
            }
            ThinkingMode::AdaptiveOrBudget => adaptive(summary),
            ThinkingMode::Adaptive => {
                if let Some(b) = asked_budget {
                    out.notes.push(note(
                        format!("{} thinks adaptively and refuses a thinking budget (ANT-34); budgetTokens {b} was not sent (maxTokens caps thinking and answer together; `effort` steers how much it thinks)", o.model),
                        "$.thinking.budgetTokens",
                    ));
                }
                adaptive(summary)
            }
        });
        if summary == Some("none")
            && out.thinking.as_ref().and_then(|t| t.get("type")) == Some(&Value::from("enabled"))
        {
            out.notes.push(note(
                format!("{} thinks with a budget and always returns its thinking summarized; summary `none` was not sent", o.model),
                "$.thinking.summary",
            ));
        }
    }
    let Some(asked) = r.thinking.as_ref().and_then(|t| t.effort.as_deref()) else {
        return out;
    };
    out.effort = effort_level(asked, r.caps.efforts);
    match out.effort {
        None => out.notes.push(note(
            format!(
                "{} takes no effort parameter (ANT-41); effort `{asked}` was not sent",
                o.model
            ),
            "$.thinking.effort",
        )),
        Some(sent) if sent != asked => out.notes.push(note(
            format!(
                "{} takes the efforts {} (ANT-41); effort `{asked}` was sent as `{sent}`",
                o.model,
                r.caps.efforts.join(", ")
            ),
            "$.thinking.effort",
        )),
        Some(_) => {}
    }
    out
}

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
