//! `MIS-01`: tool-call ids are exactly 9 characters of `[a-zA-Z0-9]`.

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::{Findings, Path};

/// Length of a Mistral tool-call id.
const ID_LEN: usize = 9;

/// MIS-01 on every `tool_calls[].id` and `tool_call_id`.
pub(super) fn check_mis_01_ids(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for m in msgs {
        if m.is("assistant") {
            for call in m.calls() {
                if let Some(id) = call.id {
                    check_id(id, m.path().k("tool_calls").i(call.j).k("id"), out);
                }
            }
        } else if m.is("tool") {
            if let Some(id) = m.tool_call_id() {
                check_id(id, m.path().k("tool_call_id"), out);
            }
        }
    }
}

fn check_id(id: &str, path: Path, out: &mut Findings) {
    let ok = id.len() == ID_LEN && id.chars().all(|c| c.is_ascii_alphanumeric());
    if !ok {
        out.push(
            "MIS-01",
            path,
            format!("Tool call id was {id} but must be a-z, A-Z, 0-9, with a length of 9."),
        );
    }
}
