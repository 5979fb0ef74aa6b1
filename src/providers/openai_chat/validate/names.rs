//! Ids and names: `OAC-03` (call id length), `OAC-04` (no empty ids or names) and `OAC-05`
//! (function name pattern, description length).

use serde_json::Value;

use super::dialect::Dialect;
use super::STRUCT;
use crate::providers::validate_support::{is_id_char, Findings, Path};

/// Maximum length of a tool-call id.
const MAX_CALL_ID_LEN: usize = 40;

/// Maximum length of a function name.
const MAX_NAME_LEN: usize = 64;

/// Maximum length of a tool description.
const MAX_DESCRIPTION_LEN: usize = 1024;

const OAC_05_PATTERN: &str = "string does not match pattern. Expected a string that matches the \
     pattern '^[a-zA-Z0-9_-]+$'.";

const EMPTY_STRING: &str =
    "empty string. Expected a string with minimum length 1, but got an empty string instead.";

/// OAC-03 (unless the dialect checks id lengths itself) and OAC-04 on a call id or a
/// `tool_call_id`.
pub(super) fn check_call_id(id: &str, path: &Path, dialect: &Dialect, out: &mut Findings) {
    let len = id.chars().count();
    if len == 0 {
        out.push("OAC-04", path.clone(), EMPTY_STRING);
    } else if dialect.oac_03_id_length && len > MAX_CALL_ID_LEN {
        out.push(
            "OAC-03",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_CALL_ID_LEN}, but \
                 got a string with length {len} instead."
            ),
        );
    }
}

/// Shape, OAC-04 (empty) and OAC-05 (pattern, length) on a function name.
pub(super) fn check_function_name(name: Option<&Value>, path: &Path, out: &mut Findings) {
    let Some(name) = name.and_then(Value::as_str) else {
        out.push(
            STRUCT,
            path.clone(),
            "Missing required parameter: 'name' (a string).",
        );
        return;
    };
    let len = name.chars().count();
    if len == 0 {
        out.push("OAC-04", path.clone(), EMPTY_STRING);
    } else if !name.chars().all(is_id_char) {
        out.push("OAC-05", path.clone(), OAC_05_PATTERN);
    } else if len > MAX_NAME_LEN {
        out.push(
            "OAC-05",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_NAME_LEN}, but got \
                 a string with length {len} instead."
            ),
        );
    }
}

/// OAC-05: tool descriptions are at most 1024 characters.
pub(super) fn check_oac_05_description(description: &str, path: &Path, out: &mut Findings) {
    let len = description.chars().count();
    if len > MAX_DESCRIPTION_LEN {
        out.push(
            "OAC-05",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_DESCRIPTION_LEN}, \
                 but got a string with length {len} instead."
            ),
        );
    }
}
