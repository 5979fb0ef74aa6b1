//! Issue 10, point 4: token limits that fit the thinking asked for. Without `maxTokens`,
//! Anthropic gets a `max_tokens` that leaves room for the budget within the model's output
//! limit (with a `max_tokens_chosen` diagnostic); limits the caller set that cannot work are
//! errors naming both numbers; Gemini 2.5 budgets are fitted into the model's range.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::{
    render, validate_request_text, Conversation, DiagnosticCode, Provider, RenderOptions,
    ThinkingOptions, Transcript,
};

fn hi() -> Transcript {
    Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)
        .unwrap()
}

fn thinking(p: Provider, model: &str, budget: Option<u32>, max: Option<u32>) -> RenderOptions {
    let mut o = RenderOptions::new(p, model);
    o.max_tokens = max;
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: budget,
        effort: None,
        summary: None,
    });
    o
}

fn codes(out: &turnwire::Rendered) -> Vec<DiagnosticCode> {
    out.diagnostics.iter().map(|d| d.code).collect()
}

#[test]
fn anthropic_thinking_without_max_tokens_leaves_room_for_the_budget() {
    let o = thinking(Provider::Anthropic, "claude-sonnet-4-5", Some(8000), None);
    let out = render(&hi(), &o).unwrap();
    assert_eq!(out.body["max_tokens"], 12096);
    assert_eq!(out.body["thinking"]["budget_tokens"], 8000);
    assert_eq!(codes(&out), [DiagnosticCode::MaxTokensChosen]);
    assert!(out.diagnostics[0].message.contains("8000"));
    assert!(
        validate_request_text(Provider::Anthropic, None, &out.body_bytes())
            .unwrap()
            .is_empty()
    );
    // a Conversation reports the same
    let mut c = Conversation::from_transcript(hi());
    assert_eq!(c.render(&o).unwrap(), out);
}

#[test]
fn the_chosen_limit_stays_within_the_model_output_limit() {
    let o = thinking(
        Provider::Anthropic,
        "claude-opus-4-1-20250805",
        Some(30_000),
        None,
    );
    let out = render(&hi(), &o).unwrap();
    assert_eq!(out.body["max_tokens"], 32_000);
    assert!(out.diagnostics[0].message.contains("output limit is 32000"));
    let big = thinking(Provider::Anthropic, "claude-opus-4-6", Some(100_000), None);
    assert_eq!(render(&hi(), &big).unwrap().body["max_tokens"], 104_096);
}

#[test]
fn a_small_budget_keeps_the_default_limit_without_a_diagnostic() {
    for budget in [None, Some(2048)] {
        let out = render(
            &hi(),
            &thinking(Provider::Anthropic, "claude-sonnet-4-5", budget, None),
        )
        .unwrap();
        assert_eq!(out.body["max_tokens"], 4096);
        assert!(codes(&out).is_empty());
    }
    // without thinking the default stays within small models' limits
    let out = render(
        &hi(),
        &RenderOptions::new(Provider::Anthropic, "claude-3-haiku-20240307"),
    )
    .unwrap();
    assert_eq!(out.body["max_tokens"], 4096);
}

#[test]
fn limits_that_cannot_work_are_errors_naming_both_numbers() {
    let e = render(
        &hi(),
        &thinking(
            Provider::Anthropic,
            "claude-sonnet-4-5",
            Some(8000),
            Some(4096),
        ),
    )
    .unwrap_err();
    assert_eq!(e.path(), "$.thinking.budgetTokens");
    assert!(
        e.message().contains("8000") && e.message().contains("4096"),
        "{}",
        e.message()
    );
    let e = render(
        &hi(),
        &thinking(Provider::Anthropic, "claude-sonnet-4-5", Some(64_000), None),
    )
    .unwrap_err();
    assert!(
        e.message().contains("64000") && e.message().contains("output limit"),
        "{}",
        e.message()
    );
    let e = render(
        &hi(),
        &thinking(Provider::Anthropic, "claude-sonnet-4-5", Some(500), None),
    )
    .unwrap_err();
    assert!(
        e.message().contains("1024") && e.message().contains("500"),
        "{}",
        e.message()
    );
}

#[test]
fn gemini_2_5_budgets_are_fitted_into_the_model_range() {
    for (model, asked, sent) in [
        ("gemini-2.5-pro", 50, 128),
        ("gemini-2.5-flash", 30_000, 24_576),
        ("gemini-2.5-flash-lite", 100, 512),
        ("gemini-2.5-pro", 8000, 8000),
    ] {
        let out = render(&hi(), &thinking(Provider::Gemini, model, Some(asked), None)).unwrap();
        assert_eq!(
            out.body["generationConfig"]["thinkingConfig"]["thinkingBudget"], sent,
            "{model}"
        );
        let adjusted = codes(&out).contains(&DiagnosticCode::ThinkingBudgetAdjusted);
        assert_eq!(adjusted, asked != sent, "{model}");
    }
    // Gemini takes a budget above maxOutputTokens (the answer is cut, nothing is refused)
    let out = render(
        &hi(),
        &thinking(Provider::Gemini, "gemini-2.5-pro", Some(2048), Some(512)),
    )
    .unwrap();
    assert_eq!(out.body["generationConfig"]["maxOutputTokens"], 512);
}

#[test]
fn issue_10_point_4_kimi_thinking_models_without_max_tokens_get_room_to_think() {
    let t = Transcript::from_json(
        r#"[{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]"#,
    )
    .unwrap();
    for model in ["kimi-k2-thinking", "kimi-k2.5", "kimi-k2.6"] {
        let out = render(&t, &RenderOptions::new(Provider::Kimi, model)).unwrap();
        assert_eq!(out.body["max_tokens"], 32_768, "{model}");
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::MaxTokensChosen),
            "{model}"
        );
    }
    // an explicit limit is the caller's; a model that does not think keeps the provider default
    let mut o = RenderOptions::new(Provider::Kimi, "kimi-k2-thinking");
    o.max_tokens = Some(2000);
    assert_eq!(render(&t, &o).unwrap().body["max_tokens"], 2000);
    let out = render(
        &t,
        &RenderOptions::new(Provider::Kimi, "kimi-k2-0905-preview"),
    )
    .unwrap();
    assert!(out.body.get("max_tokens").is_none());
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    // thinking switched off on a model that can: the provider default again
    let mut o = RenderOptions::new(Provider::Kimi, "kimi-k2.6");
    o.thinking = Some(turnwire::ThinkingOptions {
        enabled: false,
        budget_tokens: None,
        effort: None,
        summary: None,
    });
    assert!(render(&t, &o).unwrap().body.get("max_tokens").is_none());
}
