//! `KIM-06`: every tool message's `tool_call_id` names a call made earlier in the history and
//! is not empty (Kimi's wording of OAC-01 and OAC-04).

use crate::fast_map::HashSet;

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;

/// KIM-06: `Invalid request: tool_call_id {id} is not found` for a tool message whose
/// `tool_call_id` is empty or matches no earlier `tool_calls[].id` (reported besides OAC-01 /
/// OAC-04, so matchers of Kimi's text find it).
pub(super) fn check_kim_06_tool_call_id_found(msgs: &[WireMsg<'_>], out: &mut Findings) {
    let mut called: HashSet<&str> = HashSet::default();
    for m in msgs {
        if m.is("assistant") {
            called.extend(m.calls().into_iter().filter_map(|c| c.id));
        } else if m.is("tool") {
            let Some(id) = m.tool_call_id() else {
                continue;
            };
            if id.is_empty() || !called.contains(id) {
                out.push(
                    "KIM-06",
                    m.path().k("tool_call_id"),
                    format!("Invalid request: tool_call_id {id} is not found"),
                );
            }
        }
    }
}
