//! `ANT-45`: models that take no forced tool choice (Fable 5.1, Mythos 5.1: the capability
//! table's `forced_tool_choice`).

use serde_json::{Map, Value};

use crate::models::capabilities;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// The API's text (anthropics/claude-cookbooks#854, 2026-09-02, claude-fable-5-1).
pub(super) const ANT_45_MSG: &str =
    "tool_choice: type \"tool\" and \"any\" are not supported for this model.";

/// ANT-45: no `tool_choice` of type `tool` or `any` on a model that refuses one.
pub(super) fn check_ant_45_forced_choice(obj: &Map<String, Value>, out: &mut Findings) {
    let forced = matches!(
        obj.get("tool_choice")
            .and_then(|c| c.get("type"))
            .and_then(Value::as_str),
        Some("tool" | "any")
    );
    let refused = obj
        .get("model")
        .and_then(Value::as_str)
        .and_then(|m| capabilities(Provider::Anthropic, m))
        .is_some_and(|c| !c.forced_tool_choice);
    if forced && refused {
        out.push(
            "ANT-45",
            Path::root().k("tool_choice").k("type"),
            ANT_45_MSG,
        );
    }
}
