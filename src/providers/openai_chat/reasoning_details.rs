//! OpenRouter's `reasoning_details` (ORT-02): the array an assistant message carries, in a
//! whole answer or in stream pieces, joined into the one array the next request sends back.
//!
//! Each item is `{"type", …, "id", "format", "index"}`: `reasoning.text {text, signature}`,
//! `reasoning.summary {summary}`, `reasoning.encrypted {data}` (OpenRouter's "Reasoning
//! Tokens" guide; `@openrouter/ai-sdk-provider` `schemas/reasoning-details.ts`). A stream sends
//! pieces of an item under its `index`: "the complete reasoning sequence is built by
//! concatenating all chunks in order", and a signature may come in a later piece with no text.

use serde_json::{Map, Value};

/// The members a stream piece continues by concatenation.
const STREAMED: [&str; 3] = ["text", "summary", "data"];

/// Adds one piece to `details`: a piece with the `index` and `type` of an item already there
/// continues it (its `text`, `summary` or `data` appended, members the item lacks or has as
/// `null` taken from the piece, the rest kept); a piece without `index` continues the last item
/// when that is a `reasoning.text` without `index` too (`@openrouter/ai-sdk-provider` merges
/// so); anything else is a new item, kept as it came.
///
/// ```ignore
/// let mut d = Vec::new();
/// join(&mut d, &json!({"type": "reasoning.text", "text": "a", "index": 0}));
/// join(&mut d, &json!({"type": "reasoning.text", "signature": "s", "index": 0}));
/// assert_eq!(d, vec![json!({"type": "reasoning.text", "text": "a", "index": 0, "signature": "s"})]);
/// ```
pub(crate) fn join(details: &mut Vec<Value>, piece: &Value) {
    let Value::Object(p) = piece else {
        details.push(piece.clone());
        return;
    };
    let kind = p.get("type").and_then(Value::as_str);
    let index = p.get("index").filter(|i| i.is_u64());
    let target = details.iter_mut().rev().find_map(|item| {
        let o = item.as_object_mut()?;
        let same_type = o.get("type").and_then(Value::as_str) == kind;
        match index {
            Some(i) => (same_type && o.get("index") == Some(i)).then_some(o),
            None => None,
        }
    });
    let target = match (target, index) {
        (Some(t), _) => Some(t),
        (None, None) if kind == Some("reasoning.text") => details
            .last_mut()
            .and_then(Value::as_object_mut)
            .filter(|o| o.get("type").and_then(Value::as_str) == kind && o.get("index").is_none()),
        (None, _) => None,
    };
    match target {
        Some(item) => continue_item(item, p),
        None => details.push(piece.clone()),
    }
}

fn continue_item(item: &mut Map<String, Value>, piece: &Map<String, Value>) {
    for (k, v) in piece {
        match (item.get_mut(k), v) {
            (Some(Value::String(have)), Value::String(more)) if STREAMED.contains(&k.as_str()) => {
                have.push_str(more)
            }
            (Some(have), v) if have.is_null() && !v.is_null() => *have = v.clone(),
            (Some(_), _) => {}
            (None, v) => {
                item.insert(k.clone(), v.clone());
            }
        }
    }
}

/// The readable reasoning of `details`: the `text` of text items and the `summary` of summary
/// items, in order, joined by blank lines (for a message that gave no `reasoning` string).
pub(crate) fn readable_text(details: &[Value]) -> String {
    let parts: Vec<&str> = details
        .iter()
        .filter_map(|d| match d.get("type").and_then(Value::as_str) {
            Some("reasoning.text") => d.get("text").and_then(Value::as_str),
            Some("reasoning.summary") => d.get("summary").and_then(Value::as_str),
            _ => None,
        })
        .filter(|t| !t.is_empty())
        .collect();
    parts.join("\n\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn joined(pieces: &[Value]) -> Vec<Value> {
        let mut d = Vec::new();
        for p in pieces {
            join(&mut d, p);
        }
        d
    }

    #[test]
    fn ort_02_pieces_of_one_index_are_one_item_with_its_signature() {
        let d = joined(&[
            json!({"type": "reasoning.text", "text": "The user", "format": "anthropic-claude-v1", "index": 0}),
            json!({"type": "reasoning.text", "text": " wants", "signature": null, "index": 0}),
            json!({"type": "reasoning.text", "signature": "sig", "format": "anthropic-claude-v1", "index": 0}),
        ]);
        assert_eq!(
            d,
            vec![
                json!({"type": "reasoning.text", "text": "The user wants", "format": "anthropic-claude-v1", "index": 0, "signature": "sig"})
            ]
        );
    }

    #[test]
    fn ort_02_other_indexes_and_types_are_new_items_in_order() {
        let d = joined(&[
            json!({"type": "reasoning.text", "text": "a", "index": 0}),
            json!({"type": "reasoning.encrypted", "data": "e1", "id": "tool_1", "index": 1}),
            json!({"type": "reasoning.summary", "summary": "s", "index": 1}),
            json!({"type": "reasoning.text", "text": "b", "index": 0}),
            json!("not an object"),
        ]);
        assert_eq!(
            d,
            vec![
                json!({"type": "reasoning.text", "text": "ab", "index": 0}),
                json!({"type": "reasoning.encrypted", "data": "e1", "id": "tool_1", "index": 1}),
                json!({"type": "reasoning.summary", "summary": "s", "index": 1}),
                json!("not an object"),
            ]
        );
        assert_eq!(readable_text(&d), "ab\n\ns");
    }

    #[test]
    fn ort_02_pieces_without_index_continue_a_text_item() {
        let d = joined(&[
            json!({"type": "reasoning.text", "text": "a"}),
            json!({"type": "reasoning.text", "text": "b", "signature": "s"}),
            json!({"type": "reasoning.encrypted", "data": "x"}),
            json!({"type": "reasoning.encrypted", "data": "y"}),
        ]);
        assert_eq!(d.len(), 3);
        assert_eq!(
            d[0],
            json!({"type": "reasoning.text", "text": "ab", "signature": "s"})
        );
    }
}
