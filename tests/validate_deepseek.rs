//! Tests of the strict DeepSeek validator (provider-rules.md §7 on top of §2).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::deepseek::validate::{infers_thinking, validate, validate_with};
use turnwire::{validate_request, Provider, Violation};

/// A `deepseek-chat` body (no thinking, no strict alternation).
fn chat(messages: Value) -> Value {
    json!({"model": "deepseek-chat", "messages": messages})
}

/// A `deepseek-reasoner` body (thinking, strict alternation).
fn reasoner(messages: Value) -> Value {
    json!({"model": "deepseek-reasoner", "messages": messages})
}

fn system(content: &str) -> Value {
    json!({"role": "system", "content": content})
}

fn user(content: &str) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: &str) -> Value {
    json!({"role": "assistant", "content": content})
}

fn call(id: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": "ls", "arguments": "{}"}})
}

fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids.iter().map(|id| call(id)).collect();
    json!({"role": "assistant", "content": null, "tool_calls": calls})
}

fn thinking_calls(reasoning: &str, ids: &[&str]) -> Value {
    let mut m = calls(ids);
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

// ---------------------------------------------------------------------------------------------
// Realistic body, dispatch

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "deepseek-reasoner",
        "max_tokens": 8192,
        "tools": [
            {"type": "function", "function": {"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
            {"type": "function", "function": {"name": "run_tests", "parameters": {"type": "object", "properties": {}}}}
        ],
        "messages": [
            {"role": "system", "content": "You are a coding agent."},
            {"role": "user", "content": "Fix the login bug."},
            {"role": "assistant", "content": "Reading both files.", "reasoning_content": "Start with login and auth.", "tool_calls": [
                {"id": "call_00_R2sXhF5bVj0b6kQ1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/login.ts\"}"}},
                {"id": "call_01_Hq8LmN3pT7wZ2cV4", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/auth.ts\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_00_R2sXhF5bVj0b6kQ1", "content": "export function login() {}"},
            {"role": "tool", "tool_call_id": "call_01_Hq8LmN3pT7wZ2cV4", "content": "export const auth = 1;"},
            {"role": "assistant", "content": "login() never checks auth; patched.", "reasoning_content": "The fix is one line."},
            {"role": "user", "content": [{"type": "text", "text": "Run the tests."}]},
            {"role": "assistant", "content": null, "reasoning_content": "Run the suite.", "tool_calls": [
                {"id": "call_00_Kd9PqZ1xW5yE7rT3", "type": "function", "function": {"name": "run_tests", "arguments": "{}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_00_Kd9PqZ1xW5yE7rT3", "content": "12 passed"}
        ]
    });
    assert_clean(&b);
}

#[test]
fn validate_request_dispatches_to_deepseek() {
    let b = reasoner(json!([user("a"), user("b")]));
    let v = validate_request(Provider::DeepSeek, &b);
    assert!(v.iter().any(|v| v.rule == "DSK-01"), "{}", dump(&v));
}

// ---------------------------------------------------------------------------------------------
// DSK-01

#[test]
fn dsk_01_interleaved_messages_pass() {
    let b = reasoner(json!([
        system("be brief"),
        user("go"),
        thinking_calls("ls", &["call_1"]),
        tool("call_1", "a"),
        {"role": "assistant", "content": "one file", "reasoning_content": "done"},
        user("thanks"),
    ]));
    assert_clean(&b);
}

#[test]
fn dsk_01_two_user_messages_fail() {
    let b = reasoner(json!([
        system("be brief"),
        user("hi"),
        user("are you there?")
    ]));
    let v = assert_flags(&b, "DSK-01", "$.messages[2].role");
    assert_eq!(
        v.message,
        "deepseek-reasoner does not support successive user or assistant messages (messages[1] and messages[2] in your input). You should interleave the user/assistant messages in the message sequence."
    );
}

#[test]
fn dsk_01_two_assistant_messages_fail() {
    let b = reasoner(json!([
        user("hi"),
        assistant("hello"),
        assistant("again"),
        user("?")
    ]));
    assert_flags(&b, "DSK-01", "$.messages[2].role");
}

#[test]
fn dsk_01_system_between_users_does_not_separate_them() {
    let b = reasoner(json!([user("hi"), system("note"), user("again")]));
    let v = assert_flags(&b, "DSK-01", "$.messages[2].role");
    assert!(
        v.message.contains("(messages[0] and messages[2]"),
        "{}",
        v.message
    );
}

#[test]
fn dsk_01_only_for_deepseek_reasoner() {
    let b = chat(json!([user("hi"), user("again")]));
    assert_clean(&b);
}

// ---------------------------------------------------------------------------------------------
// DSK-02 (superseded)

#[test]
fn dsk_02_reasoning_content_sent_back_is_accepted() {
    let b = reasoner(json!([
        user("hi"),
        {"role": "assistant", "content": "hello", "reasoning_content": "greet"},
        user("bye"),
    ]));
    assert_clean(&b);
}

// ---------------------------------------------------------------------------------------------
// DSK-03

#[test]
fn dsk_03_current_loop_with_reasoning_content_passes() {
    let b = reasoner(json!([
        user("go"),
        thinking_calls("", &["call_1"]),
        tool("call_1", "a"),
        thinking_calls("more", &["call_2"]),
        tool("call_2", "b"),
    ]));
    assert_clean(&b);
}

#[test]
fn dsk_03_missing_reasoning_content_in_current_loop_fails() {
    let b = reasoner(json!([
        user("go"),
        thinking_calls("ls first", &["call_1"]),
        tool("call_1", "a"),
        calls(&["call_2"]),
        tool("call_2", "b"),
    ]));
    let v = assert_flags(&b, "DSK-03", "$.messages[3]");
    assert_eq!(
        v.message,
        "Missing `reasoning_content` field in the assistant message at message index 3. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls"
    );
    assert_not_flagged(&chat(b["messages"].clone()), "DSK-03");
}

#[test]
fn dsk_03_earlier_loops_need_no_reasoning_content() {
    let b = json!({"model": "deepseek-chat", "thinking": {"type": "enabled"}, "messages": [
        user("go"),
        calls(&["call_1"]),
        tool("call_1", "a"),
        {"role": "assistant", "content": "done", "reasoning_content": "ok"},
        user("again"),
        thinking_calls("again", &["call_2"]),
        tool("call_2", "b"),
    ]});
    assert_clean(&b);
}

#[test]
fn dsk_03_non_string_reasoning_content_fails() {
    let mut m = calls(&["call_1"]);
    m.as_object_mut()
        .unwrap()
        .insert("reasoning_content".into(), json!(7));
    let b = reasoner(json!([user("go"), m, tool("call_1", "a")]));
    assert_flags(&b, "DSK-03", "$.messages[1].reasoning_content");
    let v = validate_with(&b, false);
    find(&v, "OAC-STRUCT", "$.messages[1].reasoning_content");
}

#[test]
fn dsk_03_validate_with_follows_the_flag() {
    let b = chat(json!([user("go"), calls(&["call_1"]), tool("call_1", "a")]));
    assert!(validate_with(&b, false).is_empty());
    find(&validate_with(&b, true), "DSK-03", "$.messages[1]");
}

#[test]
fn dsk_03_thinking_is_inferred_from_the_body() {
    let plain = json!([user("go")]);
    let with_reasoning = json!([
        user("hi"),
        {"role": "assistant", "content": "hello", "reasoning_content": "greet"},
        user("go"),
    ]);
    assert!(infers_thinking(&reasoner(plain.clone())));
    assert!(infers_thinking(
        &json!({"model": "deepseek-chat", "thinking": {"type": "enabled"}, "messages": plain})
    ));
    assert!(!infers_thinking(&chat(plain.clone())));
    assert!(!infers_thinking(&chat(with_reasoning.clone())));
    assert!(infers_thinking(
        &json!({"model": "deepseek-v4-pro", "messages": with_reasoning})
    ));
    assert!(infers_thinking(
        &json!({"model": "deepseek-ai/DeepSeek-V3.2", "messages": with_reasoning})
    ));
    // DSK-10: V4 thinks by default (DeepSeek's Thinking Mode guide), whatever the history holds.
    assert!(infers_thinking(
        &json!({"model": "deepseek-v4-flash", "messages": plain})
    ));
    assert!(!infers_thinking(
        &json!({"model": "deepseek-v4-pro", "thinking": {"type": "disabled"}, "messages": with_reasoning})
    ));
}

// ---------------------------------------------------------------------------------------------
// DSK-04 (reported as OAC-01/02), other OAC rules

#[test]
fn dsk_04_paired_tool_messages_pass() {
    let b = chat(json!([
        user("go"),
        calls(&["call_1"]),
        tool("call_1", "a"),
        assistant("ok")
    ]));
    assert_clean(&b);
}

#[test]
fn dsk_04_split_call_and_result_fail_as_oac() {
    let b = chat(json!([
        user("go"),
        calls(&["call_1"]),
        user("summary of earlier turns"),
        tool("call_1", "a"),
    ]));
    assert_flags(&b, "OAC-02", "$.messages[1]");
    assert_flags(&b, "OAC-01", "$.messages[3].role");
}

#[test]
fn oac_03_long_id_is_kept() {
    let id = "toolu_vrtx_01KKqQ4XAbZ1s9kQ2w3e4r5t6y7u8i9o0p";
    let b = chat(json!([user("go"), calls(&[id]), tool(id, "a")]));
    assert_flags(&b, "OAC-03", "$.messages[1].tool_calls[0].id");
}

// ---------------------------------------------------------------------------------------------
// OAC-08 tightened: text parts only

#[test]
fn oac_08_text_parts_pass() {
    let b = chat(json!([
        {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "text", "text": "there"}]},
    ]));
    assert_clean(&b);
}

#[test]
fn oac_08_image_part_fails() {
    let b = chat(json!([
        {"role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
        ]},
    ]));
    let v = assert_flags(&b, "OAC-08", "$.messages[0].content[1].type");
    assert_eq!(
        v.message,
        "Failed to deserialize the JSON body into the target type: messages[0]: unknown variant `image_url`, expected `text`"
    );
}

#[test]
fn oac_08_refusal_part_fails() {
    let b = chat(json!([
        user("hi"),
        {"role": "assistant", "content": [{"type": "refusal", "refusal": "no"}]},
        user("ok"),
    ]));
    assert_flags(&b, "OAC-08", "$.messages[1].content[0].type");
}

#[test]
fn dsk_06_reasoner_last_message_must_be_user() {
    let b = reasoner(json!([
        user("Write a haiku."),
        assistant("Borrow checker hums")
    ]));
    let v = assert_flags(&b, "DSK-06", "$.messages[1]");
    assert_eq!(
        v.message,
        "The last message of deepseek-reasoner must be a user message, or an assistant message \
         with prefix mode on (refer to https://api-docs.deepseek.com/guides/chat_prefix_completion)."
    );
    // prefix mode (beta endpoint) is accepted
    let prefix = reasoner(json!([
        user("Write a haiku."),
        {"role": "assistant", "content": "Borrow", "prefix": true}
    ]));
    assert_not_flagged(&prefix, "DSK-06");
    // deepseek-chat takes a final assistant message
    assert_not_flagged(
        &chat(json!([
            user("Write a haiku."),
            assistant("Borrow checker hums")
        ])),
        "DSK-06",
    );
}

// ---------------------------------------------------------------------------------------------
// DSK-10 (issue 31): V4 thinks by default; the efforts DeepSeek documents

#[test]
fn dsk_10_effort_values_deepseek_documents_pass() {
    for effort in ["low", "medium", "high", "xhigh", "max"] {
        let b = json!({"model": "deepseek-v4-pro", "reasoning_effort": effort, "messages": [user("hi")]});
        assert!(validate(&b).is_empty(), "{effort}: {:?}", validate(&b));
    }
    for effort in [json!("minimal"), json!("none"), json!(3)] {
        let b = json!({"model": "deepseek-v4-pro", "reasoning_effort": effort, "messages": [user("hi")]});
        let v = validate(&b);
        assert_eq!(v.len(), 1, "{v:?}");
        assert_eq!(
            (v[0].rule, v[0].path.as_str()),
            ("DSK-10", "$.reasoning_effort")
        );
    }
}

#[test]
fn dsk_10_v4_without_a_thinking_field_is_thinking_mode() {
    let loop_open = json!([user("go"), calls(&["call_1"]), tool("call_1", "a")]);
    let v4 = json!({"model": "deepseek-v4-flash", "messages": loop_open.clone()});
    assert_eq!(validate(&v4)[0].rule, "DSK-03");
    let off = json!({"model": "deepseek-v4-flash", "thinking": {"type": "disabled"}, "messages": loop_open});
    assert!(validate(&off).is_empty());
}
