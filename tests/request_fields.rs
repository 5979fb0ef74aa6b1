//! Issue 31, "closed fields": every top-level field of a body is one the API knows, of a JSON
//! type it takes — ANT-50, OAC-30, ORS-30, GEM-30, MIS-20 (`docs/provider-rules-added.md` §12),
//! with the field lists written from the pinned official SDKs' request types. A field given
//! through `extra` or `providerOptions` is checked like one turnwire renders.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{render, validate_request, ErrorCode, Provider, RenderOptions, Transcript};

fn transcript() -> Transcript {
    Transcript::from_value(
        &json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]),
    )
    .unwrap()
}

fn options(provider: Provider, model: &str) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.max_tokens = Some(1024);
    o
}

const CLOSED: [(Provider, &str, &str); 5] = [
    (Provider::Anthropic, "claude-sonnet-4-5", "ANT-50"),
    (Provider::OpenAiChat, "gpt-5.2", "OAC-30"),
    (Provider::OpenAiResponses, "gpt-5.2", "ORS-30"),
    (Provider::Gemini, "gemini-3-pro-preview", "GEM-30"),
    (Provider::Mistral, "mistral-large-latest", "MIS-20"),
];

/// A clean body for `provider` with `extra` members added after the render.
fn body_with(provider: Provider, model: &str, extra: Value) -> Value {
    let mut body = render(&transcript(), &options(provider, model))
        .unwrap()
        .body;
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

fn rule_findings(provider: Provider, body: &Value, rule: &str) -> Vec<(String, String)> {
    validate_request(provider, body)
        .into_iter()
        .filter(|v| v.rule == rule)
        .map(|v| (v.path, v.message))
        .collect()
}

#[test]
fn closed_fields_a_rendered_body_has_only_fields_its_api_knows() {
    for (provider, model, rule) in CLOSED {
        let body = body_with(provider, model, json!({}));
        assert_eq!(rule_findings(provider, &body, rule), vec![], "{provider}");
    }
}

#[test]
fn closed_fields_an_unknown_field_is_reported_in_the_providers_words() {
    let words = [
        "foo: Extra inputs are not permitted",
        "Unrecognized request argument supplied: foo",
        "Unknown parameter: 'foo'.",
        "Invalid JSON payload received. Unknown name \"foo\": Cannot find field.",
        "body.foo: Extra inputs are not permitted",
    ];
    for ((provider, model, rule), words) in CLOSED.into_iter().zip(words) {
        let body = body_with(provider, model, json!({"foo": 1}));
        assert_eq!(
            rule_findings(provider, &body, rule),
            vec![("$.foo".to_string(), words.to_string())],
            "{provider}"
        );
    }
}

#[test]
fn closed_fields_a_known_field_of_the_wrong_type_is_reported() {
    for (provider, model, rule) in CLOSED {
        let body = if provider == Provider::Gemini {
            let mut b = body_with(provider, model, json!({}));
            b["generationConfig"] = json!({"temperature": "hot"});
            b
        } else {
            body_with(provider, model, json!({"temperature": "hot"}))
        };
        let found = rule_findings(provider, &body, rule);
        assert_eq!(found.len(), 1, "{provider}: {found:?}");
        assert!(
            found[0].0.ends_with(".temperature"),
            "{provider}: {found:?}"
        );
    }
    let body = body_with(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        json!({"temperature": "hot"}),
    );
    assert_eq!(
        rule_findings(Provider::Anthropic, &body, "ANT-50")[0].1,
        "temperature: Input should be a valid number"
    );
    let body = body_with(
        Provider::OpenAiChat,
        "gpt-5.2",
        json!({"temperature": "hot"}),
    );
    assert_eq!(
        rule_findings(Provider::OpenAiChat, &body, "OAC-30")[0].1,
        "Invalid type for 'temperature': expected a number, but got a string instead."
    );
}

#[test]
fn closed_fields_anthropic_keeps_the_sampling_fields_of_its_2023_06_01_version() {
    // @anthropic-ai/sdk 1.x types API version 2026-10-21 without temperature, top_k and top_p;
    // turnwire sends `anthropic-version: 2023-06-01`, which takes them.
    let body = body_with(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        json!({"temperature": 0.5, "top_k": 40, "top_p": 0.9}),
    );
    assert_eq!(rule_findings(Provider::Anthropic, &body, "ANT-50"), vec![]);
}

#[test]
fn closed_fields_anthropic_header_params_are_reported_once_as_headers() {
    let body = body_with(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        json!({"betas": ["context-management-2025-06-27"], "user_profile_id": "p"}),
    );
    let found: Vec<(&str, String)> = validate_request(Provider::Anthropic, &body)
        .into_iter()
        .map(|v| (v.rule, v.path))
        .collect();
    assert_eq!(
        found,
        [
            ("ANT-42", "$.betas".to_string()),
            ("ANT-42", "$.user_profile_id".to_string())
        ]
    );
}

#[test]
fn closed_fields_gemini_takes_either_proto_spelling_and_checks_generation_config() {
    let body = body_with(
        Provider::Gemini,
        "gemini-3-pro-preview",
        json!({"safety_settings": [], "generation_config": {"top_k": 40, "temprature": 0.1}}),
    );
    assert_eq!(
        rule_findings(Provider::Gemini, &body, "GEM-30"),
        vec![(
            "$.generation_config.temprature".to_string(),
            "Invalid JSON payload received. Unknown name \"temprature\" at 'generation_config': Cannot find field."
                .to_string()
        )]
    );
}

#[test]
fn closed_fields_dialects_of_chat_check_only_the_types_of_openai_fields() {
    for provider in [
        Provider::Kimi,
        Provider::DeepSeek,
        Provider::OpenAiCompatible,
    ] {
        let body = body_with(
            provider,
            "some-model",
            json!({"thinking": {"type": "enabled"}, "top_k": 20, "temperature": "hot"}),
        );
        let found: Vec<_> = validate_request(provider, &body)
            .into_iter()
            .filter(|v| v.rule == "OAC-30")
            .map(|v| v.path)
            .collect();
        assert_eq!(found, vec!["$.temperature"], "{provider}");
    }
}

#[test]
fn closed_fields_extra_is_checked_like_a_rendered_field() {
    for (provider, model, rule) in CLOSED {
        let mut o = options(provider, model);
        o.extra = json!({"foo": 1}).as_object().unwrap().clone();
        let e = render(&transcript(), &o).unwrap_err();
        assert_eq!(e.code(), ErrorCode::InvalidValue, "{provider}");
        assert_eq!(e.path(), "$.extra.foo", "{provider}");
        assert!(e.message().contains(rule), "{provider}: {}", e.message());
    }
    // A field the API knows goes out as given.
    let mut o = options(Provider::OpenAiChat, "gpt-5.2");
    o.extra = json!({"seed": 7}).as_object().unwrap().clone();
    assert_eq!(render(&transcript(), &o).unwrap().body["seed"], 7);
}

#[test]
fn closed_fields_provider_options_are_checked_member_by_member() {
    let mut o = options(Provider::Gemini, "gemini-3-pro-preview");
    o.provider_options = json!({"gemini": {"generationConfig": {"temperature": "hot"}}})
        .as_object()
        .unwrap()
        .clone();
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(
        e.path(),
        "$.providerOptions.gemini.generationConfig.temperature"
    );
    assert!(e.message().contains("GEM-30"), "{}", e.message());
}
