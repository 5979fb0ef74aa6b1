//! The chat dialects' thinking fields, chosen from the capability table ([`crate::models`]):
//!
//! - `thinking: {"type": "enabled" | "disabled"}` where the model takes the switch (Kimi K2,
//!   DeepSeek, GLM-5). Kimi K2.6 thinking (asked, or by default) gets `keep: "all"`, so the
//!   server reads every historical `reasoning_content` (KIM-10). A model that always thinks is
//!   never sent `disabled` (Kimi K2.7 code models answer 400, KIM-11); Kimi K3 takes no switch.
//! - `reasoning_effort`: OpenAI's at one of the model's levels (`max` from gpt-5.6 on, OAC-11),
//!   as given for a model whose levels are not known; elsewhere only to a model that takes one, at one of
//!   its levels (DeepSeek V4 `high`/`max`, DSK-10; Kimi K3 `low`/`high`/`max`, KIM-11; Mistral's
//!   adjustable models `none`/`high`, MIS-09; xAI's allow-list, XAI-02), never beside a
//!   `thinking` switch (`cannot specify both 'thinking' and 'reasoning_effort'`, KIM-10).
//!   Mistral's effort is its switch: thinking on without an effort is `high`, off is `none`.
//!
//! Every value sent other than asked, and every setting not sent, is a `thinking_budget_adjusted`
//! note at the option's path.

use crate::models::{always_thinks, EFFORTS};
use crate::request::{thinking_note as note, RenderOptions, Resolved};
use crate::vocab::Diagnostic;

/// What a chat body says about thinking.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ChatThinking {
    /// `thinking.type` (`enabled` / `disabled`), when the body carries the switch.
    pub switch: Option<&'static str>,
    /// `thinking.keep: "all"` (Kimi K2.6).
    pub keep_all: bool,
    /// `reasoning_effort`.
    pub effort: Option<String>,
    /// What was sent other than asked, or not sent.
    pub notes: Vec<Diagnostic>,
}

/// The effort level of `levels` (lowest first) sent for `asked`: `none` only when asked (and
/// taken); otherwise among the other levels, the lowest not below it when `round_up`, else the
/// highest not above it, clamped to the ends.
///
/// ```ignore
/// assert_eq!(chat_effort("xhigh", &["high", "max"], true), Some("max"));
/// assert_eq!(chat_effort("minimal", &["none", "low", "medium", "high"], false), Some("low"));
/// ```
pub(crate) fn chat_effort(
    asked: &str,
    levels: &[&'static str],
    round_up: bool,
) -> Option<&'static str> {
    let rank = |e: &str| EFFORTS.iter().position(|x| *x == e);
    let asked_rank = rank(asked)?;
    if asked == "none" {
        if let Some(none) = levels.iter().find(|l| **l == "none") {
            return Some(none);
        }
    }
    let on: Vec<&'static str> = levels.iter().copied().filter(|l| *l != "none").collect();
    let pick = if round_up {
        on.iter()
            .find(|l| rank(l).is_some_and(|r| r >= asked_rank))
            .or(on.last())
    } else {
        on.iter()
            .rev()
            .find(|l| rank(l).is_some_and(|r| r <= asked_rank))
            .or(on.first())
    };
    pick.copied()
}

/// The thinking fields of a chat body for this request. `effort_as_given`: the dialect takes
/// any effort as it is (OpenAI). `effort_is_switch`: the effort turns thinking on and off
/// (Mistral).
pub(crate) fn chat_thinking(
    o: &RenderOptions,
    r: &Resolved,
    effort_as_given: bool,
    effort_is_switch: bool,
) -> ChatThinking {
    let mut out = ChatThinking::default();
    let caps = r.caps;
    let asked = r.thinking.as_ref();
    let always = always_thinks(o.provider, &o.model);
    let model = &o.model;
    // The switch.
    if caps.thinking_switch {
        match asked {
            Some(t) if !t.enabled && always => out.notes.push(note(
                format!("{model} always thinks and refuses `thinking: {{\"type\": \"disabled\"}}` (KIM-11); thinking off was not sent"),
                "$.thinking.enabled",
            )),
            Some(t) => out.switch = Some(if t.enabled { "enabled" } else { "disabled" }),
            // K2.6 thinks unless told not to: its Preserved Thinking needs the switch sent.
            None if caps.thinking_keep_all => out.switch = Some("enabled"),
            None => {}
        }
        out.keep_all = caps.thinking_keep_all && out.switch == Some("enabled");
    } else if asked.is_some_and(|t| !t.enabled) && always {
        out.notes.push(note(
            format!("{model} always thinks and takes no `thinking` parameter (KIM-11); thinking off was not sent"),
            "$.thinking.enabled",
        ));
    }
    let Some(t) = asked else { return out };
    let levels = caps.efforts;
    // The effort.
    if effort_as_given {
        if let (true, Some(e)) = (t.enabled, &t.effort) {
            out.effort = Some(openai_effort(model, e, true, levels, &mut out.notes));
        }
        return out;
    }
    if !t.enabled {
        // Off: the switch says it, else Mistral's and xAI's `none` level where there is one.
        if out.switch.is_none() && levels.contains(&"none") {
            out.effort = Some("none".into());
        } else if let Some(e) = &t.effort {
            out.notes.push(not_sent(model, e, "thinking is off"));
        }
        return out;
    }
    let wanted = t
        .effort
        .as_deref()
        .or_else(|| effort_is_switch.then_some("high"));
    let Some(e) = wanted else { return out };
    if levels.is_empty() {
        if t.effort.is_some() {
            let why = if caps.family == "xai-grok" {
                format!("`{model}` takes no reasoning effort (xAI answers `Model {model} does not support parameter reasoningEffort`, XAI-02); effort `{e}` was not sent")
            } else {
                format!(
                    "`{}` takes no reasoning effort turnwire knows of; effort `{e}` was not sent",
                    o.provider
                )
            };
            out.notes.push(note(why, "$.thinking.effort"));
        }
        return out;
    }
    match chat_effort(e, levels, caps.efforts_round_up) {
        Some(level) => {
            if t.effort.as_deref().is_some_and(|asked| asked != level) {
                out.notes.push(note(
                    format!(
                        "{model} takes the reasoning efforts {}; effort `{e}` was sent as `{level}`",
                        levels.join(", ")
                    ),
                    "$.thinking.effort",
                ));
            }
            out.effort = Some(level.to_string());
        }
        None => out
            .notes
            .push(not_sent(model, e, "the effort is not one turnwire knows")),
    }
    out
}

/// OpenAI's effort for `asked` (Chat `reasoning_effort`, OAC-11; Responses `reasoning.effort`,
/// ORS-22): one of the model's `levels` (the highest not above it, `none` only when asked; `max`
/// from gpt-5.6 on), as given when the model's levels are not known. An `explicit` effort sent
/// other than asked gets a `thinking_budget_adjusted` note.
///
/// ```ignore
/// assert_eq!(openai_effort("gpt-5.5", "max", true, &["none", "low", "medium", "high", "xhigh"], &mut notes), "xhigh");
/// ```
pub(crate) fn openai_effort(
    model: &str,
    asked: &str,
    explicit: bool,
    levels: &[&'static str],
    notes: &mut Vec<Diagnostic>,
) -> String {
    let Some(level) = chat_effort(asked, levels, false) else {
        return asked.to_string();
    };
    if explicit && level != asked {
        notes.push(note(
            format!(
                "{model} takes the reasoning efforts {}; effort `{asked}` was sent as `{level}`",
                levels.join(", ")
            ),
            "$.thinking.effort",
        ));
    }
    level.to_string()
}

/// A note on an effort that was not sent, and why.
fn not_sent(model: &str, effort: &str, why: &str) -> Diagnostic {
    note(
        format!("`{model}`: {why}; effort `{effort}` was not sent"),
        "$.thinking.effort",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn efforts_round_to_the_models_levels() {
        let deepseek = &["high", "max"];
        assert_eq!(chat_effort("low", deepseek, true), Some("high"));
        assert_eq!(chat_effort("medium", deepseek, true), Some("high"));
        assert_eq!(chat_effort("xhigh", deepseek, true), Some("max"));
        assert_eq!(chat_effort("max", deepseek, true), Some("max"));
        let mistral = &["none", "high"];
        assert_eq!(chat_effort("none", mistral, true), Some("none"));
        assert_eq!(chat_effort("minimal", mistral, true), Some("high"));
        assert_eq!(chat_effort("max", mistral, true), Some("high"));
        let grok_4_3 = &["none", "low", "medium", "high"];
        assert_eq!(chat_effort("xhigh", grok_4_3, false), Some("high"));
        assert_eq!(chat_effort("minimal", grok_4_3, false), Some("low"));
        assert_eq!(chat_effort("none", grok_4_3, false), Some("none"));
        let multi_agent = &["low", "medium", "high", "xhigh"];
        assert_eq!(chat_effort("max", multi_agent, false), Some("xhigh"));
        assert_eq!(chat_effort("none", multi_agent, false), Some("low"));
        let k3 = &["low", "high", "max"];
        assert_eq!(chat_effort("medium", k3, false), Some("low"));
        assert_eq!(chat_effort("xhigh", k3, false), Some("high"));
        assert_eq!(chat_effort("turbo", k3, false), None);
        assert_eq!(chat_effort("high", &[], false), None);
    }
}
