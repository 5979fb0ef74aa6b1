//! The module's memory budget in JavaScript: `setMemoryBudget`, `memoryStats` and the counting
//! allocator every allocation of the module goes through (`crate::memory`).

use serde::Serialize;
use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::to_js;
use crate::error::{Error, ErrorCode};
use crate::memory;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOC: memory::BudgetAllocator = memory::BudgetAllocator::new();

/// The module's memory, in bytes.
#[derive(Serialize, tsify::Tsify)]
#[serde(rename_all = "camelCase")]
pub struct MemoryStats {
    /// Allocated and not yet freed: conversations, decoders, a call's work.
    pub live_bytes: f64,
    /// The most in use at once since the module started or since `resetPeak` was asked.
    pub peak_bytes: f64,
    /// The budget (`null`: none); a call that takes more throws `out_of_memory`.
    #[tsify(type = "number | null")]
    pub budget_bytes: Option<f64>,
    /// The WebAssembly memory's size: the high-water mark, which never shrinks.
    pub wasm_bytes: f64,
}

/// Sets the module's memory budget in bytes (`null`: none; the default is 2 GiB, half the
/// 4 GiB wasm32 limit). Rendering, appending, reading a transcript and decoding an event stop
/// with a `TurnwireError` `out_of_memory` once more than the budget is in use; a
/// `Conversation` then drops its render caches and keeps its messages. The check runs between
/// a call's stages, so a call can go past the budget by about one render of its history.
///
/// @example
/// ```ts
/// setMemoryBudget(256 * 1024 * 1024);
/// try { convo.render(options); } catch (e) { if (isTurnwireError(e) && e.code === "out_of_memory") convo.cacheTargets = 1; }
/// ```
#[wasm_bindgen(js_name = setMemoryBudget)]
pub fn set_memory_budget(
    #[wasm_bindgen(unchecked_param_type = "number | null")] bytes: &JsValue,
) -> Result<(), JsValue> {
    if bytes.is_null() {
        memory::set_budget(None);
        return Ok(());
    }
    match bytes.as_f64() {
        Some(b) if b.is_finite() && b >= 0.0 => {
            // Beyond what wasm32 can address is no budget at all.
            memory::set_budget(if b >= usize::MAX as f64 {
                None
            } else {
                Some(b as usize)
            });
            Ok(())
        }
        _ => Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            "`bytes` must be a number of bytes (at least 0) or null for no budget",
        )
        .into()),
    }
}

/// The module's memory: bytes in use, their peak, the budget and the WebAssembly memory's size.
/// `memoryStats({ resetPeak: true })` starts a new peak measurement after reading this one.
///
/// @example
/// ```ts
/// memoryStats({ resetPeak: true });
/// await streamTurn(...);
/// console.log(memoryStats().peakBytes);
/// ```
#[wasm_bindgen(js_name = memoryStats)]
pub fn memory_stats(
    #[wasm_bindgen(unchecked_optional_param_type = "{ resetPeak?: boolean }")] options: Option<
        JsValue,
    >,
) -> Result<Ts<MemoryStats>, JsValue> {
    let stats = MemoryStats {
        live_bytes: memory::live_bytes() as f64,
        peak_bytes: memory::peak_bytes() as f64,
        budget_bytes: memory::budget().map(|b| b as f64),
        wasm_bytes: super::wasm_memory_bytes(),
    };
    let reset = options
        .filter(|o| o.is_object())
        .map(|o| {
            js_sys::Reflect::get(&o, &JsValue::from_str("resetPeak")).unwrap_or(JsValue::FALSE)
        })
        .is_some_and(|v| v.is_truthy());
    let out = to_js(&stats)?;
    if reset {
        memory::reset_peak();
    }
    Ok(Ts::new_unchecked(out))
}
