//! Thought signatures: `GEM-05` (Gemini 3: the first `functionCall` part of every model step in
//! the current turn carries one) and `GEM-06` (a signature is a part-level sibling of
//! `functionCall` or `text` only).

use serde_json::{Map, Value};

use super::contents::{Content, Role};
use super::parts::PartKind;
use crate::providers::validate_support::{Findings, Path};

/// The part-level signature field.
pub(super) const SIGNATURE: &str = "thoughtSignature";

/// The snake_case spelling, also looked for inside data fields.
const SIGNATURE_SNAKE: &str = "thought_signature";

/// Data fields a signature must never be nested in.
const NESTED_IN: [&str; 4] = ["functionCall", "functionResponse", "inlineData", "fileData"];

const GEM_05_MSG: &str = "Function call is missing a thought_signature in functionCall parts. \
     This is required for tools to work correctly, and missing thought_signature may lead to \
     degraded model performance.";

const GEM_05_TAIL: &str =
    "Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.";

/// Whether `model` (a bare id, `models/…` or a longer resource name) is a Gemini 3 model.
pub(super) fn is_gemini_3(model: &str) -> bool {
    let id = model.rsplit('/').next().unwrap_or(model);
    id.to_ascii_lowercase().starts_with("gemini-3")
}

/// GEM-06: `thoughtSignature` sits only at part level next to `functionCall` or `text`, never
/// nested inside a data field and never on `functionResponse`, `inlineData` or `fileData` parts.
pub(super) fn check_gem_06_placement(
    obj: &Map<String, Value>,
    kind: PartKind,
    path: &Path,
    out: &mut Findings,
) {
    for field in NESTED_IN {
        let Some(data) = obj.get(field).and_then(Value::as_object) else {
            continue;
        };
        for key in [SIGNATURE, SIGNATURE_SNAKE] {
            if data.contains_key(key) {
                out.push(
                    "GEM-06",
                    path.k(field).k(key),
                    format!(
                        "`{key}` must not be nested inside `{field}`: thoughtSignature is a \
                         Part-level sibling of functionCall (or text)"
                    ),
                );
            }
        }
    }
    let misplaced = matches!(
        kind,
        PartKind::FunctionResponse | PartKind::InlineData | PartKind::FileData | PartKind::Code
    );
    if misplaced && obj.contains_key(SIGNATURE) {
        out.push(
            "GEM-06",
            path.k(SIGNATURE),
            "thoughtSignature is only allowed on functionCall or text parts, never on \
             functionResponse, inlineData or fileData parts",
        );
    }
}

/// GEM-05: for Gemini 3 models, the first `functionCall` part of every model content in the
/// current turn (after the last user content without `functionResponse` parts) carries a
/// non-empty `thoughtSignature`.
pub(super) fn check_gem_05_current_turn_signatures(contents: &[Content<'_>], out: &mut Findings) {
    let start = contents
        .iter()
        .rposition(|c| c.is(Role::User) && !c.has_responses())
        .map_or(0, |i| i + 1);
    for c in contents.iter().skip(start).filter(|c| c.is(Role::Model)) {
        let Some(first) = c.parts_of(PartKind::FunctionCall).next() else {
            continue;
        };
        let signed = first
            .value
            .get(SIGNATURE)
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty());
        if signed {
            continue;
        }
        let name = first
            .data("functionCall")
            .and_then(|f| f.get("name"))
            .and_then(Value::as_str)
            .unwrap_or("?");
        out.push(
            "GEM-05",
            c.part_path(first.idx).k(SIGNATURE),
            format!(
                "{GEM_05_MSG} Function call `{name}` at contents[{}].parts[{}] (first call of a \
                 model step in the current turn). {GEM_05_TAIL}",
                c.idx, first.idx
            ),
        );
    }
}
