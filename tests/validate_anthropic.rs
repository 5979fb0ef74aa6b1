//! Tests of the strict Anthropic Messages validator (provider-rules.md §1).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::anthropic::validate::validate;
use turnwire::Violation;

/// A 1×1 PNG.
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
/// The first bytes of a JPEG (JFIF) file.
const JPEG: &str = "/9j/4AAQSkZJRgA=";
/// The first bytes of a GIF file.
const GIF: &str = "R0lGODlhAQABAAAAAA==";
/// The first bytes of a WebP file.
const WEBP: &str = "UklGRiQAAABXRUJQVlA4IA==";

fn body(messages: Value) -> Value {
    json!({"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": messages})
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base.as_object_mut().unwrap().insert(key.to_string(), value);
    base
}

fn thinking_on(messages: Value) -> Value {
    with(
        json!({"model": "claude-sonnet-4-5", "max_tokens": 4096, "messages": messages}),
        "thinking",
        json!({"type": "enabled", "budget_tokens": 2048}),
    )
}

fn tool_use(id: &str, name: &str) -> Value {
    json!({"type": "tool_use", "id": id, "name": name, "input": {}})
}

fn tool_result(id: &str, text: &str) -> Value {
    json!({"type": "tool_result", "tool_use_id": id, "content": text})
}

fn thinking() -> Value {
    json!({"type": "thinking", "thinking": "Let me think.", "signature": "EqQBCkYIBxgCKkAsig"})
}

fn text(t: &str) -> Value {
    json!({"type": "text", "text": t})
}

fn image(media_type: &str, data: &str) -> Value {
    json!({"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}})
}

fn user(content: Value) -> Value {
    json!({"role": "user", "content": content})
}

fn assistant(content: Value) -> Value {
    json!({"role": "assistant", "content": content})
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

/// A complete tool round trip: user asks, assistant calls, user answers.
fn round_trip() -> Value {
    json!([
        user(json!("list files")),
        assistant(json!([text("Looking."), tool_use("toolu_01", "ls")])),
        user(json!([tool_result("toolu_01", "a.txt")])),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "claude-sonnet-4-5",
        "max_tokens": 8192,
        "system": [{"type": "text", "text": "You are a coding agent.", "cache_control": {"type": "ephemeral"}}],
        "thinking": {"type": "enabled", "budget_tokens": 4096},
        "tools": [
            {"name": "read_file", "description": "Read a file", "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}}},
            {"name": "screenshot", "input_schema": {"type": "object"}, "cache_control": {"type": "ephemeral"}}
        ],
        "messages": [
            {"role": "user", "content": "Fix the login bug and show me the page."},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "Read both files, then look at the page.", "signature": "EqQBCkYIBxgCKkAsig=="},
                {"type": "text", "text": "Reading the sources first."},
                {"type": "tool_use", "id": "toolu_01A", "name": "read_file", "input": {"path": "src/login.ts"}},
                {"type": "tool_use", "id": "toolu_01B", "name": "read_file", "input": {"path": "src/auth.ts"}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "export function login() {}"},
                {"type": "tool_result", "tool_use_id": "toolu_01B", "content": [{"type": "text", "text": "export const auth = 1;"}]},
                {"type": "text", "text": "Also check the CSS."}
            ]},
            {"role": "assistant", "content": [
                {"type": "redacted_thinking", "data": "EmwKAhgBEgy3va3pzix/LafPsn4a"},
                {"type": "text", "text": "Taking a screenshot."},
                {"type": "tool_use", "id": "toolu_02", "name": "screenshot", "input": {}}
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "toolu_02", "content": [
                    {"type": "text", "text": "Screenshot of /login"},
                    {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": PNG}}
                ], "cache_control": {"type": "ephemeral"}}
            ]},
            {"role": "assistant", "content": [
                {"type": "thinking", "thinking": "The button is hidden.", "signature": "EqQBCkYIBxgCKkBzz=="},
                {"type": "text", "text": "The login button is hidden by CSS; here is the fix."}
            ]},
            {"role": "user", "content": [
                {"type": "text", "text": "Thanks! Does this photo look right?"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/jpeg", "data": JPEG}},
                {"type": "image", "source": {"type": "url", "url": "https://example.com/a.gif"}}
            ]}
        ]
    });
    assert_clean(&b);
}

#[test]
fn violations_are_in_document_order() {
    let b = body(json!([
        assistant(json!([text("")])),
        assistant(json!([tool_use("bad.id", "ls")])),
    ]));
    let v = validate(&b);
    let got: Vec<(&str, &str)> = v.iter().map(|v| (v.rule, v.path.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("ANT-01", "$.messages[0].role"),
            ("ANT-09", "$.messages[0].content[0].text"),
            ("ANT-04", "$.messages[1]"),
            ("ANT-02", "$.messages[1].role"),
            ("ANT-08", "$.messages[1].content[0].id"),
        ]
    );
    // the output is deterministic
    assert_eq!(v, validate(&b));
}

// ---------------------------------------------------------------------------------------------
// ANT-STRUCT

#[test]
fn ant_struct_minimal_body_passes() {
    assert_clean(&body(json!([user(json!("hi"))])));
}

#[test]
fn ant_struct_body_not_an_object_fails() {
    assert_flags(&json!([1, 2]), "ANT-STRUCT", "$");
}

#[test]
fn ant_struct_missing_model_and_bad_max_tokens_fail() {
    let b = json!({"max_tokens": 0, "messages": [user(json!("hi"))]});
    assert_flags(&b, "ANT-STRUCT", "$.model");
    assert_flags(&b, "ANT-STRUCT", "$.max_tokens");
    let b = json!({"model": "", "max_tokens": 1.5, "messages": [user(json!("hi"))]});
    assert_flags(&b, "ANT-STRUCT", "$.model");
    assert_flags(&b, "ANT-STRUCT", "$.max_tokens");
}

#[test]
fn ant_struct_messages_missing_or_empty_fails() {
    let b = json!({"model": "m", "max_tokens": 8});
    assert_flags(&b, "ANT-STRUCT", "$.messages");
    assert_flags(&body(json!([])), "ANT-STRUCT", "$.messages");
    assert_flags(&body(json!({"role": "user"})), "ANT-STRUCT", "$.messages");
}

#[test]
fn ant_struct_unknown_role_and_bad_content_fail() {
    // (`system` is a role since the SDK of 2026-05-28, ANT-25; `developer` is none)
    let b = body(json!([
        {"role": "developer", "content": "be nice"},
        {"role": "user", "content": 42},
        {"role": "assistant"},
    ]));
    assert_flags(&b, "ANT-STRUCT", "$.messages[0].role");
    assert_flags(&b, "ANT-STRUCT", "$.messages[1].content");
    assert_flags(&b, "ANT-STRUCT", "$.messages[2].content");
}

#[test]
fn ant_struct_unknown_block_type_fails() {
    let b = body(json!([user(json!([{"type": "reasoning", "text": "hmm"}]))]));
    assert_flags(&b, "ANT-STRUCT", "$.messages[0].content[0].type");
}

#[test]
fn ant_struct_bad_tool_use_fields_fail() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([{"type": "tool_use", "id": "toolu_1", "input": "ls"}])),
        user(json!([tool_result("toolu_1", "ok")])),
    ]));
    assert_flags(&b, "ANT-STRUCT", "$.messages[1].content[0].name");
    assert_flags(&b, "ANT-26", "$.messages[1].content[0].input");
}

#[test]
fn ant_struct_bad_thinking_config_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "thinking",
        json!({"type": "enabled"}),
    );
    assert_flags(&b, "ANT-STRUCT", "$.thinking.budget_tokens");
    let b = with(
        body(json!([user(json!("hi"))])),
        "thinking",
        json!({"type": "enabled", "budget_tokens": 2048}),
    );
    // max_tokens (1024) must exceed the budget
    assert_flags(&b, "ANT-STRUCT", "$.thinking.budget_tokens");
    let b = with(
        body(json!([user(json!("hi"))])),
        "thinking",
        json!({"type": "on"}),
    );
    assert_flags(&b, "ANT-STRUCT", "$.thinking.type");
}

#[test]
fn ant_struct_thinking_config_passes() {
    // adaptive thinking on a model that takes it (ANT-34: Claude 4.6 and later)
    for (model, cfg) in [
        ("claude-sonnet-4-5", json!({"type": "disabled"})),
        ("claude-opus-4-6", json!({"type": "adaptive"})),
        (
            "claude-sonnet-4-5",
            json!({"type": "enabled", "budget_tokens": 1024}),
        ),
    ] {
        let b = with(
            with(
                with(body(json!([user(json!("hi"))])), "max_tokens", json!(4096)),
                "model",
                json!(model),
            ),
            "thinking",
            cfg,
        );
        assert_clean(&b);
    }
}

#[test]
fn ant_struct_tool_without_input_schema_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "tools",
        json!([{"name": "ls"}, {"type": "web_search_20250305", "name": "web_search"}]),
    );
    assert_flags(&b, "ANT-STRUCT", "$.tools[0].input_schema");
    let v = validate(&b);
    assert!(
        !v.iter().any(|v| v.path.starts_with("$.tools[1]")),
        "{}",
        dump(&v)
    );
}

#[test]
fn ant_struct_system_non_text_block_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "system",
        json!([{"type": "image", "source": {}}]),
    );
    assert_flags(&b, "ANT-STRUCT", "$.system[0]");
}

// ---------------------------------------------------------------------------------------------
// ANT-01, ANT-02

#[test]
fn ant_01_first_message_user_passes() {
    assert_not_flagged(
        &body(json!([user(json!("hi")), assistant(json!("hello"))])),
        "ANT-01",
    );
}

#[test]
fn ant_01_first_message_assistant_fails() {
    let b = body(json!([assistant(json!("hello")), user(json!("hi"))]));
    let v = assert_flags(&b, "ANT-01", "$.messages[0].role");
    assert_eq!(v.message, "first message must use the \"user\" role");
}

#[test]
fn ant_02_alternating_roles_pass() {
    assert_clean(&body(json!([
        user(json!("a")),
        assistant(json!("b")),
        user(json!("c")),
    ])));
}

#[test]
fn ant_02_consecutive_user_messages_fail() {
    let b = body(json!([user(json!("a")), user(json!("b"))]));
    let v = assert_flags(&b, "ANT-02", "$.messages[1].role");
    assert!(
        v.message.contains("multiple \"user\" roles in a row"),
        "{}",
        v.message
    );
}

#[test]
fn ant_02_consecutive_assistant_messages_fail() {
    let b = body(json!([
        user(json!("a")),
        assistant(json!("b")),
        assistant(json!("c"))
    ]));
    let v = assert_flags(&b, "ANT-02", "$.messages[2].role");
    assert!(
        v.message.contains("multiple \"assistant\" roles"),
        "{}",
        v.message
    );
}

// ---------------------------------------------------------------------------------------------
// ANT-03 .. ANT-08: tool pairing and ids

#[test]
fn ant_03_result_answering_previous_message_passes() {
    assert_clean(&body(round_trip()));
}

#[test]
fn ant_03_orphan_tool_result_fails() {
    let b = body(json!([user(json!([tool_result("toolu_gone", "ok")])),]));
    let v = assert_flags(&b, "ANT-03", "$.messages[0].content[0].tool_use_id");
    assert!(
        v.message
            .starts_with("unexpected `tool_use_id` found in `tool_result` blocks: toolu_gone."),
        "{}",
        v.message
    );
}

#[test]
fn ant_03_result_separated_from_its_call_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "ok")])),
        assistant(json!("done")),
        user(json!([tool_result("toolu_1", "late duplicate")])),
    ]));
    assert_flags(&b, "ANT-03", "$.messages[4].content[0].tool_use_id");
}

#[test]
fn ant_03_tool_result_in_assistant_message_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_result("toolu_1", "ok")])),
    ]));
    assert_flags(&b, "ANT-03", "$.messages[1].content[0]");
}

#[test]
fn ant_04_every_tool_use_answered_passes() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([
            tool_use("toolu_1", "ls"),
            tool_use("toolu_2", "pwd")
        ])),
        user(json!([
            tool_result("toolu_2", "/"),
            tool_result("toolu_1", "a")
        ])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_04_tool_use_without_result_in_next_message_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([
            tool_use("toolu_1", "ls"),
            tool_use("toolu_2", "pwd"),
            tool_use("toolu_3", "id")
        ])),
        user(json!([tool_result("toolu_2", "/")])),
    ]));
    let v = assert_flags(&b, "ANT-04", "$.messages[1]");
    assert!(
        v.message.starts_with(
            "`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1, toolu_3."
        ),
        "{}",
        v.message
    );
}

#[test]
fn ant_04_request_ending_on_tool_use_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
    ]));
    assert_flags(&b, "ANT-04", "$.messages[1]");
}

#[test]
fn ant_04_user_text_instead_of_results_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!("never mind")),
    ]));
    assert_flags(&b, "ANT-04", "$.messages[1]");
}

#[test]
fn ant_04_tool_use_in_user_message_fails() {
    let b = body(json!([user(json!([tool_use("toolu_1", "ls")]))]));
    assert_flags(&b, "ANT-04", "$.messages[0].content[0]");
}

#[test]
fn ant_05_results_before_text_pass() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a"), text("and then?")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_05_text_before_tool_result_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([text("here:"), tool_result("toolu_1", "a")])),
    ]));
    let v = assert_flags(&b, "ANT-05", "$.messages[2].content[0]");
    assert!(
        v.message
            .starts_with("Did not find 1 `tool_result` block(s) at the beginning of this message."),
        "{}",
        v.message
    );
}

#[test]
fn ant_06_one_result_per_tool_use_passes() {
    assert_not_flagged(&body(round_trip()), "ANT-06");
}

#[test]
fn ant_06_duplicate_result_in_same_message_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([
            tool_result("toolu_1", "a"),
            tool_result("toolu_1", "again")
        ])),
    ]));
    assert_flags(&b, "ANT-06", "$.messages[2].content[1].tool_use_id");
}

#[test]
fn ant_07_unique_tool_use_ids_pass() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
        assistant(json!([tool_use("toolu_2", "ls")])),
        user(json!([tool_result("toolu_2", "b")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_07_tool_use_id_reused_across_turns_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("call_0", "ls")])),
        user(json!([tool_result("call_0", "a")])),
        assistant(json!([tool_use("call_0", "ls")])),
        user(json!([tool_result("call_0", "b")])),
    ]));
    let v = assert_flags(&b, "ANT-07", "$.messages[3].content[0].id");
    assert_eq!(v.message, "`tool_use` ids must be unique");
}

#[test]
fn ant_08_valid_ids_pass() {
    let long = "a".repeat(64);
    let b = body(json!([
        user(json!("go")),
        assistant(json!([
            tool_use(&long, "ls"),
            tool_use("bash-uOQIdN0O_x", "ls")
        ])),
        user(json!([
            tool_result(&long, "a"),
            tool_result("bash-uOQIdN0O_x", "b")
        ])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_08_id_with_pipe_or_dot_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("fc_1|call_2", "ls")])),
        user(json!([tool_result("fc_1|call_2", "a")])),
    ]));
    let v = assert_flags(&b, "ANT-08", "$.messages[1].content[0].id");
    assert_eq!(v.message, "String should match pattern '^[a-zA-Z0-9_-]+$'");
    assert_flags(&b, "ANT-08", "$.messages[2].content[0].tool_use_id");
}

#[test]
fn ant_08_empty_and_too_long_ids_fail() {
    let long = "a".repeat(65);
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("", "ls"), tool_use(&long, "ls")])),
        user(json!([tool_result("", "a"), tool_result(&long, "b")])),
    ]));
    assert_flags(&b, "ANT-08", "$.messages[1].content[0].id");
    assert_flags(&b, "ANT-08", "$.messages[1].content[1].id");
    assert_flags(&b, "ANT-08", "$.messages[2].content[1].tool_use_id");
}

#[test]
fn ant_08_server_tool_use_id_pattern() {
    let ok = body(json!([
        user(json!("search")),
        assistant(json!([
            {"type": "server_tool_use", "id": "srvtoolu_01abc", "name": "web_search", "input": {"query": "x"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01abc", "content": []},
            text("found it"),
        ])),
    ]));
    assert_clean(&ok);
    let bad = body(json!([
        user(json!("search")),
        assistant(json!([
            {"type": "server_tool_use", "id": "toolu_01abc", "name": "web_search", "input": {}},
            text("found it"),
        ])),
    ]));
    assert_flags(&bad, "ANT-08", "$.messages[1].content[0].id");
}

// ---------------------------------------------------------------------------------------------
// ANT-09

#[test]
fn ant_09_non_empty_text_passes() {
    let b = with(
        body(json!([user(json!([text(" hi ")]))])),
        "system",
        json!([{"type": "text", "text": "sys"}]),
    );
    assert_clean(&b);
}

#[test]
fn ant_09_empty_text_block_fails() {
    let b = body(json!([user(json!([text("")]))]));
    let v = assert_flags(&b, "ANT-09", "$.messages[0].content[0].text");
    assert_eq!(v.message, "text content blocks must be non-empty");
}

#[test]
fn ant_09_whitespace_only_text_fails() {
    let b = body(json!([
        user(json!([text("hi")])),
        assistant(json!([text(" \n ")]))
    ]));
    let v = assert_flags(&b, "ANT-09", "$.messages[1].content[0].text");
    assert_eq!(
        v.message,
        "text content blocks must contain non-whitespace text"
    );
}

#[test]
fn ant_09_empty_string_content_fails() {
    let b = body(json!([user(json!("  "))]));
    assert_flags(&b, "ANT-09", "$.messages[0].content");
}

#[test]
fn ant_09_empty_content_array_fails() {
    let b = body(json!([user(json!("hi")), assistant(json!([]))]));
    let v = assert_flags(&b, "ANT-09", "$.messages[1].content");
    assert_eq!(v.message, "all messages must have non-empty content");
}

#[test]
fn ant_09_empty_tool_result_content_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([
            tool_use("toolu_1", "ls"),
            tool_use("toolu_2", "ls")
        ])),
        user(json!([
            tool_result("toolu_1", ""),
            {"type": "tool_result", "tool_use_id": "toolu_2", "content": [text(""), text("ok")]},
        ])),
    ]));
    assert_flags(&b, "ANT-09", "$.messages[2].content[0].content");
    assert_flags(&b, "ANT-09", "$.messages[2].content[1].content[0].text");
}

#[test]
fn ant_09_empty_system_block_fails() {
    let b = with(
        body(json!([user(json!("hi"))])),
        "system",
        json!([{"type": "text", "text": ""}]),
    );
    assert_flags(&b, "ANT-09", "$.system[0].text");
}

// ---------------------------------------------------------------------------------------------
// Thinking: ANT-10, ANT-11, ANT-13, ANT-15, ANT-16, ANT-17

#[test]
fn ant_10_open_loop_starting_with_thinking_passes() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([thinking(), tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_10_closed_earlier_loop_without_thinking_passes() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
        assistant(json!("done")),
        user(json!("next question")),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_10_open_loop_without_thinking_fails() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([text("Running."), tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
    ]));
    let v = assert_flags(&b, "ANT-10", "$.messages[1].content[0].type");
    assert!(
        v.message
            .starts_with("Expected `thinking` or `redacted_thinking`, but found `text`."),
        "{}",
        v.message
    );
}

#[test]
fn ant_10_adaptive_thinking_open_loop_with_string_content_fails() {
    let b = with(
        body(json!([
            user(json!("go")),
            assistant(json!("Running it.")),
            user(json!([text("result:"), tool_result("toolu_1", "a")])),
        ])),
        "thinking",
        json!({"type": "adaptive"}),
    );
    assert_flags(&b, "ANT-10", "$.messages[1].content");
}

#[test]
fn ant_10_multi_step_loop_needs_thinking_only_at_the_start_of_the_turn() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([thinking(), tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
        assistant(json!([tool_use("toolu_2", "ls")])),
        user(json!([tool_result("toolu_2", "b")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_10_multi_step_loop_without_thinking_at_its_start_fails() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "ls")])),
        user(json!([tool_result("toolu_1", "a")])),
        assistant(json!([thinking(), tool_use("toolu_2", "ls")])),
        user(json!([tool_result("toolu_2", "b")])),
    ]));
    assert_flags(&b, "ANT-10", "$.messages[1].content[0].type");
}

#[test]
fn ant_10_prefill_starting_with_thinking_passes() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([thinking(), text("Partial answer")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_10_prefill_without_thinking_fails() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([text("Partial answer")])),
    ]));
    assert_flags(&b, "ANT-10", "$.messages[1].content[0].type");
}

#[test]
fn ant_10_open_loop_without_thinking_passes_when_thinking_disabled() {
    let b = with(
        body(json!([
            user(json!("go")),
            assistant(json!([tool_use("toolu_1", "ls")])),
            user(json!([tool_result("toolu_1", "a")])),
        ])),
        "thinking",
        json!({"type": "disabled"}),
    );
    assert_clean(&b);
}

#[test]
fn ant_11_thinking_first_passes() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([thinking(), text("answer")])),
        user(json!("ok")),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_11_thinking_after_text_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([text("answer"), thinking(), text("more")])),
        user(json!("ok")),
    ]));
    let v = assert_flags(&b, "ANT-11", "$.messages[1].content[0]");
    assert!(v.message.ends_with("Found text."), "{}", v.message);
}

#[test]
fn ant_11_thinking_in_user_message_fails() {
    let b = body(json!([user(json!([thinking(), text("hi")]))]));
    assert_flags(&b, "ANT-11", "$.messages[0].content[0]");
}

#[test]
fn ant_13_signed_thinking_passes() {
    assert_not_flagged(
        &body(json!([
            user(json!("go")),
            assistant(json!([thinking(), text("a")]))
        ])),
        "ANT-13",
    );
}

#[test]
fn ant_13_unsigned_thinking_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([{"type": "thinking", "thinking": "hmm"}, text("a")])),
        user(json!("ok")),
        assistant(json!([{"type": "thinking", "thinking": "hmm", "signature": ""}, text("b")])),
        user(json!("ok")),
    ]));
    let v = assert_flags(&b, "ANT-13", "$.messages[1].content[0].signature");
    assert_eq!(v.message, "thinking.signature: Field required");
    assert_flags(&b, "ANT-13", "$.messages[3].content[0].signature");
}

#[test]
fn ant_15_final_assistant_with_thinking_passes_when_enabled() {
    let b = thinking_on(json!([
        user(json!("go")),
        assistant(json!([thinking(), text("partial")])),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_15_final_assistant_with_thinking_fails_when_disabled() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([thinking(), text("partial")])),
    ]));
    let v = assert_flags(&b, "ANT-15", "$.messages[1].content[0]");
    assert!(
        v.message.starts_with("When thinking is disabled"),
        "{}",
        v.message
    );
}

#[test]
fn ant_16_assistant_ending_with_text_passes() {
    assert_not_flagged(
        &body(json!([
            user(json!("go")),
            assistant(json!([thinking(), text("a")])),
            user(json!("k"))
        ])),
        "ANT-16",
    );
}

#[test]
fn ant_16_assistant_ending_with_thinking_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([thinking()])),
        user(json!("continue")),
    ]));
    let v = assert_flags(&b, "ANT-16", "$.messages[1].content[0]");
    assert_eq!(
        v.message,
        "The final block in an assistant message cannot be `thinking`."
    );
}

#[test]
fn ant_17_redacted_thinking_with_data_passes() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([{"type": "redacted_thinking", "data": "EmwKAhgB"}, text("a")])),
        user(json!("k")),
    ]));
    assert_clean(&b);
}

#[test]
fn ant_17_redacted_thinking_without_data_fails() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([{"type": "redacted_thinking", "data": ""}, text("a")])),
        user(json!("k")),
    ]));
    assert_flags(&b, "ANT-17", "$.messages[1].content[0].data");
}

// ---------------------------------------------------------------------------------------------
// ANT-18, ANT-19, ANT-20

fn cached_text(t: &str) -> Value {
    json!({"type": "text", "text": t, "cache_control": {"type": "ephemeral"}})
}

#[test]
fn ant_18_four_cache_markers_pass() {
    let b = with(
        body(json!([
            user(json!([cached_text("a"), cached_text("b")])),
            assistant(json!([cached_text("c")])),
            user(json!("d")),
        ])),
        "system",
        json!([cached_text("sys")]),
    );
    assert_clean(&b);
}

#[test]
fn ant_18_five_cache_markers_fail() {
    let b = with(
        with(
            body(json!([
                user(json!([cached_text("a"), cached_text("b")])),
                assistant(json!([cached_text("c")])),
                user(json!([cached_text("d")])),
            ])),
            "system",
            json!([cached_text("sys")]),
        ),
        "tools",
        json!([]),
    );
    let v = assert_flags(&b, "ANT-18", "$.messages[2].content[0].cache_control");
    assert_eq!(
        v.message,
        "A maximum of 4 blocks with cache_control may be provided. Found 5."
    );
}

#[test]
fn ant_19_supported_images_pass() {
    let b = body(json!([user(json!([
        image("image/png", PNG),
        image("image/jpeg", JPEG),
        image("image/gif", GIF),
        image("image/webp", WEBP),
        text("what are these?"),
    ]))]));
    assert_clean(&b);
}

#[test]
fn ant_19_unsupported_media_type_fails() {
    let b = body(json!([user(json!([image("image/bmp", PNG)]))]));
    assert_flags(&b, "ANT-19", "$.messages[0].content[0].source.media_type");
}

#[test]
fn ant_19_media_type_mismatch_fails() {
    let b = body(json!([user(json!([image("image/png", JPEG)]))]));
    let v = assert_flags(&b, "ANT-19", "$.messages[0].content[0].source.data");
    assert_eq!(
        v.message,
        "Image does not match the provided media type image/png"
    );
}

#[test]
fn ant_19_invalid_base64_fails() {
    for data in [
        "iVBOR w0K",
        "iVBORw0KGgo",
        "iVBO*w0KGgo=",
        "",
        "iVBORw0KG===",
    ] {
        let b = body(json!([user(json!([image("image/png", data)]))]));
        assert_flags(&b, "ANT-19", "$.messages[0].content[0].source.data");
    }
}

#[test]
fn ant_19_image_over_5_mb_fails() {
    // 6_990_508 base64 characters decode to 5_242_881 bytes
    let data = "A".repeat(6_990_508);
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "screenshot")])),
        user(
            json!([{"type": "tool_result", "tool_use_id": "toolu_1", "content": [image("image/png", &data)]}])
        ),
    ]));
    let v = assert_flags(
        &b,
        "ANT-19",
        "$.messages[2].content[0].content[0].source.data",
    );
    assert_eq!(
        v.message,
        "image exceeds 5 MB maximum: 5242881 bytes > 5242880 bytes"
    );
}

#[test]
fn ant_19_image_in_tool_result_passes() {
    let b = body(json!([
        user(json!("go")),
        assistant(json!([tool_use("toolu_1", "screenshot")])),
        user(
            json!([{"type": "tool_result", "tool_use_id": "toolu_1", "content": [image("image/png", PNG)]}])
        ),
    ]));
    assert_clean(&b);
}

fn tools_body(tools: Value, messages: Value) -> Value {
    with(body(messages), "tools", tools)
}

fn tool(name: &str) -> Value {
    json!({"name": name, "input_schema": {"type": "object"}})
}

#[test]
fn ant_20_valid_declared_tools_pass() {
    let b = tools_body(
        json!([tool("ls"), tool("read_file-2")]),
        json!([
            user(json!("go")),
            assistant(json!([tool_use("toolu_1", "ls")])),
            user(json!([tool_result("toolu_1", "a")])),
        ]),
    );
    assert_clean(&b);
}

#[test]
fn ant_20_bad_tool_name_fails() {
    let b = tools_body(
        json!([tool("mcp.server:read"), tool(&"x".repeat(65))]),
        json!([user(json!("go"))]),
    );
    let v = assert_flags(&b, "ANT-20", "$.tools[0].name");
    assert_eq!(
        v.message,
        "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'"
    );
    assert_flags(&b, "ANT-20", "$.tools[1].name");
}

#[test]
fn ant_20_duplicate_tool_names_fail() {
    let b = tools_body(json!([tool("ls"), tool("ls")]), json!([user(json!("go"))]));
    let v = assert_flags(&b, "ANT-20", "$.tools[1].name");
    assert_eq!(v.message, "Tool names must be unique.");
}

#[test]
fn ant_20_undeclared_tool_use_name_fails() {
    let b = tools_body(
        json!([tool("ls")]),
        json!([
            user(json!("go")),
            assistant(json!([tool_use("toolu_1", "rm")])),
            user(json!([tool_result("toolu_1", "a")])),
        ]),
    );
    assert_flags(&b, "ANT-20", "$.messages[1].content[0].name");
}

#[test]
fn ant_20_tool_use_names_unchecked_without_tools() {
    assert_not_flagged(&body(round_trip()), "ANT-20");
}

// ---------------------------------------------------------------------------------------------
// Rules added in docs/provider-rules-added.md

#[test]
fn ant_23_final_assistant_text_must_not_end_with_whitespace() {
    let b = body(json!([
        user(json!("Write a haiku.")),
        assistant(json!([text("Borrow checker hums \n")])),
    ]));
    let v = assert_flags(&b, "ANT-23", "$.messages[1].content[0].text");
    assert_eq!(
        v.message,
        "messages: final assistant content cannot end with trailing whitespace"
    );
    let s = body(json!([
        user(json!("Write a haiku.")),
        assistant(json!("hums "))
    ]));
    assert_flags(&s, "ANT-23", "$.messages[1].content");
    // only the final message is a prefill
    assert_not_flagged(
        &body(json!([
            user(json!("a")),
            assistant(json!([text("b \n")])),
            user(json!("c"))
        ])),
        "ANT-23",
    );
    assert_clean(&body(json!([
        user(json!("Write a haiku.")),
        assistant(json!([text("Borrow checker hums")])),
    ])));
}

#[test]
fn ant_24_claude_4_6_and_later_reject_assistant_prefill() {
    let messages = json!([
        user(json!("Write a haiku.")),
        assistant(json!([text("Borrow")]))
    ]);
    for model in [
        "claude-opus-4-6",
        "claude-sonnet-4-6",
        "claude-opus-5",
        "claude-future-9",
    ] {
        let b = json!({"model": model, "max_tokens": 1024, "messages": messages});
        let v = assert_flags(&b, "ANT-24", "$.messages[1]");
        assert_eq!(
            v.message,
            "This model does not support assistant message prefill. The conversation must end with a user message."
        );
    }
    // 4.5 still takes a prefill
    assert_clean(&body(messages));
    let ends_on_user = json!({"model": "claude-opus-4-6", "max_tokens": 1024,
        "messages": [user(json!("Write a haiku."))]});
    assert_clean(&ends_on_user);
}

#[test]
fn ant_26_tool_use_input_must_be_a_dictionary() {
    for input in [json!("{\"path\": \"a\""), json!(null), json!([1]), json!(2)] {
        let b = body(json!([
            user(json!("go")),
            assistant(json!([{"type": "tool_use", "id": "toolu_1", "name": "ls", "input": input}])),
            user(json!([tool_result("toolu_1", "ok")])),
        ]));
        let v = assert_flags(&b, "ANT-26", "$.messages[1].content[0].input");
        assert_eq!(
            v.message,
            "messages.1.content.0.tool_use.input: Input should be a valid dictionary"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 31: the providers of late 2026

#[test]
fn ant_42_header_params_are_not_body_fields() {
    let base = body(json!([user(json!("hi"))]));
    for (param, value) in [
        ("betas", json!(["compact-2026-01-12"])),
        ("user_profile_id", json!("up_01")),
        ("workspace_id", json!("wrkspc_01")),
    ] {
        let b = with(base.clone(), param, value);
        let v = assert_flags(&b, "ANT-42", &format!("$.{param}"));
        assert_eq!(
            v.message,
            format!("{param}: Extra inputs are not permitted")
        );
    }
    assert_not_flagged(&base, "ANT-42");
}

fn system(content: Value) -> Value {
    json!({"role": "system", "content": content})
}

#[test]
fn ant_25_system_messages_in_place_on_models_that_take_them() {
    let on = |messages: Value| with(body(messages), "model", json!("claude-opus-4-8"));
    // after a user message, before an assistant message or at the end: accepted
    assert_clean(&on(json!([
        user(json!("hi")),
        system(json!("be terse")),
        assistant(json!("ok")),
        user(json!("more")),
        system(json!([text("now verbose")])),
    ])));
    // the same on a model that does not take them (Sonnet 5, Claude 4.5)
    for model in ["claude-sonnet-5", "claude-sonnet-4-5"] {
        let b = with(
            body(json!([user(json!("hi")), system(json!("be terse"))])),
            "model",
            json!(model),
        );
        let v = assert_flags(&b, "ANT-25", "$.messages[1].role");
        assert_eq!(v.message, "role 'system' is not supported on this model");
    }
    // before a user message
    let v = assert_flags(
        &on(json!([
            user(json!("hi")),
            system(json!("x")),
            user(json!("again"))
        ])),
        "ANT-25",
        "$.messages[1]",
    );
    assert_eq!(
        v.message,
        "messages.1: role 'system' must precede an 'assistant' message or end the array"
    );
    // two in a row
    assert_flags(
        &on(json!([
            user(json!("hi")),
            system(json!("x")),
            system(json!("y"))
        ])),
        "ANT-25",
        "$.messages[1]",
    );
    // after an assistant message
    assert_flags(
        &on(json!([
            user(json!("hi")),
            assistant(json!("a")),
            system(json!("x"))
        ])),
        "ANT-25",
        "$.messages[2]",
    );
    // first: the top-level `system` is its place
    assert_flags(
        &on(json!([system(json!("x")), user(json!("hi"))])),
        "ANT-01",
        "$.messages[0].role",
    );
    // text blocks only (and tool changes); the removed `mid_conv_system` block is unknown
    assert_flags(
        &on(json!([
            user(json!("hi")),
            system(json!([{"type": "mid_conv_system", "content": "x"}]))
        ])),
        "ANT-25",
        "$.messages[1].content[0].type",
    );
}

#[test]
fn ant_43_fallback_blocks_name_both_models_and_stand_in_assistant_messages() {
    let fb = json!({"type": "fallback", "from": {"model": "claude-fable-5-1"}, "to": {"model": "claude-opus-5"}, "trigger": null});
    assert_clean(&body(json!([
        user(json!("hi")),
        assistant(json!([fb.clone(), text("ok")])),
        user(json!("more")),
    ])));
    assert_flags(
        &body(json!([user(json!([fb.clone(), text("x")]))])),
        "ANT-43",
        "$.messages[0].content[0]",
    );
    let v = assert_flags(
        &body(json!([
            user(json!("hi")),
            assistant(json!([{"type": "fallback", "from": {"model": "a"}}, text("ok")])),
        ])),
        "ANT-43",
        "$.messages[1].content[0].to",
    );
    assert_eq!(v.message, "fallback.to.model: Field required");
}

#[test]
fn ant_44_compaction_blocks_carry_no_encrypted_content_and_no_empty_content() {
    let with_block = |b: Value| {
        body(json!([
            user(json!("hi")),
            assistant(json!([b, text("ok")])),
            user(json!("more")),
        ]))
    };
    assert_clean(&with_block(
        json!({"type": "compaction", "content": "summary"}),
    ));
    assert_clean(&with_block(json!({"type": "compaction", "content": null})));
    let v = assert_flags(
        &with_block(json!({"type": "compaction", "content": "s", "encrypted_content": "e"})),
        "ANT-44",
        "$.messages[1].content[0].encrypted_content",
    );
    assert_eq!(
        v.message,
        "messages.1.content.0.compaction.encrypted_content: Extra inputs are not permitted"
    );
    assert_flags(
        &with_block(json!({"type": "compaction", "content": ""})),
        "ANT-44",
        "$.messages[1].content[0].content",
    );
}

#[test]
fn ant_47_web_search_citations_keep_their_encrypted_index() {
    let cited = |citation: Value| {
        body(json!([
            user(json!("who won?")),
            assistant(json!([{"type": "text", "text": "They did.", "citations": [citation]}])),
            user(json!("thanks")),
        ]))
    };
    assert_clean(&cited(
        json!({"type": "web_search_result_location", "cited_text": "won",
        "encrypted_index": "Eo8BCioIAhgB", "title": null, "url": "https://example.com"}),
    ));
    let v = assert_flags(
        &cited(
            json!({"type": "web_search_result_location", "cited_text": "won", "title": "t", "url": "https://example.com"}),
        ),
        "ANT-47",
        "$.messages[1].content[0].citations[0].encrypted_index",
    );
    assert_eq!(
        v.message,
        "messages.1.content.0.citations.0.web_search_result_location.encrypted_index: Field required"
    );
    // other citation types are not this rule's
    assert_not_flagged(
        &cited(
            json!({"type": "char_location", "cited_text": "won", "document_index": 0, "start_char_index": 0, "end_char_index": 3}),
        ),
        "ANT-47",
    );
}

#[test]
fn issue_31_tool_changes_and_tool_search_blocks_are_known_shapes() {
    let b = with(
        body(json!([
            user(json!("find a tool")),
            assistant(json!([
                {"type": "server_tool_use", "id": "srvtoolu_01", "name": "tool_search_tool_regex", "input": {"query": "weather"}},
                {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_01", "content": {"type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "get_weather"}]}},
                tool_use("toolu_01", "get_weather"),
            ])),
            user(
                json!([{"type": "tool_result", "tool_use_id": "toolu_01", "content": [{"type": "tool_reference", "tool_name": "get_weather"}]}])
            ),
            system(
                json!([{"type": "tool_addition", "tool": {"type": "tool_reference", "name": "get_weather"}}])
            ),
        ])),
        "model",
        json!("claude-opus-5"),
    );
    let b = with(
        b,
        "tools",
        json!([{"name": "get_weather", "input_schema": {"type": "object"}, "defer_loading": true},
               {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}]),
    );
    assert_clean(&b);
    // a tool change without its tool reference
    let bad = with(
        body(json!([
            user(json!("hi")),
            system(json!([{"type": "tool_removal"}]))
        ])),
        "model",
        json!("claude-opus-5"),
    );
    assert_flags(&bad, "ANT-STRUCT", "$.messages[1].content[0].tool");
}
