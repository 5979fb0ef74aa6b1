//! Issue 14, point 1: `toolChoice` and `stopSequences`. Each provider rule the strict
//! validators gained (docs/provider-rules-added.md §8) refuses the body a provider refuses, and
//! every render of the options passes its validator for all eight providers, whatever the
//! thinking setting and however many stop sequences.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{
    render, validate_request, DiagnosticCode, ErrorCode, Provider, RenderOptions, ThinkingOptions,
    ToolChoice, ToolDeclaration, Transcript,
};

fn rules(provider: Provider, body: &Value) -> Vec<&'static str> {
    validate_request(provider, body)
        .iter()
        .map(|v| v.rule)
        .collect()
}

fn user() -> Value {
    json!([{"role": "user", "content": "hi"}])
}

#[test]
fn anthropic_refuses_a_forced_choice_with_thinking_a_choice_without_tools_and_blank_stops() {
    let tool = json!([{"name": "f", "input_schema": {"type": "object"}}]);
    let forced = json!({"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": user(),
        "tools": tool, "tool_choice": {"type": "any"},
        "thinking": {"type": "enabled", "budget_tokens": 1024}});
    assert_eq!(rules(Provider::Anthropic, &forced), ["ANT-36"]);
    let no_tools = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": user(),
        "tool_choice": {"type": "auto"}});
    assert_eq!(rules(Provider::Anthropic, &no_tools), ["ANT-37"]);
    let stops = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": user(),
        "stop_sequences": ["ok", "", "\n"]});
    assert_eq!(rules(Provider::Anthropic, &stops), ["ANT-38", "ANT-38"]);
    let fine = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": user(),
        "tools": tool, "tool_choice": {"type": "tool", "name": "f"}, "stop_sequences": ["END"]});
    assert!(rules(Provider::Anthropic, &fine).is_empty());
}

#[test]
fn chat_dialects_check_the_choice_shape_and_their_own_stop_limits() {
    let tool = json!([{"type": "function", "function": {"name": "f"}}]);
    let anthropic_shape = json!({"model": "gpt-4.1", "messages": user(), "tools": tool,
        "tool_choice": {"type": "tool", "name": "f"}});
    assert_eq!(rules(Provider::OpenAiChat, &anthropic_shape), ["OAC-16"]);
    let no_tools = json!({"model": "gpt-4.1", "messages": user(), "tool_choice": "required"});
    assert_eq!(rules(Provider::OpenAiChat, &no_tools), ["OAC-16"]);
    let any = json!({"model": "m", "messages": user(), "tools": tool, "tool_choice": "any"});
    assert_eq!(rules(Provider::OpenAiChat, &any), ["OAC-STRUCT"]);
    assert!(rules(Provider::Mistral, &any).is_empty());
    let five = json!({"model": "gpt-4.1", "messages": user(), "stop": ["a", "b", "c", "d", "e"]});
    assert_eq!(rules(Provider::OpenAiChat, &five), ["OAC-17"]);
    assert!(rules(
        Provider::DeepSeek,
        &json!({"model": "deepseek-chat", "messages": user(), "stop": ["a", "b", "c", "d", "e"]})
    )
    .is_empty());
    let long =
        json!({"model": "kimi-k2-0905-preview", "messages": user(), "stop": ["x".repeat(33)]});
    assert_eq!(rules(Provider::Kimi, &long), ["OAC-17"]);
    let reasoning = json!({"model": "o3", "messages": user(), "stop": ["END"]});
    assert_eq!(rules(Provider::OpenAiChat, &reasoning), ["OAC-18"]);
}

#[test]
fn kimi_and_deepseek_refuse_a_forced_choice_while_thinking() {
    let tool = json!([{"type": "function", "function": {"name": "f"}}]);
    let kimi = json!({"model": "kimi-k2.6", "messages": user(), "tools": tool,
        "tool_choice": {"type": "function", "function": {"name": "f"}}});
    assert_eq!(rules(Provider::Kimi, &kimi), ["KIM-09"]);
    let mut off = kimi.clone();
    off["thinking"] = json!({"type": "disabled"});
    assert!(rules(Provider::Kimi, &off).is_empty());
    let deepseek = json!({"model": "deepseek-v4-pro", "messages": user(), "tools": tool,
        "tool_choice": "required"});
    assert_eq!(rules(Provider::DeepSeek, &deepseek), ["DSK-07"]);
    let mut off = deepseek.clone();
    off["thinking"] = json!({"type": "disabled"});
    assert!(rules(Provider::DeepSeek, &off).is_empty());
    let chat = json!({"model": "deepseek-chat", "messages": user(), "tools": tool, "tool_choice": "required"});
    assert!(rules(Provider::DeepSeek, &chat).is_empty());
}

#[test]
fn responses_and_gemini_check_their_own_shapes() {
    let tool = json!([{"type": "function", "name": "f", "parameters": {"type": "object"}, "strict": false}]);
    let input = json!([{"role": "user", "content": "hi"}]);
    let nested = json!({"model": "gpt-5.2", "input": input, "tools": tool,
        "tool_choice": {"type": "function", "function": {"name": "f"}}});
    assert_eq!(rules(Provider::OpenAiResponses, &nested), ["ORS-14"]);
    let undeclared = json!({"model": "gpt-5.2", "input": input, "tools": tool,
        "tool_choice": {"type": "function", "name": "g"}});
    assert_eq!(rules(Provider::OpenAiResponses, &undeclared), ["ORS-14"]);
    let stop = json!({"model": "gpt-5.2", "input": input, "stop": ["END"]});
    assert_eq!(rules(Provider::OpenAiResponses, &stop), ["ORS-15"]);
    let contents = json!([{"role": "user", "parts": [{"text": "hi"}]}]);
    let config =
        json!({"contents": contents, "toolConfig": {"functionCallingConfig": {"mode": "ANY"}}});
    assert_eq!(rules(Provider::Gemini, &config), ["GEM-19"]);
    let auto_names = json!({"contents": contents,
        "tools": [{"functionDeclarations": [{"name": "f"}]}],
        "toolConfig": {"functionCallingConfig": {"mode": "AUTO", "allowedFunctionNames": ["f", "g"]}}});
    assert_eq!(rules(Provider::Gemini, &auto_names), ["GEM-19", "GEM-19"]);
    let six = json!({"contents": contents, "generationConfig": {"stopSequences": ["a", "b", "c", "d", "e", "f"]}});
    assert_eq!(rules(Provider::Gemini, &six), ["GEM-20"]);
}

fn transcript() -> Transcript {
    Transcript::from_json(
        r#"[{"speaker":"human","blocks":[{"type":"text","text":"list the root"}]},
            {"speaker":"ai","metadata":{"provider":"anthropic","model":"claude-sonnet-4-5"},"blocks":[
              {"type":"thinking","thought":"list it","signature":"sig"},
              {"type":"tool_call","id":"c1","name":"list_dir","parameters":{"path":"."}}]},
            {"speaker":"tool","blocks":[{"type":"tool_response","callId":"c1","result":["a"]}]}]"#,
    )
    .unwrap()
}

/// Every choice, with thinking on and off, and a long list of stop sequences: every render
/// passes the provider's strict validator, and what could not be sent is a diagnostic.
#[test]
fn every_choice_and_stop_list_renders_a_body_every_validator_accepts() {
    let choices = [
        ToolChoice::Auto,
        ToolChoice::None,
        ToolChoice::Required,
        ToolChoice::Tool("read_file".into()),
    ];
    let models = |p: Provider| -> Vec<&'static str> {
        match p {
            Provider::Kimi => vec!["kimi-k2-thinking", "kimi-k2.6", "kimi-k2-0905-preview"],
            Provider::DeepSeek => vec!["deepseek-reasoner", "deepseek-v4-pro", "deepseek-chat"],
            Provider::OpenAiChat => vec!["gpt-5.2", "gpt-4.1", "o3"],
            other => vec![other.reference_model()],
        }
    };
    let mut renders = 0;
    for provider in Provider::ALL {
        for model in models(provider) {
            for choice in &choices {
                for thinking in [None, Some(true), Some(false)] {
                    let mut o = RenderOptions::new(provider, model);
                    o.max_tokens = Some(8192);
                    o.tools = vec![
                        ToolDeclaration::new("read_file", "Read", json!({"type": "object"})),
                        ToolDeclaration::new("list_dir", "List", json!({"type": "object"})),
                    ];
                    o.tool_choice = Some(choice.clone());
                    o.thinking = thinking.map(|enabled| ThinkingOptions {
                        enabled,
                        budget_tokens: Some(2048),
                        effort: None,
                        summary: None,
                    });
                    o.stop_sequences = ["END", "", " ", "a", "b", "c", "d", "e", "f"]
                        .map(String::from)
                        .to_vec();
                    let out = render(&transcript(), &o).unwrap();
                    let v = validate_request(provider, &out.body);
                    assert!(
                        v.is_empty(),
                        "{provider} {model} {choice} {thinking:?}: {v:?}\n{:#}",
                        out.body
                    );
                    assert!(out
                        .diagnostics
                        .iter()
                        .any(|d| d.code == DiagnosticCode::StopSequencesAdjusted));
                    renders += 1;
                }
            }
        }
    }
    assert_eq!(renders, 4 * 3 * (Provider::ALL.len() - 3 + 3 * 3));
}

#[test]
fn a_forced_choice_nothing_can_satisfy_is_an_error_naming_the_option() {
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.tool_choice = Some(ToolChoice::Required);
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidValue, "$.toolChoice")
    );
    o.tools = vec![ToolDeclaration::new(
        "list_dir",
        "List",
        json!({"type": "object"}),
    )];
    o.tool_choice = Some(ToolChoice::Tool("read_file".into()));
    let e = render(&transcript(), &o).unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidValue, "$.toolChoice.name")
    );
    let o = RenderOptions::from_json(
        r#"{"provider":"gemini","model":"gemini-2.5-pro","toolChoice":"any"}"#,
    );
    let e = o.unwrap_err();
    assert!(
        e.message().contains("toolChoice must be"),
        "{}",
        e.message()
    );
}

/// The options also reach `extra`'s guard: the fields they own cannot be set there.
#[test]
fn extra_may_not_set_the_fields_the_controls_own() {
    for (provider, field) in [
        (Provider::Anthropic, "tool_choice"),
        (Provider::Anthropic, "stop_sequences"),
        (Provider::OpenAiChat, "stop"),
        (Provider::OpenAiResponses, "tool_choice"),
        (Provider::Gemini, "toolConfig"),
    ] {
        let mut o = RenderOptions::new(provider, provider.reference_model());
        o.extra.insert(field.into(), json!("x"));
        let e = render(&transcript(), &o).unwrap_err();
        assert_eq!(e.path(), format!("$.extra.{field}"));
    }
}

#[test]
fn structured_output_rules_refuse_what_each_provider_refuses() {
    let schema = json!({"type": "object", "properties": {"a": {"type": "string"}}});
    let old = json!({"model": "claude-3-7-sonnet-latest", "max_tokens": 64, "messages": user(),
        "output_config": {"format": {"type": "json_schema", "schema": schema}}});
    assert_eq!(rules(Provider::Anthropic, &old), ["ANT-39"]);
    let deprecated = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "messages": user(),
        "output_format": {"type": "json_schema", "schema": schema}});
    assert_eq!(rules(Provider::Anthropic, &deprecated), ["ANT-39"]);
    let flat = json!({"model": "gpt-4.1", "messages": user(),
        "response_format": {"type": "json_schema", "name": "a", "schema": schema}});
    assert_eq!(rules(Provider::OpenAiChat, &flat), ["OAC-19"]);
    let loose = json!({"model": "gpt-4.1", "messages": user(),
        "response_format": {"type": "json_schema", "json_schema": {"name": "a b", "schema": schema, "strict": true}}});
    assert_eq!(rules(Provider::OpenAiChat, &loose), ["OAC-19", "OAC-19"]);
    let deepseek = json!({"model": "deepseek-chat", "messages": user(),
        "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}}});
    assert_eq!(rules(Provider::DeepSeek, &deepseek), ["DSK-09"]);
    let tool = json!([{"type": "function", "function": {"name": "f"}}]);
    let mistral = json!({"model": "mistral-large-latest", "messages": user(), "tools": tool, "tool_choice": "any",
        "response_format": {"type": "json_schema", "json_schema": {"name": "a", "schema": schema}}});
    assert_eq!(rules(Provider::Mistral, &mistral), ["MIS-08"]);
    let responses = json!({"model": "gpt-5.2", "input": [{"role": "user", "content": "hi"}],
        "response_format": {"type": "json_object"}, "text": {"format": {"type": "json_schema", "schema": schema}}});
    assert_eq!(
        rules(Provider::OpenAiResponses, &responses),
        ["ORS-16", "ORS-16"]
    );
    let contents = json!([{"role": "user", "parts": [{"text": "hi"}]}]);
    let gemini = json!({"contents": contents, "tools": [{"functionDeclarations": [{"name": "f"}]}],
        "generationConfig": {"responseMimeType": "application/json", "responseJsonSchema": schema}});
    let rules_for = |model: &str| -> Vec<&'static str> {
        turnwire::validate_request_for_model(Provider::Gemini, model, &gemini)
            .iter()
            .map(|v| v.rule)
            .collect()
    };
    assert_eq!(rules_for("gemini-2.5-pro"), ["GEM-15"]);
    assert!(rules_for("gemini-3-pro-preview").is_empty());
    let no_mime = json!({"contents": contents, "generationConfig": {"responseJsonSchema": schema}});
    assert_eq!(rules(Provider::Gemini, &no_mime), ["GEM-21"]);
}

/// Structured output with every tool choice, on every model: always a valid body. Issue 31,
/// "one rule for a feature the target lacks": where the target has no structured output, or
/// Gemini 2.x is asked to call a tool in the same request, the feature is left out with a
/// `feature_unavailable` diagnostic at its option's path, so a failover still goes out.
#[test]
fn unsupported_feature_every_structured_output_render_is_valid_and_reports_what_was_left_out() {
    let format = turnwire::ResponseFormat::JsonSchema {
        name: "listing".into(),
        schema: json!({"type": "object", "properties": {"files": {"type": "array", "items": {"type": "string"}}},
            "required": ["files"], "additionalProperties": false}),
        description: None,
        strict: Some(true),
    };
    let mut left_out = Vec::new();
    let mut renders = 0;
    for provider in Provider::ALL {
        let models: Vec<&str> = match provider {
            Provider::Anthropic => vec![
                "claude-sonnet-4-5",
                "claude-opus-4-6",
                "claude-3-7-sonnet-latest",
            ],
            Provider::Gemini => vec!["gemini-3-pro-preview", "gemini-2.5-pro"],
            other => vec![other.reference_model()],
        };
        for model in models {
            for choice in [
                None,
                Some(ToolChoice::Auto),
                Some(ToolChoice::Required),
                Some(ToolChoice::Tool("read_file".into())),
            ] {
                let mut o = RenderOptions::new(provider, model);
                o.tools = vec![ToolDeclaration::new(
                    "read_file",
                    "Read",
                    json!({"type": "object"}),
                )];
                o.tool_choice = choice;
                o.response_format = Some(format.clone());
                let out = render(&transcript(), &o).unwrap();
                let v = turnwire::validate_request_for_model(provider, model, &out.body);
                assert!(v.is_empty(), "{provider} {model}: {v:?}\n{:#}", out.body);
                renders += 1;
                for d in &out.diagnostics {
                    if d.code.as_str() == "feature_unavailable" {
                        left_out.push(d.path.clone().unwrap_or_default());
                    }
                }
            }
        }
    }
    assert_eq!(renders, 4 * (Provider::ALL.len() + 3));
    // DeepSeek and Claude 3.7 always lose the format; Gemini 2.5 the two forced choices
    let formats = left_out.iter().filter(|p| *p == "$.responseFormat").count();
    let choices = left_out.iter().filter(|p| *p == "$.toolChoice").count();
    assert_eq!((formats, choices), (4 + 4, 2), "{left_out:?}");
}
