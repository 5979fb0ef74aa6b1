//! Issue 11: the ordered-transcripts agent shape (spec §4.1: `System` / `User` /
//! `Assistant { blocks, stop_reason }` / `ToolResults { results }`, blocks tagged by
//! `block_type`, `ProviderMeta` tagged by `provider`) is read by `Transcript` as well, in
//! serde's externally tagged form and with a `role` member.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::json;
use turnwire::model::{Block, ProviderMeta, Speaker};
use turnwire::{render, validate_request, ErrorCode, Provider, RenderOptions, Transcript};

fn history() -> serde_json::Value {
    json!([
        {"System": {"content": "be brief"}},
        {"User": {"content": "list files"}},
        {"Assistant": {"blocks": [
            {"block_type": "reasoning", "text": "use ls", "meta": {"provider": "anthropic", "signature": "sig-1"}},
            {"block_type": "text", "text": "Listing.", "meta": {"provider": "gemini", "thoughtSignature": "c2ln"}},
            {"block_type": "tool_use", "id": "toolu_1", "name": "ls", "args": {"path": "."}},
            {"block_type": "tool_use", "id": "toolu_2", "name": "cat", "args": {"path": "a"}}
        ], "stop_reason": "tool_use"}},
        {"role": "tool_results", "results": [{"tool_use_id": "toolu_1", "content": "a.rs", "is_error": false}]},
        {"role": "assistant", "blocks": [
            {"block_type": "reasoning", "text": "", "meta": {"provider": "open_ai", "id": "rs_1", "encrypted_content": "gAAA"}},
            {"block_type": "text", "text": "One file."}
        ], "stop_reason": "end_turn"},
        {"role": "user", "content": "thanks"}
    ])
}

#[test]
fn issue_11_agent_shape_reads_as_canonical_messages_with_typed_continuity() {
    let t = Transcript::from_value(&history()).unwrap();
    let speakers: Vec<Speaker> = t.messages.iter().map(|m| m.speaker).collect();
    assert_eq!(
        speakers,
        [
            Speaker::System,
            Speaker::Human,
            Speaker::Ai,
            Speaker::Tool,
            Speaker::Ai,
            Speaker::Human
        ]
    );
    match &t.messages[2].blocks[..] {
        [Block::Thinking(th), Block::Text(tx), Block::ToolCall(c1), Block::ToolCall(_)] => {
            assert_eq!(
                th.meta,
                Some(ProviderMeta::AnthropicSignature {
                    signature: "sig-1".into()
                })
            );
            assert_eq!(
                tx.meta,
                Some(ProviderMeta::GeminiThoughtSignature {
                    thought_signature: "c2ln".into()
                })
            );
            assert_eq!(
                (c1.id.as_str(), c1.parameters.clone()),
                ("toolu_1", Some(json!({"path": "."})))
            );
        }
        other => panic!("{other:?}"),
    }
    match &t.messages[4].blocks[0] {
        Block::Thinking(th) => assert_eq!(
            th.meta,
            Some(ProviderMeta::OpenAiReasoning {
                id: Some("rs_1".into()),
                encrypted_content: Some("gAAA".into())
            })
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        t.messages[2]
            .metadata
            .as_ref()
            .unwrap()
            .extra
            .get("stopReason"),
        Some(&json!("tool_use"))
    );

    // Every provider gets a valid body: the unanswered toolu_2 is closed, the thinking that
    // names no model is not replayed unless the caller trusts it.
    for p in Provider::ALL {
        let out = render(&t, &RenderOptions::new(p, p.reference_model())).unwrap();
        assert!(
            validate_request(p, &out.body).is_empty(),
            "{p}: {:#}",
            out.body
        );
    }
    let mut trusted = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    trusted.trust_unattributed_thinking = true;
    trusted.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: None,
        summary: None,
    });
    let out = render(&t, &trusted).unwrap();
    assert_eq!(
        out.body["messages"][1]["content"][0]["signature"], "sig-1",
        "{:#}",
        out.body
    );
}

#[test]
fn issue_11_agent_shape_problems_are_typed_errors_with_their_path() {
    let e = Transcript::from_value(
        &json!([{"Assistant": {"blocks": [{"block_type": "tool_use", "name": "ls", "args": {}}]}}]),
    )
    .unwrap_err();
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::MissingField, "$[0].blocks[0].id")
    );
    // A chat message with `role` and `content` is not this shape (and not canonical either).
    let e = Transcript::from_value(&json!([{"role": "assistant", "content": "hi"}])).unwrap_err();
    assert_eq!(e.code(), ErrorCode::MissingField);
}
