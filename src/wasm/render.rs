//! `renderForProvider` and `renderBody`: stateless, plain data out.

use js_sys::{JsString, Reflect};
use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::types::TranscriptInput;
use super::{read_options, read_transcript, read_transcript_sized, to_js};
use crate::error::{Error, ErrorCode};
use crate::render::{render_owned_into, RenderReport, Rendered};
use crate::request::RenderOptions;

#[wasm_bindgen(typescript_custom_section)]
const TS_RENDERED_REQUEST: &'static str = r#"
/** A render for sending: the body as JSON text (byte for byte `renderBody`'s), with the id map,
 * the tool names that changed and every diagnostic, as `renderForProvider` gives them. */
export interface RenderedRequest extends RenderReport {
    body: string;
}"#;

/// Renders a transcript into the request body for `options.provider`, with the id map, the
/// tool names that changed and every repair as a diagnostic. Plain objects out.
///
/// @example
/// ```ts
/// const { body, idMap, diagnostics } = renderForProvider(history, { provider: "openai-chat", model: "gpt-5.2" });
/// ```
/// (Its TypeScript declaration, generic over the provider, is in `bodies.rs`.)
#[wasm_bindgen(js_name = renderForProvider, skip_typescript)]
pub fn render_for_provider(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<Ts<Rendered>, JsValue> {
    let (text, report) = render_bytes::<true>(transcript, &options, BODY_MEMBER)?;
    Ok(Ts::new_unchecked(with_report_js(text, &report)?))
}

/// Renders the token-counting request for what `renderForProvider` would send (Anthropic
/// `count_tokens`, OpenAI Responses `input_tokens`, Gemini `countTokens`).
/// (Its TypeScript declaration, generic over the provider, is in `bodies.rs`.)
#[wasm_bindgen(js_name = renderCountTokens, skip_typescript)]
pub fn render_count_tokens(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<Ts<Rendered>, JsValue> {
    let transcript = read_transcript(transcript)?;
    let options = read_options(&options.js_value())?;
    let out = crate::render_count_tokens(&transcript, &options)?;
    Ok(Ts::new_unchecked(rendered_js(out)?))
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
    Ok(render_bytes::<false>(transcript, &options, b"")?.0)
}

/// Renders a transcript for sending: the request body as JSON text (exactly `renderBody`'s
/// bytes, decoded) with the id map, the tool names that changed and every diagnostic, in one
/// call, without building the body as objects (what `streamTurn` sends).
///
/// @example
/// ```ts
/// const { body, diagnostics } = renderRequest(history, { provider: "gemini", model: "gemini-2.5-pro" });
/// await fetch(url, { method: "POST", headers, body });
/// ```
#[wasm_bindgen(js_name = renderRequest, unchecked_return_type = "RenderedRequest")]
pub fn render_request(
    transcript: &TranscriptInput,
    options: Ts<RenderOptions>,
) -> Result<JsValue, JsValue> {
    let (bytes, report) = render_bytes::<false>(transcript, &options, b"")?;
    let body = body_text(&[&bytes])?;
    drop(bytes);
    Ok(request_js(&body, &report)?)
}

/// Reads a transcript and its options and renders them straight to bytes after `start`, in a
/// buffer sized from the input text (a body is about as long); with the report.
fn render_bytes<const ASCII: bool>(
    transcript: &TranscriptInput,
    options: &Ts<RenderOptions>,
    start: &[u8],
) -> Result<(Vec<u8>, RenderReport), Error> {
    let (transcript, len) = read_transcript_sized(transcript)?;
    let options = read_options(&options.js_value())?;
    let mut out = Vec::with_capacity(start.len() + len + len / 8);
    out.extend_from_slice(start);
    let report = render_owned_into::<ASCII>(transcript, &options, &mut out)?;
    Ok((out, report))
}

/// The body given as the UTF-8 slices that make it up (each cut between JSON tokens) as one
/// JS string, decoded slice by slice (no joined copy).
pub(super) fn body_text(parts: &[&[u8]]) -> Result<JsString, Error> {
    let mut body = JsString::from("");
    for part in parts {
        let text = std::str::from_utf8(part).map_err(|e| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                format!("the body is not UTF-8 ({e})"),
            )
        })?;
        body = body.concat(&JsValue::from_str(text));
    }
    Ok(body)
}

/// `{idMap, toolNames, diagnostics, body}`: the report as a plain object, with the body.
pub(super) fn request_js(body: &JsString, report: &RenderReport) -> Result<JsValue, Error> {
    let out = to_js(report)?;
    Reflect::set(&out, &JsValue::from_str("body"), body).map_err(|_| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            "the result object could not take its body",
        )
    })?;
    Ok(out)
}

/// What the JSON text of a render's result starts with: its body comes first.
const BODY_MEMBER: &[u8] = b"{\"body\":";

/// `{body, idMap, toolNames, diagnostics}` as plain JS data, like [`to_js`], with the body's
/// JSON text written by `json::write` (a body is most of a render's bytes), in pure ASCII.
pub(super) fn rendered_js(out: Rendered) -> Result<JsValue, Error> {
    let (body, report) = out.into_parts();
    let mut text = BODY_MEMBER.to_vec();
    crate::json::write::write_value_ascii(&mut text, &body);
    drop(body);
    with_report_js(text, &report)
}

/// The result object from `text` ([`BODY_MEMBER`] and the body's JSON text in pure ASCII)
/// and the report's members after it.
fn with_report_js(mut text: Vec<u8>, report: &RenderReport) -> Result<JsValue, Error> {
    let rest = serde_json::to_string(report).map_err(|e| super::not_json(&e))?;
    let rest = crate::json::write::ascii_escaped(&rest);
    // `rest` is `{"idMap":…}`: its members follow the body's
    if let Some(members) = rest.as_bytes().get(1..) {
        if members.len() > 1 {
            text.push(b',');
        }
        text.extend_from_slice(members);
    }
    let text = String::from_utf8(text).map_err(|e| super::not_json(&e))?;
    super::parse_ascii(&text)
}
