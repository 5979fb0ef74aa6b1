//! Tool-call ids minted for calls the provider gave no id.

use crate::ids::hash::digest;

/// `s` with every character outside `[A-Za-z0-9_-]` replaced by `_`.
pub(crate) fn sanitize(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// A deterministic id for the `index`-th call of a turn: `{prefix}{base}_{index}` where `base`
/// is the response id, else the caller's id seed (both sanitised to `[A-Za-z0-9_-]`), else a
/// digest of the content assembled so far. Response ids are unique per turn, so such ids are
/// unique across a conversation; the digest fallback is only as unique as the turns' content,
/// which is why callers of providers that send no response id should pass an id seed.
pub(crate) fn mint_call_id(
    prefix: &str,
    response_id: Option<&str>,
    seed: Option<&str>,
    index: usize,
    fingerprint: impl FnOnce() -> String,
) -> String {
    let base = response_id
        .filter(|s| !s.is_empty())
        .or(seed.filter(|s| !s.is_empty()))
        .map(sanitize)
        .unwrap_or_else(|| digest(&fingerprint(), 16));
    format!("{prefix}{base}_{index}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn minted_ids_use_the_response_id_then_the_seed_then_a_digest() {
        let fp = || "text".to_string();
        assert_eq!(
            mint_call_id("g_", Some("ab.c/d"), Some("s"), 2, fp),
            "g_ab_c_d_2"
        );
        assert_eq!(
            mint_call_id("g_", None, Some("turn 7"), 0, fp),
            "g_turn_7_0"
        );
        let d = mint_call_id("g_", None, None, 1, fp);
        assert!(d.starts_with("g_") && d.ends_with("_1") && d.len() == 2 + 16 + 2);
        assert_eq!(d, mint_call_id("g_", Some(""), Some(""), 1, fp));
    }
}
