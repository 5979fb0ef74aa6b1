//! Unit tests of [`super`].

use super::*;

#[test]
fn provenance_names_the_requested_alias_of_a_dated_snapshot() {
    let m = |req, rep| provenance_model(req, rep);
    assert_eq!(
        m(Some("gpt-5.2"), Some("gpt-5.2-2025-12-11")).as_deref(),
        Some("gpt-5.2")
    );
    assert_eq!(
        m(
            Some("claude-sonnet-4-5"),
            Some("claude-sonnet-4-5-20250929")
        )
        .as_deref(),
        Some("claude-sonnet-4-5")
    );
    assert_eq!(m(Some("auto"), Some("gpt-4o")).as_deref(), Some("gpt-4o"));
    assert_eq!(
        m(Some("gpt-5"), Some("gpt-5-mini")).as_deref(),
        Some("gpt-5-mini")
    );
    assert_eq!(
        m(None, Some("models/gemini-2.5-pro")).as_deref(),
        Some("gemini-2.5-pro")
    );
    assert_eq!(m(Some("x"), None).as_deref(), Some("x"));
    assert_eq!(m(None, None), None);
}

/// A second `message_start` in one Anthropic stream (two answers spliced by a proxy, a replayed
/// prefix) is a `duplicate_message_start` error: the message keeps the first one's id, model and
/// usage, and the rest of the stream decodes as usual.
#[test]
fn a_second_message_start_is_a_duplicate_message_start_error() {
    let mut d = StreamDecoder::new(
        crate::Provider::Anthropic,
        StreamOptions::for_model("claude-sonnet-4-5"),
    );
    let start = |id: &str, model: &str, input: u64| {
        format!(
            r#"{{"type":"message_start","message":{{"id":"{id}","model":"{model}","usage":{{"input_tokens":{input},"output_tokens":1}}}}}}"#
        )
    };
    assert!(d.push(&start("msg_1", "claude-sonnet-4-5", 12)).is_ok());
    let second = d.push(&start("msg_2", "claude-opus-4-1", 999));
    let err = second.err().map(|e| (e.code(), e.message()));
    assert_eq!(err.as_ref().map(|e| e.0), Some("duplicate_message_start"));
    let message = err.map(|e| e.1).unwrap_or_default();
    assert!(
        message.contains("msg_2") && message.contains("msg_1"),
        "{message}"
    );
    for event in [
        r#"{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}"#,
        r#"{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi"}}"#,
        r#"{"type":"content_block_stop","index":0}"#,
        r#"{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":3}}"#,
        r#"{"type":"message_stop"}"#,
    ] {
        assert!(d.push(event).is_ok(), "{event}");
    }
    let out = d.finish();
    let codes: Vec<&str> = out.errors.iter().map(StreamError::code).collect();
    assert_eq!(codes, ["duplicate_message_start"]);
    assert!(!out.incomplete);
    assert_eq!(out.usage.input_tokens, Some(12));
    assert_eq!(out.usage.output_tokens, Some(3));
    let v = out.message.write();
    assert_eq!(v["metadata"]["responseId"], "msg_1", "{v}");
    assert_eq!(v["metadata"]["model"], "claude-sonnet-4-5", "{v}");
}
