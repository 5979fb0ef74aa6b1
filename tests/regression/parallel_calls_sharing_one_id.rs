//! Found in review (fixture 47): two parallel calls with the same id (servers that send no ids)
//! had both results bound to the second call, so one real result was dropped as a duplicate and
//! the other answered the wrong call. Results answer open calls with their id in order.

use serde_json::json;
use turnwire::{render, DiagnosticCode, Provider, RenderOptions, Transcript};

#[test]
fn results_answer_calls_sharing_an_id_in_order() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "read both"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "", "name": "read", "parameters": {"path": "a.txt"}},
            {"type": "tool_call", "id": "", "name": "read", "parameters": {"path": "b.txt"}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "", "toolName": "read", "result": "contents of A"},
            {"type": "tool_response", "callId": "", "toolName": "read", "result": "contents of B"}]}
    ]))
    .unwrap();
    let out = render(&t, &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2")).unwrap();
    let msgs = out.body["messages"].as_array().unwrap();
    let calls = msgs[1]["tool_calls"].as_array().unwrap();
    assert!(calls[0]["function"]["arguments"]
        .as_str()
        .unwrap()
        .contains("a.txt"));
    assert_eq!(msgs[2]["tool_call_id"], calls[0]["id"]);
    assert_eq!(msgs[2]["content"], "contents of A");
    assert_eq!(msgs[3]["tool_call_id"], calls[1]["id"]);
    assert_eq!(msgs[3]["content"], "contents of B");
    assert!(!out.diagnostics.iter().any(|d| matches!(
        d.code,
        DiagnosticCode::DuplicateResultDropped | DiagnosticCode::SyntheticResultAdded
    )));
}
