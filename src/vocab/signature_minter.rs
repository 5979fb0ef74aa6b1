//! Who minted an Anthropic-shaped thinking signature, read from its bytes. Anthropic's
//! signatures are long base64 strings; Anthropic-compatible endpoints of other providers sign
//! thinking blocks their own way and want their own signatures back, which Anthropic refuses
//! (`Invalid signature in thinking block`). A block whose provenance says Anthropic can still
//! carry another's signature (a gateway relabelled it), so the bytes are checked too (ANT-51).

/// The other provider whose signature format `signature` has, when it is not Anthropic's:
/// DeepSeek's `/anthropic` endpoint signs with the message id, a UUID
/// (NousResearch/hermes-agent#21048, 2026-05-07). `None` for anything else.
///
/// ```ignore
/// assert!(foreign_signature_minter("91cfbb94-554b-4136-8e21-fa02280d56ed").is_some());
/// assert!(foreign_signature_minter("EqQBCkYIBxgCKkB1bmtub3du").is_none());
/// ```
pub(crate) fn foreign_signature_minter(signature: &str) -> Option<&'static str> {
    is_uuid(signature).then_some("a UUID, as DeepSeek's Anthropic-compatible endpoint signs")
}

/// `8-4-4-4-12` hexadecimal digits.
fn is_uuid(s: &str) -> bool {
    let groups: Vec<&str> = s.split('-').collect();
    groups.len() == 5
        && groups
            .iter()
            .zip([8, 4, 4, 4, 12])
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuids_are_deepseeks_and_base64_is_not_judged() {
        assert!(foreign_signature_minter("91cfbb94-554b-4136-8e21-fa02280d56ed").is_some());
        for s in [
            "EqQBCkYIBxgCKkB1bmtub3du",
            "sig-1",
            "",
            "91cfbb94-554b-4136-8e21-fa02280d56eg",
        ] {
            assert!(foreign_signature_minter(s).is_none(), "{s}");
        }
    }
}
