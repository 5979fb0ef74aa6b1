//! Tests of the strict Kimi / Moonshot validator (provider-rules.md §6 on top of §2).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::kimi::validate::{infers_thinking, validate, validate_with};
use turnwire::{validate_request, Provider, Violation};

/// A body for a model that does not think unless told (`kimi-k2-0905-preview`).
fn body(messages: Value) -> Value {
    json!({"model": "kimi-k2-0905-preview", "messages": messages})
}

fn thinking_body(messages: Value) -> Value {
    json!({"model": "kimi-k2-thinking", "messages": messages})
}

fn user(content: &str) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: &str) -> Value {
    json!({"role": "assistant", "content": content})
}

fn call(id: &str, name: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}})
}

/// An assistant message calling each `(id, name)`.
fn calls(list: &[(&str, &str)]) -> Value {
    let calls: Vec<Value> = list.iter().map(|(id, name)| call(id, name)).collect();
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

/// The same with `reasoning_content`.
fn thinking_calls(reasoning: &str, list: &[(&str, &str)]) -> Value {
    let mut m = calls(list);
    m.as_object_mut()
        .unwrap()
        .insert("reasoning_content".into(), json!(reasoning));
    m
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

/// Asserts a violation of `rule` at exactly `path` (thinking inferred) and returns it.
#[track_caller]
fn assert_flags(body: &Value, rule: &str, path: &str) -> Violation {
    find(&validate(body), rule, path)
}

#[track_caller]
fn assert_not_flagged(body: &Value, rule: &str) {
    let v = validate(body);
    assert!(
        !v.iter().any(|v| v.rule == rule),
        "unexpected {rule}:\n{}",
        dump(&v)
    );
}

#[track_caller]
fn assert_clean(body: &Value) {
    let v = validate(body);
    assert!(v.is_empty(), "expected no violations, got:\n{}", dump(&v));
}

fn round_trip() -> Value {
    json!([
        user("list files"),
        calls(&[("functions.ls:0", "ls"), ("functions.cat:1", "cat")]),
        tool("functions.ls:0", "a.txt"),
        tool("functions.cat:1", "hello"),
        assistant("Done."),
        user("thanks"),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body, dispatch

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let long_name = "mcp__filesystem__read_text_file_with_line_numbers";
    let long_id = format!("functions.{long_name}:2");
    assert!(long_id.len() > 40);
    let b = json!({
        "model": "kimi-k2-thinking",
        "temperature": 1.0,
        "tools": [
            {"type": "function", "function": {"name": "Read", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}},
            {"type": "function", "function": {"name": long_name, "parameters": {"type": "object", "properties": {}}}}
        ],
        "messages": [
            {"role": "system", "content": "You are Kimi, a coding agent."},
            {"role": "user", "content": "Why does login fail?"},
            {"role": "assistant", "content": "Let me read both files.", "reasoning_content": "Read login and auth.", "tool_calls": [
                {"id": "functions.Read:0", "type": "function", "function": {"name": "Read", "arguments": "{\"path\":\"src/login.ts\"}"}},
                {"id": "functions.Read:1", "type": "function", "function": {"name": "Read", "arguments": "{\"path\":\"src/auth.ts\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "functions.Read:0", "content": "export function login() {}"},
            {"role": "tool", "tool_call_id": "functions.Read:1", "content": "export const auth = 1;"},
            {"role": "assistant", "content": "login() never checks auth.", "reasoning_content": "The bug is clear."},
            {"role": "user", "content": "Show line numbers."},
            {"role": "assistant", "content": null, "reasoning_content": "", "tool_calls": [
                {"id": long_id, "type": "function", "function": {"name": long_name, "arguments": "{\"path\":\"src/login.ts\"}"}}
            ]},
            {"role": "tool", "tool_call_id": long_id, "content": "1: export function login() {}"}
        ]
    });
    assert_clean(&b);
}

#[test]
fn validate_request_dispatches_to_kimi() {
    let b = body(json!([
        user("go"),
        calls(&[("call_1", "ls")]),
        tool("call_1", "a"),
    ]));
    let v = validate_request(Provider::Kimi, &b);
    assert!(v.iter().any(|v| v.rule == "KIM-01"), "{}", dump(&v));
}

// ---------------------------------------------------------------------------------------------
// OAC rules kept, and Kimi's exception

#[test]
fn oac_rules_pass() {
    assert_clean(&body(round_trip()));
}

#[test]
fn oac_01_orphan_tool_message_is_kept() {
    let b = body(json!([tool("functions.ls:0", "a"), user("hi")]));
    assert_flags(&b, "OAC-01", "$.messages[0].role");
}

#[test]
fn oac_03_long_native_id_passes() {
    let name = "a_really_long_mcp_server_tool_name_here";
    let id = format!("functions.{name}:0");
    assert!(id.len() > 40);
    let b = body(json!([user("go"), calls(&[(&id, name)]), tool(&id, "a")]));
    assert_clean(&b);
}

#[test]
fn oac_04_empty_id_is_kept() {
    let b = body(json!([user("go"), calls(&[("", "ls")])]));
    assert_flags(&b, "OAC-04", "$.messages[1].tool_calls[0].id");
}

// ---------------------------------------------------------------------------------------------
// KIM-01

#[test]
fn kim_01_native_ids_pass() {
    assert_not_flagged(&body(round_trip()), "KIM-01");
}

#[test]
fn kim_01_foreign_ids_fail() {
    for id in [
        "call_ctiGXrgM0r61c6nkf2v7zbKb",
        "functions_ls_0",
        "functionsls0",
        "functions.ls:-1",
        "functions.ls:x",
        "functions.:0",
        "functions.ls",
    ] {
        let b = body(json!([user("go"), calls(&[(id, "ls")]), tool(id, "a")]));
        assert_flags(&b, "KIM-01", "$.messages[1].tool_calls[0].id");
        assert_flags(&b, "KIM-01", "$.messages[2].tool_call_id");
    }
}

#[test]
fn kim_01_id_naming_another_function_fails() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.cat:0", "ls")]),
        tool("functions.cat:0", "a"),
    ]));
    let v = assert_flags(&b, "KIM-01", "$.messages[1].tool_calls[0].id");
    assert!(v.message.contains("functions.ls:0"), "{}", v.message);
}

#[test]
fn kim_01_index_reused_by_another_call_fails() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
        assistant("next"),
        user("more"),
        calls(&[("functions.cat:0", "cat")]),
        tool("functions.cat:0", "b"),
    ]));
    assert_flags(&b, "KIM-01", "$.messages[5].tool_calls[0].id");
}

#[test]
fn kim_01_rewritten_tool_call_id_fails() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.Read:0", "Read")]),
        tool("functions_Read_0", "a"),
    ]));
    let v = assert_flags(&b, "KIM-01", "$.messages[2].tool_call_id");
    assert!(v.message.contains("verbatim"), "{}", v.message);
    assert_flags(&b, "OAC-01", "$.messages[2].tool_call_id");
}

// ---------------------------------------------------------------------------------------------
// KIM-02 (reported as OAC-01/02)

#[test]
fn kim_02_every_call_answered_passes() {
    let b = body(round_trip());
    assert_not_flagged(&b, "OAC-01");
    assert_not_flagged(&b, "OAC-02");
}

#[test]
fn kim_02_unanswered_call_fails_as_oac_02() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.Agent:0", "Agent")]),
        user("stop"),
    ]));
    let v = assert_flags(&b, "OAC-02", "$.messages[1]");
    assert!(
        v.message
            .ends_with("did not have response messages: functions.Agent:0"),
        "{}",
        v.message
    );
}

// ---------------------------------------------------------------------------------------------
// KIM-03

#[test]
fn kim_03_reasoning_content_on_tool_call_messages_passes() {
    let b = thinking_body(json!([
        user("go"),
        thinking_calls("need ls", &[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
    ]));
    assert_clean(&b);
}

#[test]
fn kim_03_empty_reasoning_content_counts_as_present() {
    let b = thinking_body(json!([
        user("go"),
        thinking_calls("", &[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
    ]));
    assert_clean(&b);
}

#[test]
fn kim_03_missing_reasoning_content_fails() {
    let b = thinking_body(json!([
        user("go"),
        calls(&[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
    ]));
    let v = assert_flags(&b, "KIM-03", "$.messages[1]");
    assert_eq!(
        v.message,
        "thinking is enabled but reasoning_content is missing in assistant tool call message at index 1"
    );
}

#[test]
fn kim_03_non_string_reasoning_content_fails() {
    let mut m = calls(&[("functions.ls:0", "ls")]);
    m.as_object_mut()
        .unwrap()
        .insert("reasoning_content".into(), json!(["x"]));
    let b = thinking_body(json!([user("go"), m, tool("functions.ls:0", "a")]));
    assert_flags(&b, "KIM-03", "$.messages[1].reasoning_content");
    // not thinking: a plain shape error
    let v = validate_with(&b, false);
    find(&v, "OAC-STRUCT", "$.messages[1].reasoning_content");
    assert!(!v.iter().any(|v| v.rule == "KIM-03"), "{}", dump(&v));
}

#[test]
fn kim_03_validate_with_follows_the_flag() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
    ]));
    assert!(validate_with(&b, false).is_empty());
    find(&validate_with(&b, true), "KIM-03", "$.messages[1]");
}

#[test]
fn kim_03_thinking_is_inferred_from_the_body() {
    let msgs = json!([user("go")]);
    assert!(infers_thinking(&thinking_body(msgs.clone())));
    assert!(infers_thinking(
        &json!({"model": "moonshotai/Kimi-K2-Thinking", "messages": msgs})
    ));
    assert!(infers_thinking(
        &json!({"model": "kimi-k2.5", "messages": msgs})
    ));
    assert!(infers_thinking(
        &json!({"model": "kimi-k2-0905-preview", "thinking": {"type": "enabled"}, "messages": msgs})
    ));
    assert!(!infers_thinking(
        &json!({"model": "kimi-k2.5", "thinking": {"type": "disabled"}, "messages": msgs})
    ));
    assert!(infers_thinking(
        &json!({"model": "kimi-k2-thinking", "thinking": {"type": "disabled"}, "messages": msgs})
    ));
    assert!(!infers_thinking(&body(msgs)));
    let with_reasoning = json!([
        user("hi"),
        {"role": "assistant", "content": "hello", "reasoning_content": "greet"},
        user("list"),
    ]);
    assert!(infers_thinking(&unlisted_body(with_reasoning.clone())));
    assert!(!infers_thinking(&body(with_reasoning)));
}

/// A body for a model the capability table does not single out (its catch-all row).
fn unlisted_body(messages: Value) -> Value {
    json!({"model": "kimi-latest", "messages": messages})
}

/// Replayed reasoning on one message, a tool-call message without it.
fn reasoning_then_plain_calls() -> Value {
    json!([
        user("hi"),
        {"role": "assistant", "content": "hello", "reasoning_content": "greet"},
        user("list"),
        calls(&[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a"),
    ])
}

#[test]
fn kim_03_reasoning_elsewhere_makes_missing_reasoning_fail_for_an_unlisted_model() {
    assert_flags(
        &unlisted_body(reasoning_then_plain_calls()),
        "KIM-03",
        "$.messages[3]",
    );
}

#[test]
fn kim_03_models_that_do_not_think_take_reasoning_on_some_messages_only() {
    for model in [
        "kimi-k2-0711-preview",
        "kimi-k2-0905-preview",
        "kimi-k2-turbo-preview",
    ] {
        let b = json!({"model": model, "messages": reasoning_then_plain_calls()});
        assert!(!infers_thinking(&b), "{model}");
        assert_not_flagged(&b, "KIM-03");
        let enabled = json!({"model": model, "thinking": {"type": "enabled"}, "messages": reasoning_then_plain_calls()});
        assert_flags(&enabled, "KIM-03", "$.messages[3]");
    }
}

// ---------------------------------------------------------------------------------------------
// KIM-04

#[test]
fn kim_04_unique_ids_pass() {
    assert_not_flagged(&body(round_trip()), "KIM-04");
}

#[test]
fn kim_04_duplicate_id_fails() {
    let b = body(json!([
        user("go"),
        calls(&[("functions.grep:3", "grep")]),
        tool("functions.grep:3", "a"),
        assistant("again"),
        user("again"),
        calls(&[("functions.grep:3", "grep")]),
        tool("functions.grep:3", "b"),
    ]));
    let v = assert_flags(&b, "KIM-04", "$.messages[5].tool_calls[0].id");
    assert_eq!(v.message, "tool call id functions.grep:3 is duplicated");
}

#[test]
fn kim_06_tool_call_id_must_name_a_call_and_not_be_empty() {
    let b = body(json!([
        user("list files"),
        calls(&[("functions.ls:0", "ls")]),
        tool("", "a.txt"),
    ]));
    let v = assert_flags(&b, "KIM-06", "$.messages[2].tool_call_id");
    assert_eq!(v.message, "Invalid request: tool_call_id  is not found");
    let b = body(json!([
        user("list files"),
        calls(&[("functions.ls:0", "ls")]),
        tool("functions.ls:0", "a.txt"),
        tool("functions.ls:7", "b.txt"),
    ]));
    let v = assert_flags(&b, "KIM-06", "$.messages[3].tool_call_id");
    assert_eq!(
        v.message,
        "Invalid request: tool_call_id functions.ls:7 is not found"
    );
    assert_not_flagged(&body(round_trip()), "KIM-06");
}

// ---------------------------------------------------------------------------------------------
// KIM-10, KIM-11 (issue 31): thinking parameters per model

fn rules_of(b: &Value) -> Vec<String> {
    validate(b)
        .into_iter()
        .map(|v| format!("{} {}", v.rule, v.path))
        .collect()
}

#[test]
fn kim_10_keep_all_passes_on_k2_6_only() {
    let k26 = json!({"model": "kimi-k2.6", "thinking": {"type": "enabled", "keep": "all"}, "messages": [user("hi")]});
    assert_clean(&k26);
    let k25 = json!({"model": "kimi-k2.5", "thinking": {"type": "enabled", "keep": "all"}, "messages": [user("hi")]});
    assert_eq!(rules_of(&k25), ["KIM-10 $.thinking.keep"]);
    let bad = json!({"model": "kimi-k2.6", "thinking": {"type": "enabled", "keep": "last"}, "messages": [user("hi")]});
    assert_eq!(rules_of(&bad), ["KIM-10 $.thinking.keep"]);
}

#[test]
fn kim_10_thinking_and_reasoning_effort_together_fail() {
    let b = json!({"model": "kimi-k2.6", "thinking": {"type": "enabled"}, "reasoning_effort": "high", "messages": [user("hi")]});
    let v = assert_flags(&b, "KIM-10", "$.reasoning_effort");
    assert_eq!(
        v.message,
        "cannot specify both 'thinking' and 'reasoning_effort'"
    );
}

#[test]
fn kim_11_k3_takes_no_thinking_and_efforts_low_high_max() {
    let ok = json!({"model": "kimi-k3", "reasoning_effort": "max", "messages": [user("hi")]});
    assert_clean(&ok);
    let thinking =
        json!({"model": "kimi-k3", "thinking": {"type": "enabled"}, "messages": [user("hi")]});
    assert_eq!(rules_of(&thinking), ["KIM-11 $.thinking"]);
    let medium =
        json!({"model": "kimi-k3", "reasoning_effort": "medium", "messages": [user("hi")]});
    assert_eq!(rules_of(&medium), ["KIM-11 $.reasoning_effort"]);
    // K3 always reasons: a tool-call message without its reasoning is KIM-03
    let lost = json!({"model": "kimi-k3", "messages": [
        user("ls"), calls(&[("functions.ls:0", "ls")]), tool("functions.ls:0", "a.txt")
    ]});
    assert!(infers_thinking(&lost));
    assert_eq!(rules_of(&lost), ["KIM-03 $.messages[1]"]);
}

#[test]
fn kim_11_models_that_always_think_refuse_thinking_disabled() {
    for model in [
        "kimi-k2.7-code",
        "kimi-k2.7-code-highspeed",
        "kimi-k2-thinking",
    ] {
        let b = json!({"model": model, "thinking": {"type": "disabled"}, "messages": [user("hi")]});
        assert_eq!(rules_of(&b), ["KIM-11 $.thinking.type"], "{model}");
    }
    let k26 =
        json!({"model": "kimi-k2.6", "thinking": {"type": "disabled"}, "messages": [user("hi")]});
    assert_clean(&k26);
}

#[test]
fn kim_12_every_historical_tool_call_message_needs_reasoning_content() {
    // the shape of VicBilibily/GCMP#162: a long K2.6 session where an early step lost it
    let mut msgs = vec![user("start")];
    for i in 0..6 {
        let id = format!("functions.ls:{i}");
        msgs.push(if i == 1 {
            calls(&[(&id, "ls")])
        } else {
            thinking_calls("look", &[(&id, "ls")])
        });
        msgs.push(tool(&id, "a.txt"));
        msgs.push(user("next"));
    }
    let b = json!({"model": "kimi-k2.6", "thinking": {"type": "enabled", "keep": "all"}, "messages": msgs});
    let v = assert_flags(&b, "KIM-03", "$.messages[4]");
    assert_eq!(
        v.message,
        "thinking is enabled but reasoning_content is missing in assistant tool call message at index 4"
    );
}
