//! Found by the property test: a Gemini body with thinking on and a thinking budget of 0
//! (`thinkingConfig: {includeThoughts: true, thinkingBudget: 0}`) was imported as thinking off,
//! so the re-render lost its `generationConfig`. `includeThoughts` says thinking is on.

use serde_json::json;
use turnwire::import::{from_request_body, ImportSource};
use turnwire::{render_body, Provider};

#[test]
fn thinking_with_a_zero_budget_stays_on_when_read_back() {
    let body = json!({
        "contents": [{"role": "user", "parts": [{"text": "hi"}]}],
        "generationConfig": {"thinkingConfig": {"includeThoughts": true, "thinkingBudget": 0}}
    });
    let source = ImportSource {
        model: Some("gemini-2.5-flash".into()),
        ..Default::default()
    };
    let imported = from_request_body(Provider::Gemini, &body, &source).unwrap();
    let options = imported.options.unwrap();
    assert_eq!(
        options
            .thinking
            .as_ref()
            .map(|t| (t.enabled, t.budget_tokens)),
        Some((true, Some(0)))
    );
    let again: serde_json::Value =
        serde_json::from_slice(&render_body(&imported.transcript, &options).unwrap()).unwrap();
    assert_eq!(
        again["generationConfig"]["thinkingConfig"]["includeThoughts"],
        true
    );
}
