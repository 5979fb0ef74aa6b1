//! Found in review: a replayed reasoning item carried its `rs_` id while the assistant message
//! after it had no `msg_` id, a shape OpenAI rejects (ORS-03) and one that `store: false`
//! cannot resolve (ORS-05). Stateless replay sends the encrypted content without item ids, as
//! OpenAI's own Codex client does.

use serde_json::json;
use turnwire::{render, validate_request, Provider, RenderOptions, Transcript};

#[test]
fn reasoning_is_replayed_by_encrypted_content_only() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "api": "responses", "model": "gpt-5.2"}, "blocks": [
            {"type": "thinking", "thought": "plan", "reasoningId": "rs_1", "encryptedContent": "gAAAA1"},
            {"type": "text", "text": "answer"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "more"}]}
    ]))
    .unwrap();
    let out = render(
        &t,
        &RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2"),
    )
    .unwrap();
    let item = &out.body["input"][1];
    assert_eq!(item["type"], "reasoning");
    assert!(item.get("id").is_none());
    assert_eq!(item["encrypted_content"], "gAAAA1");
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
}
