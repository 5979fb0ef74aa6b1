//! `OAC-STRUCT` on `model`, `tools`, assistant `tool_calls` and tool messages' `tool_call_id`
//! (ids and names are handed to the `OAC-03`/`04`/`05` checks).

use serde_json::{Map, Value};

use super::dialect::Dialect;
use super::message::{Msg, Role};
use super::names::{check_call_id, check_function_name, check_oac_05_description};
use super::STRUCT;
use crate::model::type_name;
use crate::providers::validate_support::{Findings, Path};

/// `model` is a non-empty string.
pub(super) fn check_model(obj: &Map<String, Value>, out: &mut Findings) {
    match obj.get("model") {
        Some(Value::String(s)) if !s.is_empty() => {}
        None => out.push(
            STRUCT,
            Path::root().k("model"),
            "Missing required parameter: 'model'.",
        ),
        Some(_) => out.push(
            STRUCT,
            Path::root().k("model"),
            "model must be a non-empty string",
        ),
    }
}

/// `tools[]` are `{type: "function", function: {name, description?, parameters?}}`.
pub(super) fn check_tools(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools") {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tools must be an array");
            return;
        }
    };
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        if tool.get("type").and_then(Value::as_str) != Some("function") {
            out.push(STRUCT, tpath.k("type"), "tools[].type must be \"function\"");
        }
        let fpath = tpath.k("function");
        let Some(function) = tool.get("function").and_then(Value::as_object) else {
            out.push(
                STRUCT,
                fpath,
                "tools[].function must be an object with a name",
            );
            continue;
        };
        check_function_name(function.get("name"), &fpath.k("name"), out);
        match function.get("description") {
            None | Some(Value::Null) => {}
            Some(Value::String(d)) => check_oac_05_description(d, &fpath.k("description"), out),
            Some(_) => out.push(
                STRUCT,
                fpath.k("description"),
                "description must be a string",
            ),
        }
        if function
            .get("parameters")
            .is_some_and(|p| !p.is_object() && !p.is_null())
        {
            out.push(
                STRUCT,
                fpath.k("parameters"),
                "parameters must be a JSON Schema object",
            );
        }
    }
}

/// Shape of `tool_calls` plus OAC-03/04/05 on ids and names.
pub(super) fn check_tool_calls(msg: &Msg<'_>, dialect: &Dialect, out: &mut Findings) {
    let path = msg.path().k("tool_calls");
    let calls = match msg.obj.get("tool_calls") {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tool_calls must be an array");
            return;
        }
    };
    if !msg.is(Role::Assistant) {
        out.push(
            STRUCT,
            path.clone(),
            "tool_calls is only allowed on assistant messages",
        );
    }
    if calls.is_empty() {
        out.push(
            "OAC-04",
            path,
            "empty array. Expected an array with minimum length 1, but got an empty array \
             instead.",
        );
        return;
    }
    for (j, call) in calls.iter().enumerate() {
        let cpath = path.i(j);
        if !call.is_object() {
            out.push(STRUCT, cpath, "tool call must be a JSON object");
            continue;
        }
        match call.get("id") {
            Some(Value::String(id)) => check_call_id(id, &cpath.k("id"), dialect, out),
            _ => out.push(
                STRUCT,
                cpath.k("id"),
                "Missing required parameter: 'id' (a string).",
            ),
        }
        if call.get("type").and_then(Value::as_str) != Some("function") {
            out.push(
                STRUCT,
                cpath.k("type"),
                "tool_calls[].type must be \"function\"",
            );
        }
        let fpath = cpath.k("function");
        let Some(function) = call.get("function").and_then(Value::as_object) else {
            out.push(
                STRUCT,
                fpath,
                "tool_calls[].function must be an object with name and arguments",
            );
            continue;
        };
        check_function_name(function.get("name"), &fpath.k("name"), out);
        check_arguments(function.get("arguments"), &fpath.k("arguments"), out);
    }
}

/// OAC-14: `function.arguments` is a string holding a JSON object.
fn check_arguments(args: Option<&Value>, path: &Path, out: &mut Findings) {
    let problem = match args {
        Some(Value::String(s)) => match crate::json::depth::from_str(s) {
            Ok(Value::Object(_)) => return,
            Ok(other) => format!("it holds {}, not an object", type_name(&other)),
            Err(e) => format!("it is not valid JSON: {e}"),
        },
        Some(other) => format!(
            "it is {}, not a string (Input should be a valid string)",
            type_name(other)
        ),
        None => "it is missing".to_string(),
    };
    out.push(
        "OAC-14",
        path.clone(),
        format!(
            "{}: arguments must be a valid JSON object string ({problem})",
            path.dotted()
        ),
    );
}

/// A tool message's `tool_call_id`: shape, OAC-03, OAC-04.
pub(super) fn check_tool_call_id(msg: &Msg<'_>, dialect: &Dialect, out: &mut Findings) {
    if !msg.is(Role::Tool) {
        return;
    }
    let path = msg.path().k("tool_call_id");
    match msg.obj.get("tool_call_id") {
        Some(Value::String(id)) => check_call_id(id, &path, dialect, out),
        _ => out.push(
            STRUCT,
            path,
            "Missing required parameter: 'tool_call_id' (a string).",
        ),
    }
}
