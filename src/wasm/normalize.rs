//! `normalize`: the repaired canonical transcript a render would start from.

use serde::Serialize;
use serde_json::Value;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::types::TranscriptInput;
use super::{read_options, read_transcript, to_js};
use crate::normalize::normalize;
use crate::request::RenderOptions;
use crate::vocab::Diagnostic;

/// What `normalize` returns.
#[derive(Serialize, Tsify)]
#[serde(rename_all = "camelCase")]
pub struct NormalizeResult {
    /// The repaired transcript: every call answered exactly once and next to its call, no
    /// empty content, roles ordered as the target needs, system messages taken out.
    #[tsify(type = "Transcript")]
    transcript: Value,
    /// System prompt texts taken out of the transcript, in order.
    system: Vec<String>,
    /// Tool changes the target cannot take in place (ANT-53): left out of `transcript`, taken as
    /// the request's tools list. Keep them with the history (a system message after it) so the
    /// stored history renders the same again.
    #[tsify(type = "ToolChangeBlock[]")]
    tool_changes: Value,
    /// Whether thinking stays on for this request (the history can force it off).
    thinking_enabled: bool,
    /// Every repair, in pass order.
    diagnostics: Vec<Diagnostic>,
}

/// Repairs a transcript for `options.provider` and `options.model` exactly as
/// `renderForProvider` would, and returns the canonical result instead of a request body.
///
/// @example
/// ```ts
/// const { transcript, diagnostics } = normalize(history, { provider: "anthropic", model: "claude-sonnet-4-5" });
/// ```
#[wasm_bindgen(js_name = normalize)]
pub fn normalize_js(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<Ts<NormalizeResult>, JsValue> {
    let transcript = read_transcript(transcript)?;
    let options = read_options(&options.js_value())?;
    let resolved = crate::request::Resolved::of(&options)?;
    let n = normalize(&transcript, &resolved.normalize);
    let tool_changes = left_out_changes(&n.tool_changes.left_out);
    let out = NormalizeResult {
        transcript: n.transcript.to_value(),
        tool_changes,
        system: n.system,
        thinking_enabled: n.thinking_enabled,
        diagnostics: crate::render::reading_first(
            &transcript.read_repairs,
            &options,
            &resolved.limits.notes,
            n.diagnostics,
        ),
    };
    Ok(Ts::new_unchecked(to_js(&out)?))
}

/// The tool changes a render left out, as the blocks of a transcript.
fn left_out_changes(changes: &[crate::model::ToolChangeBlock]) -> Value {
    use crate::model::{Block, Message, Speaker, Transcript};
    if changes.is_empty() {
        return Value::Array(Vec::new());
    }
    let blocks = changes.iter().cloned().map(Block::ToolChange).collect();
    let mut history = Transcript::new(vec![Message::new(Speaker::System, blocks)]).to_value();
    history[0]["blocks"].take()
}
