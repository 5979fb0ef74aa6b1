//! Thinking: `KIM-03` (in thinking mode, assistant tool-call messages carry `reasoning_content`)
//! and when a body is in thinking mode.

use serde_json::Value;

use crate::models::{capabilities, ReasoningField};
use crate::providers::openai_compatible::validate::view::{
    any_assistant_has, messages, model_lower, thinking_type, WireMsg, STRUCT,
};
use crate::providers::validate_support::Findings;
use crate::vocab::Provider;

/// The reasoning field Kimi reads on assistant messages.
const FIELD: &str = "reasoning_content";

/// Model families that think unless the body sends `"thinking": {"type": "disabled"}` (Kimi
/// K2.5 and K2.6 think by default; K2.7 code models and K3 always think).
const THINKING_BY_DEFAULT: [&str; 4] = ["k2.5", "k2.6", "k2.7", "kimi-k3"];

/// Whether the model of `body` thinks (see [`validate`](super::validate)).
pub(super) fn thinking_from_body(body: &Value) -> bool {
    let model = model_lower(body);
    if crate::models::always_thinks(Provider::Kimi, &model) {
        return true;
    }
    match thinking_type(body) {
        Some("enabled") => return true,
        Some("disabled") => return false,
        _ => {}
    }
    if never_thinks(&model) {
        return false;
    }
    THINKING_BY_DEFAULT.iter().any(|f| model.contains(f))
        || any_assistant_has(&messages(body), FIELD)
}

/// Whether the capability table says the model does not think: its row takes
/// `reasoning_content` back without requiring it (`kimi-k2-0711-preview`,
/// `kimi-k2-0905-preview`, `kimi-k2-turbo-preview`; Moonshot documents none of them as a
/// thinking model, docs/research/thinking-limits.md §5). Moonshot rejects a tool-call message
/// without `reasoning_content` only when thinking is enabled (KIM-03's message), so for these
/// models the renderer may replay a Kimi turn's reasoning on one message and leave it off a
/// foreign tool-call turn, and that `reasoning_content` does not put the body in thinking mode.
fn never_thinks(model: &str) -> bool {
    capabilities(Provider::Kimi, model)
        .is_some_and(|c| c.reasoning_field == ReasoningField::Accepted)
}

/// KIM-03 when `thinking`; `OAC-STRUCT` for a non-string `reasoning_content` elsewhere.
pub(super) fn check_kim_03_reasoning_content(
    msgs: &[WireMsg<'_>],
    thinking: bool,
    out: &mut Findings,
) {
    for m in msgs.iter().filter(|m| m.is("assistant")) {
        let required = thinking && m.has_tool_calls();
        match m.field(FIELD) {
            Some(Value::String(_)) => {}
            Some(_) => out.push(
                if required { "KIM-03" } else { STRUCT },
                m.path().k(FIELD),
                "reasoning_content must be a string",
            ),
            None if required => out.push(
                "KIM-03",
                m.path(),
                format!(
                    "thinking is enabled but reasoning_content is missing in assistant tool call \
                     message at index {}",
                    m.idx
                ),
            ),
            None => {}
        }
    }
}
