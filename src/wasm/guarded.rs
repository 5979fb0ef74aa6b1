//! The JavaScript operations this binding runs on the caller's values, each declared `catch`.
//!
//! A JS exception thrown by an import that is not `catch` unwinds through the wasm frames
//! without running a destructor: the `&mut self` borrow of a `Conversation` or `StreamDecoder`
//! stays taken (every later call, `toJSON` and `free()` then fail with "recursive use of an
//! object"), and what the call had allocated leaks. `Array.isArray` throws on a revoked Proxy
//! (an immer draft after `produce`), `length` and indexing run a Proxy's traps and getters, a
//! typed array's `length` can be redefined. So a caller's value is only ever looked at through
//! the functions here (or `typeof` checks, which cannot throw); what they throw comes back as a
//! value.

use js_sys::{Array, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

#[wasm_bindgen]
extern "C" {
    /// `Array.isArray`: throws on a revoked Proxy.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = isArray)]
    fn array_is_array(value: &JsValue) -> Result<bool, JsValue>;

    /// `Array.from`: an array-like's `length` and items, through its getters and traps.
    #[wasm_bindgen(catch, js_namespace = Array, js_name = from)]
    fn array_from(value: &JsValue) -> Result<Array, JsValue>;

    /// `ArrayBuffer.isView`: false for a Proxy (it looks at the internal slots only).
    #[wasm_bindgen(js_namespace = ArrayBuffer, js_name = isView)]
    fn array_buffer_is_view(value: &JsValue) -> bool;

    /// A fresh `Uint8Array`.
    #[wasm_bindgen(js_name = Uint8Array)]
    type Uint8Copy;

    /// `new Uint8Array(typedArray)`: a copy made from the internal slots, whatever the
    /// source's own `length` says.
    #[wasm_bindgen(constructor, catch, js_class = "Uint8Array")]
    fn new(source: &JsValue) -> Result<Uint8Copy, JsValue>;
}

/// Whether `value` is an array; `Err` for a revoked Proxy.
pub(super) fn is_array(value: &JsValue) -> Result<bool, JsValue> {
    array_is_array(value)
}

/// The items of an array (or array-like) as a plain array of their values at this moment: a
/// getter or trap that throws is an `Err`, and the copy can be read without running the
/// caller's code again.
#[cfg_attr(not(feature = "wasm-render"), allow(dead_code))]
pub(super) fn items(value: &JsValue) -> Result<Array, JsValue> {
    array_from(value)
}

/// The bytes of a `Uint8Array` (`None` for any other value, a Proxy of one included), copied
/// through its internal slots so that a redefined `length` or a subclass changes nothing.
#[cfg_attr(not(feature = "wasm"), allow(dead_code))]
pub(super) fn uint8_bytes(value: &JsValue) -> Option<Result<Vec<u8>, JsValue>> {
    if !value.is_object() || !array_buffer_is_view(value) || !value.is_instance_of::<Uint8Array>() {
        return None;
    }
    Some(Uint8Copy::new(value).map(|copy| copy.unchecked_into::<Uint8Array>().to_vec()))
}

/// The `message` of a thrown value, if it has a string one (read with `Reflect.get`, which
/// reports a throwing getter as an `Err` instead of throwing through wasm).
pub(super) fn message_of(thrown: &JsValue) -> Option<String> {
    if !thrown.is_object() {
        return None;
    }
    js_sys::Reflect::get(thrown, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
}
