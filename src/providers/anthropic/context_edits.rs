//! `context_management.edits` given through `providerOptions.anthropic` (ANT-46): the API takes
//! a `clear_thinking_20251015` edit only first in the list and only with thinking on. A body
//! whose edits break either is settled before it is checked: the thinking edit moves to the
//! front (`context_edits_reordered`), or is left out when the request runs with thinking off
//! (turnwire turns thinking off for a forced tool choice, ANT-36) (`request_field_dropped`).

use serde_json::Value;

use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Whether an edit is the thinking-clearing one (`clear_thinking_20251015` and later dates).
pub(crate) fn is_clear_thinking(edit: &Value) -> bool {
    edit.get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.starts_with("clear_thinking"))
}

/// Whether the body turns thinking on (`enabled` or `adaptive`).
pub(crate) fn thinking_on(body: &Value) -> bool {
    matches!(
        body.pointer("/thinking/type").and_then(Value::as_str),
        Some("enabled" | "adaptive")
    )
}

/// Settles the edits of `body` (see the module doc); the diagnostics of what changed.
pub(crate) fn settle(body: &mut Value) -> Vec<Diagnostic> {
    let mut notes = Vec::new();
    let on = thinking_on(body);
    let Some(Value::Array(edits)) = body.pointer_mut("/context_management/edits") else {
        return notes;
    };
    let Some(at) = edits.iter().position(is_clear_thinking) else {
        return notes;
    };
    if !on {
        edits.retain(|e| !is_clear_thinking(e));
        notes.push(
            Diagnostic::new(
                DiagnosticCode::RequestFieldDropped,
                FaultClass::ProviderProjection,
                "the `clear_thinking` context edit needs thinking on, and this request runs with thinking off; left out of `context_management.edits` (ANT-46)",
            )
            .at_path("$.providerOptions.anthropic.context_management.edits"),
        );
        return notes;
    }
    if at > 0 {
        let edit = edits.remove(at);
        edits.insert(0, edit);
        notes.push(
            Diagnostic::new(
                DiagnosticCode::ContextEditsReordered,
                FaultClass::ProviderProjection,
                format!("the `clear_thinking` context edit was at position {at} of `context_management.edits`; moved first, where the API takes it (ANT-46)"),
            )
            .at_path("$.providerOptions.anthropic.context_management.edits"),
        );
    }
    notes
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ant_46_clear_thinking_moves_first_or_goes_when_thinking_is_off() {
        let mut body = json!({"thinking": {"type": "adaptive"}, "context_management": {"edits": [
            {"type": "clear_tool_uses_20250919"}, {"type": "clear_thinking_20251015", "keep": "all"}
        ]}});
        let notes = settle(&mut body);
        assert_eq!(notes[0].code, DiagnosticCode::ContextEditsReordered);
        assert_eq!(
            body["context_management"]["edits"][0]["type"],
            "clear_thinking_20251015"
        );
        assert!(settle(&mut body).is_empty());
        body["thinking"] = json!({"type": "disabled"});
        let notes = settle(&mut body);
        assert_eq!(notes[0].code, DiagnosticCode::RequestFieldDropped);
        assert_eq!(
            body["context_management"]["edits"],
            json!([{"type": "clear_tool_uses_20250919"}])
        );
    }
}
