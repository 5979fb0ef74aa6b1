//! Model capabilities and strict mode (ordered-transcripts spec §1.3).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::models::{capabilities, defaults, ReasoningField};
use turnwire::{render, ErrorCode, Provider, RenderOptions, Transcript};

fn hello() -> Transcript {
    Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)
        .unwrap()
}

#[test]
fn families_say_what_continuity_they_need() {
    assert!(
        capabilities(Provider::Anthropic, "claude-sonnet-4-5")
            .unwrap()
            .signed_thinking
    );
    assert!(
        capabilities(Provider::Anthropic, "anthropic/claude-opus-4-6")
            .unwrap()
            .supported
    );
    assert!(
        capabilities(Provider::OpenAiResponses, "gpt-5.2-codex")
            .unwrap()
            .reasoning_items
    );
    assert!(
        capabilities(Provider::Gemini, "models/gemini-3-flash-preview")
            .unwrap()
            .thought_signatures_required
    );
    assert!(
        !capabilities(Provider::Gemini, "gemini-2.5-pro")
            .unwrap()
            .thought_signatures_required
    );
    let r1 = capabilities(Provider::DeepSeek, "deepseek-reasoner").unwrap();
    assert!(r1.strict_alternation);
    assert_eq!(r1.reasoning_field, ReasoningField::RequiredOnToolTurns);
    assert_eq!(
        capabilities(Provider::Kimi, "kimi-k2-thinking-turbo")
            .unwrap()
            .reasoning_field,
        ReasoningField::RequiredOnToolTurns
    );
    assert_eq!(
        capabilities(Provider::DeepSeek, "deepseek-chat")
            .unwrap()
            .reasoning_field,
        ReasoningField::Accepted
    );
    assert!(capabilities(Provider::OpenAiResponses, "my-finetune").is_none());
    assert!(defaults(Provider::Gemini).thought_signatures_required);
}

#[test]
fn strict_mode_rejects_unknown_and_unsupported_models() {
    for (provider, model) in [
        (Provider::Anthropic, "claude-3-5-sonnet-20241022"),
        (Provider::OpenAiChat, "my-finetune"),
        (Provider::Gemini, "gemini-1.5-pro"),
    ] {
        let mut o = RenderOptions::new(provider, model);
        o.strict_models = true;
        let e = render(&hello(), &o).unwrap_err();
        assert_eq!(
            (e.code(), e.path()),
            (ErrorCode::UnsupportedModel, "$.model"),
            "{provider} {model}"
        );
    }
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.strict_models = true;
    assert!(render(&hello(), &o).is_ok());
}

#[test]
fn without_strict_mode_unknown_models_get_safe_defaults() {
    for p in Provider::ALL {
        let o = RenderOptions::new(p, "some-future-model");
        assert!(render(&hello(), &o).is_ok(), "{p}");
    }
}

#[test]
fn strict_mode_is_an_option_in_json() {
    let o = RenderOptions::from_json(
        r#"{"provider": "kimi", "model": "kimi-k2-thinking", "strictModels": true}"#,
    )
    .unwrap();
    assert!(o.strict_models);
}
