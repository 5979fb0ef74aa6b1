//! Function-call pairing across items: `ORS-01`, `ORS-02`, `ORS-10`, plus the `ORS-STRUCT`
//! pairing checks (unique `call_id`s among function calls, at most one output per call). The
//! client-tool items (ORS-19) pair the same way, each with its own output type.

use crate::fast_map::{HashMap, HashSet};

use super::items::{Item, Kind};
use super::STRUCT;
use crate::providers::validate_support::Findings;

/// `call_id`s are unique among `function_call` items (a duplicate makes pairing ambiguous).
pub(super) fn check_unique_call_ids(items: &[Item<'_>], out: &mut Findings) {
    let mut seen = HashSet::default();
    for item in items.iter().filter(|i| i.is_call()) {
        if let Some(id) = item.call_id() {
            if !seen.insert(id) {
                out.push(
                    STRUCT,
                    item.path().k("call_id"),
                    format!(
                        "call_id {id:?} is used by more than one function_call; pairing with \
                         outputs is ambiguous"
                    ),
                );
            }
        }
    }
}

/// Pairs every output with the earliest earlier unanswered call of its `call_id`; reports
/// ORS-01 (no earlier call) and second outputs. Returns call index → output index.
fn pair_outputs(items: &[Item<'_>], chained: bool, out: &mut Findings) -> HashMap<usize, usize> {
    let mut open: Vec<(usize, &str)> = Vec::new();
    let mut called: HashSet<&str> = HashSet::default();
    let mut pairs = HashMap::default();
    for item in items {
        let Some(id) = item.call_id() else {
            continue;
        };
        match item.kind {
            _ if item.is_call() => {
                open.push((item.idx, id));
                called.insert(id);
            }
            _ if item.is_output() => {
                if let Some(k) = open.iter().position(|(_, c)| *c == id) {
                    let (call, _) = open.remove(k);
                    pairs.insert(call, item.idx);
                    check_ors_19_output_type(items.get(call), item, out);
                } else if called.contains(id) {
                    out.push(
                        STRUCT,
                        item.path().k("call_id"),
                        format!(
                            "more than one function_call_output for call_id {id:?}; each call \
                             has exactly one output"
                        ),
                    );
                } else if !chained {
                    let later = items
                        .iter()
                        .skip(item.idx + 1)
                        .find(|i| i.is_call() && i.call_id() == Some(id));
                    let tail = later.map_or(String::new(), |c| {
                        format!(
                            " (the function_call with this call_id comes later, at input[{}]; \
                             an output must follow its call)",
                            c.idx
                        )
                    });
                    out.push(
                        "ORS-01",
                        item.path().k(item.call_id_field()),
                        format!(
                            "No tool call found for {} with call_id {id}.{tail}",
                            spoken(item.kind.describe())
                        ),
                    );
                }
            }
            _ => {}
        }
    }
    pairs
}

/// ORS-01 (every output answers an earlier call; skipped for unmatched ids when
/// `previous_response_id` chains to calls not in `input`), ORS-02 (every call has its output
/// before the next message item or the end of input) and ORS-10 (no message item between a call
/// and its output).
pub(super) fn check_ors_01_02_10_pairing(items: &[Item<'_>], chained: bool, out: &mut Findings) {
    let pairs = pair_outputs(items, chained, out);
    for item in items.iter().filter(|i| i.is_call()) {
        let Some(id) = item.call_id() else {
            continue;
        };
        let Some(&output) = pairs.get(&item.idx) else {
            out.push(
                "ORS-02",
                item.path(),
                format!(
                    "No tool output found for {} {id}.",
                    spoken(item.kind.describe())
                ),
            );
            continue;
        };
        let between = items
            .get(item.idx + 1..output)
            .unwrap_or_default()
            .iter()
            .find(|i| i.is_message());
        let Some(msg) = between else {
            continue;
        };
        let what = msg.kind.describe();
        out.push(
            "ORS-02",
            item.path(),
            format!(
                "No tool output found for {} {id} before the {what} at input[{}] \
                 (strict: the outputs of a run of function calls follow that run, before any \
                 message item; this output comes later, at input[{output}]).",
                spoken(item.kind.describe()),
                msg.idx
            ),
        );
        if let Some(o) = items.get(output) {
            out.push(
                "ORS-10",
                o.path(),
                format!(
                    "function_call_output for call_id {id} is separated from its function_call \
                     at input[{}] by the {what} at input[{}]; strict: outputs stay adjacent to \
                     their calls, with no message item in between.",
                    item.idx, msg.idx
                ),
            );
        }
    }
}

/// An item type as the API's messages say it (`function_call_output` → `function call output`).
fn spoken(t: String) -> String {
    t.replace('_', " ")
}

/// ORS-19: a client-tool call is answered by its own output type (`apply_patch_call` by
/// `apply_patch_call_output`), a function call by `function_call_output`.
fn check_ors_19_output_type(call: Option<&Item<'_>>, output: &Item<'_>, out: &mut Findings) {
    let Some(call) = call else {
        return;
    };
    let expected = match call.kind {
        Kind::ClientCall(k) => k.output,
        _ => "function_call_output",
    };
    let got = output.kind.describe();
    if got != expected {
        out.push(
            "ORS-19",
            output.path().k("type"),
            format!(
                "No tool call found for {} with call_id {} (the {} at input[{}] is answered by a {expected}).",
                spoken(got.clone()),
                output.call_id().unwrap_or_default(),
                call.kind.describe(),
                call.idx
            ),
        );
    }
}
