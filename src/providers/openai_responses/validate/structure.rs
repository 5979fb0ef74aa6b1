//! `ORS-STRUCT` on the top-level fields: `model`, `instructions`, `tools`, `reasoning`,
//! `include`, `store`, `previous_response_id` and `max_output_tokens`.

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::names::{check_function_name, EMPTY_STRING};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Reasoning effort levels.
const EFFORTS: [&str; 7] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/// Reasoning summary settings.
const SUMMARIES: [&str; 3] = ["auto", "concise", "detailed"];

/// Smallest `max_output_tokens` the Responses API accepts.
const MIN_OUTPUT_TOKENS: u64 = 16;

/// Request-level settings the item rules depend on.
pub(super) struct Settings {
    /// `store` is `false` (items are not persisted; ORS-05).
    pub(super) store_false: bool,
    /// `previous_response_id` is given (calls may live in the previous response; ORS-01).
    pub(super) chained: bool,
}

/// Checks the top-level fields other than `input`; returns the settings the item rules need.
pub(super) fn check_top_level(obj: &Map<String, Value>, out: &mut Findings) -> Settings {
    check_model(obj, out);
    check_instructions(obj, out);
    check_tools(obj, out);
    check_reasoning_config(obj, out);
    check_include(obj, out);
    check_max_output_tokens(obj, out);
    let store_false = match obj.get("store") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => !b,
        Some(_) => {
            out.push(STRUCT, Path::root().k("store"), "store must be a boolean");
            false
        }
    };
    let chained = match obj.get("previous_response_id") {
        None | Some(Value::Null) => false,
        Some(Value::String(s)) if !s.is_empty() => true,
        Some(_) => {
            out.push(
                STRUCT,
                Path::root().k("previous_response_id"),
                "previous_response_id must be a non-empty string",
            );
            false
        }
    };
    Settings {
        store_false,
        chained,
    }
}

/// `model` is a non-empty string.
fn check_model(obj: &Map<String, Value>, out: &mut Findings) {
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

/// `instructions` is a string when present.
fn check_instructions(obj: &Map<String, Value>, out: &mut Findings) {
    if obj
        .get("instructions")
        .is_some_and(|v| !v.is_string() && !v.is_null())
    {
        out.push(
            STRUCT,
            Path::root().k("instructions"),
            "instructions must be a string",
        );
    }
}

/// `tools[]`: function tools `{type: "function", name, description?, parameters?, strict?}` with
/// unique names; other (built-in) tool types need a string `type`.
fn check_tools(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools") {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tools must be an array");
            return;
        }
    };
    let mut names = HashSet::default();
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        let Some(tool_obj) = tool.as_object() else {
            out.push(STRUCT, tpath, "tool must be a JSON object");
            continue;
        };
        match tool_obj.get("type").and_then(Value::as_str) {
            Some("function") => {}
            Some(_) => continue,
            None => {
                out.push(
                    STRUCT,
                    tpath.k("type"),
                    "Missing required parameter: 'tools[].type'.",
                );
                continue;
            }
        }
        if tool_obj.get("function").is_some() {
            out.push(
                STRUCT,
                tpath.k("function"),
                "Responses function tools are flat ({\"type\": \"function\", \"name\", ...}), \
                 not wrapped in `function` as in Chat Completions",
            );
        }
        check_function_name(tool_obj.get("name"), &tpath.k("name"), out);
        if let Some(name) = tool_obj.get("name").and_then(Value::as_str) {
            if !name.is_empty() && !names.insert(name) {
                out.push(
                    STRUCT,
                    tpath.k("name"),
                    format!("duplicate function tool name {name:?}; tool names must be unique"),
                );
            }
        }
        if tool_obj
            .get("description")
            .is_some_and(|d| !d.is_string() && !d.is_null())
        {
            out.push(
                STRUCT,
                tpath.k("description"),
                "description must be a string",
            );
        }
        if tool_obj
            .get("parameters")
            .is_some_and(|p| !p.is_object() && !p.is_null())
        {
            out.push(
                STRUCT,
                tpath.k("parameters"),
                "parameters must be a JSON Schema object",
            );
        }
        if tool_obj
            .get("strict")
            .is_some_and(|s| !s.is_boolean() && !s.is_null())
        {
            out.push(STRUCT, tpath.k("strict"), "strict must be a boolean");
        }
    }
}

/// `reasoning` is `{effort?, summary?}` with known values.
fn check_reasoning_config(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("reasoning");
    let cfg = match obj.get("reasoning") {
        None | Some(Value::Null) => return,
        Some(Value::Object(m)) => m,
        Some(_) => {
            out.push(STRUCT, path, "reasoning must be an object");
            return;
        }
    };
    let check = |key: &'static str, allowed: &[&str], out: &mut Findings| match cfg.get(key) {
        None | Some(Value::Null) => {}
        Some(Value::String(v)) if allowed.contains(&v.as_str()) => {}
        Some(v) => out.push(
            STRUCT,
            path.k(key),
            format!(
                "Invalid value: {v}. Supported values are: {}.",
                allowed
                    .iter()
                    .map(|a| format!("'{a}'"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
    };
    check("effort", &EFFORTS, out);
    check("summary", &SUMMARIES, out);
    crate::providers::openai_chat::validate::check_openai_effort(
        obj,
        cfg.get("effort"),
        path.k("effort"),
        "reasoning.effort",
        "ORS-22",
        out,
    );
}

/// `include` is an array of non-empty strings.
fn check_include(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("include");
    match obj.get("include") {
        None | Some(Value::Null) => {}
        Some(Value::Array(a)) => {
            for (k, v) in a.iter().enumerate() {
                match v {
                    Value::String(s) if s.is_empty() => out.push(STRUCT, path.i(k), EMPTY_STRING),
                    Value::String(_) => {}
                    _ => out.push(STRUCT, path.i(k), "include entries must be strings"),
                }
            }
        }
        Some(_) => out.push(STRUCT, path, "include must be an array of strings"),
    }
}

/// `max_output_tokens` is an integer of at least 16.
fn check_max_output_tokens(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("max_output_tokens");
    match obj.get("max_output_tokens") {
        None | Some(Value::Null) => {}
        Some(v) => match v.as_u64() {
            Some(n) if n >= MIN_OUTPUT_TOKENS => {}
            Some(n) => out.push(
                STRUCT,
                path,
                format!(
                    "integer below minimum value. Expected a value >= {MIN_OUTPUT_TOKENS}, but \
                     got {n} instead."
                ),
            ),
            None => out.push(STRUCT, path, "max_output_tokens must be an integer"),
        },
    }
}
