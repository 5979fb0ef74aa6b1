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
