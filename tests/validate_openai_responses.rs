//! Tests of the strict OpenAI Responses validator (provider-rules.md §3).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::openai_responses::validate::validate;
use turnwire::{validate_request, Provider, Violation};

fn body(input: Value) -> Value {
    json!({"model": "gpt-5", "input": input})
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base.as_object_mut().unwrap().insert(key.to_string(), value);
    base
}

fn user(text: &str) -> Value {
    json!({"type": "message", "role": "user", "content": text})
}

fn assistant(text: &str) -> Value {
    json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}]})
}

fn call(call_id: &str, name: &str) -> Value {
    json!({"type": "function_call", "call_id": call_id, "name": name, "arguments": "{}"})
}

fn call_with_id(id: &str, call_id: &str) -> Value {
    json!({"type": "function_call", "id": id, "call_id": call_id, "name": "ls", "arguments": "{}"})
}

fn output(call_id: &str, out: Value) -> Value {
    json!({"type": "function_call_output", "call_id": call_id, "output": out})
}

fn reasoning(id: &str) -> Value {
    json!({"type": "reasoning", "id": id, "summary": [{"type": "summary_text", "text": "Listing first."}], "encrypted_content": "gAAAAABo-opaque"})
}

fn bare_reasoning(id: &str) -> Value {
    json!({"type": "reasoning", "id": id, "summary": []})
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
        user("list files"),
        call("call_1", "ls"),
        call("call_2", "ls"),
        output("call_1", json!("a.txt")),
        output("call_2", json!("b.txt")),
        assistant("Two files."),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "model": "gpt-5",
        "instructions": "You are a coding agent.",
        "store": false,
        "include": ["reasoning.encrypted_content"],
        "reasoning": {"effort": "medium", "summary": "auto"},
        "max_output_tokens": 4096,
        "tools": [
            {"type": "function", "name": "read_file", "description": "Read a file", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}, "strict": false},
            {"type": "function", "name": "screenshot", "parameters": {"type": "object", "properties": {}}}
        ],
        "input": [
            {"type": "message", "role": "developer", "content": "Prefer small diffs."},
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Fix the login bug and show me the page."}]},
            {"type": "reasoning", "id": "rs_0a1", "summary": [{"type": "summary_text", "text": "Read both files."}], "encrypted_content": "gAAAAABoA1"},
            {"type": "function_call", "id": "fc_0a1", "call_id": "call_A1", "name": "read_file", "arguments": "{\"path\":\"src/login.ts\"}"},
            {"type": "function_call", "id": "fc_0a2", "call_id": "call_B2", "name": "read_file", "arguments": "{\"path\":\"src/auth.ts\"}"},
            {"type": "function_call_output", "call_id": "call_B2", "output": "export const auth = 1;"},
            {"type": "function_call_output", "call_id": "call_A1", "output": [{"type": "input_text", "text": "export function login() {}"}]},
            {"type": "reasoning", "id": "rs_0a2", "summary": [], "encrypted_content": "gAAAAABoA2"},
            {"type": "function_call", "id": "fc_0a3", "call_id": "call_C3", "name": "screenshot", "arguments": "{}"},
            {"type": "function_call_output", "call_id": "call_C3", "output": [
                {"type": "input_text", "text": "Screenshot of /login:"},
                {"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo=", "detail": "low"}
            ]},
            {"type": "reasoning", "id": "rs_0a3", "summary": [], "encrypted_content": "gAAAAABoA3"},
            {"type": "message", "id": "msg_0a4", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": "The button is hidden by CSS.", "annotations": []}]},
            {"role": "user", "content": "Thanks! Apply the fix."},
            {"type": "function_call", "call_id": "call_D4", "name": "read_file", "arguments": "{\"path\":\"src/login.css\"}"},
            {"type": "function_call_output", "call_id": "call_D4", "output": ".btn { display: none }"},
            {"type": "message", "role": "assistant", "content": "Remove `display: none`."}
        ]
    });
    assert_clean(&b);
    assert!(validate_request(Provider::OpenAiResponses, &b).is_empty());
}

#[test]
fn violations_are_in_document_order() {
    let b = body(json!([
        output("call_x", json!("orphan")),
        bare_reasoning("item_1"),
        user("hi"),
        {"type": "function_call", "call_id": "", "name": "bad.name", "arguments": "{"},
    ]));
    let v = validate(&b);
    let got: Vec<(&str, &str)> = v.iter().map(|v| (v.rule, v.path.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("ORS-01", "$.input[0].call_id"),
            ("ORS-03", "$.input[1]"),
            ("ORS-07", "$.input[1].id"),
            ("ORS-08", "$.input[3].call_id"),
            ("ORS-STRUCT", "$.input[3].name"),
            ("ORS-STRUCT", "$.input[3].arguments"),
        ]
    );
    assert_eq!(v, validate(&b));
    assert_eq!(v, validate_request(Provider::OpenAiResponses, &b));
}

// ---------------------------------------------------------------------------------------------
// ORS-STRUCT

#[test]
fn ors_struct_minimal_bodies_pass() {
    assert_clean(&body(json!([user("hi")])));
    assert_clean(&body(json!("hi")));
    assert_clean(&body(round_trip()));
}

#[test]
fn ors_struct_body_not_an_object_fails() {
    assert_flags(&json!([1]), "ORS-STRUCT", "$");
}

#[test]
fn ors_struct_missing_model_and_input_fail() {
    let b = json!({"model": ""});
    assert_flags(&b, "ORS-STRUCT", "$.model");
    assert_flags(&b, "ORS-STRUCT", "$.input");
    let v = assert_flags(&body(json!([])), "ORS-STRUCT", "$.input");
    assert!(v.message.starts_with("empty array."), "{}", v.message);
    assert_flags(&body(json!("")), "ORS-STRUCT", "$.input");
}

#[test]
fn ors_struct_unknown_item_type_and_role_fail() {
    let b = body(json!([
        {"type": "tool_result", "call_id": "call_1"},
        {"content": "no type, no role"},
        {"type": "message", "role": "tool", "content": "x"},
        {"type": "message", "content": "no role"},
        user("hi"),
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[0].type");
    assert_flags(&b, "ORS-STRUCT", "$.input[1].type");
    assert_flags(&b, "ORS-STRUCT", "$.input[2].role");
    assert_flags(&b, "ORS-STRUCT", "$.input[3].role");
}

#[test]
fn ors_struct_built_in_tool_items_pass() {
    let b = body(json!([
        user("search the web"),
        {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "q"}},
        assistant("Found it."),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_struct_part_types_by_role() {
    let ok = body(json!([
        {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": "look"},
            {"type": "input_image", "file_id": "file-1"},
            {"type": "input_file", "file_id": "file-2"}
        ]},
        {"type": "message", "role": "assistant", "content": [{"type": "refusal", "refusal": "No."}]},
    ]));
    assert_clean(&ok);
    let b = body(json!([
        {"type": "message", "role": "user", "content": [{"type": "output_text", "text": "x"}]},
        {"type": "message", "role": "assistant", "content": [{"type": "input_text", "text": "x"}]},
        {"type": "message", "role": "user", "content": [{"type": "input_image"}]},
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[0].content[0].type");
    let v = assert_flags(&b, "ORS-13", "$.input[1].content[0]");
    assert_eq!(
        v.message,
        "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'."
    );
    assert_flags(&b, "ORS-STRUCT", "$.input[2].content[0]");
}

#[test]
fn ors_struct_unknown_item_fields_fail() {
    let b = body(json!([
        user("go"),
        {"type": "message", "role": "assistant", "content": "ok", "reasoning_content": "hmm"},
        {"type": "message", "role": "user", "id": "msg_1", "content": "again"},
    ]));
    let v = assert_flags(&b, "ORS-STRUCT", "$.input[1]");
    assert_eq!(
        v.message,
        "Unknown parameter: 'input[1].reasoning_content'."
    );
    assert_flags(&b, "ORS-STRUCT", "$.input[2].id");
}

#[test]
fn ors_struct_arguments_must_be_a_json_string() {
    let b = body(json!([
        user("go"),
        {"type": "function_call", "call_id": "call_1", "name": "ls", "arguments": "{\"a\":"},
        {"type": "function_call", "call_id": "call_2", "name": "ls", "arguments": {"a": 1}},
        output("call_1", json!("a")),
        output("call_2", json!("b")),
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[1].arguments");
    assert_flags(&b, "ORS-STRUCT", "$.input[2].arguments");
}

#[test]
fn ors_struct_function_names_pass_and_fail() {
    let tools = json!([
        {"type": "function", "name": "read_file"},
        {"type": "function", "name": "x".repeat(64)},
        {"type": "web_search"}
    ]);
    assert_clean(&with(body(round_trip()), "tools", tools));
    let b = with(
        body(json!([
            user("go"),
            call("call_1", "mcp.server.read"),
            output("call_1", json!("a")),
        ])),
        "tools",
        json!([
            {"type": "function", "name": "mcp:read"},
            {"type": "function", "name": "n".repeat(65)},
            {"type": "function", "name": "ls"},
            {"type": "function", "name": "ls"},
            {"type": "function", "function": {"name": "wrapped"}}
        ]),
    );
    let v = assert_flags(&b, "ORS-STRUCT", "$.tools[0].name");
    assert!(
        v.message.starts_with("string does not match pattern."),
        "{}",
        v.message
    );
    assert_flags(&b, "ORS-STRUCT", "$.tools[1].name");
    assert_flags(&b, "ORS-STRUCT", "$.tools[3].name");
    assert_flags(&b, "ORS-STRUCT", "$.tools[4].function");
    assert_flags(&b, "ORS-STRUCT", "$.input[1].name");
}

#[test]
fn ors_struct_duplicate_call_ids_fail() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        output("call_1", json!("a")),
        call("call_1", "ls"),
        output("call_1", json!("b")),
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[3].call_id");
}

#[test]
fn ors_struct_second_output_for_a_call_fails() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        output("call_1", json!("a")),
        output("call_1", json!("late duplicate")),
    ]));
    let v = assert_flags(&b, "ORS-STRUCT", "$.input[3].call_id");
    assert!(v.message.contains("more than one"), "{}", v.message);
    assert_not_flagged(&b, "ORS-01");
}

#[test]
fn ors_struct_empty_text_fails() {
    let b = body(json!([
        user(""),
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": ""}]},
        {"type": "message", "role": "user", "content": []},
        call("call_1", "ls"),
        output("call_1", json!("")),
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[0].content");
    assert_flags(&b, "ORS-STRUCT", "$.input[1].content[0].text");
    assert_flags(&b, "ORS-STRUCT", "$.input[2].content");
    assert_flags(&b, "ORS-STRUCT", "$.input[4].output");
}

#[test]
fn ors_struct_stateless_reasoning_without_id_passes() {
    let b = body(json!([
        user("go"),
        {"type": "reasoning", "summary": [], "encrypted_content": "gAAAAABo-opaque"},
        assistant("ok"),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_struct_reasoning_shape_fails() {
    let b = body(json!([
        user("go"),
        {"type": "reasoning", "summary": [{"type": "text", "text": "x"}]},
        assistant("ok"),
        {"type": "reasoning", "id": "rs_2"},
        assistant("ok"),
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[1].id");
    assert_flags(&b, "ORS-STRUCT", "$.input[1].summary[0]");
    assert_flags(&b, "ORS-STRUCT", "$.input[3].summary");
}

#[test]
fn ors_struct_top_level_settings_fail() {
    let b = json!({
        "model": "gpt-5", "input": [user("hi")], "store": "no",
        "reasoning": {"effort": "extreme"}, "max_output_tokens": 8, "include": "x",
        "instructions": 3
    });
    assert_flags(&b, "ORS-STRUCT", "$.store");
    assert_flags(&b, "ORS-STRUCT", "$.reasoning.effort");
    let v = assert_flags(&b, "ORS-STRUCT", "$.max_output_tokens");
    assert!(v.message.contains(">= 16"), "{}", v.message);
    assert_flags(&b, "ORS-STRUCT", "$.include");
    assert_flags(&b, "ORS-STRUCT", "$.instructions");
}

// ---------------------------------------------------------------------------------------------
// ORS-01

#[test]
fn ors_01_outputs_answering_earlier_calls_pass() {
    assert_not_flagged(&body(round_trip()), "ORS-01");
}

#[test]
fn ors_01_output_without_call_fails() {
    let b = body(json!([
        user("go"),
        output("call_uelfkqtHfJDC4Btqeoozq82e", json!("a")),
    ]));
    let v = assert_flags(&b, "ORS-01", "$.input[1].call_id");
    assert_eq!(
        v.message,
        "No tool call found for function call output with call_id call_uelfkqtHfJDC4Btqeoozq82e."
    );
}

#[test]
fn ors_01_output_before_its_call_fails() {
    let b = body(json!([
        user("go"),
        output("call_1", json!("a")),
        call("call_1", "ls"),
    ]));
    let v = assert_flags(&b, "ORS-01", "$.input[1].call_id");
    assert!(
        v.message.contains("comes later, at input[2]"),
        "{}",
        v.message
    );
    assert_flags(&b, "ORS-02", "$.input[2]");
}

#[test]
fn ors_01_unmatched_output_passes_with_previous_response_id() {
    let b = with(
        body(json!([output("call_from_previous_response", json!("a"))])),
        "previous_response_id",
        json!("resp_123"),
    );
    assert_clean(&b);
}

// ---------------------------------------------------------------------------------------------
// ORS-02

#[test]
fn ors_02_every_call_has_its_output_passes() {
    assert_not_flagged(&body(round_trip()), "ORS-02");
}

#[test]
fn ors_02_call_without_output_fails() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        call("call_2", "ls"),
        output("call_2", json!("b")),
        user("never mind"),
    ]));
    let v = assert_flags(&b, "ORS-02", "$.input[1]");
    assert_eq!(v.message, "No tool output found for function call call_1.");
}

#[test]
fn ors_02_input_ending_on_a_call_fails() {
    let b = body(json!([user("go"), call("call_1", "ls")]));
    assert_flags(&b, "ORS-02", "$.input[1]");
}

#[test]
fn ors_02_output_after_the_next_message_fails() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        assistant("Still working."),
        output("call_1", json!("a")),
    ]));
    let v = assert_flags(&b, "ORS-02", "$.input[1]");
    assert!(
        v.message
            .contains("before the assistant message at input[2]"),
        "{}",
        v.message
    );
}

// ---------------------------------------------------------------------------------------------
// ORS-03

#[test]
fn ors_03_reasoning_followed_by_its_item_passes() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        call("call_1", "ls"),
        output("call_1", json!("a")),
        reasoning("rs_2"),
        assistant("done"),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_03_reasoning_last_in_input_fails() {
    let b = body(json!([user("go"), reasoning("rs_0c38")]));
    let v = assert_flags(&b, "ORS-03", "$.input[1]");
    assert!(
        v.message.starts_with(
            "Item 'rs_0c38' of type 'reasoning' was provided without its required following item"
        ),
        "{}",
        v.message
    );
}

#[test]
fn ors_03_reasoning_followed_by_user_message_fails() {
    let b = body(json!([user("go"), reasoning("rs_1"), user("again")]));
    assert_flags(&b, "ORS-03", "$.input[1]");
}

#[test]
fn ors_03_reasoning_followed_by_reasoning_fails() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        reasoning("rs_2"),
        assistant("done"),
    ]));
    assert_flags(&b, "ORS-03", "$.input[1]");
    let v = validate(&b);
    assert_eq!(
        v.iter().filter(|v| v.rule == "ORS-03").count(),
        1,
        "{}",
        dump(&v)
    );
}

// ---------------------------------------------------------------------------------------------
// ORS-04

#[test]
fn ors_04_fc_ids_with_their_reasoning_pass() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        call_with_id("fc_1", "call_1"),
        call_with_id("fc_2", "call_2"),
        output("call_1", json!("a")),
        output("call_2", json!("b")),
        call("call_3", "ls"),
        output("call_3", json!("c")),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_04_fc_id_without_reasoning_fails() {
    let b = body(json!([
        user("go"),
        call_with_id("fc_0a03", "call_1"),
        output("call_1", json!("a")),
    ]));
    let v = assert_flags(&b, "ORS-04", "$.input[1].id");
    assert!(
        v.message.starts_with(
            "Item 'fc_0a03' of type 'function_call' was provided without its required 'reasoning' item"
        ),
        "{}",
        v.message
    );
}

#[test]
fn ors_04_fc_id_in_a_later_run_without_reasoning_fails() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        call_with_id("fc_1", "call_1"),
        output("call_1", json!("a")),
        call_with_id("fc_2", "call_2"),
        output("call_2", json!("b")),
    ]));
    assert_not_flagged(
        &body(json!([
            user("go"),
            reasoning("rs_1"),
            call_with_id("fc_1", "call_1"),
            output("call_1", json!("a"))
        ])),
        "ORS-04",
    );
    assert_flags(&b, "ORS-04", "$.input[4].id");
}

// ---------------------------------------------------------------------------------------------
// ORS-05

#[test]
fn ors_05_store_false_with_encrypted_reasoning_passes() {
    let b = with(
        body(json!([user("go"), reasoning("rs_1"), assistant("done")])),
        "store",
        json!(false),
    );
    assert_clean(&b);
}

#[test]
fn ors_05_references_pass_when_store_is_not_false() {
    let b = body(json!([
        user("go"),
        bare_reasoning("rs_1"),
        assistant("done"),
        {"type": "item_reference", "id": "msg_7"},
        user("more"),
    ]));
    assert_clean(&b);
    assert_clean(&with(b, "store", json!(true)));
}

#[test]
fn ors_05_store_false_reasoning_without_encrypted_content_fails() {
    let b = with(
        body(json!([
            user("go"),
            bare_reasoning("rs_04962823"),
            assistant("done")
        ])),
        "store",
        json!(false),
    );
    let v = assert_flags(&b, "ORS-05", "$.input[1].encrypted_content");
    assert!(
        v.message.starts_with(
            "Item with id 'rs_04962823' not found. Items are not persisted when `store` is set to false."
        ),
        "{}",
        v.message
    );
}

#[test]
fn ors_05_store_false_item_reference_fails() {
    let b = with(
        body(json!([user("go"), {"type": "item_reference", "id": "msg_7"}])),
        "store",
        json!(false),
    );
    assert_flags(&b, "ORS-05", "$.input[1]");
}

// ---------------------------------------------------------------------------------------------
// ORS-06 is not checkable from one body (no test).

// ---------------------------------------------------------------------------------------------
// ORS-07

#[test]
fn ors_07_matching_prefixes_pass() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        call_with_id("fc_1", "call_1"),
        output("call_1", json!("a")),
        reasoning("rs_2"),
        {"type": "message", "id": "msg_1", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]},
    ]));
    assert_clean(&b);
}

#[test]
fn ors_07_wrong_prefixes_fail() {
    let b = body(json!([
        user("go"),
        reasoning("item_df7e40c3f04fc8ade5c3800e"),
        call_with_id("call_1", "call_1"),
        output("call_1", json!("a")),
        reasoning("rs_2"),
        {"type": "message", "id": "rs_3", "role": "assistant", "content": "ok"},
    ]));
    let v = assert_flags(&b, "ORS-07", "$.input[1].id");
    assert_eq!(
        v.message,
        "Invalid 'input[1].id': 'item_df7e40c3f04fc8ade5c3800e'. Expected an ID that begins with 'rs'."
    );
    assert_flags(&b, "ORS-07", "$.input[2].id");
    assert_flags(&b, "ORS-07", "$.input[5].id");
}

// ---------------------------------------------------------------------------------------------
// ORS-08

#[test]
fn ors_08_call_ids_up_to_64_chars_pass() {
    let id = "c".repeat(64);
    assert_clean(&body(json!([
        user("go"),
        call(&id, "ls"),
        output(&id, json!("a"))
    ])));
}

#[test]
fn ors_08_call_id_longer_than_64_chars_fails() {
    let id = format!("fc_{}|call_{}", "a".repeat(50), "b".repeat(57));
    let b = body(json!([
        user("go"),
        call(&id, "ls"),
        output(&id, json!("a"))
    ]));
    let v = assert_flags(&b, "ORS-08", "$.input[1].call_id");
    assert_eq!(
        v.message,
        "string too long. Expected a string with maximum length 64, but got a string with length 116 instead."
    );
    assert_flags(&b, "ORS-08", "$.input[2].call_id");
}

#[test]
fn ors_08_empty_or_missing_call_id_fails() {
    let b = body(json!([
        user("go"),
        call("", "ls"),
        {"type": "function_call_output", "output": "a"},
    ]));
    let v = assert_flags(&b, "ORS-08", "$.input[1].call_id");
    assert!(v.message.starts_with("empty string."), "{}", v.message);
    assert_flags(&b, "ORS-08", "$.input[2].call_id");
}

// ---------------------------------------------------------------------------------------------
// ORS-09

#[test]
fn ors_09_complete_output_parts_pass() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        output(
            "call_1",
            json!([
                {"type": "input_text", "text": "a"},
                {"type": "input_image", "image_url": "https://example.com/a.png"},
                {"type": "input_file", "file_data": "data:application/pdf;base64,JVBERi0=", "filename": "a.pdf"}
            ])
        ),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_09_incomplete_output_parts_fail() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        output(
            "call_1",
            json!([
                {"type": "input_text", "text": "a"},
                {"type": "image", "source": {"type": "base64"}},
                {"type": "input_text"},
                {"type": "input_image"},
                {"type": "input_file", "filename": "a.pdf"}
            ])
        ),
    ]));
    let v = assert_flags(&b, "ORS-09", "$.input[2].output[1]");
    assert!(
        v.message
            .starts_with("Missing required parameter: 'input[2].output[1]'"),
        "{}",
        v.message
    );
    assert_flags(&b, "ORS-09", "$.input[2].output[2].text");
    assert_flags(&b, "ORS-09", "$.input[2].output[3]");
    assert_flags(&b, "ORS-09", "$.input[2].output[4]");
}

#[test]
fn ors_09_empty_output_array_fails() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        output("call_1", json!([]))
    ]));
    assert_flags(&b, "ORS-09", "$.input[2].output");
}

// ---------------------------------------------------------------------------------------------
// ORS-10

#[test]
fn ors_10_outputs_adjacent_to_their_calls_pass() {
    let b = body(json!([
        user("go"),
        reasoning("rs_1"),
        call("call_1", "ls"),
        output("call_1", json!("a")),
        reasoning("rs_2"),
        call("call_2", "ls"),
        output("call_2", json!("b")),
        assistant("done"),
    ]));
    assert_clean(&b);
}

#[test]
fn ors_10_message_between_call_and_output_fails() {
    let b = body(json!([
        user("go"),
        call("call_1", "ls"),
        user("hurry up"),
        output("call_1", json!("a")),
    ]));
    let v = assert_flags(&b, "ORS-10", "$.input[3]");
    assert!(
        v.message.contains("by the user message at input[2]"),
        "{}",
        v.message
    );
    assert_not_flagged(&b, "ORS-01");
}

#[test]
fn ors_12_input_item_ids_must_be_unique() {
    let b = body(json!([
        user("hi"),
        {"type": "message", "role": "assistant", "id": "msg_4", "content": [{"type": "output_text", "text": "hello"}]},
        user("again"),
        {"type": "message", "role": "assistant", "id": "msg_4", "content": [{"type": "output_text", "text": "hello"}]},
    ]));
    let v = assert_flags(&b, "ORS-12", "$.input[3].id");
    assert_eq!(
        v.message,
        "Duplicate item found with id msg_4. Remove duplicate items from your input and try again."
    );
    assert_not_flagged(
        &body(json!([
            user("hi"),
            {"type": "message", "role": "assistant", "id": "msg_4", "content": [{"type": "output_text", "text": "hello"}]},
        ])),
        "ORS-12",
    );
}

#[test]
fn ors_13_assistant_parts_are_output_text_or_refusal() {
    let b = body(json!([
        user("hi"),
        {"type": "message", "role": "assistant", "content": [{"type": "input_text", "text": "hello"}]},
    ]));
    let v = assert_flags(&b, "ORS-13", "$.input[1].content[0]");
    assert_eq!(
        v.message,
        "Invalid value: 'input_text'. Supported values are: 'output_text' and 'refusal'."
    );
}

#[test]
fn ors_18_phase_on_assistant_messages_passes_and_an_unknown_phase_fails() {
    let mut a = assistant("Patching.");
    a["phase"] = json!("commentary");
    let mut f = json!({"role": "assistant", "content": "Done.", "phase": "final_answer"});
    assert_clean(&body(json!([user("fix it"), a, f.clone()])));
    f["phase"] = json!("thinking");
    let v = assert_flags(
        &body(json!([user("fix it"), f])),
        "ORS-18",
        "$.input[1].phase",
    );
    assert_eq!(
        v.message,
        "Invalid value: 'thinking'. Supported values are: 'commentary' and 'final_answer'."
    );
}

#[test]
fn ors_19_client_tool_items_pass_in_their_sdk_shapes() {
    assert_clean(&body(json!([
        user("fix it"),
        {"type": "apply_patch_call", "id": "apc_1", "call_id": "c1", "status": "completed",
         "operation": {"type": "delete_file", "path": "old.rs"}},
        {"type": "apply_patch_call_output", "call_id": "c1", "status": "failed", "output": "no such file"},
        {"type": "custom_tool_call", "id": "ctc_1", "call_id": "c2", "name": "grep", "input": "main"},
        {"type": "custom_tool_call_output", "call_id": "c2", "output": [{"type": "input_text", "text": "a.rs"}]},
        {"type": "shell_call", "call_id": "c3", "action": {"commands": ["ls"]}},
        {"type": "shell_call_output", "call_id": "c3", "output": [{"stdout": "a", "stderr": "", "outcome": {"type": "timeout"}}]},
        {"type": "local_shell_call", "id": "lsh_1", "call_id": "c4", "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "env": {}}},
        {"type": "local_shell_call_output", "id": "c4", "output": "{}"},
        {"type": "program", "id": "p_1", "call_id": "c5", "code": "1", "fingerprint": "f"},
        {"type": "program_output", "id": "po_1", "call_id": "c5", "result": "1", "status": "completed"},
        {"type": "tool_search_call", "arguments": {"query": "git"}, "execution": "server"},
        {"type": "tool_search_output", "tools": [], "execution": "server"},
        {"type": "additional_tools", "role": "developer", "tools": []},
        {"type": "compaction", "encrypted_content": "gAAAA"},
        {"type": "compaction_trigger"},
        user("go on")
    ])));
}

#[test]
fn ors_19_client_tool_item_ids_must_carry_their_type_prefix() {
    let b = body(json!([
        user("fix it"),
        {"type": "custom_tool_call", "id": "fc_1w8xjn5yx1c0y", "call_id": "c1", "name": "grep", "input": "x"},
        {"type": "custom_tool_call_output", "call_id": "c1", "output": "y"},
        {"type": "apply_patch_call", "id": "call_9", "call_id": "c2", "status": "completed",
         "operation": {"type": "create_file", "path": "a", "diff": "+a"}},
        {"type": "apply_patch_call_output", "call_id": "c2", "status": "completed"}
    ]));
    let v = assert_flags(&b, "ORS-19", "$.input[1].id");
    assert_eq!(
        v.message,
        "Invalid 'input[1].id': 'fc_1w8xjn5yx1c0y'. Expected an ID that begins with 'ctc'."
    );
    let v = assert_flags(&b, "ORS-19", "$.input[3].id");
    assert!(
        v.message
            .ends_with("Expected an ID that begins with 'apc'."),
        "{}",
        v.message
    );
}

#[test]
fn ors_19_client_tool_calls_pair_with_their_own_outputs() {
    // no output
    let b = body(json!([
        user("fix it"),
        {"type": "shell_call", "call_id": "c1", "action": {"commands": ["ls"]}},
        user("and?")
    ]));
    let v = assert_flags(&b, "ORS-02", "$.input[1]");
    assert!(
        v.message
            .starts_with("No tool output found for shell call c1"),
        "{}",
        v.message
    );
    // answered by the wrong output type
    let b = body(json!([
        user("fix it"),
        {"type": "custom_tool_call", "call_id": "c1", "name": "grep", "input": "x"},
        output("c1", json!("y"))
    ]));
    assert_flags(&b, "ORS-19", "$.input[2].type");
    // an output without its call
    let b = body(json!([
        user("fix it"),
        {"type": "local_shell_call_output", "id": "c9", "output": "{}"}
    ]));
    assert_flags(&b, "ORS-01", "$.input[1].id");
}

#[test]
fn ors_19_client_tool_item_shapes_fail_as_the_sdk_types_say() {
    let b = body(json!([
        user("fix it"),
        {"type": "apply_patch_call", "call_id": "c1", "status": "done",
         "operation": {"type": "update_file", "path": "a"}, "arguments": "{}"},
        {"type": "apply_patch_call_output", "call_id": "c1", "status": "completed"},
        {"type": "program", "call_id": "c2", "code": "1"},
        {"type": "program_output", "id": "p", "call_id": "c2", "result": "1", "status": "completed"}
    ]));
    assert_flags(&b, "ORS-STRUCT", "$.input[1].status");
    assert_flags(&b, "ORS-STRUCT", "$.input[1].operation.diff");
    assert_flags(&b, "ORS-STRUCT", "$.input[1]");
    assert_flags(&b, "ORS-STRUCT", "$.input[3].id");
    assert_flags(&b, "ORS-STRUCT", "$.input[3].fingerprint");
}

#[test]
fn ors_20_compaction_needs_its_encrypted_content() {
    let v = assert_flags(
        &body(json!([{"type": "compaction", "id": "cmp_1"}, user("go on")])),
        "ORS-STRUCT",
        "$.input[0].encrypted_content",
    );
    assert_eq!(
        v.message,
        "Missing required parameter: 'input[0].encrypted_content'."
    );
}
