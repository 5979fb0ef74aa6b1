//! JavaScript strings and values as JSON text, with nothing lost on the way in.
//!
//! Every JS input becomes JSON text that the core readers parse (and repair). Two things need
//! care at this boundary:
//! - A JS string can hold an unpaired surrogate (half an emoji cut by `slice`). wasm-bindgen
//!   hands strings over as UTF-8, which would silently turn it into U+FFFD; so an ill-formed
//!   string first has each lone surrogate written as its JSON escape (`\ud83d`), which the
//!   core reader then replaces and reports with the JSON path of its string.
//! - `JSON.stringify` already writes lone surrogates as escapes (ES2019), so values need only
//!   the string step for the text it returns.

use js_sys::{JsString, RegExp};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::errors;
use crate::error::{Error, ErrorCode};

#[wasm_bindgen]
extern "C" {
    /// A JS string, for the one method whose absence must not throw through wasm.
    #[wasm_bindgen(extends = JsString)]
    type MaybeOldString;
    /// `String.prototype.isWellFormed` (ES2024: Node 20, Deno, Bun, Chromium 111, workerd);
    /// an error where the host lacks it.
    #[wasm_bindgen(method, structural, catch, js_name = isWellFormed)]
    fn is_well_formed(this: &MaybeOldString) -> Result<bool, JsValue>;
}

/// The UTF-8 text of a JS string, with every unpaired surrogate written as a `\uXXXX` escape
/// instead of being turned into U+FFFD on the way in. Meant for JSON text: there a lone
/// surrogate can only be inside a string literal, where the escape means the same unit.
pub(crate) fn json_text(s: &JsString) -> String {
    let well_formed = s
        .unchecked_ref::<MaybeOldString>()
        .is_well_formed()
        .unwrap_or_else(|_| s.is_valid_utf16());
    if well_formed {
        return String::from(s);
    }
    // With the `u` flag the class matches only surrogates that are not part of a pair.
    let lone = RegExp::new("[\\uD800-\\uDFFF]", "gu");
    let escape = Closure::<dyn FnMut(JsString) -> JsString>::new(|unit: JsString| {
        JsString::from(format!("\\u{:04x}", unit.char_code_at(0) as u32))
    });
    let escaped = s.replace_by_pattern_with_function(&lone, escape.as_ref().unchecked_ref());
    String::from(escaped)
}

/// The JSON text of a JS value: the text `JSON.stringify` writes (`undefined` members left out,
/// `toJSON` honoured). `what` names the value in errors.
pub(crate) fn stringify(value: &JsValue, what: &str) -> Result<String, Error> {
    let text = js_sys::JSON::stringify(value).map_err(|e| {
        Error::new(
            ErrorCode::InvalidType,
            "$",
            format!(
                "{what} cannot be converted to JSON: {}",
                errors::describe(&e)
            ),
        )
    })?;
    // `JSON.stringify` escapes lone surrogates, so its text is always well formed.
    match text.dyn_ref::<JsString>() {
        Some(s) => Ok(String::from(s)),
        None => Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            format!(
                "{what} must be a JSON value, found {}",
                errors::js_type_name(value)
            ),
        )),
    }
}

/// JSON text given as a JS string (`Some`), else `None` for any other value.
pub(crate) fn string_text(value: &JsValue) -> Option<String> {
    value.dyn_ref::<JsString>().map(json_text)
}
