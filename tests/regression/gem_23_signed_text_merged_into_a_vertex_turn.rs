//! Found by the release fuzz (properties.rs, gemini, after ~20,000 histories): an AI Studio
//! Gemini turn ending on a signature-only text part, brought next to a Vertex AI Gemini turn by
//! results placement and merged into it. The render judged the signature by its own piece
//! (AI Studio's: replayed to AI Studio), but the merged turn labelled the part with the Vertex
//! turn's provenance, so the history written as a pi-ai context and read back dropped it
//! (GEM-23: Vertex AI's signatures are not AI Studio's) and rendered other bytes. A signed text
//! part merged into a turn of another origin now keeps its own provenance, as a call does, and
//! the pi-ai context carries it on the part.

use serde_json::json;
use turnwire::export::to_pi_ai;
use turnwire::import::{from_pi_ai, ImportSource};
use turnwire::{normalize, render_body, RenderOptions, Transcript};

#[test]
fn a_signed_text_part_keeps_its_origin_through_a_merge_and_pi_ai() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "user says tok1_"}]},
        {"speaker": "ai", "metadata": {"provider": "openai-responses", "model": "gpt-5.2", "account": "acme-a"},
         "blocks": [{"type": "text", "text": "assistant says tok3_"},
                    {"type": "tool_call", "id": "call_tok2_x", "name": "grep", "parameters": {"input": "tok2_"}}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "user says tok5_"}]},
        {"speaker": "ai", "metadata": {"provider": "google-vertex", "model": "gemini-3-pro-preview"},
         "blocks": [{"type": "thinking", "thought": "think tok6_", "thoughtSignature": "Q2lR"}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_tok2_x", "toolName": "grep", "result": "result tok4_"}]},
        {"speaker": "ai", "metadata": {"provider": "gemini", "model": "gemini-3-pro-preview"},
         "blocks": [{"type": "thinking", "thought": "think tok7_", "thoughtSignature": "Q2lR"},
                    {"type": "text", "text": "assistant says tok8_"},
                    {"type": "text", "text": "", "thoughtSignature": "U0lHVA=="}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "user says tok9_"}]}
    ]))
    .unwrap();
    let o = RenderOptions::from_json(
        r#"{"provider": "gemini", "model": "gemini-3-pro-preview", "foreignThinking": "text", "orphanResults": "text"}"#,
    )
    .unwrap();
    let sent = render_body(&t, &o).unwrap();
    assert!(String::from_utf8_lossy(&sent).contains(r#""thoughtSignature":"U0lHVA==""#));
    let history = normalize(&t, &o.resolved_normalize_options().unwrap()).into_history();
    let pi = to_pi_ai(&history);
    let source = ImportSource {
        model: None,
        endpoint: None,
        host: None,
        account: None,
    };
    let back = from_pi_ai(&pi.context, &source).unwrap();
    let again = render_body(&back.transcript, &o).unwrap();
    assert_eq!(
        String::from_utf8_lossy(&again),
        String::from_utf8_lossy(&sent)
    );
}
