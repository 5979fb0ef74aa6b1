//! Turn structure: `GEM-01` (one response per call, all in the next user content), `GEM-02`
//! (a function call turn follows a user turn), `GEM-03` (a function response turn follows a
//! function call turn) and `GEM-04` (first content `user`, no two consecutive contents with the
//! same role).

use serde_json::Value;

use super::call_ids::GEM_22_MISMATCH;
use super::contents::{Content, Part, Role};
use super::parts::PartKind;
use crate::providers::validate_support::Findings;
use crate::vocab::{Pairing, WireApi};

/// Where Gemini keeps function calls and their responses.
const PAIRING: Pairing = WireApi::GenerateContent.pairing();

pub(super) const GEM_01_MSG: &str =
    "Please ensure that the number of function response parts is equal to \
     the number of function call parts of the function call turn.";

const GEM_02_MSG: &str = "Please ensure that function call turn comes immediately after a user \
     turn or after a function response turn.";

const GEM_03_MSG: &str =
    "Please ensure that function response turn comes immediately after a function call turn.";

/// `(name, id)` of a function call or response, when they are strings.
type NameId<'a> = (Option<&'a str>, Option<&'a str>);

/// `(name, id)` of a function call or response part (`key` is its data member).
fn name_and_id<'a>(part: &Part<'a>, key: &str) -> NameId<'a> {
    let data = part.data(key);
    let get = |k: &str| data.and_then(|d| d.get(k)).and_then(Value::as_str);
    let id = if key == PAIRING.call {
        PAIRING.call_id
    } else {
        PAIRING.result_id
    };
    (get("name"), get(id))
}

/// GEM-01: every function call turn is followed by ONE user content holding exactly as many
/// `functionResponse` parts, with matching names (and matching ids when ids are used).
pub(super) fn check_gem_01_responses_match_calls(contents: &[Content<'_>], out: &mut Findings) {
    for (i, c) in contents.iter().enumerate() {
        if !c.is_call_turn() {
            continue;
        }
        let calls: Vec<NameId<'_>> = c
            .parts_of(PartKind::FunctionCall)
            .map(|p| name_and_id(p, PAIRING.call))
            .collect();
        let Some(next) = contents.get(i + 1).filter(|n| n.is(Role::User)) else {
            let after = match contents.get(i + 1) {
                None => "the request ends".to_string(),
                Some(n) => format!("contents[{}] is not a user content", n.idx),
            };
            out.push(
                "GEM-01",
                c.path(),
                format!(
                    "{GEM_01_MSG} (the function call turn at contents[{}] has {} functionCall \
                     part(s), but {after}; every functionCall needs its functionResponse in the \
                     next user content)",
                    c.idx,
                    calls.len()
                ),
            );
            continue;
        };
        let responses: Vec<&Part<'_>> = next.parts_of(PartKind::FunctionResponse).collect();
        if responses.len() != calls.len() {
            out.push(
                "GEM-01",
                next.path(),
                format!(
                    "{GEM_01_MSG} (contents[{}] has {} functionResponse part(s) for the {} \
                     functionCall part(s) of contents[{}]; all responses go into this one \
                     content)",
                    next.idx,
                    responses.len(),
                    calls.len(),
                    c.idx
                ),
            );
        }
        match_responses(c, &calls, next, &responses, out);
    }
}

/// GEM-01 names and GEM-22 ids: each response answers a distinct call of `call_turn` — by id
/// when ids are used (on any call or response: a response without one, or with an id no
/// unanswered call has, is GEM-22), by name otherwise — and names agree.
fn match_responses(
    call_turn: &Content<'_>,
    calls: &[NameId<'_>],
    resp_turn: &Content<'_>,
    responses: &[&Part<'_>],
    out: &mut Findings,
) {
    let ids_used = calls.iter().any(|(_, id)| id.is_some())
        || responses
            .iter()
            .any(|p| name_and_id(p, PAIRING.result).1.is_some());
    let mut used = vec![false; calls.len()];
    let ct = call_turn.idx;
    for part in responses {
        let (name, id) = name_and_id(part, PAIRING.result);
        let fpath = resp_turn.part_path(part.idx).k("functionResponse");
        if ids_used {
            let Some(rid) = id else {
                out.push(
                    "GEM-22",
                    fpath,
                    format!(
                        "{GEM_22_MISMATCH} (this functionResponse has no id, but ids are used \
                         for the function calls of contents[{ct}]; each response carries the id \
                         of its call) [inferred]"
                    ),
                );
                continue;
            };
            let Some(k) = first_free(calls, &used, |c| c.1 == Some(rid)) else {
                out.push(
                    "GEM-22",
                    fpath.k("id"),
                    format!(
                        "{GEM_22_MISMATCH} (functionResponse id {rid:?} matches no unanswered \
                         functionCall id of contents[{ct}])"
                    ),
                );
                continue;
            };
            if let Some(slot) = used.get_mut(k) {
                *slot = true;
            }
            let call_name = calls.get(k).and_then(|c| c.0);
            if let (Some(n), Some(cn)) = (name, call_name) {
                if n != cn {
                    out.push(
                        "GEM-01",
                        fpath.k("name"),
                        format!(
                            "functionResponse name {n:?} does not match the name {cn:?} of \
                             functionCall id {rid:?} in contents[{ct}]"
                        ),
                    );
                }
            }
        } else {
            let Some(n) = name else {
                continue;
            };
            match first_free(calls, &used, |c| c.0 == Some(n)) {
                Some(k) => {
                    if let Some(slot) = used.get_mut(k) {
                        *slot = true;
                    }
                }
                None => out.push(
                    "GEM-01",
                    fpath.k("name"),
                    format!(
                        "functionResponse name {n:?} matches no unanswered functionCall of \
                         contents[{ct}]"
                    ),
                ),
            }
        }
    }
}

/// The first call not answered yet that satisfies `pred`.
fn first_free(
    calls: &[NameId<'_>],
    used: &[bool],
    pred: impl Fn(&NameId<'_>) -> bool,
) -> Option<usize> {
    calls
        .iter()
        .enumerate()
        .position(|(k, c)| !used.get(k).copied().unwrap_or(true) && pred(c))
}

/// GEM-02: a model content with `functionCall` parts comes right after a user content (with
/// text/media or function responses) — not first, not after another model content.
pub(super) fn check_gem_02_call_turn_position(contents: &[Content<'_>], out: &mut Findings) {
    for (i, c) in contents.iter().enumerate() {
        if !c.is_call_turn() {
            continue;
        }
        let prev_role = i
            .checked_sub(1)
            .and_then(|p| contents.get(p))
            .map(|p| p.role);
        let ok = match prev_role {
            None => false,
            Some(Some(role)) => role == Role::User,
            Some(None) => true,
        };
        if !ok {
            out.push("GEM-02", c.path(), GEM_02_MSG);
        }
    }
}

/// GEM-03: a user content with `functionResponse` parts comes right after a function call turn.
pub(super) fn check_gem_03_response_turn_position(contents: &[Content<'_>], out: &mut Findings) {
    for (i, c) in contents.iter().enumerate() {
        if !c.has_responses() || c.is(Role::Model) {
            continue;
        }
        let after_call = i
            .checked_sub(1)
            .and_then(|p| contents.get(p))
            .is_some_and(Content::is_call_turn);
        if !after_call {
            out.push("GEM-03", c.path(), GEM_03_MSG);
        }
    }
}

/// GEM-04 [inferred]: the first content is a user content and no two consecutive contents have
/// the same role (the renderer merges them).
pub(super) fn check_gem_04_role_order(contents: &[Content<'_>], out: &mut Findings) {
    if let Some(first) = contents.first().filter(|c| c.is(Role::Model)) {
        out.push(
            "GEM-04",
            first.path().k("role"),
            "the first content must have role \"user\" [inferred]",
        );
    }
    for pair in contents.windows(2) {
        if let [prev, cur] = pair {
            if let (Some(a), Some(b)) = (prev.role, cur.role) {
                if a == b {
                    out.push(
                        "GEM-04",
                        cur.path().k("role"),
                        format!(
                            "consecutive contents with role \"{}\" (contents[{}] and \
                             contents[{}]); merge them so roles alternate between user and \
                             model [inferred]",
                            b.name(),
                            prev.idx,
                            cur.idx
                        ),
                    );
                }
            }
        }
    }
}
