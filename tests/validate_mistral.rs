//! Tests of the strict Mistral validator (provider-rules.md §5 on top of §2).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::mistral::validate::validate;
use turnwire::{validate_request, Provider, Violation};

fn body(messages: Value) -> Value {
    json!({"model": "mistral-large-latest", "messages": messages})
}

fn user(content: &str) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

fn call(id: &str, name: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}})
}

/// An assistant message calling `ls` once per id.
fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids.iter().map(|id| call(id, "ls")).collect();
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

/// A tool message answering `id` of a call to `ls`.
fn tool(id: &str, content: &str) -> Value {
    json!({"role": "tool", "name": "ls", "tool_call_id": id, "content": content})
}

fn dump(v: &[Violation]) -> String {
    v.iter()
        .map(|v| format!("  {} {} {}", v.rule, v.path, v.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts a violation of `rule` at exactly `path` and returns it.
#[track_caller]
fn assert_flags(body: &Value, rule: &str, path: &str) -> Violation {
    let v = validate(body);
    match v.iter().find(|v| v.rule == rule && v.path == path) {
        Some(found) => found.clone(),
        None => panic!("expected {rule} at {path}, got:\n{}", dump(&v)),
    }
}

/// Asserts no violation of `rule`.
#[track_caller]
fn assert_not_flagged(body: &Value, rule: &str) {
    let v = validate(body);
    assert!(
        !v.iter().any(|v| v.rule == rule),
        "unexpected {rule}:\n{}",
        dump(&v)
    );
}

/// Asserts no violation at all.
#[track_caller]
fn assert_clean(body: &Value) {
    let v = validate(body);
    assert!(v.is_empty(), "expected no violations, got:\n{}", dump(&v));
}

/// A tool round trip with two parallel calls, ending on a user message.
fn round_trip() -> Value {
    json!([
        user("list files"),
        calls(&["abcDEF123", "xyzXYZ789"]),
        tool("abcDEF123", "a.txt"),
        tool("xyzXYZ789", "b.txt"),
        assistant(json!("Two files.")),
        user("thanks"),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body, dispatch

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "magistral-medium-latest",
        "temperature": 0.3,
        "tools": [
            {"type": "function", "function": {"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
            {"type": "function", "function": {"name": "run_tests", "parameters": {"type": "object", "properties": {}}}}
        ],
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "Fix the login bug."},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": [{"type": "text", "text": "I should read both files."}]},
                {"type": "text", "text": "Reading both files."}
            ], "tool_calls": [
                {"id": "D681PevKs", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/login.ts\"}"}},
                {"id": "Wq3bT9xLm", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/auth.ts\"}"}}
            ]},
            {"role": "tool", "name": "read_file", "tool_call_id": "Wq3bT9xLm", "content": "export const auth = 1;"},
            {"role": "tool", "name": "read_file", "tool_call_id": "D681PevKs", "content": "export function login() {}"},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": [{"type": "text", "text": "login never calls auth."}]},
                {"type": "text", "text": "login() never checks auth; I patched it."}
            ]},
            {"role": "user", "content": [{"type": "text", "text": "Run the tests."}]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "0a1B2c3D4", "type": "function", "function": {"name": "run_tests", "arguments": "{}"}}
            ]},
            {"role": "tool", "name": "run_tests", "tool_call_id": "0a1B2c3D4", "content": "12 passed"}
        ]
    });
    assert_clean(&b);
}

#[test]
fn prefix_completion_body_has_no_violations() {
    let b = body(json!([
        user("Write a haiku about Rust."),
        {"role": "assistant", "content": "Borrowed", "prefix": true},
    ]));
    assert_clean(&b);
}

#[test]
fn validate_request_dispatches_to_mistral() {
    let b = body(json!([user("hi"), assistant(json!("hello"))]));
    let v = validate_request(Provider::Mistral, &b);
    assert!(v.iter().any(|v| v.rule == "MIS-05"), "{}", dump(&v));
}

// ---------------------------------------------------------------------------------------------
// OAC rules kept, and Mistral's exceptions

#[test]
fn oac_rules_pass() {
    assert_clean(&body(round_trip()));
}

#[test]
fn oac_01_and_02_are_kept() {
    let b = body(json!([
        user("go"),
        tool("abcDEF123", "orphan"),
        calls(&["abcDEF123"]),
        user("never mind"),
    ]));
    assert_flags(&b, "OAC-01", "$.messages[1].role");
    assert_flags(&b, "OAC-02", "$.messages[2]");
}

#[test]
fn oac_08_thinking_part_on_assistant_passes() {
    let b = body(json!([
        user("hi"),
        assistant(json!([
            {"type": "thinking", "thinking": [{"type": "text", "text": "greet"}]},
            {"type": "text", "text": "hello"}
        ])),
        user("bye"),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_08_thinking_part_outside_assistant_fails() {
    let b = body(json!([
        {"role": "user", "content": [{"type": "thinking", "thinking": [{"type": "text", "text": "x"}]}]},
    ]));
    assert_flags(&b, "OAC-08", "$.messages[0].content[0].type");
}

#[test]
fn oac_08_unknown_assistant_part_still_fails() {
    let b = body(json!([
        user("hi"),
        assistant(json!([{"type": "redacted_thinking", "data": "x"}])),
        user("bye"),
    ]));
    let v = assert_flags(&b, "OAC-08", "$.messages[1].content[0].type");
    assert!(v.message.contains("'thinking'"), "{}", v.message);
}

#[test]
fn oac_06_array_content_beside_tool_calls_passes() {
    let b = body(json!([
        user("go"),
        {"role": "assistant", "content": [{"type": "text", "text": "Listing."}], "tool_calls": [call("abcDEF123", "ls")]},
        tool("abcDEF123", "a.txt"),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_06_empty_string_beside_tool_calls_still_fails() {
    let b = body(json!([
        user("go"),
        {"role": "assistant", "content": "", "tool_calls": [call("abcDEF123", "ls")]},
        tool("abcDEF123", "a.txt"),
    ]));
    assert_flags(&b, "OAC-06", "$.messages[1].content");
}

#[test]
fn oac_struct_malformed_thinking_chunks_fail() {
    let b = body(json!([
        user("hi"),
        assistant(json!([
            {"type": "thinking", "thinking": "plain string"},
            {"type": "thinking", "thinking": [{"type": "text"}]},
            {"type": "thinking", "thinking": []},
            {"type": "text", "text": "hello"}
        ])),
        user("bye"),
    ]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[1].content[0].thinking");
    assert_flags(&b, "OAC-STRUCT", "$.messages[1].content[1].thinking[0]");
    assert_flags(&b, "OAC-STRUCT", "$.messages[1].content[2].thinking");
}

// ---------------------------------------------------------------------------------------------
// MIS-01

#[test]
fn mis_01_nine_alphanumeric_ids_pass() {
    assert_not_flagged(&body(round_trip()), "MIS-01");
}

#[test]
fn mis_01_openai_style_id_fails() {
    let id = "call_PTLP8xhu3uwZk4l3nlnrrJha";
    let b = body(json!([user("go"), calls(&[id]), tool(id, "a")]));
    let v = assert_flags(&b, "MIS-01", "$.messages[1].tool_calls[0].id");
    assert_eq!(
        v.message,
        "Tool call id was call_PTLP8xhu3uwZk4l3nlnrrJha but must be a-z, A-Z, 0-9, with a length of 9."
    );
    assert_flags(&b, "MIS-01", "$.messages[2].tool_call_id");
}

#[test]
fn mis_01_nine_chars_with_punctuation_fail() {
    for id in ["call_0fyp", "abc-12345", "turn1_0ab"] {
        let b = body(json!([user("go"), calls(&[id]), tool(id, "a")]));
        assert_flags(&b, "MIS-01", "$.messages[1].tool_calls[0].id");
    }
}

#[test]
fn mis_01_short_id_fails() {
    let b = body(json!([user("go"), calls(&["abc123"]), tool("abc123", "a")]));
    assert_flags(&b, "MIS-01", "$.messages[1].tool_calls[0].id");
    assert_flags(&b, "MIS-01", "$.messages[2].tool_call_id");
}

// ---------------------------------------------------------------------------------------------
// MIS-02

#[test]
fn mis_02_assistant_between_tool_and_user_passes() {
    assert_not_flagged(&body(round_trip()), "MIS-02");
}

#[test]
fn mis_02_user_after_tool_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        tool("abcDEF123", "a"),
        user("and now?"),
    ]));
    let v = assert_flags(&b, "MIS-02", "$.messages[3].role");
    assert_eq!(v.message, "Unexpected role 'user' after role 'tool'");
}

#[test]
fn mis_02_tool_after_user_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        user("cancelled"),
        tool("abcDEF123", "a"),
    ]));
    let v = assert_flags(&b, "MIS-02", "$.messages[3].role");
    assert_eq!(v.message, "Unexpected role 'tool' after role 'user'");
}

// ---------------------------------------------------------------------------------------------
// MIS-03

#[test]
fn mis_03_one_response_per_call_passes() {
    assert_not_flagged(&body(round_trip()), "MIS-03");
}

#[test]
fn mis_03_fewer_responses_than_calls_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123", "xyzXYZ789"]),
        tool("abcDEF123", "a"),
        assistant(json!("done")),
        user("ok"),
    ]));
    let v = assert_flags(&b, "MIS-03", "$.messages[1]");
    assert!(
        v.message
            .starts_with("Not the same number of function calls and responses"),
        "{}",
        v.message
    );
}

#[test]
fn mis_03_more_responses_than_calls_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        tool("abcDEF123", "a"),
        tool("abcDEF123", "a again"),
    ]));
    assert_flags(&b, "MIS-03", "$.messages[1]");
}

#[test]
fn mis_03_request_ending_on_calls_fails() {
    let b = body(json!([user("go"), calls(&["abcDEF123"])]));
    assert_flags(&b, "MIS-03", "$.messages[1]");
}

// ---------------------------------------------------------------------------------------------
// MIS-04

#[test]
fn mis_04_content_or_tool_calls_pass() {
    assert_not_flagged(&body(round_trip()), "MIS-04");
}

#[test]
fn mis_04_assistant_without_content_or_calls_fails() {
    for content in [json!(""), json!(null), json!([])] {
        let b = body(json!([user("hi"), assistant(content), user("hello?")]));
        let v = assert_flags(&b, "MIS-04", "$.messages[1]");
        assert_eq!(
            v.message,
            "Assistant message must have either content or tool_calls, but not none."
        );
    }
}

#[test]
fn mis_04_empty_tool_calls_do_not_count() {
    let b = body(json!([
        user("hi"),
        {"role": "assistant", "content": null, "tool_calls": []},
        user("hello?"),
    ]));
    assert_flags(&b, "MIS-04", "$.messages[1]");
}

// ---------------------------------------------------------------------------------------------
// MIS-05

#[test]
fn mis_05_last_user_tool_or_prefix_passes() {
    assert_not_flagged(&body(round_trip()), "MIS-05");
    let ends_on_tool = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        tool("abcDEF123", "a")
    ]));
    assert_not_flagged(&ends_on_tool, "MIS-05");
    let prefix =
        body(json!([user("go"), {"role": "assistant", "content": "Sure", "prefix": true}]));
    assert_not_flagged(&prefix, "MIS-05");
}

#[test]
fn mis_05_last_assistant_without_prefix_fails() {
    let b = body(json!([user("hi"), assistant(json!("hello"))]));
    let v = assert_flags(&b, "MIS-05", "$.messages[1].role");
    assert_eq!(
        v.message,
        "Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant"
    );
    let prefix_false =
        body(json!([user("hi"), {"role": "assistant", "content": "x", "prefix": false}]));
    assert_flags(&prefix_false, "MIS-05", "$.messages[1].role");
}

#[test]
fn mis_05_last_system_fails() {
    let b = body(json!([user("hi"), {"role": "system", "content": "be brief"}]));
    assert_flags(&b, "MIS-05", "$.messages[1].role");
}

// ---------------------------------------------------------------------------------------------
// MIS-06

#[test]
fn mis_06_tool_names_pass() {
    assert_not_flagged(&body(round_trip()), "MIS-06");
}

#[test]
fn mis_06_tool_message_without_name_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        {"role": "tool", "tool_call_id": "abcDEF123", "content": "a"},
    ]));
    let v = assert_flags(&b, "MIS-06", "$.messages[2].name");
    assert!(v.message.contains("\"ls\""), "{}", v.message);
}

#[test]
fn mis_06_tool_message_with_other_name_fails() {
    let b = body(json!([
        user("go"),
        calls(&["abcDEF123"]),
        {"role": "tool", "name": "cat", "tool_call_id": "abcDEF123", "content": "a"},
    ]));
    assert_flags(&b, "MIS-06", "$.messages[2].name");
}

// ---------------------------------------------------------------------------------------------
// MIS-09 (issue 31): `reasoning_effort` on the adjustable models only, `none` or `high`

fn effort_body(model: &str, effort: &str) -> Value {
    json!({"model": model, "reasoning_effort": effort, "messages": [user("hi")]})
}

#[test]
fn mis_09_adjustable_models_take_none_and_high() {
    for model in [
        "mistral-medium-2604",
        "mistral-medium-3-5",
        "mistral-medium-3.5",
        "mistral-medium-latest",
        "mistral-small-2603",
        "mistral-small-latest",
    ] {
        for effort in ["none", "high"] {
            assert!(
                validate(&effort_body(model, effort)).is_empty(),
                "{model} {effort}"
            );
        }
        let v = validate(&effort_body(model, "low"));
        assert_eq!(v.len(), 1, "{}", dump(&v));
        assert_eq!(
            (v[0].rule, v[0].message.as_str()),
            ("MIS-09", "reasoning_effort must be one of: none, high")
        );
    }
}

#[test]
fn mis_09_other_models_refuse_reasoning_effort() {
    for model in [
        "mistral-large-latest",
        "magistral-medium-latest",
        "codestral-latest",
    ] {
        let v = validate(&effort_body(model, "high"));
        assert_eq!(v.len(), 1, "{}", dump(&v));
        assert_eq!(
            (v[0].rule, v[0].path.as_str(), v[0].message.as_str()),
            (
                "MIS-09",
                "$.reasoning_effort",
                "reasoning_effort is not enabled for this model"
            )
        );
    }
}
