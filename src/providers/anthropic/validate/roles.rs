//! Role order: `ANT-01` (first message is `user`) and `ANT-02` (roles alternate).

use super::message::{Msg, Role};
use crate::providers::validate_support::{Findings, Path};

const ANT_01_MSG: &str = "first message must use the \"user\" role";

/// ANT-01: the first message uses the user role.
pub(super) fn check_ant_01_first_user(msgs: &[Msg<'_>], out: &mut Findings) {
    // A system message first is the top-level `system` prompt's place (ANT-25).
    if msgs
        .first()
        .is_some_and(|m| m.is(Role::Assistant) || m.is(Role::System))
    {
        out.push("ANT-01", Path::msg(0).k("role"), ANT_01_MSG);
    }
}

/// ANT-02: no two consecutive messages with the same role.
pub(super) fn check_ant_02_alternation(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, pair) in msgs.windows(2).enumerate() {
        if let [prev, cur] = pair {
            if let (Some(a), Some(b)) = (prev.role, cur.role) {
                if a == b {
                    out.push(
                        "ANT-02",
                        Path::msg(i + 1).k("role"),
                        format!(
                            "roles must alternate between \"user\" and \"assistant\", but found \
                             multiple \"{}\" roles in a row",
                            b.name()
                        ),
                    );
                }
            }
        }
    }
}
