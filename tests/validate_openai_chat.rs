//! Tests of the strict OpenAI Chat Completions validator (provider-rules.md §2).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::openai_chat::validate::validate;
use turnwire::Violation;

fn body(messages: Value) -> Value {
    json!({"model": "gpt-4.1", "messages": messages})
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base.as_object_mut().unwrap().insert(key.to_string(), value);
    base
}

fn user(content: Value) -> Value {
    json!({"role": "user", "content": content})
}

fn system(content: &str) -> Value {
    json!({"role": "system", "content": content})
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
}

fn call(id: &str, name: &str) -> Value {
    json!({"id": id, "type": "function", "function": {"name": name, "arguments": "{}"}})
}

fn calls(ids: &[&str]) -> Value {
    let calls: Vec<Value> = ids.iter().map(|id| call(id, "ls")).collect();
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

/// A complete tool round trip with two parallel calls.
fn round_trip() -> Value {
    json!([
        user(json!("list files")),
        calls(&["call_1", "call_2"]),
        tool("call_1", "a.txt"),
        tool("call_2", "b.txt"),
        assistant(json!("Two files.")),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "gpt-4.1",
        "temperature": 0.2,
        "tools": [
            {"type": "function", "function": {"name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}}},
            {"type": "function", "function": {"name": "screenshot", "parameters": {"type": "object", "properties": {}}}}
        ],
        "messages": [
            {"role": "developer", "content": "You are a coding agent."},
            {"role": "user", "content": "Fix the login bug and show me the page."},
            {"role": "assistant", "content": "Reading both files.", "tool_calls": [
                {"id": "call_A1", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/login.ts\"}"}},
                {"id": "call_B2", "type": "function", "function": {"name": "read_file", "arguments": "{\"path\":\"src/auth.ts\"}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_B2", "content": "export const auth = 1;"},
            {"role": "tool", "tool_call_id": "call_A1", "content": [{"type": "text", "text": "export function login() {}"}]},
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_C3", "type": "function", "function": {"name": "screenshot", "arguments": "{}"}}
            ]},
            {"role": "tool", "tool_call_id": "call_C3", "content": "Screenshot attached in the next message."},
            {"role": "user", "content": [
                {"type": "text", "text": "Screenshot of /login:"},
                {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}}
            ]},
            {"role": "assistant", "content": [{"type": "text", "text": "The button is hidden by CSS."}]},
            {"role": "user", "content": "Thanks!"}
        ]
    });
    assert_clean(&b);
}

#[test]
fn violations_are_in_document_order() {
    let b = body(json!([
        tool("call_x", "orphan"),
        {"role": "assistant", "content": "", "tool_calls": [call("", "bad.name")]},
        user(json!("hi")),
    ]));
    let v = validate(&b);
    let got: Vec<(&str, &str)> = v.iter().map(|v| (v.rule, v.path.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("OAC-01", "$.messages[0].role"),
            ("OAC-02", "$.messages[1]"),
            ("OAC-06", "$.messages[1].content"),
            ("OAC-04", "$.messages[1].tool_calls[0].id"),
            ("OAC-05", "$.messages[1].tool_calls[0].function.name"),
        ]
    );
    assert_eq!(v, validate(&b));
}

// ---------------------------------------------------------------------------------------------
// OAC-STRUCT

#[test]
fn oac_struct_minimal_body_passes() {
    assert_clean(&body(json!([system("be brief"), user(json!("hi"))])));
}

#[test]
fn oac_struct_body_not_an_object_fails() {
    assert_flags(&json!("hello"), "OAC-STRUCT", "$");
}

#[test]
fn oac_struct_missing_model_and_messages_fail() {
    let b = json!({"model": ""});
    assert_flags(&b, "OAC-STRUCT", "$.model");
    assert_flags(&b, "OAC-STRUCT", "$.messages");
    assert_flags(&body(json!([])), "OAC-STRUCT", "$.messages");
}

#[test]
fn oac_struct_unknown_role_fails() {
    let b = body(json!([
        {"role": "function", "name": "ls", "content": "a"},
        {"content": "no role"},
        user(json!("hi")),
    ]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[0].role");
    assert_flags(&b, "OAC-STRUCT", "$.messages[1].role");
}

#[test]
fn oac_struct_bad_tool_call_fails() {
    let b = body(json!([
        user(json!("go")),
        {"role": "assistant", "content": null, "tool_calls": [
            {"id": "call_1", "type": "custom", "function": {"name": "ls", "arguments": "{\"a\":"}},
            {"id": "call_2", "type": "function", "function": {"name": "ls", "arguments": {"a": 1}}}
        ]},
        tool("call_1", "a"),
        tool("call_2", "b"),
    ]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[1].tool_calls[0].type");
    assert_flags(
        &b,
        "OAC-14",
        "$.messages[1].tool_calls[0].function.arguments",
    );
    assert_flags(
        &b,
        "OAC-14",
        "$.messages[1].tool_calls[1].function.arguments",
    );
}

#[test]
fn oac_struct_tool_message_without_tool_call_id_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        {"role": "tool", "content": "a"},
    ]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[2].tool_call_id");
}

#[test]
fn oac_struct_tool_calls_on_user_message_fails() {
    let b = body(json!([
        {"role": "user", "content": "hi", "tool_calls": [call("call_1", "ls")]},
    ]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[0].tool_calls");
}

#[test]
fn oac_struct_bad_tools_entry_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "tools",
        json!([{"type": "function", "name": "ls"}]),
    );
    assert_flags(&b, "OAC-STRUCT", "$.tools[0].function");
}

#[test]
fn oac_struct_bad_content_type_fails() {
    let b = body(json!([{"role": "user", "content": 7}]));
    assert_flags(&b, "OAC-STRUCT", "$.messages[0].content");
}

// ---------------------------------------------------------------------------------------------
// OAC-01, OAC-02

#[test]
fn oac_01_tool_messages_after_tool_calls_pass() {
    assert_clean(&body(round_trip()));
}

#[test]
fn oac_01_tool_message_first_fails() {
    let b = body(json!([tool("call_1", "a"), user(json!("hi"))]));
    let v = assert_flags(&b, "OAC-01", "$.messages[0].role");
    assert_eq!(
        v.message,
        "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
    );
}

#[test]
fn oac_01_tool_message_after_user_message_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        tool("call_1", "a"),
        user(json!("wait")),
        tool("call_1", "late"),
    ]));
    assert_flags(&b, "OAC-01", "$.messages[4].role");
}

#[test]
fn oac_01_tool_message_answering_unknown_id_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        tool("call_1", "a"),
        tool("call_9", "b"),
    ]));
    assert_flags(&b, "OAC-01", "$.messages[3].tool_call_id");
}

#[test]
fn oac_02_every_call_answered_passes() {
    assert_not_flagged(&body(round_trip()), "OAC-02");
}

#[test]
fn oac_02_missing_tool_response_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1", "call_2", "call_3"]),
        tool("call_2", "b"),
        user(json!("never mind")),
    ]));
    let v = assert_flags(&b, "OAC-02", "$.messages[1]");
    assert!(
        v.message.ends_with(
            "The following tool_call_ids did not have response messages: call_1, call_3"
        ),
        "{}",
        v.message
    );
}

#[test]
fn oac_02_request_ending_on_tool_calls_fails() {
    let b = body(json!([user(json!("go")), calls(&["call_1"])]));
    assert_flags(&b, "OAC-02", "$.messages[1]");
}

// ---------------------------------------------------------------------------------------------
// OAC-03, OAC-04, OAC-05

#[test]
fn oac_03_ids_up_to_40_chars_pass() {
    let id = "c".repeat(40);
    let b = body(json!([user(json!("go")), calls(&[&id]), tool(&id, "a")]));
    assert_clean(&b);
}

#[test]
fn oac_03_id_longer_than_40_chars_fails() {
    let id = "toolu_vrtx_01KKqQ4XAbZ1s9kQ2w3e4r5t6y7u8i9o0p";
    assert!(id.len() > 40);
    let b = body(json!([user(json!("go")), calls(&[id]), tool(id, "a")]));
    let v = assert_flags(&b, "OAC-03", "$.messages[1].tool_calls[0].id");
    assert_eq!(
        v.message,
        format!(
            "string too long. Expected a string with maximum length 40, but got a string with length {} instead.",
            id.len()
        )
    );
    assert_flags(&b, "OAC-03", "$.messages[2].tool_call_id");
}

#[test]
fn oac_04_non_empty_ids_and_names_pass() {
    assert_not_flagged(&body(round_trip()), "OAC-04");
}

#[test]
fn oac_04_empty_function_name_fails() {
    let b = body(json!([
        user(json!("go")),
        {"role": "assistant", "content": null, "tool_calls": [call("call_1", "")]},
        tool("call_1", "a"),
    ]));
    let v = assert_flags(&b, "OAC-04", "$.messages[1].tool_calls[0].function.name");
    assert!(v.message.starts_with("empty string."), "{}", v.message);
}

#[test]
fn oac_04_empty_ids_fail() {
    let b = body(json!([user(json!("go")), calls(&[""]), tool("", "a")]));
    assert_flags(&b, "OAC-04", "$.messages[1].tool_calls[0].id");
    assert_flags(&b, "OAC-04", "$.messages[2].tool_call_id");
}

#[test]
fn oac_04_empty_tool_calls_array_fails() {
    let b = body(json!([
        user(json!("go")),
        {"role": "assistant", "content": "ok", "tool_calls": []},
    ]));
    let v = assert_flags(&b, "OAC-04", "$.messages[1].tool_calls");
    assert!(v.message.starts_with("empty array."), "{}", v.message);
}

fn function_tool(name: &str, description: &str) -> Value {
    json!({"type": "function", "function": {"name": name, "description": description, "parameters": {"type": "object"}}})
}

#[test]
fn oac_05_valid_names_and_description_pass() {
    let b = with(
        body(round_trip()),
        "tools",
        json!([
            function_tool("ls", &"d".repeat(1024)),
            function_tool(&"n".repeat(64), "x")
        ]),
    );
    assert_clean(&b);
}

#[test]
fn oac_05_bad_tool_name_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "tools",
        json!([
            function_tool("mcp.server.read", "x"),
            function_tool(&"n".repeat(65), "x")
        ]),
    );
    let v = assert_flags(&b, "OAC-05", "$.tools[0].function.name");
    assert!(
        v.message.starts_with("string does not match pattern."),
        "{}",
        v.message
    );
    assert_flags(&b, "OAC-05", "$.tools[1].function.name");
}

#[test]
fn oac_05_bad_name_in_history_fails() {
    let b = body(json!([
        user(json!("go")),
        {"role": "assistant", "content": null, "tool_calls": [call("call_1", "default_api:Read")]},
        tool("call_1", "a"),
    ]));
    assert_flags(&b, "OAC-05", "$.messages[1].tool_calls[0].function.name");
}

#[test]
fn oac_05_description_too_long_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "tools",
        json!([function_tool("ls", &"d".repeat(1025))]),
    );
    assert_flags(&b, "OAC-05", "$.tools[0].function.description");
}

// ---------------------------------------------------------------------------------------------
// OAC-06

#[test]
fn oac_06_null_content_with_tool_calls_passes() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        tool("call_1", "a"),
        {"role": "assistant", "content": "text too", "tool_calls": [call("call_2", "ls")]},
        tool("call_2", "b"),
        {"role": "assistant", "tool_calls": [call("call_3", "ls")]},
        tool("call_3", "c"),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_06_null_content_without_tool_calls_fails() {
    let b = body(json!([user(json!("go")), assistant(Value::Null)]));
    let v = assert_flags(&b, "OAC-06", "$.messages[1].content");
    assert_eq!(
        v.message,
        "Invalid value for 'content': expected a string, got null."
    );
}

#[test]
fn oac_06_empty_content_fails() {
    let b = body(json!([
        user(json!("")),
        assistant(json!([])),
        {"role": "user"},
        {"role": "assistant", "content": "", "tool_calls": [call("call_1", "ls")]},
        tool("call_1", "a"),
    ]));
    assert_flags(&b, "OAC-06", "$.messages[0].content");
    assert_flags(&b, "OAC-06", "$.messages[1].content");
    assert_flags(&b, "OAC-06", "$.messages[2].content");
    assert_flags(&b, "OAC-06", "$.messages[3].content");
}

#[test]
fn oac_06_array_content_with_tool_calls_fails() {
    let b = body(json!([
        user(json!("go")),
        {"role": "assistant", "content": [{"type": "text", "text": "x"}], "tool_calls": [call("call_1", "ls")]},
        tool("call_1", "a"),
    ]));
    assert_flags(&b, "OAC-06", "$.messages[1].content");
}

#[test]
fn oac_06_null_tool_content_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_1"]),
        {"role": "tool", "tool_call_id": "call_1", "content": null},
    ]));
    assert_flags(&b, "OAC-06", "$.messages[2].content");
}

// ---------------------------------------------------------------------------------------------
// OAC-07, OAC-08

fn image_part() -> Value {
    json!({"type": "image_url", "image_url": {"url": "https://example.com/a.png"}})
}

#[test]
fn oac_07_image_in_user_message_after_tool_run_passes() {
    let b = body(json!([
        user(json!("screenshot please")),
        calls(&["call_1"]),
        tool("call_1", "see next message"),
        user(json!([{"type": "text", "text": "screenshot:"}, image_part()])),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_07_image_in_tool_message_fails() {
    let b = body(json!([
        user(json!("screenshot please")),
        calls(&["call_1"]),
        {"role": "tool", "tool_call_id": "call_1", "content": [image_part()]},
    ]));
    let v = assert_flags(&b, "OAC-07", "$.messages[2].content[0]");
    assert_eq!(
        v.message,
        "Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL."
    );
    // reported once, as OAC-07, not again as an unknown part type
    assert_not_flagged(&b, "OAC-08");
}

#[test]
fn oac_07_image_in_assistant_message_fails() {
    let b = body(json!([user(json!("hi")), assistant(json!([image_part()]))]));
    assert_flags(&b, "OAC-07", "$.messages[1].content[0]");
}

#[test]
fn oac_08_known_part_types_pass() {
    let b = body(json!([
        {"role": "system", "content": [{"type": "text", "text": "sys"}]},
        user(json!([
            {"type": "text", "text": "hi"},
            image_part(),
            {"type": "input_audio", "input_audio": {"data": "AAAA", "format": "wav"}},
            {"type": "file", "file": {"file_id": "file-1"}}
        ])),
        assistant(json!([{"type": "text", "text": "a"}, {"type": "refusal", "refusal": "no"}])),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_08_thinking_part_fails() {
    let b = body(json!([
        user(json!("hi")),
        assistant(
            json!([{"type": "thinking", "thinking": "hmm", "signature": "x"}, {"type": "text", "text": "a"}])
        ),
    ]));
    let v = assert_flags(&b, "OAC-08", "$.messages[1].content[0].type");
    assert!(
        v.message.starts_with("Invalid value: 'thinking'."),
        "{}",
        v.message
    );
}

#[test]
fn oac_08_refusal_part_in_user_message_fails() {
    let b = body(json!([user(json!([{"type": "refusal", "refusal": "no"}]))]));
    assert_flags(&b, "OAC-08", "$.messages[0].content[0].type");
}

// ---------------------------------------------------------------------------------------------
// OAC-09

#[test]
fn oac_09_unique_call_ids_pass() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_0"]),
        tool("call_0", "a"),
        calls(&["call_1"]),
        tool("call_1", "b"),
    ]));
    assert_clean(&b);
}

#[test]
fn oac_09_call_id_reused_across_turns_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_0"]),
        tool("call_0", "a"),
        calls(&["call_0"]),
        tool("call_0", "b"),
    ]));
    assert_flags(&b, "OAC-09", "$.messages[3].tool_calls[0].id");
}

#[test]
fn oac_09_call_answered_twice_fails() {
    let b = body(json!([
        user(json!("go")),
        calls(&["call_0"]),
        tool("call_0", "a"),
        tool("call_0", "again"),
    ]));
    assert_flags(&b, "OAC-09", "$.messages[3].tool_call_id");
    assert_not_flagged(&b, "OAC-01");
}

#[test]
fn oac_14_arguments_must_be_a_json_object_string() {
    for (args, what) in [
        (json!("{\"cmd\": \"ls"), "unterminated"),
        (json!("[1, 2]"), "array"),
        (json!("\"ls\""), "string"),
        (json!("null"), "null"),
        (json!({"cmd": "ls"}), "object, not a string"),
    ] {
        let b = body(json!([
            user(json!("go")),
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": args}}
            ]},
            tool("call_1", "a"),
        ]));
        let v = assert_flags(
            &b,
            "OAC-14",
            "$.messages[1].tool_calls[0].function.arguments",
        );
        assert!(
            v.message
                .starts_with("messages.1.tool_calls.0.function.arguments: arguments must be a valid JSON object string"),
            "{what}: {}",
            v.message
        );
    }
    assert_clean(&body(round_trip()));
}
