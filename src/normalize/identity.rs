//! Call identity: one canonical id per call, and every result pointed at the right call.
//!
//! - An exact repeat of a call that is still open (same id, name and arguments, no result yet)
//!   stored in the same turn — nothing but tool messages or other calls in between — is the
//!   same call stored twice (864 failure mode A): the repeat is dropped.
//! - A different call reusing an id (parallel calls from providers without ids, retries after
//!   the user spoke, providers that number calls per response) keeps its place but gets a
//!   distinct id `id~N`, chosen from earlier calls only, so ids never change as the
//!   conversation grows (REQ-915-016, 022, 049).
//! - A result answers an open earlier call with its id: of the latest turn that has one, the
//!   earliest (parallel calls sharing an id are answered in order; a retry in a later turn is
//!   answered before the hung call it replaced). When every such call is answered it refers to
//!   the latest one (a duplicate, for dedupe to settle); a result stored before any such call
//!   refers to the first later one (adjacency moves it).

use std::collections::{HashMap, HashSet};

use serde_json::Value;

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Msg};
use crate::model::{Block, Speaker};

/// A call seen so far.
struct Seen {
    id: String,
    name: String,
    parameters: Option<Value>,
    /// The turn it was made in (see `turn` below).
    turn: usize,
    open: bool,
}

pub(crate) fn assign(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let mut used: HashSet<String> = HashSet::new();
    // original id -> every call that used it, in order
    let mut calls: HashMap<String, Vec<Seen>> = HashMap::new();
    // Counts messages that move the conversation on: user messages and assistant messages
    // with anything besides calls. Repeats within one turn are duplicates; across turns, retries.
    let mut turn = 0usize;

    let mut out = Vec::with_capacity(msgs.len());
    for mut msg in msgs {
        let moves_on = match msg.speaker {
            Speaker::Human | Speaker::System => true,
            Speaker::Ai => msg
                .items
                .iter()
                .any(|i| !matches!(i.block, Block::ToolCall(_))),
            Speaker::Tool => false,
        };
        if moves_on {
            turn += 1;
        }
        let had_items = !msg.items.is_empty();
        let mut items = Vec::with_capacity(msg.items.len());
        for mut item in std::mem::take(&mut msg.items) {
            match &mut item.block {
                Block::ToolCall(call) => {
                    let original = call.id.clone();
                    let same_turn_repeat = calls.get(&original).and_then(|seen| {
                        seen.iter().find(|s| {
                            s.open
                                && s.turn == turn
                                && s.name == call.name
                                && s.parameters == call.parameters
                        })
                    });
                    if let Some(first) = same_turn_repeat {
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::DuplicateCallDropped,
                                FaultClass::CanonicalState,
                                format!(
                                    "call `{original}` at {} repeats an open call of the same turn with the same name and arguments; the repeat was dropped",
                                    describe(item.origin)
                                ),
                            )
                            .at(item.origin)
                            .call(first.id.clone()),
                        );
                        continue;
                    }
                    let id = if used.contains(&original) {
                        let mut n = 2usize;
                        let mut candidate = format!("{original}~{n}");
                        while used.contains(&candidate) {
                            n += 1;
                            candidate = format!("{original}~{n}");
                        }
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::DuplicateCallIdRenamed,
                                FaultClass::CanonicalState,
                                format!(
                                    "call at {} reuses id `{original}` of an earlier call; it is rendered as `{candidate}`",
                                    describe(item.origin)
                                ),
                            )
                            .at(item.origin)
                            .call(candidate.clone()),
                        );
                        candidate
                    } else {
                        original.clone()
                    };
                    used.insert(id.clone());
                    calls.entry(original).or_default().push(Seen {
                        id: id.clone(),
                        name: call.name.clone(),
                        parameters: call.parameters.clone(),
                        turn,
                        open: true,
                    });
                    call.id = id;
                }
                Block::ToolResponse(resp) => {
                    if let Some(seen) = calls.get_mut(&resp.call_id) {
                        // The latest turn with open calls of this id, its earliest open call.
                        let latest_open_turn = seen.iter().filter(|s| s.open).map(|s| s.turn).max();
                        let target = match latest_open_turn {
                            Some(t) => seen.iter_mut().find(|s| s.open && s.turn == t),
                            None => seen.last_mut(),
                        };
                        if let Some(s) = target {
                            s.open = false;
                            resp.call_id = s.id.clone();
                        }
                    }
                }
                _ => {}
            }
            items.push(item);
        }
        // A message whose only blocks were dropped repeats goes away with them.
        if had_items && items.is_empty() {
            continue;
        }
        msg.items = items;
        out.push(msg);
    }
    out
}
