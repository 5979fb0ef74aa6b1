//! Editing a `Conversation` (`at`, `truncate`, `replace`, `splice`) and querying its tool calls
//! (`tool_calls`, `open_calls`): edits keep renders exact and cheap near the end, read repairs
//! follow their messages, and every call's status follows REQ-915-048.
//! (`tests/incremental.rs` has the property test: edit-then-render equals a full render.)
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::model::ToolStatus;
use turnwire::{render_body, Conversation, Provider, RenderOptions};

fn human(text: &str) -> Value {
    json!({"speaker": "human", "blocks": [{"type": "text", "text": text}]})
}

fn answer(text: &str) -> Value {
    json!({"speaker": "ai", "blocks": [{"type": "text", "text": text}]})
}

/// A long session of finished turns, each a tool loop: user, call, result, answer.
fn session(turns: usize) -> Conversation {
    let mut c = Conversation::new();
    for t in 0..turns {
        c.append_value(&human(&format!("task {t}"))).unwrap();
        c.append_value(&json!({"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": format!("call_{t}"), "name": "read_file", "parameters": {"path": format!("f{t}")}}]}))
            .unwrap();
        c.append_value(&json!({"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": format!("call_{t}"), "toolName": "read_file", "result": format!("contents {t}")}]}))
            .unwrap();
        c.append_value(&answer(&format!("done {t}"))).unwrap();
    }
    c
}

fn assert_full(c: &mut Conversation, o: &RenderOptions, what: &str) {
    let got = c.render_body(o).unwrap();
    let want = render_body(c.transcript(), o).unwrap();
    assert!(got == want, "{what}: {}", o.provider);
}

#[test]
fn an_edit_near_the_end_costs_what_an_append_costs() {
    for provider in Provider::ALL {
        let o = RenderOptions::new(provider, provider.reference_model());
        let mut c = session(100);
        c.append_value(&human("next")).unwrap();
        assert_full(&mut c, &o, "first render");
        c.append_value(&answer("sure")).unwrap();
        assert_full(&mut c, &o, "append");
        let append = c.last_render_stats().clone();
        assert!(append.incremental, "{provider}: {append:?}");
        let last_user = c.len() - 2;

        // edit the last user message and regenerate: replace it, drop the answer
        c.replace_value(last_user, human("next, but shorter"))
            .unwrap();
        c.truncate(last_user + 1);
        assert_full(&mut c, &o, "replace + truncate");
        let edit = c.last_render_stats().clone();
        assert!(edit.incremental, "{provider}: {edit:?}");
        assert!(
            edit.messages_rendered <= append.messages_rendered + 1,
            "{provider}: edit {edit:?} vs append {append:?}"
        );

        // splice a correction in before the last message
        c.splice_values(last_user, 0, vec![human("(context)"), answer("noted")])
            .unwrap();
        assert_full(&mut c, &o, "splice");
        assert!(c.last_render_stats().incremental, "{provider}");
    }
}

#[test]
fn an_edit_before_the_boundary_renders_exactly_and_the_cache_recovers() {
    let o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    let mut c = session(20);
    c.append_value(&human("next")).unwrap();
    assert_full(&mut c, &o, "first render");
    c.replace_value(1, json!({"speaker": "ai", "blocks": [
        {"type": "tool_call", "id": "call_0", "name": "read_file", "parameters": {"path": "other"}}]}))
        .unwrap();
    assert_full(&mut c, &o, "replace an early message");
    assert!(!c.last_render_stats().incremental);
    c.append_value(&answer("ok")).unwrap();
    c.append_value(&human("again")).unwrap();
    assert_full(&mut c, &o, "append after the edit");
    assert!(
        c.last_render_stats().incremental,
        "the boundary moved up again"
    );
    c.truncate(0);
    assert!(c.is_empty());
    assert_eq!(
        c.render_body(&o).unwrap_err().code().as_str(),
        "empty_transcript"
    );
}

#[test]
fn read_repairs_follow_their_messages_through_edits() {
    let mut c = Conversation::new();
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"a"}]}"#)
        .unwrap();
    c.append_json(r#"{"speaker":"ai","blocks":[{"type":"text","text":"b"}]}"#)
        .unwrap();
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"cut \ud83d"}]}"#)
        .unwrap();
    let paths = |c: &Conversation| -> Vec<String> {
        c.transcript()
            .read_repairs
            .iter()
            .filter_map(|d| d.path.clone())
            .collect()
    };
    assert_eq!(paths(&c), ["$[2].blocks[0].text"]);
    c.splice_values(0, 1, vec![]).unwrap();
    assert_eq!(paths(&c), ["$[1].blocks[0].text"]);
    assert_eq!(c.transcript().read_repairs[0].message_index, Some(1));
    c.splice_values(0, 0, vec![human("x"), answer("y")])
        .unwrap();
    assert_eq!(paths(&c), ["$[3].blocks[0].text"]);
    c.replace_value(3, human("whole")).unwrap();
    assert!(paths(&c).is_empty(), "the repaired message is gone");
}

#[test]
fn an_index_past_the_end_is_out_of_range_and_changes_nothing() {
    let mut c = session(1);
    let before = c.transcript().clone();
    let e = c.replace_value(4, human("x")).unwrap_err();
    assert_eq!(e.code().as_str(), "out_of_range");
    assert_eq!(e.path(), "$[4]");
    let e = c
        .replace_value(0, json!({"speaker": "robot", "blocks": []}))
        .unwrap_err();
    assert_eq!(
        (e.code().as_str(), e.path()),
        ("invalid_value", "$[0].speaker")
    );
    let e = c
        .splice_values(1, 0, vec![human("ok"), json!({"speaker": "human"})])
        .unwrap_err();
    assert_eq!(e.path(), "$[2].blocks");
    assert_eq!(c.transcript(), &before);
    assert!(c.at(4).is_none());
    assert!(c.truncate(10).is_empty());
    assert_eq!(c.splice(9, 9, vec![]).len(), 0);
}

fn response(call: &str, fields: Value) -> Value {
    let mut r = json!({"type": "tool_response", "callId": call, "toolName": "t"});
    for (k, v) in fields.as_object().unwrap() {
        r[k] = v.clone();
    }
    r
}

#[test]
fn req_915_048_tool_call_status_follows_the_precedence() {
    let calls = ["err", "flag", "res", "pend", "none", "dup"];
    let mut c = Conversation::new();
    c.append_value(&human("go")).unwrap();
    c.append_value(&json!({"speaker": "ai", "blocks": calls.iter()
        .map(|id| json!({"type": "tool_call", "id": id, "name": "t", "parameters": {}}))
        .collect::<Vec<_>>()}))
        .unwrap();
    c.append_value(&json!({"speaker": "tool", "blocks": [
        // (1) error present wins over a result and isComplete
        response("err", json!({"error": "boom", "result": "partial", "isComplete": true})),
        // (2) isComplete without a result
        response("flag", json!({"isComplete": true})),
        // (3) a non-null result
        response("res", json!({"result": {"ok": 1}})),
        // (4) neither: pending
        response("pend", json!({"result": null})),
        // duplicates: a pending one first, a completed one later; the completed one decides
        response("dup", json!({"isComplete": false})),
        response("dup", json!({"result": "late"})),
    ]}))
    .unwrap();
    let states = c.tool_calls();
    let status: Vec<(&str, ToolStatus)> =
        states.iter().map(|s| (s.id.as_str(), s.status)).collect();
    assert_eq!(
        status,
        [
            ("err", ToolStatus::Errored),
            ("flag", ToolStatus::Complete),
            ("res", ToolStatus::Complete),
            ("pend", ToolStatus::Pending),
            ("none", ToolStatus::Pending),
            ("dup", ToolStatus::Complete),
        ]
    );
    let dup = &states[5];
    assert_eq!(dup.responses, 2);
    let at = dup.result.unwrap();
    assert_eq!((at.message_index, at.block_index), (2, 5));
    assert!(states[4].result.is_none() && states[4].responses == 0);
    let open: Vec<String> = c.open_calls().into_iter().map(|s| s.id).collect();
    assert_eq!(open, ["pend", "none"]);
}

#[test]
fn req_915_046_tool_call_state_is_reconstructed_from_the_history() {
    let grown = session(3);
    let loaded = Conversation::from_transcript(grown.transcript().clone());
    assert_eq!(grown.tool_calls(), loaded.tool_calls());
    assert_eq!(loaded.tool_calls().len(), 3);
    assert!(loaded.open_calls().is_empty());
    let serialised = serde_json::to_value(loaded.tool_calls()).unwrap();
    assert_eq!(
        serialised[0],
        json!({"id": "call_0", "name": "read_file", "messageIndex": 1, "blockIndex": 0,
               "status": "complete", "result": {"messageIndex": 2, "blockIndex": 0}, "responses": 1})
    );
}
