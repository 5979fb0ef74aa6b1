//! Found in review: `deepseek-v4-*` (thinking by default) fell to "reasoning accepted", so a
//! foreign tool-call turn went out without `reasoning_content` (DSK-03). Unknown DeepSeek and
//! Kimi models now need it on every tool-call turn, and an explicit thinking switch decides.

use serde_json::json;
use turnwire::{render, validate_request, Provider, RenderOptions, ThinkingOptions, Transcript};

fn history() -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
            {"type": "tool_call", "id": "toolu_1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_1", "toolName": "ls", "result": "a"}]}
    ]))
    .unwrap()
}

#[test]
fn thinking_by_default_models_get_reasoning_content() {
    for (p, model) in [
        (Provider::DeepSeek, "deepseek-v4-pro"),
        (Provider::Kimi, "kimi-k2.7"),
        (Provider::Kimi, "kimi-k3"),
    ] {
        let out = render(&history(), &RenderOptions::new(p, model)).unwrap();
        assert_eq!(
            out.body["messages"][1]["reasoning_content"], "",
            "{p} {model}"
        );
        assert_eq!(validate_request(p, &out.body), vec![], "{p} {model}");
    }
}

#[test]
fn an_explicit_switch_turns_the_requirement_off() {
    let mut o = RenderOptions::new(Provider::DeepSeek, "deepseek-v4-flash");
    o.thinking = Some(ThinkingOptions {
        enabled: false,
        budget_tokens: None,
        effort: None,
        summary: None,
    });
    let out = render(&history(), &o).unwrap();
    assert_eq!(out.body["thinking"]["type"], "disabled");
    assert!(out.body["messages"][1].get("reasoning_content").is_none());
    assert_eq!(validate_request(Provider::DeepSeek, &out.body), vec![]);
}
