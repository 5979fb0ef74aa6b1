//! `COMPAT-IDS`: tool-call ids within the server's length and character set (replaces OAC-03's
//! fixed 40 characters).

use super::rules::CompatRules;
use super::view::WireMsg;
use crate::providers::validate_support::{Findings, Path};

/// Rule id of the id length/charset check.
const RULE: &str = "COMPAT-IDS";

/// Every `tool_calls[].id` and `tool_call_id` is at most `max_id_len` characters of
/// `id_charset`. Empty ids are OAC-04's.
pub(super) fn check_compat_ids(msgs: &[WireMsg<'_>], rules: &CompatRules, out: &mut Findings) {
    for m in msgs {
        if m.is("assistant") {
            for call in m.calls() {
                if let Some(id) = call.id {
                    let path = m.path().k("tool_calls").i(call.j).k("id");
                    check_id(id, path, rules, out);
                }
            }
        } else if m.is("tool") {
            if let Some(id) = m.tool_call_id() {
                check_id(id, m.path().k("tool_call_id"), rules, out);
            }
        }
    }
}

fn check_id(id: &str, path: Path, rules: &CompatRules, out: &mut Findings) {
    let len = id.chars().count();
    if len == 0 {
        return;
    }
    if len > rules.max_id_len {
        out.push(
            RULE,
            path,
            format!(
                "string too long. Expected a string with maximum length {}, but got a string \
                 with length {len} instead.",
                rules.max_id_len
            ),
        );
    } else if let Some(c) = id.chars().find(|c| !rules.id_charset.allows(*c)) {
        out.push(
            RULE,
            path,
            format!(
                "tool call id {id:?} contains {c:?}; this server accepts only {} in ids",
                rules.id_charset.pattern()
            ),
        );
    }
}
