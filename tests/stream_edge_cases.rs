//! Stream decoder behaviour beyond the golden files: protocol quirks of each wire format and
//! how mistakes in a stream are reported and survived.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::stream::{Delta, StopReason, StreamDecoder, StreamOptions, StreamOutcome};
use turnwire::Provider;

fn run(provider: Provider, options: StreamOptions, events: &[Value]) -> StreamOutcome {
    let mut d = StreamDecoder::new(provider, options);
    for e in events {
        let _ = d.push(&e.to_string());
    }
    d.finish()
}

fn blocks(o: &StreamOutcome) -> Value {
    o.to_value()["message"]["blocks"].clone()
}

fn codes(o: &StreamOutcome) -> Vec<&'static str> {
    o.errors.iter().map(|e| e.code()).collect()
}

#[test]
fn issue_14_anthropic_server_tool_blocks_are_kept_whole_with_their_streamed_input() {
    let result = json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
        {"type": "web_search_result", "url": "https://a.example", "title": "A", "encrypted_content": "enc"}
    ]});
    let o = run(
        Provider::Anthropic,
        StreamOptions::default(),
        &[
            json!({"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query\""}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":":\"x\"}"}}),
            json!({"type":"content_block_stop","index":0}),
            json!({"type":"content_block_start","index":1,"content_block": result}),
            json!({"type":"content_block_stop","index":1}),
            json!({"type":"content_block_start","index":2,"content_block":{"type":"text","text":""}}),
            json!({"type":"content_block_delta","index":2,"delta":{"type":"citations_delta","citation":{}}}),
            json!({"type":"content_block_delta","index":2,"delta":{"type":"text_delta","text":"Found it."}}),
            json!({"type":"content_block_stop","index":2}),
            json!({"type":"message_stop"}),
        ],
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let b = blocks(&o);
    assert_eq!(
        b[0],
        json!({"type": "server_tool", "provider": "anthropic", "phase": "call", "id": "srvtoolu_1",
               "name": "web_search",
               "wire": {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "x"}}})
    );
    assert_eq!(b[1]["wire"], result);
    assert_eq!(b[1]["phase"], "result");
    assert_eq!(b[2], json!({"type": "text", "text": "Found it."}));
    assert_eq!(
        o.stop_reason,
        StopReason::EndTurn,
        "a server tool is no call to run"
    );
}

#[test]
fn issue_14_server_tool_input_that_is_not_json_is_kept_as_text_and_reported() {
    let o = run(
        Provider::Anthropic,
        StreamOptions::default(),
        &[
            json!({"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{}}}),
            json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"query"}}),
            json!({"type":"content_block_stop","index":0}),
            json!({"type":"message_stop"}),
        ],
    );
    assert_eq!(codes(&o), ["invalid_arguments"]);
    assert_eq!(blocks(&o)[0]["rawInput"], "{\"query");
}

#[test]
fn issue_14_gemini_code_parts_and_responses_built_in_items_become_server_tool_blocks() {
    let code = json!({"executableCode": {"language": "PYTHON", "code": "print(1)"}});
    let out = json!({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1\n"}});
    let o = run(
        Provider::Gemini,
        StreamOptions::default(),
        &[
            json!({"candidates": [{"content": {"role": "model", "parts": [
            {"text": "Running it."}, code, out, {"text": "It printed 1."}
        ]}, "finishReason": "STOP"}]}),
        ],
    );
    let b = blocks(&o);
    let kinds: Vec<&str> = b
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["text", "server_tool", "server_tool", "text"]);
    assert_eq!(
        (b[1]["wire"].clone(), b[2]["phase"].clone()),
        (code, json!("result"))
    );

    let item = json!({"type": "web_search_call", "id": "ws_1", "status": "completed",
                      "action": {"type": "search", "query": "rust"}});
    let o = run(
        Provider::OpenAiResponses,
        StreamOptions::default(),
        &[
            json!({"type": "response.output_item.added", "output_index": 0,
                   "item": {"type": "web_search_call", "id": "ws_1", "status": "in_progress"}}),
            json!({"type": "response.web_search_call.searching", "output_index": 0, "item_id": "ws_1"}),
            json!({"type": "response.output_item.done", "output_index": 0, "item": item}),
            json!({"type": "response.output_item.added", "output_index": 1,
                   "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": []}}),
            json!({"type": "response.output_text.delta", "item_id": "msg_1", "output_index": 1, "delta": "Done."}),
            json!({"type": "response.output_item.done", "output_index": 1,
                   "item": {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "Done."}]}}),
            json!({"type": "response.completed", "response": {"id": "resp_1", "model": "gpt-5.2", "status": "completed"}}),
        ],
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let b = blocks(&o);
    assert_eq!(
        b[0]["wire"], item,
        "the done item replaces the added one, in its place"
    );
    assert_eq!(b[1], json!({"type": "text", "text": "Done."}));
}

#[test]
fn anthropic_tool_input_given_whole_at_the_start_is_used_when_nothing_streams() {
    let o = run(
        Provider::Anthropic,
        StreamOptions::default(),
        &[
            json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"ls","input":{"dir":"."}}}),
            json!({"type":"content_block_stop","index":0}),
            json!({"type":"message_stop"}),
        ],
    );
    assert_eq!(blocks(&o)[0]["parameters"], json!({"dir": "."}));
    assert_eq!(
        o.stop_reason,
        StopReason::ToolUse,
        "derived when message_delta is missing"
    );
}

#[test]
fn anthropic_signature_for_an_unknown_block_is_an_orphan_reasoning_delta() {
    let mut d = StreamDecoder::new(Provider::Anthropic, StreamOptions::default());
    let e = d
        .push(r#"{"type":"content_block_delta","index":4,"delta":{"type":"signature_delta","signature":"abc"}}"#)
        .unwrap_err();
    assert_eq!(e.code(), "orphan_reasoning_delta");
    assert_eq!(
        d.push(r#"{"type":"content_block_stop","index":4}"#)
            .unwrap_err()
            .code(),
        "unknown_block_stop"
    );
    assert_eq!(
        d.push(r#"{"no_type":1}"#).unwrap_err().code(),
        "unexpected_event"
    );
}

#[test]
fn chat_calls_numbered_alike_but_with_new_ids_are_separate_calls() {
    let o = run(
        Provider::OpenAiCompatible,
        StreamOptions::default(),
        &[
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_a","function":{"name":"ls","arguments":"{}"}}]}}]}),
            json!({"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_b","function":{"name":"cat","arguments":"{\"f\":1}"}}]}}]}),
            json!({"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}),
        ],
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert_eq!(
        blocks(&o),
        json!([
            {"type": "tool_call", "id": "call_a", "name": "ls", "parameters": {}},
            {"type": "tool_call", "id": "call_b", "name": "cat", "parameters": {"f": 1}}
        ])
    );
}

#[test]
fn chat_calls_without_index_are_keyed_by_id() {
    let o = run(
        Provider::Mistral,
        StreamOptions::default(),
        &[json!({"choices":[{"index":0,"delta":{"tool_calls":[
                {"id":"abcDEF123","function":{"name":"a","arguments":"{\"x\":1}"}},
                {"id":"xyzXYZ789","function":{"name":"b","arguments":"{\"y\":2}"}}
            ]},"finish_reason":"tool_calls"}]})],
    );
    assert!(!o.incomplete && o.errors.is_empty(), "{:?}", o.errors);
    assert_eq!(blocks(&o)[1]["id"], "xyzXYZ789");
    assert_eq!(blocks(&o)[1]["parameters"], json!({"y": 2}));
}

#[test]
fn chat_finish_reason_completes_the_turn_even_without_done() {
    let mut d = StreamDecoder::new(Provider::OpenAiChat, StreamOptions::default());
    d.push(r#"{"choices":[{"index":0,"delta":{"content":"ok"},"finish_reason":"length"}]}"#)
        .unwrap();
    let o = d.outcome();
    assert!(!o.incomplete);
    assert_eq!(o.stop_reason, StopReason::MaxTokens);
    // [DONE] alone also ends a stream (some servers send no finish reason).
    let mut d = StreamDecoder::new(Provider::OpenAiChat, StreamOptions::default());
    d.push(r#"{"choices":[{"index":0,"delta":{"content":"ok"}}]}"#)
        .unwrap();
    assert_eq!(
        d.push("data: [DONE]").unwrap(),
        vec![Delta::Done {
            stop_reason: StopReason::EndTurn
        }]
    );
    assert!(!d.finish().incomplete);
}

#[test]
fn chat_invalid_arguments_are_reported_at_the_finish_reason_and_kept_raw() {
    let mut d = StreamDecoder::new(Provider::OpenAiChat, StreamOptions::default());
    d.push(r#"{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","function":{"name":"ls","arguments":"{oops"}}]}}]}"#).unwrap();
    let e = d
        .push(r#"{"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}"#)
        .unwrap_err();
    assert_eq!(e.code(), "invalid_arguments");
    let o = d.finish();
    assert!(!o.incomplete);
    assert_eq!(blocks(&o)[0]["rawArguments"], "{oops");
    assert_eq!(blocks(&o)[0]["parameters"], json!({}));
}

#[test]
fn responses_arguments_done_replaces_the_streamed_text() {
    let o = run(
        Provider::OpenAiResponses,
        StreamOptions::default(),
        &[
            json!({"type":"response.output_item.added","output_index":0,"item":{"id":"fc_1","type":"function_call","arguments":"","call_id":"call_1","name":"ls"}}),
            json!({"type":"response.function_call_arguments.delta","item_id":"fc_1","output_index":0,"delta":"{\"garbled"}),
            json!({"type":"response.function_call_arguments.done","item_id":"fc_1","output_index":0,"arguments":"{\"dir\":\"src\"}"}),
            json!({"type":"response.output_item.done","output_index":0,"item":{"id":"fc_1","type":"function_call","call_id":"call_1","name":"ls"}}),
            json!({"type":"response.completed","response":{"id":"resp_1","model":"gpt-5.2","status":"completed","usage":null}}),
        ],
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    assert_eq!(blocks(&o)[0]["parameters"], json!({"dir": "src"}));
    assert_eq!(o.stop_reason, StopReason::ToolUse);
}

#[test]
fn responses_item_done_without_added_is_reported_and_kept() {
    let o = run(
        Provider::OpenAiResponses,
        StreamOptions::default(),
        &[
            json!({"type":"response.output_item.done","output_index":0,"item":{"id":"rs_1","type":"reasoning","encrypted_content":"enc","summary":[{"type":"summary_text","text":"why"}]}}),
            json!({"type":"response.output_item.done","output_index":1,"item":{"id":"msg_1","type":"message","content":[{"type":"output_text","text":"hi"}]}}),
            json!({"type":"response.completed","response":{"status":"completed"}}),
        ],
    );
    assert_eq!(codes(&o), ["unknown_block_stop", "unknown_block_stop"]);
    assert_eq!(
        blocks(&o),
        json!([
            {"type": "thinking", "thought": "why", "reasoningId": "rs_1", "encryptedContent": "enc"},
            {"type": "text", "text": "hi"}
        ])
    );
}

#[test]
fn responses_incomplete_for_max_tokens_is_a_finished_turn_stopped_by_the_limit() {
    let o = run(
        Provider::OpenAiResponses,
        StreamOptions::default(),
        &[
            json!({"type":"response.output_item.added","output_index":0,"item":{"id":"msg_1","type":"message","content":[]}}),
            json!({"type":"response.output_text.delta","item_id":"msg_1","output_index":0,"delta":"Once upon"}),
            json!({"type":"response.incomplete","response":{"status":"incomplete","incomplete_details":{"reason":"max_output_tokens"}}}),
        ],
    );
    assert!(!o.incomplete);
    assert_eq!(o.stop_reason, StopReason::MaxTokens);
    assert_eq!(blocks(&o), json!([{"type": "text", "text": "Once upon"}]));
}

#[test]
fn gemini_chunk_arrays_are_decoded_element_by_element() {
    let mut d = StreamDecoder::new(Provider::Gemini, StreamOptions::default());
    let chunks = json!([
        {"candidates":[{"content":{"role":"model","parts":[{"text":"a"}]}}],"responseId":"r1"},
        {"candidates":[{"content":{"role":"model","parts":[{"text":"b"}]},"finishReason":"STOP"}],"responseId":"r1"}
    ]);
    d.push_value(&chunks).unwrap();
    let o = d.finish();
    assert!(!o.incomplete);
    assert_eq!(blocks(&o), json!([{"type": "text", "text": "ab"}]));
}

#[test]
fn gemini_second_signed_text_piece_starts_its_own_block() {
    let o = run(
        Provider::Gemini,
        StreamOptions::default(),
        &[
            json!({"candidates":[{"content":{"parts":[{"text":"one","thoughtSignature":"c2lnMQ=="}]}}]}),
            json!({"candidates":[{"content":{"parts":[{"text":"two","thoughtSignature":"c2lnMg=="}]},"finishReason":"STOP"}]}),
        ],
    );
    assert_eq!(
        blocks(&o),
        json!([
            {"type": "text", "text": "one", "thoughtSignature": "c2lnMQ=="},
            {"type": "text", "text": "two", "thoughtSignature": "c2lnMg=="}
        ])
    );
}

#[test]
fn gemini_calls_without_response_id_use_the_id_seed_then_a_content_digest() {
    let events = [json!({"candidates":[{"content":{"parts":[
        {"functionCall":{"name":"ls","args":{}}},
        {"functionCall":{"name":"ls","args":{"x":1},"id":"own-id"}}
    ]},"finishReason":"STOP"}]})];
    let seeded = run(
        Provider::Gemini,
        StreamOptions::default().with_id_seed("turn 3"),
        &events,
    );
    assert_eq!(blocks(&seeded)[0]["id"], "gemini_call_turn_3_0");
    assert_eq!(blocks(&seeded)[1]["id"], "own-id");
    let a = run(Provider::Gemini, StreamOptions::default(), &events);
    let b = run(Provider::Gemini, StreamOptions::default(), &events);
    assert_eq!(blocks(&a)[0]["id"], blocks(&b)[0]["id"], "deterministic");
    assert!(blocks(&a)[0]["id"]
        .as_str()
        .unwrap()
        .starts_with("gemini_call_"));
}

#[test]
fn gemini_blocked_prompt_ends_the_turn_with_content_filter() {
    let o = run(
        Provider::Gemini,
        StreamOptions::default(),
        &[
            json!({"promptFeedback":{"blockReason":"SAFETY"},"usageMetadata":{"promptTokenCount":7}}),
        ],
    );
    assert!(!o.incomplete);
    assert_eq!(o.stop_reason, StopReason::ContentFilter);
    assert_eq!(o.usage.input_tokens, Some(7));
}

#[test]
fn blank_payloads_and_sse_prefixes_are_accepted() {
    for p in Provider::ALL {
        let mut d = StreamDecoder::new(p, StreamOptions::default());
        assert_eq!(d.push("").unwrap(), vec![]);
        assert_eq!(d.push("   \n").unwrap(), vec![]);
        assert_eq!(d.push("data:").unwrap(), vec![]);
        assert!(d.finish().incomplete, "{p}");
    }
}

#[test]
fn the_decoder_keeps_working_after_an_error() {
    let mut d = StreamDecoder::new(Provider::Anthropic, StreamOptions::default());
    assert_eq!(d.push("{not json").unwrap_err().code(), "invalid_json");
    assert_eq!(d.push("[1,2]").unwrap_err().code(), "unexpected_event");
    d.push(r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#)
        .unwrap();
    let ds = d.push(r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"fine"}}"#).unwrap();
    assert_eq!(
        ds,
        vec![Delta::Text {
            text: "fine".into()
        }]
    );
    let o = d.finish();
    assert_eq!(
        codes(&o),
        ["invalid_json", "unexpected_event", "incomplete"]
    );
}

#[test]
fn the_endpoint_and_requested_model_become_the_provenance() {
    let o = run(
        Provider::DeepSeek,
        StreamOptions::for_model("deepseek-chat").with_endpoint("https://api.deepseek.com"),
        &[json!({"choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":"stop"}]})],
    );
    let meta = &o.to_value()["message"]["metadata"];
    assert_eq!(
        meta,
        &json!({
            "provider": "deepseek", "api": "chat-completions", "model": "deepseek-chat",
            "providerBaseURL": "https://api.deepseek.com", "stopReason": "end_turn"
        })
    );
}

#[test]
fn a_chat_chunk_that_is_itself_an_error_object_is_a_provider_error() {
    // Mistral's and vLLM's error shape, sent as a stream chunk: no `error` wrapper.
    for (provider, chunk, error_type) in [
        (
            Provider::Mistral,
            json!({"object":"error","message":"Service unavailable","type":"service_unavailable","param":null,"code":null}),
            "service_unavailable",
        ),
        (
            Provider::OpenAiCompatible,
            json!({"object":"error","message":"The engine is dead","type":"","param":null,"code":500}),
            "500",
        ),
    ] {
        let o = run(
            provider,
            StreamOptions::default(),
            &[
                json!({"id":"x","choices":[{"index":0,"delta":{"content":"partial"}}]}),
                chunk,
            ],
        );
        assert_eq!(codes(&o), ["provider_error"], "{provider:?}");
        assert!(
            o.errors[0].to_string().contains(&format!("({error_type})")),
            "{}",
            o.errors[0]
        );
        assert_eq!(o.stop_reason, StopReason::Error);
        assert!(o.incomplete);
        assert_eq!(blocks(&o), json!([{"type":"text","text":"partial"}]));
    }
}
