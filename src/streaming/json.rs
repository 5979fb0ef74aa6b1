//! Small readers for provider event JSON (missing or mistyped fields read as `None`).

use serde_json::Value;

/// The string at `key`.
pub(crate) fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// The token count at `key`, saturated to `u32`.
pub(crate) fn count(v: &Value, key: &str) -> Option<u32> {
    v.get(key)
        .and_then(Value::as_u64)
        .map(|n| u32::try_from(n).unwrap_or(u32::MAX))
}

/// `a - b` for counts where `b` is part of `a` (cached tokens inside a prompt count).
pub(crate) fn minus(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    a.map(|a| a.saturating_sub(b.unwrap_or(0)))
}

/// `a + b` when either is known.
pub(crate) fn plus(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    }
}

/// A key for an index field: its number, or `fallback` when it is absent or not a number.
pub(crate) fn index_key(v: &Value, key: &str, fallback: &str) -> String {
    match v.get(key) {
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::String(s)) => s.clone(),
        _ => fallback.to_string(),
    }
}
