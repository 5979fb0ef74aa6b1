//! Tool changes and deferred tools: `ANT-53` (a tool change or a `tool_reference` names a tool
//! defined at its position) and `ANT-54` (not every tool deferred).

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::message::Msg;
use crate::providers::validate_support::{Findings, Path};

/// The SDK's account of `tool_reference_unresolved` (`ToolReferenceUnresolvedError`,
/// `@anthropic-ai/sdk` 1.12.0); the API's message text itself was not found.
pub(super) const ANT_53_MSG: &str = "tool_reference_unresolved: A tool change or MCP tool listing \
     references a tool or MCP server that is not defined at that position in the conversation.";

/// [inferred] No thread or doc quotes the API's text.
pub(super) const ANT_54_MSG: &str = "All tools cannot be deferred";

/// ANT-53: a `tool_addition` / `tool_removal` naming a tool (`tool_reference`) and a
/// `tool_reference` in a tool result name a tool declared in `tools` or defined by an earlier
/// `tool_addition` with its definition. (MCP references name servers the validator cannot see.)
pub(super) fn check_ant_53_tool_references(
    msgs: &[Msg<'_>],
    declared: Option<&HashSet<&str>>,
    out: &mut Findings,
) {
    let mut known: HashSet<&str> = declared.cloned().unwrap_or_default();
    for (i, msg) in msgs.iter().enumerate() {
        for (b, block) in msg.blocks() {
            let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
            match block.get("type").and_then(Value::as_str) {
                Some("tool_addition" | "tool_removal") => {
                    let tool = block.get("tool").unwrap_or(&Value::Null);
                    match tool.get("type").and_then(Value::as_str) {
                        Some("tool_definition") => {
                            if let Some(n) =
                                tool.pointer("/definition/name").and_then(Value::as_str)
                            {
                                known.insert(n);
                            }
                        }
                        Some("tool_reference") => {
                            let name = s(tool, "name").unwrap_or_default();
                            if !known.contains(name.as_str()) {
                                out.push(
                                    "ANT-53",
                                    Path::block(i, b).k("tool").k("name"),
                                    format!("{ANT_53_MSG} (`{name}`)"),
                                );
                            }
                        }
                        _ => {}
                    }
                }
                Some("tool_result") => {
                    let Some(Value::Array(items)) = block.get("content") else {
                        continue;
                    };
                    for (k, item) in items.iter().enumerate() {
                        if item.get("type").and_then(Value::as_str) != Some("tool_reference") {
                            continue;
                        }
                        let name = s(item, "tool_name").unwrap_or_default();
                        if !known.contains(name.as_str()) {
                            out.push(
                                "ANT-53",
                                Path::block(i, b).k("content").i(k).k("tool_name"),
                                format!("{ANT_53_MSG} (`{name}`)"),
                            );
                        }
                    }
                }
                _ => {}
            }
        }
    }
}

/// ANT-54: at least one entry of `tools` is loaded (`defer_loading` not `true`).
pub(super) fn check_ant_54_not_all_deferred(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(Value::Array(tools)) = obj.get("tools") else {
        return;
    };
    let deferred = |t: &Value| t.get("defer_loading").and_then(Value::as_bool) == Some(true);
    if !tools.is_empty() && tools.iter().all(deferred) {
        out.push("ANT-54", Path::root().k("tools"), ANT_54_MSG);
    }
}
