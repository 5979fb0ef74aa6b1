//! Issue 31, "continuity tokens under providerMeta / meta": a token held in a block's nested
//! `providerMeta` or `meta` object (the ordered-transcripts spec's `ProviderMeta`, as Rust
//! agents store it, or turnwire's own serde form) is read where its meaning is clear and
//! replayed like a flat one; any token left unread is reported (`continuity_dropped`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{render, Provider, RenderOptions, Transcript};

const GEMINI: &str = "gemini-3-pro-preview";

fn gemini_history(meta_key: &str, meta: Value) -> Value {
    let mut call = json!({"type": "tool_call", "id": "c1", "name": "ls", "parameters": {},
        "provenance": {"provider": "gemini", "model": GEMINI}});
    call[meta_key] = meta;
    json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
        {"speaker": "ai", "blocks": [call]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
    ])
}

fn sent_signature(history: &Value) -> (Value, Vec<String>) {
    let t = Transcript::from_value(history).unwrap();
    let r = render(&t, &RenderOptions::new(Provider::Gemini, GEMINI)).unwrap();
    let sig = r.body["contents"][1]["parts"][0]["thoughtSignature"].clone();
    (
        sig,
        r.diagnostics
            .iter()
            .map(|d| d.code.as_str().to_string())
            .collect(),
    )
}

#[test]
fn provider_meta_a_same_model_gemini_signature_is_replayed_from_any_nested_shape() {
    for (key, meta) in [
        (
            "providerMeta",
            json!({"provider": "gemini", "thoughtSignature": "c2lnLTE="}),
        ),
        (
            "meta",
            json!({"provider": "gemini", "thoughtSignature": "c2lnLTE="}),
        ),
        (
            "meta",
            json!({"kind": "gemini_thought_signature", "thought_signature": "c2lnLTE="}),
        ),
    ] {
        let (sig, codes) = sent_signature(&gemini_history(key, meta.clone()));
        assert_eq!(sig, "c2lnLTE=", "{key}: {meta}");
        assert!(
            !codes.iter().any(|c| c == "continuity_synthesized"),
            "{codes:?}"
        );
    }
}

#[test]
fn provider_meta_a_token_left_unread_is_reported() {
    let (sig, codes) = sent_signature(&gemini_history(
        "providerMeta",
        json!({"provider": "vertex-proxy", "token": "abc"}),
    ));
    assert_eq!(sig, "skip_thought_signature_validator");
    assert!(codes.iter().any(|c| c == "continuity_dropped"), "{codes:?}");
}

#[test]
fn provider_meta_same_model_encrypted_reasoning_is_replayed() {
    let history = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "plan"}]},
        {"speaker": "ai", "blocks": [
            {"type": "thinking", "thought": "", "provenance": {"provider": "openai-responses", "model": "gpt-5.2"},
             "meta": {"provider": "open_ai", "id": "rs_1", "encrypted_content": "gAAAA"}},
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
    ]);
    let t = Transcript::from_value(&history).unwrap();
    let r = render(
        &t,
        &RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2"),
    )
    .unwrap();
    let reasoning: Vec<&Value> = r.body["input"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["type"] == "reasoning")
        .collect();
    assert_eq!(reasoning.len(), 1, "{:#}", r.body);
    assert_eq!(reasoning[0]["encrypted_content"], "gAAAA");
}

/// Issue 31, "foreign signature bytes" (ANT-51): a thinking block whose provenance says
/// Anthropic but whose signature is DeepSeek's (a UUID, from its /anthropic endpoint, relabelled
/// by a gateway) is not replayed to Anthropic when no endpoint is given; it is to DeepSeek's
/// Anthropic-compatible endpoint, which wants it back.
#[test]
fn ant_51_a_foreign_signature_is_not_replayed_to_anthropic() {
    let history = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
            {"type": "thinking", "thought": "listing", "signature": "91cfbb94-554b-4136-8e21-fa02280d56ed"},
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
    ]);
    let t = Transcript::from_value(&history).unwrap();
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.max_tokens = Some(4000);
    o.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    let r = render(&t, &o).unwrap();
    let sent = r.body.to_string();
    assert!(!sent.contains("91cfbb94"), "{sent}");
    assert!(turnwire::validate_request(Provider::Anthropic, &r.body).is_empty());
    o.endpoint = Some("https://api.deepseek.com/anthropic".into());
    let r = render(&t, &o).unwrap();
    assert!(r.body.to_string().contains("91cfbb94"));
    let mut planted = r.body.clone();
    planted["messages"][1]["content"][0]["signature"] =
        json!("91cfbb94-554b-4136-8e21-fa02280d56ed");
    let rules: Vec<&str> = turnwire::validate_request(Provider::Anthropic, &planted)
        .iter()
        .map(|v| v.rule)
        .collect();
    assert!(rules.contains(&"ANT-51"), "{rules:?}");
}
