//! Dedupe (REQ-915-009): at most one completion per call, keeping the best and saying why.
//!
//! Best means: a completed result, then an error, then a completion turnwire synthesised in an
//! earlier render, then a pending one; among equals the earliest.

use crate::fast_map::HashMap;

use super::work::{describe, Msg};
use crate::model::{Block, ToolResponseBlock};
use crate::vocab::{DedupeDecision, Diagnostic, DiagnosticCode, FaultClass};

fn rank(r: &ToolResponseBlock) -> u8 {
    r.preference()
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
    let mut best: HashMap<&str, (usize, usize, u8)> = HashMap::default();
    let mut losers: Vec<(usize, usize)> = Vec::new();
    for (mi, msg) in msgs.iter().enumerate() {
        for (bi, item) in msg.items.iter().enumerate() {
            let Block::ToolResponse(r) = &item.block else {
                continue;
            };
            let here = rank(r);
            match best.get(r.call_id.as_str()).copied() {
                None => {
                    best.insert(&r.call_id, (mi, bi, here));
                }
                Some((km, kb, kept_rank)) => {
                    let kept_item = &msgs[km].items[kb];
                    let (winner, loser, wr, lr) = if here < kept_rank {
                        best.insert(&r.call_id, (mi, bi, here));
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
                    // media attached to the dropped completion goes with it
                    let attached: Vec<_> = msgs[loser.0]
                        .items
                        .iter()
                        .skip(loser.1 + 1)
                        .take_while(|i| !matches!(i.block, Block::ToolResponse(_)))
                        .collect();
                    // the tools it loaded (tool changes, ANT-53) go with it: named
                    let loaded: Vec<String> = attached
                        .iter()
                        .filter_map(|i| match &i.block {
                            Block::ToolChange(c) => Some(format!("`{}`", c.describe())),
                            _ => None,
                        })
                        .collect();
                    let with = match (attached.len(), loaded.is_empty()) {
                        (0, _) => String::new(),
                        (n, true) => format!(" with {n} attached block(s)"),
                        (n, false) => format!(
                            " with {n} attached block(s) (it loaded {})",
                            loaded.join(", ")
                        ),
                    };
                    diags.push(Diagnostic {
                        dedupe: Some(DedupeDecision {
                            kept: describe(w_origin),
                            dropped: describe(l_origin),
                            kept_at: w_origin,
                            dropped_at: l_origin,
                            rationale: rationale.clone(),
                        }),
                        ..Diagnostic::new(
                            DiagnosticCode::DuplicateResultDropped,
                            FaultClass::CanonicalState,
                            format!(
                                "call `{}` had more than one completion; dropped the one at {}{with} ({rationale})",
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::{json, Value};

    fn completed(id: &str, text: &str) -> Value {
        json!({"type": "tool_response", "callId": id, "result": text})
    }

    fn errored(id: &str) -> Value {
        json!({"type": "tool_response", "callId": id, "error": "boom"})
    }

    fn synthetic(id: &str) -> Value {
        json!({"type": "tool_response", "callId": id, "error": "cancelled", "synthetic": "missing_result"})
    }

    fn pending(id: &str) -> Value {
        json!({"type": "tool_response", "callId": id, "isComplete": false})
    }

    fn rationale(d: &Diagnostic) -> (&str, &str, &str) {
        let dd = d.dedupe.as_ref().expect("a dedupe decision");
        (dd.kept.as_str(), dd.dropped.as_str(), dd.rationale.as_str())
    }

    #[test]
    fn completed_beats_error_even_when_later() {
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([{"speaker": "tool", "blocks": [errored("c1"), completed("c1", "ok")]}])),
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: result(c1)"]);
        assert_eq!(codes(&diags), ["duplicate_result_dropped"]);
        assert_eq!(
            rationale(&diags[0]),
            (
                "message 0 block 1",
                "message 0 block 0",
                "a completed result is preferred over an error result"
            )
        );
        assert_eq!(
            (diags[0].message_index, diags[0].block_index),
            (Some(0), Some(0))
        );
    }

    #[test]
    fn error_beats_synthetic_beats_pending() {
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([
                {"speaker": "tool", "blocks": [pending("c1"), synthetic("c1")]},
                {"speaker": "tool", "blocks": [synthetic("c2"), errored("c2")]}
            ])),
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: result(c1)*", "tool: error(c2)"]);
        assert_eq!(
            diags.iter().map(|d| rationale(d).2).collect::<Vec<_>>(),
            [
                "a synthetic completion is preferred over a pending result",
                "an error result is preferred over a synthetic completion"
            ]
        );
    }

    #[test]
    fn earliest_wins_among_equals() {
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([
                {"speaker": "tool", "blocks": [completed("c1", "first")]},
                {"speaker": "tool", "blocks": [completed("c1", "second"), completed("c1", "first")]}
            ])),
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: result(c1)"]);
        assert!(
            matches!(block(&out, 0, 0), Block::ToolResponse(r) if r.result == Some(json!("first")))
        );
        assert_eq!(
            diags.iter().map(|d| rationale(d).2).collect::<Vec<_>>(),
            [
                "both are a completed result; the earlier one is kept",
                "identical duplicate; the first copy is kept"
            ]
        );
    }

    #[test]
    fn attachments_go_with_the_dropped_result() {
        let gif = json!({"type": "media", "mimeType": "image/gif", "data": "R0lGODlh"});
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([
                {"speaker": "tool", "blocks": [errored("c1"), gif, completed("c2", "x"), completed("c1", "ok"), png()]}
            ])),
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            ["tool: result(c2) result(c1) media(image/png)"]
        );
        assert_eq!(codes(&diags), ["duplicate_result_dropped"]);
    }

    #[test]
    fn message_emptied_by_dedupe_removed_others_untouched() {
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([
                {"speaker": "ai", "blocks": [call("c1"), call("c2")]},
                {"speaker": "tool", "blocks": [result("c1"), result("c2")]},
                {"speaker": "tool", "blocks": [pending("c2")]}
            ])),
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            ["ai: call(c1) call(c2)", "tool: result(c1) result(c2)"]
        );
        assert_eq!(codes(&diags), ["duplicate_result_dropped"]);
        assert_eq!(diags[0].call_id.as_deref(), Some("c2"));
    }

    #[test]
    fn single_completions_untouched() {
        let mut diags = Vec::new();
        let out = dedupe(
            msgs(json!([
                {"speaker": "tool", "blocks": [pending("c1"), synthetic("c2"), errored("c3")]}
            ])),
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: pending(c1) result(c2)* error(c3)"]);
        assert_eq!(codes(&diags), NO_CODES);
    }
}
