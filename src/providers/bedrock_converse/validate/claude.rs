//! BDR-17 and BDR-21: Claude keeps the Messages API's thinking and prefill rules through
//! Converse, and Bedrock passes its errors through behind `The model returned the following
//! errors: `. The Anthropic validator checks a Messages view of the body; its findings are
//! mapped back to the Converse paths.

use serde_json::{json, Map, Value};

use super::CLAUDE_SAYS;
use crate::providers::anthropic::validate::validate_with_headers;
use crate::providers::validate_support::{Findings, Path};

/// The Anthropic rules that hold through Converse, and the BDR rule each is reported as.
const PASSED_THROUGH: [(&str, &str); 11] = [
    ("ANT-10", "BDR-17"),
    ("ANT-11", "BDR-17"),
    ("ANT-15", "BDR-17"),
    ("ANT-16", "BDR-17"),
    ("ANT-34", "BDR-17"),
    ("ANT-36", "BDR-17"),
    ("ANT-41", "BDR-17"),
    ("ANT-45", "BDR-17"),
    ("ANT-52", "BDR-17"),
    ("ANT-23", "BDR-21"),
    ("ANT-24", "BDR-21"),
];

/// Checks `body` for the Claude model `name` (the vendor's name, `claude-sonnet-4-5-…`).
pub(super) fn check(body: &Value, name: &str, out: &mut Findings) {
    let (view, index) = messages_view(body, name);
    let fields = body.get("additionalModelRequestFields");
    let betas: Vec<(String, String)> = fields
        .and_then(|f| f.get("anthropic_beta"))
        .and_then(Value::as_array)
        .map(|b| {
            let joined: Vec<&str> = b.iter().filter_map(Value::as_str).collect();
            vec![(crate::request::BETA_HEADER.to_string(), joined.join(","))]
        })
        .unwrap_or_default();
    for v in validate_with_headers(&view, &betas) {
        let Some((_, rule)) = PASSED_THROUGH.iter().find(|(ant, _)| *ant == v.rule) else {
            continue;
        };
        out.push(
            rule,
            converse_path(&v.path, &index),
            format!("{CLAUDE_SAYS}{}", v.message),
        );
    }
}

/// The Messages body Claude sees, and for each message the Converse index of each of its
/// blocks (cache points have none: they become the previous block's mark).
fn messages_view(body: &Value, name: &str) -> (Value, Vec<Vec<usize>>) {
    let mut view = Map::new();
    view.insert("model".into(), json!(name));
    let fields = body.get("additionalModelRequestFields");
    let budget = fields
        .and_then(|f| f.pointer("/thinking/budget_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let max = body
        .pointer("/inferenceConfig/maxTokens")
        .and_then(Value::as_u64)
        .unwrap_or(budget.max(1024) * 2);
    view.insert("max_tokens".into(), json!(max));
    for key in ["thinking", "output_config"] {
        if let Some(v) = fields.and_then(|f| f.get(key)) {
            view.insert(key.into(), v.clone());
        }
    }
    let tools: Vec<Value> = body
        .pointer("/toolConfig/tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|t| t.pointer("/toolSpec/name"))
        .map(|n| json!({"name": n, "input_schema": {"type": "object"}}))
        .collect();
    if !tools.is_empty() {
        view.insert("tools".into(), Value::Array(tools));
    }
    if let Some(choice) = body.pointer("/toolConfig/toolChoice") {
        let c = if choice.get("any").is_some() {
            json!({"type": "any"})
        } else if let Some(n) = choice.pointer("/tool/name") {
            json!({"type": "tool", "name": n})
        } else {
            json!({"type": "auto"})
        };
        view.insert("tool_choice".into(), c);
    }
    let mut index = Vec::new();
    let mut messages = Vec::new();
    for m in body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let mut blocks = Vec::new();
        let mut at = Vec::new();
        for (b, block) in m
            .get("content")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .enumerate()
        {
            if let Some(v) = block_view(block) {
                blocks.push(v);
                at.push(b);
            }
        }
        index.push(at);
        messages.push(
            json!({"role": m.get("role").cloned().unwrap_or(Value::Null), "content": blocks}),
        );
    }
    view.insert("messages".into(), Value::Array(messages));
    (Value::Object(view), index)
}

/// One Converse block as Claude reads it; `None` for a cache point.
fn block_view(block: &Value) -> Option<Value> {
    if block.get("cachePoint").is_some() {
        return None;
    }
    Some(if let Some(t) = block.get("text") {
        json!({"type": "text", "text": t})
    } else if let Some(r) = block.get("reasoningContent") {
        match r.get("redactedContent") {
            Some(d) => json!({"type": "redacted_thinking", "data": d}),
            None => {
                let t = r.get("reasoningText").unwrap_or(&Value::Null);
                let mut v = json!({"type": "thinking", "thinking": t.get("text").cloned().unwrap_or(json!(""))});
                if let Some(s) = t.get("signature") {
                    v["signature"] = s.clone();
                }
                v
            }
        }
    } else if let Some(u) = block.get("toolUse") {
        json!({"type": "tool_use", "id": u.get("toolUseId"), "name": u.get("name"), "input": u.get("input")})
    } else if let Some(r) = block.get("toolResult") {
        json!({"type": "tool_result", "tool_use_id": r.get("toolUseId"), "content": "…"})
    } else if block.get("image").is_some() {
        json!({"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": ""}})
    } else {
        json!({"type": "document", "source": {"type": "text", "media_type": "text/plain", "data": "…"}})
    })
}

/// The Converse path of a finding at the Messages view's `path`: a message, one of its blocks
/// (by the index map), or the member of `additionalModelRequestFields` / `toolConfig`.
fn converse_path(path: &str, index: &[Vec<usize>]) -> Path {
    let fields = Path::root().k("additionalModelRequestFields");
    if let Some(rest) = path.strip_prefix("$.messages[") {
        let mut nums = rest
            .split(|c: char| !c.is_ascii_digit())
            .filter(|s| !s.is_empty())
            .filter_map(|s| s.parse::<usize>().ok());
        let i = nums.next().unwrap_or(0);
        if !rest.contains("].content[") {
            return Path::msg(i);
        }
        let j = nums.next().unwrap_or(0);
        let b = index.get(i).and_then(|m| m.get(j)).copied().unwrap_or(j);
        return Path::block(i, b);
    }
    if path.starts_with("$.thinking") {
        return fields.k("thinking");
    }
    if path.starts_with("$.output_config") {
        return fields.k("output_config");
    }
    if path.starts_with("$.tool_choice") {
        return Path::root().k("toolConfig").k("toolChoice");
    }
    fields
}
