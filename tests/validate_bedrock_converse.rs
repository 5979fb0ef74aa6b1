//! Tests of the strict Bedrock Converse validator (`../shared/research/hosts.md` §1.2, the BDR
//! rules of docs/provider-rules-added.md): one body per rule, with AWS's text and the path.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::bedrock_converse::validate::validate;
use turnwire::{validate_request_for_model, Provider, Violation};

const CLAUDE: &str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const CLAUDE_4_6: &str = "global.anthropic.claude-opus-4-6-v1";
const NOVA: &str = "us.amazon.nova-pro-v1:0";
const LLAMA: &str = "us.meta.llama4-maverick-17b-instruct-v1:0";
const MISTRAL: &str = "mistral.mistral-large-2407-v1:0";
const DEEPSEEK: &str = "us.deepseek.r1-v1:0";

const TOOLS: &str = r#"{"tools": [{"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}}]}"#;

fn tool_config() -> Value {
    serde_json::from_str(TOOLS).unwrap()
}

fn body(messages: Value) -> Value {
    json!({"messages": messages, "toolConfig": tool_config()})
}

fn user(text: &str) -> Value {
    json!({"role": "user", "content": [{"text": text}]})
}

fn call(id: &str) -> Value {
    json!({"toolUse": {"toolUseId": id, "name": "get_weather", "input": {}}})
}

fn result(id: &str, content: Value) -> Value {
    json!({"toolResult": {"toolUseId": id, "content": content}})
}

fn loop_body(result_block: Value) -> Value {
    body(json!([
        user("weather?"),
        {"role": "assistant", "content": [call("tooluse_1")]},
        {"role": "user", "content": [result_block]}
    ]))
}

fn dump(v: &[Violation]) -> String {
    v.iter()
        .map(|v| format!("  {} {} {}", v.rule, v.path, v.message))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Asserts a violation of `rule` at exactly `path` for `model` and returns it.
#[track_caller]
fn flags(body: &Value, model: Option<&str>, rule: &str, path: &str) -> Violation {
    let v = validate(body, model);
    match v.iter().find(|v| v.rule == rule && v.path == path) {
        Some(found) => found.clone(),
        None => panic!("expected {rule} at {path}, got:\n{}", dump(&v)),
    }
}

#[track_caller]
fn clean(body: &Value, model: Option<&str>) {
    let v = validate(body, model);
    assert!(v.is_empty(), "expected no violation, got:\n{}", dump(&v));
}

#[test]
fn a_plain_tool_loop_passes_for_every_family() {
    let b = loop_body(result("tooluse_1", json!([{"text": "21C"}])));
    for m in [CLAUDE, NOVA, LLAMA, MISTRAL, DEEPSEEK] {
        clean(&b, Some(m));
    }
    clean(&b, None);
}

#[test]
fn bdr_02_tool_use_ids_are_1_to_64_of_the_id_alphabet() {
    let b = body(json!([
        user("weather?"),
        {"role": "assistant", "content": [call("call.1")]},
        {"role": "user", "content": [result("call.1", json!([{"text": "21C"}]))]}
    ]));
    let v = flags(
        &b,
        None,
        "BDR-02",
        "$.messages[1].content[0].toolUse.toolUseId",
    );
    assert!(v.message.contains("[a-zA-Z0-9_-]"), "{}", v.message);
    assert!(v.message.ends_with("[inferred]"), "{}", v.message);
    flags(
        &b,
        None,
        "BDR-02",
        "$.messages[2].content[0].toolResult.toolUseId",
    );
}

#[test]
fn bdr_05_an_error_result_has_content() {
    let b = loop_body(
        json!({"toolResult": {"toolUseId": "tooluse_1", "content": [], "status": "error"}}),
    );
    let v = flags(
        &b,
        Some(CLAUDE),
        "BDR-05",
        "$.messages[2].content[0].toolResult.content",
    );
    assert_eq!(
        v.message,
        "The content field at messages.2.content.0.toolResult cannot be empty when status value is error."
    );
}

#[test]
fn bdr_06_a_json_result_is_an_object() {
    let b = loop_body(result("tooluse_1", json!([{"json": [1, 2]}])));
    let v = flags(
        &b,
        None,
        "BDR-06",
        "$.messages[2].content[0].toolResult.content[0].json",
    );
    assert_eq!(
        v.message,
        "The format of the value at messages.2.content.0.toolResult.content.0.json is invalid. Provide a json object for the field and try again."
    );
    clean(
        &loop_body(result("tooluse_1", json!([{"json": {"t": 21}}]))),
        None,
    );
}

#[test]
fn bdr_10_tool_results_stand_alone_in_their_turn() {
    let b = body(json!([
        user("weather?"),
        {"role": "assistant", "content": [call("tooluse_1")]},
        {"role": "user", "content": [result("tooluse_1", json!([{"text": "21C"}])), {"text": "thanks"}]}
    ]));
    let v = flags(&b, Some(CLAUDE), "BDR-10", "$.messages[2].content");
    assert_eq!(
        v.message,
        "messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn."
    );
    // a cache point beside the results is not a conversation block
    let ok = loop_body(result("tooluse_1", json!([{"text": "21C"}])));
    let mut ok = ok;
    ok["messages"][2]["content"]
        .as_array_mut()
        .unwrap()
        .push(json!({"cachePoint": {"type": "default"}}));
    assert!(!validate(&ok, Some(CLAUDE))
        .iter()
        .any(|v| v.rule == "BDR-10"));
}

#[test]
fn bdr_10_mistral_and_meta_take_no_text_beside_a_tool_use() {
    let b = body(json!([
        user("weather?"),
        {"role": "assistant", "content": [{"text": "Let me look."}, call("tooluse_1")]},
        {"role": "user", "content": [result("tooluse_1", json!([{"text": "21C"}]))]}
    ]));
    for m in [LLAMA, MISTRAL] {
        let v = flags(&b, Some(m), "BDR-10", "$.messages[1].content");
        assert_eq!(
            v.message,
            "messages.1.content: Conversation blocks and tool use blocks cannot be provided in the same turn."
        );
    }
    for m in [CLAUDE, NOVA] {
        assert!(
            !validate(&b, Some(m)).iter().any(|v| v.rule == "BDR-10"),
            "{m}"
        );
    }
}

#[test]
fn bdr_11_tool_use_ids_are_unique_in_the_request() {
    let b = body(json!([
        user("weather?"),
        {"role": "assistant", "content": [call("tooluse_1")]},
        {"role": "user", "content": [result("tooluse_1", json!([{"text": "21C"}]))]},
        {"role": "assistant", "content": [call("tooluse_1")]},
        {"role": "user", "content": [result("tooluse_1", json!([{"text": "22C"}]))]}
    ]));
    let v = flags(
        &b,
        None,
        "BDR-11",
        "$.messages[3].content[0].toolUse.toolUseId",
    );
    assert!(v.message.ends_with("[inferred]"));
}

#[test]
fn bdr_12_tool_names_declared_unique_and_of_the_name_alphabet() {
    let mut b = loop_body(result("tooluse_1", json!([{"text": "21C"}])));
    b["toolConfig"] = json!({"tools": [
        {"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}},
        {"toolSpec": {"name": "get_weather", "inputSchema": {"json": {"type": "object"}}}},
        {"toolSpec": {"name": "get.time", "inputSchema": {"json": {"type": "object"}}}}
    ], "toolChoice": {"tool": {"name": "search"}}});
    flags(&b, None, "BDR-12", "$.toolConfig.tools[1].toolSpec.name");
    flags(&b, None, "BDR-12", "$.toolConfig.tools[2].toolSpec.name");
    flags(&b, None, "BDR-12", "$.toolConfig.toolChoice.tool.name");
    let mut undeclared = loop_body(result("tooluse_1", json!([{"text": "21C"}])));
    undeclared["toolConfig"] =
        json!({"tools": [{"toolSpec": {"name": "other", "inputSchema": {"json": {}}}}]});
    flags(
        &undeclared,
        None,
        "BDR-12",
        "$.messages[1].content[0].toolUse.name",
    );
}

#[test]
fn bdr_13_tool_use_input_is_an_object() {
    let b = body(json!([
        user("weather?"),
        {"role": "assistant", "content": [{"toolUse": {"toolUseId": "tooluse_1", "name": "get_weather", "input": "{}"}}]},
        {"role": "user", "content": [result("tooluse_1", json!([{"text": "21C"}]))]}
    ]));
    flags(&b, None, "BDR-13", "$.messages[1].content[0].toolUse.input");
}

fn reasoning(signature: Option<&str>) -> Value {
    let mut text = json!({"text": "I should check."});
    if let Some(s) = signature {
        text["signature"] = json!(s);
    }
    json!({"reasoningContent": {"reasoningText": text}})
}

fn answered(reasoning_block: Value) -> Value {
    json!({"messages": [
        user("hi"),
        {"role": "assistant", "content": [reasoning_block, {"text": "Hello."}]},
        user("bye")
    ]})
}

#[test]
fn bdr_14_a_signature_only_for_claude() {
    for m in [NOVA, DEEPSEEK, LLAMA] {
        let v = flags(
            &answered(reasoning(Some(""))),
            Some(m),
            "BDR-14",
            "$.messages[1].content[0].reasoningContent.reasoningText.signature",
        );
        assert_eq!(
            v.message,
            "This model doesn't support the reasoningContent.reasoningText.signature field. Remove reasoningContent.reasoningText.signature and try again."
        );
    }
    clean(&answered(reasoning(Some("EqQBsig"))), Some(CLAUDE));
}

#[test]
fn bdr_15_reasoning_only_in_assistant_turns_and_claude_needs_its_signature() {
    let b =
        json!({"messages": [{"role": "user", "content": [reasoning(Some("s")), {"text": "hi"}]}]});
    let v = flags(&b, None, "BDR-15", "$.messages[0].content[0]");
    assert_eq!(
        v.message,
        "User messages cannot contain reasoning content. Please remove the reasoning content and try again."
    );
    let v = flags(
        &answered(reasoning(None)),
        Some(CLAUDE),
        "BDR-15",
        "$.messages[1].content[0].reasoningContent.reasoningText.signature",
    );
    assert_eq!(
        v.message,
        "The model returned the following errors: messages.1.content.0.thinking.signature: Field required"
    );
    flags(
        &answered(reasoning(None)),
        Some(DEEPSEEK),
        "BDR-15",
        "$.messages[1].content[0]",
    );
}

#[test]
fn bdr_17_claude_thinking_rules_pass_through_with_the_prefix() {
    // thinking on, an open tool loop whose last assistant turn does not start with reasoning
    let mut b = loop_body(result("tooluse_1", json!([{"text": "21C"}])));
    b["additionalModelRequestFields"] =
        json!({"thinking": {"type": "enabled", "budget_tokens": 1024}});
    b["inferenceConfig"] = json!({"maxTokens": 4096});
    let v = flags(&b, Some(CLAUDE), "BDR-17", "$.messages[1].content[0]");
    assert!(
        v.message
            .starts_with("The model returned the following errors: Expected `thinking` or `redacted_thinking`, but found `tool_use`."),
        "{}",
        v.message
    );
    // thinking off: a final assistant turn holds no reasoning (ANT-15)
    let off = json!({"messages": [user("hi"), {"role": "assistant", "content": [reasoning(Some("s")), {"text": "Hel"}]}]});
    let v = flags(&off, Some(CLAUDE), "BDR-17", "$.messages[1].content[0]");
    assert!(v
        .message
        .starts_with("The model returned the following errors: When thinking is disabled"));
    // reasoning last in an assistant turn (ANT-16)
    let last = json!({"messages": [user("hi"), {"role": "assistant", "content": [{"text": "a"}, reasoning(Some("s"))]}, user("b")]});
    flags(&last, Some(CLAUDE), "BDR-17", "$.messages[1].content[1]");
    // not for other families
    assert!(!validate(&b, Some(NOVA)).iter().any(|v| v.rule == "BDR-17"));
}

#[test]
fn bdr_18_cache_point_placement() {
    let cp = json!({"cachePoint": {"type": "default"}});
    let after_reasoning = json!({"messages": [
        user("hi"),
        {"role": "assistant", "content": [reasoning(Some("s")), cp.clone(), {"text": "ok"}]},
        user("go")
    ]});
    let v = flags(
        &after_reasoning,
        Some(CLAUDE),
        "BDR-18",
        "$.messages[1].content[1]",
    );
    assert_eq!(
        v.message,
        "Cache point cannot be inserted after reasoning block. Please remove the invalid cache point and try again."
    );
    let first = json!({"messages": [{"role": "user", "content": [cp.clone(), {"text": "hi"}]}]});
    flags(&first, Some(CLAUDE), "BDR-18", "$.messages[0].content[0]");
    let mut nova_tools = json!({"messages": [user("hi")], "toolConfig": tool_config()});
    nova_tools["toolConfig"]["tools"]
        .as_array_mut()
        .unwrap()
        .push(cp.clone());
    let v = flags(&nova_tools, Some(NOVA), "BDR-18", "$.toolConfig.tools[1]");
    assert_eq!(
        v.message,
        "Malformed input request: #/toolConfig/tools/1: extraneous key [cachePoint] is not permitted, please reformat your input and try again."
    );
    clean(&nova_tools, Some(CLAUDE));
    let five = json!({"system": [{"text": "a"}, cp.clone()], "messages": [
        {"role": "user", "content": [{"text": "1"}, cp.clone(), {"text": "2"}, cp.clone(), {"text": "3"}, cp.clone(), {"text": "4"}, cp.clone()]}
    ]});
    let v = flags(&five, Some(CLAUDE), "BDR-18", "$.messages[0].content[7]");
    assert_eq!(
        v.message,
        "The model returned the following errors: A maximum of 4 blocks with cache_control may be provided. Found 5."
    );
    let in_result = loop_body(result("tooluse_1", json!([{"text": "21C"}, cp.clone()])));
    flags(
        &in_result,
        Some(CLAUDE),
        "BDR-18",
        "$.messages[2].content[0].toolResult.content[1]",
    );
    let llama = json!({"messages": [{"role": "user", "content": [{"text": "hi"}, cp]}]});
    flags(&llama, Some(LLAMA), "BDR-18", "$.messages[0].content[1]");
}

#[test]
fn bdr_19_media_formats_names_and_sources() {
    let b = json!({"messages": [{"role": "user", "content": [
        {"image": {"format": "bmp", "source": {"bytes": "AAAA"}}},
        {"document": {"format": "pdf", "name": "bad_name.pdf", "source": {"bytes": "AAAA"}}},
        {"image": {"format": "png", "source": {}}},
        {"text": "look"}
    ]}]});
    flags(&b, None, "BDR-19", "$.messages[0].content[0].image.format");
    flags(&b, None, "BDR-19", "$.messages[0].content[1].document.name");
    flags(&b, None, "BDR-19", "$.messages[0].content[2].image.source");
    let img = json!({"image": {"format": "png", "source": {"bytes": "iVBORw0KGgo="}}});
    let in_result = loop_body(result("tooluse_1", json!([{"text": "map"}, img])));
    flags(
        &in_result,
        Some(LLAMA),
        "BDR-19",
        "$.messages[2].content[0].toolResult.content[1]",
    );
    clean(&in_result, Some(CLAUDE));
}

#[test]
fn bdr_20_status_success_or_error_for_claude_and_nova_only() {
    let with = |s: &str| {
        loop_body(
            json!({"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "x"}], "status": s}}),
        )
    };
    flags(
        &with("failed"),
        Some(CLAUDE),
        "BDR-20",
        "$.messages[2].content[0].toolResult.status",
    );
    flags(
        &with("error"),
        Some(LLAMA),
        "BDR-20",
        "$.messages[2].content[0].toolResult.status",
    );
    clean(&with("error"), Some(NOVA));
}

#[test]
fn bdr_21_claude_prefill_rules_pass_through_with_the_prefix() {
    let prefill =
        json!({"messages": [user("hi"), {"role": "assistant", "content": [{"text": "Sure "}]}]});
    let v = flags(&prefill, Some(CLAUDE), "BDR-21", "$.messages[1].content[0]");
    assert_eq!(
        v.message,
        "The model returned the following errors: messages: final assistant content cannot end with trailing whitespace"
    );
    let no_prefill =
        json!({"messages": [user("hi"), {"role": "assistant", "content": [{"text": "Sure"}]}]});
    let v = flags(&no_prefill, Some(CLAUDE_4_6), "BDR-21", "$.messages[1]");
    assert!(v.message.starts_with("The model returned the following errors: This model does not support assistant message prefill."));
    clean(&no_prefill, Some(CLAUDE));
}

#[test]
fn the_public_entry_point_passes_the_model() {
    let b = answered(reasoning(Some("s")));
    assert!(
        validate_request_for_model(Provider::BedrockConverse, NOVA, &b)
            .iter()
            .any(|v| v.rule == "BDR-14")
    );
}
