//! JavaScript strings and values as JSON text, with nothing lost on the way in.
//!
//! Every JS input becomes JSON text that the core readers parse (and repair). Two things need
//! care at this boundary:
//! - A JS string can hold an unpaired surrogate (half an emoji cut by `slice`). wasm-bindgen
//!   hands strings over as UTF-8, which would silently turn it into U+FFFD; so an ill-formed
//!   string first has each lone surrogate written as its JSON escape (`\ud83d`), which the
//!   core reader then replaces and reports with the JSON path of its string.
//! - Values go through `js/wasm-imports/json-text.js`: `JSON.stringify`'s text (which writes
//!   lone surrogates as escapes, ES2019), except that what JSON cannot carry (circular
//!   references, `BigInt`s, functions, `Map`s…) is converted and reported, never thrown on or
//!   dropped silently.

use js_sys::{JsString, RegExp};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::errors;
use crate::error::{Error, ErrorCode};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

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
    let text = String::from(s);
    // an unpaired surrogate arrives as U+FFFD: a text without one came from a well-formed
    // string (a scan of the bytes costs less than `isWellFormed` on the string)
    if !crate::json::scan::has_replacement_char(text.as_bytes()) {
        return text;
    }
    let well_formed = s
        .unchecked_ref::<MaybeOldString>()
        .is_well_formed()
        .unwrap_or_else(|_| s.is_valid_utf16());
    if well_formed {
        return text;
    }
    drop(text);
    // With the `u` flag the class matches only surrogates that are not part of a pair.
    let lone = RegExp::new("[\\uD800-\\uDFFF]", "gu");
    let escape = Closure::<dyn FnMut(JsString) -> JsString>::new(|unit: JsString| {
        JsString::from(format!("\\u{:04x}", unit.char_code_at(0) as u32))
    });
    let escaped = s.replace_by_pattern_with_function(&lone, escape.as_ref().unchecked_ref());
    String::from(escaped)
}

#[wasm_bindgen(module = "/js/wasm-imports/json-text.js")]
extern "C" {
    /// The JSON text of a value whose path is `root`, nothing lost silently (see that file): a
    /// string, or `[text, repairsJson, tooDeepPath]` when something had to be converted (paths
    /// below `root`, also in the circular-reference markers of the text).
    #[wasm_bindgen(js_name = toJsonText, catch)]
    fn to_json_text(value: &JsValue, max_depth: u32, root: &str) -> Result<JsValue, JsValue>;
}

/// One conversion the JS side made, as it reports it.
#[derive(serde::Deserialize)]
struct JsRepair {
    path: String,
    message: String,
}

/// The JSON text of a JS value and the conversions it took (each a `non_json_value_replaced`
/// diagnostic whose path is below `root`).
#[cfg_attr(not(feature = "wasm-render"), allow(dead_code))]
pub(crate) struct ValueText {
    pub text: String,
    pub repairs: Vec<Diagnostic>,
}

/// The JSON text of a JS value: what `JSON.stringify` writes (`undefined` members left out,
/// `toJSON` honoured), except that values JSON cannot carry — circular references, `BigInt`s,
/// functions, symbols, `Map`s… — are converted as `js/wasm-imports/json-text.js` documents
/// and reported. `what` names the value in errors; `root` is its path (`$`, `$[12]`).
pub(crate) fn stringify(value: &JsValue, what: &str, root: &str) -> Result<ValueText, Error> {
    let depth = u32::try_from(crate::json::MAX_DEPTH).unwrap_or(u32::MAX);
    let out = to_json_text(value, depth, root).map_err(|e| {
        Error::new(
            ErrorCode::InvalidType,
            root,
            format!(
                "{what} cannot be converted to JSON: {}",
                errors::describe(&e)
            ),
        )
    })?;
    if let Some(text) = out.dyn_ref::<JsString>() {
        return Ok(ValueText {
            text: String::from(text),
            repairs: Vec::new(),
        });
    }
    let parts = js_sys::Array::from(&out);
    let repairs: Vec<JsRepair> = parts
        .get(1)
        .as_string()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default();
    if let Some(deep) = parts.get(2).as_string() {
        let path = deep;
        return Err(Error::new(
            ErrorCode::InvalidJson,
            path.clone(),
            format!(
                "{what} nests arrays and objects deeper than {} levels at {path}",
                crate::json::MAX_DEPTH
            ),
        ));
    }
    let Some(text) = parts.get(0).dyn_ref::<JsString>().map(String::from) else {
        return Err(Error::new(
            ErrorCode::InvalidType,
            root,
            format!(
                "{what} must be a JSON value, found {}",
                errors::js_type_name(value)
            ),
        ));
    };
    let repairs = repairs
        .into_iter()
        .map(|r| {
            let path = r.path;
            let mut d = Diagnostic::new(
                DiagnosticCode::NonJsonValueReplaced,
                FaultClass::CanonicalState,
                format!("{path}: {}", r.message),
            );
            d.message_index = crate::json::report::message_of(&path);
            d.at_path(path)
        })
        .collect();
    Ok(ValueText { text, repairs })
}

/// JSON text given as a JS string (`Some`), else `None` for any other value.
#[cfg_attr(not(feature = "wasm-render"), allow(dead_code))]
pub(crate) fn string_text(value: &JsValue) -> Option<String> {
    value.dyn_ref::<JsString>().map(json_text)
}
