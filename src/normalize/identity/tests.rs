//! Unit tests of [`super`].

use super::*;
use crate::normalize::test_support::*;
use serde_json::json;

fn run(v: Value) -> (Vec<String>, Vec<String>) {
    let mut diags = Vec::new();
    let out = assign(msgs(v), &mut diags);
    (shape(&out), codes(&diags))
}

fn call_with(id: &str, arg: &str) -> Value {
    json!({"type": "tool_call", "id": id, "name": "ls", "parameters": {"path": arg}})
}

#[test]
fn same_turn_repeat_of_open_call_in_another_message_dropped() {
    let mut diags = Vec::new();
    let out = assign(
        msgs(json!([
            {"speaker": "human", "blocks": [text("go")]},
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c9")]}
        ])),
        &mut diags,
    );
    // the message holding only the repeat goes with it
    assert_eq!(
        shape(&out),
        ["human: text", "ai: call(c1)", "tool: result(c9)"]
    );
    assert_eq!(codes(&diags), ["duplicate_call_dropped"]);
    assert_eq!(diags[0].call_id.as_deref(), Some("c1"));
    assert_eq!(
        (diags[0].message_index, diags[0].block_index),
        (Some(2), Some(0))
    );
}

#[test]
fn identical_calls_without_ids_in_one_message_are_parallel_calls() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call(""), call("")]},
        {"speaker": "tool", "blocks": [result(""), result("")]}
    ]));
    assert_eq!(s, ["ai: call() call(~2)", "tool: result() result(~2)"]);
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn identical_call_repeated_with_its_id_in_one_message_is_a_glitch() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call("c1"), call("c1")]},
        {"speaker": "tool", "blocks": [result("c1")]}
    ]));
    assert_eq!(s, ["ai: call(c1)", "tool: result(c1)"]);
    assert_eq!(c, ["duplicate_call_dropped"]);
}

#[test]
fn same_turn_reuse_with_other_arguments_renamed() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call_with("c1", "a"), call_with("c1", "b")]},
        {"speaker": "tool", "blocks": [result("c1"), result("c1")]}
    ]));
    // parallel calls sharing an id are answered in order
    assert_eq!(
        s,
        ["ai: call(c1) call(c1~2)", "tool: result(c1) result(c1~2)"]
    );
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn repeat_of_an_answered_call_is_a_new_call() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call("c1")]},
        {"speaker": "tool", "blocks": [result("c1")]},
        {"speaker": "ai", "blocks": [call("c1")]},
        {"speaker": "tool", "blocks": [result("c1")]}
    ]));
    assert_eq!(
        s,
        [
            "ai: call(c1)",
            "tool: result(c1)",
            "ai: call(c1~2)",
            "tool: result(c1~2)"
        ]
    );
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn cross_turn_retry_renamed_and_answered_before_the_hung_call() {
    let mut diags = Vec::new();
    let out = assign(
        msgs(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "human", "blocks": [text("retry")]},
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]}
        ])),
        &mut diags,
    );
    // retry first, then the hung call; once both are answered, the latest (a duplicate)
    assert_eq!(
        shape(&out),
        [
            "ai: call(c1)",
            "human: text",
            "ai: call(c1~2)",
            "tool: result(c1~2)",
            "tool: result(c1)",
            "tool: result(c1~2)"
        ]
    );
    assert_eq!(codes(&diags), ["duplicate_call_id_renamed"]);
    assert_eq!(diags[0].call_id.as_deref(), Some("c1~2"));
}

#[test]
fn text_in_an_ai_message_starts_a_new_turn() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call("c1")]},
        {"speaker": "ai", "blocks": [text("trying again"), call("c1")]}
    ]));
    assert_eq!(s, ["ai: call(c1)", "ai: text call(c1~2)"]);
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn result_before_any_call_refers_to_the_first_later_one() {
    let (s, c) = run(json!([
        {"speaker": "tool", "blocks": [result("c1")]},
        {"speaker": "ai", "blocks": [call("c1")]},
        {"speaker": "human", "blocks": [text("again")]},
        {"speaker": "ai", "blocks": [call("c1")]}
    ]));
    assert_eq!(
        s,
        [
            "tool: result(c1)",
            "ai: call(c1)",
            "human: text",
            "ai: call(c1~2)"
        ]
    );
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn results_after_the_calls_are_paired_before_a_result_stored_earlier() {
    let (s, c) = run(json!([
        {"speaker": "tool", "blocks": [result("x")]},
        {"speaker": "ai", "blocks": [call_with("x", "a"), call_with("x", "b")]},
        {"speaker": "tool", "blocks": [result("x")]}
    ]));
    // the result stored after the calls answers the first; the early one the call left over
    assert_eq!(
        s,
        [
            "tool: result(x~2)",
            "ai: call(x) call(x~2)",
            "tool: result(x)"
        ]
    );
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}

#[test]
fn a_stray_early_result_never_replaces_a_calls_own_result() {
    let mut diags = Vec::new();
    let out = assign(
        msgs(json!([
            {"speaker": "tool", "blocks": [result("call_0")]},
            {"speaker": "human", "blocks": [text("now read b")]},
            {"speaker": "ai", "blocks": [call("call_0")]},
            {"speaker": "tool", "blocks": [result("call_0")]}
        ])),
        &mut diags,
    );
    assert!(out[0].items[0].detached, "the stray result answers nothing");
    assert!(!out[3].items[0].detached);
}

#[test]
fn renamed_id_never_collides_with_a_later_real_id() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call_with("x", "a"), call_with("x", "b")]},
        {"speaker": "tool", "blocks": [result("x"), result("x")]},
        {"speaker": "human", "blocks": [text("more")]},
        {"speaker": "ai", "blocks": [call("x~2")]},
        {"speaker": "tool", "blocks": [result("x~2")]}
    ]));
    // earlier ids never change as the conversation grows: the later real `x~2` moves aside
    assert_eq!(
        s,
        [
            "ai: call(x) call(x~2)",
            "tool: result(x) result(x~2)",
            "human: text",
            "ai: call(x~2~2)",
            "tool: result(x~2~2)"
        ]
    );
    assert_eq!(
        c,
        ["duplicate_call_id_renamed", "duplicate_call_id_renamed"]
    );
}

#[test]
fn early_result_of_a_later_real_id_is_not_taken_by_a_renamed_call() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call_with("x", "a"), call_with("x", "b")]},
        {"speaker": "tool", "blocks": [result("x"), result("x"), result("x~2")]},
        {"speaker": "ai", "blocks": [call("x~2")]}
    ]));
    // the last result answers the real `x~2` stored after it, not the renamed second `x`
    assert_eq!(
        s,
        [
            "ai: call(x) call(x~2)",
            "tool: result(x) result(x~2) result(x~2~2)",
            "ai: call(x~2~2)"
        ]
    );
    assert_eq!(
        c,
        ["duplicate_call_id_renamed", "duplicate_call_id_renamed"]
    );
}

#[test]
fn rename_skips_ids_already_taken() {
    let (s, c) = run(json!([
        {"speaker": "ai", "blocks": [call_with("x~2", "a"), call_with("x", "a"), call_with("x", "b")]},
        {"speaker": "tool", "blocks": [result("x"), result("x"), result("x~2")]}
    ]));
    assert_eq!(
        s,
        [
            "ai: call(x~2) call(x) call(x~3)",
            "tool: result(x) result(x~3) result(x~2)"
        ]
    );
    assert_eq!(c, ["duplicate_call_id_renamed"]);
}
