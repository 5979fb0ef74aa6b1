//! Issue 14, point 1: server tools. A turn in which the provider ran a tool itself is decoded
//! into server-tool blocks; the next request replays them byte for byte to the provider that ran
//! them and as text to every other one, statelessly and through a `Conversation`, and every body
//! passes its strict validator. The declarations are in `render::server_tools`' tests and fixture
//! 71; the decoders' edge cases in `stream_edge_cases.rs`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::model::{Block, Message, Speaker, TextBlock};
use turnwire::stream::{StreamDecoder, StreamOptions};
use turnwire::{
    render, validate_request, Conversation, DiagnosticCode, Provider, RenderOptions, ServerTool,
    ServerToolKind, Transcript,
};

fn human(text: &str) -> Message {
    Message::new(Speaker::Human, vec![Block::Text(TextBlock::new(text))])
}

/// The assistant message of a decoded stream.
fn decoded(provider: Provider, events: &[Value]) -> Message {
    let mut d = StreamDecoder::new(provider, StreamOptions::default());
    for e in events {
        d.push(&e.to_string()).unwrap();
    }
    let outcome = d.finish();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    outcome.message
}

fn options(provider: Provider) -> RenderOptions {
    let mut o = RenderOptions::new(provider, provider.reference_model());
    o.server_tools = vec![
        ServerTool::new(ServerToolKind::WebSearch),
        ServerTool::new(ServerToolKind::CodeExecution),
    ];
    o
}

fn search_turn() -> (Message, Value, Value) {
    let call = json!({"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "rust 2024"}});
    let result = json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": [
        {"type": "web_search_result", "url": "https://doc.rust-lang.org/edition-guide/", "title": "The Edition Guide", "encrypted_content": "Eo8BCioIAhgBIiQ", "page_age": null}
    ]});
    let message = decoded(
        Provider::Anthropic,
        &[
            json!({"type": "message_start", "message": {"id": "msg_1", "model": "claude-sonnet-4-5", "usage": {"input_tokens": 9}}}),
            json!({"type": "content_block_start", "index": 0, "content_block": {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {}}}),
            json!({"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{\"query\": \"rust 2024\"}"}}),
            json!({"type": "content_block_stop", "index": 0}),
            json!({"type": "content_block_start", "index": 1, "content_block": result}),
            json!({"type": "content_block_stop", "index": 1}),
            json!({"type": "content_block_start", "index": 2, "content_block": {"type": "text", "text": "The 2024 edition shipped with Rust 1.85."}}),
            json!({"type": "content_block_stop", "index": 2}),
            json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 20}}),
            json!({"type": "message_stop"}),
        ],
    );
    (message, call, result)
}

#[test]
fn issue_14_a_decoded_search_goes_back_to_anthropic_byte_for_byte_and_as_text_elsewhere() {
    let (answer, call, result) = search_turn();
    let t = Transcript::new(vec![
        human("What is new in the 2024 edition?"),
        answer,
        human("And the next one?"),
    ]);
    for provider in Provider::ALL {
        let out = render(&t, &options(provider)).unwrap();
        assert!(
            validate_request(provider, &out.body).is_empty(),
            "{provider}: {:?}",
            validate_request(provider, &out.body)
        );
        let as_text = out
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ServerToolAsText)
            .count();
        if provider == Provider::Anthropic {
            assert_eq!(out.body["messages"][1]["content"][0], call);
            assert_eq!(out.body["messages"][1]["content"][1], result);
            assert_eq!(as_text, 0);
        } else {
            let body = out.body.to_string();
            assert!(
                body.contains("[web_search] query: rust 2024"),
                "{provider}: {body}"
            );
            assert!(
                body.contains("The Edition Guide <https://doc.rust-lang.org/edition-guide/>"),
                "{provider}"
            );
            assert!(
                !body.contains("Eo8BCioIAhgBIiQ"),
                "{provider}: encrypted content is Anthropic's alone"
            );
            assert_eq!(as_text, 2, "{provider}");
        }
    }
}

#[test]
fn issue_14_a_conversation_renders_server_tool_turns_as_the_stateless_render_does() {
    let (answer, _, _) = search_turn();
    let gemini = decoded(
        Provider::Gemini,
        &[
            json!({"candidates": [{"content": {"role": "model", "parts": [
            {"executableCode": {"language": "PYTHON", "code": "print(sum(range(10)))"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "45\n"}},
            {"text": "45."}
        ]}, "finishReason": "STOP"}]}),
        ],
    );
    let turns = [
        human("What is new in the 2024 edition?"),
        answer,
        human("Sum 0..10 in code."),
        gemini,
        human("Thanks."),
    ];
    for provider in [
        Provider::Anthropic,
        Provider::Gemini,
        Provider::OpenAiResponses,
        Provider::Kimi,
    ] {
        let o = options(provider);
        let mut c = Conversation::new();
        let mut so_far = Vec::new();
        for m in &turns {
            c.append(m.clone());
            so_far.push(m.clone());
            let incremental = c.render(&o).unwrap();
            let stateless = render(&Transcript::new(so_far.clone()), &o).unwrap();
            assert_eq!(
                incremental.body_bytes(),
                stateless.body_bytes(),
                "{provider} after {} messages",
                so_far.len()
            );
        }
        let last = c.render(&o).unwrap();
        if provider == Provider::Gemini {
            assert_eq!(
                last.body["contents"][3]["parts"][0]["executableCode"]["code"],
                "print(sum(range(10)))"
            );
        }
    }
}
