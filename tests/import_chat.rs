//! Issue 11, the chat importer (every chat dialect): reasoning text with its field and the
//! dialect's provenance, arguments, media, fields kept, and what cannot be carried.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use turnwire::import::{from_openai_chat, ImportSource};
use turnwire::model::{Block, MediaEncoding, Speaker};
use turnwire::{render, validate_request, DiagnosticCode, Provider, RenderOptions};

#[test]
fn issue_11_chat_reasoning_keeps_its_field_and_replays_to_its_dialect_and_model() {
    let messages = json!([
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [
            {"type": "text", "text": "what is this?"},
            {"type": "image_url", "image_url": {"url": "data:image/png;base64,iVBORw0KGgo="}}
        ]},
        {"role": "assistant", "content": null, "reasoning_content": "look at it", "name": "helper",
         "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "zoom", "arguments": "not json"}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": "a cat"},
        {"role": "tool", "tool_call_id": "call_2", "content": "late"}
    ]);
    let source = ImportSource {
        model: Some("deepseek-reasoner".into()),
        endpoint: None,
        host: None,
        account: None,
    };
    let imported = from_openai_chat(Provider::DeepSeek, &messages, &source).unwrap();
    let t = &imported.transcript;
    let speakers: Vec<Speaker> = t.messages.iter().map(|m| m.speaker).collect();
    assert_eq!(
        speakers,
        [Speaker::System, Speaker::Human, Speaker::Ai, Speaker::Tool]
    );
    match &t.messages[1].blocks[1] {
        Block::Media(m) => assert_eq!(
            (m.mime_type.as_str(), m.encoding),
            ("image/png", MediaEncoding::Base64)
        ),
        other => panic!("{other:?}"),
    }
    let ai = &t.messages[2];
    assert_eq!(
        ai.metadata.as_ref().unwrap().provenance.provider.as_deref(),
        Some("deepseek")
    );
    assert_eq!(
        ai.extra.get("name"),
        Some(&json!("helper")),
        "unread fields are kept"
    );
    match &ai.blocks[..] {
        [Block::Thinking(th), Block::ToolCall(c)] => {
            assert_eq!(th.source_field.as_deref(), Some("reasoning_content"));
            assert_eq!(
                c.parameters,
                Some(json!("not json")),
                "kept for the normaliser"
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        t.messages[3].blocks.len(),
        2,
        "the tool messages are one run"
    );
    assert!(
        imported.diagnostics.is_empty(),
        "{:?}",
        imported.diagnostics
    );

    // Rendered back for DeepSeek's reasoner: the reasoning goes back on its tool-call turn, the
    // arguments are repaired, the orphan result is kept as text; the body is valid.
    let out = render(
        t,
        &RenderOptions::new(Provider::DeepSeek, "deepseek-reasoner"),
    )
    .unwrap();
    assert!(
        validate_request(Provider::DeepSeek, &out.body).is_empty(),
        "{:#}",
        out.body
    );
    let assistant = &out.body["messages"][2];
    assert_eq!(assistant["reasoning_content"], "look at it");
    let codes: Vec<DiagnosticCode> = out.diagnostics.iter().map(|d| d.code).collect();
    assert!(
        codes.contains(&DiagnosticCode::ParametersNormalized),
        "{codes:?}"
    );
    assert!(
        codes.contains(&DiagnosticCode::OrphanResultAsText),
        "{codes:?}"
    );
}

#[test]
fn issue_11_chat_parts_it_cannot_read_are_opaque_and_url_media_types_are_reported() {
    let messages = json!([
        {"role": "user", "content": [
            {"type": "file", "file": {"file_id": "file-abc"}},
            {"type": "image_url", "image_url": {"url": "https://example.com/cat.webp"}}
        ]}
    ]);
    let imported =
        from_openai_chat(Provider::OpenAiChat, &messages, &ImportSource::default()).unwrap();
    let found: Vec<(DiagnosticCode, Option<&str>)> = imported
        .diagnostics
        .iter()
        .map(|d| (d.code, d.path.as_deref()))
        .collect();
    assert_eq!(
        found,
        [
            (DiagnosticCode::ImportOpaque, Some("$[0].content[0]")),
            (DiagnosticCode::ImportConverted, Some("$[0].content[1]"))
        ]
    );
    match &imported.transcript.messages[0].blocks[1] {
        Block::Media(m) => assert_eq!(
            (m.mime_type.as_str(), m.encoding),
            ("image/webp", MediaEncoding::Url)
        ),
        other => panic!("{other:?}"),
    }
}

/// MIS-09 (issue 31): Mistral's thinking chunks read as thinking, in their place; a render for
/// Mistral does not send them back (Mistral's docs ask for no replay; the foreign-thinking
/// policy decides), and the body stays valid.
#[test]
fn mis_09_mistral_thinking_chunks_import_as_thinking_and_are_not_replayed() {
    let messages = json!([
        {"role": "user", "content": "is 91 prime?"},
        {"role": "assistant", "content": [
            {"type": "thinking", "thinking": [{"type": "text", "text": "91 = 7 * "}, {"type": "text", "text": "13"}]},
            {"type": "text", "text": "No: 91 = 7 × 13."}
        ]},
        {"role": "user", "content": "and 97?"}
    ]);
    let source = ImportSource {
        model: Some("mistral-medium-2604".into()),
        endpoint: None,
        host: None,
        account: None,
    };
    let imported = from_openai_chat(Provider::Mistral, &messages, &source).unwrap();
    let blocks = &imported.transcript.messages[1].blocks;
    match &blocks[..] {
        [Block::Thinking(t), Block::Text(x)] => {
            assert_eq!(t.thought, "91 = 7 * 13");
            assert_eq!(t.source_field.as_deref(), Some("thinking"));
            assert_eq!(x.text, "No: 91 = 7 × 13.");
        }
        other => panic!("{other:?}"),
    }
    assert!(
        imported.diagnostics.is_empty(),
        "{:?}",
        imported.diagnostics
    );
    let r = render(
        &imported.transcript,
        &RenderOptions::new(Provider::Mistral, "mistral-medium-2604"),
    )
    .unwrap();
    assert!(validate_request(Provider::Mistral, &r.body).is_empty());
    assert_eq!(r.body["messages"][1]["content"], json!("No: 91 = 7 × 13."));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingDropped));
}

/// ORT-02: an OpenRouter body's `reasoning_details` are read whole onto the thinking block and
/// go back unmodified to the same model on OpenRouter; elsewhere their text follows the
/// foreign-thinking policy.
#[test]
fn ort_02_openrouter_reasoning_details_are_imported_and_sent_back_only_to_their_model() {
    let details = json!([
        {"type": "reasoning.text", "text": "Need the weather.", "signature": "EqQBCkgIBxAB", "format": "anthropic-claude-v1", "index": 0}
    ]);
    let body = json!({"model": "anthropic/claude-sonnet-4.5", "messages": [
        {"role": "user", "content": "weather in Oslo?"},
        {"role": "assistant", "content": null, "reasoning": "Need the weather.", "reasoning_details": details,
         "tool_calls": [{"id": "toolu_01", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}]},
        {"role": "tool", "tool_call_id": "toolu_01", "content": "cold"}
    ]});
    let openrouter = "https://openrouter.ai/api/v1";
    let source = ImportSource {
        model: None,
        endpoint: Some(openrouter.into()),
        account: None,
        host: None,
    };
    for provider in [Provider::OpenAiCompatible, Provider::OpenAiChat] {
        let imported = turnwire::import::from_request_body(provider, &body, &source).unwrap();
        let t = &imported.transcript;
        let Block::Thinking(th) = &t.messages[1].blocks[0] else {
            panic!("{:?}", t.messages[1].blocks)
        };
        assert_eq!(th.thought, "Need the weather.");
        assert_eq!(
            th.meta,
            Some(turnwire::model::ProviderMeta::OpenRouterReasoningDetails {
                details: details.as_array().unwrap().clone()
            })
        );
        assert!(!t.messages[1].extra.contains_key("reasoning_details"));
        let render_to = |model: &str, endpoint: &str| {
            let mut o = RenderOptions::new(provider, model);
            o.endpoint = Some(endpoint.into());
            render(t, &o).unwrap()
        };
        // the same model on OpenRouter: the array back whole, no other reasoning field
        let out = render_to("anthropic/claude-sonnet-4.5", openrouter);
        assert_eq!(
            out.body["messages"][1]["reasoning_details"], details,
            "{provider}"
        );
        assert!(out.body["messages"][1].get("reasoning").is_none());
        assert!(out.body["messages"][1].get("reasoning_content").is_none());
        // another model on OpenRouter, or another server: not sent; the thinking is dropped
        for (model, endpoint) in [
            ("google/gemini-3-pro-preview", openrouter),
            ("anthropic/claude-sonnet-4.5", "https://api.example.com/v1"),
        ] {
            let out = render_to(model, endpoint);
            assert!(
                out.body["messages"][1].get("reasoning_details").is_none(),
                "{provider} {model} {endpoint}"
            );
            assert!(
                out.diagnostics
                    .iter()
                    .any(|d| d.code == DiagnosticCode::ThinkingDropped),
                "{provider} {model} {endpoint}: {:?}",
                out.diagnostics
            );
        }
    }
}
