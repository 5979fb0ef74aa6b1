//! Tool-use / tool-result pairing across messages: `ANT-03` to `ANT-07`.

use crate::fast_map::HashSet;

use super::message::{block_type, Msg, Role, PAIRING};
use crate::providers::validate_support::{Findings, Path};

const ANT_05_TAIL: &str = "Messages following `tool_use` blocks must begin with a matching number \
     of `tool_result` blocks.";

/// Ids of the `tool_use` blocks of message `i - 1` when it is an assistant message.
fn previous_tool_use_ids<'a>(msgs: &[Msg<'a>], i: usize) -> Vec<&'a str> {
    i.checked_sub(1)
        .and_then(|p| msgs.get(p))
        .filter(|m| m.is(Role::Assistant))
        .map(|m| m.tool_use_ids().into_iter().map(|(_, id)| id).collect())
        .unwrap_or_default()
}

/// ANT-03: every tool_result in a user message answers a tool_use of the previous message.
pub(super) fn check_ant_03_results_answer_previous(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::User) {
            continue;
        }
        let prev = previous_tool_use_ids(msgs, i);
        for (b, id) in msg.tool_result_ids() {
            if !prev.contains(&id) {
                out.push(
                    "ANT-03",
                    Path::block(i, b).k("tool_use_id"),
                    format!(
                        "unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each \
                         `tool_result` block must have a corresponding `tool_use` block in the \
                         previous message."
                    ),
                );
            }
        }
    }
}

/// ANT-04: every tool_use of an assistant message is answered in the next (user) message.
pub(super) fn check_ant_04_uses_answered_next(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) {
            continue;
        }
        let uses = msg.tool_use_ids();
        if uses.is_empty() {
            continue;
        }
        let answered: Vec<&str> = msgs
            .get(i + 1)
            .filter(|m| m.is(Role::User))
            .map(|m| m.tool_result_ids().into_iter().map(|(_, id)| id).collect())
            .unwrap_or_default();
        let mut missing: Vec<&str> = Vec::new();
        for (_, id) in uses {
            if !answered.contains(&id) && !missing.contains(&id) {
                missing.push(id);
            }
        }
        if !missing.is_empty() {
            out.push(
                "ANT-04",
                Path::msg(i),
                format!(
                    "`tool_use` ids were found without `tool_result` blocks immediately after: \
                     {}. Each `tool_use` block must have a corresponding `tool_result` block in \
                     the next message.",
                    missing.join(", ")
                ),
            );
        }
    }
}

/// ANT-05: in a user message after tool_use, no other block precedes a tool_result.
pub(super) fn check_ant_05_results_first(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::User) {
            continue;
        }
        let expected = previous_tool_use_ids(msgs, i).len();
        if expected == 0 {
            continue;
        }
        let first_other = msg
            .blocks()
            .find(|(_, b)| block_type(b) != Some(PAIRING.result))
            .map(|(b, _)| b);
        let last_result = msg.blocks_of(PAIRING.result).map(|(b, _)| b).last();
        if let (Some(other), Some(result)) = (first_other, last_result) {
            if other < result {
                out.push(
                    "ANT-05",
                    Path::block(i, other),
                    format!(
                        "Did not find {expected} `tool_result` block(s) at the beginning of this \
                         message. {ANT_05_TAIL}"
                    ),
                );
            }
        }
    }
}

/// ANT-06: at most one tool_result per tool_use id within a message.
pub(super) fn check_ant_06_one_result_per_use(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        let mut seen = HashSet::default();
        for (b, id) in msg.tool_result_ids() {
            if !seen.insert(id) {
                out.push(
                    "ANT-06",
                    Path::block(i, b).k("tool_use_id"),
                    format!("more than one `tool_result` block for `tool_use` id {id}"),
                );
            }
        }
    }
}

/// ANT-07: tool_use ids are unique across the request.
pub(super) fn check_ant_07_unique_tool_use_ids(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut seen = HashSet::default();
    for (i, msg) in msgs.iter().enumerate() {
        for (b, id) in msg.tool_use_ids() {
            if !seen.insert(id) {
                out.push(
                    "ANT-07",
                    Path::block(i, b).k("id"),
                    "`tool_use` ids must be unique",
                );
            }
        }
    }
}
