//! Per-part checks: the one data field of a part (`GEM-09`), empty text (`GEM-09`), the shape of
//! each data field, names (`GEM-10`), `args`/`response` objects (`GEM-11`) and signature
//! placement (`GEM-06`).

use serde_json::{Map, Value};

use super::contents::Role;
use super::names::check_gem_10_name;
use super::signatures::{check_gem_06_placement, SIGNATURE};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::WireApi;

/// The data member of a part that calls a function.
const CALL: &str = WireApi::GenerateContent.pairing().call;
/// The data member of a part that answers one.
const RESPONSE: &str = WireApi::GenerateContent.pairing().result;

/// The data fields of a part (a oneof: exactly one is set).
const DATA_FIELDS: [&str; 7] = [
    "text",
    "inlineData",
    "fileData",
    CALL,
    RESPONSE,
    "executableCode",
    "codeExecutionResult",
];

/// Part-level metadata fields allowed next to the data field.
const META_FIELDS: [&str; 5] = [
    "thought",
    SIGNATURE,
    "videoMetadata",
    "partMetadata",
    "mediaResolution",
];

/// Which data field a part carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum PartKind {
    /// `text`.
    Text,
    /// `inlineData`.
    InlineData,
    /// `fileData`.
    FileData,
    /// `functionCall`.
    FunctionCall,
    /// `functionResponse`.
    FunctionResponse,
    /// `executableCode` or `codeExecutionResult` (accepted without deeper checks).
    Code,
    /// Not an object, or no / more than one data field (already reported).
    Invalid,
}

impl PartKind {
    /// The kind of data field `key`.
    fn of(key: &str) -> PartKind {
        match key {
            "text" => PartKind::Text,
            "inlineData" => PartKind::InlineData,
            "fileData" => PartKind::FileData,
            CALL => PartKind::FunctionCall,
            RESPONSE => PartKind::FunctionResponse,
            "executableCode" | "codeExecutionResult" => PartKind::Code,
            _ => PartKind::Invalid,
        }
    }
}

/// Checks one part at `path` (`loc` is Gemini's spelling of its position, e.g.
/// `contents[1].parts[0]`); returns its kind.
pub(super) fn check_part(
    part: &Value,
    path: &Path,
    loc: &str,
    role: Option<Role>,
    out: &mut Findings,
) -> PartKind {
    let Some(obj) = part.as_object() else {
        out.push(STRUCT, path.clone(), "part must be a JSON object");
        return PartKind::Invalid;
    };
    for key in obj.keys() {
        let k = key.as_str();
        if !DATA_FIELDS.contains(&k) && !META_FIELDS.contains(&k) {
            let hint = if k.contains('_') {
                " (field names are camelCase)"
            } else {
                ""
            };
            out.push(
                STRUCT,
                path.clone(),
                format!(
                    "Invalid JSON payload received. Unknown name \"{k}\" at '{loc}': Cannot find \
                     field.{hint}"
                ),
            );
        }
    }
    let set: Vec<&str> = DATA_FIELDS
        .iter()
        .copied()
        .filter(|f| obj.contains_key(*f))
        .collect();
    let kind = match set.as_slice() {
        [] => {
            out.push(
                "GEM-09",
                path.clone(),
                format!(
                    "* GenerateContentRequest.{loc}.data: required oneof field 'data' must have \
                     one initialized field"
                ),
            );
            return PartKind::Invalid;
        }
        [one] => PartKind::of(one),
        [first, second, ..] => {
            out.push(
                "GEM-09",
                path.clone(),
                format!(
                    "Invalid value at '{loc}' (oneof), oneof field 'data' is already set \
                     ('{first}'). Cannot set '{second}'."
                ),
            );
            return PartKind::Invalid;
        }
    };
    if obj.get("thought").is_some_and(|t| !t.is_boolean()) {
        out.push(STRUCT, path.k("thought"), "thought must be a boolean");
    }
    if obj.get(SIGNATURE).is_some_and(|s| !s.is_string()) {
        out.push(
            STRUCT,
            path.k(SIGNATURE),
            "thoughtSignature must be a (base64) string",
        );
    }
    match kind {
        PartKind::Text => check_text(obj, path, loc, out),
        PartKind::InlineData => check_inline_data(obj, path, out),
        PartKind::FileData => check_file_data(obj, path, out),
        PartKind::FunctionCall => check_function_call(obj, path, role, out),
        PartKind::FunctionResponse => check_function_response(obj, path, role, out),
        PartKind::Code => {
            if !DATA_FIELDS
                .iter()
                .filter_map(|f| obj.get(*f))
                .all(Value::is_object)
            {
                out.push(
                    STRUCT,
                    path.clone(),
                    "executableCode / codeExecutionResult must be an object",
                );
            }
        }
        PartKind::Invalid => {}
    }
    check_gem_06_placement(obj, kind, path, out);
    kind
}

/// GEM-09 on text: a string, not empty or whitespace-only unless the part carries a
/// `thoughtSignature` (Gemini itself returns empty signed text parts, which must be replayed).
fn check_text(obj: &Map<String, Value>, path: &Path, loc: &str, out: &mut Findings) {
    let tpath = path.k("text");
    let Some(text) = obj.get("text").and_then(Value::as_str) else {
        out.push(STRUCT, tpath, "text must be a string");
        return;
    };
    if !text.trim().is_empty() || obj.get(SIGNATURE).is_some_and(Value::is_string) {
        return;
    }
    let msg = if text.is_empty() {
        format!(
            "* GenerateContentRequest.{loc}.data: required oneof field 'data' must have one \
             initialized field (empty text part)"
        )
    } else {
        "text part must contain non-whitespace text (strict: blank text parts are rejected, e.g. \
         next to a functionResponse)"
            .to_string()
    };
    out.push("GEM-09", tpath, msg);
}

/// `inlineData` is `{mimeType, data}` with non-empty strings.
fn check_inline_data(obj: &Map<String, Value>, path: &Path, out: &mut Findings) {
    let dpath = path.k("inlineData");
    let Some(data) = obj.get("inlineData").and_then(Value::as_object) else {
        out.push(STRUCT, dpath, "inlineData must be an object");
        return;
    };
    for key in ["mimeType", "data"] {
        if data
            .get(key)
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
        {
            let kpath = if key == "data" {
                dpath.k("data")
            } else {
                dpath.k("mimeType")
            };
            out.push(
                STRUCT,
                kpath,
                format!("inlineData.{key} must be a non-empty string"),
            );
        }
    }
}

/// `fileData` is `{mimeType?, fileUri}`.
fn check_file_data(obj: &Map<String, Value>, path: &Path, out: &mut Findings) {
    let dpath = path.k("fileData");
    let Some(data) = obj.get("fileData").and_then(Value::as_object) else {
        out.push(STRUCT, dpath, "fileData must be an object");
        return;
    };
    if data
        .get("fileUri")
        .and_then(Value::as_str)
        .is_none_or(str::is_empty)
    {
        out.push(
            STRUCT,
            dpath.k("fileUri"),
            "fileData.fileUri must be a non-empty string",
        );
    }
    if data.get("mimeType").is_some_and(|m| !m.is_string()) {
        out.push(
            STRUCT,
            dpath.k("mimeType"),
            "fileData.mimeType must be a string",
        );
    }
}

/// An optional string `id` on a function call or response.
fn check_optional_id(data: &Map<String, Value>, path: &Path, out: &mut Findings) {
    if data.get("id").is_some_and(|v| !v.is_string()) {
        out.push(STRUCT, path.k("id"), "id must be a string");
    }
}

/// `functionCall` is `{name, args?, id?}` in a model content; `args` an object (GEM-11).
fn check_function_call(
    obj: &Map<String, Value>,
    path: &Path,
    role: Option<Role>,
    out: &mut Findings,
) {
    let fpath = path.k("functionCall");
    let Some(call) = obj.get("functionCall").and_then(Value::as_object) else {
        out.push(STRUCT, fpath, "functionCall must be an object");
        return;
    };
    if role == Some(Role::User) {
        out.push(
            STRUCT,
            fpath.clone(),
            "functionCall parts belong in model contents, not user contents",
        );
    }
    check_gem_10_name(call.get("name"), &fpath.k("name"), out);
    if call.get("args").is_some_and(|a| !a.is_object()) {
        out.push(
            "GEM-11",
            fpath.k("args"),
            "functionCall.args must be a JSON object (Struct)",
        );
    }
    check_optional_id(call, &fpath, out);
}

/// `functionResponse` is `{name, response, id?}` in a user content; `response` an object
/// (GEM-11).
fn check_function_response(
    obj: &Map<String, Value>,
    path: &Path,
    role: Option<Role>,
    out: &mut Findings,
) {
    let fpath = path.k("functionResponse");
    let Some(resp) = obj.get("functionResponse").and_then(Value::as_object) else {
        out.push(STRUCT, fpath, "functionResponse must be an object");
        return;
    };
    if role == Some(Role::Model) {
        out.push(
            STRUCT,
            fpath.clone(),
            "functionResponse parts belong in user contents, not model contents",
        );
    }
    check_gem_10_name(resp.get("name"), &fpath.k("name"), out);
    if !resp.get("response").is_some_and(Value::is_object) {
        out.push(
            "GEM-11",
            fpath.k("response"),
            "functionResponse.response must be a JSON object (Struct); wrap string or array \
             results, e.g. {\"output\": \"...\"}",
        );
    }
    check_optional_id(resp, &fpath, out);
}
