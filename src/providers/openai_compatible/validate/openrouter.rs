//! OpenRouter's `reasoning_details` on assistant messages (ORT-02): the one server that takes
//! them ([`CompatRules::reasoning_details`]), and the Gemini 3 models there that refuse a tool
//! loop without them.

use serde_json::Value;

use super::rules::CompatRules;
use super::view::{model_lower, WireMsg};
use crate::providers::validate_support::Findings;

/// The assistant member OpenRouter reads reasoning back from.
pub(super) const DETAILS: &str = "reasoning_details";

/// OpenRouter's answer when a Gemini model's reasoning details are missing (microsoft/
/// agent-framework#2947, `error.metadata.raw`, before Google's own words).
const ORT_02: &str = "Gemini models require OpenRouter reasoning details to be preserved in each request. Please refer to our docs: https://openrouter.ai/docs/guides/best-practices/reasoning-tokens#preserving-reasoning-blocks.";

/// Whether the body was written for OpenRouter: an assistant message carries a
/// `reasoning_details` array of OpenRouter's items (`type` `reasoning.text`, `reasoning.summary`
/// or `reasoning.encrypted`), a field no other server defines.
pub(super) fn written_for_openrouter(msgs: &[WireMsg<'_>]) -> bool {
    msgs.iter().any(|m| {
        m.is("assistant")
            && m.field(DETAILS)
                .and_then(Value::as_array)
                .is_some_and(|items| !items.is_empty() && items.iter().all(is_detail))
    })
}

fn is_detail(item: &Value) -> bool {
    matches!(
        item.get("type").and_then(Value::as_str),
        Some("reasoning.text" | "reasoning.summary" | "reasoning.encrypted")
    )
}

/// ORT-02: on OpenRouter, a Gemini 3 model (`google/gemini-3…`) needs the reasoning details it
/// gave back on every assistant message with `tool_calls` of the current turn (after the last
/// user message): Google refuses a function call without its thought signature, which
/// OpenRouter carries in them.
pub(super) fn check_ort_02_details_kept(
    body: &Value,
    msgs: &[WireMsg<'_>],
    rules: &CompatRules,
    out: &mut Findings,
) {
    let model = model_lower(body);
    let name = model.rsplit('/').next().unwrap_or_default();
    if !rules.reasoning_details || !name.starts_with("gemini-3") {
        return;
    }
    let turn = msgs.iter().rposition(|m| m.is("user")).map_or(0, |i| i + 1);
    for m in msgs.iter().skip(turn) {
        if m.is("assistant") && m.has_tool_calls() && !m.field(DETAILS).is_some_and(Value::is_array)
        {
            out.push("ORT-02", m.path(), ORT_02.to_string());
        }
    }
}
