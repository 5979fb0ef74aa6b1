//! Issue 11, the Anthropic importer: continuity tokens with their provenance, tool results and
//! their attachments, system prompts, the options of a body, and what cannot be carried.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::import::{from_anthropic, from_request_body, ImportSource};
use turnwire::model::{Block, ProviderMeta, Speaker};
use turnwire::{
    render, validate_request, DiagnosticCode, ErrorCode, Provider, RenderOptions, ServerTool,
    ServerToolKind,
};

fn source() -> ImportSource {
    ImportSource {
        model: Some("claude-sonnet-4-5".into()),
        endpoint: None,
        host: None,
        account: None,
    }
}

fn history() -> Value {
    json!([
        {"role": "user", "content": "why does the build fail?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "check the log", "signature": "sig-1"},
            {"type": "redacted_thinking", "data": "opaque-2"},
            {"type": "text", "text": "Reading the log."},
            {"type": "tool_use", "id": "toolu_01A", "name": "read_log", "input": {"path": "build.log"}}
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_01A", "content": [
                {"type": "text", "text": "error: missing semicolon"},
                {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgo="}}
            ]},
            {"type": "text", "text": "and?"}
        ]}
    ])
}

#[test]
fn issue_11_anthropic_signatures_keep_their_provenance_and_replay_only_to_their_model() {
    let imported = from_anthropic(&history(), Some(&json!("be brief")), &source()).unwrap();
    let t = &imported.transcript;
    let speakers: Vec<Speaker> = t.messages.iter().map(|m| m.speaker).collect();
    assert_eq!(
        speakers,
        [
            Speaker::System,
            Speaker::Human,
            Speaker::Ai,
            Speaker::Tool,
            Speaker::Human
        ]
    );
    let ai = &t.messages[2];
    let provenance = &ai.metadata.as_ref().unwrap().provenance;
    assert_eq!(provenance.provider.as_deref(), Some("anthropic"));
    assert_eq!(provenance.model.as_deref(), Some("claude-sonnet-4-5"));
    match (&ai.blocks[0], &ai.blocks[1]) {
        (Block::Thinking(a), Block::Thinking(b)) => {
            assert_eq!(
                a.meta,
                Some(ProviderMeta::AnthropicSignature {
                    signature: "sig-1".into()
                })
            );
            assert_eq!(
                b.meta,
                Some(ProviderMeta::AnthropicRedacted {
                    data: "opaque-2".into()
                })
            );
        }
        other => panic!("{other:?}"),
    }
    match &t.messages[3].blocks[..] {
        [Block::ToolResponse(r), Block::Media(m)] => {
            assert_eq!(
                r.tool_name.as_deref(),
                Some("read_log"),
                "named from its call"
            );
            assert_eq!(r.text(), "error: missing semicolon");
            assert_eq!(m.mime_type, "image/png");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        imported.diagnostics.is_empty(),
        "{:?}",
        imported.diagnostics
    );

    // Same model: the signed and redacted thinking go back as they came.
    let mut same = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    same.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: None,
        summary: None,
    });
    let out = render(t, &same).unwrap();
    let content = &out.body["messages"][1]["content"];
    assert_eq!(
        content[0],
        json!({"type": "thinking", "thinking": "check the log", "signature": "sig-1"})
    );
    assert_eq!(
        content[1],
        json!({"type": "redacted_thinking", "data": "opaque-2"})
    );
    assert_eq!(out.body["system"], "be brief");
    assert!(validate_request(Provider::Anthropic, &out.body).is_empty());

    // Another provider: the tokens are not replayed, and every body is valid.
    for p in Provider::ALL {
        let out = render(t, &RenderOptions::new(p, p.reference_model())).unwrap();
        assert!(validate_request(p, &out.body).is_empty(), "{p}");
        if p != Provider::Anthropic {
            assert!(!out.body.to_string().contains("sig-1"), "{p}");
        }
    }
}

#[test]
fn issue_14_anthropic_server_tool_blocks_are_read_whole_and_replayed_to_anthropic_only() {
    let messages = json!([
        {"role": "user", "content": "search the web"},
        {"role": "assistant", "content": [
            {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {"query": "rust"}},
            {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
            {"type": "text", "text": "Found it."},
            {"type": "mcp_tool_use", "id": "mcptoolu_1", "name": "x", "server_name": "s", "input": {}}
        ]}
    ]);
    let imported = from_anthropic(&messages, None, &source()).unwrap();
    let codes: Vec<(DiagnosticCode, Option<&str>)> = imported
        .diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_deref()))
        .collect();
    // Only the part turnwire has no block for is opaque (kept, reported).
    assert_eq!(
        codes,
        [(DiagnosticCode::ImportOpaque, Some("$[1].content[3]"))]
    );
    let blocks = &imported.transcript.messages[1].blocks;
    let Block::ServerTool(call) = &blocks[0] else {
        panic!("{:?}", blocks[0])
    };
    assert_eq!(
        (call.id.as_str(), call.name.as_str()),
        ("srvtoolu_1", "web_search")
    );
    assert!(matches!(blocks[1], Block::ServerTool(_)));
    let out = render(
        &imported.transcript,
        &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"),
    )
    .unwrap();
    assert_eq!(
        out.body["messages"][1]["content"][0],
        messages[1]["content"][0]
    );
    assert_eq!(
        out.body["messages"][1]["content"][1],
        messages[1]["content"][1]
    );
    assert!(validate_request(Provider::Anthropic, &out.body).is_empty());
    let out = render(
        &imported.transcript,
        &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2"),
    )
    .unwrap();
    assert!(out.body["messages"][1]["content"]
        .as_str()
        .unwrap()
        .starts_with("[web_search] query: rust"));
    assert!(validate_request(Provider::OpenAiChat, &out.body).is_empty());
}

#[test]
fn issue_11_anthropic_bad_input_is_a_typed_error_with_its_path() {
    let e = from_anthropic(
        &json!([{"role": "robot", "content": "hi"}]),
        None,
        &source(),
    )
    .unwrap_err();
    assert_eq!((e.code(), e.path()), (ErrorCode::InvalidValue, "$[0].role"));
    let e = from_anthropic(&json!([{"role": "user", "content": 5}]), None, &source()).unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidType, "$[0].content")
    );
    let e = from_anthropic(
        &json!([{"role": "assistant", "content": [{"type": "tool_use", "name": "x", "input": {}}]}]),
        None,
        &source(),
    )
    .unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::MissingField, "$[0].content[0].id")
    );
    let e = from_request_body(Provider::Anthropic, &json!([1]), &source()).unwrap_err();
    assert_eq!((e.code(), e.path()), (ErrorCode::InvalidType, "$"));
}

#[test]
fn issue_11_anthropic_body_options_tools_thinking_and_extra_fields() {
    let body = json!({
        "model": "claude-opus-4-1",
        "max_tokens": 8000,
        "system": [{"type": "text", "text": "be brief"}],
        "messages": history(),
        "tools": [
            {"name": "read_log", "description": "Reads a log", "input_schema": {"type": "object"}},
            {"type": "web_search_20250305", "name": "web_search"},
            {"type": "web_search_20260209", "name": "web_search"}
        ],
        "thinking": {"type": "enabled", "budget_tokens": 2048},
        "stream": true,
        "metadata": {"user_id": "u1"}
    });
    let imported = from_request_body(Provider::Anthropic, &body, &ImportSource::default()).unwrap();
    let o = imported.options.unwrap();
    assert_eq!(
        (o.model.as_str(), o.max_tokens),
        ("claude-opus-4-1", Some(8000))
    );
    assert_eq!(o.tools.len(), 1);
    assert_eq!(o.tools[0].name, "read_log");
    assert_eq!(
        o.thinking.as_ref().map(|t| (t.enabled, t.budget_tokens)),
        Some((true, Some(2048)))
    );
    assert_eq!(o.extra.get("stream"), Some(&json!(true)));
    assert_eq!(o.extra.get("metadata"), Some(&json!({"user_id": "u1"})));
    // the body's model is the assistant turns' provenance
    let ai = &imported.transcript.messages[2];
    assert_eq!(
        ai.metadata.as_ref().unwrap().provenance.model.as_deref(),
        Some("claude-opus-4-1")
    );
    // the server tool turnwire declares is read as `serverTools`; a version it does not
    // write could not be declared through the options: reported
    assert_eq!(o.server_tools, [ServerTool::new(ServerToolKind::WebSearch)]);
    assert_eq!(imported.diagnostics.len(), 1);
    assert_eq!(imported.diagnostics[0].path.as_deref(), Some("$.tools[2]"));
}

#[test]
fn ant_43_imported_fallback_blocks_are_kept_and_later_blocks_come_from_the_to_model() {
    let messages = serde_json::json!([
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [
            {"type": "text", "text": "before"},
            {"type": "fallback", "from": {"model": "claude-fable-5-1"}, "to": {"model": "claude-opus-5"}, "trigger": null},
            {"type": "thinking", "thinking": "t", "signature": "s"},
            {"type": "compaction", "content": "sum", "encrypted_content": null}
        ]}
    ]);
    let imported = turnwire::import::from_anthropic(
        &messages,
        None,
        &turnwire::import::ImportSource::default(),
    )
    .unwrap();
    let v = imported.transcript.to_value();
    let blocks = &v[1]["blocks"];
    assert_eq!(blocks[0]["type"], "text");
    assert!(blocks[0].get("provenance").is_none());
    assert_eq!(blocks[1]["wire"]["type"], "fallback");
    assert_eq!(blocks[2]["provenance"]["model"], "claude-opus-5");
    assert_eq!(blocks[3]["wire"]["type"], "compaction");
    assert!(
        imported.diagnostics.is_empty(),
        "{:?}",
        imported.diagnostics
    );
}
