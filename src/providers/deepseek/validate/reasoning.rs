//! Thinking mode: `DSK-03` (assistant tool-call messages of the current tool loop carry
//! `reasoning_content`) and when a body is in thinking mode.

use serde_json::Value;

use crate::providers::openai_compatible::validate::view::{
    any_assistant_has, messages, model_lower, thinking_type, WireMsg, STRUCT,
};
use crate::providers::validate_support::Findings;

/// The reasoning field DeepSeek reads on assistant messages.
const FIELD: &str = "reasoning_content";

/// Whether the model of `body` is `deepseek-reasoner` (DSK-01).
pub(super) fn is_reasoner(body: &Value) -> bool {
    crate::models::always_thinks(crate::vocab::Provider::DeepSeek, &model_lower(body))
}

/// Whether the body is a thinking-mode request (see [`validate`](super::validate)).
pub(super) fn thinking_from_body(body: &Value) -> bool {
    if is_reasoner(body) {
        return true;
    }
    match thinking_type(body) {
        Some("enabled") => return true,
        Some("disabled") => return false,
        _ => {}
    }
    let model = model_lower(body);
    // V4 thinks by default (DSK-10); V3.2 is taken to think when its history carries reasoning.
    model.contains("v4") || (model.contains("v3.2") && any_assistant_has(&messages(body), FIELD))
}

/// The efforts DeepSeek documents: `high` and `max`, with `low` / `medium` taken as `high` and
/// `xhigh` as `max` (DSK-10).
const EFFORTS: [&str; 5] = ["low", "medium", "high", "xhigh", "max"];

/// DSK-10: `reasoning_effort` is one of the efforts DeepSeek documents.
pub(super) fn check_dsk_10_effort(body: &Value, out: &mut Findings) {
    let Some(effort) = body.get("reasoning_effort") else {
        return;
    };
    if effort.as_str().is_some_and(|e| EFFORTS.contains(&e)) {
        return;
    }
    out.push(
        "DSK-10",
        crate::providers::validate_support::Path::root().k("reasoning_effort"),
        format!("reasoning_effort must be `high` or `max` (`low` and `medium` are taken as `high`, `xhigh` as `max`), got {effort}"),
    );
}

/// DSK-03 when `thinking`: every assistant message with `tool_calls` after the last user message
/// (the current tool loop) carries a string `reasoning_content`; empty counts as present. A
/// non-string `reasoning_content` is DSK-03 there and `OAC-STRUCT` elsewhere.
pub(super) fn check_dsk_03_reasoning_content(
    msgs: &[WireMsg<'_>],
    thinking: bool,
    out: &mut Findings,
) {
    let loop_start = msgs
        .iter()
        .rev()
        .find(|m| m.is("user"))
        .map_or(0, |m| m.idx + 1);
    for m in msgs.iter().filter(|m| m.is("assistant")) {
        let required = thinking && m.idx >= loop_start && m.has_tool_calls();
        match m.field(FIELD) {
            Some(Value::String(_)) => {}
            Some(_) => out.push(
                if required { "DSK-03" } else { STRUCT },
                m.path().k(FIELD),
                "reasoning_content must be a string",
            ),
            None if required => out.push(
                "DSK-03",
                m.path(),
                format!(
                    "Missing `reasoning_content` field in the assistant message at message index \
                     {}. For more information, please refer to \
                     https://api-docs.deepseek.com/guides/thinking_mode#tool-calls",
                    m.idx
                ),
            ),
            None => {}
        }
    }
}
