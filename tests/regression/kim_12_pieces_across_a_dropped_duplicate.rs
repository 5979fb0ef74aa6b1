//! Found by the incremental property test after KIM-12's piece merge: a thinking-only assistant
//! message, a duplicate result (dropped), answers, then a message with calls. The full render
//! merged the thinking-only message with the later pieces across the dropped duplicate, while
//! the incremental renderer had already closed its prefix at the duplicate (a tool loop's next
//! step) with the thinking-only message trimmed as aborted. Pieces merge before results are
//! placed only when they stand next to each other in the input.

use serde_json::json;
use turnwire::{render, Conversation, Provider, RenderOptions};

#[test]
fn pieces_merge_only_with_input_neighbours_before_results_are_placed() {
    let input = [
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "grep first"},
            {"type": "tool_call", "id": "hist_1", "name": "fs_grep", "parameters": {}}]}),
        json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "hist_1", "result": "a"}]}),
        json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"},
            "blocks": [{"type": "thinking", "thought": "think", "signature": "c2ln"}]}),
        json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "hist_1", "result": "a"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "answer one"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "answer two"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "now the next"},
            {"type": "tool_call", "id": "hist_2", "name": "fs_grep", "parameters": {}}]}),
    ];
    let o = RenderOptions::new(Provider::Kimi, "kimi-k2-thinking");
    let mut convo = Conversation::new();
    for msg in &input {
        convo.append_value(msg).unwrap();
        assert_eq!(
            convo.render(&o).unwrap(),
            render(convo.transcript(), &o).unwrap()
        );
    }
}
