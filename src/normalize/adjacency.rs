//! Adjacency (REQ-915-008): every result right after the message that made its call, in call
//! order, all results of one assistant message in one tool message.
//!
//! The pass rebuilds placement: it takes every result (with the media attached to it) out of
//! the tool messages and puts it back after its call. Nothing is replaced; a result that had to
//! move across other messages is reported.

use crate::fast_map::HashMap;

use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// A result and the items that travel with it, plus the index of the message it came from.
struct Carried {
    items: Vec<Item>,
    from: usize,
}

pub(crate) fn place(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    // Which calling message owns each tool message run: run_owner[j] = i when message j is in
    // the unbroken run of tool messages right after assistant message i.
    let mut run_owner: Vec<Option<usize>> = vec![None; msgs.len()];
    let mut owner = None;
    for (j, m) in msgs.iter().enumerate() {
        match m.speaker {
            Speaker::Tool => run_owner[j] = owner,
            Speaker::Ai if m.has_calls() => owner = Some(j),
            // A system message between a call and its results leaves the call answered in
            // place (the results go first, the system message after them, ANT-25).
            Speaker::System => {}
            _ => owner = None,
        }
    }

    let mut carried: HashMap<String, Carried> = HashMap::default();
    let mut rest: Vec<Option<Msg>> = Vec::with_capacity(msgs.len());
    for (j, mut m) in msgs.into_iter().enumerate() {
        if m.speaker != Speaker::Tool {
            rest.push(Some(m));
            continue;
        }
        let mut leftovers: Vec<Item> = Vec::new();
        let mut current: Option<String> = None;
        for item in std::mem::take(&mut m.items) {
            match &item.block {
                Block::ToolResponse(r) => {
                    let id = r.call_id.clone();
                    current = Some(id.clone());
                    carried.insert(
                        id,
                        Carried {
                            items: vec![item],
                            from: j,
                        },
                    );
                }
                _ => match current.as_ref().and_then(|id| carried.get_mut(id)) {
                    Some(c) => c.items.push(item),
                    None => leftovers.push(item),
                },
            }
        }
        if leftovers.is_empty() {
            rest.push(None);
        } else {
            // Content that answers no call is the user's, where it stood.
            m.speaker = Speaker::Human;
            m.items = leftovers;
            rest.push(Some(m));
        }
    }

    let mut out = Vec::with_capacity(rest.len());
    for (i, slot) in rest.into_iter().enumerate() {
        let Some(m) = slot else { continue };
        let call_ids: Vec<(String, Option<(usize, usize)>)> = m
            .items
            .iter()
            .filter_map(|it| match &it.block {
                Block::ToolCall(c) => Some((c.id.clone(), it.origin)),
                _ => None,
            })
            .collect();
        let is_caller = m.speaker == Speaker::Ai && !call_ids.is_empty();
        let template = m.sibling(Speaker::Tool, Vec::new());
        out.push(m);
        if !is_caller {
            continue;
        }
        let mut results: Vec<Item> = Vec::new();
        for (id, _) in &call_ids {
            let Some(c) = carried.remove(id) else {
                continue;
            };
            let real = c.items.first().and_then(|it| it.origin);
            if real.is_some() && run_owner.get(c.from).copied().flatten() != Some(i) {
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::ResultMoved,
                        FaultClass::PairingOrdering,
                        format!(
                            "result for call `{id}` at {} was not directly after its call; moved there",
                            describe(real)
                        ),
                    )
                    .at(real)
                    .call(id.clone()),
                );
            }
            results.extend(c.items);
        }
        if !results.is_empty() {
            let mut tool = template;
            tool.metadata = None;
            tool.extra = Default::default();
            tool.origin = results.first().and_then(|it| it.origin).map(|o| o.0);
            tool.items = results;
            out.push(tool);
        }
    }
    // Results whose call is not in any assistant message cannot remain after the orphan pass;
    // if one did, it is kept (in input order) rather than lost.
    let mut left: Vec<Carried> = carried.into_values().collect();
    left.sort_by_key(|c| (c.from, c.items.first().and_then(|i| i.origin)));
    for c in left {
        out.push(Msg::made_up(Speaker::Tool, c.items));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::json;

    fn run(v: serde_json::Value) -> (Vec<String>, Vec<String>) {
        let mut diags = Vec::new();
        let out = place(msgs(v), &mut diags);
        (shape(&out), codes(&diags))
    }

    #[test]
    fn result_after_the_next_user_turn_moved_back_to_its_call() {
        let mut diags = Vec::new();
        let out = place(
            msgs(json!([
                {"speaker": "ai", "blocks": [call("c1")]},
                {"speaker": "human", "blocks": [text("well?")]},
                {"speaker": "tool", "blocks": [result("c1")]}
            ])),
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            ["ai: call(c1)", "tool: result(c1)", "human: text"]
        );
        assert_eq!(codes(&diags), ["result_moved"]);
        assert_eq!(diags[0].call_id.as_deref(), Some("c1"));
        assert_eq!(
            (diags[0].message_index, diags[0].block_index),
            (Some(2), Some(0))
        );
        // the rebuilt tool message takes the input position of its first result
        assert_eq!(out[1].origin, Some(2));
    }

    #[test]
    fn ant_25_a_system_message_between_a_call_and_its_result_leaves_the_call_answered() {
        let (s, c) = run(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "system", "blocks": [text("be terse")]},
            {"speaker": "tool", "blocks": [result("c1")]}
        ]));
        assert_eq!(s, ["ai: call(c1)", "tool: result(c1)", "system: text"]);
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn result_stored_before_its_call_moved_after_it() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "ai", "blocks": [call("c1")]}
        ]));
        assert_eq!(s, ["ai: call(c1)", "tool: result(c1)"]);
        assert_eq!(c, ["result_moved"]);
    }

    #[test]
    fn results_put_in_call_order_without_result_moved() {
        let (s, c) = run(json!([
            {"speaker": "ai", "blocks": [call("c1"), call("c2"), call("c3")]},
            {"speaker": "tool", "blocks": [result("c3"), result("c1")]},
            {"speaker": "tool", "blocks": [result("c2")]}
        ]));
        // results from several tool messages right after the call merge into one
        assert_eq!(
            s,
            [
                "ai: call(c1) call(c2) call(c3)",
                "tool: result(c1) result(c2) result(c3)"
            ]
        );
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn media_travels_with_its_result() {
        let (s, c) = run(json!([
            {"speaker": "ai", "blocks": [call("c1"), call("c2")]},
            {"speaker": "tool", "blocks": [result("c2"), png(), result("c1")]}
        ]));
        assert_eq!(
            s,
            [
                "ai: call(c1) call(c2)",
                "tool: result(c1) result(c2) media(image/png)"
            ]
        );
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn leftover_media_becomes_user_content_where_it_stood() {
        let (s, c) = run(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [png(), result("c1")]},
            {"speaker": "ai", "blocks": [text("done")]}
        ]));
        assert_eq!(
            s,
            [
                "ai: call(c1)",
                "tool: result(c1)",
                "human: media(image/png)",
                "ai: text"
            ]
        );
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn made_up_result_placed_without_diagnostic() {
        let mut input = msgs(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "human", "blocks": [text("next")]},
            {"speaker": "tool", "blocks": [result("c1")]}
        ]));
        input[2].items[0].origin = None;
        let mut diags = Vec::new();
        let out = place(input, &mut diags);
        assert_eq!(
            shape(&out),
            ["ai: call(c1)", "tool: result(c1)", "human: text"]
        );
        assert_eq!(codes(&diags), NO_CODES);
    }

    #[test]
    fn result_without_any_call_kept_at_the_end() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [result("zz")]},
            {"speaker": "human", "blocks": [text("hi")]}
        ]));
        assert_eq!(s, ["human: text", "tool: result(zz)"]);
        assert_eq!(c, NO_CODES);
    }
}
