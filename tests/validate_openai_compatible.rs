//! Tests of the strict validator for other OpenAI-compatible servers (provider-rules.md §2, §8).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::openai_compatible::validate::{
    validate, validate_with, CompatRules, IdCharset,
};
use turnwire::{validate_request, Provider, Violation};

fn body(messages: Value) -> Value {
    json!({"model": "llama-3.3-70b-versatile", "messages": messages})
}

fn user(content: Value) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

fn call(id: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": "ls", "arguments": "{}"}})
}

fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids.iter().map(|id| call(id)).collect();
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

fn tool(id: &str, content: &str) -> Value {
    json!({"role": "tool", "tool_call_id": id, "content": content})
}

fn dump(v: &[Violation]) -> String {
    v.iter()
        .map(|v| format!("  {} {} {}", v.rule, v.path, v.message))
        .collect::<Vec<_>>()
        .join("\n")
}

#[track_caller]
fn find(v: &[Violation], rule: &str, path: &str) -> Violation {
    match v.iter().find(|v| v.rule == rule && v.path == path) {
        Some(found) => found.clone(),
        None => panic!("expected {rule} at {path}, got:\n{}", dump(v)),
    }
}

/// Asserts a violation of `rule` at `path` under the default profile and returns it.
#[track_caller]
fn assert_flags(body: &Value, rule: &str, path: &str) -> Violation {
    find(&validate(body), rule, path)
}

#[track_caller]
fn assert_not_flagged_with(body: &Value, rules: &CompatRules, rule: &str) {
    let v = validate_with(body, rules);
    assert!(
        !v.iter().any(|v| v.rule == rule),
        "unexpected {rule}:\n{}",
        dump(&v)
    );
}

#[track_caller]
fn assert_clean_with(body: &Value, rules: &CompatRules) {
    let v = validate_with(body, rules);
    assert!(v.is_empty(), "expected no violations, got:\n{}", dump(&v));
}

#[track_caller]
fn assert_clean(body: &Value) {
    assert_clean_with(body, &CompatRules::default());
}

fn with_reasoning(field: &str) -> CompatRules {
    CompatRules {
        reasoning_field: Some(field.to_string()),
        ..CompatRules::default()
    }
}

// ---------------------------------------------------------------------------------------------
// Realistic body, defaults, dispatch

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "llama-3.3-70b-versatile",
        "temperature": 0.2,
        "tools": [
            {"type": "function", "function": {"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
            {"type": "function", "function": {"name": "screenshot", "parameters": {"type": "object", "properties": {}}}}
        ],
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "Fix the login bug and show me the page."},
            {"role": "assistant", "content": "Reading both files.", "tool_calls": [
                {"id": "call_A1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/login.ts\"}"}},
                {"id": "call_B2", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/auth.ts\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_A1", "content": "export function login() {}"},
            {"role": "tool", "tool_call_id": "call_B2", "content": "export const auth = 1;"},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_C3", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_C3", "content": "Screenshot attached in the next message."},
            {"role": "user", "content": [
                {"type": "text", "text": "Screenshot of /login:"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
            ]},
            {"role": "assistant", "content": "The button is hidden by CSS."},
            {"role": "user", "content": "Thanks!"}
        ]
    });
    assert_clean(&b);
}

#[test]
fn default_rules_are_the_strict_portable_profile() {
    let d = CompatRules::default();
    assert_eq!(d.max_id_len, 40);
    assert_eq!(d.id_charset, IdCharset::AlnumDashUnderscore);
    assert_eq!(d.reasoning_field, None);
    assert!(d.images);
    assert!(d.assistant_content_string_only);
}

#[test]
fn validate_request_dispatches_to_openai_compatible() {
    let b = body(json!([
        user(json!("hi")),
        {"role": "assistant", "content": "hello", "reasoning": "greet"},
        user(json!("bye")),
    ]));
    let v = validate_request(Provider::OpenAiCompatible, &b);
    assert!(v.iter().any(|v| v.rule == "GRQ-01"), "{}", dump(&v));
}

// ---------------------------------------------------------------------------------------------
// OAC rules kept

#[test]
fn oac_rules_pass() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        tool("call_1", "a")
    ]));
    assert_clean(&b);
}

#[test]
fn oac_pairing_and_names_are_kept() {
    let b = body(json!([
        tool("call_0", "orphan"),
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "bad.name", "arguments": "{}"}}
        ]},
        user(json!("hi")),
    ]));
    assert_flags(&b, "OAC-01", "$.messages[0].role");
    assert_flags(&b, "OAC-02", "$.messages[1]");
    assert_flags(&b, "OAC-05", "$.messages[1].tool_calls[0].function.name");
}

// ---------------------------------------------------------------------------------------------
// COMPAT-IDS (replaces OAC-03)

#[test]
fn compat_ids_within_limits_pass() {
    let id = "c".repeat(40);
    let b = body(json!([user(json!("go")), calls(&[&id]), tool(&id, "a")]));
    assert_clean(&b);
}

#[test]
fn compat_ids_too_long_fails_instead_of_oac_03() {
    let id = "toolu_vrtx_01KKqQ4XAbZ1s9kQ2w3e4r5t6y7u8i9o0p";
    let b = body(json!([user(json!("go")), calls(&[id]), tool(id, "a")]));
    let v = assert_flags(&b, "COMPAT-IDS", "$.messages[1].tool_calls[0].id");
    assert!(v.message.contains("maximum length 40"), "{}", v.message);
    assert_flags(&b, "COMPAT-IDS", "$.messages[2].tool_call_id");
    assert!(!validate(&b).iter().any(|v| v.rule == "OAC-03"));
}

#[test]
fn compat_ids_longer_limit_passes() {
    let id = "toolu_vrtx_01KKqQ4XAbZ1s9kQ2w3e4r5t6y7u8i9o0p";
    let rules = CompatRules {
        max_id_len: 64,
        ..CompatRules::default()
    };
    let b = body(json!([user(json!("go")), calls(&[id]), tool(id, "a")]));
    assert_clean_with(&b, &rules);
}

#[test]
fn compat_ids_bad_character_fails() {
    let id = "functions.ls:0";
    let b = body(json!([user(json!("go")), calls(&[id]), tool(id, "a")]));
    let v = assert_flags(&b, "COMPAT-IDS", "$.messages[1].tool_calls[0].id");
    assert!(v.message.contains("'.'"), "{}", v.message);
    let any = CompatRules {
        id_charset: IdCharset::Any,
        ..CompatRules::default()
    };
    assert_clean_with(&b, &any);
}

#[test]
fn compat_ids_alnum_charset_rejects_underscore() {
    let alnum = CompatRules {
        id_charset: IdCharset::Alnum,
        ..CompatRules::default()
    };
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        tool("call_1", "a")
    ]));
    find(
        &validate_with(&b, &alnum),
        "COMPAT-IDS",
        "$.messages[1].tool_calls[0].id",
    );
    let ok = body(json!([
        user(json!("go")),
        calls(&["abcDEF123"]),
        tool("abcDEF123", "a")
    ]));
    assert_clean_with(&ok, &alnum);
}

#[test]
fn compat_ids_empty_id_is_oac_04_only() {
    let b = body(json!([user(json!("go")), calls(&[""])]));
    let v = validate(&b);
    find(&v, "OAC-04", "$.messages[1].tool_calls[0].id");
    assert!(!v.iter().any(|v| v.rule == "COMPAT-IDS"), "{}", dump(&v));
}

// ---------------------------------------------------------------------------------------------
// GRQ-01

#[test]
fn grq_01_no_reasoning_fields_passes() {
    let b = body(json!([
        user(json!("hi")),
        assistant(json!("hello")),
        user(json!("bye"))
    ]));
    assert_clean(&b);
}

#[test]
fn grq_01_reasoning_content_fails_by_default() {
    let b = body(json!([
        user(json!("hi")),
        {"role": "assistant", "content": "hello", "reasoning_content": "greet"},
        user(json!("bye")),
    ]));
    let v = assert_flags(&b, "GRQ-01", "$.messages[1].reasoning_content");
    assert_eq!(
        v.message,
        "'messages.1' : for 'role:assistant' the following must be satisfied[('messages.1' : property 'reasoning_content' is unsupported)]"
    );
}

#[test]
fn grq_01_other_reasoning_fields_fail() {
    let b = body(json!([
        user(json!("hi")),
        {"role": "assistant", "content": "hello", "reasoning": "r", "thinking": "t", "reasoning_blob": "x"},
        user(json!("bye")),
    ]));
    assert_flags(&b, "GRQ-01", "$.messages[1].reasoning");
    assert_flags(&b, "GRQ-01", "$.messages[1].thinking");
    let v = assert_flags(&b, "GRQ-01", "$.messages[1]");
    assert!(v.message.contains("'reasoning_blob'"), "{}", v.message);
}

#[test]
fn grq_01_configured_field_passes_on_assistant() {
    let b = body(json!([
        user(json!("hi")),
        {"role": "assistant", "content": "hello", "reasoning": "greet"},
        user(json!("bye")),
    ]));
    assert_clean_with(&b, &with_reasoning("reasoning"));
    // another reasoning field is still rejected
    let v = validate_with(&b, &with_reasoning("reasoning_content"));
    find(&v, "GRQ-01", "$.messages[1].reasoning");
}

#[test]
fn grq_01_configured_field_on_user_message_fails() {
    let b = body(json!([
        {"role": "user", "content": "hi", "reasoning_content": "?"},
    ]));
    let v = validate_with(&b, &with_reasoning("reasoning_content"));
    find(&v, "GRQ-01", "$.messages[0].reasoning_content");
}

// ---------------------------------------------------------------------------------------------
// GRQ-02

#[test]
fn grq_02_string_assistant_content_passes() {
    let b = body(json!([
        user(json!("hi")),
        assistant(json!("hello")),
        user(json!("bye"))
    ]));
    assert_clean(&b);
}

#[test]
fn grq_02_array_assistant_content_fails() {
    let b = body(json!([
        user(json!("hi")),
        assistant(json!([{"type": "text", "text": "hello"}])),
        user(json!("bye")),
    ]));
    let v = assert_flags(&b, "GRQ-02", "$.messages[1].content");
    assert_eq!(v.message, "('messages.1.content' : value must be a string)");
    let lenient = CompatRules {
        assistant_content_string_only: false,
        ..CompatRules::default()
    };
    assert_clean_with(&b, &lenient);
}

#[test]
fn grq_02_user_content_arrays_are_not_affected() {
    let b = body(json!([user(json!([{"type": "text", "text": "hi"}]))]));
    assert_not_flagged_with(&b, &CompatRules::default(), "GRQ-02");
}

// ---------------------------------------------------------------------------------------------
// Images (OAC-08 when the server takes none)

fn image_body() -> Value {
    body(json!([user(json!([
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}
    ]))]))
}

#[test]
fn images_accepted_by_default_pass() {
    assert_clean(&image_body());
}

#[test]
fn images_off_fails_on_image_parts() {
    let no_images = CompatRules {
        images: false,
        ..CompatRules::default()
    };
    let v = validate_with(&image_body(), &no_images);
    find(&v, "OAC-08", "$.messages[0].content[1].type");
}

// ---------------------------------------------------------------------------------------------
// XAI-02 and KIM-12 (issue 31): rules that follow the model behind the server

fn effort_body(model: &str, effort: &str) -> Value {
    json!({"model": model, "reasoning_effort": effort, "messages": [user(json!("hi"))]})
}

#[test]
fn xai_02_effort_only_on_the_allow_list() {
    for (model, effort) in [
        ("grok-3-mini", "high"),
        ("grok-3-mini-fast", "low"),
        ("grok-4.3", "none"),
        ("grok-4.3", "medium"),
        ("grok-4.20-multi-agent-0309", "xhigh"),
        ("x-ai/grok-4.3", "low"),
    ] {
        assert!(
            validate(&effort_body(model, effort)).is_empty(),
            "{model} {effort}"
        );
    }
    for model in [
        "grok-3",
        "grok-4-0709",
        "grok-4-fast-reasoning",
        "grok-4-1-fast-non-reasoning",
        "grok-4.20-0309-reasoning",
        "grok-code-fast-1",
    ] {
        let v = validate(&effort_body(model, "high"));
        assert_eq!(v.len(), 1, "{}", dump(&v));
        assert_eq!(
            (v[0].rule, v[0].message.clone()),
            (
                "XAI-02",
                format!("Model {model} does not support parameter reasoningEffort")
            )
        );
    }
    let v = validate(&effort_body("grok-3-mini", "medium"));
    assert_eq!(v[0].rule, "XAI-02", "{}", dump(&v));
    // other servers' models are not xAI's
    assert!(validate(&effort_body("llama-3.3-70b-versatile", "high")).is_empty());
}

#[test]
fn kim_12_glm_5_needs_reasoning_content_on_every_tool_call_message() {
    let msgs = json!([
        user(json!("rename it")),
        calls(&["call_1"]),
        tool("call_1", "ok"),
        user(json!("and the tests")),
        {"role": "assistant", "content": null, "reasoning_content": "run them", "tool_calls": [call("call_2")]},
        tool("call_2", "ok")
    ]);
    let b = json!({"model": "glm-5.1", "messages": msgs.clone()});
    let v = validate(&b);
    assert_eq!(v.len(), 1, "{}", dump(&v));
    assert_eq!(
        (v[0].rule, v[0].path.as_str(), v[0].message.as_str()),
        (
            "KIM-12",
            "$.messages[1]",
            "thinking is enabled but reasoning_content is missing in assistant tool call message at index 1"
        )
    );
    // its `reasoning_content` is no GRQ-01 for GLM; thinking off needs none
    let off = json!({"model": "z-ai/glm-5.1", "thinking": {"type": "disabled"}, "messages": msgs});
    assert!(validate(&off).is_empty(), "{}", dump(&validate(&off)));
    // other models behind the server keep the portable profile (GRQ-01)
    let llama = body(
        json!([{"role": "assistant", "content": "x", "reasoning_content": "y"}, user(json!("hi"))]),
    );
    assert_eq!(validate(&llama)[0].rule, "GRQ-01");
}

#[test]
fn kim_12_glm_5_render_sends_reasoning_content_on_every_tool_call_turn() {
    use turnwire::{render, RenderOptions, Transcript};
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "rename it"}]},
        {"speaker": "ai", "metadata": {"provider": "openai-compatible", "model": "glm-5.1"},
         "blocks": [{"type": "thinking", "thought": "grep first"}, {"type": "tool_call", "id": "call_1", "name": "grep", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_1", "result": "src/a.rs"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"},
         "blocks": [{"type": "tool_call", "id": "toolu_01Mv", "name": "move", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_01Mv", "result": "ok"}]}
    ]))
    .unwrap();
    let r = render(
        &t,
        &RenderOptions::new(Provider::OpenAiCompatible, "glm-5.1"),
    )
    .unwrap();
    assert!(validate_request(Provider::OpenAiCompatible, &r.body).is_empty());
    let reasoning: Vec<Option<&str>> = r.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m.get("tool_calls").is_some())
        .map(|m| m["reasoning_content"].as_str())
        .collect();
    assert_eq!(reasoning, [Some("grep first"), Some("")]);
    // a caller that names the server's field gets it there
    let mut o = RenderOptions::new(Provider::OpenAiCompatible, "glm-5.1");
    o.compat = Some(turnwire::CompatOptions {
        reasoning_field: Some("reasoning".into()),
        ..turnwire::CompatOptions::default()
    });
    let r = render(&t, &o).unwrap();
    assert_eq!(r.body["messages"][1]["reasoning"], json!("grep first"));
}

fn gemini_on_openrouter_loop(details_on_call: bool) -> serde_json::Value {
    let mut call = json!({"role": "assistant", "content": null,
        "tool_calls": [{"id": "tool_weather_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}]});
    if details_on_call {
        call["reasoning_details"] = json!([
            {"type": "reasoning.text", "text": "Need the tool.", "format": "google-gemini-v1", "index": 0},
            {"type": "reasoning.encrypted", "data": "CiQBjz1r", "id": "tool_weather_1", "format": "google-gemini-v1", "index": 1}
        ]);
    }
    json!({"model": "google/gemini-3-pro-preview", "messages": [
        {"role": "user", "content": "Earlier question"},
        {"role": "assistant", "content": "Earlier answer.", "reasoning_details": [
            {"type": "reasoning.text", "text": "old", "format": "google-gemini-v1", "index": 0}]},
        {"role": "user", "content": "Weather in Oslo?"},
        call,
        {"role": "tool", "tool_call_id": "tool_weather_1", "content": "cold"}
    ]})
}

#[test]
fn ort_02_openrouter_takes_reasoning_details_back_and_gemini_3_needs_them_on_the_loop() {
    // OpenRouter's profile takes them; the portable one refuses them (GRQ-01)
    let kept = gemini_on_openrouter_loop(true);
    assert!(validate_with(&kept, &CompatRules::openrouter()).is_empty());
    assert!(validate(&kept).is_empty(), "{:?}", validate(&kept));
    let strict = validate_with(&kept, &CompatRules::default());
    assert!(strict.iter().all(|v| v.rule == "GRQ-01"), "{strict:?}");
    assert_eq!(strict[0].path, "$.messages[1].reasoning_details");
    // the loop's call turn without them: OpenRouter's answer (microsoft/agent-framework#2947)
    let lost = gemini_on_openrouter_loop(false);
    let v = validate_with(&lost, &CompatRules::openrouter());
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "ORT-02");
    assert_eq!(v[0].path, "$.messages[3]");
    assert!(v[0].message.starts_with(
        "Gemini models require OpenRouter reasoning details to be preserved in each request."
    ));
    // a body with OpenRouter's details elsewhere is taken as written for OpenRouter
    assert_eq!(validate(&lost)[0].rule, "ORT-02");
    // other models on OpenRouter: not required
    let mut claude = lost.clone();
    claude["model"] = json!("anthropic/claude-sonnet-4.5");
    assert!(validate_with(&claude, &CompatRules::openrouter()).is_empty());
}
