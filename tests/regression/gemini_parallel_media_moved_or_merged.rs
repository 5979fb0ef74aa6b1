//! Found by the media property generator (issue 10, point 7): after two parallel calls, media
//! reached the content answering them beside the responses (GEM-18) two ways — an image left in
//! the tool message before any result (its result had been moved away), and an image in a user
//! message that joined the user's earlier words by a merge after the bridge decision was made.
//! Media before any result now moves out like media the results cannot carry, and bridges are
//! placed after merging.

use serde_json::{json, Value};
use turnwire::providers::gemini::validate::validate_with_model;
use turnwire::{render, Provider, RenderOptions, Transcript};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn calls() -> Value {
    json!({"speaker": "ai", "blocks": [
        {"type": "tool_call", "id": "a", "name": "shot", "parameters": {}},
        {"type": "tool_call", "id": "b", "name": "log", "parameters": {}}
    ]})
}

fn image() -> Value {
    json!({"type": "media", "mimeType": "image/png", "data": PNG, "encoding": "base64"})
}

fn assert_valid_everywhere(history: Value) {
    let t = Transcript::from_value(&history).unwrap();
    for model in ["gemini-3-pro-preview", "gemini-2.5-flash"] {
        let out = render(&t, &RenderOptions::new(Provider::Gemini, model)).unwrap();
        let v = validate_with_model(&out.body, Some(model));
        assert!(v.is_empty(), "{model}: {v:#?}\n{:#}", out.body);
        assert!(
            out.body.to_string().contains(PNG),
            "{model}: the image is kept"
        );
    }
}

#[test]
fn media_before_any_result_in_a_parallel_answer_moves_out() {
    assert_valid_everywhere(json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        calls(),
        {"speaker": "tool", "blocks": [
            image(),
            {"type": "tool_response", "callId": "a", "toolName": "shot", "result": "ok"},
            {"type": "tool_response", "callId": "b", "toolName": "log", "result": "ok"}
        ]}
    ]));
}

#[test]
fn media_merged_into_the_user_turn_after_parallel_results_gets_a_bridge() {
    assert_valid_everywhere(json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        calls(),
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "a", "toolName": "shot", "result": "ok"},
            {"type": "tool_response", "callId": "b", "toolName": "log", "result": "ok"}
        ]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and this:"}]},
        {"speaker": "human", "blocks": [image()]}
    ]));
}
