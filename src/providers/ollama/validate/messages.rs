//! The rules on `messages`: OLL-SCHEMA (content a string), OLL-01 (results answer the calls,
//! by id or by name and order), OLL-02 (arguments an object), OLL-03 (bare base64 images).

use serde_json::Value;

use super::go_kind;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::WireApi;

const PAIRING: crate::vocab::Pairing = WireApi::OllamaChat.pairing();

/// The calls of the last assistant message: (id, name), in order.
type Calls<'a> = Vec<(Option<&'a str>, &'a str)>;

pub(super) fn check(body: &Value, out: &mut Findings) {
    let Some(Value::Array(list)) = body.get("messages") else {
        if let Some(other) = body.get("messages").filter(|v| !v.is_null()) {
            out.push(
                "OLL-SCHEMA",
                Path::root().k("messages"),
                format!("json: cannot unmarshal {} into Go struct field ChatRequest.messages of type []api.Message", go_kind(other)),
            );
        }
        return;
    };
    let mut calls: Calls = Vec::new();
    // The position of the next result in the run after the calls.
    let mut next = 0;
    for (i, m) in list.iter().enumerate() {
        let at = Path::msg(i);
        let Some(obj) = m.as_object() else {
            out.push(
                "OLL-SCHEMA",
                at,
                format!("json: cannot unmarshal {} into Go struct field ChatRequest.messages of type api.Message", go_kind(m)),
            );
            continue;
        };
        if let Some(c) = obj
            .get("content")
            .filter(|c| !c.is_null() && !c.is_string())
        {
            out.push(
                "OLL-SCHEMA",
                at.k("content"),
                format!("json: cannot unmarshal {} into Go struct field ChatRequest.messages.content of type string", go_kind(c)),
            );
        }
        images(obj.get("images"), &at, out);
        let role = obj.get("role").and_then(Value::as_str).unwrap_or_default();
        match role.to_ascii_lowercase().as_str() {
            "assistant" => {
                calls = tool_calls(obj.get(PAIRING.call), &at, out);
                next = 0;
            }
            r if r == PAIRING.result => {
                result(obj, &calls, next, &at, out);
                next += 1;
            }
            _ => {
                calls.clear();
                next = 0;
            }
        }
    }
}

/// OLL-02: the calls of an assistant message, each with an object of arguments.
fn tool_calls<'a>(v: Option<&'a Value>, at: &Path, out: &mut Findings) -> Calls<'a> {
    let Some(Value::Array(list)) = v else {
        return Vec::new();
    };
    let mut calls = Vec::new();
    for (k, c) in list.iter().enumerate() {
        let f = c.get("function").unwrap_or(&Value::Null);
        match f.get("arguments") {
            None | Some(Value::Null | Value::Object(_)) => {}
            Some(other) => out.push(
                "OLL-02",
                at.k("tool_calls").i(k).k("function").k("arguments"),
                format!("json: cannot unmarshal {} into Go struct field ChatRequest.messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments", go_kind(other)),
            ),
        }
        let id = c.get(PAIRING.call_id).and_then(Value::as_str);
        let name = f.get("name").and_then(Value::as_str).unwrap_or_default();
        calls.push((id, name));
    }
    calls
}

/// OLL-01: a result answers a call of the last assistant message — the one its id names, and
/// (without ids) the one at its position, by name.
fn result(
    obj: &serde_json::Map<String, Value>,
    calls: &Calls,
    position: usize,
    at: &Path,
    out: &mut Findings,
) {
    if calls.is_empty() {
        return;
    }
    let id = obj.get(PAIRING.result_id).and_then(Value::as_str);
    let name = obj.get("tool_name").and_then(Value::as_str);
    if let Some(id) = id {
        if !calls.iter().any(|(c, _)| *c == Some(id)) {
            out.push(
                "OLL-01",
                at.k(PAIRING.result_id),
                format!("tool_call_id `{id}` names no call of the previous assistant message [inferred]"),
            );
        }
    }
    let expected = calls.get(position).map(|(_, n)| *n);
    match (name, expected) {
        (Some(n), Some(e)) if n != e => out.push(
            "OLL-01",
            at.k("tool_name"),
            format!("tool result {position} names `{n}` but call {position} of the previous assistant message is `{e}`: Ollama before 0.12.10 matches results by name and order [inferred]"),
        ),
        (None, Some(e)) if id.is_none() => out.push(
            "OLL-01",
            at.k("tool_name"),
            format!("a tool result names neither its tool nor its call: it answers `{e}` only by its position [inferred]"),
        ),
        (_, None) => out.push(
            "OLL-01",
            at.clone(),
            format!("tool result {position} follows an assistant message with {} calls [inferred]", calls.len()),
        ),
        _ => {}
    }
}

/// OLL-03: `images` hold bare base64 (Go decodes `[]byte` from standard base64).
fn images(v: Option<&Value>, at: &Path, out: &mut Findings) {
    let Some(Value::Array(list)) = v else {
        return;
    };
    for (k, img) in list.iter().enumerate() {
        let path = at.k("images").i(k);
        match img {
            Value::String(s) => {
                if let Some(byte) = s.bytes().position(|b| !is_base64(b)) {
                    out.push("OLL-03", path, format!("illegal base64 data at input byte {byte}"));
                }
            }
            other => out.push(
                "OLL-03",
                path,
                format!("json: cannot unmarshal {} into Go struct field ChatRequest.messages.images of type []uint8", go_kind(other)),
            ),
        }
    }
}

fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'+' | b'/' | b'=' | b'\r' | b'\n')
}
