//! Ids and names: `ORS-07` (item id prefixes), `ORS-08` (`call_id` length) and function names
//! (`^[a-zA-Z0-9_-]{1,64}$`, reported as `ORS-STRUCT` in the `OAC-05` wording).

use serde_json::Value;

use super::STRUCT;
use crate::providers::validate_support::{is_id_char, Findings, Path};

/// Maximum length of a `call_id`.
const MAX_CALL_ID_LEN: usize = 64;

/// Maximum length of a function name.
const MAX_NAME_LEN: usize = 64;

/// OpenAI's text for an empty string.
pub(super) const EMPTY_STRING: &str =
    "empty string. Expected a string with minimum length 1, but got an empty string instead.";

/// OpenAI's text for an empty array.
pub(super) const EMPTY_ARRAY: &str =
    "empty array. Expected an array with minimum length 1, but got an empty array instead.";

const NAME_PATTERN: &str = "string does not match pattern. Expected a string that matches the \
     pattern '^[a-zA-Z0-9_-]+$'.";

/// ORS-08: `call_id` is present, non-empty and at most 64 characters.
pub(super) fn check_ors_08_call_id(call_id: Option<&Value>, path: &Path, out: &mut Findings) {
    let Some(id) = call_id.and_then(Value::as_str) else {
        out.push(
            "ORS-08",
            path.clone(),
            "Missing required parameter: 'call_id' (a non-empty string of at most 64 \
             characters).",
        );
        return;
    };
    let len = id.chars().count();
    if len == 0 {
        out.push("ORS-08", path.clone(), EMPTY_STRING);
    } else if len > MAX_CALL_ID_LEN {
        out.push(
            "ORS-08",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_CALL_ID_LEN}, but \
                 got a string with length {len} instead."
            ),
        );
    }
}

/// ORS-07: an item id begins with the prefix of its item type (`rs_`, `fc_`, `msg_`).
pub(super) fn check_ors_07_prefix(
    idx: usize,
    id: &str,
    prefix: &'static str,
    path: &Path,
    out: &mut Findings,
) {
    if id.starts_with(prefix) {
        return;
    }
    let short = prefix.trim_end_matches('_');
    out.push(
        "ORS-07",
        path.clone(),
        format!("Invalid 'input[{idx}].id': '{id}'. Expected an ID that begins with '{short}'."),
    );
}

/// A function name (in `tools` or on a `function_call`): present, non-empty, matching
/// `^[a-zA-Z0-9_-]{1,64}$`.
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
        out.push(STRUCT, path.clone(), EMPTY_STRING);
    } else if !name.chars().all(is_id_char) {
        out.push(STRUCT, path.clone(), NAME_PATTERN);
    } else if len > MAX_NAME_LEN {
        out.push(
            STRUCT,
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_NAME_LEN}, but got \
                 a string with length {len} instead."
            ),
        );
    }
}
