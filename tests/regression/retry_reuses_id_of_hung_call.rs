//! Found in review (fixture 49): a provider that numbers calls per response (`call_0`) retried a
//! hung call after the user spoke; the retry (same name and arguments) was dropped as a
//! duplicate and its result moved before the user's message. A repeat is only a duplicate
//! within the same turn; across turns it is a new call with its own id.

use serde_json::json;
use turnwire::{render, DiagnosticCode, Provider, RenderOptions, Transcript};

#[test]
fn a_retry_after_the_user_spoke_is_a_new_call() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "run the tests"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "call_0", "name": "run", "parameters": {"cmd": "test"}}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "It hung. Try again."}]},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "Retrying."},
            {"type": "tool_call", "id": "call_0", "name": "run", "parameters": {"cmd": "test"}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_0", "toolName": "run", "result": "112 passed"}]}
    ]))
    .unwrap();
    let out = render(&t, &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2")).unwrap();
    let msgs = out.body["messages"].as_array().unwrap();
    let roles: Vec<&str> = msgs.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["user", "assistant", "tool", "user", "assistant", "tool"]
    );
    assert!(msgs[2]["content"]
        .as_str()
        .unwrap()
        .contains("cancelled or interrupted"));
    assert_eq!(msgs[5]["content"], "112 passed");
    assert_eq!(msgs[5]["tool_call_id"], msgs[4]["tool_calls"][0]["id"]);
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::DuplicateCallIdRenamed));
    assert!(!out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::DuplicateCallDropped));
}
