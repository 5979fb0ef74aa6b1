//! Dedupe (REQ-915-009): at most one completion per call, keeping the best and saying why.
//!
//! Best means: a completed result, then an error, then a completion turnwire synthesised in an
//! earlier render, then a pending one; among equals the earliest.

use std::collections::HashMap;

use super::diagnostic::{DedupeDecision, Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Msg};
use crate::model::{Block, ToolResponseBlock, ToolStatus};

fn rank(r: &ToolResponseBlock) -> u8 {
    match (r.synthetic.is_some(), r.status()) {
        (false, ToolStatus::Complete) => 0,
        (false, ToolStatus::Errored) => 1,
        (true, _) => 2,
        (false, ToolStatus::Pending) => 3,
    }
}

fn rank_name(rank: u8) -> &'static str {
    match rank {
        0 => "a completed result",
        1 => "an error result",
        2 => "a synthetic completion",
        _ => "a pending result",
    }
}

pub(crate) fn dedupe(mut msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    // call id -> (message, item, rank) of the best completion so far
    let mut best: HashMap<String, (usize, usize, u8)> = HashMap::new();
    let mut losers: Vec<(usize, usize)> = Vec::new();
    for (mi, msg) in msgs.iter().enumerate() {
        for (bi, item) in msg.items.iter().enumerate() {
            let Block::ToolResponse(r) = &item.block else {
                continue;
            };
            let here = rank(r);
            match best.get(&r.call_id).copied() {
                None => {
                    best.insert(r.call_id.clone(), (mi, bi, here));
                }
                Some((km, kb, kept_rank)) => {
                    let kept_item = &msgs[km].items[kb];
                    let (winner, loser, wr, lr) = if here < kept_rank {
                        best.insert(r.call_id.clone(), (mi, bi, here));
                        ((mi, bi), (km, kb), here, kept_rank)
                    } else {
                        ((km, kb), (mi, bi), kept_rank, here)
                    };
                    let identical = matches!(&kept_item.block, Block::ToolResponse(k) if k == r);
                    let rationale = if identical {
                        "identical duplicate; the first copy is kept".to_string()
                    } else if wr == lr {
                        format!("both are {}; the earlier one is kept", rank_name(wr))
                    } else {
                        format!("{} is preferred over {}", rank_name(wr), rank_name(lr))
                    };
                    let w_origin = msgs[winner.0].items[winner.1].origin;
                    let l_origin = msgs[loser.0].items[loser.1].origin;
                    diags.push(Diagnostic {
                        dedupe: Some(DedupeDecision {
                            kept: describe(w_origin),
                            dropped: describe(l_origin),
                            rationale: rationale.clone(),
                        }),
                        ..Diagnostic::new(
                            DiagnosticCode::DuplicateResultDropped,
                            FaultClass::CanonicalState,
                            format!(
                                "call `{}` had more than one completion; dropped the one at {} ({rationale})",
                                r.call_id,
                                describe(l_origin)
                            ),
                        )
                        .at(l_origin)
                        .call(r.call_id.clone())
                    });
                    losers.push(loser);
                }
            }
        }
    }
    if losers.is_empty() {
        return msgs;
    }
    losers.sort_unstable();
    for (mi, bi) in losers.into_iter().rev() {
        if let Some(msg) = msgs.get_mut(mi) {
            if bi < msg.items.len() {
                // attachments (media) that followed the dropped response go with it
                let mut end = bi + 1;
                while end < msg.items.len()
                    && !matches!(msg.items[end].block, Block::ToolResponse(_))
                {
                    end += 1;
                }
                msg.items.drain(bi..end);
            }
        }
    }
    msgs.retain(|m| !m.items.is_empty());
    msgs
}
