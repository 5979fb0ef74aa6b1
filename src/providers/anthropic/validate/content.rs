//! `ANT-09` on text (no empty or whitespace-only text) and the shape of text and document blocks.

use serde_json::Value;

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

const ANT_09_EMPTY: &str = "text content blocks must be non-empty";

const ANT_09_BLANK: &str = "text content blocks must contain non-whitespace text";

/// ANT-09 on a text value (block text, string content, string tool_result content).
pub(super) fn check_text(text: &str, path: &Path, out: &mut Findings) {
    if text.is_empty() {
        out.push("ANT-09", path.clone(), ANT_09_EMPTY);
    } else if text.trim().is_empty() {
        out.push("ANT-09", path.clone(), ANT_09_BLANK);
    }
}

/// A text block has a string `text` that passes ANT-09.
pub(super) fn check_text_block(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("text") {
        Some(Value::String(s)) => check_text(s, &path.k("text"), out),
        _ => out.push(STRUCT, path.k("text"), "text block needs a string `text`"),
    }
}

/// A document block has a `source` object.
pub(super) fn check_document(block: &Value, path: &Path, out: &mut Findings) {
    if !block.get("source").is_some_and(Value::is_object) {
        out.push(
            STRUCT,
            path.k("source"),
            "document block needs a `source` object",
        );
    }
}
