//! `repairRequestBody`: a request body another client built, repaired and rendered again (see
//! `crate::import::repair_request_body`); what `repairingFetch` sends.

use js_sys::{Reflect, Uint8Array};
use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::args::read_provider;
use super::import::{read_json_body, read_source};
use super::{json_of, to_js};
use crate::error::{Error, ErrorCode};
use crate::import::repair_request_body as repair;

#[wasm_bindgen(typescript_custom_section)]
const TS_REQUEST: &'static str = r#"
/** What `repairRequestBody` returns. */
export interface RepairedRequest {
    /** The repaired body: UTF-8 JSON bytes, ready to send. */
    body: Uint8Array;
    /** The provider it was rendered for. */
    provider: Provider;
    /** The model it was rendered for. */
    model: string;
    /** Canonical ↔ sent call ids. */
    idMap: Record<string, string>;
    /** Tool names that had to change: original → sent. */
    toolNames: Record<string, string>;
    /** Every repair: what the importer could not carry, then the render's. */
    diagnostics: Diagnostic[];
    /** HTTP headers the body needs, header → value (absent when none): send them with it
     * (Anthropic `anthropic-beta`, `anthropic-user-profile-id`). */
    headers?: Record<string, string>;
}
"#;

/// Repairs a request body built for `provider` (by an SDK, the AI SDK, pi-ai, …): reads it,
/// then renders it again for the same provider, or for `target.provider` and `target.model`
/// with `target`'s other render options set over the body's own. `source.model` names the
/// model when the body does not (a Gemini body: it is in the URL). The body's other fields
/// stay, unless `target` names a provider of another API (`request_field_dropped`).
///
/// @example
/// ```ts
/// const { body, diagnostics } = repairRequestBody("openai-chat", init.body);
/// const moved = repairRequestBody("anthropic", init.body, {}, { provider: "gemini", model: "gemini-2.5-pro" });
/// ```
#[wasm_bindgen(js_name = repairRequestBody, unchecked_return_type = "RepairedRequest")]
pub fn repair_request_body(
    #[wasm_bindgen(unchecked_param_type = "Provider")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "JsonObject | string | Uint8Array")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "Partial<RenderOptions>")] target: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    let provider = read_provider(provider)?;
    let body = read_json_body(body)?;
    let (_, source) = read_source(source)?;
    let target = match target {
        Some(t) if !t.is_undefined() && !t.is_null() => match json_of(&t, "the target")? {
            Value::Object(o) => o,
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidType,
                    "$",
                    "the target must be render options like {provider, model}",
                )
                .into())
            }
        },
        _ => Map::new(),
    };
    let repaired = repair(provider, &body, &source, &target)?;
    let rendered = repaired.rendered;
    // `{idMap, toolNames, diagnostics}` as a render gives them; the body goes as bytes.
    let mut o = match rendered.to_value() {
        Value::Object(o) => o,
        _ => Map::new(),
    };
    o.remove("body");
    o.insert(
        "provider".into(),
        Value::String(repaired.options.provider.as_str().into()),
    );
    o.insert("model".into(), Value::String(repaired.options.model));
    let out = to_js(&Value::Object(o))?;
    let bytes = Uint8Array::from(rendered.body_bytes().as_slice());
    Reflect::set(&out, &JsValue::from_str("body"), &bytes)?;
    Ok(out)
}
