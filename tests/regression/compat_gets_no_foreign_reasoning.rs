//! Found in review: `openai-compatible` and Azure were folded into the `openai` family, so GPT's
//! reasoning went to a Qwen server as `reasoning`. A generic server takes reasoning only from
//! the same model; Azure is an account of its own.

use serde_json::json;
use turnwire::{render, CompatOptions, Provider, RenderOptions, Transcript};

#[test]
fn gpt_reasoning_is_not_sent_to_another_model() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "api": "responses", "model": "gpt-5.2"}, "blocks": [
            {"type": "thinking", "thought": "secret plan", "reasoningId": "rs_1", "encryptedContent": "gAAA"},
            {"type": "text", "text": "hi"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and?"}]}
    ]))
    .unwrap();
    let mut o = RenderOptions::new(Provider::OpenAiCompatible, "qwen3-235b");
    o.compat = Some(CompatOptions {
        reasoning_field: Some("reasoning".into()),
        ..CompatOptions::default()
    });
    let out = render(&t, &o).unwrap();
    assert!(!out.body.to_string().contains("secret plan"));
    assert_eq!(
        turnwire::model::provider_family("azure-openai"),
        "azure-openai"
    );
    assert_eq!(
        turnwire::model::provider_family("openai-compatible"),
        "openai-compatible"
    );
}
