//! Per-block checks of one message: the block-type dispatch, misplaced blocks and the shape of
//! `tool_use`, `server_tool_use` and `tool_result` blocks.

use serde_json::Value;

use super::content::{check_document, check_text, check_text_block};
use super::images::check_image;
use super::message::{block_type, Content, Msg, Role};
use super::names::check_ant_08_id;
use super::thinking::{check_ant_17_redacted, check_thinking_block};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Server-tool block types that may appear in history; accepted without deeper checks.
const SERVER_BLOCK_TYPES: [&str; 10] = [
    "web_search_tool_result",
    "tool_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "mcp_tool_use",
    "mcp_tool_result",
    "container_upload",
    "search_result",
];

/// Shape checks and the per-block rules (ANT-08, ANT-09, ANT-13, ANT-17, ANT-19, misplaced
/// blocks) for one message.
pub(super) fn check_message_blocks(i: usize, msg: &Msg<'_>, out: &mut Findings) {
    match msg.content {
        Content::Text(s) => check_text(s, &Path::msg(i).k("content"), out),
        Content::Blocks([]) => out.push(
            "ANT-09",
            Path::msg(i).k("content"),
            "all messages must have non-empty content",
        ),
        Content::Blocks(_) | Content::Invalid => {}
    }
    for (b, block) in msg.blocks() {
        check_block(msg.role, block, &Path::block(i, b), out);
    }
}

/// Shape of one block by type, plus the misplaced-block halves of ANT-03, ANT-04 and ANT-11.
fn check_block(role: Option<Role>, block: &Value, path: &Path, out: &mut Findings) {
    if !block.is_object() {
        out.push(STRUCT, path.clone(), "content block must be a JSON object");
        return;
    }
    let Some(ty) = block_type(block) else {
        out.push(STRUCT, path.k("type"), "content block type: Field required");
        return;
    };
    match ty {
        "text" => check_text_block(block, path, out),
        "image" => check_image(block, path, out),
        "document" => check_document(block, path, out),
        "tool_use" => {
            if role == Some(Role::User) {
                out.push(
                    "ANT-04",
                    path.clone(),
                    "`tool_use` blocks may only appear in assistant messages",
                );
            }
            check_tool_use(block, path, out);
        }
        "tool_result" => {
            if role == Some(Role::Assistant) {
                out.push(
                    "ANT-03",
                    path.clone(),
                    "`tool_result` blocks may only appear in user messages",
                );
            }
            check_tool_result(block, path, out);
        }
        "thinking" | "redacted_thinking" => {
            if role == Some(Role::User) {
                out.push(
                    "ANT-11",
                    path.clone(),
                    format!("`{ty}` blocks may only appear in assistant messages"),
                );
            }
            if ty == "thinking" {
                check_thinking_block(block, path, out);
            } else {
                check_ant_17_redacted(block, path, out);
            }
        }
        "server_tool_use" => check_server_tool_use(block, path, out),
        "fallback" => check_ant_43_fallback(role, block, path, out),
        "compaction" => check_ant_44_compaction(block, path, out),
        // tool changes of a system message (ANT-25 checks where they stand)
        "tool_addition" | "tool_removal" => {
            if !block.get("tool").is_some_and(Value::is_object) {
                out.push(
                    STRUCT,
                    path.k("tool"),
                    format!("{ty}.tool: Field required (a tool reference)"),
                );
            }
        }
        t if SERVER_BLOCK_TYPES.contains(&t) => {}
        other => out.push(
            STRUCT,
            path.k("type"),
            format!("unknown content block type {other:?}"),
        ),
    }
}

/// A `tool_use` block has an id (ANT-08), a string name and an object input (ANT-26).
fn check_tool_use(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("id") {
        Some(Value::String(id)) => check_ant_08_id(id, &path.k("id"), out),
        _ => out.push(
            STRUCT,
            path.k("id"),
            "tool_use.id: Field required (a string)",
        ),
    }
    if !block.get("name").is_some_and(Value::is_string) {
        out.push(
            STRUCT,
            path.k("name"),
            "tool_use.name: Field required (a string)",
        );
    }
    if !block.get("input").is_some_and(Value::is_object) {
        out.push(
            "ANT-26",
            path.k("input"),
            format!(
                "{}.tool_use.input: Input should be a valid dictionary",
                path.dotted()
            ),
        );
    }
}

/// A `server_tool_use` id matches `^srvtoolu_[a-zA-Z0-9_]+$` (ANT-08).
fn check_server_tool_use(block: &Value, path: &Path, out: &mut Findings) {
    let ipath = path.k("id");
    match block.get("id").and_then(Value::as_str) {
        None => out.push(
            STRUCT,
            ipath,
            "server_tool_use.id: Field required (a string)",
        ),
        Some(id) => {
            if !crate::ids::is_anthropic_server_tool_id(id) {
                out.push(
                    "ANT-08",
                    ipath,
                    "String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'",
                );
            }
        }
    }
}

/// A `tool_result` block: `tool_use_id` (ANT-08), `is_error` and its content items.
fn check_tool_result(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("tool_use_id") {
        Some(Value::String(id)) => check_ant_08_id(id, &path.k("tool_use_id"), out),
        _ => out.push(
            STRUCT,
            path.k("tool_use_id"),
            "tool_result.tool_use_id: Field required (a string)",
        ),
    }
    if block.get("is_error").is_some_and(|e| !e.is_boolean()) {
        out.push(
            STRUCT,
            path.k("is_error"),
            "tool_result.is_error must be a boolean",
        );
    }
    let cpath = path.k("content");
    match block.get("content") {
        None => {}
        Some(Value::String(s)) => check_text(s, &cpath, out),
        Some(Value::Array(items)) => {
            for (k, item) in items.iter().enumerate() {
                let ipath = cpath.i(k);
                match block_type(item) {
                    Some("text") => check_text_block(item, &ipath, out),
                    Some("image") => check_image(item, &ipath, out),
                    Some("document") => check_document(item, &ipath, out),
                    // `tool_reference` (tool search, `ToolReferenceBlockParam`)
                    Some("search_result" | "tool_reference") => {}
                    _ => out.push(
                        STRUCT,
                        ipath,
                        "tool_result content blocks must be text, image, document, \
                         search_result or tool_reference blocks",
                    ),
                }
            }
        }
        Some(_) => out.push(
            STRUCT,
            cpath,
            "tool_result.content must be a string or an array of content blocks",
        ),
    }
}

/// ANT-43: a replayed `fallback` block (`BetaFallbackBlockParam`) names the models on both
/// sides of the hop and stands in an assistant message.
fn check_ant_43_fallback(role: Option<Role>, block: &Value, path: &Path, out: &mut Findings) {
    if role != Some(Role::Assistant) {
        out.push(
            "ANT-43",
            path.clone(),
            "`fallback` blocks may only appear in assistant messages",
        );
    }
    for side in ["from", "to"] {
        if !block
            .get(side)
            .and_then(|s| s.get("model"))
            .is_some_and(Value::is_string)
        {
            out.push(
                "ANT-43",
                path.k(side),
                format!("fallback.{side}.model: Field required"),
            );
        }
    }
}

/// ANT-44: a replayed `compaction` block carries no `encrypted_content` (the API refuses it
/// although the SDK type has it) and no empty `content`.
fn check_ant_44_compaction(block: &Value, path: &Path, out: &mut Findings) {
    if block.get("encrypted_content").is_some_and(|e| !e.is_null()) {
        out.push(
            "ANT-44",
            path.k("encrypted_content"),
            format!(
                "{}.compaction.encrypted_content: Extra inputs are not permitted",
                path.dotted()
            ),
        );
    }
    match block.get("content") {
        None | Some(Value::Null) => {}
        Some(Value::String(c)) if !c.is_empty() => {}
        Some(_) => out.push(
            "ANT-44",
            path.k("content"),
            "compaction.content: a non-empty string or null (empty string content is not allowed)",
        ),
    }
}
