//! Found by the property tests (the release fuzz over all ten providers): a thinking budget
//! Claude cannot take (below 1024) was refused with "Anthropic needs 1024 <= budgetTokens" for
//! every Bedrock Converse model, also Nova, Llama, Mistral and DeepSeek, which get no thinking
//! settings from turnwire at all (a `feature_unavailable` diagnostic says so). Claude's budget
//! limits hold through Converse for Claude models only (BDR-17).

use serde_json::json;
use turnwire::{render, validate_request_for_model, DiagnosticCode, ErrorCode, Provider};
use turnwire::{RenderOptions, ThinkingOptions, Transcript};

fn with_budget(model: &str, budget: u32) -> RenderOptions {
    let mut o = RenderOptions::new(Provider::BedrockConverse, model);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(budget),
        effort: None,
        summary: None,
    });
    o
}

#[test]
fn a_budget_claude_refuses_is_no_error_for_other_bedrock_families() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}
    ]))
    .unwrap();
    for model in [
        "us.amazon.nova-pro-v1:0",
        "us.meta.llama4-maverick-17b-instruct-v1:0",
        "mistral.mistral-large-2407-v1:0",
        "us.deepseek.r1-v1:0",
    ] {
        let out = render(&t, &with_budget(model, 0)).unwrap();
        let found = validate_request_for_model(Provider::BedrockConverse, model, &out.body);
        assert_eq!(found, vec![], "{model}");
        assert!(
            out.body.get("additionalModelRequestFields").is_none(),
            "{model}"
        );
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::FeatureUnavailable),
            "{model}: {:?}",
            out.diagnostics
        );
    }
    // Claude on Bedrock keeps Anthropic's limits.
    let claude = "us.anthropic.claude-sonnet-4-5-20250929-v1:0";
    let e = render(&t, &with_budget(claude, 0)).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidValue);
    assert_eq!(e.path(), "$.thinking.budgetTokens");
}
