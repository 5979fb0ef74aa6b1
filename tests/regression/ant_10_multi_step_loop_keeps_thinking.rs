//! Found in review: with thinking on, a Claude tool loop of several steps (thinking only in its
//! first assistant message, as Claude produces it without interleaved thinking) was rendered
//! with thinking off, because only the last assistant message was checked. A tool loop is one
//! assistant turn: only its first assistant message must start with thinking.

use serde_json::json;
use turnwire::{
    render, validate_request, DiagnosticCode, Provider, RenderOptions, ThinkingOptions, Transcript,
};

#[test]
fn a_multi_step_claude_loop_keeps_thinking_on() {
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": claude, "blocks": [
            {"type": "thinking", "thought": "plan", "signature": "c2ln"},
            {"type": "tool_call", "id": "toolu_1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_1", "toolName": "ls", "result": "a"}]},
        {"speaker": "ai", "metadata": claude, "blocks": [{"type": "tool_call", "id": "toolu_2", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_2", "toolName": "ls", "result": "b"}]}
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
    assert_eq!(out.body["thinking"]["type"], "enabled");
    assert_eq!(out.body["messages"][1]["content"][0]["type"], "thinking");
    assert!(!out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingDisabledForRequest));
}
