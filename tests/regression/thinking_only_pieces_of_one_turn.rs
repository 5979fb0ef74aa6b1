//! Found by the property tests: two assistant messages holding only signed thinking (a turn
//! stored in pieces, then cut off). The first was kept as "continued" by the second, the second
//! was removed as aborted, and the first then ended in thinking (ANT-16). Whether a message is
//! continued is judged against the next message that survives.

use serde_json::json;
use turnwire::{render, validate_request, Provider, RenderOptions, ThinkingOptions, Transcript};

#[test]
fn thinking_only_pieces_are_all_trimmed() {
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": claude, "blocks": [{"type": "thinking", "thought": "a", "signature": "c2ln"}]},
        {"speaker": "ai", "metadata": claude, "blocks": [{"type": "thinking", "thought": "b", "signature": "c2ln"}]}
    ]))
    .unwrap();
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.max_tokens = Some(8192);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    let out = render(&t, &o).unwrap();
    assert_eq!(validate_request(Provider::Anthropic, &out.body), vec![]);
    assert_eq!(out.body["messages"].as_array().unwrap().len(), 1);
}
