//! Rendering for Bedrock Converse: the block mapping and the switches by the URL's model family
//! (Claude, Nova, Llama), each body passing the strict validator with its model.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::bedrock_converse::validate::validate;
use turnwire::{render, RenderOptions, Rendered, Transcript};

const CLAUDE: &str = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
const NOVA: &str = "us.amazon.nova-pro-v1:0";
const LLAMA: &str = "us.meta.llama4-maverick-17b-instruct-v1:0";
const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn render_for(model: &str, history: Value, options: Value) -> Rendered {
    let t = Transcript::from_json(&history.to_string()).unwrap();
    let mut o = json!({"provider": "bedrock-converse", "model": model});
    for (k, v) in options.as_object().unwrap() {
        o[k] = v.clone();
    }
    let out = render(&t, &RenderOptions::from_value(o).unwrap()).unwrap();
    let v = validate(&out.body, Some(model));
    assert!(v.is_empty(), "{model}: {v:#?}\n{:#}", out.body);
    assert!(
        out.headers.0.is_empty(),
        "Converse takes no header: {:?}",
        out.headers.0
    );
    out
}

fn tool_loop(result: Value) -> Value {
    json!([
        {"speaker": "human", "blocks": [
            {"type": "text", "text": "Look:"},
            {"type": "media", "mimeType": "image/png", "data": PNG, "encoding": "base64"},
            {"type": "media", "mimeType": "application/pdf", "data": "JVBERi0xLjQK", "encoding": "base64", "filename": "Q3 report_final.pdf"}
        ]},
        {"speaker": "ai", "metadata": {"provider": "bedrock-converse", "model": CLAUDE}, "blocks": [
            {"type": "text", "text": "Checking."},
            {"type": "tool_call", "id": "call_1", "name": "lookup", "parameters": {"q": "x"}}
        ]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_1", "toolName": "lookup", "result": result}]}
    ])
}

#[test]
fn maps_text_media_calls_and_results() {
    let out = render_for(CLAUDE, tool_loop(json!({"hits": 2})), json!({}));
    let b = &out.body;
    assert_eq!(b["messages"][0]["content"][1]["image"]["format"], "png");
    assert_eq!(
        b["messages"][0]["content"][1]["image"]["source"]["bytes"],
        PNG
    );
    let doc = &b["messages"][0]["content"][2]["document"];
    assert_eq!(doc["format"], "pdf");
    assert_eq!(doc["name"], "Q3 report final");
    let call = &b["messages"][1]["content"][1]["toolUse"];
    assert_eq!(call["name"], "lookup");
    assert_eq!(call["input"], json!({"q": "x"}));
    let result = &b["messages"][2]["content"][0]["toolResult"];
    assert_eq!(result["toolUseId"], call["toolUseId"]);
    assert_eq!(result["content"], json!([{"json": {"hits": 2}}]));
    assert_eq!(result["status"], "success");
    assert!(b.get("model").is_none() && b.get("stream").is_none());
    assert!(b["toolConfig"]["tools"][0]["toolSpec"]["name"] == "lookup");
}

#[test]
fn bdr_06_a_result_that_is_no_object_is_sent_as_text() {
    let out = render_for(CLAUDE, tool_loop(json!([1, 2])), json!({}));
    assert_eq!(
        out.body["messages"][2]["content"][0]["toolResult"]["content"],
        json!([{"text": "[1,2]"}])
    );
}

#[test]
fn bdr_20_status_only_for_claude_and_nova() {
    for (model, status) in [(CLAUDE, true), (NOVA, true), (LLAMA, false)] {
        let out = render_for(model, tool_loop(json!("ok")), json!({}));
        let r = &out.body["messages"][2]["content"][0]["toolResult"];
        assert_eq!(r.get("status").is_some(), status, "{model}");
    }
}

#[test]
fn bdr_18_cache_points_after_system_and_tools_for_claude_and_nova_only() {
    let options = json!({
        "system": "You are terse.",
        "cache": {"breakpoints": "auto", "ttl": "1h"},
        "tools": [{"name": "lookup", "parameters": {"type": "object"}}]
    });
    let claude = render_for(CLAUDE, tool_loop(json!("ok")), options.clone());
    let point = json!({"cachePoint": {"type": "default", "ttl": "1h"}});
    assert_eq!(claude.body["system"][1], point);
    assert_eq!(claude.body["toolConfig"]["tools"][1], point);
    // Nova: none among the tools
    let nova = render_for(NOVA, tool_loop(json!("ok")), options.clone());
    assert_eq!(nova.body["system"][1], point);
    assert_eq!(
        nova.body["toolConfig"]["tools"].as_array().unwrap().len(),
        1
    );
    // Llama caches implicitly: nothing sent, said once
    let llama = render_for(LLAMA, tool_loop(json!("ok")), options);
    assert!(!llama.body.to_string().contains("cachePoint"));
    assert!(llama
        .diagnostics
        .iter()
        .any(|d| d.message.contains("caches prefixes implicitly")));
}

#[test]
fn a_listed_messages_breakpoint_is_not_sent_and_said() {
    let out = render_for(
        CLAUDE,
        tool_loop(json!("ok")),
        json!({"cache": {"breakpoints": ["messages"]}}),
    );
    assert!(!out.body.to_string().contains("cachePoint"));
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.message.contains("`messages` was not sent")));
}

#[test]
fn structured_output_goes_in_output_config_as_schema_text() {
    let schema = json!({"type": "object", "properties": {"n": {"type": "integer"}}});
    let out = render_for(
        CLAUDE,
        json!([{"speaker": "human", "blocks": [{"type": "text", "text": "n?"}]}]),
        json!({"responseFormat": {"type": "json_schema", "name": "answer", "schema": schema}}),
    );
    let format = &out.body["outputConfig"]["textFormat"];
    assert_eq!(format["type"], "json_schema");
    assert_eq!(format["structure"]["jsonSchema"]["name"], "answer");
    let text = format["structure"]["jsonSchema"]["schema"]
        .as_str()
        .unwrap();
    assert_eq!(serde_json::from_str::<Value>(text).unwrap(), schema);
}

#[test]
fn claude_thinking_and_its_betas_go_in_the_body() {
    let history = json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]);
    let out = render_for(
        "us.anthropic.claude-fable-5-1-v1:0",
        history.clone(),
        json!({"thinking": {"enabled": true}}),
    );
    let fields = &out.body["additionalModelRequestFields"];
    assert!(fields["thinking"]["block_binding"].is_object(), "{fields}");
    assert_eq!(
        fields["anthropic_beta"],
        json!(["thinking-binding-controls-2026-08-01"])
    );
    // other families get no Claude fields
    let nova = render_for(NOVA, history, json!({"thinking": {"enabled": true}}));
    assert!(nova.body.get("additionalModelRequestFields").is_none());
}

#[test]
fn bdr_10_llama_gets_no_text_beside_a_tool_use() {
    let out = render_for(LLAMA, tool_loop(json!("ok")), json!({}));
    let turn = out.body["messages"][1]["content"].as_array().unwrap();
    assert!(
        !(turn.iter().any(|b| b.get("text").is_some())
            && turn.iter().any(|b| b.get("toolUse").is_some())),
        "{turn:?}"
    );
    // the normaliser leaves it out and names the block (nothing is lost silently)
    let omitted = out
        .diagnostics
        .iter()
        .find(|d| d.code.as_str() == "block_omitted")
        .expect("a block_omitted diagnostic");
    assert_eq!(omitted.path.as_deref(), Some("$[1].blocks[0]"));
    assert!(omitted.message.contains("BDR-10"), "{omitted:?}");
    // a Claude model keeps the text
    let claude = render_for(CLAUDE, tool_loop(json!("ok")), json!({}));
    assert_eq!(
        claude.body["messages"][1]["content"][0]["text"],
        "Checking."
    );
}
