//! Found in review: Gemini's own parallel calls stored one assistant message each became two
//! steps, and the second call got a placeholder signature it never needed. Consecutive
//! assistant messages now merge before results are placed, for alternating targets.

use serde_json::json;
use turnwire::{render, validate_request_for_model, Provider, RenderOptions, Transcript};

#[test]
fn pieces_of_one_parallel_step_stay_one_step() {
    let gem = json!({"provider": "gemini", "model": "gemini-3-pro-preview"});
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "weather in a and b"}]},
        {"speaker": "ai", "metadata": gem, "blocks": [{"type": "tool_call", "id": "a", "name": "w", "parameters": {"c": "a"}, "thoughtSignature": "U0lH"}]},
        {"speaker": "ai", "metadata": gem, "blocks": [{"type": "tool_call", "id": "b", "name": "w", "parameters": {"c": "b"}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "a", "toolName": "w", "result": "1"},
            {"type": "tool_response", "callId": "b", "toolName": "w", "result": "2"}]}
    ]))
    .unwrap();
    let o = RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview");
    let out = render(&t, &o).unwrap();
    let contents = out.body["contents"].as_array().unwrap();
    assert_eq!(contents.len(), 3, "{:#}", out.body);
    assert_eq!(contents[1]["parts"].as_array().unwrap().len(), 2);
    assert!(contents[1]["parts"][1].get("thoughtSignature").is_none());
    assert_eq!(
        validate_request_for_model(Provider::Gemini, &o.model, &out.body),
        vec![]
    );
}
