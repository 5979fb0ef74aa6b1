//! Found by the property fuzzer after the tool-change slice (ANT-53) met the duplicate-result
//! repair: a tool change attached to a duplicate result went with the dropped duplicate and
//! nothing named it. The duplicate's diagnostic now names the tools it loaded, as the orphan
//! repair does.

use serde_json::json;
use turnwire::{render, DiagnosticCode, Provider, RenderOptions, Transcript};

#[test]
fn a_dropped_duplicate_names_the_tools_it_loaded() {
    let input = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "grep it"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "call_1", "name": "grep", "parameters": {"q": "x"}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "call_1", "toolName": "grep", "result": "hit"}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "call_1", "toolName": "grep", "result": "hit"},
            {"type": "tool_change", "change": "add", "name": "read_file"}]},
    ]);
    let t = Transcript::from_json(&input.to_string()).unwrap();
    let out = render(
        &t,
        &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"),
    )
    .unwrap();
    let dropped = out
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::DuplicateResultDropped)
        .expect("the duplicate is dropped");
    assert!(dropped.message.contains("read_file"), "{}", dropped.message);
}
