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

/// A text block has a string `text` that passes ANT-09 (and its citations ANT-47).
pub(super) fn check_text_block(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("text") {
        Some(Value::String(s)) => check_text(s, &path.k("text"), out),
        _ => out.push(STRUCT, path.k("text"), "text block needs a string `text`"),
    }
    check_ant_47_citations(block, path, out);
}

/// ANT-47: a replayed `web_search_result_location` citation keeps its `encrypted_index`
/// (`CitationWebSearchResultLocationParam`: `cited_text`, `encrypted_index`, `title`, `url`
/// required).
fn check_ant_47_citations(block: &Value, path: &Path, out: &mut Findings) {
    let Some(Value::Array(citations)) = block.get("citations") else {
        return;
    };
    for (k, c) in citations.iter().enumerate() {
        if c.get("type").and_then(Value::as_str) != Some("web_search_result_location") {
            continue;
        }
        for field in ["encrypted_index", "cited_text", "url"] {
            if !c.get(field).is_some_and(Value::is_string) {
                out.push(
                    "ANT-47",
                    path.k("citations").i(k).k(field),
                    format!(
                        "{}.citations.{k}.web_search_result_location.{field}: Field required",
                        path.dotted()
                    ),
                );
            }
        }
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
