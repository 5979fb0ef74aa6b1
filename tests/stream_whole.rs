//! Issue 15, point 2: a server or gateway that ignores `stream: true` and answers with one
//! whole JSON response gives the same message a stream would, for every wire format — not a
//! silent empty success (chat) or a retryable incomplete stream (Anthropic, Responses).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::stream::{StreamDecoder, StreamOptions, StreamOutcome};
use turnwire::Provider;

mod stream_support;
use stream_support::CHAT_DIALECTS;

fn decode(p: Provider, whole: Value) -> (StreamOutcome, Value) {
    let mut d = StreamDecoder::new(p, StreamOptions::default());
    let _ = d.push(&whole.to_string());
    let o = d.finish();
    let v = o.to_value();
    (o, v)
}

#[test]
fn issue_15_a_whole_anthropic_message_decodes_as_its_stream_would() {
    let (o, v) = decode(
        Provider::Anthropic,
        json!({"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [
                {"type": "thinking", "thinking": "Look first.", "signature": "sig_1"},
                {"type": "text", "text": "Reading it."},
                {"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.rs"}}
            ],
            "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}}),
    );
    assert!(!o.incomplete, "{:?}", o.errors);
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert_eq!(v["stopReason"], "tool_use");
    assert_eq!(v["usage"]["inputTokens"], 10);
    let blocks = &v["message"]["blocks"];
    assert_eq!(blocks[0]["type"], "thinking");
    assert_eq!(blocks[0]["signature"], "sig_1");
    assert_eq!(blocks[1]["text"], "Reading it.");
    assert_eq!(blocks[2]["id"], "toolu_1");
    assert_eq!(blocks[2]["parameters"], json!({"path": "a.rs"}));
}

#[test]
fn issue_15_a_whole_chat_completion_decodes_for_every_chat_dialect() {
    for p in CHAT_DIALECTS {
        let (o, v) = decode(
            p,
            json!({"id": "chatcmpl-1", "object": "chat.completion", "model": "m",
                "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                    "role": "assistant", "content": "Reading it.", "reasoning_content": "Look first.",
                    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"a.rs\"}"}}]
                }}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}),
        );
        assert!(!o.incomplete, "{p}: {:?}", o.errors);
        assert!(o.errors.is_empty(), "{p}: {:?}", o.errors);
        assert_eq!(v["stopReason"], "tool_use", "{p}");
        let blocks = v["message"]["blocks"].as_array().unwrap();
        let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["thinking", "text", "tool_call"], "{p}");
        assert_eq!(blocks[1]["text"], "Reading it.", "{p}");
        assert_eq!(blocks[2]["parameters"], json!({"path": "a.rs"}), "{p}");
        assert_eq!(v["usage"]["outputTokens"], 5, "{p}");
    }
}

#[test]
fn issue_15_a_whole_responses_object_decodes_as_its_stream_would() {
    let (o, v) = decode(
        Provider::OpenAiResponses,
        json!({"id": "resp_1", "object": "response", "model": "gpt-5.2", "status": "completed",
            "output": [
                {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA", "summary": [{"type": "summary_text", "text": "Look first."}]},
                {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "Reading it."}]},
                {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "read_file", "arguments": "{\"path\":\"a.rs\"}"}
            ],
            "usage": {"input_tokens": 10, "output_tokens": 5}}),
    );
    assert!(!o.incomplete, "{:?}", o.errors);
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let blocks = v["message"]["blocks"].as_array().unwrap();
    let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["thinking", "text", "tool_call"]);
    assert_eq!(blocks[0]["encryptedContent"], "gAAA");
    assert_eq!(blocks[2]["id"], "call_1");
    assert_eq!(v["stopReason"], "tool_use");
}

#[test]
fn issue_15_a_whole_gemini_response_decodes_as_its_stream_would() {
    let (o, v) = decode(
        Provider::Gemini,
        json!({"candidates": [{"content": {"role": "model", "parts": [
                {"text": "Reading it."},
                {"functionCall": {"name": "read_file", "args": {"path": "a.rs"}}, "thoughtSignature": "c2ln"}
            ]}, "finishReason": "STOP"}],
            "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5}}),
    );
    assert!(!o.incomplete, "{:?}", o.errors);
    let blocks = v["message"]["blocks"].as_array().unwrap();
    assert_eq!(blocks[0]["text"], "Reading it.");
    assert_eq!(blocks[1]["parameters"], json!({"path": "a.rs"}));
    assert_eq!(blocks[1]["thoughtSignature"], "c2ln");
}

#[test]
fn issue_32_a_whole_converse_response_decodes_as_its_stream_would() {
    let (o, v) = decode(
        Provider::BedrockConverse,
        json!({"output": {"message": {"role": "assistant", "content": [
                {"reasoningContent": {"reasoningText": {"text": "Look first.", "signature": "sig_1"}}},
                {"reasoningContent": {"redactedContent": "cmVk"}},
                {"text": "Reading it."},
                {"toolUse": {"toolUseId": "tooluse_1", "name": "read_file", "input": {"path": "a.rs"}}}
            ]}},
            "stopReason": "tool_use",
            "usage": {"inputTokens": 10, "outputTokens": 5, "totalTokens": 15},
            "metrics": {"latencyMs": 120}}),
    );
    assert!(!o.incomplete, "{:?}", o.errors);
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let blocks = v["message"]["blocks"].as_array().unwrap();
    let kinds: Vec<&str> = blocks.iter().map(|b| b["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["thinking", "thinking", "text", "tool_call"]);
    assert_eq!(blocks[0]["signature"], "sig_1");
    assert_eq!(blocks[1]["redactedData"], "cmVk");
    assert_eq!(blocks[3]["id"], "tooluse_1");
    assert_eq!(blocks[3]["parameters"], json!({"path": "a.rs"}));
    assert_eq!(v["stopReason"], "tool_use");
    assert_eq!(v["usage"]["inputTokens"], 10);
}
