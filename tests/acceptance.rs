//! The acceptance scenarios of 915-functional §10 (1–5) and REQ-915-041…044, plus the
//! requirements they lean on, each proven on rendered bodies checked by the strict validators.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::ids::IdFormat;
use turnwire::model::{Block, Speaker, ToolStatus};
use turnwire::{
    normalize, render, validate_request_for_model, DiagnosticCode, FaultClass, NormalizeOptions,
    Provider, RenderOptions, ThinkingOptions, Transcript,
};

fn t(v: Value) -> Transcript {
    Transcript::from_value(&v).unwrap()
}

fn opts(p: Provider) -> RenderOptions {
    RenderOptions::new(p, p.reference_model())
}

fn render_valid(tr: &Transcript, o: &RenderOptions) -> turnwire::Rendered {
    let out = render(tr, o).unwrap();
    let v = validate_request_for_model(o.provider, &o.model, &out.body);
    assert!(v.is_empty(), "{}: {v:#?}\n{:#}", o.provider, out.body);
    out
}

fn human(text: &str) -> Value {
    json!({"speaker": "human", "blocks": [{"type": "text", "text": text}]})
}

/// The 915 §5 turn: thinking, one call with its result, thinking, five calls with one result,
/// thinking and text.
fn five_calls_one_result() -> Transcript {
    let calls: Vec<Value> = (2..=6)
        .map(|i| json!({"type": "tool_call", "id": format!("hist_tool_{i}"), "name": "grep", "parameters": {"q": i}}))
        .collect();
    let mut second = vec![json!({"type": "thinking", "thought": "fan out"})];
    second.extend(calls);
    t(json!([
        human("chat"),
        {"speaker": "ai", "blocks": [{"type": "thinking", "thought": "look first"},
            {"type": "tool_call", "id": "hist_tool_1", "name": "read", "parameters": {"p": "a"}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "hist_tool_1", "toolName": "read", "result": "A"}]},
        {"speaker": "ai", "blocks": second},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "hist_tool_3", "toolName": "grep", "result": "three"}]},
        {"speaker": "ai", "blocks": [{"type": "thinking", "thought": "answer"}, {"type": "text", "text": "big streamed text"}]},
        human("next")
    ]))
}

#[test]
fn req_915_044_five_calls_one_real_completion_and_four_synthetic() {
    for p in Provider::ALL {
        let out = render_valid(&five_calls_one_result(), &opts(p));
        let synthetic: Vec<_> = out
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::SyntheticResultAdded)
            .collect();
        assert_eq!(synthetic.len(), 4, "{p}");
        let ids: Vec<_> = synthetic
            .iter()
            .map(|d| d.call_id.clone().unwrap())
            .collect();
        assert_eq!(
            ids,
            ["hist_tool_2", "hist_tool_4", "hist_tool_5", "hist_tool_6"]
        );
        // the real completion is there, unchanged
        assert!(out.body.to_string().contains("\"three\""), "{p}");
    }
}

#[test]
fn functional_10_4_incomplete_fan_out_renders_a_complete_interaction_set() {
    let n = normalize(
        &five_calls_one_result(),
        &NormalizeOptions::new(Provider::Anthropic, "claude-sonnet-4-5"),
    );
    let msgs = &n.transcript.messages;
    let fan_out = msgs
        .iter()
        .position(|m| {
            m.blocks
                .iter()
                .filter(|b| matches!(b, Block::ToolCall(_)))
                .count()
                == 5
        })
        .unwrap();
    let tool = &msgs[fan_out + 1];
    assert_eq!(tool.speaker, Speaker::Tool);
    let order: Vec<(String, bool)> = tool
        .blocks
        .iter()
        .map(|b| match b {
            Block::ToolResponse(r) => (r.call_id.clone(), r.synthetic.is_some()),
            _ => panic!("only results"),
        })
        .collect();
    assert_eq!(
        order,
        [
            ("hist_tool_2".into(), true),
            ("hist_tool_3".into(), false),
            ("hist_tool_4".into(), true),
            ("hist_tool_5".into(), true),
            ("hist_tool_6".into(), true)
        ]
    );
}

/// A completed tool turn produced by OpenAI, then the user switches to Claude (and back).
fn completed_openai_tool_turn() -> Transcript {
    t(json!([
        human("what's in src?"),
        {"speaker": "ai", "metadata": {"provider": "openai", "model": "gpt-5.2"},
         "blocks": [{"type": "tool_call", "id": "call_AbC123xyz", "name": "ls", "parameters": {"dir": "src"}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_AbC123xyz", "toolName": "ls", "result": ["lib.rs", "main.rs"]}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "model": "gpt-5.2"}, "blocks": [{"type": "text", "text": "Two files."}]},
        human("open lib.rs")
    ]))
}

#[test]
fn req_915_041_manual_switch_after_a_completed_tool_turn() {
    let tr = completed_openai_tool_turn();
    let out = render_valid(&tr, &opts(Provider::Anthropic));
    // the OpenAI id is projected into Anthropic's format and stays paired
    let id = out.id_map.get("call_AbC123xyz").unwrap();
    assert!(id.starts_with("toolu_"));
    let msgs = out.body["messages"].as_array().unwrap();
    assert_eq!(msgs[1]["content"][0]["id"], id);
    assert_eq!(msgs[2]["content"][0]["tool_use_id"], id);
    // and back to OpenAI: the original id is kept
    let back = render_valid(&tr, &opts(Provider::OpenAiChat));
    assert_eq!(back.id_map.get("call_AbC123xyz"), Some("call_AbC123xyz"));
}

#[test]
fn functional_10_1_manual_switch_next_request_has_no_tool_protocol_violation() {
    let tr = completed_openai_tool_turn();
    for p in Provider::ALL {
        let out = render_valid(&tr, &opts(p));
        assert!(
            out.diagnostics
                .iter()
                .all(|d| d.fault == FaultClass::ProviderProjection),
            "{p}: {:?}",
            out.diagnostics
        );
    }
}

/// Simulates an agent: each turn the next provider (round robin) answers with parallel tool
/// calls in its own id format, one of them is cancelled, and the user speaks again.
fn round_robin_session(turns: usize) -> Vec<(Provider, turnwire::Rendered)> {
    let providers = [Provider::Anthropic, Provider::OpenAiChat];
    let mut history = vec![human("start")];
    let mut rendered = Vec::new();
    for turn in 0..turns {
        let p = providers[turn % providers.len()];
        let o = opts(p);
        let tr = t(Value::Array(history.clone()));
        let out = render_valid(&tr, &o);
        // the provider answers: ids in its own format, as its SDK would return them
        let ids: Vec<String> = (0..3)
            .map(|k| match p {
                Provider::Anthropic => format!("toolu_01T{turn}K{k}"),
                _ => format!("call_t{turn}k{k}"),
            })
            .collect();
        let meta = json!({"provider": p.as_str(), "model": o.model});
        let calls: Vec<Value> = ids
            .iter()
            .map(|id| json!({"type": "tool_call", "id": id, "name": "search", "parameters": {"q": id}}))
            .collect();
        history.push(json!({"speaker": "ai", "metadata": meta, "blocks": calls}));
        // two results arrive, the third call is cancelled; on odd turns the results are stored
        // after the next user message and one is duplicated late
        let results: Vec<Value> = ids[..2]
            .iter()
            .map(|id| json!({"type": "tool_response", "callId": id, "toolName": "search", "result": format!("found {id}")}))
            .collect();
        if turn % 2 == 1 {
            history.push(human(&format!("turn {turn} done?")));
            history.push(json!({"speaker": "tool", "blocks": results.clone()}));
            history.push(json!({"speaker": "tool", "blocks": [results[0].clone()]}));
        } else {
            history.push(json!({"speaker": "tool", "blocks": results}));
            history.push(human(&format!("turn {turn} done?")));
        }
        rendered.push((p, out));
    }
    rendered
}

#[test]
fn req_915_042_round_robin_keeps_pairing_valid_every_turn() {
    let rendered = round_robin_session(12);
    assert_eq!(rendered.len(), 12);
    for (p, out) in &rendered {
        // no duplicate results on the wire
        let body = out.body.to_string();
        for (_, provider_id) in &out.id_map.0 {
            let answers = match p {
                Provider::Anthropic => body
                    .matches(&format!("\"tool_use_id\":\"{provider_id}\""))
                    .count(),
                _ => body
                    .matches(&format!("\"tool_call_id\":\"{provider_id}\""))
                    .count(),
            };
            assert_eq!(answers, 1, "{p}: {provider_id}");
        }
    }
}

#[test]
fn functional_10_2_round_robin_ids_of_earlier_calls_never_change() {
    let rendered = round_robin_session(8);
    for p in Provider::ALL {
        let maps: Vec<_> = rendered
            .iter()
            .filter(|(q, _)| *q == p)
            .map(|(_, o)| &o.id_map)
            .collect();
        for w in maps.windows(2) {
            for (canonical, id) in &w[0].0 {
                assert_eq!(w[1].get(canonical), Some(id.as_str()), "{p}: {canonical}");
            }
        }
    }
}

#[test]
fn req_915_043_failover_mid_tool_loop_renders_a_valid_next_turn() {
    // Claude opened a tool loop with signed thinking; a failure failed over to OpenAI, which
    // made the next call; then Claude comes back with thinking on while the loop is open.
    let claude_opened = |opener: Value| {
        t(json!([
            human("deploy it"),
            {"speaker": "ai", "metadata": opener,
             "blocks": [{"type": "thinking", "thought": "build first", "signature": "c2lnLWJ1aWxk"},
                        {"type": "tool_call", "id": "toolu_01Build", "name": "build", "parameters": {}}]},
            {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_01Build", "toolName": "build", "result": "ok"}]},
            {"speaker": "ai", "metadata": {"provider": "openai", "model": "gpt-5.2"},
             "blocks": [{"type": "tool_call", "id": "call_deploy1", "name": "deploy", "parameters": {"env": "prod"}}]},
            {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_deploy1", "toolName": "deploy", "result": "deployed"}]}
        ]))
    };
    let mut o = opts(Provider::Anthropic);
    o.max_tokens = Some(8192);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    // The loop is one assistant turn, opened by Claude's own thinking: thinking stays on.
    let tr = claude_opened(json!({"provider": "anthropic", "model": "claude-sonnet-4-5"}));
    render_valid(&tr, &opts(Provider::OpenAiChat));
    let out = render_valid(&tr, &o);
    assert_eq!(out.body["thinking"]["type"], "enabled");
    assert_eq!(out.body["messages"][1]["content"][0]["type"], "thinking");
    // The same loop opened by another Claude model: its signature cannot be replayed, so this
    // request runs with thinking off and says why.
    let tr = claude_opened(json!({"provider": "anthropic", "model": "claude-opus-4-6"}));
    let out = render_valid(&tr, &o);
    assert!(
        out.body.get("thinking").is_none(),
        "thinking must be off for this request"
    );
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingDisabledForRequest));
}

#[test]
fn functional_10_3_failover_with_an_open_call_closes_it() {
    let tr = t(json!([
        human("go"),
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"},
         "blocks": [{"type": "tool_call", "id": "toolu_01Open", "name": "run", "parameters": {}}]}
    ]));
    for p in Provider::ALL {
        let out = render_valid(&tr, &opts(p));
        let d = out
            .diagnostics
            .iter()
            .find(|d| d.code == DiagnosticCode::SyntheticResultAdded)
            .unwrap();
        assert_eq!(
            d.synthetic_reason.map(|r| r.0.as_str()),
            Some("open_at_end")
        );
    }
}

#[test]
fn functional_10_5_kimi_and_mistral_ids_keep_exact_pairing() {
    // REQ-915-020, REQ-915-021: canonical ids in, each provider's format out, pairing exact.
    for p in [Provider::Kimi, Provider::Mistral] {
        let out = render_valid(&five_calls_one_result(), &opts(p));
        let format = if p == Provider::Kimi {
            IdFormat::Kimi
        } else {
            IdFormat::Mistral
        };
        let msgs = out.body["messages"].as_array().unwrap();
        let calls: Vec<(&str, &str)> = msgs
            .iter()
            .flat_map(|m| {
                m["tool_calls"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
            })
            .map(|c| {
                (
                    c["id"].as_str().unwrap(),
                    c["function"]["name"].as_str().unwrap(),
                )
            })
            .collect();
        let answers: Vec<&str> = msgs
            .iter()
            .filter(|m| m["role"] == "tool")
            .map(|m| m["tool_call_id"].as_str().unwrap())
            .collect();
        assert_eq!(calls.len(), 6, "{p}");
        assert_eq!(
            answers,
            calls.iter().map(|c| c.0).collect::<Vec<_>>(),
            "{p}: exact pairing, call order"
        );
        let mut distinct: Vec<&str> = answers.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 6, "{p}: injective");
        for (id, name) in &calls {
            assert!(format.is_valid(id), "{p}: {id}");
            if p == Provider::Kimi {
                assert!(id.starts_with(&format!("functions.{name}:")), "{id}");
            }
        }
        if p == Provider::Kimi {
            assert_eq!(out.id_map.get("hist_tool_1"), Some("functions.read:0"));
            assert_eq!(out.id_map.get("hist_tool_6"), Some("functions.grep:5"));
        }
        // the id map is the same mapping the body uses
        for (canonical, id) in &out.id_map.0 {
            assert!(calls.iter().any(|c| c.0 == id), "{p}: {canonical} → {id}");
        }
    }
}

#[test]
fn req_915_047_tool_calls_in_a_tool_message_are_moved_to_the_assistant() {
    let tr = t(json!([
        human("x"),
        {"speaker": "tool", "blocks": [
            {"type": "tool_call", "id": "a", "name": "f", "parameters": {}},
            {"type": "tool_response", "callId": "a", "toolName": "f", "result": "r"}]}
    ]));
    for p in Provider::ALL {
        let out = render_valid(&tr, &opts(p));
        assert!(out
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::SpeakerRepaired
                && d.fault == FaultClass::CanonicalState
                && d.call_id.as_deref() == Some("a")));
    }
}

#[test]
fn req_915_048_status_inference_precedence() {
    let r = |v: Value| {
        let tr = Transcript::from_value(&json!([{"speaker": "tool", "blocks": [v]}])).unwrap();
        match &tr.messages[0].blocks[0] {
            Block::ToolResponse(r) => r.status(),
            other => panic!("not a response: {other:?}"),
        }
    };
    let base = json!({"type": "tool_response", "callId": "c", "toolName": "f"});
    let with = |k: &str, v: Value| {
        let mut b = base.clone();
        b[k] = v;
        b
    };
    let mut both = with("error", json!("boom"));
    both["isComplete"] = json!(true);
    both["result"] = json!("x");
    assert_eq!(r(both), ToolStatus::Errored);
    assert_eq!(r(with("isComplete", json!(true))), ToolStatus::Complete);
    assert_eq!(r(with("result", json!({"ok": 1}))), ToolStatus::Complete);
    assert_eq!(r(with("result", Value::Null)), ToolStatus::Pending);
    assert_eq!(r(base), ToolStatus::Pending);
}

#[test]
fn req_915_009_duplicate_results_keep_the_best_and_say_why() {
    let tr = t(json!([
        human("x"),
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c", "name": "f", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c", "toolName": "f", "result": null, "error": "cancelled"}]},
        human("y"),
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c", "toolName": "f", "result": "late but real"}]}
    ]));
    let out = render_valid(&tr, &opts(Provider::OpenAiChat));
    let d = out
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::DuplicateResultDropped)
        .unwrap();
    let dec = d.dedupe.as_ref().unwrap();
    assert_eq!(dec.kept, "message 4 block 0");
    assert!(
        dec.rationale.contains("completed result is preferred"),
        "{}",
        dec.rationale
    );
    assert!(out.body.to_string().contains("late but real"));
    assert!(!out.body.to_string().contains("cancelled"));
}

#[test]
fn req_915_010_renders_are_deterministic() {
    for p in Provider::ALL {
        let a = render(&five_calls_one_result(), &opts(p)).unwrap();
        let b = render(&five_calls_one_result(), &opts(p)).unwrap();
        assert_eq!(a.body_bytes(), b.body_bytes());
        assert_eq!(a, b);
    }
}

#[test]
fn req_915_012_real_completions_are_never_replaced() {
    let out = render_valid(&five_calls_one_result(), &opts(Provider::Anthropic));
    let results: Vec<&Value> = out.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["content"].as_array().unwrap())
        .filter(|b| b["type"] == "tool_result")
        .collect();
    let real: Vec<_> = results
        .iter()
        .filter(|r| r.get("is_error").is_none())
        .collect();
    assert_eq!(real.len(), 2);
    assert_eq!(real[1]["content"], "three");
}

#[test]
fn req_915_017_call_and_result_share_the_projected_id() {
    for p in Provider::ALL {
        let out = render_valid(&five_calls_one_result(), &opts(p));
        for (_, id) in &out.id_map.0 {
            assert_eq!(
                out.body.to_string().matches(&format!("\"{id}\"")).count(),
                2,
                "{p} {id}"
            );
        }
    }
}

#[test]
fn req_915_022_degenerate_ids_are_distinct_and_deterministic() {
    let tr = t(json!([
        human("x"),
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "", "name": "f", "parameters": {"a": 1}},
            {"type": "tool_call", "id": "", "name": "f", "parameters": {"a": 2}},
            {"type": "tool_call", "id": "dup", "name": "g", "parameters": {}},
            {"type": "tool_call", "id": "dup", "name": "h", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "", "toolName": "f", "result": "1"}]}
    ]));
    // Gemini sends no call ids (it pairs by order and name), so it has none to compare.
    for p in Provider::ALL.into_iter().filter(|p| *p != Provider::Gemini) {
        let a = render_valid(&tr, &opts(p));
        let b = render_valid(&tr, &opts(p));
        assert_eq!(a.id_map, b.id_map);
        let mut ids: Vec<&String> = a.id_map.0.iter().map(|(_, v)| v).collect();
        assert_eq!(ids.len(), 4);
        ids.sort();
        ids.dedup();
        assert_eq!(ids.len(), 4, "{p}: {:?}", a.id_map);
    }
}

#[test]
fn req_915_023_024_thinking_included_or_excluded_without_breaking_pairing() {
    let signed = t(json!([
        human("x"),
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"},
         "blocks": [{"type": "thinking", "thought": "hm", "signature": "c2ln"},
                    {"type": "tool_call", "id": "toolu_1", "name": "f", "parameters": {}}]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_1", "toolName": "f", "result": "r"}]}
    ]));
    let mut on = opts(Provider::Anthropic);
    on.max_tokens = Some(8192);
    on.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: Some(2048),
        effort: None,
        summary: None,
    });
    let out = render_valid(&signed, &on);
    assert_eq!(out.body["messages"][1]["content"][0]["type"], "thinking");
    assert_eq!(out.body["thinking"]["type"], "enabled");
    let off = render_valid(&signed, &opts(Provider::Anthropic));
    assert_eq!(off.body["messages"][1]["content"][0]["type"], "tool_use");
    assert_eq!(
        off.body["messages"][2]["content"][0]["tool_use_id"],
        "toolu_1"
    );
}

#[test]
fn req_915_027_compaction_orphan_result_is_kept_as_text_by_default() {
    let tr = t(json!([
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "gone", "toolName": "read", "result": "file body"}]},
        human("continue")
    ]));
    for p in Provider::ALL {
        let out = render_valid(&tr, &opts(p));
        assert!(out.body.to_string().contains("file body"), "{p}");
        assert!(out
            .diagnostics
            .iter()
            .any(|d| d.code == DiagnosticCode::OrphanResultAsText));
    }
}

#[test]
fn req_915_039_040_diagnostics_carry_ids_reason_provider_and_fault_class() {
    let out = render_valid(&five_calls_one_result(), &opts(Provider::OpenAiChat));
    let d = out
        .diagnostics
        .iter()
        .find(|d| d.code == DiagnosticCode::SyntheticResultAdded)
        .unwrap();
    assert_eq!(d.fault, FaultClass::PairingOrdering);
    assert_eq!(d.call_id.as_deref(), Some("hist_tool_2"));
    assert_eq!(d.emitted_id.as_deref(), Some("call_2"));
    assert_eq!(d.provider, Some(Provider::OpenAiChat));
    let v = serde_json::to_value(d).unwrap();
    assert_eq!(v["syntheticReason"], "missing_result");
    assert_eq!(v["fault"], "pairing_ordering");
}
