//! Issue 15 point 8: for `kimi-k2-0905-preview` and `kimi-k2-turbo-preview` (models that do not
//! think; their capability rows say `reasoning_content` is accepted) the renderer replayed a
//! Kimi turn's reasoning, and a later tool-call turn from another model went out without it; the
//! Kimi validator inferred thinking mode from that one `reasoning_content` and rejected the body
//! (KIM-03). Moonshot requires the field only when thinking is enabled, which these models never
//! are unless the body says so, so the model's row now decides and the body passes.

use serde_json::json;
use turnwire::{
    models::{capabilities, ReasoningField},
    render, validate_request, validate_request_for_model, Provider, RenderOptions, Transcript,
};

fn history() -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]},
        {"speaker": "ai", "metadata": {"provider": "kimi", "model": "kimi-k2-thinking"}, "blocks": [
            {"type": "thinking", "thought": "greet back", "sourceField": "reasoning_content"},
            {"type": "text", "text": "hello"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "list the files"}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "api": "chat-completions", "model": "gpt-5.2"}, "blocks": [
            {"type": "tool_call", "id": "call_1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_1", "toolName": "ls", "result": "a.txt"}]}
    ]))
    .unwrap()
}

#[test]
fn non_thinking_kimi_models_pass_with_replayed_reasoning_before_a_foreign_call() {
    for model in [
        "kimi-k2-0905-preview",
        "kimi-k2-turbo-preview",
        "kimi-k2-0711-preview",
    ] {
        let caps = capabilities(Provider::Kimi, model).unwrap();
        assert_eq!(caps.reasoning_field, ReasoningField::Accepted, "{model}");
        let out = render(&history(), &RenderOptions::new(Provider::Kimi, model)).unwrap();
        let msgs = out.body["messages"].as_array().unwrap();
        assert_eq!(msgs[1]["reasoning_content"], "greet back", "{model}");
        assert!(msgs[3].get("reasoning_content").is_none(), "{model}");
        assert_eq!(
            validate_request(Provider::Kimi, &out.body),
            vec![],
            "{model}"
        );
        assert_eq!(
            validate_request_for_model(Provider::Kimi, model, &out.body),
            vec![],
            "{model}"
        );
    }
}

#[test]
fn thinking_kimi_models_still_need_reasoning_content_on_every_tool_call_turn() {
    for model in ["kimi-k2-thinking", "kimi-k2.5", "kimi-k2.6"] {
        let out = render(&history(), &RenderOptions::new(Provider::Kimi, model)).unwrap();
        assert_eq!(out.body["messages"][3]["reasoning_content"], "", "{model}");
        assert_eq!(
            validate_request(Provider::Kimi, &out.body),
            vec![],
            "{model}"
        );
    }
}
