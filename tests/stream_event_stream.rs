//! Bedrock's binary stream (`application/vnd.amazon.eventstream`) through
//! `StreamDecoder::push_bytes`: each ConverseStream golden encoded into frames decodes exactly
//! like its JSON lines, however the bytes are cut (inside a prelude, a header, a UTF-8
//! character); a corrupted, oversized, unknown or truncated frame gives a typed error, keeps
//! the partial message and never hangs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use stream_support::event_stream::{encode, event_frame, frame};
use stream_support::{golden, goldens, options};
use turnwire::stream::{StopReason, StreamDecoder, StreamError, StreamOptions, StreamOutcome};
use turnwire::Provider;

const BR: Provider = Provider::BedrockConverse;

/// Every delta (held ones too, so that errors do not hide them) and the first error of each
/// push, in order.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    deltas: Vec<Value>,
    errors: Vec<String>,
}

impl Seen {
    fn take(
        &mut self,
        d: &mut StreamDecoder,
        r: Result<Vec<turnwire::stream::Delta>, StreamError>,
    ) {
        let ds = match r {
            Ok(ds) => ds,
            Err(e) => {
                self.errors.push(e.code().to_string());
                d.take_held_deltas()
            }
        };
        self.deltas
            .extend(ds.iter().map(|x| serde_json::to_value(x).unwrap()));
    }
}

/// The codes of an outcome's errors.
fn codes(o: &Value) -> Vec<&str> {
    o["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["code"].as_str().unwrap())
        .collect()
}

fn outcome_json(o: &StreamOutcome) -> Value {
    o.to_value()
}

/// The JSON lines pushed as text.
fn by_lines(events: &[String], o: StreamOptions) -> (Value, Seen) {
    let mut d = StreamDecoder::new(BR, o);
    let mut seen = Seen::default();
    for e in events {
        let r = d.push(e);
        seen.take(&mut d, r);
    }
    (outcome_json(&d.finish()), seen)
}

/// Bytes pushed in pieces cut at `cuts`.
fn by_bytes(bytes: &[u8], cuts: &[usize], o: StreamOptions) -> (Value, Seen, bool) {
    let mut d = StreamDecoder::new(BR, o);
    let mut seen = Seen::default();
    let mut at = 0;
    for &c in cuts.iter().chain([bytes.len()].iter()) {
        let r = d.push_bytes(&bytes[at..c]);
        seen.take(&mut d, r);
        at = c;
    }
    let closed = d.is_closed();
    (outcome_json(&d.finish()), seen, closed)
}

fn converse_goldens() -> Vec<stream_support::Golden> {
    let all: Vec<_> = goldens().into_iter().filter(|g| g.provider == BR).collect();
    assert!(
        all.len() >= 7,
        "only {} bedrock-converse goldens",
        all.len()
    );
    all
}

#[test]
fn bdr_stream_goldens_as_frames_decode_like_their_json_lines_cut_at_every_byte() {
    for g in converse_goldens() {
        let (expected, lines_seen) = by_lines(&g.events, options(BR));
        let (bytes, _) = encode(&g.events);
        let (whole, seen, _) = by_bytes(&bytes, &[], options(BR));
        assert_eq!(whole, expected, "{}", g.name());
        assert_eq!(seen.deltas, lines_seen.deltas, "{}", g.name());
        for c in 0..=bytes.len() {
            let (o, s, _) = by_bytes(&bytes, &[c], options(BR));
            assert_eq!(o, expected, "{} cut at {c}", g.name());
            assert_eq!(s.deltas, lines_seen.deltas, "{} cut at {c}", g.name());
        }
        let every: Vec<usize> = (1..bytes.len()).collect();
        let (o, s, _) = by_bytes(&bytes, &every, options(BR));
        assert_eq!(o, expected, "{} byte by byte", g.name());
        assert_eq!(s.deltas, lines_seen.deltas, "{} byte by byte", g.name());
    }
}

#[test]
fn bdr_stream_cuts_inside_utf8_characters_are_covered() {
    // the text golden has 2-, 3- and 4-byte characters; a cut inside each is among the cuts
    // above: check that such positions exist in its bytes
    let g = golden(BR, "text");
    let (bytes, _) = encode(&g.events);
    let inside = (1..bytes.len())
        .filter(|&i| (bytes[i] & 0xC0) == 0x80)
        .count();
    assert!(inside >= 8, "{inside}");
}

#[test]
fn bdr_stream_outcomes_of_the_goldens() {
    let o = |case: &str| {
        let g = golden(BR, case);
        let mut d = StreamDecoder::new(BR, options(BR));
        let _ = d.push_bytes(&encode(&g.events).0);
        d.finish()
    };
    let text = o("text");
    assert_eq!(text.stop_reason, StopReason::EndTurn);
    assert!(!text.incomplete && text.errors.is_empty());
    assert_eq!(
        text.message.blocks.len(),
        1,
        "the padding member `p` adds nothing"
    );
    let tools = o("tool_use");
    assert_eq!(tools.stop_reason, StopReason::ToolUse);
    let m = tools.to_value()["message"].clone();
    assert_eq!(
        m["blocks"][1],
        json!({"type": "tool_call", "id": "tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "name": "list_dir", "parameters": {"path": "src"}})
    );
    assert_eq!(
        serde_json::to_value(tools.usage).unwrap(),
        json!({"inputTokens": 87, "outputTokens": 96, "cacheReadTokens": 2048, "cacheWriteTokens": 312})
    );
    let thinking = o("thinking_tools").to_value()["message"]["blocks"][0].clone();
    assert_eq!(thinking["type"], "thinking");
    assert!(
        thinking["signature"].as_str().unwrap().starts_with("EqoB"),
        "{thinking}"
    );
    let redacted = o("redacted_thinking").to_value()["message"]["blocks"].clone();
    assert!(
        redacted[0]["redactedData"]
            .as_str()
            .unwrap()
            .starts_with("RXJ5"),
        "{redacted}"
    );
    assert_eq!(o("guardrail").stop_reason, StopReason::ContentFilter);
}

#[test]
fn bdr_stream_exception_frame_is_the_provider_error_with_its_type_and_message() {
    let g = golden(BR, "error");
    let (bytes, _) = encode(&g.events);
    let (o, seen, closed) = by_bytes(&bytes, &[], options(BR));
    assert!(closed, "an exception ends the stream");
    assert_eq!(seen.errors, ["provider_error"]);
    assert_eq!(o["incomplete"], true);
    assert_eq!(o["stopReason"], "error");
    assert_eq!(
        o["message"]["blocks"][0]["text"], "Here is the first part of a long answer, which",
        "the partial message is kept"
    );
    let mut d = StreamDecoder::new(BR, options(BR));
    let _ = d.push_bytes(&bytes);
    let e = d.finish().errors.into_iter().next().unwrap();
    assert_eq!(
        e,
        StreamError::Provider {
            error_type: "throttlingException".into(),
            message: "Too many tokens, please wait before trying again.".into()
        }
    );
}

#[test]
fn bdr_stream_unmodeled_error_frame_is_a_provider_error_from_its_headers() {
    let mut bytes = event_frame(&json!({"messageStart": {"role": "assistant"}}));
    bytes.extend(frame(
        &[
            (":message-type", "error"),
            (":error-code", "InternalFailure"),
            (":error-message", "An internal error occurred."),
        ],
        b"",
    ));
    let mut d = StreamDecoder::new(BR, options(BR));
    let e = d.push_bytes(&bytes).unwrap_err();
    assert_eq!(
        e,
        StreamError::Provider {
            error_type: "InternalFailure".into(),
            message: "An internal error occurred.".into()
        }
    );
}

/// The text golden's bytes with frame `k`'s payload byte flipped, or its prelude.
fn text_with(k: usize, at_prelude: bool) -> (Vec<u8>, Vec<String>) {
    let g = golden(BR, "text");
    let (mut bytes, starts) = encode(&g.events);
    let at = if at_prelude {
        starts[k] + 5
    } else {
        starts[k + 1] - 6
    };
    bytes[at] ^= 0x01;
    (bytes, g.events)
}

#[test]
fn bdr_stream_bad_message_crc_skips_that_frame_and_reports_it() {
    let (bytes, _) = text_with(2, false);
    for c in [0, 40, 200, bytes.len()] {
        let (o, seen, _) = by_bytes(&bytes, &[c], options(BR));
        assert_eq!(seen.errors, ["frame_crc_mismatch"]);
        assert_eq!(
            o["message"]["blocks"][0]["text"], "Hellowhat are we building today?",
            "frames before and after it are read"
        );
        assert_eq!(o["errors"][0]["code"], "frame_crc_mismatch");
    }
}

#[test]
fn bdr_stream_bad_prelude_crc_stops_with_the_partial_message() {
    let (bytes, _) = text_with(2, true);
    let (o, seen, closed) = by_bytes(&bytes, &[100], options(BR));
    assert_eq!(seen.errors, ["frame_crc_mismatch"]);
    assert!(closed, "nothing after it can be read: the reader may stop");
    assert_eq!(o["incomplete"], true);
    assert_eq!(o["message"]["blocks"][0]["text"], "Hello");
    let codes = codes(&o);
    assert_eq!(codes, ["frame_crc_mismatch", "incomplete"]);
}

#[test]
fn bdr_stream_oversized_frame_is_skipped_at_once_with_frame_too_large() {
    let g = golden(BR, "text");
    let (bytes, mut starts) = encode(&g.events);
    starts.push(bytes.len());
    let sizes: Vec<usize> = starts.windows(2).map(|w| w[1] - w[0]).collect();
    let big = *sizes.iter().max().unwrap();
    let k = sizes.iter().position(|&n| n == big).unwrap();
    let limit = *sizes.iter().filter(|&&n| n < big).max().unwrap() as u64;
    assert_eq!(sizes.iter().filter(|&&n| n as u64 > limit).count(), 1);
    let o = options(BR).with_max_event_bytes(limit);
    // the error comes as soon as the frame's prelude is in, before the rest of it
    let mut d = StreamDecoder::new(BR, o.clone());
    d.push_bytes(&bytes[..starts[k]]).unwrap();
    let e = d.push_bytes(&bytes[starts[k]..starts[k] + 12]).unwrap_err();
    assert_eq!(e.code(), "frame_too_large");
    assert!(
        e.message()
            .contains(&format!("{big} bytes, over the limit of {limit}")),
        "{e}"
    );
    // the rest of the stream is read as if the frame had not been sent
    let mut without = g.events.clone();
    without.remove(k);
    let (expected, _) = by_lines(&without, o.clone());
    for c in 0..=bytes.len() {
        let (mut out, seen, _) = by_bytes(&bytes, &[c], o.clone());
        assert_eq!(seen.errors, ["frame_too_large"], "cut at {c}");
        let errors = out["errors"].as_array_mut().unwrap();
        assert_eq!(errors.remove(0)["code"], "frame_too_large");
        assert_eq!(out, expected, "cut at {c}");
    }
}

#[test]
fn bdr_stream_unknown_event_type_is_reported_and_skipped() {
    let g = golden(BR, "text");
    let mut events = g.events.clone();
    events.insert(
        2,
        r#"{"contentBlockFlourish":{"contentBlockIndex":0}}"#.into(),
    );
    let (bytes, _) = encode(&events);
    let (o, seen, _) = by_bytes(&bytes, &[], options(BR));
    assert_eq!(seen.errors, ["unknown_event_type"]);
    assert_eq!(o["errors"][0]["code"], "unknown_event_type");
    assert!(o["errors"][0]["message"]
        .as_str()
        .unwrap()
        .contains("contentBlockFlourish"));
    assert_eq!(
        o["message"]["blocks"][0]["text"],
        "Hello! Grüße, 東京 😀 — what are we building today?"
    );
    // the same through the JSON lines
    let (lines, _) = by_lines(&events, options(BR));
    assert_eq!(lines, o);
}

#[test]
fn bdr_stream_truncated_at_every_byte_finishes_incomplete_with_the_partial_message() {
    let g = golden(BR, "tool_use");
    let (bytes, starts) = encode(&g.events);
    let stop_frame = starts[g
        .events
        .iter()
        .position(|e| e.contains("messageStop"))
        .unwrap()];
    for n in 0..bytes.len() {
        let (o, _, _) = by_bytes(&bytes[..n], &[], options(BR));
        let codes = codes(&o);
        let mid_frame = !starts.contains(&n);
        assert_eq!(
            codes.contains(&"invalid_frame"),
            mid_frame,
            "[..{n}]: {codes:?}"
        );
        let complete_stop = n >= starts[starts.iter().position(|&s| s == stop_frame).unwrap() + 1];
        assert_eq!(o["incomplete"], !complete_stop, "[..{n}]");
        if n > starts[2] {
            assert_eq!(
                o["message"]["blocks"][0]["text"],
                "I'll list both directories."
            );
        }
    }
}

#[test]
fn bdr_stream_bytes_on_an_sse_wire_are_refused() {
    let mut d = StreamDecoder::new(Provider::Anthropic, options(Provider::Anthropic));
    let bytes = event_frame(&json!({"messageStop": {"stopReason": "end_turn"}}));
    let e = d.push_bytes(&bytes).unwrap_err();
    assert_eq!(e.code(), "unexpected_event");
    assert!(e.message().contains("push it as text"), "{e}");
}

#[test]
fn bdr_stream_json_lines_still_take_one_event_each() {
    let mut d = StreamDecoder::new(BR, options(BR));
    let ds = d
        .push(r#"{"contentBlockDelta":{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abc"}}"#)
        .unwrap();
    assert_eq!(ds.len(), 1);
    assert_eq!(
        d.push(r#"{"fooBar":{}}"#).unwrap_err().code(),
        "unknown_event_type"
    );
    d.push(r#"{"messageStop":{"stopReason":"max_tokens"}}"#)
        .unwrap();
    assert!(!d.is_closed(), "metadata follows messageStop");
    d.push(r#"{"metadata":{"usage":{"inputTokens":3,"outputTokens":1,"totalTokens":4}}}"#)
        .unwrap();
    assert!(d.is_closed());
    let o = d.finish();
    assert_eq!(o.stop_reason, StopReason::MaxTokens);
    assert!(!o.incomplete);
}
