//! Found by the agent-shaped benchmark after issue 31: every incremental render looked through
//! the whole history for a tool change (`Fallback::ToolChanges`), so a turn cost time in the
//! history's length (10,000 vs 2,000 messages: 2.77× for Anthropic). The prefix now never takes
//! in a tool change, and each render looks at the tail only. A tool change anywhere still makes
//! every render a full one, whether it came first, was appended or was edited into the prefix.

use serde_json::{json, Value};
use turnwire::{render_body, Conversation, RenderOptions, Transcript};

fn message(v: Value) -> turnwire::model::Message {
    Transcript::from_value(&json!([v]))
        .unwrap()
        .messages
        .remove(0)
}

fn turn(k: usize) -> [Value; 4] {
    let id = format!("call_{k}");
    [
        json!({"speaker": "human", "blocks": [{"type": "text", "text": format!("step {k}")}]}),
        json!({"speaker": "ai", "blocks": [{"type": "tool_call", "id": id, "name": "grep", "parameters": {"q": k}}]}),
        json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": id, "toolName": "grep", "result": "hit"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": format!("found {k}")}]}),
    ]
}

fn options() -> RenderOptions {
    RenderOptions::from_json(
        r#"{"provider":"openai-chat","model":"gpt-5.2","tools":[{"name":"grep","parameters":{"type":"object"}},{"name":"read_file","parameters":{"type":"object"}}]}"#,
    )
    .unwrap()
}

fn renders_as_stateless(c: &mut Conversation, o: &RenderOptions) {
    assert_eq!(
        c.render_body(o).unwrap(),
        render_body(c.transcript(), o).unwrap()
    );
}

#[test]
fn a_tool_change_in_the_first_messages_keeps_every_later_render_full() {
    let o = options();
    let mut c = Conversation::new();
    c.append(message(
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "go"}]}),
    ));
    c.append(message(json!({"speaker": "system", "blocks": [{"type": "tool_change", "change": "add", "name": "read_file"}]})));
    for k in 0..8 {
        for m in turn(k) {
            c.append(message(m));
            renders_as_stateless(&mut c, &o);
            let stats = c.last_render_stats();
            assert_eq!(stats.boundary, 0, "turn {k}: {stats:?}");
        }
    }
    assert!(!c.last_render_stats().incremental);
}

#[test]
fn a_tool_change_edited_into_the_prefix_makes_the_render_full() {
    let o = options();
    let mut c = Conversation::new();
    for k in 0..8 {
        for m in turn(k) {
            c.append(message(m));
            renders_as_stateless(&mut c, &o);
        }
    }
    assert!(
        c.last_render_stats().incremental,
        "{:?}",
        c.last_render_stats()
    );
    c.replace(
        1,
        message(json!({"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "call_0", "name": "grep", "parameters": {"q": 0}},
            {"type": "tool_change", "change": "add", "name": "read_file"}]})),
    )
    .unwrap();
    renders_as_stateless(&mut c, &o);
    for m in turn(9) {
        c.append(message(m));
        renders_as_stateless(&mut c, &o);
        let stats = c.last_render_stats();
        assert_eq!(stats.boundary, 0, "{stats:?}");
    }
}
