//! The ordered-transcripts agent shape (spec §3.1 / §4.1), read as canonical messages.
//!
//! A Rust agent built on that spec stores `System` / `User` / `Assistant { blocks, stop_reason }`
//! / `ToolResults { results }` messages, serde's externally tagged enum (`{"Assistant": {…}}`)
//! or the same with a `role` member (`{"role": "assistant", …}`). Assistant blocks are tagged
//! by `block_type` (`text`, `reasoning`, `tool_use` with raw `args`), their continuity
//! metadata by `provider` (`anthropic` signature, `gemini` thoughtSignature, `open_ai` reasoning
//! id and encrypted content). [`Transcript`](super::Transcript) reading recognises such a
//! message and reads it as the canonical one it stands for.

use serde_json::{json, Map, Value};

/// The canonical JSON of `message` when it is in the agent shape; `None` for any other message.
///
/// ```
/// let agent = serde_json::json!({"ToolResults": {"results": [{"tool_use_id": "t1", "content": "ok", "is_error": false}]}});
/// let t = turnwire::Transcript::from_value(&serde_json::json!([agent]))?;
/// assert_eq!(t.messages[0].speaker, turnwire::model::Speaker::Tool);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub(crate) fn canonical(message: &Value) -> Option<Value> {
    let obj = message.as_object()?;
    if obj.contains_key("speaker") {
        return None;
    }
    let (kind, body) = tagged(obj)?;
    Some(match kind.as_str() {
        "system" => json!({"speaker": "system", "blocks": text_blocks(body.get("content"))}),
        "user" => json!({"speaker": "human", "blocks": text_blocks(body.get("content"))}),
        "assistant" => assistant(body),
        "toolresults" | "tool_results" => tool_results(body),
        _ => return None,
    })
}

/// The variant name (lower case) and its fields: `{"Assistant": {…}}` or `{"role": …, …}`.
fn tagged(obj: &Map<String, Value>) -> Option<(String, &Map<String, Value>)> {
    if let Some(Value::String(role)) = obj.get("role") {
        let kind = role.to_ascii_lowercase();
        // `{"role": "assistant", "content": …}` is a chat message, not this shape.
        let own = match kind.as_str() {
            "assistant" => obj.contains_key("blocks"),
            "tool_results" | "toolresults" => obj.contains_key("results"),
            "system" | "user" => {
                obj.len() == 2 && matches!(obj.get("content"), Some(Value::String(_)))
            }
            _ => false,
        };
        return own.then_some((kind, obj));
    }
    if obj.len() != 1 {
        return None;
    }
    let (name, body) = obj.iter().next()?;
    let kind = name.to_ascii_lowercase();
    matches!(
        kind.as_str(),
        "system" | "user" | "assistant" | "toolresults" | "tool_results"
    )
    .then_some(())?;
    Some((kind, body.as_object()?))
}

/// A `content` string (or text parts) as text blocks.
fn text_blocks(content: Option<&Value>) -> Value {
    match content {
        Some(Value::String(s)) => json!([{"type": "text", "text": s}]),
        Some(Value::Array(parts)) => Value::Array(
            parts
                .iter()
                .map(|p| match p.get("text") {
                    Some(Value::String(t)) => json!({"type": "text", "text": t}),
                    _ => p.clone(),
                })
                .collect(),
        ),
        _ => json!([]),
    }
}

fn assistant(body: &Map<String, Value>) -> Value {
    let blocks: Vec<Value> = body
        .get("blocks")
        .and_then(Value::as_array)
        .map(|bs| bs.iter().map(block).collect())
        .unwrap_or_default();
    let mut m = Map::new();
    m.insert("speaker".into(), "ai".into());
    m.insert("blocks".into(), Value::Array(blocks));
    if let Some(stop) = body.get("stop_reason") {
        m.insert("metadata".into(), json!({"stopReason": stop}));
    }
    Value::Object(m)
}

/// One assistant block; an unknown `block_type` stays as it is (kept as an opaque block).
fn block(b: &Value) -> Value {
    let mut out = Map::new();
    match b.get("block_type").and_then(Value::as_str) {
        Some("text") => {
            out.insert("type".into(), "text".into());
            out.insert(
                "text".into(),
                b.get("text").cloned().unwrap_or_else(|| "".into()),
            );
        }
        Some("reasoning") => {
            out.insert("type".into(), "thinking".into());
            out.insert(
                "thought".into(),
                b.get("text").cloned().unwrap_or_else(|| "".into()),
            );
        }
        Some("tool_use") => {
            out.insert("type".into(), "tool_call".into());
            // absent ones stay absent: reading reports them with their path
            for key in ["id", "name"] {
                if let Some(v) = b.get(key) {
                    out.insert(key.into(), v.clone());
                }
            }
            out.insert(
                "parameters".into(),
                b.get("args").cloned().unwrap_or_else(|| json!({})),
            );
        }
        _ => return b.clone(),
    }
    // the block reader lifts the continuity token out of `meta` (model/block/nested_meta.rs)
    if let Some(meta @ Value::Object(_)) = b.get("meta") {
        out.insert("meta".into(), meta.clone());
    }
    Value::Object(out)
}

fn tool_results(body: &Map<String, Value>) -> Value {
    let blocks: Vec<Value> = body
        .get("results")
        .and_then(Value::as_array)
        .map(|rs| {
            rs.iter()
                .map(|r| {
                    let mut out = Map::new();
                    out.insert("type".into(), "tool_response".into());
                    if let Some(id) = r.get("tool_use_id") {
                        out.insert("callId".into(), id.clone());
                    }
                    let content = r.get("content").cloned().unwrap_or_else(|| "".into());
                    if r.get("is_error") == Some(&Value::Bool(true)) {
                        let text = match content {
                            Value::String(s) => s,
                            other => other.to_string(),
                        };
                        out.insert("error".into(), text.into());
                    } else {
                        out.insert("result".into(), content);
                    }
                    Value::Object(out)
                })
                .collect()
        })
        .unwrap_or_default();
    json!({"speaker": "tool", "blocks": blocks})
}
