//! Strict validator for Ollama `/api/chat` bodies (`docs/provider-rules-added.md`, Ollama), with
//! the server's own words: Go's `encoding/json` errors for what does not decode into
//! `api.ChatRequest`, and the handler's texts.
//!
//! Checked from one body:
//!
//! - `OLL-SCHEMA` the body is an object; each message an object whose `content` is a string
//!   (`json: cannot unmarshal array into Go struct field ChatRequest.messages.content of type
//!   string`); the top-level members Ollama knows of the types it decodes (unknown members are
//!   ignored by the server, so not refused).
//! - `OLL-01` a `tool` message after an assistant's `tool_calls` answers one of those calls:
//!   its `tool_call_id` names one, and (for servers before 0.12.10, which match by name and
//!   order) its `tool_name` is that of the call at its position [inferred].
//! - `OLL-02` `tool_calls[].function.arguments` is an object (`json: cannot unmarshal string
//!   into Go struct field ChatRequest.messages.tool_calls.function.arguments of type
//!   api.ToolCallFunctionArguments`).
//! - `OLL-03` `images[]` are bare base64 (`illegal base64 data at input byte 4` for a `data:`
//!   URL).
//! - `OLL-04` `think` is a boolean or `"high" | "medium" | "low" | "max"`.
//! - `OLL-07` `format` is `"json"` or a JSON Schema object; `options` members of the types
//!   Ollama reads (`option "num_ctx" must be of type integer`).

mod messages;

use serde_json::Value;

use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;

/// Checks an `/api/chat` body; `model` is unused (the body names it). Returns the violations
/// in document order.
///
/// ```
/// use turnwire::providers::ollama::validate::validate;
/// let body = serde_json::json!({"model": "qwen3:8b",
///     "messages": [{"role": "user", "content": [{"type": "text", "text": "hi"}]}]});
/// assert!(validate(&body, None).iter().any(|v| v.rule == "OLL-SCHEMA"));
/// ```
pub fn validate(body: &Value, model: Option<&str>) -> Vec<Violation> {
    let _ = model;
    let mut out = Findings::default();
    envelope(body, &mut out);
    messages::check(body, &mut out);
    out.finish(body)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value, model: Option<&str>) -> Vec<Violation> {
    let _ = model;
    let mut out = Findings::default();
    envelope(body, &mut out);
    out.finish(body)
}

/// The `think` levels Ollama takes (`api.ThinkValue`).
const THINK_LEVELS: [&str; 4] = ["high", "medium", "low", "max"];

/// The integer options of `api.Options` / `api.Runner` turnwire checks.
const INTEGER_OPTIONS: [&str; 8] = [
    "num_ctx",
    "num_predict",
    "num_keep",
    "seed",
    "top_k",
    "repeat_last_n",
    "num_batch",
    "num_gpu",
];

/// The float options of `api.Options` turnwire checks.
const FLOAT_OPTIONS: [&str; 6] = [
    "temperature",
    "top_p",
    "min_p",
    "typical_p",
    "repeat_penalty",
    "presence_penalty",
];

fn envelope(body: &Value, out: &mut Findings) {
    let Some(obj) = body.as_object() else {
        out.push(
            "OLL-SCHEMA",
            Path::root(),
            format!(
                "json: cannot unmarshal {} into Go value of type api.ChatRequest",
                go_kind(body)
            ),
        );
        return;
    };
    match obj.get("think") {
        None | Some(Value::Null | Value::Bool(_)) => {}
        Some(Value::String(s)) if THINK_LEVELS.contains(&s.as_str()) => {}
        Some(Value::String(s)) => out.push(
            "OLL-04",
            Path::root().k("think"),
            format!("invalid think value: \"{s}\" (must be \"high\", \"medium\", \"low\", \"max\", true, or false)"),
        ),
        Some(_) => out.push(
            "OLL-04",
            Path::root().k("think"),
            "think must be a boolean or string (\"high\", \"medium\", \"low\", \"max\", true, or false)",
        ),
    }
    match obj.get("format") {
        None | Some(Value::Null | Value::Object(_)) => {}
        Some(Value::String(s)) if s == "json" || s.is_empty() => {}
        Some(other) => out.push(
            "OLL-07",
            Path::root().k("format"),
            format!("invalid format: {other}; expected \"json\" or a valid JSON Schema object"),
        ),
    }
    if let Some(Value::Object(options)) = obj.get("options") {
        let at = Path::root().k("options");
        let typed = INTEGER_OPTIONS
            .iter()
            .map(|n| (n, "integer"))
            .chain(FLOAT_OPTIONS.iter().map(|n| (n, "float32")));
        for (name, kind) in typed {
            if options
                .get(*name)
                .is_some_and(|v| !v.is_null() && !v.is_number())
            {
                out.push(
                    "OLL-07",
                    at.k(name),
                    format!("option \"{name}\" must be of type {kind}"),
                );
            }
        }
        match options.get("stop") {
            None | Some(Value::Null) => {}
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => {}
            Some(Value::Array(_)) => out.push(
                "OLL-07",
                at.k("stop"),
                "option \"stop\" must be of an array of strings",
            ),
            Some(_) => out.push(
                "OLL-07",
                at.k("stop"),
                "option \"stop\" must be of type array",
            ),
        }
    }
}

/// Go's name of a JSON value's kind in `encoding/json` errors.
pub(crate) fn go_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}
