//! Issue 15, points 1, 3 and 5: a stream ends at its last event whatever the connection does
//! next. The decoder says so (`is_closed`: a reader may stop reading), ignores and reports what
//! comes after (`event_after_end`: a whole tool call after `message_stop` is not added), keeps a
//! chat stream's usage chunk that follows its `finish_reason` (chat streams end at `[DONE]`),
//! and keeps at most `MAX_STREAM_ERRORS` problems of a hostile stream.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use turnwire::stream::{StreamDecoder, StreamOptions, MAX_STREAM_ERRORS};
use turnwire::Provider;

mod stream_support;
use stream_support::CHAT_DIALECTS;

fn decoder(p: Provider) -> StreamDecoder {
    StreamDecoder::new(p, StreamOptions::default())
}

fn push(d: &mut StreamDecoder, e: serde_json::Value) {
    let _ = d.push(&e.to_string());
}

fn codes(o: &turnwire::stream::StreamOutcome) -> Vec<&'static str> {
    o.errors.iter().map(|e| e.code()).collect()
}

#[test]
fn issue_15_a_tool_call_after_message_stop_is_ignored_and_reported() {
    let mut d = decoder(Provider::Anthropic);
    push(
        &mut d,
        json!({"type":"message_start","message":{"id":"msg_1","model":"claude-sonnet-4-5"}}),
    );
    push(
        &mut d,
        json!({"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}),
    );
    push(
        &mut d,
        json!({"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Done."}}),
    );
    push(&mut d, json!({"type":"content_block_stop","index":0}));
    push(&mut d, json!({"type":"message_stop"}));
    assert!(d.is_closed());
    // a proxy replays a tool call after the end
    let late = d.push(&json!({"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_9","name":"rm","input":{}}}).to_string());
    assert_eq!(late.unwrap_err().code(), "event_after_end");
    push(&mut d, json!({"type":"content_block_stop","index":1}));
    // a [DONE] some gateways add is not an event of this format: not reported
    assert!(d.push("[DONE]").unwrap().is_empty());
    let o = d.finish();
    assert!(!o.incomplete);
    assert_eq!(
        o.to_value()["message"]["blocks"],
        json!([{"type": "text", "text": "Done."}])
    );
    assert_eq!(codes(&o), ["event_after_end", "event_after_end"]);
    assert!(
        o.errors[0].message().contains("toolu_9"),
        "{}",
        o.errors[0].message()
    );
}

#[test]
fn issue_15_responses_and_gemini_close_at_their_terminal_event() {
    let mut d = decoder(Provider::OpenAiResponses);
    push(
        &mut d,
        json!({"type":"response.created","response":{"id":"resp_1","model":"gpt-5.2"}}),
    );
    assert!(!d.is_closed());
    push(
        &mut d,
        json!({"type":"response.completed","response":{"id":"resp_1","status":"completed","output":[]}}),
    );
    assert!(d.is_closed());
    let mut d = decoder(Provider::Gemini);
    push(
        &mut d,
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"Hi"}]}}]}),
    );
    assert!(!d.is_closed());
    push(
        &mut d,
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":"!"}]},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":3,"candidatesTokenCount":2}}),
    );
    assert!(d.is_closed());
    push(
        &mut d,
        json!({"candidates":[{"content":{"role":"model","parts":[{"text":" more"}]}}]}),
    );
    let o = d.finish();
    assert_eq!(o.to_value()["message"]["blocks"][0]["text"], "Hi!");
    assert_eq!(codes(&o), ["event_after_end"]);
}

#[test]
fn issue_15_a_chat_stream_keeps_its_usage_chunk_and_ends_at_done() {
    for p in CHAT_DIALECTS {
        let mut d = decoder(p);
        push(
            &mut d,
            json!({"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":"Hi"}}]}),
        );
        push(
            &mut d,
            json!({"id":"c1","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
        );
        assert!(!d.is_closed(), "{p}: the usage chunk and [DONE] follow");
        push(
            &mut d,
            json!({"id":"c1","model":"m","choices":[],"usage":{"prompt_tokens":5,"completion_tokens":1,"total_tokens":6}}),
        );
        assert!(d.push("data: [DONE]").unwrap().is_empty());
        assert!(d.is_closed(), "{p}");
        push(
            &mut d,
            json!({"id":"c1","model":"m","choices":[{"index":0,"delta":{"content":" again"}}]}),
        );
        let o = d.finish();
        assert_eq!(o.to_value()["message"]["blocks"][0]["text"], "Hi", "{p}");
        assert_eq!(o.usage.to_value()["inputTokens"], 5, "{p}: {:?}", o.usage);
        assert_eq!(codes(&o), ["event_after_end"], "{p}");
    }
}

#[test]
fn issue_15_a_hostile_stream_keeps_at_most_max_stream_errors_problems() {
    let mut d = decoder(Provider::OpenAiChat);
    for _ in 0..(MAX_STREAM_ERRORS + 50) {
        let _ = d.push("not json");
    }
    let o = d.finish();
    assert_eq!(
        o.errors.len(),
        MAX_STREAM_ERRORS + 2,
        "kept, the summary, incomplete"
    );
    let summary = o
        .errors
        .iter()
        .find(|e| e.code() == "errors_dropped")
        .unwrap();
    assert!(
        summary.message().starts_with("50 more problems"),
        "{}",
        summary.message()
    );
}

/// `{"choices":[{"index":0,"delta":{"content":"<text>"}}]}` with `text` written as is (escapes).
fn chat_text(text: &str) -> String {
    format!(r#"{{"id":"c1","model":"m","choices":[{{"index":0,"delta":{{"content":"{text}"}}}}]}}"#)
}

#[test]
fn issue_15_an_emoji_split_across_two_events_is_joined() {
    let mut d = decoder(Provider::OpenAiChat);
    // the text before the half goes out now; the half waits for the next event
    let first = d.push(&chat_text(r"Hello \ud83d")).unwrap();
    assert_eq!(serde_json::to_value(&first).unwrap()[0]["text"], "Hello ");
    let deltas = d.push(&chat_text(r"\ude00 world")).unwrap();
    assert_eq!(
        serde_json::to_value(&deltas).unwrap()[0]["text"],
        "😀 world"
    );
    push(
        &mut d,
        json!({"id":"c1","model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}),
    );
    let o = d.finish();
    assert_eq!(
        o.to_value()["message"]["blocks"][0]["text"],
        "Hello 😀 world"
    );
    assert!(o.errors.is_empty(), "{:?}", o.errors);
}

#[test]
fn issue_15_unpaired_halves_in_events_become_u_fffd_and_are_reported() {
    let mut d = decoder(Provider::OpenAiChat);
    // a low half with no high before it, a high half inside a string, then a high half at the
    // end of an event that the next (clean) event does not complete
    push_text(&mut d, r"a\ude00b");
    push_text(&mut d, r"c\ud83dd");
    push_text(&mut d, r"e\ud83d");
    push_text(&mut d, "f");
    let o = d.finish();
    assert_eq!(
        o.to_value()["message"]["blocks"][0]["text"],
        "a\u{FFFD}bc\u{FFFD}def"
    );
    assert_eq!(
        codes(&o)
            .iter()
            .filter(|c| **c == "lone_surrogate_replaced")
            .count(),
        3,
        "{:?}",
        o.errors
    );
    // a half at the very end of the stream is reported too
    let mut d = decoder(Provider::OpenAiChat);
    push_text(&mut d, r"end \ud83d");
    assert_eq!(
        codes(&d.finish()),
        ["lone_surrogate_replaced", "incomplete"]
    );
}

fn push_text(d: &mut StreamDecoder, text: &str) {
    let _ = d.push(&chat_text(text));
}

#[test]
fn issue_15_events_nested_past_128_levels_decode_up_to_max_depth() {
    let deep = |levels: usize| format!("{}1{}", "[".repeat(levels), "]".repeat(levels));
    let mut d = decoder(Provider::Anthropic);
    push(
        &mut d,
        json!({"type":"message_start","message":{"id":"m","model":"c"}}),
    );
    push(
        &mut d,
        json!({"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_1","name":"ast","input":{}}}),
    );
    // the arguments are 300 levels deep; the event holding them is deeper still
    let args = format!(r#"{{"tree":{}}}"#, deep(300));
    let event = json!({"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":args}});
    assert!(d.push(&event.to_string()).is_ok());
    push(&mut d, json!({"type":"content_block_stop","index":0}));
    push(&mut d, json!({"type":"message_stop"}));
    let o = d.finish();
    assert!(o.errors.is_empty(), "{:?}", o.errors);
    let mut v = &o.to_value()["message"]["blocks"][0]["parameters"]["tree"];
    for _ in 0..300 {
        v = &v[0];
    }
    assert_eq!(v, &json!(1));
    // an event nested past MAX_DEPTH is an invalid_json problem, not a crash
    let mut d = decoder(Provider::OpenAiChat);
    let too_deep = deep(turnwire::MAX_DEPTH + 1);
    assert_eq!(d.push(&too_deep).unwrap_err().code(), "invalid_json");
}
