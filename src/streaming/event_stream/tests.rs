//! The AWS event-stream vectors (tests/fixtures/event-stream/vectors.json, from the AWS SDK for
//! JavaScript v3, Apache-2.0) and the reader's handling of bytes cut anywhere.

use serde_json::Value;

use super::{crc32, Frame, FrameReader, HeaderValue, MessageType};
use crate::streaming::error::StreamError;

fn hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

fn vectors() -> Vec<(String, Value)> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/event-stream/vectors.json"
    );
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    doc["vectors"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

/// An event-stream frame of these headers and payload.
pub(crate) fn encode(headers: &[(&str, HeaderValue)], payload: &[u8]) -> Vec<u8> {
    let mut h = Vec::new();
    for (name, value) in headers {
        h.push(name.len() as u8);
        h.extend_from_slice(name.as_bytes());
        match value {
            HeaderValue::Bool(b) => h.push(if *b { 0 } else { 1 }),
            HeaderValue::Byte(x) => h.extend([2, *x as u8]),
            HeaderValue::Short(x) => (h.push(3), h.extend(x.to_be_bytes())).1,
            HeaderValue::Int(x) => (h.push(4), h.extend(x.to_be_bytes())).1,
            HeaderValue::Long(x) => (h.push(5), h.extend(x.to_be_bytes())).1,
            HeaderValue::Bytes(b) => {
                h.push(6);
                h.extend((b.len() as u16).to_be_bytes());
                h.extend_from_slice(b);
            }
            HeaderValue::String(s) => {
                h.push(7);
                h.extend((s.len() as u16).to_be_bytes());
                h.extend_from_slice(s.as_bytes());
            }
            HeaderValue::Timestamp(x) => (h.push(8), h.extend(x.to_be_bytes())).1,
            HeaderValue::Uuid(u) => (h.push(9), h.extend_from_slice(u)).1,
        }
    }
    let total = (16 + h.len() + payload.len()) as u32;
    let mut f = Vec::new();
    f.extend(total.to_be_bytes());
    f.extend((h.len() as u32).to_be_bytes());
    f.extend(crc32(&f).to_be_bytes());
    f.extend(h);
    f.extend_from_slice(payload);
    f.extend(crc32(&f).to_be_bytes());
    f
}

/// A Converse-like event frame.
fn event(event_type: &str, payload: &str) -> Vec<u8> {
    encode(
        &[
            (":event-type", HeaderValue::String(event_type.into())),
            (
                ":content-type",
                HeaderValue::String("application/json".into()),
            ),
            (":message-type", HeaderValue::String("event".into())),
        ],
        payload.as_bytes(),
    )
}

/// What a reader gives for `bytes` pushed in pieces cut at `cuts`, then its end.
fn read_cut(bytes: &[u8], cuts: &[usize], max: usize) -> Vec<Result<Frame, StreamError>> {
    let mut r = FrameReader::new(max);
    let mut out = Vec::new();
    let mut at = 0;
    for &c in cuts.iter().chain([bytes.len()].iter()) {
        out.extend(r.push(&bytes[at..c]));
        at = c;
    }
    out.extend(r.end().map(Err));
    out
}

fn read(bytes: &[u8]) -> Vec<Result<Frame, StreamError>> {
    read_cut(bytes, &[], super::DEFAULT_MAX_FRAME)
}

/// Asserts that every way of cutting `bytes` (once anywhere, and into single bytes) reads the
/// same as the whole.
fn same_when_cut(bytes: &[u8], max: usize) -> Vec<Result<Frame, StreamError>> {
    let whole = read_cut(bytes, &[], max);
    for c in 0..=bytes.len() {
        assert_eq!(read_cut(bytes, &[c], max), whole, "cut at {c}");
    }
    let every: Vec<usize> = (1..bytes.len()).collect();
    assert_eq!(read_cut(bytes, &every, max), whole, "byte by byte");
    whole
}

fn header_json(v: &HeaderValue) -> (&'static str, Value) {
    match v {
        HeaderValue::Bool(b) => ("boolean", (*b).into()),
        HeaderValue::Byte(x) => ("byte", (*x).into()),
        HeaderValue::Short(x) => ("short", (*x).into()),
        HeaderValue::Int(x) => ("integer", (*x).into()),
        HeaderValue::Long(x) => ("long", (*x).into()),
        HeaderValue::Bytes(b) => (
            "binary",
            b.iter()
                .map(|x| format!("{x:02x}"))
                .collect::<String>()
                .into(),
        ),
        HeaderValue::String(s) => ("string", s.clone().into()),
        HeaderValue::Timestamp(x) => ("timestamp", (*x).into()),
        HeaderValue::Uuid(u) => {
            let h: String = u.iter().map(|x| format!("{x:02x}")).collect();
            let s = format!(
                "{}-{}-{}-{}-{}",
                &h[..8],
                &h[8..12],
                &h[12..16],
                &h[16..20],
                &h[20..]
            );
            ("uuid", s.into())
        }
    }
}

/// The error each failure vector must give: which check catches it.
fn expected_failure(name: &str) -> (&'static str, &'static str) {
    match name {
        // a payload byte changed: the message CRC catches it, the frame is skipped
        "corrupted_headers" | "corrupted_payload" => ("frame_crc_mismatch", "message"),
        // a length changed: the prelude CRC catches it, the rest is not read
        "corrupted_header_len" | "corrupted_length" | "legacy_corrupted_length" => {
            ("frame_crc_mismatch", "prelude")
        }
        other => panic!("no expectation for vector {other}"),
    }
}

#[test]
fn aws_event_stream_vectors_decode_whole_and_cut_at_every_byte() {
    let all = vectors();
    assert_eq!(all.len(), 10);
    for (name, v) in all {
        let bytes = hex(v["encoded"].as_str().unwrap());
        let out = same_when_cut(&bytes, super::DEFAULT_MAX_FRAME);
        assert_eq!(out.len(), 1, "{name}: {out:?}");
        if v["expectation"] == "success" {
            let f = out[0].as_ref().unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(
                f.payload,
                hex(v["decoded"]["body"].as_str().unwrap()),
                "{name}"
            );
            let headers: Vec<Value> = f
                .headers
                .iter()
                .map(|(n, h)| {
                    let (t, value) = header_json(h);
                    serde_json::json!({"name": n, "type": t, "value": value})
                })
                .collect();
            assert_eq!(Value::Array(headers), v["decoded"]["headers"], "{name}");
        } else {
            let (code, part) = expected_failure(&name);
            match &out[0] {
                Err(e @ StreamError::FrameCrcMismatch { part: p, offset: 0 }) => {
                    assert_eq!((e.code(), p.as_str()), (code, part), "{name}")
                }
                other => panic!("{name}: {other:?}"),
            }
        }
    }
}

#[test]
fn aws_event_stream_vectors_in_one_stream_keep_their_order_and_failures() {
    // every vector, then one good frame: a message CRC failure skips its frame only, a
    // prelude failure stops the reader
    let mut stream = Vec::new();
    let mut expect = Vec::new();
    for (name, v) in vectors() {
        stream.extend(hex(v["encoded"].as_str().unwrap()));
        let ok = v["expectation"] == "success";
        expect.push(if ok { "frame" } else { "error" });
        if !ok && expected_failure(&name).1 == "prelude" {
            break;
        }
    }
    stream.extend(event("messageStop", "{}"));
    let out = same_when_cut(&stream, super::DEFAULT_MAX_FRAME);
    let got: Vec<&str> = out
        .iter()
        .map(|r| if r.is_ok() { "frame" } else { "error" })
        .collect();
    assert_eq!(got, expect);
}

#[test]
fn converse_frame_headers_are_read() {
    let bytes = event(
        "contentBlockDelta",
        r#"{"contentBlockIndex":0,"delta":{"text":"Hi"},"p":"abc"}"#,
    );
    let out = same_when_cut(&bytes, 1 << 20);
    let f = out[0].as_ref().unwrap();
    assert_eq!(f.event_type(), Some("contentBlockDelta"));
    assert_eq!(f.content_type(), Some("application/json"));
    assert_eq!(f.message_type(), MessageType::Event);
    assert_eq!(f.exception_type(), None);
    let ex = encode(
        &[
            (
                ":exception-type",
                HeaderValue::String("throttlingException".into()),
            ),
            (":message-type", HeaderValue::String("exception".into())),
        ],
        br#"{"message":"Too many requests"}"#,
    );
    let f = read(&ex).remove(0).unwrap();
    assert_eq!(f.message_type(), MessageType::Exception);
    assert_eq!(f.exception_type(), Some("throttlingException"));
}

#[test]
fn event_stream_bad_message_crc_skips_that_frame_only() {
    let mut a = event("messageStart", r#"{"role":"assistant"}"#);
    let n = a.len();
    a[n - 6] ^= 0x20; // a payload byte
    let b = event("messageStop", r#"{"stopReason":"end_turn"}"#);
    let out = same_when_cut(&[a.clone(), b].concat(), 1 << 20);
    assert_eq!(out.len(), 2);
    assert!(
        matches!(&out[0], Err(StreamError::FrameCrcMismatch { part, offset: 0 }) if part == "message")
    );
    let f = out[1].as_ref().unwrap();
    assert_eq!((f.event_type(), f.offset), (Some("messageStop"), n as u64));
}

#[test]
fn event_stream_bad_prelude_crc_stops_the_reader() {
    let mut a = event("messageStart", r#"{"role":"assistant"}"#);
    a[9] ^= 1;
    let b = event("messageStop", "{}");
    let out = same_when_cut(&[a, b].concat(), 1 << 20);
    assert_eq!(out.len(), 1);
    assert_eq!(out[0].as_ref().unwrap_err().code(), "frame_crc_mismatch");
    assert!(out[0].as_ref().unwrap_err().message().contains("not read"));
}

/// A prelude with these lengths and a correct CRC.
fn prelude(total: u32, headers: u32) -> Vec<u8> {
    let mut p = Vec::new();
    p.extend(total.to_be_bytes());
    p.extend(headers.to_be_bytes());
    p.extend(crc32(&p).to_be_bytes());
    p
}

#[test]
fn event_stream_impossible_lengths_are_fatal_invalid_frames() {
    for (total, headers) in [(0, 0), (15, 0), (16, 1), (100, 85), (u32::MAX, u32::MAX)] {
        let mut bytes = prelude(total, headers);
        bytes.extend(event("messageStop", "{}"));
        let out = same_when_cut(&bytes, 1 << 20);
        assert_eq!(out.len(), 1, "{total}/{headers}");
        assert_eq!(
            out[0].as_ref().unwrap_err().code(),
            "invalid_frame",
            "{total}/{headers}"
        );
    }
}

#[test]
fn event_stream_oversized_frame_is_an_error_at_once_and_never_buffered() {
    let big = event(
        "contentBlockDelta",
        &format!(r#"{{"delta":{{"text":"{}"}}}}"#, "x".repeat(500)),
    );
    let small = event("messageStop", "{}");
    let max = 200;
    // the error comes with the prelude, before the frame's other bytes
    let mut r = FrameReader::new(max);
    let out = r.push(&big[..12]);
    assert!(matches!(
        &out[..],
        [Err(StreamError::FrameTooLarge { offset: 0, size, limit: 200 })] if *size == big.len() as u64
    ));
    assert!(r.buf.is_empty());
    r.push(&big[12..100]);
    assert!(
        r.buf.is_empty(),
        "the oversized frame is skipped, not buffered"
    );
    // and the next frame is read
    let out = same_when_cut(&[big.clone(), small].concat(), max);
    assert_eq!(out.len(), 2);
    assert_eq!(out[0].as_ref().unwrap_err().code(), "frame_too_large");
    assert_eq!(out[1].as_ref().unwrap().offset, big.len() as u64);
}

#[test]
fn event_stream_unknown_header_type_skips_the_frame_as_invalid() {
    let headers = [1u8, b'x', 10];
    let mut f = prelude((16 + headers.len()) as u32, headers.len() as u32);
    f.extend(headers);
    f.extend(crc32(&f).to_be_bytes());
    let out = same_when_cut(&[f, event("messageStop", "{}")].concat(), 1 << 20);
    assert_eq!(out.len(), 2);
    let e = out[0].as_ref().unwrap_err();
    assert_eq!(e.code(), "invalid_frame");
    assert!(e.message().contains("unknown value type 10"), "{e}");
    assert!(out[1].is_ok());
}

#[test]
fn event_stream_truncated_frame_is_reported_at_the_end() {
    let a = event("messageStart", r#"{"role":"assistant"}"#);
    for n in 1..a.len() {
        let out = read(&a[..n]);
        assert_eq!(out.len(), 1, "{n}");
        let e = out[0].as_ref().unwrap_err();
        assert_eq!(e.code(), "invalid_frame", "{n}");
        assert!(e.message().contains("the stream ended"), "{n}: {e}");
    }
    assert!(read(&a).iter().all(Result::is_ok));
    assert!(read(&[]).is_empty());
}

mod fuzz {
    use proptest::prelude::*;

    use super::{event, read_cut};

    proptest! {
        #[test]
        fn event_stream_arbitrary_bytes_never_panic(
            bytes in prop::collection::vec(any::<u8>(), 0..300),
            cut in 0usize..300,
            max in 0usize..400,
        ) {
            let c = cut.min(bytes.len());
            let whole = read_cut(&bytes, &[], max);
            prop_assert_eq!(read_cut(&bytes, &[c], max), whole);
        }

        #[test]
        fn event_stream_random_corruption_never_panics_and_keeps_frames_before_it(
            texts in prop::collection::vec("[a-zé😀]{0,12}", 1..6),
            at in any::<prop::sample::Index>(),
            xor in 1u8..=255,
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
        ) {
            let frames: Vec<Vec<u8>> = texts
                .iter()
                .map(|t| event("contentBlockDelta", &serde_json::json!({"delta": {"text": t}}).to_string()))
                .collect();
            let mut stream = frames.concat();
            let i = at.index(stream.len());
            stream[i] ^= xor;
            let mut cuts: Vec<usize> = cuts.iter().map(|c| c.index(stream.len() + 1)).collect();
            cuts.sort_unstable();
            let out = read_cut(&stream, &cuts, 1 << 16);
            prop_assert_eq!(&out, &read_cut(&stream, &[], 1 << 16));
            // the frames wholly before the corrupted byte are read as they were sent
            let mut start = 0;
            for (k, f) in frames.iter().enumerate() {
                if start + f.len() > i {
                    prop_assert!(out.iter().any(Result::is_err));
                    break;
                }
                let payload = f[12 + hl(f)..f.len() - 4].to_vec();
                prop_assert_eq!(out[k].as_ref().map(|x| x.payload.clone()).ok(), Some(payload));
                start += f.len();
            }
        }
    }

    /// The headers length of an encoded frame.
    fn hl(f: &[u8]) -> usize {
        u32::from_be_bytes([f[4], f[5], f[6], f[7]]) as usize
    }
}
