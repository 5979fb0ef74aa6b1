//! Message content: `OAC-06` (presence), `OAC-07` (images only from users), `OAC-08` (part types
//! by role) and the payload field of each part.

use serde_json::Value;

use super::dialect::Dialect;
use super::message::{Msg, Role};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// OAC-06: null/absent content only with tool_calls; otherwise non-empty content.
pub(super) fn check_oac_06_content_presence(msg: &Msg<'_>, dialect: &Dialect, out: &mut Findings) {
    let path = msg.path().k("content");
    let with_calls = msg.has_tool_calls();
    match msg.obj.get("content") {
        None | Some(Value::Null) => {
            if !with_calls {
                out.push(
                    "OAC-06",
                    path,
                    "Invalid value for 'content': expected a string, got null.",
                );
            }
        }
        Some(Value::String(s)) => {
            if s.is_empty() {
                let msg_text = if with_calls {
                    "an assistant message with tool_calls must have null or non-empty content, \
                     not an empty string"
                } else {
                    "content must be a non-empty string"
                };
                out.push("OAC-06", path, msg_text);
            }
        }
        Some(Value::Array(parts)) => {
            if with_calls && !dialect.array_content_with_tool_calls {
                out.push(
                    "OAC-06",
                    path,
                    "an assistant message with tool_calls must have null or a non-empty string \
                     content, not an array",
                );
            } else if parts.is_empty() {
                out.push("OAC-06", path, "content must not be an empty array");
            }
        }
        Some(_) => out.push(
            STRUCT,
            path,
            "content must be a string, an array of content parts, or null",
        ),
    }
}

/// Part shapes, OAC-07 (images only from users) and OAC-08 (part types by role).
pub(super) fn check_content_parts(msg: &Msg<'_>, dialect: &Dialect, out: &mut Findings) {
    let Some(parts) = msg.obj.get("content").and_then(Value::as_array) else {
        return;
    };
    let cpath = msg.path().k("content");
    for (p, part) in parts.iter().enumerate() {
        let ppath = cpath.i(p);
        let Some(ty) = part.get("type").and_then(Value::as_str) else {
            out.push(
                STRUCT,
                ppath,
                "content part must be an object with a string `type`",
            );
            continue;
        };
        if let Some(role) = msg.role {
            let extra: &[&str] = if role == Role::Assistant {
                dialect.extra_assistant_part_types
            } else {
                &[]
            };
            if ty == "image_url" && role != Role::User {
                out.push(
                    "OAC-07",
                    ppath.clone(),
                    format!(
                        "Image URLs are only allowed for messages with role 'user', but this \
                         message with role '{}' contains an image URL.",
                        role.name()
                    ),
                );
            } else if !(role.part_types().contains(&ty) || extra.contains(&ty)) {
                out.push(
                    "OAC-08",
                    ppath.k("type"),
                    format!(
                        "Invalid value: '{ty}'. Supported values for role '{}' are: {}.",
                        role.name(),
                        role.part_types()
                            .iter()
                            .chain(extra)
                            .map(|t| format!("'{t}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        check_part_fields(part, ty, &ppath, out);
    }
}

/// The payload field each known part type needs.
fn check_part_fields(part: &Value, ty: &str, path: &Path, out: &mut Findings) {
    let (field, ok, what): (&'static str, bool, &str) = match ty {
        "text" => (
            "text",
            part.get("text").is_some_and(Value::is_string),
            "a string",
        ),
        "refusal" => (
            "refusal",
            part.get("refusal").is_some_and(Value::is_string),
            "a string",
        ),
        "image_url" => (
            "image_url",
            part.get("image_url")
                .and_then(|u| u.get("url"))
                .is_some_and(Value::is_string),
            "an object with a string `url`",
        ),
        "input_audio" => (
            "input_audio",
            part.get("input_audio").is_some_and(Value::is_object),
            "an object",
        ),
        "file" => (
            "file",
            part.get("file").is_some_and(Value::is_object),
            "an object",
        ),
        _ => return,
    };
    if !ok {
        out.push(
            STRUCT,
            path.k(field),
            format!("a {ty:?} part needs `{field}` as {what}"),
        );
    }
}
