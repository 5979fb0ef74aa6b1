//! Ollama's `think`: `true` / `false`, or a level (`"low" | "medium" | "high"`) for the models
//! whose row lists levels (gpt-oss, which always reasons). Sent only when the options say:
//! a thinking model thinks by default (the server sets `think` when it is absent), and `think`
//! to a model without thinking is a 400 (`"qwen2.5:7b" does not support thinking`, OLL-04).
//! What cannot be sent (a budget, a level to a boolean model, off to gpt-oss) is a
//! `thinking_budget_adjusted` note.

use crate::json::out::Out;
use crate::models::always_thinks;
use crate::providers::openai_chat::thinking::chat_effort;
use crate::providers::Projection;
use crate::request::{thinking_note as note, RenderOptions, Resolved};

/// The `think` member of the body, if any.
pub(super) fn think(o: &RenderOptions, r: &Resolved, p: &mut Projection) -> Option<Out<'static>> {
    let asked = r.thinking.as_ref()?;
    let model = &o.model;
    if let Some(b) = asked.budget_tokens {
        p.extend_notes(Some(note(
            format!("Ollama takes no thinking budget; budget {b} was not sent"),
            "$.thinking.budgetTokens",
        )));
    }
    if !asked.enabled {
        if always_thinks(o.provider, model) {
            p.extend_notes(Some(note(
                format!("{model} always reasons; `think: false` was not sent"),
                "$.thinking.enabled",
            )));
            return None;
        }
        return Some(Out::from(false));
    }
    let levels = r.caps.efforts;
    match asked.effort.as_deref() {
        Some(e) if !levels.is_empty() => {
            let level = chat_effort(e, levels, false).unwrap_or("medium");
            if level != e {
                p.extend_notes(Some(note(
                    format!("{model} takes `think` at low, medium or high; effort `{e}` was sent as `{level}`"),
                    "$.thinking.effort",
                )));
            }
            Some(Out::from(level))
        }
        Some(e) => {
            p.extend_notes(Some(note(
                format!(
                    "{model} takes `think` as a boolean; effort `{e}` was not sent (thinking on)"
                ),
                "$.thinking.effort",
            )));
            Some(Out::from(true))
        }
        None => Some(Out::from(true)),
    }
}
