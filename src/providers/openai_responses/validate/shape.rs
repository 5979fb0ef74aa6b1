//! Per-item shape (`ORS-STRUCT`): the fields each item type accepts, `arguments` holding JSON,
//! reasoning summaries, item references; ids and call ids are handed to `ORS-07`/`ORS-08`, the
//! function-call output to `ORS-09`.

use serde_json::Value;

use super::client_items::check_client_item;
use super::content::{check_message_content, check_output};
use super::items::{Item, Kind, Role};
use super::names::{check_function_name, check_ors_07_prefix, check_ors_08_call_id, EMPTY_STRING};
use super::STRUCT;
use crate::providers::validate_support::Findings;

/// Fields of a message item (`id` only on assistant messages; `phase` ORS-18).
const MESSAGE_FIELDS: [&str; 6] = ["type", "role", "content", "status", "id", "phase"];

/// The values of an assistant message's `phase` (ORS-18).
const PHASES: [&str; 2] = ["commentary", "final_answer"];

/// Fields of a `function_call` item.
const FUNCTION_CALL_FIELDS: [&str; 6] = ["type", "call_id", "name", "arguments", "id", "status"];

/// Fields of a `function_call_output` item.
const FUNCTION_CALL_OUTPUT_FIELDS: [&str; 5] = ["type", "call_id", "output", "id", "status"];

/// Fields of a `reasoning` item.
const REASONING_FIELDS: [&str; 6] = [
    "type",
    "id",
    "summary",
    "encrypted_content",
    "content",
    "status",
];

/// Fields of an `item_reference` item.
const ITEM_REFERENCE_FIELDS: [&str; 2] = ["type", "id"];

/// Shape checks of one input item by kind.
pub(super) fn check_item(item: &Item<'_>, out: &mut Findings) {
    match item.kind {
        Kind::Message(role) => {
            check_fields(item, &MESSAGE_FIELDS, out);
            check_ors_18_phase(item, out);
            check_message_id(item, role, out);
            check_message_content(item, role, out);
        }
        Kind::FunctionCall => {
            check_fields(item, &FUNCTION_CALL_FIELDS, out);
            check_optional_id(item, "fc_", out);
            check_ors_08_call_id(item.get("call_id"), &item.path().k("call_id"), out);
            check_function_name(item.get("name"), &item.path().k("name"), out);
            check_arguments(item, out);
        }
        Kind::FunctionCallOutput => {
            check_fields(item, &FUNCTION_CALL_OUTPUT_FIELDS, out);
            if item
                .get("id")
                .is_some_and(|v| !v.is_string() && !v.is_null())
            {
                out.push(STRUCT, item.path().k("id"), "id must be a string");
            }
            check_ors_08_call_id(item.get("call_id"), &item.path().k("call_id"), out);
            check_output(item, out);
        }
        Kind::Reasoning => {
            check_fields(item, &REASONING_FIELDS, out);
            check_reasoning(item, out);
        }
        Kind::ItemReference => {
            check_fields(item, &ITEM_REFERENCE_FIELDS, out);
            match item.get("id") {
                Some(Value::String(s)) if s.is_empty() => {
                    out.push(STRUCT, item.path().k("id"), EMPTY_STRING);
                }
                Some(Value::String(_)) => {}
                _ => out.push(
                    STRUCT,
                    item.path().k("id"),
                    format!("Missing required parameter: 'input[{}].id'.", item.idx),
                ),
            }
        }
        Kind::ClientCall(k) => check_client_item(item, k.call, out),
        Kind::ClientOutput(k) => check_client_item(item, k.output, out),
        Kind::Other(t) => check_client_item(item, t, out),
        Kind::BuiltIn(_) | Kind::Invalid => {}
    }
    if let Kind::ClientCall(_) | Kind::ClientOutput(_) = item.kind {
        if let Some(v) = item.get("call_id") {
            check_ors_08_call_id(Some(v), &item.path().k("call_id"), out);
        }
    }
}

/// ORS-18: a message's `phase` is `commentary` or `final_answer` (or null).
fn check_ors_18_phase(item: &Item<'_>, out: &mut Findings) {
    match item.get("phase") {
        None | Some(Value::Null) => {}
        Some(Value::String(p)) if PHASES.contains(&p.as_str()) => {}
        Some(v) => {
            let got = v.as_str().map_or_else(|| v.to_string(), str::to_string);
            out.push(
                "ORS-18",
                item.path().k("phase"),
                format!(
                    "Invalid value: '{got}'. Supported values are: 'commentary' and 'final_answer'."
                ),
            );
        }
    }
}

/// Unknown members of an item are rejected.
fn check_fields(item: &Item<'_>, allowed: &[&str], out: &mut Findings) {
    let Some(obj) = item.obj else {
        return;
    };
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            out.push(
                STRUCT,
                item.path(),
                format!("Unknown parameter: 'input[{}].{key}'.", item.idx),
            );
        }
    }
}

/// A message id: only assistant (output) messages carry one, and it begins with `msg_`.
fn check_message_id(item: &Item<'_>, role: Option<Role>, out: &mut Findings) {
    let Some(v) = item.get("id") else {
        return;
    };
    match role {
        Some(Role::Assistant) | None => {}
        Some(_) => {
            out.push(
                STRUCT,
                item.path().k("id"),
                format!(
                    "Unknown parameter: 'input[{}].id' (only assistant message items carry an \
                     id).",
                    item.idx
                ),
            );
            return;
        }
    }
    match v {
        Value::Null => {}
        Value::String(id) => check_ors_07_prefix(item.idx, id, "msg_", &item.path().k("id"), out),
        _ => out.push(STRUCT, item.path().k("id"), "id must be a string"),
    }
}

/// An optional item id with a type prefix (ORS-07).
fn check_optional_id(item: &Item<'_>, prefix: &'static str, out: &mut Findings) {
    match item.get("id") {
        None | Some(Value::Null) => {}
        Some(Value::String(id)) => {
            check_ors_07_prefix(item.idx, id, prefix, &item.path().k("id"), out);
        }
        Some(_) => out.push(STRUCT, item.path().k("id"), "id must be a string"),
    }
}

/// `arguments` is a string holding JSON.
fn check_arguments(item: &Item<'_>, out: &mut Findings) {
    let path = item.path().k("arguments");
    match item.get("arguments") {
        Some(Value::String(s)) => {
            if let Err(e) = crate::json::depth::from_str(s) {
                out.push(
                    STRUCT,
                    path,
                    format!("function_call.arguments is not valid JSON: {e}"),
                );
            }
        }
        _ => out.push(
            STRUCT,
            path,
            "function_call.arguments must be a string containing JSON",
        ),
    }
}

/// A reasoning item: an `rs_` id (required), a `summary` array of `summary_text` parts and an
/// optional string `encrypted_content`.
fn check_reasoning(item: &Item<'_>, out: &mut Findings) {
    let ipath = item.path().k("id");
    // Stateless replay (store: false) sends reasoning as its encrypted content without the id,
    // the shape OpenAI's own Codex client uses; without encrypted content the id is required.
    let encrypted = item
        .get("encrypted_content")
        .and_then(Value::as_str)
        .is_some_and(|e| !e.is_empty());
    match item.get("id") {
        Some(Value::String(id)) => check_ors_07_prefix(item.idx, id, "rs_", &ipath, out),
        None if encrypted => {}
        _ => out.push(
            STRUCT,
            ipath,
            format!("Missing required parameter: 'input[{}].id'.", item.idx),
        ),
    }
    let spath = item.path().k("summary");
    match item.get("summary") {
        Some(Value::Array(parts)) => {
            for (s, part) in parts.iter().enumerate() {
                let ok = part.get("type").and_then(Value::as_str) == Some("summary_text")
                    && part.get("text").is_some_and(Value::is_string);
                if !ok {
                    out.push(
                        STRUCT,
                        spath.i(s),
                        "summary parts must be {\"type\": \"summary_text\", \"text\": <string>}",
                    );
                }
            }
        }
        _ => out.push(
            STRUCT,
            spath,
            format!(
                "Missing required parameter: 'input[{}].summary' (an array, possibly empty).",
                item.idx
            ),
        ),
    }
    if item
        .get("encrypted_content")
        .is_some_and(|v| !v.is_string() && !v.is_null())
    {
        out.push(
            STRUCT,
            item.path().k("encrypted_content"),
            "encrypted_content must be a string",
        );
    }
    if item
        .get("content")
        .is_some_and(|v| !v.is_array() && !v.is_null())
    {
        out.push(
            STRUCT,
            item.path().k("content"),
            "reasoning content must be an array of reasoning_text parts",
        );
    }
}
