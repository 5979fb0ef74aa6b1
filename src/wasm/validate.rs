//! `validateRequest`: the strict provider rules, on a body from anywhere.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::args::read_provider;
use super::{args, text, to_js};
use crate::error::Error;
use crate::providers::validate_request_text_for_host;
use crate::vocab::Provider;

/// Checks a request body against every strict rule of `provider` that one body can show and
/// returns the violations (rule id, JSON path, message); an empty array means none is broken.
/// The body may be an object, JSON text or the bytes `renderBody` returned. Give `model` for
/// the rules that depend on a model the body does not name (Gemini 3 signatures, GEM-05), and
/// `host` for a body sent to a host other than the provider's own (its envelope: Bedrock's and
/// Vertex's `anthropic_version` in the body and no `model`; what it refuses; HST-00 when it does
/// not serve the provider).
///
/// @example
/// ```ts
/// const problems = validateRequest("anthropic", renderBody(history, options));
/// validateRequest("anthropic", renderBody(history, { ...options, host: "vertex" }), "claude-sonnet-4-5", "vertex");
/// ```
#[wasm_bindgen(js_name = validateRequest, unchecked_return_type = "Violation[]")]
pub fn validate_request_js(
    provider: Ts<Provider>,
    #[wasm_bindgen(unchecked_param_type = "JsonObject | string | Uint8Array")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] model: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "Host | null")] host: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let model = args::optional_string(model, "model")?;
    let host = args::optional_string(host, "host")?
        .map(|h| h.parse::<crate::Host>())
        .transpose()?;
    let provider = read_provider(&provider.js_value())?;
    let body = read_body(body)?;
    let violations = validate_request_text_for_host(provider, model.as_deref(), host, &body)?;
    Ok(to_js(&violations)?)
}

/// The body's bytes: as given, the UTF-8 of JSON text (lone surrogates kept as escapes, so
/// the surrogate rule sees them), or the JSON text of an object.
pub(super) fn read_body(value: &JsValue) -> Result<Vec<u8>, Error> {
    if let Some(bytes) = super::guarded::uint8_bytes(value) {
        return bytes.map_err(|e| {
            Error::new(
                crate::error::ErrorCode::InvalidType,
                "$",
                format!(
                    "the request body's bytes could not be read: {}",
                    super::errors::describe(&e)
                ),
            )
        });
    }
    let text = match text::string_text(value) {
        Some(t) => t,
        None => text::stringify(value, "the request body", "$")?.text,
    };
    Ok(text.into_bytes())
}
