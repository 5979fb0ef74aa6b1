//! Found in review: for Responses, an assistant message `[reasoning 1, call a, reasoning 2,
//! text]` was reordered (text moved before the call) and reasoning 1 was dropped. The message
//! is now split after its calls, keeping every item in the order the model produced it.

use serde_json::json;
use turnwire::{render, validate_request, Provider, RenderOptions, Transcript};

#[test]
fn items_after_a_call_follow_its_output() {
    let gpt = json!({"provider": "openai", "api": "responses", "model": "gpt-5.2"});
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
        {"speaker": "ai", "metadata": gpt, "blocks": [
            {"type": "thinking", "thought": "one", "reasoningId": "rs_1", "encryptedContent": "gAAA1"},
            {"type": "tool_call", "id": "call_a", "name": "ls", "parameters": {}},
            {"type": "thinking", "thought": "two", "reasoningId": "rs_2", "encryptedContent": "gAAA2"},
            {"type": "text", "text": "done listing"}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_a", "toolName": "ls", "result": "a b"}]}
    ]))
    .unwrap();
    let out = render(
        &t,
        &RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2"),
    )
    .unwrap();
    let kinds: Vec<&str> = out.body["input"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["type"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        [
            "message",
            "reasoning",
            "function_call",
            "function_call_output",
            "reasoning",
            "message"
        ]
    );
    assert_eq!(out.body["input"][1]["encrypted_content"], "gAAA1");
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
}
