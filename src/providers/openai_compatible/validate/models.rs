//! Rules that follow the model a compatible server runs, read from the body's `model` and the
//! capability table: `XAI-02` (xAI's reasoning-effort allow-list) and `KIM-12` (GLM-5 thinks by
//! default and wants `reasoning_content` on every assistant tool-call message).

use serde_json::Value;

use super::view::{model_lower, thinking_type, WireMsg};
use crate::models::{capabilities, ReasoningField};
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// The reasoning field GLM-5 reads on assistant messages.
pub(super) const GLM_FIELD: &str = "reasoning_content";

/// Whether the body's model needs its reasoning back on tool-call turns (GLM-5).
pub(super) fn needs_reasoning(body: &Value) -> bool {
    capabilities(Provider::OpenAiCompatible, &model_lower(body))
        .is_some_and(|c| c.reasoning_field == ReasoningField::RequiredOnToolTurns)
}

/// XAI-02: a Grok model takes `reasoning_effort` only when it is on xAI's allow-list, and then
/// one of its levels.
pub(super) fn check_xai_02_effort(body: &Value, out: &mut Findings) {
    let Some(effort) = body.get("reasoning_effort") else {
        return;
    };
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let Some(caps) = capabilities(Provider::OpenAiCompatible, model) else {
        return;
    };
    if caps.family != "xai-grok" {
        return;
    }
    let path = Path::root().k("reasoning_effort");
    if caps.efforts.is_empty() {
        out.push(
            "XAI-02",
            path,
            format!("Model {model} does not support parameter reasoningEffort"),
        );
    } else if !effort.as_str().is_some_and(|e| caps.efforts.contains(&e)) {
        out.push(
            "XAI-02",
            path,
            format!(
                "reasoningEffort for model {model} must be one of: {}",
                caps.efforts.join(", ")
            ),
        );
    }
}

/// KIM-12: with thinking on (GLM-5's default), every assistant message with `tool_calls`
/// carries a string `reasoning_content`.
pub(super) fn check_kim_12_reasoning_content(
    body: &Value,
    msgs: &[WireMsg<'_>],
    out: &mut Findings,
) {
    if !needs_reasoning(body) || thinking_type(body) == Some("disabled") {
        return;
    }
    for m in msgs
        .iter()
        .filter(|m| m.is("assistant") && m.has_tool_calls())
    {
        if !m.field(GLM_FIELD).is_some_and(Value::is_string) {
            out.push(
                "KIM-12",
                m.path(),
                format!(
                    "thinking is enabled but reasoning_content is missing in assistant tool call \
                     message at index {}",
                    m.idx
                ),
            );
        }
    }
}
