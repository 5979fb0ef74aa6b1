//! The canonical model: the JSON history shape round-trips, unknown blocks and fields survive,
//! and malformed input is a typed error with a stable code and the JSON path — never a panic.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use proptest::prelude::*;
use serde_json::{json, Value};
use turnwire::model::{Block, ProviderMeta, Speaker};
use turnwire::{render, validate_request, ErrorCode, Provider, RenderOptions, Transcript};

fn err(v: Value) -> (ErrorCode, String) {
    let e = Transcript::from_value(&v).unwrap_err();
    (e.code(), e.path().to_string())
}

#[test]
fn icontent_history_round_trips_with_unknown_blocks_and_fields() {
    let history = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi", "providerMetadata": {"x": 1}}],
         "metadata": {"timestamp": 1732000000, "id": "m1"}},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5", "providerBaseURL": "https://api.anthropic.com", "usage": {"promptTokens": 3}},
         "blocks": [
            {"type": "thinking", "thought": "hm", "signature": "sig", "isHidden": true, "sourceField": "thinking"},
            {"type": "code", "code": "x", "language": "rust"},
            {"type": "citation", "url": "https://example.com", "nested": {"a": [1, 2]}},
            {"type": "tool_call", "id": "c1", "name": "f", "parameters": {"a": 1}, "description": "why"}],
         "turnId": "t-1"},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "c1", "toolName": "f", "result": {"ok": true}, "error": "partial", "isComplete": true},
            {"type": "media", "mimeType": "image/png", "data": "iVBORw0KGgo=", "encoding": "base64", "caption": "c", "filename": "a.png"}]},
        {"speaker": "ai", "blocks": [
            {"type": "thinking", "thought": "", "reasoningId": "rs_1", "encryptedContent": "gAAA"},
            {"type": "thinking", "thought": "", "redactedData": "opaque"},
            {"type": "text", "text": "done", "thoughtSignature": "Q2k="}]}
    ]);
    let t = Transcript::from_value(&history).unwrap();
    assert_eq!(t.to_value(), history);
    // typed views of what was read
    match &t.messages[1].blocks[0] {
        Block::Thinking(th) => {
            assert_eq!(
                th.meta,
                Some(ProviderMeta::AnthropicSignature {
                    signature: "sig".into()
                })
            );
            assert_eq!(th.extra["isHidden"], json!(true));
        }
        other => panic!("{other:?}"),
    }
    assert!(matches!(&t.messages[1].blocks[2], Block::Other(v) if v["nested"]["a"][1] == 2));
    assert_eq!(
        t.messages[1].provenance().endpoint.as_deref(),
        Some("https://api.anthropic.com")
    );
    assert_eq!(t.messages[1].extra["turnId"], "t-1");
    assert!(
        matches!(&t.messages[3].blocks[0], Block::Thinking(th) if th.meta == Some(ProviderMeta::OpenAiReasoning { id: Some("rs_1".into()), encrypted_content: Some("gAAA".into()) }))
    );
    assert!(
        matches!(&t.messages[3].blocks[2], Block::Text(tx) if tx.meta == Some(ProviderMeta::GeminiThoughtSignature { thought_signature: "Q2k=".into() }))
    );
}

#[test]
fn wrapper_object_round_trips() {
    let v = json!({"messages": [{"speaker": "system", "blocks": [{"type": "text", "text": "be brief"}]}], "sessionId": "s1"});
    let t = Transcript::from_value(&v).unwrap();
    assert_eq!(t.messages[0].speaker, Speaker::System);
    assert_eq!(t.to_value(), v);
}

#[test]
fn malformed_input_is_a_typed_error_with_the_json_path() {
    assert_eq!(
        Transcript::from_json("[{").unwrap_err().code(),
        ErrorCode::InvalidJson
    );
    assert_eq!(err(json!(42)), (ErrorCode::InvalidType, "$".into()));
    assert_eq!(
        err(json!({"msgs": []})),
        (ErrorCode::MissingField, "$.messages".into())
    );
    assert_eq!(
        err(json!({"messages": {}})),
        (ErrorCode::InvalidType, "$.messages".into())
    );
    assert_eq!(err(json!([7])), (ErrorCode::InvalidType, "$[0]".into()));
    assert_eq!(
        err(json!([{"blocks": []}])),
        (ErrorCode::MissingField, "$[0].speaker".into())
    );
    assert_eq!(
        err(json!([{"speaker": "user", "blocks": []}])),
        (ErrorCode::InvalidValue, "$[0].speaker".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai"}])),
        (ErrorCode::MissingField, "$[0].blocks".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai", "blocks": "x"}])),
        (ErrorCode::InvalidType, "$[0].blocks".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai", "blocks": [{"text": "x"}]}])),
        (ErrorCode::MissingField, "$[0].blocks[0].type".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai", "blocks": [{"type": "tool_call", "name": "f"}]}])),
        (ErrorCode::MissingField, "$[0].blocks[0].id".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai", "blocks": [{"type": "tool_call", "id": 5, "name": "f"}]}])),
        (ErrorCode::InvalidType, "$[0].blocks[0].id".into())
    );
    assert_eq!(
        err(
            json!({"messages": [{"speaker": "tool", "blocks": [{"type": "tool_response", "toolName": "f"}]}]})
        ),
        (
            ErrorCode::MissingField,
            "$.messages[0].blocks[0].callId".into()
        )
    );
    assert_eq!(
        err(
            json!([{"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c", "isComplete": "yes"}]}])
        ),
        (ErrorCode::InvalidType, "$[0].blocks[0].isComplete".into())
    );
    assert_eq!(
        err(
            json!([{"speaker": "human", "blocks": [{"type": "media", "mimeType": "image/png", "data": "x", "encoding": "hex"}]}])
        ),
        (ErrorCode::InvalidValue, "$[0].blocks[0].encoding".into())
    );
    assert_eq!(
        err(json!([{"speaker": "ai", "metadata": {"model": 3}, "blocks": []}])),
        (ErrorCode::InvalidType, "$[0].metadata.model".into())
    );
}

#[test]
fn render_options_errors_are_typed() {
    assert_eq!(
        RenderOptions::from_json(r#"{"provider": "bard", "model": "x"}"#)
            .unwrap_err()
            .code(),
        ErrorCode::UnknownProvider
    );
    assert_eq!(
        RenderOptions::from_json(r#"{"provider": "anthropic"}"#)
            .unwrap_err()
            .code(),
        ErrorCode::InvalidValue
    );
    assert_eq!(
        RenderOptions::from_json(r#"{"provider": "anthropic", "model": "m", "bogus": 1}"#)
            .unwrap_err()
            .code(),
        ErrorCode::InvalidValue
    );
    let t =
        Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)
            .unwrap();
    let mut o = RenderOptions::new(Provider::Anthropic, " ");
    assert_eq!(render(&t, &o).unwrap_err().path(), "$.model");
    let mut blank = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    blank.synthetic_result_text = Some("  ".into());
    assert_eq!(
        render(&t, &blank).unwrap_err().path(),
        "$.syntheticResultText"
    );
    blank.synthetic_result_text = None;
    blank.leading_user_text = Some(String::new());
    assert_eq!(render(&t, &blank).unwrap_err().path(), "$.leadingUserText");
    blank.leading_user_text = None;
    blank
        .extra
        .insert("thinking".into(), serde_json::json!({"type": "enabled"}));
    let e = render(&t, &blank).unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidValue, "$.extra.thinking")
    );
    o.model = "claude-sonnet-4-5".into();
    o.max_tokens = Some(1000);
    o.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    assert_eq!(
        render(&t, &o).unwrap_err().path(),
        "$.thinking.budgetTokens"
    );
    // every provider renders now; an unknown provider name is the option error
    assert_eq!(
        RenderOptions::from_json(r#"{"provider": "bedrock", "model": "m"}"#)
            .unwrap_err()
            .code(),
        ErrorCode::UnknownProvider
    );
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        prop::sample::select(fixture_support::SHAPE_STRINGS).prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 64, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (prop::sample::select(fixture_support::SHAPE_KEYS), inner),
                0..6
            )
            .prop_map(|kv| Value::Object(
                kv.into_iter().map(|(k, v)| (k.to_string(), v)).collect()
            )),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    /// Arbitrary JSON never panics: it is read (or rejected with a typed error), and whatever
    /// is read renders a body the strict validator accepts (or is rejected as empty), for every
    /// provider.
    #[test]
    fn arbitrary_json_never_panics(v in arb_json()) {
        if let Ok(t) = Transcript::from_value(&v) {
            prop_assert_eq!(Transcript::from_value(&t.to_value()).unwrap(), t.clone());
            for p in Provider::ALL {
                let o = RenderOptions::new(p, "m");
                match render(&t, &o) {
                    Ok(out) => {
                        let v = validate_request(p, &out.body);
                        prop_assert!(v.is_empty(), "{}: {:?}\n{:#}\n{:#}", p, v, out.body, t.to_value());
                    }
                    Err(e) => prop_assert_eq!(e.code(), ErrorCode::EmptyTranscript),
                }
            }
        }
    }
}

fn field_value() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        2 => Just(None),
        6 => prop_oneof![
            Just(""), Just("c1"), Just("c2"), Just(" "), Just("f"), Just("fs.read"), Just("iVBORw0KGgoAAAANSUhEUg=="),
            Just("image/png"), Just("image/jpeg"), Just("audio/wav"), Just("application/pdf"), Just("base64"), Just("url"),
            Just("https://x.test/a.png"), Just("data:image/png;base64,iVBORw0KGgo="), Just("sig"), Just("anthropic"),
            Just("claude-sonnet-4-5"), Just("missing_result")
        ].prop_map(|s| Some(Value::from(s))),
        1 => Just(Some(Value::Null)),
        1 => any::<bool>().prop_map(|b| Some(Value::from(b))),
        1 => Just(Some(json!({"a": [1, "x"]}))),
    ]
}

fn block_value() -> impl Strategy<Value = Value> {
    let keys = [
        "text",
        "thought",
        "signature",
        "redactedData",
        "thoughtSignature",
        "reasoningId",
        "encryptedContent",
        "id",
        "name",
        "parameters",
        "callId",
        "toolName",
        "result",
        "error",
        "isComplete",
        "mimeType",
        "data",
        "encoding",
        "code",
        "synthetic",
    ];
    (
        prop_oneof![
            Just("text"),
            Just("thinking"),
            Just("tool_call"),
            Just("tool_response"),
            Just("media"),
            Just("code"),
            Just("mystery")
        ],
        prop::collection::vec(field_value(), keys.len()),
    )
        .prop_map(move |(ty, values)| {
            let mut o = serde_json::Map::new();
            o.insert("type".into(), ty.into());
            for (k, v) in keys.iter().zip(values) {
                if let Some(v) = v {
                    o.insert((*k).to_string(), v);
                }
            }
            Value::Object(o)
        })
}

fn message_value() -> impl Strategy<Value = Value> {
    (
        prop_oneof![Just("human"), Just("ai"), Just("tool"), Just("system")],
        prop::collection::vec(block_value(), 0..5),
        prop_oneof![Just(json!(null)), Just(json!({"provider": "anthropic", "model": "claude-sonnet-4-5"})), Just(json!({"provider": "gemini"}))],
    )
        .prop_map(|(speaker, blocks, metadata)| json!({"speaker": speaker, "blocks": blocks, "metadata": metadata}))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(10_000))]

    /// Well-shaped messages with random block contents: read (or a typed error), then a valid
    /// body or `empty_transcript`, for every provider, with thinking on and off.
    #[test]
    fn random_blocks_never_panic_and_render_valid_bodies(msgs in prop::collection::vec(message_value(), 0..8), thinking in any::<bool>()) {
        let v = Value::Array(msgs);
        let Ok(t) = Transcript::from_value(&v) else { return Ok(()) };
        for p in Provider::ALL {
            let mut o = RenderOptions::new(p, if p == Provider::Anthropic { "claude-sonnet-4-5" } else { "gpt-5.2" });
            if thinking {
                o.max_tokens = Some(8192);
                o.thinking = Some(turnwire::ThinkingOptions { enabled: true, budget_tokens: Some(2048), effort: None, summary: None });
            }
            match render(&t, &o) {
                Ok(out) => {
                    let v = validate_request(p, &out.body);
                    prop_assert!(v.is_empty(), "{}: {:?}\n{:#}\n{:#}", p, v, out.body, t.to_value());
                }
                Err(e) => prop_assert_eq!(e.code(), ErrorCode::EmptyTranscript),
            }
        }
    }
}
