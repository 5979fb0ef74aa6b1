//! Issue 11, `repairingFetch({ target })` across APIs: an answer of one provider written in
//! another wire format (`turnwire::relay`). Every golden stream of every provider, relayed into
//! each of the four wire formats, decodes (with turnwire's decoder for that format) to the same
//! text, reasoning, tool calls, stop reason and usage as the original; whole answers too.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use turnwire::model::Block;
use turnwire::relay::{error_body, relay_whole, Frame, RelayOptions, StreamRelay};
use turnwire::stream::{StreamDecoder, StreamOptions, StreamOutcome};
use turnwire::Provider;

/// One provider per wire format.
const CLIENTS: [Provider; 4] = [
    Provider::Anthropic,
    Provider::OpenAiChat,
    Provider::OpenAiResponses,
    Provider::Gemini,
];

/// What a client can see of a decoded answer: texts (neighbouring text blocks read as one, an
/// empty one — a Gemini signature-only part, GEM-24 — as nothing), thoughts, calls (name +
/// arguments), the stop reason and the token counts.
fn seen(o: &StreamOutcome) -> Value {
    let mut texts: Vec<Block> = Vec::new();
    for b in &o.message.blocks {
        match (b, texts.last_mut()) {
            (Block::Text(t), _) if t.text.is_empty() => {}
            (Block::Text(t), Some(Block::Text(prev))) => prev.text.push_str(&t.text),
            _ => texts.push(b.clone()),
        }
    }
    let blocks: Vec<Value> = texts
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(json!(["text", t.text])),
            Block::Thinking(t) if !t.thought.is_empty() => Some(json!(["thinking", t.thought])),
            Block::ToolCall(c) => Some(json!([
                "call",
                c.name,
                c.parameters.clone().unwrap_or(json!({}))
            ])),
            _ => None,
        })
        .collect();
    // a refusal is the content filter's stop in formats that have no refusal of their own
    let stop = match o.stop_reason.as_str() {
        "content_filter" => "refusal",
        s => s,
    };
    json!({"blocks": blocks, "stop": stop,
        "in": o.usage.input_tokens.unwrap_or(0) + o.usage.cache_read_tokens.unwrap_or(0) + o.usage.cache_write_tokens.unwrap_or(0),
        "out": o.usage.output_tokens.unwrap_or(0)})
}

fn decode(p: Provider, events: &[String]) -> StreamOutcome {
    let mut d = StreamDecoder::new(p, StreamOptions::for_model("m"));
    for e in events {
        let _ = d.push(e);
    }
    d.finish()
}

fn data(frames: &[Frame]) -> Vec<String> {
    frames.iter().map(|f| f.data.clone()).collect()
}

#[test]
fn issue_11_every_golden_stream_relayed_into_each_format_decodes_to_what_the_original_says() {
    let mut checked = 0;
    for g in stream_support::goldens() {
        let original = decode(g.provider, &g.events);
        if original.incomplete {
            continue; // truncated and error streams: see the error test
        }
        for to in CLIENTS {
            let mut relay =
                StreamRelay::new(g.provider, to, RelayOptions::new("client-model", "resp_1"));
            let mut frames = Vec::new();
            for e in &g.events {
                frames.extend(relay.push(e));
            }
            frames.extend(relay.finish());
            assert!(relay.is_closed(), "{} → {to}: not closed", g.name());
            let again = decode(to, &data(&frames));
            assert!(
                again.errors.is_empty(),
                "{} → {to}: {:?}",
                g.name(),
                again.errors
            );
            assert!(!again.incomplete, "{} → {to}", g.name());
            // Chat has one place for text: interleaved blocks read back joined.
            let (a, b) = (seen(&original), seen(&again));
            if to == Provider::OpenAiChat || to == Provider::Gemini {
                assert_eq!(joined(&a), joined(&b), "{} → {to}", g.name());
            } else {
                assert_eq!(a, b, "{} → {to}", g.name());
            }
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} relays checked");
}

/// Per kind, the text joined and the calls in order (formats that keep one text per answer).
fn joined(v: &Value) -> Value {
    let mut text = String::new();
    let mut thinking = String::new();
    let mut calls = Vec::new();
    for b in v["blocks"].as_array().unwrap() {
        match b[0].as_str().unwrap() {
            "text" => text.push_str(b[1].as_str().unwrap()),
            "thinking" => thinking.push_str(b[1].as_str().unwrap()),
            _ => calls.push(b.clone()),
        }
    }
    json!([text, thinking, calls, v["stop"], v["in"], v["out"]])
}

#[test]
fn issue_11_whole_answers_relayed_into_each_format_decode_to_what_the_original_says() {
    let mut checked = 0;
    for g in stream_support::goldens() {
        let original = decode(g.provider, &g.events);
        if original.incomplete {
            continue;
        }
        // the provider's own whole answer, written from its stream
        let (whole, _) = {
            let mut relay = StreamRelay::new(g.provider, g.provider, RelayOptions::new("m", "r"));
            g.events.iter().for_each(|e| {
                relay.push(e);
            });
            let o = relay.outcome();
            (relay_whole_of(g.provider, &o), ())
        };
        for to in CLIENTS {
            let (body, decoded) = relay_whole(
                g.provider,
                to,
                &whole,
                &RelayOptions::new("client-model", "resp_1"),
            );
            assert!(
                decoded.errors.is_empty(),
                "{}: {:?}",
                g.name(),
                decoded.errors
            );
            let mut d = StreamDecoder::new(to, StreamOptions::for_model("m"));
            let _ = d.push_value(&body);
            let again = d.finish();
            assert!(
                again.errors.is_empty(),
                "{} → {to}: {:?}\n{body}",
                g.name(),
                again.errors
            );
            assert_eq!(
                joined(&seen(&original)),
                joined(&seen(&again)),
                "{} → {to}\n{body}",
                g.name()
            );
            checked += 1;
        }
    }
    assert!(checked >= 60, "only {checked} relays checked");
}

/// `p`'s whole answer for a decoded outcome (written by the relay from `p` to `p`).
fn relay_whole_of(p: Provider, o: &StreamOutcome) -> Value {
    // decode → whole in its own format: relay a minimal whole answer through the encoder
    let (body, _) = relay_whole(
        Provider::Anthropic,
        p,
        &anthropic_whole(o),
        &RelayOptions::new("m", "r"),
    );
    body
}

/// An Anthropic `message` with the outcome's content (the encoder's input format).
fn anthropic_whole(o: &StreamOutcome) -> Value {
    let content: Vec<Value> = o
        .message
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some(json!({"type": "text", "text": t.text})),
            Block::Thinking(t) if !t.thought.is_empty() => Some(json!({"type": "thinking", "thinking": t.thought, "signature": "s"})),
            Block::ToolCall(c) => Some(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": c.parameters.clone().unwrap_or(json!({}))})),
            _ => None,
        })
        .collect();
    let stop = match o.stop_reason.as_str() {
        "tool_use" => "tool_use",
        "max_tokens" => "max_tokens",
        "refusal" | "content_filter" => "refusal",
        _ => "end_turn",
    };
    json!({"id": "m", "type": "message", "role": "assistant", "model": "m", "content": content, "stop_reason": stop,
        "usage": {"input_tokens": o.usage.input_tokens.unwrap_or(0) + o.usage.cache_read_tokens.unwrap_or(0) + o.usage.cache_write_tokens.unwrap_or(0),
            "output_tokens": o.usage.output_tokens.unwrap_or(0)}})
}

#[test]
fn issue_11_a_provider_error_in_the_stream_becomes_the_clients_error_event() {
    let gemini_error = r#"{"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}"#;
    for to in CLIENTS {
        let mut relay = StreamRelay::new(Provider::Gemini, to, RelayOptions::new("m", "r"));
        relay.push(r#"{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]}}]}"#);
        let frames = relay.push(gemini_error);
        assert!(relay.is_closed());
        let mut d = StreamDecoder::new(to, StreamOptions::default());
        let errors: Vec<String> = frames
            .iter()
            .filter_map(|f| d.push(&f.data).err())
            .map(|e| e.to_string())
            .collect();
        assert!(
            errors
                .iter()
                .any(|e| e.contains("The model is overloaded.")),
            "{to}: {errors:?} {frames:?}"
        );
    }
    assert_eq!(
        error_body(Provider::Gemini, "UNAVAILABLE", "x")["error"]["status"],
        "UNAVAILABLE"
    );
}

#[test]
fn issue_11_a_whole_error_answer_is_written_as_the_clients_error_body() {
    let anthropic_error =
        json!({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}});
    let (body, _) = relay_whole(
        Provider::Anthropic,
        Provider::OpenAiChat,
        &anthropic_error,
        &RelayOptions::new("m", "r"),
    );
    assert_eq!(body["error"]["message"], "Overloaded");
    assert_eq!(body["error"]["type"], "overloaded_error");
}

#[test]
fn issue_11_frames_are_sse() {
    let mut relay = StreamRelay::new(
        Provider::Anthropic,
        Provider::OpenAiChat,
        RelayOptions::new("gpt-5.2", "c1"),
    );
    relay.push(
        r#"{"type":"message_start","message":{"id":"m","model":"c","usage":{"input_tokens":3}}}"#,
    );
    relay.push(
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
    );
    let frames = relay.push(
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
    );
    assert_eq!(frames.len(), 1);
    assert!(frames[0]
        .to_sse()
        .starts_with("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\""));
    let end = [
        relay.push(r#"{"type":"content_block_stop","index":0}"#),
        relay.push(r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}"#),
        relay.push(r#"{"type":"message_stop"}"#),
    ]
    .concat();
    assert_eq!(end.last().unwrap().data, "[DONE]");
}
