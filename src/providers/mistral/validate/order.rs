//! Message order: `MIS-02` (no `user` right after `tool`, no `tool` right after `user`) and
//! `MIS-05` (what the last message may be).

use serde_json::Value;

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;

/// MIS-02 on each pair of neighbouring messages.
pub(super) fn check_mis_02_tool_user_order(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for pair in msgs.windows(2) {
        let [prev, cur] = pair else { continue };
        if prev.idx + 1 != cur.idx {
            continue;
        }
        let (Some(prev_role), Some(cur_role)) = (prev.role(), cur.role()) else {
            continue;
        };
        if matches!((prev_role, cur_role), ("tool", "user") | ("user", "tool")) {
            out.push(
                "MIS-02",
                cur.path().k("role"),
                format!("Unexpected role '{cur_role}' after role '{prev_role}'"),
            );
        }
    }
}

/// MIS-05: the last message is `user` or `tool`, or `assistant` with `"prefix": true`.
pub(super) fn check_mis_05_last_role(body: &Value, msgs: &[WireMsg<'_>], out: &mut Findings) {
    let total = body
        .get("messages")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let Some(last) = msgs.last().filter(|m| m.idx + 1 == total) else {
        return;
    };
    let role = last.role();
    let ok = match role {
        Some("user" | "tool") => true,
        Some("assistant") => last.obj.get("prefix") == Some(&Value::Bool(true)),
        _ => false,
    };
    if !ok {
        out.push(
            "MIS-05",
            last.path().k("role"),
            format!(
                "Expected last role User or Tool (or Assistant with prefix True) for serving but \
                 got {}",
                role.unwrap_or("no role")
            ),
        );
    }
}
