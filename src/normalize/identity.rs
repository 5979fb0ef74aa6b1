//! Call identity: one canonical id per call, and every result pointed at the right call.
//!
//! - An exact repeat of a call that is still open (same id, name and arguments, no result yet) is
//!   the same call stored twice: the repeat is dropped.
//! - A different call reusing an id (retries, providers that number calls per response) keeps
//!   its place but gets a distinct id `id~N`, chosen from earlier calls only, so ids never
//!   change as the conversation grows (REQ-915-016, 022, 049).
//! - A result refers to the most recent earlier call with its id; a result stored before any
//!   such call refers to the first later one (adjacency moves it).

use std::collections::{HashMap, HashSet};

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Msg};
use crate::model::Block;

pub(crate) fn assign(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let mut used: HashSet<String> = HashSet::new();
    // original id -> the id of the most recent call that used it
    let mut alias: HashMap<String, String> = HashMap::new();
    // assigned id -> (name, arguments) of calls that have no result yet
    let mut open: HashMap<String, (String, Option<serde_json::Value>)> = HashMap::new();

    let mut out = Vec::with_capacity(msgs.len());
    for mut msg in msgs {
        let mut items = Vec::with_capacity(msg.items.len());
        for mut item in std::mem::take(&mut msg.items) {
            match &mut item.block {
                Block::ToolCall(call) => {
                    let original = call.id.clone();
                    if let Some(current) = alias.get(&original) {
                        if let Some((name, params)) = open.get(current) {
                            if *name == call.name && *params == call.parameters {
                                diags.push(
                                    Diagnostic::new(
                                        DiagnosticCode::DuplicateCallDropped,
                                        FaultClass::CanonicalState,
                                        format!(
                                            "call `{original}` at {} repeats an open call with the same name and arguments; the repeat was dropped",
                                            describe(item.origin)
                                        ),
                                    )
                                    .at(item.origin)
                                    .call(current.clone()),
                                );
                                continue;
                            }
                        }
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
                    alias.insert(original, id.clone());
                    open.insert(id.clone(), (call.name.clone(), call.parameters.clone()));
                    call.id = id;
                }
                Block::ToolResponse(resp) => {
                    if let Some(current) = alias.get(&resp.call_id) {
                        resp.call_id = current.clone();
                    }
                    open.remove(&resp.call_id);
                }
                _ => {}
            }
            items.push(item);
        }
        msg.items = items;
        out.push(msg);
    }
    out
}
