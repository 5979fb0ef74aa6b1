//! Call identity: one canonical id per call, and every result pointed at the right call.
//!
//! - An exact repeat of a call that is still open (same id, name and arguments, no result yet),
//!   stored later in the same turn — nothing but tool messages or other calls in between — is
//!   the same call stored twice (864 failure mode A, a mis-assembled stream): the repeat is
//!   dropped. Identical calls without an id in one message are distinct parallel calls
//!   (servers that send no ids).
//! - A different call reusing an id (parallel calls from providers without ids, retries after
//!   the user spoke, providers that number calls per response) keeps its place but gets a
//!   distinct id `id~N`, chosen from earlier calls only, so ids never change as the
//!   conversation grows (REQ-915-016, 022, 049).
//! - Results are matched by the id they were stored with, then pointed at the call's final
//!   id. A result answers an open earlier call with its id: of the latest turn that has one,
//!   the earliest (parallel calls sharing an id are answered in order; a retry in a later turn
//!   is answered before the hung call it replaced). When every earlier such call is answered it
//!   refers to the latest one (a duplicate, for dedupe to settle). But when as many results
//!   with the id are still to come as there are open earlier calls with it, and the model spoke
//!   again after one of those calls before the user did (so its result existed then), each
//!   open call gets one in order: ids that restart every turn (`exec_0`, `exec_1` in each, as
//!   some Kimi clients number them) with the results stored together keep every real result.
//! - A result stored before any call with its id answers the first later call left without a
//!   result of its own; when there is none it answers nothing and the orphan pass handles it.

use crate::fast_map::{HashMap, HashSet};

use serde_json::Value;

use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// A call kept in the transcript.
struct Call {
    /// Its final id.
    id: String,
    /// The tool it calls (results that share an id are matched by name first).
    name: String,
    /// The turn it was made in (see `settle_calls`).
    turn: usize,
    /// Its position in the output, as (message, item).
    at: (usize, usize),
    /// Whether a result has been paired with it.
    answered: bool,
}

/// An open call of the current turn, for spotting repeats.
struct Open {
    name: String,
    /// Where it is: (output message, item); its arguments are read from there when compared.
    at: (usize, usize),
    id: String,
}

/// The arguments of the call at `at`: in `out`, or in `items` when it is the message `here`
/// being built.
fn parameters_at<'a>(
    out: &'a [Msg],
    items: &'a [Item],
    here: usize,
    at: (usize, usize),
) -> Option<&'a Value> {
    let item = if at.0 == here {
        items.get(at.1)
    } else {
        out.get(at.0).and_then(|m| m.items.get(at.1))
    };
    match item.map(|i| &i.block) {
        Some(Block::ToolCall(c)) => c.parameters.as_ref(),
        _ => None,
    }
}

pub(crate) fn assign(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let (mut msgs, mut calls) = settle_calls(msgs, diags);
    pair_results(&mut msgs, &mut calls);
    msgs
}

/// The first `original~N` not used yet, continuing from the last suffix given to `original`.
fn fresh_id(original: &str, used: &HashSet<String>, next: &mut HashMap<String, usize>) -> String {
    let n = next.entry(original.to_string()).or_insert(2);
    loop {
        let candidate = format!("{original}~{n}");
        *n += 1;
        if !used.contains(&candidate) {
            return candidate;
        }
    }
}

/// Drops same-turn repeats and gives reused ids distinct names. Returns the calls by the id
/// they were stored with, in order.
fn settle_calls(
    msgs: Vec<Msg>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, HashMap<String, Vec<Call>>) {
    let mut used: HashSet<String> = HashSet::default();
    let mut next_suffix: HashMap<String, usize> = HashMap::default();
    let mut calls: HashMap<String, Vec<Call>> = HashMap::default();
    // Open calls of the current turn by stored id. A turn ends at a user message or an
    // assistant message with anything besides calls; repeats across turns are retries.
    let mut open: HashMap<String, Vec<Open>> = HashMap::default();
    let mut turn = 0usize;

    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
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
            open.clear();
        }
        let here = out.len();
        let had_items = !msg.items.is_empty();
        let mut items = Vec::with_capacity(msg.items.len());
        for mut item in std::mem::take(&mut msg.items) {
            match &mut item.block {
                Block::ToolCall(call) => {
                    let original = call.id.clone();
                    let repeat_of = open.get(&original).and_then(|list| {
                        list.iter().find(|o| {
                            // within one message only a stored id marks a glitch
                            (o.at.0 != here || !original.is_empty())
                                && o.name == call.name
                                && parameters_at(&out, &items, here, o.at)
                                    == call.parameters.as_ref()
                        })
                    });
                    if let Some(first) = repeat_of {
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
                        let candidate = fresh_id(&original, &used, &mut next_suffix);
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
                    open.entry(original.clone()).or_default().push(Open {
                        name: call.name.clone(),
                        at: (here, items.len()),
                        id: id.clone(),
                    });
                    calls.entry(original).or_default().push(Call {
                        id: id.clone(),
                        name: call.name.clone(),
                        turn,
                        at: (here, items.len()),
                        answered: false,
                    });
                    call.id = id;
                }
                Block::ToolResponse(resp) => {
                    // A result closes the latest open call with its id, for repeat detection.
                    if let Some(list) = open.get_mut(&resp.call_id) {
                        list.pop();
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
    (out, calls)
}

/// The first candidate calling the result's tool, else the first candidate. (Providers without
/// call ids, such as Gemini, pair results with calls by name.)
fn pick<'a>(
    candidates: impl Iterator<Item = &'a mut Call>,
    name: Option<&str>,
) -> Option<&'a mut Call> {
    let mut first = None;
    for c in candidates {
        if name.is_some_and(|n| n == c.name) {
            return Some(c);
        }
        if first.is_none() {
            first = Some(c);
        }
    }
    first
}

/// Points every result at the final id of the call it answers (see the module doc). Results
/// stored after a call with their id are settled first, so a stray early result never takes
/// the place of a call's own result.
fn pair_results(msgs: &mut [Msg], calls: &mut HashMap<String, Vec<Call>>) {
    let mut early: Vec<(usize, usize)> = Vec::new();
    // For each stored id: the results still to come that are stored after a call with it.
    let mut to_come: HashMap<String, usize> = HashMap::default();
    for (mi, msg) in msgs.iter().enumerate() {
        for (bi, item) in msg.items.iter().enumerate() {
            if let Block::ToolResponse(resp) = &item.block {
                if calls
                    .get(&resp.call_id)
                    .is_some_and(|c| c.first().is_some_and(|c| c.at < (mi, bi)))
                {
                    *to_come.entry(resp.call_id.clone()).or_default() += 1;
                }
            }
        }
    }
    // For each message: whether the model spoke again after it before the user did (a call in
    // it was then answered at the time, whatever later message its result is stored in).
    let mut continued = vec![false; msgs.len()];
    let mut model_spoke = false;
    for (mi, msg) in msgs.iter().enumerate().rev() {
        if let Some(c) = continued.get_mut(mi) {
            *c = model_spoke;
        }
        match msg.speaker {
            Speaker::Ai => model_spoke = true,
            Speaker::Human => model_spoke = false,
            Speaker::Tool | Speaker::System => {}
        }
    }
    let was_answered = |c: &Call| continued.get(c.at.0).copied().unwrap_or(false);
    for (mi, msg) in msgs.iter_mut().enumerate() {
        for (bi, item) in msg.items.iter_mut().enumerate() {
            let Block::ToolResponse(resp) = &mut item.block else {
                continue;
            };
            let Some(candidates) = calls.get_mut(&resp.call_id) else {
                continue;
            };
            let earlier = candidates.iter().take_while(|c| c.at < (mi, bi)).count();
            if earlier == 0 {
                early.push((mi, bi));
                continue;
            }
            let name = resp.tool_name.as_deref();
            let left = to_come.get_mut(&resp.call_id).map_or(1, |n| {
                let left = *n;
                *n = n.saturating_sub(1);
                left
            });
            let before = &mut candidates[..earlier];
            let open = before.iter().filter(|c| !c.answered).count();
            let target = if open > 1
                && left >= open
                && before.iter().any(|c| !c.answered && was_answered(c))
            {
                // As many results to come as open calls, and the model went on past one of
                // them: ids that restart every turn (`exec_0` in each) with the results stored
                // together. Each open call gets one, in order.
                pick(before.iter_mut().filter(|c| !c.answered), name)
            } else {
                match before.iter().filter(|c| !c.answered).map(|c| c.turn).max() {
                    Some(turn) => pick(
                        before.iter_mut().filter(|c| !c.answered && c.turn == turn),
                        name,
                    ),
                    None => pick(before.iter_mut().rev(), name),
                }
            };
            if let Some(c) = target {
                c.answered = true;
                resp.call_id = c.id.clone();
            }
        }
    }
    for (mi, bi) in early {
        let Some(item) = msgs.get_mut(mi).and_then(|m| m.items.get_mut(bi)) else {
            continue;
        };
        let Block::ToolResponse(resp) = &mut item.block else {
            continue;
        };
        let name = resp.tool_name.as_deref();
        let target = calls
            .get_mut(&resp.call_id)
            .and_then(|c| pick(c.iter_mut().filter(|c| !c.answered), name));
        match target {
            Some(c) => {
                c.answered = true;
                resp.call_id = c.id.clone();
            }
            None => item.detached = true,
        }
    }
}

#[cfg(test)]
mod tests;
