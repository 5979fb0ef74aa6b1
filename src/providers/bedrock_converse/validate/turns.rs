//! The turn rules of a Converse body: roles, alternation, blank content, and the pairing of
//! `toolUse` and `toolResult` blocks (BDR-SCHEMA, BDR-01, BDR-03, BDR-04, BDR-07..09).

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};

/// Every turn rule, in document order once `out` is finished.
pub(super) fn check(body: &Value, out: &mut Findings) {
    let Some(messages) = body.get("messages").and_then(Value::as_array) else {
        out.push(
            "BDR-SCHEMA",
            Path::root().k("messages"),
            "The messages field is required and must be an array of Message objects.",
        );
        return;
    };
    let mut has_tool_blocks = false;
    let mut prev_role: Option<&str> = None;
    // the ids the previous assistant turn called, not yet answered
    let mut open: Vec<&str> = Vec::new();
    for (i, m) in messages.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str);
        match role {
            Some("user" | "assistant") => {}
            Some("system") => out.push(
                "BDR-SCHEMA",
                Path::msg(i).k("role"),
                "This model doesn't support system messages.",
            ),
            _ => out.push(
                "BDR-SCHEMA",
                Path::msg(i).k("role"),
                "The role field must be `user` or `assistant`.",
            ),
        }
        if i == 0 && role != Some("user") {
            out.push(
                "BDR-07",
                Path::msg(0).k("role"),
                "A conversation must start with a user message. Try again with a conversation that starts with a user message.",
            );
        }
        if i > 0 && role.is_some() && role == prev_role {
            out.push(
                "BDR-08",
                Path::msg(i).k("role"),
                "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
            );
        }
        let blocks = content(m, i, out);
        let mut results: Vec<(usize, &str)> = Vec::new();
        let mut calls: Vec<&str> = Vec::new();
        for (b, block) in blocks.iter().enumerate() {
            if let Some(u) = block.get("toolUse") {
                has_tool_blocks = true;
                calls.extend(u.get("toolUseId").and_then(Value::as_str));
            }
            if let Some(r) = block.get("toolResult") {
                has_tool_blocks = true;
                results.push((b, r.get("toolUseId").and_then(Value::as_str).unwrap_or("")));
            }
        }
        if role == Some("user") {
            pairing(i, &results, &mut open, out);
        }
        if !open.is_empty() && role == Some("assistant") {
            // the turn before this one called tools no user turn answered
            missing(i, &open, out);
            open.clear();
        }
        if role == Some("assistant") {
            open = calls;
        } else if role == Some("user") {
            open.clear();
        }
        prev_role = role.or(prev_role);
    }
    let config = body.get("toolConfig").filter(|c| !c.is_null());
    if has_tool_blocks && config.is_none() {
        out.push(
            "BDR-03",
            Path::root().k("toolConfig"),
            "The toolConfig field must be defined when using toolUse and toolResult content blocks.",
        );
    }
}

/// The content list of message `i`, with `BDR-SCHEMA` and `BDR-04` checked on each block.
fn content<'v>(m: &'v Value, i: usize, out: &mut Findings) -> &'v [Value] {
    let Some(blocks) = m.get("content").and_then(Value::as_array) else {
        out.push(
            "BDR-SCHEMA",
            Path::msg(i).k("content"),
            "The content field must be an array of ContentBlock objects.",
        );
        return &[];
    };
    let only_cache_points = blocks.iter().all(|b| b.get("cachePoint").is_some());
    if only_cache_points {
        out.push(
            "BDR-04",
            Path::msg(i).k("content"),
            format!("The content field in the Message object at messages.{i} is empty. Add a ContentBlock object to the content field and try again."),
        );
    }
    for (b, block) in blocks.iter().enumerate() {
        match block.as_object().map(Map::len) {
            Some(1) => {}
            _ => out.push(
                "BDR-SCHEMA",
                Path::block(i, b),
                "A ContentBlock must hold exactly one of its members (text, image, document, toolUse, toolResult, reasoningContent, cachePoint, …). [inferred]",
            ),
        }
        if let Some(text) = block.get("text") {
            if text.as_str().is_none_or(|t| t.trim().is_empty()) {
                out.push(
                    "BDR-04",
                    Path::block(i, b).k("text"),
                    format!("The text field in the ContentBlock object at messages.{i}.content.{b} is blank. Add text to the text field, and try again."),
                );
            }
        }
    }
    blocks
}

/// `BDR-09`: the results of user turn `i` answer the open calls of the turn before, each once.
fn pairing<'v>(
    i: usize,
    results: &[(usize, &'v str)],
    open: &mut Vec<&'v str>,
    out: &mut Findings,
) {
    let mut answered: Vec<&str> = Vec::new();
    let mut extra = false;
    for (_, id) in results {
        if open.contains(id) && !answered.contains(id) {
            answered.push(id);
        } else {
            extra = true;
        }
    }
    if extra {
        out.push(
            "BDR-09",
            Path::msg(i).k("content"),
            format!("The number of toolResult blocks at messages.{i}.content exceeds the number of toolUse blocks of previous turn."),
        );
    }
    let unanswered: Vec<&str> = open
        .iter()
        .copied()
        .filter(|id| !answered.contains(id))
        .collect();
    if !unanswered.is_empty() {
        missing(i, &unanswered, out);
    }
    open.clear();
}

/// `BDR-01`: calls of the assistant turn before message `i` that it does not answer.
fn missing(i: usize, ids: &[&str], out: &mut Findings) {
    out.push(
        "BDR-01",
        Path::msg(i).k("content"),
        format!(
            "Expected toolResult blocks at messages.{i}.content for the following Ids: {}",
            ids.join(", ")
        ),
    );
}
