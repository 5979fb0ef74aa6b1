//! Closure (REQ-915-007, 011…013, 044): exactly one completion per call.
//!
//! A call without any result gets one synthetic completion; a call whose only result is still
//! pending has it replaced by a synthetic one. Real completions are never replaced or
//! duplicated. Placement is left to the adjacency pass.

use crate::fast_map::{HashMap, HashSet};

use super::options::COMPACTED_RESULT_TEXT;
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker, ToolResponseBlock, ToolStatus};
use crate::vocab::SyntheticReason;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass, SyntheticReasonCode};

fn synthetic(call_id: &str, name: &str, text: &str, reason: SyntheticReason) -> ToolResponseBlock {
    ToolResponseBlock {
        call_id: call_id.to_string(),
        tool_name: Some(name.to_string()),
        result: None,
        error: Some(text.to_string()),
        is_complete: None,
        synthetic: Some(reason),
        meta: None,
        extra: Default::default(),
    }
}

fn diag(
    call_id: &str,
    name: &str,
    reason: SyntheticReason,
    origin: Option<(usize, usize)>,
) -> Diagnostic {
    let why = match reason {
        SyntheticReason::PendingResult => "its only result was still pending",
        SyntheticReason::OpenAtEnd => "it is still open at the end of the history",
        SyntheticReason::Compacted => "its result was removed when the history was compacted",
        _ => "the conversation moved on without a result",
    };
    Diagnostic {
        synthetic_reason: Some(SyntheticReasonCode(reason)),
        ..Diagnostic::new(
            DiagnosticCode::SyntheticResultAdded,
            FaultClass::PairingOrdering,
            format!(
                "call `{call_id}` to `{name}` at {} got a synthetic completion: {why}",
                describe(origin)
            ),
        )
        .at(origin)
        .call(call_id.to_string())
    }
}

pub(crate) fn close(mut msgs: Vec<Msg>, text: &str, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    // call id -> position of its (single, after dedupe) response
    let mut responses: HashMap<String, (usize, usize)> = HashMap::default();
    for (mi, m) in msgs.iter().enumerate() {
        for (bi, item) in m.items.iter().enumerate() {
            if let Block::ToolResponse(r) = &item.block {
                responses.insert(r.call_id.clone(), (mi, bi));
            }
        }
    }
    // index of the last message that moves the conversation on (not a tool message)
    let last_turn = msgs.iter().rposition(|m| m.speaker != Speaker::Tool);
    // calls whose results a compaction summary says it removed
    let compacted: HashSet<String> = crate::model::compacted_calls(msgs.iter().map(|m| &m.extra))
        .into_iter()
        .map(str::to_string)
        .collect();

    let mut inserts: Vec<(usize, Vec<Item>)> = Vec::new();
    let mut replacements: Vec<((usize, usize), Item)> = Vec::new();
    for (mi, m) in msgs.iter().enumerate() {
        let mut missing = Vec::new();
        for item in &m.items {
            let Block::ToolCall(call) = &item.block else {
                continue;
            };
            match responses.get(&call.id) {
                None => {
                    let reason = if compacted.contains(&call.id) {
                        SyntheticReason::Compacted
                    } else if last_turn.is_some_and(|l| l > mi) {
                        SyntheticReason::MissingResult
                    } else {
                        SyntheticReason::OpenAtEnd
                    };
                    let says = match reason {
                        SyntheticReason::Compacted => COMPACTED_RESULT_TEXT,
                        _ => text,
                    };
                    diags.push(diag(&call.id, &call.name, reason, item.origin));
                    missing.push(Item {
                        detached: false,
                        block: Block::ToolResponse(synthetic(&call.id, &call.name, says, reason)),
                        origin: None,
                    });
                }
                Some(&(rm, rb)) => {
                    let pending = matches!(
                        msgs.get(rm).and_then(|m| m.items.get(rb)).map(|i| &i.block),
                        Some(Block::ToolResponse(r)) if r.status() == ToolStatus::Pending && r.synthetic.is_none()
                    );
                    if pending {
                        let reason = SyntheticReason::PendingResult;
                        diags.push(diag(&call.id, &call.name, reason, item.origin));
                        replacements.push((
                            (rm, rb),
                            Item {
                                detached: false,
                                block: Block::ToolResponse(synthetic(
                                    &call.id, &call.name, text, reason,
                                )),
                                origin: msgs[rm].items[rb].origin,
                            },
                        ));
                    }
                }
            }
        }
        if !missing.is_empty() {
            inserts.push((mi + 1, missing));
        }
    }
    for ((mi, bi), item) in replacements {
        if let Some(slot) = msgs.get_mut(mi).and_then(|m| m.items.get_mut(bi)) {
            *slot = item;
        }
    }
    for (at, items) in inserts.into_iter().rev() {
        msgs.insert(at.min(msgs.len()), Msg::made_up(Speaker::Tool, items));
    }
    msgs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::json;

    const TEXT: &str = "no result";

    fn reasons(diags: &[Diagnostic]) -> Vec<(&str, &str)> {
        diags
            .iter()
            .map(|d| {
                (
                    d.call_id.as_deref().unwrap_or(""),
                    d.synthetic_reason.map(|r| r.0.as_str()).unwrap_or(""),
                )
            })
            .collect()
    }

    #[test]
    fn call_the_conversation_moved_past_gets_missing_result() {
        let mut diags = Vec::new();
        let out = close(
            msgs(json!([
                {"speaker": "ai", "blocks": [call("c1"), call("c2")]},
                {"speaker": "human", "blocks": [text("stop")]}
            ])),
            TEXT,
            &mut diags,
        );
        // one made-up tool message right after the call, in call order
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1) call(c2)",
                "tool: result(c1)* result(c2)*",
                "human: text"
            ]
        );
        assert_eq!(
            reasons(&diags),
            [("c1", "missing_result"), ("c2", "missing_result")]
        );
        assert_eq!(
            codes(&diags),
            ["synthetic_result_added", "synthetic_result_added"]
        );
        assert_eq!(out[1].origin, None);
        let Block::ToolResponse(r) = block(&out, 1, 0) else {
            panic!("expected a response")
        };
        assert_eq!(
            (
                r.error.as_deref(),
                r.tool_name.as_deref(),
                r.result.as_ref()
            ),
            (Some(TEXT), Some("ls"), None)
        );
    }

    #[test]
    fn call_still_open_at_the_end_gets_open_at_end() {
        let mut diags = Vec::new();
        let out = close(
            msgs(json!([
                {"speaker": "human", "blocks": [text("go")]},
                {"speaker": "ai", "blocks": [call("c1"), call("c2")]},
                {"speaker": "tool", "blocks": [result("c1")]}
            ])),
            TEXT,
            &mut diags,
        );
        // placement is left to adjacency: the synthetic message goes right after the call
        assert_eq!(
            shape(&out),
            [
                "human: text",
                "ai: call(c1) call(c2)",
                "tool: result(c2)*",
                "tool: result(c1)"
            ]
        );
        assert_eq!(reasons(&diags), [("c2", "open_at_end")]);
    }

    #[test]
    fn pending_only_result_replaced_in_place() {
        let mut diags = Vec::new();
        let out = close(
            msgs(json!([
                {"speaker": "ai", "blocks": [call("c1"), call("c2")]},
                {"speaker": "tool", "blocks": [
                    result("c1"),
                    {"type": "tool_response", "callId": "c2", "isComplete": false}
                ]},
                {"speaker": "human", "blocks": [text("next")]}
            ])),
            TEXT,
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1) call(c2)",
                "tool: result(c1) result(c2)*",
                "human: text"
            ]
        );
        assert_eq!(reasons(&diags), [("c2", "pending_result")]);
        // the replacement keeps the input position of what it replaced
        assert_eq!(out[1].items[1].origin, Some((1, 1)));
    }

    #[test]
    fn real_and_earlier_synthetic_completions_never_replaced() {
        let input = json!([
            {"speaker": "ai", "blocks": [call("c1"), call("c2"), call("c3"), call("c4")]},
            {"speaker": "tool", "blocks": [
                result("c1"),
                {"type": "tool_response", "callId": "c2", "error": "denied"},
                {"type": "tool_response", "callId": "c3", "isComplete": true},
                {"type": "tool_response", "callId": "c4", "synthetic": "open_at_end"}
            ]}
        ]);
        let mut diags = Vec::new();
        let out = close(msgs(input), TEXT, &mut diags);
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1) call(c2) call(c3) call(c4)",
                "tool: result(c1) error(c2) result(c3) result(c4)*"
            ]
        );
        assert_eq!(codes(&diags), NO_CODES);
    }

    #[test]
    fn result_stored_before_its_call_still_counts() {
        let mut diags = Vec::new();
        let out = close(
            msgs(json!([
                {"speaker": "tool", "blocks": [result("c1")]},
                {"speaker": "ai", "blocks": [call("c1")]}
            ])),
            TEXT,
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: result(c1)", "ai: call(c1)"]);
        assert_eq!(codes(&diags), NO_CODES);
    }

    #[test]
    fn each_calling_message_gets_its_own_synthetic_message() {
        let mut diags = Vec::new();
        let out = close(
            msgs(json!([
                {"speaker": "ai", "blocks": [call("c1")]},
                {"speaker": "ai", "blocks": [call("c2")]}
            ])),
            TEXT,
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1)",
                "tool: result(c1)*",
                "ai: call(c2)",
                "tool: result(c2)*"
            ]
        );
        assert_eq!(
            reasons(&diags),
            [("c1", "missing_result"), ("c2", "open_at_end")]
        );
    }
}
