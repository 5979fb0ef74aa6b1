//! Assistant content: `MIS-04` (content or tool_calls) and the shape of Mistral's `thinking`
//! chunks (`{"type": "thinking", "thinking": [{"type": "text", "text": ...}]}`), the part type
//! Mistral accepts on assistant messages beyond OpenAI's.

use serde_json::Value;

use crate::providers::openai_compatible::validate::view::{WireMsg, STRUCT};
use crate::providers::validate_support::Findings;

/// MIS-04: an assistant message has non-empty content or non-empty `tool_calls`.
pub(super) fn check_mis_04_content_or_calls(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for m in msgs.iter().filter(|m| m.is("assistant")) {
        let has_content = match m.obj.get("content") {
            Some(Value::String(s)) => !s.is_empty(),
            Some(Value::Array(parts)) => !parts.is_empty(),
            _ => false,
        };
        if !has_content && !m.has_tool_calls() {
            out.push(
                "MIS-04",
                m.path(),
                "Assistant message must have either content or tool_calls, but not none.",
            );
        }
    }
}

/// Shape of `thinking` chunks in assistant content: `thinking` is a non-empty array of
/// `{"type": "text", "text": <string>}`.
pub(super) fn check_thinking_chunks(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for m in msgs.iter().filter(|m| m.is("assistant")) {
        let Some(parts) = m.obj.get("content").and_then(Value::as_array) else {
            continue;
        };
        for (p, part) in parts.iter().enumerate() {
            if part.get("type").and_then(Value::as_str) != Some("thinking") {
                continue;
            }
            let tpath = m.path().k("content").i(p).k("thinking");
            let Some(chunks) = part.get("thinking").and_then(Value::as_array) else {
                out.push(
                    STRUCT,
                    tpath,
                    "a \"thinking\" part needs `thinking` as an array of text chunks",
                );
                continue;
            };
            if chunks.is_empty() {
                out.push(
                    STRUCT,
                    tpath.clone(),
                    "a \"thinking\" part needs at least one text chunk",
                );
            }
            for (q, chunk) in chunks.iter().enumerate() {
                let ok = chunk.get("type").and_then(Value::as_str) == Some("text")
                    && chunk.get("text").is_some_and(Value::is_string);
                if !ok {
                    out.push(
                        STRUCT,
                        tpath.i(q),
                        "a thinking chunk must be {\"type\": \"text\", \"text\": <string>}",
                    );
                }
            }
        }
    }
}
