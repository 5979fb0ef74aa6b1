//! Issue 31, Anthropic thinking bound to its conversation (ANT-52): on the models that bind a
//! signed thinking block to everything before it, the render sends
//! `thinking.block_binding.prefix_mismatch_behavior: "drop_block"` with the
//! `thinking-binding-controls-2026-08-01` beta, the strict validator knows the field's rules,
//! and a repair that reaches back before a kept signed block is reported
//! (`thinking_prefix_changed`). Each test is named after the rule it proves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::providers::anthropic::validate::{validate, validate_with_headers};
use turnwire::{
    render, validate_request_with_headers, Conversation, DiagnosticCode, Provider, RenderOptions,
    Transcript,
};

const BETA: &str = "thinking-binding-controls-2026-08-01";

fn transcript(v: Value) -> Transcript {
    Transcript::from_value(&v).unwrap()
}

fn hi() -> Transcript {
    transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "plan it"}]}]))
}

fn thinking(model: &str) -> RenderOptions {
    let mut o = RenderOptions::new(Provider::Anthropic, model);
    o.thinking = Some(turnwire::ThinkingOptions {
        enabled: true,
        ..Default::default()
    });
    o
}

fn with_provider_options(mut o: RenderOptions, v: Value) -> RenderOptions {
    o.provider_options = v.as_object().unwrap().clone();
    o
}

fn beta_header(r: &turnwire::Rendered) -> Option<&str> {
    r.headers
        .0
        .iter()
        .find(|(h, _)| h == "anthropic-beta")
        .map(|(_, v)| v.as_str())
}

fn prefix_notes(r: &turnwire::Rendered) -> Vec<&turnwire::Diagnostic> {
    r.diagnostics
        .iter()
        .filter(|d| d.code == DiagnosticCode::ThinkingPrefixChanged)
        .collect()
}

#[track_caller]
fn assert_valid_sent(model: &str, r: &turnwire::Rendered) {
    let v = validate_request_with_headers(Provider::Anthropic, model, &r.body, &r.headers.0);
    assert!(v.is_empty(), "{v:?}\n{:#}", r.body);
}

/// The models that bind, by the docs' `supportedModels` of the prefix-checks page.
const BINDING: [&str; 7] = [
    "claude-fable-5-1",
    "claude-fable-5-2",
    "claude-mythos-5-1",
    "claude-mythos-5-2",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
];

#[test]
fn ant_52_binding_models_send_drop_block_with_its_beta() {
    for model in BINDING {
        let r = render(&hi(), &thinking(model)).unwrap();
        assert_eq!(
            r.body["thinking"],
            json!({"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}),
            "{model}"
        );
        assert_eq!(beta_header(&r), Some(BETA), "{model}");
        assert_valid_sent(model, &r);
    }
}

#[test]
fn ant_52_other_models_and_thinking_off_send_no_binding() {
    for model in [
        "claude-fable-5",
        "claude-mythos-5",
        "claude-opus-5",
        "claude-sonnet-5",
        "claude-opus-4-8",
        "claude-sonnet-4-5",
    ] {
        let r = render(&hi(), &thinking(model)).unwrap();
        assert!(r.body["thinking"].get("block_binding").is_none(), "{model}");
        assert_eq!(beta_header(&r), None, "{model}");
    }
    let off = render(
        &hi(),
        &RenderOptions::new(Provider::Anthropic, "claude-fable-5-1"),
    )
    .unwrap();
    assert!(off.body.get("thinking").is_none());
    assert_eq!(beta_header(&off), None);
}

#[test]
fn ant_52_the_callers_error_choice_is_kept_and_still_gets_the_beta_once() {
    let o = with_provider_options(
        thinking("claude-fable-5-1"),
        json!({"anthropic": {"thinking": {"block_binding": {"prefix_mismatch_behavior": "error"}},
            "betas": [BETA, "context-management-2025-06-27"]}}),
    );
    let r = render(&hi(), &o).unwrap();
    assert_eq!(
        r.body["thinking"]["block_binding"]["prefix_mismatch_behavior"],
        "error"
    );
    assert_eq!(
        beta_header(&r),
        Some("thinking-binding-controls-2026-08-01,context-management-2025-06-27")
    );
    assert_valid_sent("claude-fable-5-1", &r);
}

#[test]
fn ant_52_a_config_switched_to_disabled_loses_the_renders_binding() {
    // (`between_tools` is settled alike; the strict validator does not take that type yet)
    let o = with_provider_options(
        thinking("claude-fable-5-1"),
        json!({"anthropic": {"thinking": {"type": "disabled"}}}),
    );
    let r = render(&hi(), &o).unwrap();
    assert_eq!(r.body["thinking"], json!({"type": "disabled"}));
    assert_eq!(beta_header(&r), None);
    // given by the caller there, it is refused in the API's words
    let o = with_provider_options(
        thinking("claude-fable-5-1"),
        json!({"anthropic": {"thinking": {"type": "disabled", "block_binding": {"prefix_mismatch_behavior": "error"}}}}),
    );
    let e = render(&hi(), &o).unwrap_err();
    assert!(
        e.message()
            .contains("thinking.disabled.block_binding: Extra inputs are not permitted"),
        "{e}"
    );
}

fn body(model: &str, thinking: Value) -> Value {
    json!({"model": model, "max_tokens": 4096, "thinking": thinking,
        "messages": [{"role": "user", "content": "hi"}]})
}

fn sent(body: &Value, betas: &str) -> Vec<(String, String)> {
    let mut h = validate_with_headers(body, &[("anthropic-beta".into(), betas.into())])
        .into_iter()
        .map(|v| (v.path, v.message))
        .collect::<Vec<_>>();
    h.sort();
    h
}

#[test]
fn ant_52_the_validator_refuses_binding_without_its_beta_in_the_apis_words() {
    let b = body(
        "claude-fable-5-1",
        json!({"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}),
    );
    assert_eq!(
        sent(&b, "context-management-2025-06-27"),
        [(
            "$.thinking.block_binding".to_string(),
            "thinking.adaptive.block_binding: Extra inputs are not permitted".to_string()
        )]
    );
    assert_eq!(sent(&b, &format!("fast-mode-2026-02-01, {BETA}")), []);
    // a body checked alone does not know its headers
    assert!(validate(&b).is_empty());
}

#[test]
fn ant_52_the_validator_refuses_other_values_configs_and_models() {
    let bad = body(
        "claude-fable-5-1",
        json!({"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "ignore"}}),
    );
    assert_eq!(
        sent(&bad, BETA),
        [(
            "$.thinking.block_binding.prefix_mismatch_behavior".to_string(),
            "thinking.adaptive.block_binding.prefix_mismatch_behavior: Input should be 'error' or 'drop_block'".to_string()
        )]
    );
    let bedrock = body(
        "claude-fable-5-1",
        json!({"type": "adaptive", "block_binding": {"mismatch_behavior": "drop_block"}}),
    );
    assert_eq!(
        sent(&bedrock, BETA)[0].1,
        "thinking.adaptive.block_binding.mismatch_behavior: Extra inputs are not permitted"
    );
    let disabled = body(
        "claude-fable-5-1",
        json!({"type": "disabled", "block_binding": {"prefix_mismatch_behavior": "error"}}),
    );
    assert_eq!(
        sent(&disabled, BETA)[0].1,
        "thinking.disabled.block_binding: Extra inputs are not permitted"
    );
    let unbound = body(
        "claude-opus-4-8",
        json!({"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}}),
    );
    assert_eq!(
        sent(&unbound, BETA)[0].1,
        "thinking.adaptive.block_binding: Extra inputs are not permitted"
    );
    // an empty or null binding is every default
    let empty = body(
        "claude-fable-5-1",
        json!({"type": "adaptive", "block_binding": {}}),
    );
    assert_eq!(sent(&empty, BETA), []);
}

fn fixture(name: &str) -> Transcript {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name);
    Transcript::from_json(&std::fs::read_to_string(dir.join("transcript.json")).unwrap()).unwrap()
}

#[test]
fn ant_52_a_repair_before_a_signed_block_is_reported_on_a_binding_model() {
    let t = fixture("100-fable-thinking-prefix-changed-by-a-repair");
    let r = render(&t, &thinking("claude-fable-5-1")).unwrap();
    let notes = prefix_notes(&r);
    assert_eq!(notes.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(notes[0].path.as_deref(), Some("$[3].blocks[0]"));
    assert_eq!(
        (notes[0].message_index, notes[0].block_index),
        (Some(3), Some(0))
    );
    assert!(
        notes[0].message.contains("synthetic_result_added"),
        "{}",
        notes[0].message
    );
    assert_eq!(
        r.body["thinking"]["block_binding"]["prefix_mismatch_behavior"],
        "drop_block"
    );
    // both signed blocks are replayed: the API decides, drop_block keeps the request going
    assert_eq!(r.body["messages"][3]["content"][0]["type"], "thinking");
    assert_valid_sent("claude-fable-5-1", &r);
    // a model that does not bind does not check the prefix: nothing to report
    let r = render(&t, &thinking("claude-fable-5")).unwrap();
    assert!(prefix_notes(&r).is_empty());
    // nor with thinking off (the signed blocks are not replayed then)
    let r = render(
        &t,
        &RenderOptions::new(Provider::Anthropic, "claude-fable-5-1"),
    )
    .unwrap();
    assert!(prefix_notes(&r).is_empty());
}

#[test]
fn ant_52_a_history_no_repair_reaches_into_gets_no_report() {
    let t = fixture("101-fable-thinking-prefix-kept");
    let r = render(&t, &thinking("claude-fable-5-1")).unwrap();
    assert!(prefix_notes(&r).is_empty(), "{:#?}", r.diagnostics);
    assert_eq!(beta_header(&r), Some(BETA));
}

#[test]
fn ant_52_a_tool_declared_for_a_later_call_changes_every_blocks_prefix() {
    // `tools` is part of every block's prefix: declaring a tool the caller left out reaches
    // back before the first signed block
    let t = fixture("101-fable-thinking-prefix-kept");
    let mut o = thinking("claude-fable-5-1");
    o.tools = vec![turnwire::ToolDeclaration::new(
        "read_file",
        "Read a file",
        json!({"type": "object"}),
    )];
    let r = render(&t, &o).unwrap();
    let notes = prefix_notes(&r);
    assert_eq!(notes.len(), 1, "{:#?}", r.diagnostics);
    assert_eq!(notes[0].path.as_deref(), Some("$[1].blocks[0]"));
    assert_eq!(notes[0].count, Some(2));
    assert!(notes[0].message.contains("tool_declared"));
}

#[test]
fn ant_52_a_system_message_stays_in_place_so_nothing_is_hoisted_before_a_block() {
    // the prefix-keeping repair: a mid-conversation system message is sent where it stands
    // (ANT-25) on every binding model, never hoisted into `system`
    let t = transcript(json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-fable-5-1"}, "blocks": [
            {"type": "thinking", "thought": "t", "signature": "EqMBCkgIBhABGAIiQGZhYmxlLW9uZQ=="},
            {"type": "text", "text": "done"}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "more"}]},
        {"speaker": "system", "blocks": [{"type": "text", "text": "Answer in French from now on."}]},
    ]));
    for model in BINDING {
        let r = render(&t, &thinking(model)).unwrap();
        assert!(
            !r.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::SystemHoisted),
            "{model}"
        );
        assert!(prefix_notes(&r).is_empty(), "{model}: {:#?}", r.diagnostics);
    }
}

/// Renders `case`'s history message after message through a `Conversation` and a whole render
/// each; returns each step's fallback and whether it was incremental.
fn conversation_steps(case: &str) -> Vec<(Option<turnwire::Fallback>, bool)> {
    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/fixtures")
            .join(case)
            .join("transcript.json"),
    )
    .unwrap();
    let mut whole: Vec<Value> = serde_json::from_str(&text).unwrap();
    // two more turns, so that a prefix is cached and a tail holds a signed block
    for (i, sig) in ["EqMBCkgIBhABGAIiQHRocmVl", "EqMBCkgIBhABGAIiQGZvdXI="]
        .iter()
        .enumerate()
    {
        whole.push(json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-fable-5-1"},
            "blocks": [{"type": "thinking", "thought": format!("step {i}"), "signature": sig},
                {"type": "text", "text": format!("Done {i}.")}]}));
        whole.push(json!({"speaker": "human", "blocks": [{"type": "text", "text": "Next."}]}));
    }
    let o = thinking("claude-fable-5-1");
    let mut conv = Conversation::new();
    let mut steps = Vec::new();
    for n in 1..=whole.len() {
        let t = transcript(Value::Array(whole[..n].to_vec()));
        conv.append_value(&whole[n - 1]).unwrap();
        match (render(&t, &o), conv.render(&o)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.body, b.body, "{case} {n}");
                assert_eq!(a.headers, b.headers, "{case} {n}");
                assert_eq!(a.diagnostics, b.diagnostics, "{case} {n}");
            }
            (Err(a), Err(b)) => assert_eq!(a.code(), b.code()),
            (a, b) => panic!("{n}: {a:?} vs {b:?}"),
        }
        let stats = conv.last_render_stats();
        steps.push((stats.fallback, stats.incremental));
    }
    steps
}

#[test]
fn ant_52_a_conversation_renders_what_a_render_gives_turn_after_turn() {
    // a repair before the boundary would reach the signed blocks after it: the boundary does
    // not move there (`Fallback::ThinkingBinding` when it is tried), every render is whole
    let repaired = conversation_steps("100-fable-thinking-prefix-changed-by-a-repair");
    assert!(
        repaired.iter().all(|(_, incremental)| !incremental),
        "{repaired:?}"
    );
    // nothing reaches back: the prefix is reused
    let kept = conversation_steps("101-fable-thinking-prefix-kept");
    assert!(kept.iter().any(|(_, incremental)| *incremental), "{kept:?}");
    assert!(
        !kept
            .iter()
            .any(|(f, _)| *f == Some(turnwire::Fallback::ThinkingBinding)),
        "{kept:?}"
    );
}

#[test]
fn ant_52_input_transformations_of_message_start_are_kept_and_unknown_entries_skipped() {
    use turnwire::stream::{StreamDecoder, StreamOptions};
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "model": "claude-fable-5-1", "content": [], "usage": {"input_tokens": 10},
            "input_transformations": [
                {"type": "thinking_dropped", "path": "messages.3.content.0", "reason": "prefix_binding_mismatch"},
                {"type": "connector_text_rewritten", "path": "messages.5.content.1"},
                {"type": "thinking_mismatch_allowed", "path": "messages.7.content.0", "reason": "prefix_binding_mismatch"}]}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}}),
        json!({"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}}),
        json!({"type": "content_block_stop", "index": 0}),
        // a final message_delta without the list (no server-side fallback) keeps message_start's
        json!({"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"output_tokens": 3}}),
        json!({"type": "message_stop"}),
    ];
    let mut d = StreamDecoder::new(
        Provider::Anthropic,
        StreamOptions::for_model("claude-fable-5-1"),
    );
    for e in &events {
        d.push(&e.to_string()).unwrap();
    }
    let v = d.finish().to_value();
    assert_eq!(
        v["message"]["metadata"]["inputTransformations"],
        json!([
            {"type": "thinking_dropped", "path": "messages.3.content.0", "reason": "prefix_binding_mismatch"},
            {"type": "thinking_mismatch_allowed", "path": "messages.7.content.0", "reason": "prefix_binding_mismatch"}
        ])
    );
}

#[test]
fn ant_52_thinking_switched_on_through_provider_options_gets_drop_block_too() {
    let o = with_provider_options(
        RenderOptions::new(Provider::Anthropic, "claude-fable-5-1"),
        json!({"anthropic": {"thinking": {"type": "adaptive"}}}),
    );
    let r = render(&hi(), &o).unwrap();
    assert_eq!(
        r.body["thinking"]["block_binding"]["prefix_mismatch_behavior"],
        "drop_block"
    );
    assert_eq!(beta_header(&r), Some(BETA));
    assert_valid_sent("claude-fable-5-1", &r);
    // not on a model that does not bind
    let o = with_provider_options(
        RenderOptions::new(Provider::Anthropic, "claude-opus-5"),
        json!({"anthropic": {"thinking": {"type": "adaptive"}}}),
    );
    let r = render(&hi(), &o).unwrap();
    assert_eq!(r.body["thinking"], json!({"type": "adaptive"}));
}
