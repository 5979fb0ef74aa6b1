//! Compaction (REQ-915-026…028): safe cut points never separate a call from its result, a
//! compacted conversation renders valid requests for every provider, and a result removed by
//! compaction gets its own `compacted` completion instead of "cancelled or interrupted".
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::{json, Value};
use turnwire::model::{safe_cut_points, Block, Message, Speaker, TextBlock};
use turnwire::{render, validate_request_for_model, Conversation, Provider, RenderOptions};

fn human(text: &str) -> Value {
    json!({"speaker": "human", "blocks": [{"type": "text", "text": text}]})
}

/// An agent-shaped session: tool loops with parallel calls, results one per message, some
/// calls never answered, a late result now and then.
fn session(steps: &[(u8, bool)]) -> Vec<Value> {
    let mut out = vec![human("task")];
    for (s, &(calls, user)) in steps.iter().enumerate() {
        let calls = usize::from(calls % 3) + 1;
        let blocks: Vec<Value> = (0..calls)
            .map(|c| json!({"type": "tool_call", "id": format!("c{s}_{c}"), "name": "read_file", "parameters": {"p": c}}))
            .collect();
        out.push(json!({"speaker": "ai", "blocks": blocks}));
        for c in 0..calls {
            if (s + c) % 5 == 4 {
                continue; // interrupted
            }
            out.push(json!({"speaker": "tool", "blocks": [
                {"type": "tool_response", "callId": format!("c{s}_{c}"), "toolName": "read_file", "result": format!("r{s}_{c}")}]}));
        }
        if user {
            out.push(json!({"speaker": "ai", "blocks": [{"type": "text", "text": format!("step {s} done")}]}));
            out.push(human(&format!("next {s}")));
        }
    }
    out
}

fn conversation(values: &[Value]) -> Conversation {
    let mut c = Conversation::new();
    for v in values {
        c.append_value(v).unwrap();
    }
    c
}

fn summary(text: &str) -> Message {
    Message::new(Speaker::Human, vec![Block::Text(TextBlock::new(text))])
}

/// Every provider's strict validator accepts the conversation's render.
fn assert_valid(c: &Conversation, what: &str) {
    for p in Provider::ALL {
        let o = RenderOptions::new(p, p.reference_model());
        let out = render(c.transcript(), &o).unwrap();
        let v = validate_request_for_model(p, &o.model, &out.body);
        assert!(v.is_empty(), "{what}: {p}: {v:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// No call/result pair spans a safe cut point, and compacting between any two of them
    /// separates nothing and keeps every provider's request valid.
    #[test]
    fn req_915_028_compaction_at_safe_points_orphans_nothing(
        steps in prop::collection::vec((any::<u8>(), any::<bool>()), 1..12),
        pick in (any::<usize>(), any::<usize>()),
    ) {
        let values = session(&steps);
        let mut c = conversation(&values);
        let points = c.safe_cut_points();
        prop_assert_eq!(points.first(), Some(&0));
        prop_assert_eq!(points.last(), Some(&values.len()));
        let (a, b) = (points[pick.0 % points.len()], points[pick.1 % points.len()]);
        let (start, end) = (a.min(b), a.max(b));
        if start == end {
            return Ok(());
        }
        c.compact(start, end, summary("Summary of the work so far.")).unwrap();
        let record = &c.at(start).unwrap().extra["compaction"];
        prop_assert_eq!(record, &json!({"messages": end - start, "calls": [], "results": []}));
        assert_valid(&c, "after compacting between safe points");
    }
}

#[test]
fn req_915_026_the_summary_keeps_the_pairs_the_future_needs() {
    let values = session(&[(1, false), (2, true), (0, true), (1, false)]);
    let points = safe_cut_points(&conversation(&values).transcript().messages);
    // the cut points of this session: none inside a call/result pair
    assert!(points.windows(2).all(|w| w[0] < w[1]));
    let mut c = conversation(&values);
    let end = points[points.len() - 3];
    let removed = c.compact(1, end, summary("Read eight files.")).unwrap();
    assert_eq!(removed.len(), end - 1);
    assert_eq!(c.len(), values.len() - removed.len() + 1);
    assert_valid(&c, "compacted");
}

#[test]
fn req_915_027_a_result_removed_by_compaction_gets_a_compacted_completion() {
    let values = vec![
        human("read a"),
        json!({"speaker": "ai", "blocks": [{"type": "tool_call", "id": "keep_me", "name": "read_file", "parameters": {}}]}),
        json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "keep_me", "toolName": "read_file", "result": "long output"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "tool_call", "id": "gone", "name": "read_file", "parameters": {}}]}),
        json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "gone", "toolName": "read_file", "result": "b"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "done"}]}),
        human("thanks"),
    ];
    let mut c = conversation(&values);
    // cut through both pairs: keep_me's result goes, gone's call goes
    c.compact(
        2,
        4,
        summary("The output of read_file was long; it said a."),
    )
    .unwrap();
    assert_eq!(
        c.at(2).unwrap().extra["compaction"],
        json!({"messages": 2, "calls": ["keep_me"], "results": ["gone"]})
    );
    let o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    let out = render(c.transcript(), &o).unwrap();
    let synthetic: Vec<_> = out
        .diagnostics
        .iter()
        .filter_map(|d| Some((d.call_id.as_deref()?, d.synthetic_reason?.0.as_str())))
        .collect();
    assert!(
        synthetic.contains(&("keep_me", "compacted")),
        "{synthetic:?}"
    );
    let body = out.body.to_string();
    assert!(
        body.contains("removed when the conversation was compacted"),
        "{body}"
    );
    assert!(!body.contains("cancelled or interrupted"), "{body}");
    assert_valid(&c, "cut through pairs");
}

#[test]
fn a_bad_compaction_is_an_error_and_changes_nothing() {
    let values = session(&[(1, true)]);
    let mut c = conversation(&values);
    let before = c.transcript().clone();
    assert_eq!(
        c.compact(2, 2, summary("x")).unwrap_err().code().as_str(),
        "out_of_range"
    );
    assert_eq!(
        c.compact(0, 99, summary("x")).unwrap_err().code().as_str(),
        "out_of_range"
    );
    let tool = Message::new(Speaker::Tool, vec![]);
    assert_eq!(
        c.compact(0, 1, tool).unwrap_err().code().as_str(),
        "invalid_value"
    );
    assert_eq!(c.transcript(), &before);
}
