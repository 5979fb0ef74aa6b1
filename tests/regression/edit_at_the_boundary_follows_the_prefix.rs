//! Found by the edit property test (`tests/incremental.rs`): an assistant message spliced in at
//! a conversation's cached boundary (right after the prefix's last answer) was rendered as a
//! wire message of its own, where the full render merges it into the answer before it (two
//! Gemini `model` contents in a row). A boundary needs its pair — an answer before a user
//! turn, or results before a tool loop's next step — and the pair is now checked on every
//! render, since an edit can change the message after the boundary.

use serde_json::json;
use turnwire::{render_body, Conversation, Provider, RenderOptions};

#[test]
fn an_assistant_message_spliced_at_the_boundary_merges_like_the_full_render() {
    let mut c = Conversation::new();
    for m in [
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "hello"}]}),
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "list files"}]}),
    ] {
        c.append_value(&m).unwrap();
    }
    let o = RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview");
    c.render_body(&o).unwrap();
    assert_eq!(
        c.last_render_stats().boundary,
        2,
        "the cache ends after the answer"
    );
    let aside = json!({"speaker": "ai", "blocks": [{"type": "text", "text": "one more thing"}]});
    c.splice_values(2, 0, vec![aside]).unwrap();
    let body = c.render_body(&o).unwrap();
    assert_eq!(body, render_body(c.transcript(), &o).unwrap());
    let text = String::from_utf8(body).unwrap();
    assert_eq!(text.matches("\"role\":\"model\"").count(), 1, "{text}");
}
