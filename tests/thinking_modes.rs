//! Issue 14, point 1: current thinking controls for Anthropic, driven by the capability table.
//! Claude 4.5 and earlier think with a budget; Opus 4.6 and Sonnet 4.6 think adaptively unless
//! the caller gives a budget; Opus 4.7 and later and Claude 5 think adaptively only (ANT-34).
//! `effort` becomes `output_config.effort` at the highest level the model takes that is not
//! above the one asked (ANT-41); `effort` is a closed set.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::import::{from_request_body, ImportSource};
use turnwire::models::{capabilities, ThinkingMode};
use turnwire::{
    render, validate_request, ErrorCode, Provider, RenderOptions, ThinkingOptions, Transcript,
};

fn transcript() -> Transcript {
    Transcript::from_value(
        &json!([{"speaker": "human", "blocks": [{"type": "text", "text": "plan the refactor"}]}]),
    )
    .unwrap()
}

fn options(model: &str, enabled: bool, budget: Option<u32>, effort: Option<&str>) -> RenderOptions {
    let mut o = RenderOptions::new(Provider::Anthropic, model);
    o.max_tokens = Some(16_000);
    o.thinking = Some(ThinkingOptions {
        enabled,
        budget_tokens: budget,
        effort: effort.map(String::from),
        summary: None,
    });
    o
}

fn rules(body: &Value) -> Vec<String> {
    validate_request(Provider::Anthropic, body)
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.message))
        .collect()
}

const MODELS: [&str; 12] = [
    "claude-sonnet-4-5",
    "claude-haiku-4-5",
    "claude-opus-4-5",
    "claude-opus-4-6",
    "claude-sonnet-4-6",
    "claude-opus-4-7",
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-sonnet-5-5",
    "claude-fable-5",
    "claude-mythos-5",
    "claude-haiku-5-5",
];

#[test]
fn each_claude_model_gets_the_thinking_switch_and_effort_it_takes() {
    let mut renders = 0;
    for model in MODELS {
        let mode = capabilities(Provider::Anthropic, model)
            .unwrap()
            .thinking_mode;
        for (enabled, budget) in [(true, None), (true, Some(4096)), (false, None)] {
            for effort in [
                None,
                Some("low"),
                Some("xhigh"),
                Some("max"),
                Some("minimal"),
            ] {
                let r = render(&transcript(), &options(model, enabled, budget, effort)).unwrap();
                renders += 1;
                let at = format!("{model} enabled={enabled} budget={budget:?} effort={effort:?}");
                assert_eq!(rules(&r.body), Vec::<String>::new(), "{at}");
                let kind = r.body.pointer("/thinking/type").and_then(Value::as_str);
                let want = match (enabled, mode, budget) {
                    (false, _, _) => None,
                    (true, ThinkingMode::Budget, _)
                    | (true, ThinkingMode::AdaptiveOrBudget, Some(_)) => Some("enabled"),
                    (true, _, _) => Some("adaptive"),
                };
                assert_eq!(kind, want, "{at}");
                let budget_note = r
                    .diagnostics
                    .iter()
                    .any(|d| d.path.as_deref() == Some("$.thinking.budgetTokens"));
                assert_eq!(
                    budget_note,
                    enabled && budget.is_some() && mode == ThinkingMode::Adaptive,
                    "{at}"
                );
                let sent = r
                    .body
                    .pointer("/output_config/effort")
                    .and_then(Value::as_str);
                let effort_note = r
                    .diagnostics
                    .iter()
                    .any(|d| d.path.as_deref() == Some("$.thinking.effort"));
                assert_eq!(
                    effort_note,
                    effort.is_some() && sent != effort,
                    "{at}: {sent:?}"
                );
            }
        }
    }
    assert_eq!(renders, 12 * 3 * 5);
    // The levels, from the table: Sonnet 4.6 stops at max without xhigh; Opus 4.7 has them all.
    let sent = |model: &str, effort: &str| {
        render(&transcript(), &options(model, true, None, Some(effort)))
            .unwrap()
            .body
            .pointer("/output_config/effort")
            .cloned()
    };
    assert_eq!(sent("claude-sonnet-4-6", "xhigh"), Some(json!("high")));
    assert_eq!(sent("claude-opus-4-7", "xhigh"), Some(json!("xhigh")));
    assert_eq!(sent("claude-opus-4-5", "max"), Some(json!("high")));
    assert_eq!(sent("claude-sonnet-4-5", "high"), None);
}

#[test]
fn ant_34_and_ant_41_refuse_the_thinking_switch_and_effort_a_model_does_not_take() {
    let body = |model: &str, thinking: Value, output: Value| {
        json!({"model": model, "max_tokens": 8000, "thinking": thinking, "output_config": output,
               "messages": [{"role": "user", "content": "hi"}]})
    };
    let enabled = json!({"type": "enabled", "budget_tokens": 2048});
    let adaptive = json!({"type": "adaptive"});
    assert_eq!(
        rules(&body("claude-opus-4-7", enabled.clone(), json!({"effort": "high"}))),
        ["ANT-34 \"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior."]
    );
    assert_eq!(
        rules(&body("claude-opus-4-6", enabled, json!({"effort": "max"}))),
        Vec::<String>::new()
    );
    assert_eq!(
        rules(&body(
            "claude-sonnet-4-5",
            adaptive.clone(),
            json!({"effort": "high"})
        )),
        [
            "ANT-34 adaptive thinking is not supported on this model",
            "ANT-41 This model does not support the effort parameter."
        ]
    );
    assert_eq!(
        rules(&body(
            "claude-sonnet-4-6",
            adaptive,
            json!({"effort": "xhigh"})
        )),
        ["ANT-41 output_config.effort: Input should be 'low', 'medium', 'high', 'max'"]
    );
}

#[test]
fn effort_is_a_closed_set() {
    let e = render(
        &transcript(),
        &options("claude-opus-4-7", true, None, Some("turbo")),
    )
    .unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidValue, "$.thinking.effort")
    );
    let e = render(&transcript(), &{
        let mut o = options("gpt-5.2", true, None, Some("extreme"));
        o.provider = Provider::OpenAiResponses;
        o
    })
    .unwrap_err();
    assert_eq!(e.path(), "$.thinking.effort");
}

#[test]
fn adaptive_thinking_and_effort_import_and_render_back_byte_for_byte() {
    for (model, budget) in [
        ("claude-opus-4-7", None),
        ("claude-opus-4-6", None),
        ("claude-opus-4-6", Some(4096)),
        ("claude-sonnet-4-5", Some(2048)),
    ] {
        let o = options(model, true, budget, Some("high"));
        let body = render(&transcript(), &o).unwrap().body;
        let imported =
            from_request_body(Provider::Anthropic, &body, &ImportSource::default()).unwrap();
        let back = imported.options.unwrap();
        assert_eq!(
            render(&imported.transcript, &back).unwrap().body,
            body,
            "{model} {budget:?}"
        );
    }
    // effort without thinking: thinking stays off, the effort is kept
    let body = render(
        &transcript(),
        &options("claude-opus-4-7", false, None, Some("low")),
    )
    .unwrap()
    .body;
    assert_eq!(body.get("thinking"), None);
    let imported = from_request_body(Provider::Anthropic, &body, &ImportSource::default()).unwrap();
    let back = imported.options.unwrap();
    assert_eq!(
        back.thinking
            .as_ref()
            .map(|t| (t.enabled, t.effort.clone())),
        Some((false, Some("low".into())))
    );
    assert_eq!(render(&imported.transcript, &back).unwrap().body, body);
}

fn gemini(model: &str, budget: Option<u32>, effort: Option<&str>) -> RenderOptions {
    let mut o = RenderOptions::new(Provider::Gemini, model);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: budget,
        effort: effort.map(String::from),
        summary: None,
    });
    o
}

fn gemini_rules(body: &Value, model: &str) -> Vec<String> {
    turnwire::providers::gemini::validate::validate_with_model(body, Some(model))
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.message))
        .collect()
}

#[test]
fn gemini_3_gets_a_thinking_level_from_effort_and_gemini_2_5_a_budget() {
    for (model, levels) in [
        ("gemini-3-pro-preview", "LOW HIGH"),
        ("gemini-3.1-pro-preview", "LOW MEDIUM HIGH"),
        ("gemini-3-flash-preview", "MINIMAL LOW MEDIUM HIGH"),
        ("gemini-3.8-flash", "LOW MEDIUM HIGH"),
        ("gemini-3.6-flash", "MINIMAL LOW MEDIUM HIGH"),
        ("gemini-2.5-pro", ""),
        ("gemini-2.5-flash", ""),
    ] {
        for budget in [None, Some(2048)] {
            for effort in [None, Some("minimal"), Some("medium"), Some("max")] {
                let r = render(&transcript(), &gemini(model, budget, effort)).unwrap();
                let at = format!("{model} budget={budget:?} effort={effort:?}");
                assert_eq!(gemini_rules(&r.body, model), Vec::<String>::new(), "{at}");
                let config = r.body.pointer("/generationConfig/thinkingConfig").unwrap();
                assert_eq!(config["includeThoughts"], json!(true), "{at}");
                let level = config.get("thinkingLevel").and_then(Value::as_str);
                let has_budget = config.get("thinkingBudget").is_some();
                if levels.is_empty() {
                    assert_eq!((level, has_budget), (None, true), "{at}");
                } else {
                    assert_eq!(level.is_some(), effort.is_some(), "{at}");
                    assert_eq!(has_budget, effort.is_none() && budget.is_some(), "{at}");
                    if let Some(l) = level {
                        assert!(levels.split(' ').any(|x| x == l), "{at}: {l}");
                    }
                }
                let noted = r
                    .diagnostics
                    .iter()
                    .any(|d| d.path.as_deref() == Some("$.thinking.effort"));
                let sent_as_asked = level
                    .zip(effort)
                    .is_some_and(|(l, e)| l.eq_ignore_ascii_case(e));
                assert_eq!(noted, effort.is_some() && !sent_as_asked, "{at}");
            }
        }
    }
    let level = |model: &str, effort: &str| {
        render(&transcript(), &gemini(model, None, Some(effort)))
            .unwrap()
            .body
            .pointer("/generationConfig/thinkingConfig/thinkingLevel")
            .cloned()
    };
    assert_eq!(level("gemini-3-pro-preview", "medium"), Some(json!("LOW")));
    assert_eq!(
        level("gemini-3.1-pro-preview", "medium"),
        Some(json!("MEDIUM"))
    );
    assert_eq!(
        level("gemini-3-flash-preview", "none"),
        Some(json!("MINIMAL"))
    );
    assert_eq!(level("gemini-3-pro-preview", "xhigh"), Some(json!("HIGH")));
}

#[test]
fn gem_14_refuses_both_switches_and_levels_a_model_does_not_take() {
    let body = |config: Value| json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}], "generationConfig": {"thinkingConfig": config}});
    assert_eq!(
        gemini_rules(
            &body(json!({"thinkingLevel": "HIGH", "thinkingBudget": 1024})),
            "gemini-3-pro-preview"
        ),
        ["GEM-14 You can only set only one of thinking budget and thinking level."]
    );
    assert_eq!(
        gemini_rules(&body(json!({"thinkingLevel": "MEDIUM"})), "gemini-3-pro-preview"),
        ["GEM-14 Thinking level MEDIUM is not supported for this model. Please retry with other thinking level."]
    );
    assert_eq!(
        gemini_rules(&body(json!({"thinkingLevel": "LOW"})), "gemini-2.5-pro"),
        ["GEM-14 Thinking level is not supported for this model."]
    );
    assert_eq!(
        gemini_rules(
            &body(json!({"thinkingLevel": "medium"})),
            "gemini-3.1-pro-preview"
        ),
        Vec::<String>::new()
    );
}

#[test]
fn a_gemini_thinking_level_imports_as_effort_and_renders_back() {
    let body = render(
        &transcript(),
        &gemini("gemini-3.1-pro-preview", None, Some("medium")),
    )
    .unwrap()
    .body;
    let source = ImportSource {
        model: Some("gemini-3.1-pro-preview".into()),
        ..ImportSource::default()
    };
    let imported = from_request_body(Provider::Gemini, &body, &source).unwrap();
    let back = imported.options.unwrap();
    assert_eq!(
        back.thinking.as_ref().and_then(|t| t.effort.as_deref()),
        Some("medium")
    );
    assert_eq!(render(&imported.transcript, &back).unwrap().body, body);
}

#[test]
fn summary_becomes_each_providers_setting_or_is_reported() {
    let with = |provider: Provider, model: &str, summary: &str| {
        let mut o = RenderOptions::new(provider, model);
        o.max_tokens = Some(16_000);
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: None,
            effort: None,
            summary: Some(summary.into()),
        });
        render(&transcript(), &o).unwrap()
    };
    let a = with(Provider::Anthropic, "claude-opus-4-7", "none");
    assert_eq!(
        a.body["thinking"],
        json!({"type": "adaptive", "display": "omitted"})
    );
    assert_eq!(
        with(Provider::Anthropic, "claude-opus-4-6", "concise").body["thinking"]["display"],
        "summarized"
    );
    let budget = with(Provider::Anthropic, "claude-sonnet-4-5", "none");
    assert_eq!(budget.body["thinking"]["type"], "enabled");
    assert!(budget
        .diagnostics
        .iter()
        .any(|d| d.path.as_deref() == Some("$.thinking.summary")));
    let r = with(Provider::OpenAiResponses, "gpt-5.2", "detailed");
    assert_eq!(r.body["reasoning"]["summary"], "detailed");
    assert!(
        with(Provider::OpenAiResponses, "gpt-5.2", "none").body["reasoning"]
            .get("summary")
            .is_none()
    );
    assert_eq!(
        with(Provider::Gemini, "gemini-3-pro-preview", "none").body["generationConfig"]
            ["thinkingConfig"]["includeThoughts"],
        false
    );
    let chat = with(Provider::OpenAiChat, "gpt-5.2", "detailed");
    assert!(chat
        .diagnostics
        .iter()
        .any(|d| d.path.as_deref() == Some("$.thinking.summary")));
    for (p, m) in [
        (Provider::Anthropic, "claude-opus-4-7"),
        (Provider::OpenAiResponses, "gpt-5.2"),
    ] {
        let out = with(p, m, "detailed");
        assert_eq!(validate_request(p, &out.body).len(), 0, "{p}");
        // and it imports back to the same body
        let imported = from_request_body(p, &out.body, &ImportSource::default()).unwrap();
        assert_eq!(
            render(&imported.transcript, &imported.options.unwrap())
                .unwrap()
                .body,
            out.body,
            "{p}"
        );
    }
    let mut bad = RenderOptions::new(Provider::Anthropic, "claude-opus-4-7");
    bad.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: None,
        summary: Some("full".into()),
    });
    assert_eq!(
        render(&transcript(), &bad).unwrap_err().path(),
        "$.thinking.summary"
    );
}
