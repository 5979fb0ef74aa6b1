//! The `anthropic-beta` values a rendered body needs for the blocks it replays: a block type
//! the beta Messages API takes only with its beta header (the pinned SDK's `Beta…BlockParam`
//! types that the GA `ContentBlockParam` lacks).
//!
//! The same answer is read from the adapter's tree (a render), from wire messages as values
//! and from their compact JSON text (the incremental renderer's cached prefix), so a render
//! and an incremental render report the same headers.

use serde_json::Value;

use crate::json::out::Out;

/// The beta a replayed content block of type `ty` needs, if any: `fallback` blocks
/// (`BetaFallbackBlockParam`, "These rules apply with the `server-side-fallback-2026-07-01`
/// beta header"), `compaction` blocks (`BetaCompactionBlockParam`, made by the
/// `compact_20260112` edit) and the tool-change blocks of a system message
/// (`BetaRequestToolAdditionBlock` / `…RemovalBlock`).
///
/// ```ignore
/// assert_eq!(block_beta("fallback"), Some("server-side-fallback-2026-07-01"));
/// ```
pub(crate) fn block_beta(ty: &str) -> Option<&'static str> {
    match ty {
        "fallback" => Some("server-side-fallback-2026-07-01"),
        "compaction" => Some("compact-2026-01-12"),
        "tool_addition" | "tool_removal" => Some("mid-conversation-tool-changes-2026-07-01"),
        _ => None,
    }
}

/// The beta `thinking.block_binding` needs (`BetaThinkingConfigAdaptive.block_binding`, ANT-52):
/// "Requires `anthropic-beta: thinking-binding-controls-2026-08-01`".
pub(crate) const BINDING_BETA: &str = "thinking-binding-controls-2026-08-01";

/// Adds [`BINDING_BETA`] to `out` (once) when the `thinking` member holds `block_binding`,
/// whoever put it there (the render on a binding model, or the caller's `providerOptions`).
fn add_binding(thinking: Option<&Value>, out: &mut Vec<&'static str>) {
    let bound = thinking
        .and_then(|t| t.get("block_binding"))
        .is_some_and(|b| !b.is_null());
    if bound && !out.contains(&BINDING_BETA) {
        out.push(BINDING_BETA);
    }
}

/// The betas the envelope (the body without its messages) needs: `thinking.block_binding`'s.
pub(crate) fn of_envelope(envelope: &serde_json::Map<String, Value>, out: &mut Vec<&'static str>) {
    add_binding(envelope.get("thinking"), out);
}

/// Adds the beta of a block type to `out` (once).
fn add(out: &mut Vec<&'static str>, ty: Option<&str>) {
    if let Some(b) = ty.and_then(block_beta) {
        if !out.contains(&b) {
            out.push(b);
        }
    }
}

/// The betas one content block (a value) needs: its type's, and for a `tool_addition` that
/// carries its tool's definition, `inline-tools-2026-09-15` (`BetaToolChangeToolDefinitionParam`:
/// "Under the `inline-tools-2026-09-15` beta it may instead be … a `tool_definition` object").
fn of_block(b: &Value, out: &mut Vec<&'static str>) {
    let ty = b.get("type").and_then(Value::as_str);
    add(out, ty);
    let inline = b.pointer("/tool/type").and_then(Value::as_str) == Some("tool_definition");
    if ty == Some("tool_addition") && inline && !out.contains(&INLINE_TOOLS) {
        out.push(INLINE_TOOLS);
    }
}

/// The beta of a tool definition inside a `tool_addition` (ANT-53).
const INLINE_TOOLS: &str = "inline-tools-2026-09-15";

/// The betas the content blocks of wire messages (values) need, in order of first need.
pub(crate) fn of_messages<'v>(
    msgs: impl IntoIterator<Item = &'v Value>,
    out: &mut Vec<&'static str>,
) {
    for m in msgs {
        if let Some(Value::Array(blocks)) = m.get("content") {
            for b in blocks {
                of_block(b, out);
            }
        }
    }
}

/// [`of_messages`] for one wire message's compact JSON text; it is parsed only when it can
/// hold such a block.
pub(crate) fn of_text(text: &[u8], out: &mut Vec<&'static str>) {
    const CANDIDATES: [&[u8]; 4] = [
        b"\"fallback\"",
        b"\"compaction\"",
        b"\"tool_addition\"",
        b"\"tool_removal\"",
    ];
    let may = CANDIDATES
        .iter()
        .any(|c| text.windows(c.len()).any(|w| w == *c));
    if !may {
        return;
    }
    if let Ok(v) = serde_json::from_slice::<Value>(text) {
        of_messages(std::iter::once(&v), out);
    }
}

/// The betas the body the adapter built (or the merged body) needs.
pub(crate) fn of_body(body: &Out<'_>, out: &mut Vec<&'static str>) {
    match body {
        Out::Json(v) => {
            if let Some(Value::Array(msgs)) = v.get("messages") {
                of_messages(msgs, out);
            }
            add_binding(v.get("thinking"), out);
        }
        other => {
            if let Some(t) = other.get("thinking") {
                let t = t.clone().into_value();
                add_binding(Some(&t), out);
            }
            let Some(Out::Arr(msgs)) = other.get("messages") else {
                return;
            };
            for m in msgs {
                match m {
                    Out::Json(v) => of_messages(std::iter::once(v.as_ref()), out),
                    m => {
                        if let Some(Out::Arr(blocks)) = m.get("content") {
                            for b in blocks {
                                match b {
                                    Out::Json(v) => of_block(v, out),
                                    b => add(out, b.get("type").and_then(Out::as_str)),
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ant_43_a_replayed_fallback_block_needs_its_beta_from_every_form() {
        let msg = json!({"role": "assistant", "content": [
            {"type": "text", "text": "a"},
            {"type": "fallback", "from": {"model": "m1"}, "to": {"model": "m2"}}
        ]});
        let mut a = Vec::new();
        of_messages([&msg], &mut a);
        let mut b = Vec::new();
        of_text(msg.to_string().as_bytes(), &mut b);
        let mut c = Vec::new();
        of_body(&Out::from(json!({"messages": [msg.clone()]})), &mut c);
        assert_eq!(a, ["server-side-fallback-2026-07-01"]);
        assert_eq!(a, b);
        assert_eq!(a, c);
        // a tool input that merely mentions the word needs nothing
        let mut d = Vec::new();
        of_text(
            json!({"role": "assistant", "content": [{"type": "tool_use", "input": {"type": "fallback"}}]})
                .to_string()
                .as_bytes(),
            &mut d,
        );
        assert!(d.is_empty());
    }

    #[test]
    fn ant_53_a_tool_addition_with_its_definition_needs_the_inline_tools_beta() {
        let msg = json!({"role": "system", "content": [
            {"type": "tool_addition", "tool": {"type": "tool_definition", "definition": {"name": "ls", "input_schema": {"type": "object"}}}},
            {"type": "tool_removal", "tool": {"type": "tool_reference", "name": "rm"}}
        ]});
        let mut a = Vec::new();
        of_messages([&msg], &mut a);
        let mut b = Vec::new();
        of_text(msg.to_string().as_bytes(), &mut b);
        assert_eq!(
            a,
            [
                "mid-conversation-tool-changes-2026-07-01",
                "inline-tools-2026-09-15"
            ]
        );
        assert_eq!(a, b);
    }
}
