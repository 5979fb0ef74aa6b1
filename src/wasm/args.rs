//! Arguments that must be strings, checked before anything reaches wasm memory: a number, an
//! object or an array-like where a string belongs is an `invalid_type` error naming the
//! argument, never a trap of the module (wasm-bindgen's own string conversion would write past
//! its buffer or leak one sized by `length`).

use js_sys::JsString;
use wasm_bindgen::{JsCast, JsValue};

use super::errors::js_type_name;
use super::text;
use crate::error::{Error, ErrorCode};
use crate::vocab::Provider;

/// The error of an argument of the wrong type.
fn wrong(name: &str, expected: &str, value: &JsValue) -> Error {
    Error::new(
        ErrorCode::InvalidType,
        "$",
        format!("`{name}` must be {expected}, found {}", js_type_name(value)),
    )
}

/// A string argument as a JS string (for text that keeps its unpaired surrogates as escapes).
pub(super) fn js_string<'a>(value: &'a JsValue, name: &str) -> Result<&'a JsString, Error> {
    value
        .dyn_ref::<JsString>()
        .ok_or_else(|| wrong(name, "a string", value))
}

/// A string argument.
#[cfg_attr(not(feature = "wasm-render"), allow(dead_code))]
pub(super) fn string(value: &JsValue, name: &str) -> Result<String, Error> {
    value
        .as_string()
        .ok_or_else(|| wrong(name, "a string", value))
}

/// An optional string argument: `undefined` and `null` are absent.
#[cfg_attr(not(feature = "wasm-render"), allow(dead_code))]
pub(super) fn optional_string(value: Option<JsValue>, name: &str) -> Result<Option<String>, Error> {
    match value {
        None => Ok(None),
        Some(v) if v.is_undefined() || v.is_null() => Ok(None),
        Some(v) => v
            .as_string()
            .map(Some)
            .ok_or_else(|| wrong(name, "a string, undefined or null", &v)),
    }
}

/// JSON text given as a string argument, unpaired surrogates kept as escapes.
pub(super) fn json_text(value: &JsValue, name: &str) -> Result<String, Error> {
    Ok(text::json_text(js_string(value, name)?))
}

/// A provider name (`"anthropic"`, `"openai-chat"`, …): an `unknown_provider` error names the
/// ones that exist; a value that is not a string is an `invalid_type` error.
pub(super) fn read_provider(value: &JsValue) -> Result<Provider, Error> {
    match value.as_string() {
        Some(name) => name.parse(),
        None => Err(Error::new(
            ErrorCode::InvalidType,
            "$.provider",
            format!(
                "the provider must be a string, found {}",
                js_type_name(value)
            ),
        )),
    }
}
