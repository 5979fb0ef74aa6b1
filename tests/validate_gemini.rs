//! Tests of the strict Gemini generateContent validator (provider-rules.md §4).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::gemini::validate::{validate, validate_with_model};
use turnwire::{validate_request, Provider, Violation};

const GEMINI_3: &str = "gemini-3-pro-preview";

fn body(contents: Value) -> Value {
    json!({"contents": contents})
}

fn with(mut base: Value, key: &str, value: Value) -> Value {
    base.as_object_mut().unwrap().insert(key.to_string(), value);
    base
}

fn user(text: &str) -> Value {
    json!({"role": "user", "parts": [{"text": text}]})
}

fn model(text: &str) -> Value {
    json!({"role": "model", "parts": [{"text": text}]})
}

fn fc(name: &str) -> Value {
    json!({"functionCall": {"name": name, "args": {}}})
}

fn signed_fc(name: &str) -> Value {
    json!({"functionCall": {"name": name, "args": {}}, "thoughtSignature": "CiQBVKhc7sig"})
}

fn fr(name: &str) -> Value {
    json!({"functionResponse": {"name": name, "response": {"output": "ok"}}})
}

fn model_parts(parts: Value) -> Value {
    json!({"role": "model", "parts": parts})
}

fn user_parts(parts: Value) -> Value {
    json!({"role": "user", "parts": parts})
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

/// Asserts a violation of `rule` at exactly `path` and returns it.
#[track_caller]
fn assert_flags(body: &Value, rule: &str, path: &str) -> Violation {
    find(&validate(body), rule, path)
}

/// Asserts a violation of `rule` at `path` when validated for `model`.
#[track_caller]
fn assert_flags_for(body: &Value, model: &str, rule: &str, path: &str) -> Violation {
    find(&validate_with_model(body, Some(model)), rule, path)
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

/// Asserts no violation at all when validated for `model`.
#[track_caller]
fn assert_clean_for(body: &Value, model: &str) {
    let v = validate_with_model(body, Some(model));
    assert!(v.is_empty(), "expected no violations, got:\n{}", dump(&v));
}

/// A complete tool round trip with two parallel calls (signature on the first).
fn round_trip() -> Value {
    json!([
        user("list files"),
        model_parts(json!([signed_fc("ls"), fc("pwd")])),
        user_parts(json!([fr("ls"), fr("pwd")])),
        model("Two files in /src."),
    ])
}

// ---------------------------------------------------------------------------------------------
// Realistic body

#[test]
fn realistic_multi_turn_body_has_no_violations() {
    let b = json!({
        "systemInstruction": {"parts": [{"text": "You are a coding agent."}]},
        "tools": [
            {"functionDeclarations": [
                {"name": "read_file", "description": "Read a file", "parameters": {"type": "OBJECT", "properties": {"path": {"type": "STRING"}}, "required": ["path"]}},
                {"name": "default_api:screenshot", "parameters": {"type": "OBJECT", "properties": {}}}
            ]},
            {"googleSearch": {}}
        ],
        "generationConfig": {"temperature": 0.2, "maxOutputTokens": 4096, "thinkingConfig": {"includeThoughts": true, "thinkingBudget": -1}},
        "contents": [
            {"role": "user", "parts": [{"text": "Fix the login bug and show me the page."}]},
            {"role": "model", "parts": [
                {"text": "Reading both files.", "thought": true},
                {"functionCall": {"name": "read_file", "args": {"path": "src/login.ts"}}, "thoughtSignature": "CiQBVKhc7kZ1"},
                {"functionCall": {"name": "read_file", "args": {"path": "src/auth.ts"}}}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "read_file", "response": {"output": "export function login() {}"}}},
                {"functionResponse": {"name": "read_file", "response": {"output": "export const auth = 1;"}}}
            ]},
            {"role": "model", "parts": [
                {"functionCall": {"name": "default_api:screenshot", "args": {}, "id": "call_7"}, "thoughtSignature": "CiQBVKhc7kZ2"}
            ]},
            {"role": "user", "parts": [
                {"functionResponse": {"name": "default_api:screenshot", "id": "call_7", "response": {"output": "attached"}}},
                {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"role": "model", "parts": [{"text": "The button is hidden by CSS."}, {"text": "", "thoughtSignature": "CiQBVKhc7kZ3"}]},
            {"role": "user", "parts": [{"text": "Thanks! Fix it."}, {"fileData": {"mimeType": "text/css", "fileUri": "https://generativelanguage.googleapis.com/v1beta/files/abc"}}]},
            {"role": "model", "parts": [{"functionCall": {"name": "read_file", "args": {"path": "src/login.css"}}, "thoughtSignature": "CiQBVKhc7kZ4"}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "read_file", "response": {"output": ".btn { display: none }"}}}]}
        ]
    });
    assert_clean(&b);
    assert_clean_for(&b, GEMINI_3);
    assert!(validate_request(Provider::Gemini, &b).is_empty());
}

#[test]
fn violations_are_in_document_order() {
    let b = body(json!([
        model_parts(json!([fc("1bad")])),
        user_parts(json!([{"text": " "}])),
        user_parts(json!([])),
    ]));
    let v = validate(&b);
    let got: Vec<(&str, &str)> = v.iter().map(|v| (v.rule, v.path.as_str())).collect();
    assert_eq!(
        got,
        vec![
            ("GEM-02", "$.contents[0]"),
            ("GEM-04", "$.contents[0].role"),
            ("GEM-10", "$.contents[0].parts[0].functionCall.name"),
            ("GEM-01", "$.contents[1]"),
            ("GEM-09", "$.contents[1].parts[0].text"),
            ("GEM-04", "$.contents[2].role"),
            ("GEM-09", "$.contents[2].parts"),
        ]
    );
    assert_eq!(v, validate(&b));
    assert_eq!(v, validate_request(Provider::Gemini, &b));
}

// ---------------------------------------------------------------------------------------------
// GEM-STRUCT

#[test]
fn gem_struct_minimal_bodies_pass() {
    assert_clean(&body(json!([user("hi")])));
    assert_clean(&body(round_trip()));
}

#[test]
fn gem_struct_body_not_an_object_fails() {
    assert_flags(&json!("hello"), "GEM-STRUCT", "$");
    assert_flags(
        &json!({"contents": {"role": "user"}}),
        "GEM-STRUCT",
        "$.contents",
    );
}

#[test]
fn gem_struct_bad_content_and_part_shapes_fail() {
    let b = body(json!([
        "hi",
        {"role": "user", "parts": [{"text": "a", "cache_control": {}}], "id": 1},
        {"role": "model", "parts": "text"},
    ]));
    assert_flags(&b, "GEM-STRUCT", "$.contents[0]");
    let v = assert_flags(&b, "GEM-STRUCT", "$.contents[1]");
    assert!(v.message.contains("Unknown name \"id\""), "{}", v.message);
    let v = assert_flags(&b, "GEM-STRUCT", "$.contents[1].parts[0]");
    assert!(v.message.contains("camelCase"), "{}", v.message);
    assert_flags(&b, "GEM-STRUCT", "$.contents[2].parts");
}

#[test]
fn gem_struct_snake_case_function_call_fails() {
    let b = body(json!([
        user("go"),
        model_parts(json!([{"function_call": {"name": "ls", "args": {}}}])),
    ]));
    assert_flags(&b, "GEM-STRUCT", "$.contents[1].parts[0]");
    assert_flags(&b, "GEM-09", "$.contents[1].parts[0]");
}

#[test]
fn gem_struct_calls_and_responses_in_the_wrong_role_fail() {
    let b = body(json!([
        user_parts(json!([{"text": "go"}, fc("ls")])),
        model_parts(json!([fr("ls")])),
    ]));
    assert_flags(&b, "GEM-STRUCT", "$.contents[0].parts[1].functionCall");
    assert_flags(&b, "GEM-STRUCT", "$.contents[1].parts[0].functionResponse");
}

#[test]
fn gem_struct_media_parts_need_their_fields() {
    let ok = body(json!([user_parts(json!([
        {"text": "see"},
        {"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}},
        {"fileData": {"fileUri": "gs://bucket/a.pdf"}}
    ]))]));
    assert_clean(&ok);
    let b = body(json!([user_parts(json!([
        {"inlineData": {"data": "iVBORw0KGgo="}},
        {"fileData": {"mimeType": "application/pdf"}}
    ]))]));
    assert_flags(
        &b,
        "GEM-STRUCT",
        "$.contents[0].parts[0].inlineData.mimeType",
    );
    assert_flags(&b, "GEM-STRUCT", "$.contents[0].parts[1].fileData.fileUri");
}

#[test]
fn gem_struct_top_level_fields_fail() {
    let b = json!({
        "systemInstruction": {"parts": [{"inlineData": {"mimeType": "image/png", "data": "AA=="}}]},
        "tools": {"functionDeclarations": []},
        "generationConfig": {"thinkingConfig": {"includeThoughts": "yes", "thinkingBudget": 1.5}},
        "contents": [user("hi")]
    });
    assert_flags(&b, "GEM-STRUCT", "$.systemInstruction.parts[0]");
    assert_flags(&b, "GEM-STRUCT", "$.tools");
    assert_flags(
        &b,
        "GEM-STRUCT",
        "$.generationConfig.thinkingConfig.includeThoughts",
    );
    assert_flags(
        &b,
        "GEM-STRUCT",
        "$.generationConfig.thinkingConfig.thinkingBudget",
    );
}

// ---------------------------------------------------------------------------------------------
// GEM-01

#[test]
fn gem_01_all_responses_in_one_content_pass() {
    assert_not_flagged(&body(round_trip()), "GEM-01");
}

#[test]
fn gem_01_fewer_responses_than_calls_fails() {
    let b = body(json!([
        user("go"),
        model_parts(json!([signed_fc("ls"), fc("pwd")])),
        user_parts(json!([fr("ls")])),
    ]));
    let v = assert_flags(&b, "GEM-01", "$.contents[2]");
    assert!(
        v.message.starts_with(
            "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn."
        ),
        "{}",
        v.message
    );
}

#[test]
fn gem_01_responses_split_over_two_contents_fail() {
    let b = body(json!([
        user("go"),
        model_parts(json!([fc("ls"), fc("pwd")])),
        user_parts(json!([fr("ls")])),
        user_parts(json!([fr("pwd")])),
    ]));
    assert_flags(&b, "GEM-01", "$.contents[2]");
    assert_flags(&b, "GEM-03", "$.contents[3]");
    assert_flags(&b, "GEM-04", "$.contents[3].role");
}

#[test]
fn gem_01_response_name_mismatch_fails() {
    let b = body(json!([
        user("go"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("cat")])),
    ]));
    assert_flags(&b, "GEM-01", "$.contents[2].parts[0].functionResponse.name");
}

#[test]
fn gem_22_response_ids_match_call_ids() {
    let call = |id: &str| json!({"functionCall": {"name": "ls", "args": {}, "id": id}});
    let resp = |id: &str| json!({"functionResponse": {"name": "ls", "id": id, "response": {}}});
    // parallel calls of one tool, answered out of order: the ids pair them
    let ok = body(json!([
        user("go"),
        model_parts(json!([call("a"), call("b")])),
        user_parts(json!([resp("b"), resp("a")])),
    ]));
    assert_clean(&ok);
    let b = body(json!([
        user("go"),
        model_parts(json!([call("a"), call("b")])),
        user_parts(json!([resp("a"), resp("c")])),
    ]));
    let v = assert_flags(&b, "GEM-22", "$.contents[2].parts[1].functionResponse.id");
    assert!(
        v.message
            .starts_with("functionResponse.id does not match functionCall.id"),
        "{}",
        v.message
    );
    let missing = body(json!([
        user("go"),
        model_parts(json!([call("a")])),
        user_parts(json!([fr("ls")])),
    ]));
    assert_flags(
        &missing,
        "GEM-22",
        "$.contents[2].parts[0].functionResponse",
    );
    // a response id for calls Gemini gave none
    let unasked = body(json!([
        user("go"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([resp("a")])),
    ]));
    assert_flags(
        &unasked,
        "GEM-22",
        "$.contents[2].parts[0].functionResponse.id",
    );
}

#[test]
fn gem_22_ids_refused_by_the_stable_v1_api() {
    use turnwire::providers::gemini::validate::validate_for_endpoint;
    let b = body(json!([
        user("go"),
        model_parts(json!([{"functionCall": {"name": "ls", "id": "k3", "args": {}}}])),
        user_parts(json!([{"functionResponse": {"name": "ls", "id": "k3", "response": {}}}])),
    ]));
    for beta in [
        None,
        Some("https://generativelanguage.googleapis.com"),
        Some("https://generativelanguage.googleapis.com/v1beta"),
        Some("https://us-central1-aiplatform.googleapis.com/v1beta1/projects/p/locations/l"),
    ] {
        let v = validate_for_endpoint(&b, None, beta);
        assert!(v.is_empty(), "{beta:?}:\n{}", dump(&v));
    }
    let v1 = "https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/l";
    let v = validate_for_endpoint(&b, None, Some(v1));
    let call = find(&v, "GEM-22", "$.contents[1].parts[0].functionCall.id");
    assert!(
        call.message.starts_with(
            "Invalid JSON payload received. Unknown name \"id\" at 'contents[1].parts[0].function_call': Cannot find field."
        ),
        "{}",
        call.message
    );
    let resp = find(&v, "GEM-22", "$.contents[2].parts[0].functionResponse.id");
    assert!(resp
        .message
        .contains("'contents[2].parts[0].function_response'"));
    // without ids the stable API is fine
    let plain = body(json!([
        user("go"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")]))
    ]));
    assert!(validate_for_endpoint(&plain, None, Some(v1)).is_empty());
}

#[test]
fn gem_01_request_ending_on_a_call_turn_fails() {
    let b = body(json!([user("go"), model_parts(json!([fc("ls")]))]));
    assert_flags(&b, "GEM-01", "$.contents[1]");
}

// ---------------------------------------------------------------------------------------------
// GEM-02

#[test]
fn gem_02_call_turn_after_user_or_response_turn_passes() {
    let b = body(json!([
        user("go"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")])),
        model_parts(json!([fc("cat")])),
        user_parts(json!([fr("cat")])),
    ]));
    assert_clean(&b);
}

#[test]
fn gem_02_call_turn_first_fails() {
    let b = body(json!([
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")])),
    ]));
    let v = assert_flags(&b, "GEM-02", "$.contents[0]");
    assert_eq!(
        v.message,
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
    );
}

#[test]
fn gem_02_call_turn_after_model_turn_fails() {
    let b = body(json!([
        user("go"),
        model("Let me look."),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")])),
    ]));
    assert_flags(&b, "GEM-02", "$.contents[2]");
}

// ---------------------------------------------------------------------------------------------
// GEM-03

#[test]
fn gem_03_response_turn_after_call_turn_passes() {
    assert_not_flagged(&body(round_trip()), "GEM-03");
}

#[test]
fn gem_03_response_turn_after_user_text_fails() {
    let b = body(json!([
        user("go"),
        model("ok"),
        user_parts(json!([fr("ls")])),
    ]));
    let v = assert_flags(&b, "GEM-03", "$.contents[2]");
    assert_eq!(
        v.message,
        "Please ensure that function response turn comes immediately after a function call turn."
    );
    let first = body(json!([user_parts(json!([fr("ls")]))]));
    assert_flags(&first, "GEM-03", "$.contents[0]");
}

// ---------------------------------------------------------------------------------------------
// GEM-04

#[test]
fn gem_04_alternating_user_model_roles_pass() {
    assert_clean(&body(json!([user("a"), model("b"), user("c")])));
}

#[test]
fn gem_04_unknown_or_missing_role_fails() {
    let b = body(json!([
        user("a"),
        {"role": "assistant", "parts": [{"text": "b"}]},
        {"parts": [{"text": "c"}]},
    ]));
    assert_flags(&b, "GEM-04", "$.contents[1].role");
    assert_flags(&b, "GEM-04", "$.contents[2].role");
}

#[test]
fn gem_04_first_content_model_fails() {
    let b = body(json!([model("hello"), user("hi")]));
    assert_flags(&b, "GEM-04", "$.contents[0].role");
}

#[test]
fn gem_04_consecutive_same_role_fails() {
    let b = body(json!([user("a"), user("b"), model("c"), model("d")]));
    assert_flags(&b, "GEM-04", "$.contents[1].role");
    assert_flags(&b, "GEM-04", "$.contents[3].role");
}

// ---------------------------------------------------------------------------------------------
// GEM-05

#[test]
fn gem_05_signed_first_calls_of_the_current_turn_pass() {
    let b = body(json!([
        user("old question"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")])),
        model("old answer"),
        user("new question"),
        model_parts(json!([signed_fc("ls"), fc("pwd")])),
        user_parts(json!([fr("ls"), fr("pwd")])),
        model_parts(json!([signed_fc("cat")])),
        user_parts(json!([fr("cat")])),
    ]));
    assert_clean_for(&b, GEMINI_3);
    assert_clean_for(&b, "models/gemini-3-flash-preview");
}

#[test]
fn gem_05_unsigned_call_in_the_current_turn_fails() {
    let b = body(json!([
        user("go"),
        model_parts(json!([signed_fc("ls")])),
        user_parts(json!([fr("ls")])),
        model_parts(json!([fc("Read"), signed_fc("Grep")])),
        user_parts(json!([fr("Read"), fr("Grep")])),
    ]));
    let v = assert_flags_for(
        &b,
        GEMINI_3,
        "GEM-05",
        "$.contents[3].parts[0].thoughtSignature",
    );
    assert!(
        v.message
            .starts_with("Function call is missing a thought_signature in functionCall parts."),
        "{}",
        v.message
    );
    assert_flags_for(
        &b,
        "projects/p/locations/global/publishers/google/models/gemini-3-pro-preview",
        "GEM-05",
        "$.contents[3].parts[0].thoughtSignature",
    );
}

#[test]
fn gem_05_needs_a_gemini_3_model() {
    let b = body(json!([
        user("go"),
        model_parts(json!([fc("ls")])),
        user_parts(json!([fr("ls")])),
    ]));
    assert_clean(&b);
    assert_clean_for(&b, "gemini-2.5-pro");
    assert_flags_for(
        &b,
        GEMINI_3,
        "GEM-05",
        "$.contents[1].parts[0].thoughtSignature",
    );
}

// ---------------------------------------------------------------------------------------------
// GEM-06

#[test]
fn gem_06_part_level_signatures_pass() {
    let b = body(json!([
        user("go"),
        model_parts(json!([{"text": "Checking.", "thoughtSignature": "sig1"}, signed_fc("ls")])),
        user_parts(json!([fr("ls")])),
    ]));
    assert_clean(&b);
}

#[test]
fn gem_06_signature_inside_function_call_fails() {
    let b = body(json!([
        user("go"),
        model_parts(
            json!([{"functionCall": {"name": "ls", "args": {}, "thoughtSignature": "sig"}}])
        ),
        user_parts(json!([fr("ls")])),
    ]));
    assert_flags(
        &b,
        "GEM-06",
        "$.contents[1].parts[0].functionCall.thoughtSignature",
    );
}

#[test]
fn gem_06_signature_on_response_or_media_parts_fails() {
    let b = body(json!([
        user("go"),
        model_parts(json!([signed_fc("ls")])),
        user_parts(json!([
            {"functionResponse": {"name": "ls", "response": {}}, "thoughtSignature": "sig"},
            {"inlineData": {"mimeType": "image/png", "data": "AA==", "thoughtSignature": "sig"}}
        ])),
    ]));
    assert_flags(&b, "GEM-06", "$.contents[2].parts[0].thoughtSignature");
    assert_flags(
        &b,
        "GEM-06",
        "$.contents[2].parts[1].inlineData.thoughtSignature",
    );
}

// ---------------------------------------------------------------------------------------------
// GEM-07, GEM-08 are not checkable from one body; a dummy signature passes.

#[test]
fn gem_07_dummy_signature_passes() {
    let b = body(json!([
        user("go"),
        model_parts(
            json!([{"functionCall": {"name": "ls", "args": {}}, "thoughtSignature": "skip_thought_signature_validator"}])
        ),
        user_parts(json!([fr("ls")])),
    ]));
    assert_clean_for(&b, GEMINI_3);
}

// ---------------------------------------------------------------------------------------------
// GEM-09

#[test]
fn gem_09_non_empty_contents_and_parts_pass() {
    assert_not_flagged(&body(round_trip()), "GEM-09");
}

#[test]
fn gem_09_missing_or_empty_contents_fails() {
    let v = assert_flags(&json!({}), "GEM-09", "$.contents");
    assert_eq!(
        v.message,
        "* GenerateContentRequest.contents: contents is not specified"
    );
    assert_flags(&body(json!([])), "GEM-09", "$.contents");
}

#[test]
fn gem_09_empty_or_missing_parts_fail() {
    let b = body(json!([user("a"), {"role": "model", "parts": []}, {"role": "user"}]));
    let v = assert_flags(&b, "GEM-09", "$.contents[1].parts");
    assert_eq!(
        v.message,
        "* GenerateContentRequest.contents[1].parts: contents.parts must not be empty."
    );
    assert_flags(&b, "GEM-09", "$.contents[2].parts");
}

#[test]
fn gem_09_part_without_exactly_one_data_field_fails() {
    let b = body(json!([user_parts(json!([
        {"thought": true},
        {"text": "a", "inlineData": {"mimeType": "image/png", "data": "AA=="}}
    ]))]));
    let v = assert_flags(&b, "GEM-09", "$.contents[0].parts[0]");
    assert_eq!(
        v.message,
        "* GenerateContentRequest.contents[0].parts[0].data: required oneof field 'data' must have one initialized field"
    );
    assert_flags(&b, "GEM-09", "$.contents[0].parts[1]");
}

#[test]
fn gem_09_empty_or_blank_text_fails() {
    let b = body(json!([
        user_parts(json!([{"text": ""}])),
        model_parts(json!([{"text": "  \n"}])),
        user("ok"),
    ]));
    assert_flags(&b, "GEM-09", "$.contents[0].parts[0].text");
    assert_flags(&b, "GEM-09", "$.contents[1].parts[0].text");
    let si = with(
        body(json!([user("hi")])),
        "systemInstruction",
        json!({"parts": [{"text": ""}]}),
    );
    assert_flags(&si, "GEM-09", "$.systemInstruction.parts[0].text");
}

#[test]
fn gem_09_empty_text_with_signature_passes() {
    let b = body(json!([
        user("hi"),
        model_parts(json!([{"text": "Hello."}, {"text": "", "thoughtSignature": "sig"}])),
        user("bye"),
    ]));
    assert_clean(&b);
}

// ---------------------------------------------------------------------------------------------
// GEM-10

#[test]
fn gem_10_valid_names_pass() {
    let b = with(
        body(json!([
            user("go"),
            model_parts(json!([fc("mcp.server:read-file"), fc("_x")])),
            user_parts(json!([fr("mcp.server:read-file"), fr("_x")])),
        ])),
        "tools",
        json!([{"functionDeclarations": [
            {"name": "mcp.server:read-file"}, {"name": "_x"}, {"name": "a".repeat(64)}
        ]}]),
    );
    assert_clean(&b);
}

#[test]
fn gem_10_invalid_names_fail() {
    let b = with(
        body(json!([
            user("go"),
            model_parts(json!([fc("read file")])),
            user_parts(json!([fr("read file")])),
        ])),
        "tools",
        json!([{"functionDeclarations": [
            {"name": "1read"}, {"name": "a".repeat(65)}, {"name": "ls"}, {"name": "ls"}
        ]}]),
    );
    let v = assert_flags(&b, "GEM-10", "$.tools[0].functionDeclarations[0].name");
    assert!(
        v.message
            .starts_with("Invalid function name. Must start with a letter or an underscore."),
        "{}",
        v.message
    );
    assert_flags(&b, "GEM-10", "$.tools[0].functionDeclarations[1].name");
    assert_flags(&b, "GEM-10", "$.tools[0].functionDeclarations[3].name");
    assert_flags(&b, "GEM-10", "$.contents[1].parts[0].functionCall.name");
    assert_flags(&b, "GEM-10", "$.contents[2].parts[0].functionResponse.name");
}

#[test]
fn gem_10_undeclared_history_names_fail_only_with_declarations() {
    let contents = json!([
        user("go"),
        model_parts(json!([fc("grep")])),
        user_parts(json!([fr("grep")])),
    ]);
    assert_clean(&body(contents.clone()));
    assert_clean(&with(
        body(contents.clone()),
        "tools",
        json!([{"googleSearch": {}}]),
    ));
    let b = with(
        body(contents),
        "tools",
        json!([{"functionDeclarations": [{"name": "ls"}]}]),
    );
    let v = assert_flags(&b, "GEM-10", "$.contents[1].parts[0].functionCall.name");
    assert!(v.message.contains("not declared"), "{}", v.message);
    assert_flags(&b, "GEM-10", "$.contents[2].parts[0].functionResponse.name");
}

// ---------------------------------------------------------------------------------------------
// GEM-11

#[test]
fn gem_11_object_args_and_responses_pass() {
    let b = body(json!([
        user("go"),
        model_parts(json!([{"functionCall": {"name": "ls"}}])),
        user_parts(
            json!([{"functionResponse": {"name": "ls", "response": {"output": ["a", "b"]}}}])
        ),
    ]));
    assert_clean(&b);
}

#[test]
fn gem_11_non_object_args_and_responses_fail() {
    let b = body(json!([
        user("go"),
        model_parts(
            json!([{"functionCall": {"name": "ls", "args": ["-la"]}}, {"functionCall": {"name": "pwd", "args": {}}}])
        ),
        user_parts(json!([
            {"functionResponse": {"name": "ls", "response": "a.txt"}},
            {"functionResponse": {"name": "pwd"}}
        ])),
    ]));
    assert_flags(&b, "GEM-11", "$.contents[1].parts[0].functionCall.args");
    assert_flags(
        &b,
        "GEM-11",
        "$.contents[2].parts[0].functionResponse.response",
    );
    assert_flags(
        &b,
        "GEM-11",
        "$.contents[2].parts[1].functionResponse.response",
    );
}

// --- GEM-17: media inside a function response (Gemini 3 only; images, PDF, plain text) --------

fn fr_with_media(name: &str, mime: &str) -> Value {
    json!({"functionResponse": {"name": name, "response": {"output": "shot"},
        "parts": [{"inlineData": {"mimeType": mime, "data": "iVBORw0KGgo="}}]}})
}

fn screenshot_turn(response: Value) -> Value {
    body(json!([
        user("look"),
        model_parts(json!([signed_fc("screenshot")])),
        user_parts(json!([response])),
    ]))
}

#[test]
fn gem_17_function_response_parts_are_accepted_on_gemini_3() {
    for mime in [
        "image/png",
        "image/jpeg",
        "image/webp",
        "application/pdf",
        "text/plain",
    ] {
        let b = screenshot_turn(fr_with_media("screenshot", mime));
        let v = validate_with_model(&b, Some(GEMINI_3));
        assert!(v.is_empty(), "{mime}:\n{}", dump(&v));
    }
}

#[test]
fn gem_17_function_response_parts_are_refused_before_gemini_3() {
    let b = screenshot_turn(fr_with_media("screenshot", "image/png"));
    let v = assert_flags_for(
        &b,
        "gemini-2.5-flash",
        "GEM-17",
        "$.contents[2].parts[0].functionResponse.parts",
    );
    assert!(v
        .message
        .contains("Multimodal function responses are not supported for this model"));
    // The body alone does not say the model: not reported without it.
    assert!(
        validate(&b).iter().all(|v| v.rule != "GEM-17"),
        "{}",
        dump(&validate(&b))
    );
}

#[test]
fn gem_17_function_response_parts_refuse_other_media_types() {
    let b = screenshot_turn(fr_with_media("screenshot", "audio/mpeg"));
    let v = assert_flags(
        &b,
        "GEM-17",
        "$.contents[2].parts[0].functionResponse.parts[0].inlineData.mimeType",
    );
    assert!(v
        .message
        .contains("the mime_type: audio/mpeg is not supported in `function_response.parts`"));
    let b = screenshot_turn(
        json!({"functionResponse": {"name": "screenshot", "response": {},
        "parts": [{"text": "no"}]}}),
    );
    assert_flags(
        &b,
        "GEM-17",
        "$.contents[2].parts[0].functionResponse.parts[0]",
    );
    let b = screenshot_turn(
        json!({"functionResponse": {"name": "screenshot", "response": {},
        "parts": {"inlineData": {}}}}),
    );
    assert_flags(
        &b,
        "GEM-17",
        "$.contents[2].parts[0].functionResponse.parts",
    );
}

// --- GEM-18: the content answering parallel calls holds no media beside the responses --------

#[test]
fn gem_18_media_beside_the_responses_to_parallel_calls_is_flagged() {
    let image = json!({"inlineData": {"mimeType": "image/png", "data": "iVBORw0KGgo="}});
    let b = body(json!([
        user("compare"),
        model_parts(json!([signed_fc("screenshot"), fc("read_log")])),
        user_parts(
            json!([fr("screenshot"), fr("read_log"), {"text": "from the screenshot:"}, image])
        ),
    ]));
    let v = assert_flags(&b, "GEM-18", "$.contents[2].parts[3]");
    assert!(v.message.contains(
        "number of function response parts is equal to the number of function call parts"
    ));
    // One call: media beside its response is accepted (Gemini 2.x's way).
    let single = body(json!([
        user("look"),
        model_parts(json!([signed_fc("screenshot")])),
        user_parts(json!([fr("screenshot"), image])),
    ]));
    assert!(validate(&single).is_empty(), "{}", dump(&validate(&single)));
    // Parallel calls with media inside a response (Gemini 3) or after a bridging model turn.
    let nested = body(json!([
        user("compare"),
        model_parts(json!([signed_fc("screenshot"), fc("read_log")])),
        user_parts(json!([
            fr_with_media("screenshot", "image/png"),
            fr("read_log")
        ])),
    ]));
    assert!(validate(&nested).is_empty(), "{}", dump(&validate(&nested)));
    let bridged = body(json!([
        user("compare"),
        model_parts(json!([signed_fc("screenshot"), fc("read_log")])),
        user_parts(json!([fr("screenshot"), fr("read_log")])),
        model("(tool results received)"),
        user_parts(json!([{"text": "from the screenshot:"}, image])),
    ]));
    assert!(
        validate(&bridged).is_empty(),
        "{}",
        dump(&validate(&bridged))
    );
}

#[test]
fn gem_16_parameters_schema_uses_geminis_subset() {
    let decl = |parameters: Value| {
        with(
            body(json!([user("hi")])),
            "tools",
            json!([{"functionDeclarations": [{"name": "read", "parameters": parameters}]}]),
        )
    };
    let b = decl(json!({
        "type": "object",
        "$schema": "http://json-schema.org/draft-07/schema#",
        "additionalProperties": false,
        "properties": {
            "paths": {"type": "array"},
            "mode": {"type": "integer", "enum": [0, 1]}
        }
    }));
    let v = validate(&b);
    let gem: Vec<&str> = v
        .iter()
        .filter(|v| v.rule == "GEM-16")
        .map(|v| v.message.as_str())
        .collect();
    assert!(gem.contains(
        &"Invalid JSON payload received. Unknown name \"additionalProperties\" at 'tools[0].function_declarations[0].parameters': Cannot find field."
    ), "{gem:?}");
    assert!(gem.iter().any(|m| m.contains("\"$schema\"")), "{gem:?}");
    assert!(gem.contains(
        &"Invalid JSON payload received. 'tools[0].function_declarations[0].parameters.properties.paths.items': missing field."
    ), "{gem:?}");
    assert!(gem.contains(
        &"Invalid value at 'tools[0].function_declarations[0].parameters.properties.mode.enum[0]' (TYPE_STRING), 0"
    ), "{gem:?}");
    assert!(v
        .iter()
        .filter(|v| v.rule == "GEM-16")
        .all(|v| v.path == "$.tools[0].functionDeclarations[0].parameters"));
    // the subset, and full JSON Schema in parametersJsonSchema, pass
    assert_not_flagged(
        &decl(
            json!({"type": "object", "properties": {"paths": {"type": "array", "items": {"type": "string"}}}, "required": ["paths"]}),
        ),
        "GEM-16",
    );
    let json_schema = with(
        body(json!([user("hi")])),
        "tools",
        json!([{"functionDeclarations": [{"name": "read", "parametersJsonSchema": {"type": "object", "additionalProperties": false}}]}]),
    );
    assert_not_flagged(&json_schema, "GEM-16");
}
