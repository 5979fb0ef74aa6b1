//! Closure (REQ-915-007, 011…013, 044): exactly one completion per call.
//!
//! A call without any result gets one synthetic completion; a call whose only result is still
//! pending has it replaced by a synthetic one. Real completions are never replaced or
//! duplicated. Placement is left to the adjacency pass.

use std::collections::HashMap;

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass, SyntheticReasonCode};
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker, SyntheticReason, ToolResponseBlock, ToolStatus};

fn synthetic(call_id: &str, name: &str, text: &str, reason: SyntheticReason) -> ToolResponseBlock {
    ToolResponseBlock {
        call_id: call_id.to_string(),
        tool_name: Some(name.to_string()),
        result: None,
        error: Some(text.to_string()),
        is_complete: None,
        synthetic: Some(reason),
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
    let mut responses: HashMap<String, (usize, usize)> = HashMap::new();
    for (mi, m) in msgs.iter().enumerate() {
        for (bi, item) in m.items.iter().enumerate() {
            if let Block::ToolResponse(r) = &item.block {
                responses.insert(r.call_id.clone(), (mi, bi));
            }
        }
    }
    // index of the last message that moves the conversation on (not a tool message)
    let last_turn = msgs.iter().rposition(|m| m.speaker != Speaker::Tool);

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
                    let reason = if last_turn.is_some_and(|l| l > mi) {
                        SyntheticReason::MissingResult
                    } else {
                        SyntheticReason::OpenAtEnd
                    };
                    diags.push(diag(&call.id, &call.name, reason, item.origin));
                    missing.push(Item {
                        block: Block::ToolResponse(synthetic(&call.id, &call.name, text, reason)),
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
