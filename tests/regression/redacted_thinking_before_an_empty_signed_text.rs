//! Found by the model property test: redacted thinking stored under the human speaker, then an
//! assistant message whose only block is an empty text carrying an empty thought signature,
//! rendered for Anthropic with thinking on, ended the assistant message on its thinking
//! (ANT-16): the empty text outlived the pass that trims a turn ending in thinking, and was
//! dropped only later with its signature. An empty signature is now no signature, and the trim
//! runs again after the thinking policy.

use serde_json::json;
use turnwire::{
    render, validate_request, ErrorCode, Provider, RenderOptions, ThinkingOptions, Transcript,
};

#[test]
fn a_turn_left_with_only_thinking_is_not_sent_ending_in_thinking() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "thinking", "redactedData": "c1"}],
         "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "", "thoughtSignature": ""}], "metadata": null}
    ]))
    .unwrap();
    // and with a real signature, which Anthropic does not take: the text goes with it
    let signed = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "thinking", "redactedData": "c1"}],
         "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "", "thoughtSignature": "c2ln"}], "metadata": null}
    ]))
    .unwrap();
    for (t, p) in Provider::ALL
        .into_iter()
        .flat_map(|p| [(&t, p), (&signed, p)])
    {
        let mut o = RenderOptions::new(p, p.reference_model());
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: None,
            effort: None,
            summary: None,
        });
        // Nothing but an aborted turn's thinking: nothing to send is the honest answer.
        match render(t, &o) {
            Ok(out) => assert_eq!(
                validate_request(p, &out.body),
                vec![],
                "{p}: {:#}",
                out.body
            ),
            Err(e) => assert_eq!(e.code(), ErrorCode::EmptyTranscript, "{p}: {e}"),
        }
    }
}
