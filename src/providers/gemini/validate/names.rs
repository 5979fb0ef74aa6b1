//! `GEM-10`: function names match `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$` in declarations and in
//! history, and names in history are declared when function declarations are sent.

use crate::fast_map::HashSet;

use serde_json::Value;

use super::contents::Content;
use super::parts::PartKind;
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Maximum length of a function name.
const MAX_NAME_LEN: usize = 64;

const GEM_10_MSG: &str = "Invalid function name. Must start with a letter or an underscore. Must \
     be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a \
     maximum length of 64.";

/// Whether `name` matches `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$`.
fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    let first_ok = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    first_ok
        && name.len() <= MAX_NAME_LEN
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | ':' | '-'))
}

/// GEM-10 on one name (declaration, `functionCall.name` or `functionResponse.name`).
pub(super) fn check_gem_10_name(name: Option<&Value>, path: &Path, out: &mut Findings) {
    match name.and_then(Value::as_str) {
        None => out.push(STRUCT, path.clone(), "name: required (a string)"),
        Some(n) if !is_valid_name(n) => out.push("GEM-10", path.clone(), GEM_10_MSG),
        Some(_) => {}
    }
}

/// GEM-10 [inferred]: with function declarations sent, every `functionCall` and
/// `functionResponse` name in history is a declared name.
pub(super) fn check_gem_10_history_names(
    contents: &[Content<'_>],
    declared: Option<&HashSet<&str>>,
    out: &mut Findings,
) {
    let Some(declared) = declared else {
        return;
    };
    for c in contents {
        for part in &c.parts {
            let (key, path) = match part.kind {
                PartKind::FunctionCall => ("functionCall", c.part_path(part.idx).k("functionCall")),
                PartKind::FunctionResponse => (
                    "functionResponse",
                    c.part_path(part.idx).k("functionResponse"),
                ),
                _ => continue,
            };
            let Some(name) = part
                .data(key)
                .and_then(|d| d.get("name"))
                .and_then(Value::as_str)
            else {
                continue;
            };
            if !declared.contains(name) {
                out.push(
                    "GEM-10",
                    path.k("name"),
                    format!(
                        "function name {name:?} is not declared in tools[].functionDeclarations \
                         [inferred]"
                    ),
                );
            }
        }
    }
}
