//! Issue 14, point 3: token-counting requests for the providers that have an endpoint
//! (Anthropic `count_tokens`, OpenAI Responses `input_tokens`, Gemini `countTokens`), made from
//! the request a render would send.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{
    context_window, render, render_count_tokens, ErrorCode, Provider, RenderOptions,
    ThinkingOptions, ToolDeclaration, Transcript,
};

fn transcript() -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "read a"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "read_file", "parameters": {"path": "a"}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "read_file", "result": "A"}]}
    ]))
    .unwrap()
}

fn options(provider: Provider) -> RenderOptions {
    let mut o = RenderOptions::new(provider, provider.reference_model());
    o.system = Some("be brief".into());
    o.max_tokens = Some(8000);
    o.tools = vec![ToolDeclaration::new(
        "read_file",
        "Read",
        json!({"type": "object"}),
    )];
    o.stop_sequences = vec!["END".into()];
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: Some("low".into()),
        summary: None,
    });
    // A field of the request the counting endpoint does not take (Gemini has no `metadata`:
    // GEM-30; it labels requests instead).
    let (field, value) = match provider {
        Provider::Gemini => ("labels", json!({"user_id": "u1"})),
        _ => ("metadata", json!({"user_id": "u1"})),
    };
    o.extra.insert(field.into(), value);
    o
}

fn keys(v: &Value) -> Vec<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

#[test]
fn each_counting_endpoint_gets_the_members_it_takes_of_the_request_a_render_sends() {
    let anthropic = render_count_tokens(&transcript(), &options(Provider::Anthropic)).unwrap();
    // (no thinking: the open loop has no Claude thinking, so the request runs without it)
    assert_eq!(
        keys(&anthropic.body),
        ["model", "system", "messages", "tools"]
    );
    let full = render(&transcript(), &options(Provider::Anthropic)).unwrap();
    assert_eq!(anthropic.body["messages"], full.body["messages"]);
    assert_eq!(anthropic.id_map, full.id_map);
    let responses =
        render_count_tokens(&transcript(), &options(Provider::OpenAiResponses)).unwrap();
    assert_eq!(
        keys(&responses.body),
        ["model", "instructions", "input", "tools", "reasoning"]
    );
    let gemini = render_count_tokens(&transcript(), &options(Provider::Gemini)).unwrap();
    assert_eq!(keys(&gemini.body), ["generateContentRequest"]);
    let request = &gemini.body["generateContentRequest"];
    assert_eq!(
        request["model"],
        format!("models/{}", Provider::Gemini.reference_model())
    );
    let whole = render(&transcript(), &options(Provider::Gemini))
        .unwrap()
        .body;
    for member in ["contents", "systemInstruction", "tools", "generationConfig"] {
        assert_eq!(request[member], whole[member], "{member}");
    }
}

#[test]
fn extra_fields_the_endpoint_does_not_take_are_reported_not_lost_silently() {
    for provider in [Provider::Anthropic, Provider::OpenAiResponses] {
        let out = render_count_tokens(&transcript(), &options(provider)).unwrap();
        assert!(out.body.get("metadata").is_none(), "{provider}");
        let dropped: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "request_field_dropped")
            .filter_map(|d| d.path.as_deref())
            .collect();
        assert_eq!(dropped, ["$.extra.metadata"], "{provider}");
    }
}

#[test]
fn targets_without_a_counting_endpoint_are_an_unsupported_option_error() {
    for provider in [
        Provider::OpenAiChat,
        Provider::Mistral,
        Provider::Kimi,
        Provider::DeepSeek,
        Provider::OpenAiCompatible,
    ] {
        let e = render_count_tokens(&transcript(), &options(provider)).unwrap_err();
        assert_eq!(
            (e.code(), e.path()),
            (ErrorCode::UnsupportedOption, "$.provider"),
            "{provider}"
        );
    }
    // the count is compared with the model's context window from the capability table
    assert_eq!(
        context_window(Provider::Anthropic, "claude-sonnet-4-5"),
        Some(200_000)
    );
}
