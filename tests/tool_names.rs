//! Issue 31, "tool-name whitespace": one rule for a tool name with whitespace around it. A name
//! no declared tool spells exactly names the tool without the whitespace (` read ` is the
//! declared `read`, not a second tool `_read_`), and a name of spaces is the empty name:
//! projected to `tool` and declared once, like `""` (`tool_name_trimmed`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{render, Conversation, Provider, RenderOptions, ToolDeclaration, Transcript};

fn history() -> Value {
    json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "a", "name": " read ", "parameters": {}},
            {"type": "tool_call", "id": "b", "name": "", "parameters": {}},
            {"type": "tool_call", "id": "c", "name": "   ", "parameters": {}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "a", "toolName": " read ", "result": "x"},
            {"type": "tool_response", "callId": "b", "toolName": "", "result": "y"},
            {"type": "tool_response", "callId": "c", "toolName": "   ", "result": "z"}]}
    ])
}

fn options(provider: Provider, model: &str) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.max_tokens = Some(1000);
    o.tools = vec![ToolDeclaration::new(
        "read",
        "Read a file",
        json!({"type": "object"}),
    )];
    o
}

fn declared_names(provider: Provider, body: &Value) -> Vec<String> {
    let tools = match provider {
        Provider::Gemini => body["tools"][0]["functionDeclarations"].clone(),
        _ => body["tools"].clone(),
    };
    tools
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            t["name"]
                .as_str()
                .or(t["function"]["name"].as_str())
                .unwrap()
                .to_string()
        })
        .collect()
}

#[test]
fn tool_name_whitespace_names_the_declared_tool_and_blank_names_are_the_empty_name() {
    let t = Transcript::from_value(&history()).unwrap();
    for (provider, model) in [
        (Provider::Anthropic, "claude-sonnet-4-5"),
        (Provider::Gemini, "gemini-2.5-pro"),
        (Provider::OpenAiChat, "gpt-5.2"),
    ] {
        let r = render(&t, &options(provider, model)).unwrap();
        let declared = declared_names(provider, &r.body);
        match provider {
            // Providers that need every history tool declared get `tool` once, besides `read`.
            Provider::Anthropic | Provider::Gemini => {
                assert_eq!(declared, ["read", "tool"], "{provider}")
            }
            _ => assert_eq!(declared, ["read"], "{provider}"),
        }
        assert_eq!(
            r.tool_names.0,
            [(String::new(), "tool".to_string())],
            "{provider}"
        );
        let trimmed = r
            .diagnostics
            .iter()
            .filter(|d| d.code.as_str() == "tool_name_trimmed")
            .count();
        assert_eq!(trimmed, 4, "{provider}: two calls and two results");
        assert!(turnwire::validate_request_for_model(provider, model, &r.body).is_empty());
    }
}

#[test]
fn tool_name_whitespace_a_declared_spelling_is_kept() {
    let t = Transcript::from_value(&history()).unwrap();
    let mut o = options(Provider::Anthropic, "claude-sonnet-4-5");
    o.tools.push(ToolDeclaration::new(
        " read ",
        "Read, spelt with spaces",
        json!({"type": "object"}),
    ));
    let r = render(&t, &o).unwrap();
    assert!(r
        .tool_names
        .0
        .contains(&(" read ".to_string(), "_read_".to_string())));
    assert_eq!(r.body["messages"][1]["content"][0]["name"], "_read_");
}

#[test]
fn tool_name_whitespace_the_incremental_render_agrees() {
    let t = Transcript::from_value(&history()).unwrap();
    let o = options(Provider::Anthropic, "claude-sonnet-4-5");
    let mut c = Conversation::new();
    for m in t.messages.clone() {
        c.append(m);
    }
    assert_eq!(c.render(&o).unwrap().body, render(&t, &o).unwrap().body);
}
