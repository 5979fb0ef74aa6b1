//! Unit tests of [`super`].

use super::*;
use crate::normalize::test_support::*;
use serde_json::json;

fn params(out: &[Msg], m: usize, b: usize) -> Option<Value> {
    match block(out, m, b) {
        Block::ToolCall(c) => c.parameters.clone(),
        other => panic!("expected a call, found {other:?}"),
    }
}

fn response(out: &[Msg], m: usize, b: usize) -> crate::model::ToolResponseBlock {
    match block(out, m, b) {
        Block::ToolResponse(r) => r.clone(),
        other => panic!("expected a response, found {other:?}"),
    }
}

#[test]
fn empty_and_whitespace_text_removed() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([
            {"speaker": "human", "blocks": [text(""), text("hi"), text(" \n\t"), {"type": "code", "code": "  "}]}
        ])),
        &mut diags,
    );
    assert_eq!(shape(&out), ["human: text"]);
    assert_eq!(texts(&out), ["hi"]);
    assert_eq!(
        codes(&diags),
        [
            "empty_text_removed",
            "empty_text_removed",
            "empty_text_removed"
        ]
    );
    assert_eq!(
        (diags[1].message_index, diags[1].block_index),
        (Some(0), Some(2))
    );
}

#[test]
fn message_left_empty_or_without_blocks_removed() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([
            {"speaker": "human", "blocks": [text("  ")]},
            {"speaker": "ai", "blocks": []},
            {"speaker": "human", "blocks": [text("hi")]}
        ])),
        &mut diags,
    );
    assert_eq!(shape(&out), ["human: text"]);
    assert_eq!(
        codes(&diags),
        [
            "empty_text_removed",
            "empty_message_removed",
            "empty_message_removed"
        ]
    );
    assert!(
        diags[1].message.contains("has no content left"),
        "{}",
        diags[1].message
    );
    assert!(
        diags[2].message.contains("has no blocks"),
        "{}",
        diags[2].message
    );
    assert_eq!(diags[2].message_index, Some(1));
}

#[test]
fn unknown_block_omitted() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([
            {"speaker": "ai", "blocks": [{"type": "widget", "x": 1}, text("ok")]}
        ])),
        &mut diags,
    );
    assert_eq!(shape(&out), ["ai: text"]);
    assert_eq!(codes(&diags), ["block_omitted"]);
    assert!(
        diags[0].message.contains("`widget`"),
        "{}",
        diags[0].message
    );
}

#[test]
fn empty_thinking_kept_only_with_an_opaque_payload() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([{"speaker": "ai", "blocks": [
            {"type": "thinking", "thought": ""},
            {"type": "thinking", "thought": "", "redactedData": "opaque"},
            {"type": "thinking", "thought": " ", "reasoningId": "rs_1", "encryptedContent": "enc"},
            {"type": "thinking", "thought": "", "reasoningId": "rs_2"},
            text("answer")
        ]}])),
        &mut diags,
    );
    assert_eq!(shape(&out), ["ai: thinking thinking text"]);
    assert_eq!(codes(&diags), ["empty_text_removed", "empty_text_removed"]);
    assert_eq!(diags[1].block_index, Some(3));
}

#[test]
fn string_parameters_parsed_as_json_object() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([{"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": "{\"path\": \"a\"}"},
            {"type": "tool_call", "id": "c2", "name": "ls", "parameters": "  "}
        ]}])),
        &mut diags,
    );
    assert_eq!(params(&out, 0, 0), Some(json!({"path": "a"})));
    assert_eq!(params(&out, 0, 1), Some(json!({})));
    assert_eq!(
        codes(&diags),
        ["parameters_normalized", "parameters_normalized"]
    );
    assert_eq!(diags[0].call_id.as_deref(), Some("c1"));
}

#[test]
fn non_object_parameters_wrapped_as_input() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([{"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "c1", "name": "sh", "parameters": "ls -la"},
            {"type": "tool_call", "id": "c2", "name": "sh", "parameters": [1, 2]},
            {"type": "tool_call", "id": "c3", "name": "sh", "parameters": "[1]"}
        ]}])),
        &mut diags,
    );
    assert_eq!(params(&out, 0, 0), Some(json!({"input": "ls -la"})));
    assert_eq!(params(&out, 0, 1), Some(json!({"input": [1, 2]})));
    assert_eq!(params(&out, 0, 2), Some(json!({"input": "[1]"})));
    assert_eq!(codes(&diags).len(), 3);
}

#[test]
fn null_or_missing_parameters_become_empty_object_silently() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([{"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": null},
            {"type": "tool_call", "id": "c2", "name": "ls"}
        ]}])),
        &mut diags,
    );
    assert_eq!(params(&out, 0, 0), Some(json!({})));
    assert_eq!(params(&out, 0, 1), Some(json!({})));
    assert_eq!(codes(&diags), NO_CODES);
}

#[test]
fn empty_completed_result_or_error_filled_but_pending_left() {
    let mut diags = Vec::new();
    let out = clean(
        msgs(json!([{"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "c1", "result": ""},
            {"type": "tool_response", "callId": "c2", "isComplete": true},
            {"type": "tool_response", "callId": "c3", "result": []},
            {"type": "tool_response", "callId": "c4", "error": " "},
            {"type": "tool_response", "callId": "c5", "isComplete": false},
            {"type": "tool_response", "callId": "c6", "result": {}}
        ]}])),
        &mut diags,
    );
    for b in 0..3 {
        assert_eq!(response(&out, 0, b).result, Some(json!(EMPTY_RESULT_TEXT)));
    }
    assert_eq!(
        response(&out, 0, 3).error.as_deref(),
        Some(EMPTY_ERROR_TEXT)
    );
    assert_eq!(response(&out, 0, 4).result, None);
    assert_eq!(response(&out, 0, 5).result, Some(json!({})));
    assert_eq!(
        codes(&diags),
        [
            "empty_result_filled",
            "empty_result_filled",
            "empty_result_filled",
            "empty_result_filled"
        ]
    );
    assert_eq!(diags[3].call_id.as_deref(), Some("c4"));
}
