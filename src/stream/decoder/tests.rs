//! Unit tests of [`super`].

use super::*;

#[test]
fn provenance_names_the_requested_alias_of_a_dated_snapshot() {
    let m = |req, rep| provenance_model(req, rep);
    assert_eq!(
        m(Some("gpt-5.2"), Some("gpt-5.2-2025-12-11")).as_deref(),
        Some("gpt-5.2")
    );
    assert_eq!(
        m(
            Some("claude-sonnet-4-5"),
            Some("claude-sonnet-4-5-20250929")
        )
        .as_deref(),
        Some("claude-sonnet-4-5")
    );
    assert_eq!(m(Some("auto"), Some("gpt-4o")).as_deref(), Some("gpt-4o"));
    assert_eq!(
        m(Some("gpt-5"), Some("gpt-5-mini")).as_deref(),
        Some("gpt-5-mini")
    );
    assert_eq!(
        m(None, Some("models/gemini-2.5-pro")).as_deref(),
        Some("gemini-2.5-pro")
    );
    assert_eq!(m(Some("x"), None).as_deref(), Some("x"));
    assert_eq!(m(None, None), None);
}
