//! Found by the property tests: with thinking on, a tool loop opened by another Claude model
//! stayed "closed" in the normaliser's eyes when the user had spoken after the results. The
//! Anthropic adapter folds those words into the results' user message, so the loop is still
//! open on the wire and Anthropic requires the last assistant message to start with thinking
//! (ANT-10). The request must run with thinking off.

use serde_json::json;
use turnwire::{
    render, validate_request, DiagnosticCode, Provider, RenderOptions, ThinkingOptions, Transcript,
};

#[test]
fn open_loop_followed_by_user_text_turns_thinking_off() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "read it"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-opus-4-6"},
         "blocks": [{"type": "thinking", "thought": "ok", "signature": "c2ln"},
                    {"type": "tool_call", "id": "t1", "name": "read_file", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "t1", "toolName": "read_file", "result": "r"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and then?"}]}
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
    assert!(out.body.get("thinking").is_none());
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingDisabledForRequest));
}
