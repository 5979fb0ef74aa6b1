//! Issue 11, `repair_request_body` (what `repairingFetch` sends): a body another client built,
//! repaired for its own provider with its other fields kept, or rendered for another provider
//! with the fields of its API reported.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Map, Value};
use turnwire::import::{repair_request_body, ImportSource};
use turnwire::{validate_request, DiagnosticCode, ErrorCode, Provider};

/// An Anthropic body whose tool call has no result and whose user turn follows it.
fn damaged_anthropic() -> Value {
    json!({
        "model": "claude-sonnet-4-6", "max_tokens": 1024, "stream": true,
        "metadata": {"user_id": "u-1"},
        "system": "be brief",
        "messages": [
            {"role": "user", "content": "why does the build fail?"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Reading the log."},
                {"type": "tool_use", "id": "toolu_01A", "name": "read_log", "input": {"path": "build.log"}}
            ]},
            {"role": "user", "content": "never mind, what is 2+2?"}
        ]
    })
}

fn target(v: Value) -> Map<String, Value> {
    v.as_object().cloned().unwrap()
}

fn codes(d: &[turnwire::Diagnostic]) -> Vec<DiagnosticCode> {
    d.iter().map(|d| d.code).collect()
}

#[test]
fn issue_11_same_provider_repair_keeps_the_bodys_other_fields() {
    let before = damaged_anthropic();
    assert!(
        !validate_request(Provider::Anthropic, &before).is_empty(),
        "the fixture is damaged"
    );
    let out = repair_request_body(
        Provider::Anthropic,
        &before,
        &ImportSource::default(),
        &Map::new(),
    )
    .unwrap();
    let body = &out.rendered.body;
    assert!(
        validate_request(Provider::Anthropic, body).is_empty(),
        "{body}"
    );
    assert_eq!(body["stream"], true);
    assert_eq!(body["metadata"], json!({"user_id": "u-1"}));
    assert_eq!(body["model"], "claude-sonnet-4-6");
    assert_eq!(body["max_tokens"], 1024);
    assert!(codes(&out.rendered.diagnostics).contains(&DiagnosticCode::SyntheticResultAdded));
    assert_eq!(out.options.provider, Provider::Anthropic);
}

#[test]
fn issue_11_a_clean_body_is_sent_as_it_was() {
    let body = json!({
        "model": "gpt-5.2", "stream": true, "stream_options": {"include_usage": true},
        "messages": [{"role": "user", "content": "hi"}]
    });
    let out = repair_request_body(
        Provider::OpenAiChat,
        &body,
        &ImportSource::default(),
        &Map::new(),
    )
    .unwrap();
    assert_eq!(out.rendered.body, body);
    assert!(
        out.rendered.diagnostics.is_empty(),
        "{:?}",
        out.rendered.diagnostics
    );
}

#[test]
fn issue_11_a_chat_body_rendered_for_another_chat_dialect_keeps_its_fields() {
    // The openai client pointed at DeepSeek: Mistral-style 9-character ids are not needed, but
    // DeepSeek's rule for reasoning_content is; the stream switches stay.
    let body = json!({
        "model": "deepseek-chat", "stream": true, "stream_options": {"include_usage": true},
        "messages": [
            {"role": "user", "content": "list"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
            ]},
            {"role": "user", "content": "thanks"}
        ]
    });
    let out = repair_request_body(
        Provider::OpenAiChat,
        &body,
        &ImportSource::default(),
        &target(json!({"provider": "deepseek"})),
    )
    .unwrap();
    let sent = &out.rendered.body;
    assert!(
        validate_request(Provider::DeepSeek, sent).is_empty(),
        "{sent}"
    );
    assert_eq!(sent["stream_options"], json!({"include_usage": true}));
    assert_eq!(
        sent["messages"][2]["role"], "tool",
        "the missing result comes right after its call"
    );
    assert!(!codes(&out.rendered.diagnostics).contains(&DiagnosticCode::RequestFieldDropped));
}

#[test]
fn issue_11_another_api_drops_the_bodys_fields_each_with_a_diagnostic() {
    let out = repair_request_body(
        Provider::Anthropic,
        &damaged_anthropic(),
        &ImportSource::default(),
        &target(json!({"provider": "gemini", "model": "gemini-2.5-pro"})),
    )
    .unwrap();
    let body = &out.rendered.body;
    assert!(
        validate_request(Provider::Gemini, body).is_empty(),
        "{body}"
    );
    assert!(body.get("stream").is_none() && body.get("metadata").is_none());
    let dropped: Vec<&str> = out
        .rendered
        .diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::RequestFieldDropped)
        .filter_map(|d| d.path.as_deref())
        .collect();
    assert_eq!(dropped, ["$.stream", "$.metadata"]);
    assert_eq!(body["systemInstruction"]["parts"][0]["text"], "be brief");
    assert_eq!(
        (out.options.provider, out.options.model.as_str()),
        (Provider::Gemini, "gemini-2.5-pro")
    );
}

#[test]
fn issue_11_the_targets_extra_is_merged_and_its_options_win() {
    let out = repair_request_body(
        Provider::Anthropic,
        &damaged_anthropic(),
        &ImportSource::default(),
        &target(json!({"maxTokens": 2048, "extra": {"service_tier": "auto"}})),
    )
    .unwrap();
    let body = &out.rendered.body;
    assert_eq!(body["max_tokens"], 2048);
    assert_eq!(body["service_tier"], "auto");
    assert_eq!(body["stream"], true, "the body's own extra stays");
}

#[test]
fn issue_11_a_gemini_body_takes_its_model_from_the_source() {
    let body = json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]});
    let none = repair_request_body(
        Provider::Gemini,
        &body,
        &ImportSource::default(),
        &Map::new(),
    )
    .unwrap_err();
    assert_eq!(none.code(), ErrorCode::MissingField);
    let source = ImportSource {
        model: Some("gemini-2.5-flash".into()),
        endpoint: None,
        host: None,
        account: None,
    };
    let out = repair_request_body(Provider::Gemini, &body, &source, &Map::new()).unwrap();
    assert_eq!(out.rendered.body, body);
    assert_eq!(out.options.model, "gemini-2.5-flash");
}

#[test]
fn issue_11_a_bad_target_is_a_typed_error_with_its_path() {
    let bad = repair_request_body(
        Provider::Anthropic,
        &damaged_anthropic(),
        &ImportSource::default(),
        &target(json!({"provider": "bedrock"})),
    )
    .unwrap_err();
    assert_eq!(bad.code(), ErrorCode::UnknownProvider);
    let bad = repair_request_body(
        Provider::Anthropic,
        &damaged_anthropic(),
        &ImportSource::default(),
        &target(json!({"provider": 7})),
    )
    .unwrap_err();
    assert_eq!(
        (bad.code(), bad.path()),
        (ErrorCode::InvalidType, "$.provider")
    );
    let bad = repair_request_body(
        Provider::Anthropic,
        &damaged_anthropic(),
        &ImportSource::default(),
        &target(json!({"maxTokens": "many"})),
    )
    .unwrap_err();
    assert_eq!(bad.code(), ErrorCode::InvalidValue);
}

#[test]
fn issue_11_a_chat_bodys_own_store_field_is_kept_not_opaque() {
    // pi-ai's openai-completions bodies carry `store: false`; only the Responses API's `store` is
    // turnwire's to set.
    let body = json!({"model": "deepseek-chat", "store": false, "messages": [{"role": "user", "content": "hi"}]});
    let out = repair_request_body(
        Provider::DeepSeek,
        &body,
        &ImportSource::default(),
        &Map::new(),
    )
    .unwrap();
    assert_eq!(out.rendered.body["store"], false);
    assert!(!codes(&out.rendered.diagnostics).contains(&DiagnosticCode::ImportOpaque));
    let responses = json!({"model": "gpt-5.2", "store": true, "input": "hi"});
    let out = repair_request_body(
        Provider::OpenAiResponses,
        &responses,
        &ImportSource::default(),
        &Map::new(),
    )
    .unwrap();
    assert_eq!(
        out.rendered.body["store"], false,
        "Responses: turnwire's stateless store"
    );
}
