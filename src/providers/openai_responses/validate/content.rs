//! Content: message content and its parts by role (`ORS-13` for assistant messages),
//! `function_call_output.output` (`ORS-09`) and the no-empty-text rule (`ORS-STRUCT`).

use serde_json::Value;

use super::items::{Item, Role};
use super::names::{EMPTY_ARRAY, EMPTY_STRING};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Part types of user, system and developer messages (and of output arrays).
const INPUT_PART_TYPES: [&str; 3] = ["input_text", "input_image", "input_file"];

/// Part types of assistant messages.
const ASSISTANT_PART_TYPES: [&str; 2] = ["output_text", "refusal"];

/// Image detail levels.
const IMAGE_DETAILS: [&str; 3] = ["low", "high", "auto"];

/// A message's `content`: a non-empty string or a non-empty array of parts of the role's types.
pub(super) fn check_message_content(item: &Item<'_>, role: Option<Role>, out: &mut Findings) {
    let path = item.path().k("content");
    let parts = match item.get("content") {
        None | Some(Value::Null) => {
            out.push(
                STRUCT,
                path,
                format!("Missing required parameter: 'input[{}].content'.", item.idx),
            );
            return;
        }
        Some(Value::String(s)) => {
            if s.is_empty() {
                out.push(STRUCT, path, EMPTY_STRING);
            }
            return;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(
                STRUCT,
                path,
                "content must be a string or an array of content parts",
            );
            return;
        }
    };
    if parts.is_empty() {
        out.push(STRUCT, path, EMPTY_ARRAY);
        return;
    }
    let allowed: &[&str] = match role {
        Some(Role::Assistant) => &ASSISTANT_PART_TYPES,
        Some(_) => &INPUT_PART_TYPES,
        None => &[],
    };
    for (p, part) in parts.iter().enumerate() {
        let ppath = path.i(p);
        let Some(ty) = part.get("type").and_then(Value::as_str) else {
            out.push(
                STRUCT,
                ppath,
                "content part must be an object with a string `type`",
            );
            continue;
        };
        if role.is_some() && !allowed.contains(&ty) {
            // OpenAI names the part (`param: input[109].content[0]`) for assistant messages.
            let (rule, at) = if role == Some(Role::Assistant) {
                ("ORS-13", ppath)
            } else {
                (STRUCT, ppath.k("type"))
            };
            out.push(
                rule,
                at,
                format!(
                    "Invalid value: '{ty}'. Supported values are: {}.",
                    quoted_list(allowed)
                ),
            );
            continue;
        }
        match ty {
            "output_text" | "input_text" => check_text_field(part, "text", &ppath, out),
            "refusal" => check_text_field(part, "refusal", &ppath, out),
            "input_image" | "input_file" => {
                if let Some(missing) = media_problem(part, ty) {
                    out.push(STRUCT, ppath, format!("an {ty:?} part needs {missing}"));
                }
            }
            other => out.push(
                STRUCT,
                ppath.k("type"),
                format!(
                    "Invalid value: '{other}'. Supported values are: {}.",
                    quoted_list(&[INPUT_PART_TYPES.as_slice(), &ASSISTANT_PART_TYPES].concat())
                ),
            ),
        }
    }
}

/// `'a', 'b', and 'c'` in OpenAI's style.
fn quoted_list(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|t| format!("'{t}'")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            let sep = if rest.len() > 1 { ", and " } else { " and " };
            format!("{}{sep}{last}", rest.join(", "))
        }
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// A part's text field is a non-empty string.
fn check_text_field(part: &Value, field: &'static str, path: &Path, out: &mut Findings) {
    match part.get(field) {
        Some(Value::String(s)) if s.is_empty() => out.push(STRUCT, path.k(field), EMPTY_STRING),
        Some(Value::String(_)) => {}
        _ => out.push(
            STRUCT,
            path.k(field),
            format!("Missing required parameter: '{field}' (a string)."),
        ),
    }
}

/// What an `input_image` or `input_file` part lacks, if anything.
fn media_problem(part: &Value, ty: &str) -> Option<&'static str> {
    let has = |k: &str| part.get(k).is_some_and(Value::is_string);
    if ty == "input_image" {
        if !has("image_url") && !has("file_id") {
            return Some("an `image_url` or a `file_id` (a string)");
        }
        let detail_ok = match part.get("detail") {
            None | Some(Value::Null) => true,
            Some(d) => d.as_str().is_some_and(|d| IMAGE_DETAILS.contains(&d)),
        };
        if !detail_ok {
            return Some("`detail` to be 'low', 'high' or 'auto' when present");
        }
        None
    } else if !has("file_data") && !has("file_id") && !has("file_url") {
        Some("a `file_data`, `file_id` or `file_url` (a string)")
    } else {
        None
    }
}

/// ORS-09: `function_call_output.output` is a non-empty string or an array of complete
/// `input_text` / `input_image` / `input_file` parts.
pub(super) fn check_output(item: &Item<'_>, out: &mut Findings) {
    let idx = item.idx;
    let path = item.path().k("output");
    let parts = match item.get("output") {
        None | Some(Value::Null) => {
            out.push(
                STRUCT,
                path,
                format!("Missing required parameter: 'input[{idx}].output'."),
            );
            return;
        }
        Some(Value::String(s)) => {
            if s.is_empty() {
                out.push(STRUCT, path, EMPTY_STRING);
            }
            return;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(
                STRUCT,
                path,
                "output must be a string or an array of input_text, input_image or input_file \
                 parts",
            );
            return;
        }
    };
    if parts.is_empty() {
        out.push("ORS-09", path, EMPTY_ARRAY);
        return;
    }
    for (k, part) in parts.iter().enumerate() {
        let ppath = path.i(k);
        let ty = part.get("type").and_then(Value::as_str);
        match ty {
            Some(t @ ("input_text" | "input_image" | "input_file")) => {
                if t == "input_text" {
                    match part.get("text") {
                        Some(Value::String(s)) if s.is_empty() => {
                            out.push(STRUCT, ppath.k("text"), EMPTY_STRING);
                        }
                        Some(Value::String(_)) => {}
                        _ => out.push(
                            "ORS-09",
                            ppath.k("text"),
                            format!("Missing required parameter: 'input[{idx}].output[{k}].text'."),
                        ),
                    }
                } else if let Some(missing) = media_problem(part, t) {
                    out.push(
                        "ORS-09",
                        ppath,
                        format!(
                            "Missing required parameter: 'input[{idx}].output[{k}]' (an {t:?} \
                             part needs {missing})."
                        ),
                    );
                }
            }
            _ => out.push(
                "ORS-09",
                ppath,
                format!(
                    "Missing required parameter: 'input[{idx}].output[{k}]' (each element must \
                     be a complete input_text, input_image or input_file part, found {}).",
                    ty.map_or_else(|| "no type".to_string(), |t| format!("type {t:?}"))
                ),
            ),
        }
    }
}
