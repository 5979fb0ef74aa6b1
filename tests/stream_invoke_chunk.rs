//! Claude on Bedrock InvokeModelWithResponseStream (`host: bedrock`, wire `messages`): the
//! answer is AWS event-stream frames whose `chunk` events carry one Anthropic stream event as
//! base64 (`{"bytes": "…"}`, the SDKs' `PayloadPart`; @anthropic-ai/bedrock-sdk
//! `core/streaming.ts`). Each Anthropic golden stream framed that way decodes exactly like its
//! JSON lines, however the bytes are cut; exception frames are the provider's error.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use stream_support::event_stream::{base64, encode_invoke, frame, invoke_chunk};
use stream_support::{golden, goldens};
use turnwire::stream::{StreamDecoder, StreamError, StreamOptions};
use turnwire::{Host, Provider};

const AN: Provider = Provider::Anthropic;

fn bedrock() -> StreamOptions {
    let mut o = StreamOptions::for_model("claude-sonnet-4-5");
    o.host = Some(Host::Bedrock);
    o
}

/// Every delta (held ones too) and the error codes of the pushes.
fn by_bytes(bytes: &[u8], cuts: &[usize]) -> (Value, Vec<Value>, Vec<String>, bool) {
    let mut d = StreamDecoder::new(AN, bedrock());
    let (mut deltas, mut errors) = (Vec::new(), Vec::new());
    let mut at = 0;
    for &c in cuts.iter().chain([bytes.len()].iter()) {
        let ds = match d.push_bytes(&bytes[at..c]) {
            Ok(ds) => ds,
            Err(e) => {
                errors.push(e.code().to_string());
                d.take_held_deltas()
            }
        };
        deltas.extend(ds.iter().map(|x| serde_json::to_value(x).unwrap()));
        at = c;
    }
    let closed = d.is_closed();
    (d.finish().to_value(), deltas, errors, closed)
}

fn by_lines(events: &[String]) -> (Value, Vec<Value>) {
    let mut d = StreamDecoder::new(AN, bedrock());
    let mut deltas = Vec::new();
    for e in events {
        let ds = match d.push(e) {
            Ok(ds) => ds,
            Err(_) => d.take_held_deltas(),
        };
        deltas.extend(ds.iter().map(|x| serde_json::to_value(x).unwrap()));
    }
    (d.finish().to_value(), deltas)
}

#[test]
fn hst_invoke_chunk_goldens_decode_like_their_json_lines_cut_at_every_byte() {
    let all: Vec<_> = goldens().into_iter().filter(|g| g.provider == AN).collect();
    assert!(all.len() >= 8, "only {} anthropic goldens", all.len());
    for g in all {
        let (expected, deltas) = by_lines(&g.events);
        let bytes = encode_invoke(&g.events);
        let (whole, ds, _, _) = by_bytes(&bytes, &[]);
        assert_eq!(whole, expected, "{}", g.name());
        assert_eq!(ds, deltas, "{}", g.name());
        for c in 0..=bytes.len() {
            let (o, ds, _, _) = by_bytes(&bytes, &[c]);
            assert_eq!(o, expected, "{} cut at {c}", g.name());
            assert_eq!(ds, deltas, "{} cut at {c}", g.name());
        }
        let every: Vec<usize> = (1..bytes.len()).collect();
        let (o, ds, _, _) = by_bytes(&bytes, &every);
        assert_eq!(o, expected, "{} byte by byte", g.name());
        assert_eq!(ds, deltas, "{} byte by byte", g.name());
    }
}

#[test]
fn hst_invoke_chunk_text_golden_gives_the_message_and_the_bedrock_host() {
    let g = golden(AN, "text");
    let (o, _, errors, closed) = by_bytes(&encode_invoke(&g.events), &[]);
    assert!(errors.is_empty(), "{errors:?}");
    assert!(closed, "message_stop closes the stream");
    assert_eq!(o["stopReason"], "end_turn");
    assert_eq!(o["message"]["metadata"]["host"], "bedrock");
    assert!(o["message"]["blocks"][0]["text"]
        .as_str()
        .unwrap()
        .starts_with("Hello"));
}

#[test]
fn hst_invoke_exception_frame_is_the_provider_error_and_keeps_the_partial_message() {
    let g = golden(AN, "text");
    let mut bytes: Vec<u8> = g.events[..3].iter().flat_map(|e| invoke_chunk(e)).collect();
    bytes.extend(frame(
        &[
            (":exception-type", "modelStreamErrorException"),
            (":content-type", "application/json"),
            (":message-type", "exception"),
        ],
        br#"{"message":"Model stream error","originalStatusCode":500}"#,
    ));
    let (o, _, errors, closed) = by_bytes(&bytes, &[]);
    assert!(closed, "an exception ends the stream");
    assert_eq!(errors, ["provider_error"]);
    assert_eq!(o["incomplete"], true);
    assert_eq!(o["message"]["blocks"][0]["text"], "Hello");
    let mut d = StreamDecoder::new(AN, bedrock());
    let _ = d.push_bytes(&bytes);
    let e = d.finish().errors.into_iter().next().unwrap();
    assert_eq!(
        e,
        StreamError::Provider {
            error_type: "modelStreamErrorException".into(),
            message: "Model stream error".into()
        }
    );
}

#[test]
fn hst_invoke_chunk_without_base64_bytes_is_a_typed_error_and_the_stream_goes_on() {
    let g = golden(AN, "text");
    let bad = |payload: &str| {
        frame(
            &[(":event-type", "chunk"), (":message-type", "event")],
            payload.as_bytes(),
        )
    };
    for (payload, code) in [
        (r#"{"bytes":"not base64!"}"#, "invalid_json"),
        (r#"{"bytes":42}"#, "unexpected_event"),
        (
            &*format!(r#"{{"bytes":"{}"}}"#, base64(b"{nope")),
            "invalid_json",
        ),
    ] {
        let mut bytes = invoke_chunk(&g.events[0]);
        bytes.extend(bad(payload));
        bytes.extend(g.events[1..].iter().flat_map(|e| invoke_chunk(e)));
        let (o, _, errors, _) = by_bytes(&bytes, &[]);
        assert_eq!(errors, [code], "{payload}");
        assert_eq!(
            o["stopReason"], "end_turn",
            "{payload}: the next chunks decode"
        );
    }
}

#[test]
fn hst_invoke_unknown_event_type_is_reported() {
    let mut bytes = frame(
        &[(":event-type", "surprise"), (":message-type", "event")],
        b"{}",
    );
    bytes.extend(invoke_chunk(&golden(AN, "text").events[0]));
    let (_, _, errors, _) = by_bytes(&bytes, &[]);
    assert_eq!(errors, ["unknown_event_type"]);
}

#[test]
fn hst_anthropic_without_the_bedrock_host_still_refuses_bytes() {
    let mut d = StreamDecoder::new(AN, StreamOptions::for_model("claude-sonnet-4-5"));
    assert!(!d.reads_bytes());
    assert_eq!(
        d.push_bytes(&invoke_chunk(r#"{"type":"message_stop"}"#))
            .unwrap_err()
            .code(),
        "unexpected_event"
    );
    assert!(StreamDecoder::new(AN, bedrock()).reads_bytes());
    let _ = json!(null);
}
