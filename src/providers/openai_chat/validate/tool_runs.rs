//! Tool-call pairing across messages: `OAC-01`, `OAC-02` and `OAC-09`.

use crate::fast_map::HashSet;

use super::message::{Msg, Role};
use crate::providers::validate_support::{Findings, Path};

const OAC_01_MSG: &str = "Invalid parameter: messages with role 'tool' must be a response to a \
     preceeding message with 'tool_calls'.";

/// The open run of tool messages after an assistant message with tool_calls.
struct Run<'a> {
    /// Index of the assistant message that opened the run.
    assistant: usize,
    /// Its call ids.
    calls: Vec<&'a str>,
    /// Call ids answered so far.
    answered: HashSet<&'a str>,
}

impl Run<'_> {
    /// OAC-02: every call id was answered before the run ended.
    fn close(self, out: &mut Findings) {
        let mut missing: Vec<&str> = Vec::new();
        for id in &self.calls {
            if !self.answered.contains(id) && !missing.contains(id) {
                missing.push(id);
            }
        }
        if !missing.is_empty() {
            out.push(
                "OAC-02",
                Path::msg(self.assistant),
                format!(
                    "An assistant message with 'tool_calls' must be followed by tool messages \
                     responding to each 'tool_call_id'. The following tool_call_ids did not have \
                     response messages: {}",
                    missing.join(", ")
                ),
            );
        }
    }
}

/// OAC-01 (tool messages answer the preceding tool_calls), OAC-02 (every call answered before
/// the next non-tool message) and the "answered twice" half of OAC-09.
pub(super) fn check_oac_01_02_tool_runs(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut run: Option<Run<'_>> = None;
    for msg in msgs {
        if msg.is(Role::Tool) {
            let Some(open) = run.as_mut() else {
                out.push("OAC-01", msg.path().k("role"), OAC_01_MSG);
                continue;
            };
            let Some(id) = msg.tool_call_id() else {
                continue;
            };
            if !open.calls.contains(&id) {
                out.push(
                    "OAC-01",
                    msg.path().k("tool_call_id"),
                    format!(
                        "{OAC_01_MSG} tool_call_id {id:?} matches no tool call of messages[{}].",
                        open.assistant
                    ),
                );
            } else if !open.answered.insert(id) {
                out.push(
                    "OAC-09",
                    msg.path().k("tool_call_id"),
                    format!("tool_call_id {id:?} is answered by more than one tool message"),
                );
            }
            continue;
        }
        if let Some(open) = run.take() {
            open.close(out);
        }
        if msg.has_tool_calls() {
            run = Some(Run {
                assistant: msg.idx,
                calls: msg.call_ids().into_iter().map(|(_, id)| id).collect(),
                answered: HashSet::default(),
            });
        }
    }
    if let Some(open) = run.take() {
        open.close(out);
    }
}

/// OAC-09: tool-call ids are unique across the request.
pub(super) fn check_oac_09_unique_call_ids(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut seen = HashSet::default();
    for msg in msgs.iter().filter(|m| m.is(Role::Assistant)) {
        for (j, id) in msg.call_ids() {
            if !id.is_empty() && !seen.insert(id) {
                out.push(
                    "OAC-09",
                    msg.path().k("tool_calls").i(j).k("id"),
                    format!("tool call id {id:?} is used more than once in the request"),
                );
            }
        }
    }
}
