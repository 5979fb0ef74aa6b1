//! Issue 31, "continuity keys": a Claude thinking block is replayed to the model that wrote it
//! or to a newer Claude model (from Opus 4.8 on: newer reads older, one way), never to an older
//! one; and never across accounts or endpoints the caller names (`account`, `endpoint`).
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{render, Provider, RenderOptions, ThinkingOptions, Transcript};

fn history(model: &str, account: Option<&str>) -> Transcript {
    let mut metadata = json!({"provider": "anthropic", "model": model});
    if let Some(a) = account {
        metadata["account"] = json!(a);
    }
    signed_turn(metadata)
}

/// A tool loop whose assistant turn, of `metadata`, carries a signed thinking block.
fn signed_turn(metadata: Value) -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
        {"speaker": "ai", "metadata": metadata, "blocks": [
            {"type": "thinking", "thought": "listing", "signature": "EqQBCkYIBxgCKkB1bmtub3du"},
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
    ]))
    .unwrap()
}

fn replayed(t: &Transcript, model: &str, account: Option<&str>) -> bool {
    let mut o = RenderOptions::new(Provider::Anthropic, model);
    o.max_tokens = Some(8000);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    o.account = account.map(str::to_string);
    let r = render(t, &o).unwrap();
    let body: &Value = &r.body;
    body.to_string().contains("EqQBCkYIBxgCKkB1bmtub3du")
}

#[test]
fn continuity_keys_newer_claude_reads_older_one_way() {
    assert!(replayed(
        &history("claude-opus-4-7", None),
        "claude-opus-4-8",
        None
    ));
    assert!(replayed(
        &history("claude-opus-5", None),
        "claude-fable-5-1",
        None
    ));
    assert!(!replayed(
        &history("claude-fable-5-1", None),
        "claude-opus-5",
        None
    ));
    // before the 2026 models the exact model is kept to
    assert!(!replayed(
        &history("claude-opus-4-1", None),
        "claude-sonnet-4-5",
        None
    ));
    assert!(replayed(
        &history("claude-sonnet-4-5", None),
        "claude-sonnet-4-5",
        None
    ));
}

#[test]
fn continuity_keys_a_token_stays_with_its_account() {
    let t = history("claude-opus-4-8", Some("acme-prod"));
    assert!(replayed(&t, "claude-opus-4-8", Some("acme-prod")));
    assert!(!replayed(&t, "claude-opus-4-8", Some("acme-staging")));
    // unknown on either side: the provenance alone decides, as before
    assert!(replayed(&t, "claude-opus-4-8", None));
    assert!(!replayed(
        &history("claude-opus-4-7", Some("a")),
        "claude-opus-4-8",
        Some("b")
    ));
}

// Issue 32: the host is part of the key (the host table, `turnwire::hosts`). A provenance
// names its host (`host`), or its endpoint's URL does; a render goes to its `host` option,
// else the host its `endpoint` names, else its provider's own. Unknown on the artifact's side,
// today's rule holds.

/// A Claude thinking block served by `host` (or with no host known).
fn claude_on(host: Option<&str>, model: &str) -> Transcript {
    let mut metadata = json!({"provider": "anthropic", "model": model});
    if let Some(h) = host {
        metadata["host"] = json!(h);
    }
    signed_turn(metadata)
}

fn claude_replayed_to(t: &Transcript, model: &str, host: Option<&str>) -> bool {
    let mut o = RenderOptions::new(Provider::Anthropic, model);
    o.max_tokens = Some(8000);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    o.host = host.map(|h| h.parse().unwrap());
    let r = render(t, &o).unwrap();
    r.body.to_string().contains("EqQBCkYIBxgCKkB1bmtub3du")
}

#[test]
fn continuity_keys_host_anthropic_compatible_signatures_stay_on_their_host() {
    for host in ["kimi", "deepseek", "zai"] {
        let t = claude_on(Some(host), "their-model");
        assert!(
            !claude_replayed_to(&t, "their-model", None),
            "{host} → anthropic: converted"
        );
        assert!(
            claude_replayed_to(&t, "their-model", Some(host)),
            "{host} → {host}: kept"
        );
        // a first-party signature is not sent to the third party either
        let first = claude_on(Some("anthropic"), "their-model");
        assert!(
            !claude_replayed_to(&first, "their-model", Some(host)),
            "anthropic → {host}"
        );
        // nor to another Anthropic-compatible host
        let other = if host == "kimi" { "zai" } else { "kimi" };
        assert!(
            !claude_replayed_to(&t, "their-model", Some(other)),
            "{host} → {other}"
        );
    }
}

#[test]
fn continuity_keys_host_bedrock_and_vertex_claude_are_their_own_family() {
    let m = "claude-sonnet-4-5";
    for host in ["bedrock", "vertex", "bedrock-mantle", "foundry"] {
        let t = claude_on(Some(host), m);
        assert!(
            !claude_replayed_to(&t, m, None),
            "{host} → anthropic: converted"
        );
        assert!(
            !claude_replayed_to(&t, m, Some("anthropic")),
            "{host} → anthropic"
        );
        assert!(
            claude_replayed_to(&t, m, Some(host)),
            "{host} → {host}: kept"
        );
        let first = claude_on(Some("anthropic"), m);
        assert!(
            !claude_replayed_to(&first, m, Some(host)),
            "anthropic → {host}"
        );
    }
    // the host from the endpoint's URL when the provenance names none
    let t = signed_turn(json!({"provider": "anthropic", "model": m,
        "providerBaseURL": "https://bedrock-runtime.us-east-1.amazonaws.com"}));
    assert!(!claude_replayed_to(&t, m, None));
}

#[test]
fn continuity_keys_host_unknown_on_the_artifact_keeps_todays_rule() {
    let t = claude_on(None, "claude-sonnet-4-5");
    assert!(claude_replayed_to(&t, "claude-sonnet-4-5", None));
    assert!(claude_replayed_to(&t, "claude-sonnet-4-5", Some("bedrock")));
}

#[test]
fn continuity_keys_host_vertex_gemini_signature_is_not_sent_to_ai_studio() {
    let t = |host: &str| {
        Transcript::from_value(&json!([
            {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
            {"speaker": "ai", "metadata": {"provider": "gemini", "model": "gemini-3-pro-preview", "host": host}, "blocks": [
                {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}, "thoughtSignature": "c2lnLXZlcnRleA=="}]},
            {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
        ]))
        .unwrap()
    };
    let sent = |t: &Transcript, host: Option<&str>| {
        let mut o = RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview");
        o.host = host.map(|h| h.parse().unwrap());
        render(t, &o)
            .unwrap()
            .body
            .to_string()
            .contains("c2lnLXZlcnRleA==")
    };
    assert!(!sent(&t("vertex"), None), "Vertex → AI Studio: dropped");
    assert!(sent(&t("vertex"), Some("vertex")), "Vertex → Vertex: kept");
    assert!(
        !sent(&t("google"), Some("vertex")),
        "AI Studio → Vertex: dropped"
    );
    assert!(sent(&t("google"), None));
}

#[test]
fn continuity_keys_host_azure_reasoning_is_not_sent_to_openai() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list"}]},
        {"speaker": "ai", "metadata": {"provider": "openai-responses", "model": "gpt-5.2", "host": "azure"}, "blocks": [
            {"type": "thinking", "thought": "look", "reasoningId": "rs_1", "encryptedContent": "gAAAAzure"},
            {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "ls", "result": "a.txt"}]}
    ]))
    .unwrap();
    let sent = |host: Option<&str>| {
        let mut o = RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2");
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: None,
            effort: None,
            summary: None,
        });
        o.host = host.map(|h| h.parse().unwrap());
        render(&t, &o)
            .unwrap()
            .body
            .to_string()
            .contains("gAAAAzure")
    };
    assert!(!sent(None), "azure → openai: converted");
    assert!(sent(Some("azure")), "azure → azure: kept");
    assert!(!sent(Some("foundry")), "azure → foundry: converted");
}
