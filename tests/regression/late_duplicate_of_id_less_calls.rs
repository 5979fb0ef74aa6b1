//! Found by the switch-chain property tests: Gemini-style calls without ids (two parallel calls,
//! both with id "") and a late duplicate of the first result stored after the next user
//! message. The duplicate was paired with the *second* call, whose real error result was then
//! dropped in dedupe. Results sharing an id are now matched to calls of the same tool first.

use serde_json::json;
use turnwire::{render, Provider, RenderOptions, Transcript};

#[test]
fn a_late_duplicate_pairs_with_the_call_of_its_tool() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "gemini", "model": "gemini-3-pro-preview"}, "blocks": [
            {"type": "tool_call", "id": "", "name": "read_file", "parameters": {"p": "a"}},
            {"type": "tool_call", "id": "", "name": "run_shell", "parameters": {"c": "ls"}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "", "toolName": "read_file", "result": "contents"},
            {"type": "tool_response", "callId": "", "toolName": "run_shell", "result": null, "error": "failed badly"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and?"}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "", "toolName": "read_file", "result": "contents"}]}
    ]))
    .unwrap();
    let out = render(&t, &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2")).unwrap();
    let body = out.body.to_string();
    assert!(body.contains("failed badly"), "{body}");
    assert_eq!(body.matches("\"contents\"").count(), 1);
}
