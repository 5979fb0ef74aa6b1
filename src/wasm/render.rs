//! `renderForProvider` and `renderBody`: stateless, plain data out.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::types::TranscriptInput;
use super::{read_options, read_transcript, to_js};
use crate::render::{render_owned, RenderOptions, Rendered};

/// Renders a transcript into the request body for `options.provider`, with the id map, the
/// tool names that changed and every repair as a diagnostic. Plain objects out.
///
/// @example
/// ```ts
/// const { body, idMap, diagnostics } = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" });
/// ```
#[wasm_bindgen(js_name = renderForProvider)]
pub fn render_for_provider(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<Ts<Rendered>, JsValue> {
    let transcript = read_transcript(transcript)?;
    let options = read_options(&options.js_value())?;
    let out = render_owned(transcript, &options)?;
    Ok(Ts::new_unchecked(to_js(&out)?))
}

/// Renders and returns only the request body: UTF-8 JSON bytes, ready to send. The same input
/// and options always give the same bytes, identical to the Rust API's `render_body`.
///
/// @example
/// ```ts
/// await fetch(url, { method: "POST", headers, body: renderBody(historyJson, { provider: "anthropic", model: "claude-sonnet-4-5" }) });
/// ```
#[wasm_bindgen(js_name = renderBody)]
pub fn render_body(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<Vec<u8>, JsValue> {
    let transcript = read_transcript(transcript)?;
    let options = read_options(&options.js_value())?;
    Ok(render_owned(transcript, &options)?.body_bytes())
}
