//! Anthropic's thinking member and effort, chosen from the capability table: a budget for
//! Claude 4.5 and earlier (`{"type": "enabled", "budget_tokens"}`), adaptive thinking for
//! Claude 4.6 and later (`{"type": "adaptive"}`; Opus 4.6 and Sonnet 4.6 still take a budget
//! the caller asks for, Opus 4.7 and later refuse one, ANT-34), and `output_config.effort` at
//! the highest level the model takes that is not above the caller's (ANT-41).

use serde_json::Value;

use crate::json::obj::obj;
use crate::models::ThinkingMode;
use crate::request::{
    effort_level, thinking_note as note, RenderOptions, Resolved, DEFAULT_THINKING_BUDGET,
};
use crate::vocab::Diagnostic;

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

/// Adaptive thinking; with a `summary`, its `display`: `omitted` for `none`, else `summarized`.
fn adaptive(summary: Option<&str>) -> Value {
    match summary {
        None => obj!({"type": "adaptive"}),
        Some("none") => obj!({"type": "adaptive", "display": "omitted"}),
        Some(_) => obj!({"type": "adaptive", "display": "summarized"}),
    }
}

/// The binding controls turnwire sends on the models that bind thinking to its conversation
/// (ANT-52): a block whose prefix changed is dropped (and reported in the answer's
/// `input_transformations`) instead of failing the request; it goes with the
/// `thinking-binding-controls-2026-08-01` beta (`betas.rs`).
fn drop_block() -> Value {
    obj!({"prefix_mismatch_behavior": "drop_block"})
}

/// After `providerOptions` were merged (ANT-52): `block_binding` stays only on an `enabled` or
/// `adaptive` config. The render's own is taken off a config the caller switched to
/// `disabled` or `between_tools` (which refuse the field); one the caller's patch gives there
/// is theirs, and the validator reports it. A config the caller switched on for a model that
/// `binds` gets `drop_block`, as the render's own does.
pub(crate) fn settle_binding(body: &mut Value, patch: &Value, binds: bool) {
    let given = patch
        .get("thinking")
        .and_then(|t| t.get("block_binding"))
        .is_some();
    let Some(Value::Object(t)) = body.get_mut("thinking") else {
        return;
    };
    let takes = matches!(
        t.get("type").and_then(Value::as_str),
        Some("enabled" | "adaptive")
    );
    if !takes && !given {
        t.remove("block_binding");
    } else if takes && binds && !t.contains_key("block_binding") {
        t.insert("block_binding".into(), drop_block());
    }
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
        if r.caps.thinking_binding {
            if let Some(Value::Object(t)) = out.thinking.as_mut() {
                t.insert("block_binding".into(), drop_block());
            }
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ant_52_binding_leaves_a_config_that_refuses_it_unless_the_caller_gave_it() {
        let ours = json!({"type": "between_tools", "block_binding": {"prefix_mismatch_behavior": "drop_block"}});
        let mut body = json!({"thinking": ours});
        settle_binding(
            &mut body,
            &json!({"thinking": {"type": "between_tools"}}),
            true,
        );
        assert_eq!(body["thinking"], json!({"type": "between_tools"}));
        let mut kept = json!({"thinking": {"type": "adaptive", "block_binding": {}}});
        settle_binding(
            &mut kept,
            &json!({"thinking": {"display": "omitted"}}),
            true,
        );
        assert_eq!(kept["thinking"]["block_binding"], json!({}));
        let theirs = json!({"thinking": {"type": "disabled", "block_binding": {"prefix_mismatch_behavior": "error"}}});
        let mut body = theirs.clone();
        settle_binding(&mut body, &theirs, true);
        assert_eq!(body, theirs);
        // switched on by the caller: drop_block on a model that binds, nothing elsewhere
        let on = json!({"thinking": {"type": "adaptive"}});
        let mut body = on.clone();
        settle_binding(&mut body, &on, true);
        assert_eq!(
            body["thinking"]["block_binding"],
            json!({"prefix_mismatch_behavior": "drop_block"})
        );
        let mut body = on.clone();
        settle_binding(&mut body, &on, false);
        assert_eq!(body, on);
    }
}
