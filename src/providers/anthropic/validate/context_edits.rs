//! `ANT-46`: `context_management.edits` (`BetaContextManagementConfig`): the thinking-clearing
//! edit needs thinking on and comes first.

use serde_json::{Map, Value};

use crate::providers::anthropic::context_edits::is_clear_thinking;
use crate::providers::validate_support::{Findings, Path};

/// ANT-46: a `clear_thinking_*` edit only with thinking on, and only first.
pub(super) fn check_ant_46_context_edits(
    obj: &Map<String, Value>,
    thinking_on: bool,
    out: &mut Findings,
) {
    let Some(Value::Array(edits)) = obj.get("context_management").and_then(|c| c.get("edits"))
    else {
        return;
    };
    let path = Path::root().k("context_management").k("edits");
    for (i, edit) in edits.iter().enumerate() {
        if !is_clear_thinking(edit) {
            continue;
        }
        let ty = edit
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("clear_thinking_20251015");
        if !thinking_on {
            // router-for-me/CLIProxyAPI#4957 (2026-08-14); "…to be enabled" before adaptive
            out.push(
                "ANT-46",
                path.i(i),
                format!("`{ty}` strategy requires `thinking` to be enabled or adaptive"),
            );
        }
        if i > 0 {
            out.push(
                "ANT-46",
                path.i(i),
                format!("`{ty}` must be the first entry of `context_management.edits`"),
            );
        }
    }
}
