//! Tool-call ids: `KIM-01` (native `functions.{name}:{idx}` format, one counter across the
//! conversation, echoed verbatim by tool messages) and `KIM-04` (ids unique in the request).

use crate::fast_map::{HashMap, HashSet};

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;

/// `(name, idx)` of an id in Kimi's native format `functions.{name}:{idx}`, `idx` decimal digits.
fn parse_native(id: &str) -> Option<(&str, &str)> {
    let (name, idx) = id.strip_prefix("functions.")?.rsplit_once(':')?;
    let ok = !name.is_empty() && !idx.is_empty() && idx.bytes().all(|b| b.is_ascii_digit());
    ok.then_some((name, idx))
}

/// The counter value of `idx` without leading zeros (`"007"` and `"7"` are one index).
fn counter(idx: &str) -> &str {
    let trimmed = idx.trim_start_matches('0');
    if trimmed.is_empty() {
        "0"
    } else {
        trimmed
    }
}

fn format_message(what: &str, id: &str) -> String {
    format!(
        "{what} {id:?} is not in Kimi's native format `functions.{{name}}:{{idx}}` (idx a \
         non-negative integer); rewritten ids make Kimi stop calling tools"
    )
}

/// KIM-01 and KIM-04 on every call id; KIM-01 on every `tool_call_id`.
pub(super) fn check_kim_01_04_ids(msgs: &[WireMsg<'_>], out: &mut Findings) {
    // counter -> first id that used it.
    let mut counters: HashMap<&str, &str> = HashMap::default();
    let mut ids: HashSet<&str> = HashSet::default();
    for m in msgs {
        if m.is("assistant") {
            for call in m.calls() {
                let Some(id) = call.id else { continue };
                let path = m.path().k("tool_calls").i(call.j).k("id");
                if !ids.insert(id) {
                    out.push("KIM-04", path, format!("tool call id {id} is duplicated"));
                    continue;
                }
                let Some((name, idx)) = parse_native(id) else {
                    out.push("KIM-01", path, format_message("tool call id", id));
                    continue;
                };
                if let Some(called) = call.name.filter(|called| *called != name) {
                    out.push(
                        "KIM-01",
                        path,
                        format!(
                            "tool call id {id:?} names function {name:?}, but the call is to \
                             {called:?}; the id must be `functions.{called}:{idx}`"
                        ),
                    );
                    continue;
                }
                if let Some(first) = counters.get(counter(idx)) {
                    out.push(
                        "KIM-01",
                        path,
                        format!(
                            "tool call id {id:?} reuses index {idx} of {first:?}; Kimi's call \
                             index is a counter across the conversation, unique per call"
                        ),
                    );
                } else {
                    counters.insert(counter(idx), id);
                }
            }
        } else if m.is("tool") {
            if let Some(id) = m.tool_call_id() {
                if parse_native(id).is_none() {
                    out.push(
                        "KIM-01",
                        m.path().k("tool_call_id"),
                        format!(
                            "{}; a tool message echoes its call's id verbatim",
                            format_message("tool_call_id", id)
                        ),
                    );
                }
            }
        }
    }
}
