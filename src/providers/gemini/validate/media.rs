//! Media returned by tools: `GEM-17` (media inside a function response — Gemini 3 only, and only
//! the types it takes) and `GEM-18` (the user content answering a function call turn with
//! several calls holds no media beside the responses).

use serde_json::Value;

use super::contents::{Content, Role};
use super::parts::PartKind;
use super::signatures::is_gemini_3;
use super::turns::GEM_01_MSG;
use crate::model::media_essence;
use crate::models::FUNCTION_RESPONSE_MEDIA;
use crate::providers::validate_support::{Findings, Path};

/// What Gemini 2.x answers to `functionResponse.parts`.
const NOT_SUPPORTED: &str = "Multimodal function responses are not supported for this model";

/// GEM-17: `functionResponse.parts` is an array of `inlineData` or `fileData` parts of a type
/// Gemini 3 takes; with a model known to be older than Gemini 3, any `parts` is refused.
pub(super) fn check_gem_17_function_response_media(
    contents: &[Content<'_>],
    model: Option<&str>,
    out: &mut Findings,
) {
    for c in contents.iter().filter(|c| c.is(Role::User)) {
        for p in c.parts_of(PartKind::FunctionResponse) {
            let Some(parts) = p.data("functionResponse").and_then(|d| d.get("parts")) else {
                continue;
            };
            let path = c.part_path(p.idx).k("functionResponse").k("parts");
            if model.is_some_and(|m| !is_gemini_3(m)) {
                out.push(
                    "GEM-17",
                    path.clone(),
                    format!("{NOT_SUPPORTED} (media returned by a tool goes in a user part after the responses before Gemini 3)"),
                );
            }
            let Some(parts) = parts.as_array() else {
                out.push(
                    "GEM-17",
                    path,
                    "functionResponse.parts must be an array of inlineData or fileData parts",
                );
                continue;
            };
            for (i, part) in parts.iter().enumerate() {
                check_media_part(part, path.i(i), out);
            }
        }
    }
}

/// One part of `functionResponse.parts`: exactly one of `inlineData` / `fileData`, of a type
/// Gemini takes there.
fn check_media_part(part: &Value, path: Path, out: &mut Findings) {
    let data = ["inlineData", "fileData"]
        .iter()
        .filter_map(|k| part.get(*k).map(|d| (*k, d)))
        .collect::<Vec<_>>();
    let [(key, data)] = data.as_slice() else {
        out.push(
            "GEM-17",
            path,
            "each part of functionResponse.parts holds exactly one of inlineData or fileData",
        );
        return;
    };
    let mime = data
        .get("mimeType")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if !FUNCTION_RESPONSE_MEDIA.contains(&media_essence(mime).as_str()) {
        out.push(
            "GEM-17",
            path.k(key).k("mimeType"),
            format!(
                "Unable to submit request because the mime_type: {mime} is not supported in \
                 `function_response.parts`. (Gemini takes {} there)",
                FUNCTION_RESPONSE_MEDIA.join(", ")
            ),
        );
    }
}

/// GEM-18: the user content right after a function call turn with two or more calls holds no
/// `inlineData` / `fileData` part beside the responses (Gemini counts them against the calls:
/// google-gemini/gemini-cli#16135). Media goes inside a response (Gemini 3) or after a model
/// turn.
pub(super) fn check_gem_18_no_media_beside_parallel_responses(
    contents: &[Content<'_>],
    out: &mut Findings,
) {
    for pair in contents.windows(2) {
        let [call_turn, next] = pair else { continue };
        let calls = call_turn.parts_of(PartKind::FunctionCall).count();
        if !call_turn.is_call_turn() || calls < 2 || !next.is(Role::User) {
            continue;
        }
        let media = next
            .parts
            .iter()
            .filter(|p| matches!(p.kind, PartKind::InlineData | PartKind::FileData));
        for p in media {
            out.push(
                "GEM-18",
                next.part_path(p.idx),
                format!(
                    "{GEM_01_MSG} (contents[{}] answers the {calls} parallel functionCall parts \
                     of contents[{}] and also holds media; put it inside a functionResponse \
                     (Gemini 3) or in a user content after a model turn)",
                    next.idx, call_turn.idx
                ),
            );
        }
    }
}
