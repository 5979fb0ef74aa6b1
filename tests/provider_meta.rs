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
