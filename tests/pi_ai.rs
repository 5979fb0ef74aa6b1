//! Issue 11, pi-ai: `from_pi_ai` / `to_pi_ai`. A history repaired for a provider, written as a
//! pi-ai `Context` and read back, renders byte for byte what the original renders, for every
//! golden transcript and provider; pi-ai's per-`api` token encodings read and written.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use serde_json::json;
use turnwire::export::to_pi_ai;
use turnwire::import::{from_pi_ai, ImportSource};
use turnwire::model::{Block, ProviderMeta, Speaker};
use turnwire::{
    normalize, render, render_body, validate_request, DiagnosticCode, Provider, RenderOptions,
};

#[test]
fn issue_11_every_golden_repaired_written_as_pi_ai_and_read_back_renders_the_same_bytes() {
    let (mut checked, mut uncarried) = (0, 0);
    for case in fixture_support::rendered() {
        let (name, p, t, o) = (&case.name, case.provider, &case.transcript, &case.options);
        {
            let n = normalize(t, &o.resolved_normalize_options().unwrap());
            let written = to_pi_ai(&n.into_history());
            if !written.diagnostics.is_empty() {
                // pi-ai takes text and images only: other media is what it cannot carry
                for d in &written.diagnostics {
                    assert!(
                        d.code == DiagnosticCode::BlockOmitted && d.message.starts_with("media"),
                        "{name} {p}: {d:?}"
                    );
                }
                uncarried += 1;
                continue;
            }
            let source = ImportSource {
                model: None,
                endpoint: o.endpoint.clone(),
                host: None,
                account: None,
            };
            let imported = from_pi_ai(&written.context, &source).unwrap();
            let second =
                render_body(&imported.transcript, o).unwrap_or_else(|e| panic!("{name} {p}: {e}"));
            assert_eq!(
                String::from_utf8(second).unwrap(),
                String::from_utf8(case.body.clone()).unwrap(),
                "{name} {p}: {:#}",
                written.context
            );
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
    assert!(
        uncarried < 30,
        "{uncarried} renders held media pi-ai cannot carry"
    );
}

#[test]
fn issue_11_pi_ai_token_encodings_by_api() {
    let item = json!({"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "plan"}], "encrypted_content": "gAAA"});
    let context = json!({
        "systemPrompt": "be brief",
        "tools": [{"name": "ls", "description": "list", "parameters": {"type": "object"}}],
        "messages": [
            {"role": "user", "content": "hi", "timestamp": 1},
            {"role": "assistant", "api": "openai-responses", "provider": "openai", "model": "gpt-5.2",
             "content": [
                {"type": "thinking", "thinking": "plan", "thinkingSignature": item.to_string()},
                {"type": "text", "text": "listing", "textSignature": "{\"v\":1,\"id\":\"msg_1\"}"},
                {"type": "toolCall", "id": "call_1|fc_1", "name": "ls", "arguments": {}}],
             "usage": {"input": 1}, "stopReason": "toolUse", "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call_1|fc_1", "toolName": "ls",
             "content": [{"type": "text", "text": "a.rs"}], "isError": false, "details": {"n": 1}, "timestamp": 3},
            {"role": "assistant", "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
             "content": [
                {"type": "thinking", "thinking": "[Reasoning redacted]", "thinkingSignature": "opaque", "redacted": true},
                {"type": "text", "text": "done"}],
             "stopReason": "stop", "timestamp": 4},
            {"role": "assistant", "api": "google-generative-ai", "provider": "google", "model": "gemini-3-pro-preview",
             "content": [{"type": "toolCall", "id": "ls_1", "name": "ls", "arguments": {}, "thoughtSignature": "c2ln"}],
             "stopReason": "toolUse", "timestamp": 5},
            {"role": "assistant", "api": "openai-completions", "provider": "deepseek", "model": "deepseek-reasoner",
             "content": [{"type": "thinking", "thinking": "hm", "thinkingSignature": "reasoning_content"}, {"type": "text", "text": "ok"}],
             "stopReason": "stop", "timestamp": 6}
        ]
    });
    let imported = from_pi_ai(&context, &ImportSource::default()).unwrap();
    let t = &imported.transcript;
    assert_eq!(t.messages[0].speaker, Speaker::System);
    let ai = &t.messages[2];
    assert_eq!(
        ai.metadata.as_ref().unwrap().provenance.provider.as_deref(),
        Some("openai-responses")
    );
    match &ai.blocks[..] {
        [Block::Thinking(th), Block::Text(_), Block::ToolCall(c)] => {
            assert_eq!(
                th.meta,
                Some(ProviderMeta::OpenAiReasoning {
                    id: Some("rs_1".into()),
                    encrypted_content: Some("gAAA".into())
                })
            );
            assert_eq!(c.id, "call_1", "the call id of call_id|item_id");
        }
        other => panic!("{other:?}"),
    }
    match &t.messages[3].blocks[0] {
        Block::ToolResponse(r) => assert_eq!(
            (r.call_id.as_str(), r.extra.get("details")),
            ("call_1", Some(&json!({"n": 1})))
        ),
        other => panic!("{other:?}"),
    }
    match &t.messages[4].blocks[0] {
        Block::Thinking(th) => assert_eq!(
            th.meta,
            Some(ProviderMeta::AnthropicRedacted {
                data: "opaque".into()
            })
        ),
        other => panic!("{other:?}"),
    }
    match &t.messages[5].blocks[0] {
        Block::ToolCall(c) => assert_eq!(
            c.meta,
            Some(ProviderMeta::GeminiThoughtSignature {
                thought_signature: "c2ln".into()
            })
        ),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        t.messages[6]
            .metadata
            .as_ref()
            .unwrap()
            .provenance
            .provider
            .as_deref(),
        Some("deepseek")
    );
    // tools are kept on the transcript, and said so
    assert_eq!(t.extra.get("tools").unwrap()[0]["name"], "ls");
    assert_eq!(imported.diagnostics.len(), 1);
    // every provider renders it validly
    for p in Provider::ALL {
        let body = render(t, &RenderOptions::new(p, p.reference_model()))
            .unwrap()
            .body;
        assert!(validate_request(p, &body).is_empty(), "{p}: {body:#}");
    }
    // written back: the same fields pi-ai reads, per api
    let back = to_pi_ai(t).context;
    let m = &back["messages"];
    assert_eq!(m[1]["api"], "openai-responses");
    assert_eq!(m[1]["content"][2]["id"], "call_1|fc_1");
    let item_back: serde_json::Value =
        serde_json::from_str(m[1]["content"][0]["thinkingSignature"].as_str().unwrap()).unwrap();
    assert_eq!(
        (
            item_back["id"].clone(),
            item_back["encrypted_content"].clone()
        ),
        (json!("rs_1"), json!("gAAA"))
    );
    assert_eq!(m[1]["usage"], json!({"input": 1}), "kept fields go back");
    assert_eq!(m[2]["details"], json!({"n": 1}));
    assert_eq!(
        (
            m[3]["content"][0]["redacted"].clone(),
            m[3]["content"][0]["thinkingSignature"].clone()
        ),
        (json!(true), json!("opaque"))
    );
    assert_eq!(m[4]["content"][0]["thoughtSignature"], "c2ln");
    assert_eq!(m[5]["content"][0]["thinkingSignature"], "reasoning_content");
    assert_eq!(back["systemPrompt"], "be brief");
    assert_eq!(back["tools"][0]["name"], "ls");
}

/// GEM-22 through pi-ai: the role-order pass merges a Gemini call turn into a turn of another
/// origin (the call keeps its own provenance); pi-ai keeps provenance per message, so the
/// exporter writes the call's own on its part (`turnwireProvenance`), and the history read back
/// renders the same bytes (the Gemini call keeps its id and its signature).
#[test]
fn gem_22_pi_ai_keeps_the_own_provenance_of_a_call_in_a_merged_turn() {
    let t = turnwire::Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "read it"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
            {"type": "text", "text": "Reading."},
            {"type": "tool_call", "id": "k3v9d1qa", "name": "read", "parameters": {"path": "a"},
             "thoughtSignature": "CiQB0e2Kc2lnLWNhbGw=",
             "provenance": {"provider": "gemini", "api": "google-generative-ai", "model": "gemini-3-pro-preview"}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "k3v9d1qa", "toolName": "read", "result": "A"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and?"}]}
    ]))
    .unwrap();
    let o = RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview");
    let first = render(&t, &o).unwrap();
    assert_eq!(validate_request(Provider::Gemini, &first.body), vec![]);
    assert_eq!(
        first.body["contents"][1]["parts"][1]["functionCall"]["id"],
        "k3v9d1qa"
    );
    let history = normalize(&t, &o.resolved_normalize_options().unwrap()).into_history();
    let written = to_pi_ai(&history);
    assert_eq!(written.diagnostics, vec![]);
    let call = &written.context["messages"][1]["content"][1];
    assert_eq!(call["turnwireProvenance"]["provider"], "gemini");
    let imported = from_pi_ai(&written.context, &ImportSource::default()).unwrap();
    let again = render(&imported.transcript, &o).unwrap();
    assert_eq!(again.body, first.body);
}
