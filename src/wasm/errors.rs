//! `TurnwireError`: every failure reaches JavaScript as a real `Error` with `name`
//! `"TurnwireError"`, the stable `code` and the JSON `path` of the bad input.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::error::Error;

/// The `name` of every error turnwire throws.
const ERROR_NAME: &str = "TurnwireError";

#[wasm_bindgen(typescript_custom_section)]
const TS_ERROR: &'static str = r#"
/**
 * What every turnwire function throws: a real `Error` whose `name` is `"TurnwireError"`, with
 * a stable `code` and the JSON `path` of the bad input (`$[2].blocks[0].id`, `$.maxTokens`;
 * `$` when the whole input is at fault). A failed call leaves the module usable.
 */
export interface TurnwireError extends Error {
    readonly name: "TurnwireError";
    readonly code: ErrorCode;
    readonly path: string;
}
"#;

impl From<Error> for JsValue {
    fn from(e: Error) -> JsValue {
        let err = js_sys::Error::new(e.message());
        err.set_name(ERROR_NAME);
        // Setting a property on a fresh `Error` object cannot fail.
        let _ = Reflect::set(&err, &"code".into(), &e.code().as_str().into());
        let _ = Reflect::set(&err, &"path".into(), &e.path().into());
        err.into()
    }
}

/// Whether `value` is an error thrown by turnwire (from any copy of the module).
///
/// @example
/// ```ts
/// try { renderBody(history, { provider: "anthropic", model: "claude-sonnet-4-5" }); }
/// catch (e) { if (isTurnwireError(e)) console.error(e.code, e.path, e.message); else throw e; }
/// ```
#[wasm_bindgen(js_name = isTurnwireError, unchecked_return_type = "value is TurnwireError")]
pub fn is_turnwire_error(
    #[wasm_bindgen(unchecked_param_type = "unknown")] value: &JsValue,
) -> bool {
    if !value.is_instance_of::<js_sys::Error>() {
        return false;
    }
    let get = |key: &str| Reflect::get(value, &key.into()).ok();
    get("name").and_then(|n| n.as_string()).as_deref() == Some(ERROR_NAME)
        && get("code").is_some_and(|c| c.is_string())
        && get("path").is_some_and(|p| p.is_string())
}

/// The message of a thrown JS value, for wrapping it in a `TurnwireError`.
pub(super) fn describe(thrown: &JsValue) -> String {
    let text = super::guarded::message_of(thrown)
        .or_else(|| thrown.as_string())
        .unwrap_or_else(|| js_type_name(thrown).to_string());
    crate::excerpt::excerpt(&text)
}

/// A short English name of a JS value's type, for error messages.
pub(super) fn js_type_name(value: &JsValue) -> &'static str {
    if value.is_undefined() {
        "undefined"
    } else if value.is_null() {
        "null"
    } else if value.is_string() {
        "a string"
    } else if value.as_f64().is_some() {
        "a number"
    } else if value.as_bool().is_some() {
        "a boolean"
    } else if value.is_bigint() {
        "a bigint"
    } else if value.is_function() {
        "a function"
    } else if value.is_symbol() {
        "a symbol"
    } else {
        match super::guarded::is_array(value) {
            Ok(true) => "an array",
            Ok(false) => "an object",
            // only a revoked Proxy makes `Array.isArray` throw
            Err(_) => "a revoked Proxy",
        }
    }
}
