//! The shapes of the client-tool items (ORS-19), `compaction` (ORS-20), `compaction_trigger`
//! and `additional_tools`, as the official SDK's `ResponseInputItem` union types them
//! (openai-node 6.49.0): required and known members, the enums, and the item id prefixes the
//! API enforces (`ctc` for `custom_tool_call`, `apc` for `apply_patch_call`).

use serde_json::Value;

use super::items::Item;
use super::STRUCT;
use crate::providers::openai_responses::native::ENUMS;
use crate::providers::validate_support::Findings;

/// One item type's members: required, then optional; the id prefix the API checks.
struct Shape {
    t: &'static str,
    required: &'static [&'static str],
    optional: &'static [&'static str],
    id_prefix: Option<&'static str>,
}

const SHAPES: [Shape; 15] = [
    Shape {
        t: "custom_tool_call",
        required: &["call_id", "input", "name"],
        optional: &["id", "caller", "namespace"],
        id_prefix: Some("ctc"),
    },
    Shape {
        t: "custom_tool_call_output",
        required: &["call_id", "output"],
        optional: &["id", "caller"],
        id_prefix: None,
    },
    Shape {
        t: "apply_patch_call",
        required: &["call_id", "operation", "status"],
        optional: &["id", "caller"],
        id_prefix: Some("apc"),
    },
    Shape {
        t: "apply_patch_call_output",
        required: &["call_id", "status"],
        optional: &["id", "caller", "output"],
        id_prefix: None,
    },
    Shape {
        t: "shell_call",
        required: &["action", "call_id"],
        optional: &["id", "caller", "environment", "status"],
        id_prefix: None,
    },
    Shape {
        t: "shell_call_output",
        required: &["call_id", "output"],
        optional: &["id", "caller", "max_output_length", "status"],
        id_prefix: None,
    },
    Shape {
        t: "local_shell_call",
        required: &["id", "action", "call_id", "status"],
        optional: &[],
        id_prefix: None,
    },
    Shape {
        t: "local_shell_call_output",
        required: &["id", "output"],
        optional: &["status"],
        id_prefix: None,
    },
    Shape {
        t: "tool_search_call",
        required: &["arguments"],
        optional: &["id", "call_id", "execution", "status"],
        id_prefix: None,
    },
    Shape {
        t: "tool_search_output",
        required: &["tools"],
        optional: &["id", "call_id", "execution", "status"],
        id_prefix: None,
    },
    Shape {
        t: "program",
        required: &["id", "call_id", "code", "fingerprint"],
        optional: &[],
        id_prefix: None,
    },
    Shape {
        t: "program_output",
        required: &["id", "call_id", "result", "status"],
        optional: &[],
        id_prefix: None,
    },
    Shape {
        t: "compaction",
        required: &["encrypted_content"],
        optional: &["id"],
        id_prefix: None,
    },
    Shape {
        t: "compaction_trigger",
        required: &[],
        optional: &[],
        id_prefix: None,
    },
    Shape {
        t: "additional_tools",
        required: &["role", "tools"],
        optional: &["id"],
        id_prefix: None,
    },
];

/// Members that must be strings.
const STRINGS: [(&str, &str); 12] = [
    ("custom_tool_call", "input"),
    ("custom_tool_call", "name"),
    ("local_shell_call_output", "output"),
    ("program", "code"),
    ("program", "fingerprint"),
    ("program", "id"),
    ("program_output", "result"),
    ("program_output", "id"),
    ("local_shell_call", "id"),
    ("local_shell_call_output", "id"),
    ("compaction", "encrypted_content"),
    ("apply_patch_call_output", "output"),
];

/// `Invalid value: 'x'. Supported values are: 'a', 'b' and 'c'.`
fn supported(got: &Value, allowed: &[&str]) -> String {
    let quoted: Vec<String> = allowed.iter().map(|a| format!("'{a}'")).collect();
    let list = match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    };
    let got = got.as_str().map_or_else(|| got.to_string(), str::to_string);
    format!("Invalid value: '{got}'. Supported values are: {list}.")
}

/// Shape checks of a client-tool, compaction or `additional_tools` item of type `t`.
pub(super) fn check_client_item(item: &Item<'_>, t: &str, out: &mut Findings) {
    let Some(shape) = SHAPES.iter().find(|s| s.t == t) else {
        return;
    };
    let Some(obj) = item.obj else {
        return;
    };
    let idx = item.idx;
    for key in obj.keys() {
        let known = key == "type"
            || shape.required.contains(&key.as_str())
            || shape.optional.contains(&key.as_str());
        if !known {
            out.push(
                STRUCT,
                item.path(),
                format!("Unknown parameter: 'input[{idx}].{key}'."),
            );
        }
    }
    for key in shape.required {
        if obj.get(*key).is_none_or(Value::is_null) {
            out.push(
                STRUCT,
                item.path().k(key),
                format!("Missing required parameter: 'input[{idx}].{key}'."),
            );
        }
    }
    for (_, key, allowed) in ENUMS.iter().filter(|(ty, _, _)| *ty == t) {
        if let Some(v) = obj.get(*key).filter(|v| !v.is_null()) {
            if !v.as_str().is_some_and(|s| allowed.contains(&s)) {
                out.push(STRUCT, item.path().k(key), supported(v, allowed));
            }
        }
    }
    for (_, key) in STRINGS.iter().filter(|(ty, _)| *ty == t) {
        if obj
            .get(*key)
            .is_some_and(|v| !v.is_string() && !v.is_null())
        {
            out.push(
                STRUCT,
                item.path().k(key),
                format!("Invalid type for 'input[{idx}].{key}': expected a string."),
            );
        }
    }
    if let (Some(prefix), Some(Value::String(id))) = (shape.id_prefix, obj.get("id")) {
        if !id.starts_with(prefix) {
            out.push(
                "ORS-19",
                item.path().k("id"),
                format!("Invalid 'input[{idx}].id': '{id}'. Expected an ID that begins with '{prefix}'."),
            );
        }
    }
    match t {
        "apply_patch_call" => check_operation(item, out),
        "shell_call" => check_commands(item, out),
        _ => {}
    }
}

/// `apply_patch_call.operation`: `create_file` / `update_file` (`path`, `diff`) or
/// `delete_file` (`path`).
fn check_operation(item: &Item<'_>, out: &mut Findings) {
    let Some(op) = item.get("operation").filter(|v| !v.is_null()) else {
        return;
    };
    let path = item.path().k("operation");
    let idx = item.idx;
    let kind = op.get("type").unwrap_or(&Value::Null);
    let needs: &[&str] = match kind.as_str() {
        Some("create_file" | "update_file") => &["path", "diff"],
        Some("delete_file") => &["path"],
        _ => {
            out.push(
                STRUCT,
                path.k("type"),
                supported(kind, &["create_file", "delete_file", "update_file"]),
            );
            return;
        }
    };
    for key in needs {
        if !op.get(*key).is_some_and(Value::is_string) {
            out.push(
                STRUCT,
                path.k(key),
                format!("Missing required parameter: 'input[{idx}].operation.{key}'."),
            );
        }
    }
}

/// `shell_call.action.commands` is an array of strings.
fn check_commands(item: &Item<'_>, out: &mut Findings) {
    let Some(action) = item.get("action").filter(|v| !v.is_null()) else {
        return;
    };
    let ok = action
        .get("commands")
        .and_then(Value::as_array)
        .is_some_and(|c| c.iter().all(Value::is_string));
    if !ok {
        out.push(
            STRUCT,
            item.path().k("action").k("commands"),
            format!(
                "Missing required parameter: 'input[{}].action.commands' (an array of strings).",
                item.idx
            ),
        );
    }
}
