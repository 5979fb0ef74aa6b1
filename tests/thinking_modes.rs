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

// ---------------------------------------------------------------------------------------------
// Issue 31: the chat family (Kimi, DeepSeek, Mistral, xAI behind `openai-compatible`).

/// A Kimi tool loop of `turns` steps, each with the model's reasoning, ending with a result.
fn kimi_loop(model: &str, turns: usize) -> Transcript {
    let mut msgs = vec![
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "fix the failing test"}]}),
    ];
    for i in 0..turns {
        msgs.push(json!({"speaker": "ai", "metadata": {"provider": "kimi", "model": model},
            "blocks": [
                {"type": "thinking", "thought": format!("step {i}: read the next file")},
                {"type": "tool_call", "id": format!("functions.read:{i}"), "name": "read", "parameters": {"path": format!("src/{i}.rs")}}
            ]}));
        msgs.push(json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": format!("functions.read:{i}"), "toolName": "read", "result": "fn main() {}"}]}));
    }
    Transcript::from_value(&json!(msgs)).unwrap()
}

/// The strict validator's findings (`rule message`) on a one-message body with this effort.
fn effort_rules(provider: Provider, model: &str, effort: &str) -> Vec<String> {
    let body = json!({"model": model, "reasoning_effort": effort,
                      "messages": [{"role": "user", "content": "hi"}]});
    validate_request(provider, &body)
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.message))
        .collect()
}

fn chat_options(
    provider: Provider,
    model: &str,
    thinking: Option<(bool, Option<&str>)>,
) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.thinking = thinking.map(|(enabled, effort)| ThinkingOptions {
        enabled,
        budget_tokens: None,
        effort: effort.map(String::from),
        summary: None,
    });
    o
}

/// Renders, checks the body with the provider's strict validator and returns it with the paths
/// of the thinking notes.
fn chat_render(o: &RenderOptions, t: &Transcript) -> (Value, Vec<String>) {
    let r = render(t, o).unwrap();
    let problems: Vec<String> = validate_request(o.provider, &r.body)
        .into_iter()
        .map(|v| format!("{} {} {}", v.rule, v.path, v.message))
        .collect();
    assert_eq!(
        problems,
        Vec::<String>::new(),
        "{} {:?}",
        o.model,
        o.thinking
    );
    let notes = r
        .diagnostics
        .iter()
        .filter(|d| {
            d.path
                .as_deref()
                .is_some_and(|p| p.starts_with("$.thinking"))
        })
        .map(|d| d.message.clone())
        .collect();
    (r.body, notes)
}

#[test]
fn kim_10_k2_6_thinking_keeps_every_historical_reasoning_content() {
    let t = kimi_loop("kimi-k2.6", 3);
    for thinking in [None, Some((true, None))] {
        let (body, _) = chat_render(&chat_options(Provider::Kimi, "kimi-k2.6", thinking), &t);
        assert_eq!(body["thinking"], json!({"type": "enabled", "keep": "all"}));
        let reasoning: Vec<&str> = body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|m| m.get("reasoning_content").and_then(Value::as_str))
            .collect();
        assert_eq!(
            reasoning,
            [
                "step 0: read the next file",
                "step 1: read the next file",
                "step 2: read the next file"
            ]
        );
    }
    // Thinking off: the switch says so, without `keep`.
    let off = chat_options(Provider::Kimi, "kimi-k2.6", Some((false, None)));
    assert_eq!(
        chat_render(&off, &t).0["thinking"],
        json!({"type": "disabled"})
    );
}

#[test]
fn kim_10_keep_only_to_k2_6_and_never_an_effort_beside_the_switch() {
    let t = kimi_loop("kimi-k2.5", 2);
    let o = chat_options(Provider::Kimi, "kimi-k2.5", Some((true, Some("high"))));
    let (body, notes) = chat_render(&o, &t);
    assert_eq!(body["thinking"], json!({"type": "enabled"}));
    assert!(body.get("reasoning_effort").is_none());
    assert_eq!(notes.len(), 1, "{notes:?}");
    let o = chat_options(Provider::Kimi, "kimi-k2.6", Some((true, Some("max"))));
    let (body, notes) = chat_render(&o, &t);
    assert!(body.get("reasoning_effort").is_none());
    assert_eq!(notes.len(), 1, "{notes:?}");
    // the validator: `keep` to K2.5, and `thinking` with `reasoning_effort`
    let b = json!({"model": "kimi-k2.5", "thinking": {"type": "enabled", "keep": "all"}, "reasoning_effort": "high",
                   "messages": [{"role": "user", "content": "hi"}]});
    let rules: Vec<String> = validate_request(Provider::Kimi, &b)
        .into_iter()
        .map(|v| format!("{} {} {}", v.rule, v.path, v.message))
        .collect();
    assert_eq!(
        rules,
        [
            "KIM-10 $.thinking.keep thinking.keep is not supported for model kimi-k2.5; only kimi-k2.6 takes it",
            "KIM-10 $.reasoning_effort cannot specify both 'thinking' and 'reasoning_effort'"
        ]
    );
}

#[test]
fn kim_11_k3_takes_a_top_level_effort_and_no_thinking_parameter() {
    let t = kimi_loop("kimi-k3", 2);
    let sent = |thinking| {
        let (body, notes) = chat_render(&chat_options(Provider::Kimi, "kimi-k3", thinking), &t);
        assert!(body.get("thinking").is_none(), "{body}");
        // K3 always reasons: every tool-call message keeps its reasoning
        for m in body["messages"].as_array().unwrap() {
            if m.get("tool_calls").is_some() {
                assert!(m["reasoning_content"]
                    .as_str()
                    .is_some_and(|r| !r.is_empty()));
            }
        }
        (body.get("reasoning_effort").cloned(), notes.len())
    };
    assert_eq!(sent(None), (None, 0));
    assert_eq!(sent(Some((true, None))), (None, 0));
    assert_eq!(sent(Some((true, Some("max")))), (Some(json!("max")), 0));
    assert_eq!(sent(Some((true, Some("low")))), (Some(json!("low")), 0));
    assert_eq!(sent(Some((true, Some("xhigh")))), (Some(json!("high")), 1));
    assert_eq!(sent(Some((true, Some("medium")))), (Some(json!("low")), 1));
    // thinking off cannot be sent to a model that always reasons
    assert_eq!(sent(Some((false, None))), (None, 1));
    let b = json!({"model": "kimi-k3", "thinking": {"type": "enabled"}, "reasoning_effort": "medium",
                   "messages": [{"role": "user", "content": "hi"}]});
    let rules: Vec<&str> = validate_request(Provider::Kimi, &b)
        .iter()
        .map(|v| v.rule)
        .collect();
    assert_eq!(rules, ["KIM-11", "KIM-11"]);
}

#[test]
fn kim_11_k2_7_code_is_never_sent_thinking_disabled() {
    let t = kimi_loop("kimi-k2.7-code", 1);
    let o = chat_options(Provider::Kimi, "kimi-k2.7-code", Some((false, None)));
    let (body, notes) = chat_render(&o, &t);
    assert!(body.get("thinking").is_none());
    assert_eq!(notes.len(), 1);
    assert!(body["messages"][1]["reasoning_content"].is_string());
    let b = json!({"model": "kimi-k2.7-code-highspeed", "thinking": {"type": "disabled"},
                   "messages": [{"role": "user", "content": "hi"}]});
    let rules: Vec<String> = validate_request(Provider::Kimi, &b)
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.path))
        .collect();
    assert_eq!(rules, ["KIM-11 $.thinking.type"]);
}

#[test]
fn dsk_10_v4_models_effort_high_or_max_and_thinking_on_by_default() {
    use turnwire::context_window;
    for model in ["deepseek-v4-flash", "deepseek-v4-pro"] {
        let caps = capabilities(Provider::DeepSeek, model).unwrap();
        assert_eq!(caps.max_output_tokens, Some(384_000));
        assert_eq!(caps.efforts, ["high", "max"]);
        assert_eq!(context_window(Provider::DeepSeek, model), Some(1_000_000));
        for (asked, want) in [
            ("minimal", "high"),
            ("low", "high"),
            ("medium", "high"),
            ("high", "high"),
            ("xhigh", "max"),
            ("max", "max"),
        ] {
            let o = chat_options(Provider::DeepSeek, model, Some((true, Some(asked))));
            let (body, notes) = chat_render(&o, &transcript());
            assert_eq!(body["thinking"], json!({"type": "enabled"}));
            assert_eq!(body["reasoning_effort"], json!(want), "{model} {asked}");
            assert_eq!(notes.len(), usize::from(asked != want), "{model} {asked}");
        }
        // no thinking: said explicitly, since V4 thinks by default; no effort
        let o = chat_options(Provider::DeepSeek, model, Some((false, Some("high"))));
        let (body, notes) = chat_render(&o, &transcript());
        assert_eq!(body["thinking"], json!({"type": "disabled"}));
        assert!(body.get("reasoning_effort").is_none());
        assert_eq!(notes.len(), 1);
    }
    // The validator takes a V4 body without `thinking` as thinking (DeepSeek's default).
    let b = json!({"model": "deepseek-v4-pro", "messages": [
        {"role": "user", "content": "ls"},
        {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "a.txt"}
    ], "reasoning_effort": "minimal"});
    let rules: Vec<&str> = validate_request(Provider::DeepSeek, &b)
        .iter()
        .map(|v| v.rule)
        .collect();
    assert_eq!(rules, ["DSK-03", "DSK-10"]);
}

#[test]
fn mis_09_mistral_adjustable_models_take_none_or_high() {
    for model in [
        "mistral-medium-2604",
        "mistral-medium-3-5",
        "mistral-medium-latest",
        "mistral-small-2603",
    ] {
        let sent = |thinking| {
            let (body, notes) = chat_render(
                &chat_options(Provider::Mistral, model, thinking),
                &transcript(),
            );
            (body.get("reasoning_effort").cloned(), notes.len())
        };
        assert_eq!(sent(None), (None, 0));
        assert_eq!(sent(Some((true, None))), (Some(json!("high")), 0));
        assert_eq!(sent(Some((true, Some("high")))), (Some(json!("high")), 0));
        assert_eq!(sent(Some((true, Some("low")))), (Some(json!("high")), 1));
        assert_eq!(sent(Some((true, Some("none")))), (Some(json!("none")), 0));
        assert_eq!(sent(Some((false, None))), (Some(json!("none")), 0));
    }
    // Other Mistral models take no effort (400 `reasoning_effort is not enabled for this model`).
    let o = chat_options(
        Provider::Mistral,
        "mistral-large-latest",
        Some((true, Some("high"))),
    );
    let (body, notes) = chat_render(&o, &transcript());
    assert!(body.get("reasoning_effort").is_none());
    assert_eq!(notes.len(), 1);
    let rules = |model: &str, effort: &str| effort_rules(Provider::Mistral, model, effort);
    assert_eq!(
        rules("mistral-large-latest", "high"),
        ["MIS-09 reasoning_effort is not enabled for this model"]
    );
    assert_eq!(
        rules("mistral-medium-2604", "medium"),
        ["MIS-09 reasoning_effort must be one of: none, high"]
    );
    assert_eq!(rules("mistral-medium-2604", "none"), Vec::<String>::new());
}

#[test]
fn xai_02_effort_only_on_the_allow_list_at_the_models_levels() {
    let sent = |model: &str, effort: &str| {
        let o = chat_options(
            Provider::OpenAiCompatible,
            model,
            Some((true, Some(effort))),
        );
        let (body, notes) = chat_render(&o, &transcript());
        (body.get("reasoning_effort").cloned(), notes)
    };
    assert_eq!(sent("grok-4.3", "high").0, Some(json!("high")));
    assert_eq!(sent("grok-4.3", "none").0, Some(json!("none")));
    let (effort, notes) = sent("grok-4.3", "xhigh");
    assert_eq!((effort, notes.len()), (Some(json!("high")), 1));
    assert_eq!(sent("x-ai/grok-4.3", "minimal").0, Some(json!("low")));
    assert_eq!(
        sent("grok-4.20-multi-agent-0309", "max").0,
        Some(json!("xhigh"))
    );
    assert_eq!(sent("grok-3-mini-fast", "high").0, Some(json!("high")));
    assert_eq!(sent("grok-3-mini", "medium").0, Some(json!("low")));
    for model in [
        "grok-4-0709",
        "grok-4-1-fast-reasoning",
        "grok-4.20-0309-reasoning",
        "grok-code-fast-1",
        "grok-3",
    ] {
        let (effort, notes) = sent(model, "high");
        assert_eq!(effort, None, "{model}");
        assert_eq!(notes.len(), 1, "{model}");
        assert!(
            notes[0].contains(&format!(
                "Model {model} does not support parameter reasoningEffort"
            )),
            "{notes:?}"
        );
    }
    // thinking off: `none` where the model has it
    let o = chat_options(Provider::OpenAiCompatible, "grok-4.3", Some((false, None)));
    assert_eq!(
        chat_render(&o, &transcript()).0["reasoning_effort"],
        json!("none")
    );
    let rules = |model: &str, effort: &str| effort_rules(Provider::OpenAiCompatible, model, effort);
    assert_eq!(
        rules("grok-4-0709", "high"),
        ["XAI-02 Model grok-4-0709 does not support parameter reasoningEffort"]
    );
    assert_eq!(
        rules("grok-4.3", "xhigh"),
        ["XAI-02 reasoningEffort for model grok-4.3 must be one of: none, low, medium, high"]
    );
    assert_eq!(
        rules("grok-4.20-multi-agent-0309", "xhigh"),
        Vec::<String>::new()
    );
    assert_eq!(
        rules("llama-3.3-70b-versatile", "high"),
        Vec::<String>::new()
    );
}

/// Found by the fuzzer: thinking off is not sent to a model that always thinks (KIM-11), so its
/// request keeps a thinking model's output room, and the body read back renders the same bytes.
#[test]
fn kim_11_thinking_off_to_a_model_that_always_thinks_keeps_its_output_room() {
    let o = chat_options(Provider::Kimi, "kimi-k2-thinking", Some((false, None)));
    let r = render(&transcript(), &o).unwrap();
    assert_eq!(r.body["max_tokens"], json!(32_768));
    let source = ImportSource {
        model: Some(o.model.clone()),
        endpoint: None,
        host: None,
        account: None,
    };
    let imported = from_request_body(Provider::Kimi, &r.body, &source).unwrap();
    let again = render(&imported.transcript, &imported.options.unwrap()).unwrap();
    assert_eq!(again.body, r.body);
}

/// OAC-11 / ORS-22: OpenAI's `max` effort (openai-node 6.49.0 `ReasoningEffort`) goes to
/// gpt-5.6 and later as `max`; every other OpenAI model gets the nearest level it takes, with
/// a note, and the validators refuse a level the model does not take with the API's text.
#[test]
fn oac_11_ors_22_max_effort_only_from_gpt_5_6_elsewhere_the_nearest_level() {
    let sent = |provider: Provider, model: &str, effort: Option<&str>| {
        let o = chat_options(provider, model, Some((true, effort)));
        let (body, notes) = chat_render(&o, &transcript());
        let effort = match provider {
            Provider::OpenAiChat => body.get("reasoning_effort").cloned(),
            _ => body["reasoning"].get("effort").cloned(),
        };
        (effort, notes.len())
    };
    for provider in [Provider::OpenAiChat, Provider::OpenAiResponses] {
        for model in ["gpt-5.6", "gpt-5.6-sol", "gpt-5.6-codex", "openai/gpt-6"] {
            assert_eq!(
                sent(provider, model, Some("max")),
                (Some(json!("max")), 0),
                "{provider} {model}"
            );
        }
        for (model, level) in [
            ("gpt-5.5", "xhigh"),
            ("gpt-5.2", "xhigh"),
            ("gpt-5.3-codex", "xhigh"),
            ("gpt-5.1", "high"),
            ("gpt-5-mini", "high"),
            ("gpt-5-pro", "high"),
            ("o3", "high"),
        ] {
            assert_eq!(
                sent(provider, model, Some("max")),
                (Some(json!(level)), 1),
                "{provider} {model}"
            );
        }
        // `minimal` is refused from gpt-5.2 on: the nearest level above it
        assert_eq!(
            sent(provider, "gpt-5.6-luna", Some("minimal")),
            (Some(json!("low")), 1)
        );
        // a model whose levels are not known: as given
        assert_eq!(
            sent(provider, "gpt-5.1-codex-mini", Some("max")),
            (Some(json!("max")), 0)
        );
    }
    // Responses' default effort (`medium`) is one gpt-5-pro takes: `high`, without a note
    assert_eq!(
        sent(Provider::OpenAiResponses, "gpt-5-pro", None),
        (Some(json!("high")), 0)
    );
    let chat = |model: &str, effort: &str| effort_rules(Provider::OpenAiChat, model, effort);
    assert_eq!(
        chat("gpt-5.5", "max"),
        ["OAC-11 Unsupported value: 'reasoning_effort' does not support 'max' with this model. Supported values are: 'none', 'low', 'medium', 'high', and 'xhigh'."]
    );
    assert_eq!(chat("gpt-5.6-terra", "max"), Vec::<String>::new());
    assert_eq!(chat("gpt-4.1", "max"), Vec::<String>::new());
    let responses = |model: &str, effort: &str| -> Vec<String> {
        let body = json!({"model": model, "reasoning": {"effort": effort}, "input": "hi"});
        validate_request(Provider::OpenAiResponses, &body)
            .into_iter()
            .map(|v| format!("{} {}", v.rule, v.message))
            .collect()
    };
    assert_eq!(responses("gpt-5.6", "max"), Vec::<String>::new());
    assert_eq!(
        responses("o4-mini", "max"),
        ["ORS-22 Unsupported value: 'reasoning.effort' does not support 'max' with this model. Supported values are: 'low', 'medium', and 'high'."]
    );
}
