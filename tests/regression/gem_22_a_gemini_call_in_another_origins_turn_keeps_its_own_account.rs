//! Found by the release fuzz (1,000,000 histories) after the account key (ORS-20): a Gemini call
//! kept its own provenance inside an assistant message of another origin (OpenAI Responses,
//! account `acme-a`). `toAiSdk` wrote the call's provenance filled in from the message, so it
//! came back with the message's account and its Gemini signature was judged by an account it
//! was never minted under: the round trip rendered differently. A block that names another
//! provider family than its message takes nothing but the provider from it.

use serde_json::json;
use turnwire::export::to_ai_sdk;
use turnwire::import::{from_ai_sdk, ImportSource};
use turnwire::{normalize, render_body, Provider, RenderOptions, Transcript};

#[test]
fn a_gemini_call_in_another_origins_turn_keeps_its_own_account() {
    let gemini = json!({"provider": "gemini", "model": "gemini-3-pro-preview"});
    let input = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "look"}]},
        {"speaker": "ai", "metadata": {"provider": "openai-responses", "model": "gpt-5.2", "account": "acme-a"},
         "blocks": [
            {"type": "tool_call", "id": "c1", "name": "read_file", "parameters": {"p": "a"}},
            {"type": "tool_call", "id": "c2", "name": "read_file", "parameters": {"p": "b"},
             "provenance": gemini, "providerMeta": {"type": "gemini_thought_signature", "thoughtSignature": "Q0FMTA=="}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "c1", "toolName": "read_file", "result": "A"},
            {"type": "tool_response", "callId": "c2", "toolName": "read_file", "result": "B"}]},
    ]);
    let t = Transcript::from_json(&input.to_string()).unwrap();
    let o = RenderOptions::from_json(
        r#"{"provider": "gemini", "model": "gemini-3-pro-preview", "account": "acme-b"}"#,
    )
    .unwrap();
    let sent = render_body(&t, &o).unwrap();
    let history = normalize(&t, &o.resolved_normalize_options().unwrap()).into_history();
    let ai = to_ai_sdk(&history);
    let source = ImportSource {
        model: Some(o.model.clone()),
        endpoint: None,
        host: None,
        account: None,
    };
    let back = from_ai_sdk(
        &serde_json::Value::Array(ai.messages),
        Some(Provider::Gemini),
        &source,
    )
    .unwrap();
    let again = render_body(&back.transcript, &o).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&again),
        String::from_utf8_lossy(&sent)
    );
    // the call's signature was minted under no known account: it is replayed
    assert!(String::from_utf8_lossy(&sent).contains("Q0FMTA=="));
}
