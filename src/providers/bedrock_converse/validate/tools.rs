//! BDR-12: tool names (`toolSpec.name`, `toolChoice.tool.name`, the history's `toolUse.name`).

use serde_json::Value;

use crate::providers::validate_support::{is_id_char, Findings, Path};

/// A name of 1..64 of `[a-zA-Z0-9_-]` (`ToolSpecification.name`).
fn valid_name(name: &str) -> bool {
    (1..=64).contains(&name.len()) && name.chars().all(is_id_char)
}

/// Declared names valid and unique; the forced tool and the history's calls declared.
pub(super) fn check(body: &Value, out: &mut Findings) {
    let at = Path::root().k("toolConfig");
    let mut declared: Vec<&str> = Vec::new();
    let tools = body.pointer("/toolConfig/tools").and_then(Value::as_array);
    for (k, t) in tools.into_iter().flatten().enumerate() {
        let Some(spec) = t.get("toolSpec") else {
            continue;
        };
        let name = spec.get("name").and_then(Value::as_str).unwrap_or("");
        let name_at = at.k("tools").i(k).k("toolSpec").k("name");
        if !valid_name(name) {
            out.push(
                "BDR-12",
                name_at,
                format!("1 validation error detected: Value '{name}' at 'toolConfig.tools.{k}.member.toolSpec.name' failed to satisfy constraint: Member must have length between 1 and 64 and satisfy regular expression pattern: [a-zA-Z0-9_-]+ [inferred]"),
            );
        } else if declared.contains(&name) {
            out.push(
                "BDR-12",
                name_at,
                format!("The toolConfig field holds two tools named `{name}`: tool names must be unique. [inferred]"),
            );
        } else {
            declared.push(name);
        }
    }
    if let Some(forced) = body
        .pointer("/toolConfig/toolChoice/tool/name")
        .and_then(Value::as_str)
    {
        if !declared.contains(&forced) {
            out.push(
                "BDR-12",
                at.k("toolChoice").k("tool").k("name"),
                format!("The tool `{forced}` in toolConfig.toolChoice is not defined in toolConfig.tools. [inferred]"),
            );
        }
    }
    if tools.is_none() {
        return; // BDR-03 reports a missing toolConfig
    }
    let messages = body.get("messages").and_then(Value::as_array);
    for (i, m) in messages.into_iter().flatten().enumerate() {
        let blocks = m.get("content").and_then(Value::as_array);
        for (b, block) in blocks.into_iter().flatten().enumerate() {
            let Some(name) = block.pointer("/toolUse/name").and_then(Value::as_str) else {
                continue;
            };
            if !declared.contains(&name) {
                out.push(
                    "BDR-12",
                    Path::block(i, b).k("toolUse").k("name"),
                    format!("The toolUse block at messages.{i}.content.{b} names `{name}`, a tool toolConfig.tools does not define. [inferred]"),
                );
            }
        }
    }
}
