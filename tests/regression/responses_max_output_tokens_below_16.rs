//! Found by the thinking-limits property generator (issue 10, point 7): `maxTokens: 1` went to
//! OpenAI Responses as `max_output_tokens: 1`, which it refuses ("integer below minimum value.
//! Expected a value >= 16, but got 1 instead."). It is raised to 16, with a diagnostic.

use serde_json::json;
use turnwire::{render, validate_request, DiagnosticCode, Provider, RenderOptions, Transcript};

#[test]
fn responses_max_output_tokens_is_at_least_16() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "one word"}]}
    ]))
    .unwrap();
    for asked in [1, 15, 16, 17] {
        let mut o = RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2");
        o.max_tokens = Some(asked);
        let out = render(&t, &o).unwrap();
        assert_eq!(
            validate_request(Provider::OpenAiResponses, &out.body),
            vec![]
        );
        assert_eq!(out.body["max_output_tokens"], asked.max(16));
        let noted = out
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::MaxTokensChosen);
        assert_eq!(noted, asked < 16, "{asked}");
    }
}
