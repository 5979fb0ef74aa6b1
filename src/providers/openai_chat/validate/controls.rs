//! `OAC-16` .. `OAC-19` (docs/provider-rules-added.md): the request controls `tool_choice`,
//! `stop` and `response_format`, with each dialect's own values and limits ([`Dialect`]).

use serde_json::{Map, Value};

use super::{Dialect, STRUCT};
use crate::providers::validate_support::{Findings, Path};

/// The function names `tools` declares.
fn declared(obj: &Map<String, Value>) -> Vec<&str> {
    obj.get("tools")
        .and_then(Value::as_array)
        .map(|tools| {
            tools
                .iter()
                .filter_map(|t| t.pointer("/function/name").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `tool_choice` forces a call (`required`, Mistral's `any`, a named function).
pub(crate) fn forces_a_call(obj: &Map<String, Value>) -> Option<bool> {
    match obj.get("tool_choice")? {
        Value::String(s) => Some(s == "required" || s == "any"),
        Value::Object(_) => Some(true),
        _ => Some(false),
    }
}

/// `OAC-16`: `tool_choice` only with `tools`, one of the dialect's values or the nested named
/// form naming a declared function.
pub(super) fn check_oac_16_tool_choice(
    obj: &Map<String, Value>,
    dialect: &Dialect,
    out: &mut Findings,
) {
    let Some(choice) = obj.get("tool_choice") else {
        return;
    };
    let path = Path::root().k("tool_choice");
    let names = declared(obj);
    if names.is_empty() {
        out.push(
            "OAC-16",
            path.clone(),
            "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.",
        );
    }
    match choice {
        Value::String(s) if dialect.tool_choice_values.contains(&s.as_str()) => {}
        Value::Object(o) => match o.get("function").and_then(|f| f.get("name")) {
            None => out.push(
                "OAC-16",
                path.k("function"),
                "Missing required parameter: 'tool_choice.function'.",
            ),
            Some(Value::String(name)) if names.contains(&name.as_str()) || names.is_empty() => {
                if o.get("type").and_then(Value::as_str) != Some("function") {
                    out.push(
                        STRUCT,
                        path.k("type"),
                        "tool_choice.type must be \"function\"",
                    );
                }
            }
            Some(_) => out.push(
                "OAC-16",
                path.k("function").k("name"),
                "tool_choice.function.name must name a function declared in 'tools'",
            ),
        },
        other => out.push(
            STRUCT,
            path,
            format!(
                "tool_choice must be one of {} or a named function, found {other}",
                dialect.tool_choice_values.join(", ")
            ),
        ),
    }
}

/// `OAC-17`: `stop` is a string or at most the dialect's number of strings (each within its
/// length limit); `OAC-18`: none for models whose sampling is fixed (OpenAI reasoning models).
pub(super) fn check_oac_17_18_stop(
    obj: &Map<String, Value>,
    dialect: &Dialect,
    out: &mut Findings,
) {
    let Some(stop) = obj.get("stop") else {
        return;
    };
    let path = Path::root().k("stop");
    if dialect.no_stop_for_fixed_sampling {
        let model = obj.get("model").and_then(Value::as_str).unwrap_or_default();
        let caps =
            crate::models::capabilities_or_defaults(crate::vocab::Provider::OpenAiChat, model);
        if caps.fixed_sampling {
            out.push(
                "OAC-18",
                path.clone(),
                "Unsupported parameter: 'stop' is not supported with this model.",
            );
        }
    }
    let items: Vec<&Value> = match stop {
        Value::Null => return,
        Value::String(_) => vec![stop],
        Value::Array(a) => a.iter().collect(),
        _ => {
            out.push(STRUCT, path, "stop must be a string or an array of strings");
            return;
        }
    };
    if items.is_empty() {
        out.push(
            "OAC-17",
            path.clone(),
            "stop must not be an empty array; leave it out",
        );
    }
    if items.len() > dialect.max_stop {
        out.push(
            "OAC-17",
            path.clone(),
            format!(
                "Invalid 'stop': array too long. Expected an array with maximum length {}, but got an array with length {} instead.",
                dialect.max_stop,
                items.len()
            ),
        );
    }
    for (i, s) in items.iter().enumerate() {
        match s.as_str() {
            Some("") | None => out.push(
                "OAC-17",
                path.i(i),
                "each stop sequence must be a non-empty string",
            ),
            Some(s) if dialect.max_stop_bytes.is_some_and(|m| s.len() > m) => out.push(
                "OAC-17",
                path.i(i),
                format!(
                    "each stop sequence must be at most {} bytes",
                    dialect.max_stop_bytes.unwrap_or_default()
                ),
            ),
            Some(_) => {}
        }
    }
}

/// `OAC-19`: a JSON schema `response_format` nests `{name, schema, strict?}` under
/// `json_schema`, with a name of 1-64 letters, digits, `_` or `-`; with `strict: true` every
/// object schema closes with `additionalProperties: false` and lists every property in
/// `required`.
pub(super) fn check_oac_19_response_format(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(format) = obj.get("response_format") else {
        return;
    };
    let path = Path::root().k("response_format");
    if format.get("type").and_then(Value::as_str) != Some("json_schema") {
        return;
    }
    let Some(spec) = format.get("json_schema").and_then(Value::as_object) else {
        out.push(
            "OAC-19",
            path.k("json_schema"),
            "Missing required parameter: 'response_format.json_schema'.",
        );
        return;
    };
    let name = spec.get("name").and_then(Value::as_str).unwrap_or_default();
    if !crate::request::valid_format_name(name) {
        out.push(
            "OAC-19",
            path.k("json_schema").k("name"),
            "Invalid 'response_format.json_schema.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.",
        );
    }
    let Some(schema) = spec.get("schema").filter(|s| s.is_object()) else {
        out.push(
            STRUCT,
            path.k("json_schema").k("schema"),
            "response_format.json_schema.schema must be an object",
        );
        return;
    };
    if spec.get("strict") == Some(&Value::Bool(true)) {
        if let Some((_, why)) = crate::request::not_strict(schema, "$") {
            let what = if why.contains("additionalProperties") {
                "'additionalProperties' is required to be supplied and to be false".to_string()
            } else {
                "'required' is required to be supplied and to be an array including every key in properties".to_string()
            };
            out.push(
                "OAC-19",
                path.k("json_schema").k("schema"),
                format!("Invalid schema for response_format '{name}': In context=(), {what}."),
            );
        }
    }
}

/// The longest `prompt_cache_key` OpenAI takes.
const MAX_PROMPT_CACHE_KEY: usize = 64;

/// `OAC-20` (Chat) and `ORS-17` (Responses): `prompt_cache_key` is a string of at most 64
/// characters.
pub(crate) fn check_prompt_cache_key(
    obj: &Map<String, Value>,
    rule: &'static str,
    out: &mut Findings,
) {
    let path = Path::root().k("prompt_cache_key");
    match obj.get("prompt_cache_key") {
        None | Some(Value::Null) => {}
        Some(Value::String(key)) => {
            let n = key.chars().count();
            if n > MAX_PROMPT_CACHE_KEY {
                out.push(rule, path, format!("Invalid 'prompt_cache_key': string too long. Expected a string with maximum length {MAX_PROMPT_CACHE_KEY}, but got a string with length {n} instead."));
            }
        }
        Some(_) => out.push(
            rule,
            path,
            "Invalid type for 'prompt_cache_key': expected a string.",
        ),
    }
}
