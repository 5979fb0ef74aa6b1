//! Issue 14, point 1: `providerOptions`, keyed by provider name, merged into the body rendered
//! for that provider as a JSON Merge Patch and checked by its strict validator.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{
    render, render_body, validate_request_for_model, Conversation, ErrorCode, Provider,
    RenderOptions, Transcript,
};

fn transcript() -> Transcript {
    Transcript::from_value(
        &json!([{"speaker": "human", "blocks": [{"type": "text", "text": "plan it"}]}]),
    )
    .unwrap()
}

fn options(provider: Provider, model: &str, provider_options: Value) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.max_tokens = Some(16_000);
    o.provider_options = provider_options.as_object().unwrap().clone();
    o
}

#[test]
fn the_entry_for_the_target_is_merged_and_the_others_are_ignored() {
    let po = json!({
        "anthropic": {"top_k": 40, "thinking": {"type": "adaptive", "display": "summarized"}, "metadata": {"user_id": "u1"}},
        "gemini": {"generationConfig": {"topK": 40, "thinkingConfig": {"thinkingLevel": "LOW"}}, "safetySettings": []},
        "openai-responses": {"service_tier": "flex", "reasoning": {"effort": "high", "summary": "detailed"}}
    });
    let a = render(
        &transcript(),
        &options(Provider::Anthropic, "claude-opus-4-7", po.clone()),
    )
    .unwrap()
    .body;
    assert_eq!(a["top_k"], 40);
    assert_eq!(
        a["thinking"],
        json!({"type": "adaptive", "display": "summarized"})
    );
    assert!(a.get("generationConfig").is_none());
    assert!(validate_request_for_model(Provider::Anthropic, "claude-opus-4-7", &a).is_empty());
    let mut go = options(Provider::Gemini, "gemini-3-pro-preview", po.clone());
    go.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: Some("high".into()),
        summary: None,
    });
    let g = render(&transcript(), &go).unwrap().body;
    // merged into turnwire's own generationConfig: its members stay, the patch's are added
    assert_eq!(g["generationConfig"]["maxOutputTokens"], 16_000);
    assert_eq!(g["generationConfig"]["topK"], 40);
    assert_eq!(
        g["generationConfig"]["thinkingConfig"],
        json!({"includeThoughts": true, "thinkingLevel": "LOW"})
    );
    assert_eq!(g["safetySettings"], json!([]));
    let r = render(
        &transcript(),
        &options(Provider::OpenAiResponses, "gpt-5.2", po),
    )
    .unwrap()
    .body;
    assert_eq!(
        r["reasoning"],
        json!({"effort": "high", "summary": "detailed"})
    );
    assert_eq!(r["service_tier"], "flex");
}

#[test]
fn null_removes_a_field_turnwire_set() {
    let mut o = options(
        Provider::OpenAiResponses,
        "gpt-5.2",
        json!({"openai-responses": {"store": null}}),
    );
    o.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: None,
        summary: None,
    });
    let body = render(&transcript(), &o).unwrap().body;
    assert!(body.get("store").is_none());
}

#[test]
fn a_merged_field_the_validator_refuses_is_an_error_naming_the_option() {
    // Opus 4.7 refuses a thinking budget (ANT-34)
    let o = options(
        Provider::Anthropic,
        "claude-opus-4-7",
        json!({"anthropic": {"thinking": {"type": "enabled", "budget_tokens": 2048}}}),
    );
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (
            ErrorCode::InvalidValue,
            "$.providerOptions.anthropic.thinking.type"
        )
    );
    assert!(e.message().contains("ANT-34"), "{}", e.message());
    // a prompt_cache_key over 64 characters (OAC-20)
    let o = options(
        Provider::OpenAiChat,
        "gpt-5.2",
        json!({"openai-chat": {"prompt_cache_key": "k".repeat(70)}}),
    );
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(e.path(), "$.providerOptions.openai-chat.prompt_cache_key");
    // Gemini 3 Pro takes no MEDIUM level (GEM-14, with the model)
    let o = options(
        Provider::Gemini,
        "gemini-3-pro-preview",
        json!({"gemini": {"generationConfig": {"thinkingConfig": {"thinkingLevel": "MEDIUM"}}}}),
    );
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(
        e.path(),
        "$.providerOptions.gemini.generationConfig.thinkingConfig.thinkingLevel"
    );
}

#[test]
fn entries_are_checked_provider_names_objects_and_no_history() {
    for (po, path) in [
        (json!({"claude": {}}), "$.providerOptions.claude"),
        (
            json!({"gemini": {"contents": []}}),
            "$.providerOptions.gemini.contents",
        ),
        (
            json!({"openai-responses": {"input": []}}),
            "$.providerOptions.openai-responses.input",
        ),
    ] {
        let e = render(
            &transcript(),
            &options(Provider::Anthropic, "claude-sonnet-4-5", po),
        )
        .unwrap_err();
        assert_eq!((e.code(), e.path()), (ErrorCode::InvalidValue, path));
    }
    let e = render(
        &transcript(),
        &options(
            Provider::Anthropic,
            "claude-sonnet-4-5",
            json!({"anthropic": 3}),
        ),
    )
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidType);
}

#[test]
fn a_conversation_merges_them_on_every_turn_as_the_full_render_does() {
    let o = options(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        json!({"anthropic": {"top_k": 5, "metadata": {"user_id": "u"}}}),
    );
    let mut convo = Conversation::new();
    for k in 0..12 {
        let speaker = if k % 2 == 0 { "human" } else { "ai" };
        convo.append_value(&json!({"speaker": speaker, "blocks": [{"type": "text", "text": format!("turn {k}")}]})).unwrap();
        if speaker == "human" {
            let got = convo.render_body(&o).unwrap();
            assert_eq!(
                got,
                render_body(convo.transcript(), &o).unwrap(),
                "turn {k}"
            );
        }
    }
    assert!(convo.last_render_stats().incremental);
    let bad = options(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        json!({"anthropic": {"max_tokens": 0}}),
    );
    let e = convo.render_body(&bad).unwrap_err();
    assert_eq!(e.path(), "$.providerOptions.anthropic.max_tokens");
}
