//! `ANT-STRUCT` on the top-level fields: `model`, `max_tokens`, `thinking`, `system` and `tools`
//! (tool names also get `ANT-20`).

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::content::check_text_block;
use super::message::block_type;
use super::names::check_ant_20_tool_name;
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Minimum extended-thinking budget.
const MIN_THINKING_BUDGET: u64 = 1024;

/// `model` is a non-empty string.
pub(super) fn check_model(obj: &Map<String, Value>, out: &mut Findings) {
    match obj.get("model") {
        None => out.push(STRUCT, Path::root().k("model"), "model: Field required"),
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(_) => out.push(
            STRUCT,
            Path::root().k("model"),
            "model must be a non-empty string",
        ),
    }
}

/// `max_tokens` is a positive integer; returns it when it is valid.
pub(super) fn check_max_tokens(obj: &Map<String, Value>, out: &mut Findings) -> Option<u64> {
    let path = Path::root().k("max_tokens");
    match obj.get("max_tokens") {
        None => {
            out.push(STRUCT, path, "max_tokens: Field required");
            None
        }
        Some(v) => match v.as_u64() {
            Some(n) if n > 0 => Some(n),
            _ => {
                out.push(STRUCT, path, "max_tokens must be a positive integer");
                None
            }
        },
    }
}

/// Checks the `thinking` config; returns whether thinking is on (`enabled` or `adaptive`).
pub(super) fn check_thinking_config(
    obj: &Map<String, Value>,
    max_tokens: Option<u64>,
    out: &mut Findings,
) -> bool {
    let path = Path::root().k("thinking");
    let Some(cfg) = obj.get("thinking") else {
        return false;
    };
    let Some(cfg) = cfg.as_object() else {
        out.push(STRUCT, path, "thinking must be an object");
        return false;
    };
    match cfg.get("type").and_then(Value::as_str) {
        Some("enabled") => {
            let bpath = path.k("budget_tokens");
            match cfg.get("budget_tokens").and_then(Value::as_u64) {
                None => out.push(
                    STRUCT,
                    bpath,
                    "thinking.budget_tokens must be a positive integer when thinking is enabled",
                ),
                Some(n) if n < MIN_THINKING_BUDGET => out.push(
                    STRUCT,
                    bpath,
                    "thinking.budget_tokens: Input should be greater than or equal to 1024",
                ),
                Some(n) => {
                    if max_tokens.is_some_and(|max| n >= max) {
                        out.push(
                            STRUCT,
                            bpath,
                            "`max_tokens` must be greater than `thinking.budget_tokens`",
                        );
                    }
                }
            }
            true
        }
        Some("adaptive") => {
            match cfg.get("display") {
                None | Some(Value::Null) => {}
                Some(Value::String(d)) if d == "summarized" || d == "omitted" => {}
                Some(_) => out.push(
                    STRUCT,
                    path.k("display"),
                    "thinking.display: Input should be 'summarized' or 'omitted'",
                ),
            }
            true
        }
        Some("disabled") => false,
        _ => {
            out.push(
                STRUCT,
                path.k("type"),
                "thinking.type must be \"enabled\", \"adaptive\" or \"disabled\"",
            );
            false
        }
    }
}

/// `system` is a string or an array of text blocks (ANT-09 on their text).
pub(super) fn check_system(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("system");
    match obj.get("system") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(blocks)) => {
            for (b, block) in blocks.iter().enumerate() {
                let bpath = path.i(b);
                if block_type(block) == Some("text") {
                    check_text_block(block, &bpath, out);
                } else {
                    out.push(STRUCT, bpath, "system blocks must be text blocks");
                }
            }
        }
        Some(_) => out.push(
            STRUCT,
            path,
            "system must be a string or an array of text blocks",
        ),
    }
}

/// Checks `tools`; returns the declared names when `tools` is a readable array.
pub(super) fn check_tools<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<HashSet<&'a str>> {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools")? {
        Value::Array(a) => a,
        _ => {
            out.push(STRUCT, path, "tools must be an array");
            return None;
        }
    };
    let mut names = HashSet::default();
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        let Some(tool_obj) = tool.as_object() else {
            out.push(STRUCT, tpath, "tool must be a JSON object");
            continue;
        };
        match tool_obj.get("name").and_then(Value::as_str) {
            None => out.push(STRUCT, tpath.k("name"), "name: Field required (a string)"),
            Some(name) => {
                check_ant_20_tool_name(name, &tpath.k("name"), out);
                if !names.insert(name) {
                    out.push("ANT-20", tpath.k("name"), "Tool names must be unique.");
                }
            }
        }
        let custom = matches!(tool_obj.get("type"), None | Some(Value::Null))
            || tool_obj.get("type").and_then(Value::as_str) == Some("custom");
        if custom && !tool_obj.get("input_schema").is_some_and(Value::is_object) {
            out.push(
                STRUCT,
                tpath.k("input_schema"),
                "input_schema: Field required (a JSON Schema object)",
            );
        }
        if tool_obj.get("description").is_some_and(|d| !d.is_string()) {
            out.push(
                STRUCT,
                tpath.k("description"),
                "description must be a string",
            );
        }
    }
    Some(names)
}
