//! Compaction (REQ-915-026…028): where a history can be cut or summarised without separating a
//! tool call from its result, and the record a summary keeps of the pairs it did separate.

use serde_json::{json, Value};

use super::message::{Message, Speaker};
use super::pairing::pairing;

/// The member of a summary message that records what compaction removed:
/// `{"messages": n, "calls": [...], "results": [...]}` — the calls kept whose results were
/// removed, and the results kept whose calls were removed.
pub const COMPACTION_KEY: &str = "compaction";

/// Each tool call/result pair of `messages` as (call's message, result's message, call id).
fn pairs(messages: &[Message]) -> Vec<(usize, usize, &str)> {
    let p = pairing(messages);
    p.answers
        .iter()
        .filter_map(|&(k, at, r)| {
            let (call, _) = p.calls.get(k)?;
            Some((call.message_index, at.message_index, r.call_id.as_str()))
        })
        .collect()
}

/// The message indexes where `messages` can be cut — everything before the index summarised or
/// removed, or a range between two such indexes — without separating a tool call from its
/// result (REQ-915-028): no pair spans the index, and the message there is not a tool message.
/// `0` and `messages.len()` are always among them.
///
/// ```
/// use turnwire::model::safe_cut_points;
/// use turnwire::Transcript;
/// let t = Transcript::from_json(r#"[
///   {"speaker":"human","blocks":[{"type":"text","text":"list"}]},
///   {"speaker":"ai","blocks":[{"type":"tool_call","id":"a","name":"ls","parameters":{}}]},
///   {"speaker":"tool","blocks":[{"type":"tool_response","callId":"a","result":"x"}]},
///   {"speaker":"ai","blocks":[{"type":"text","text":"one file"}]},
///   {"speaker":"human","blocks":[{"type":"text","text":"thanks"}]}]"#)?;
/// assert_eq!(safe_cut_points(&t.messages), vec![0, 1, 3, 4, 5]);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn safe_cut_points(messages: &[Message]) -> Vec<usize> {
    let n = messages.len();
    // spans[i] > 0: some pair has its call before i and its result at or after i
    let mut opened = vec![0i64; n + 1];
    for (call, result, _) in pairs(messages) {
        if call < result {
            opened[call + 1] += 1;
            opened[result + 1] -= 1;
        }
    }
    let mut out = Vec::new();
    let mut spanning = 0i64;
    for (i, delta) in opened.iter().enumerate() {
        spanning += delta;
        let tool_here = messages.get(i).is_some_and(|m| m.speaker == Speaker::Tool);
        if i == 0 || i == n || (spanning == 0 && !tool_here) {
            out.push(i);
        }
    }
    out
}

/// The range a compaction replaces when it keeps the last `keep_last_turns` turns (at least 1)
/// and the first `keep_first` messages with a system prompt that follows them at the head:
/// `start..end`, both safe cut points ([`safe_cut_points`]), empty when there is nothing to
/// replace. A turn starts at a user message; a history with no more of them than are kept (one
/// long tool loop) counts the steps of its tool loops instead (an assistant message after
/// results).
///
/// ```
/// use turnwire::model::compaction_range;
/// use turnwire::Transcript;
/// let t = Transcript::from_json(r#"[
///   {"speaker":"system","blocks":[{"type":"text","text":"Be brief."}]},
///   {"speaker":"human","blocks":[{"type":"text","text":"one"}]},
///   {"speaker":"ai","blocks":[{"type":"text","text":"1"}]},
///   {"speaker":"human","blocks":[{"type":"text","text":"two"}]},
///   {"speaker":"ai","blocks":[{"type":"text","text":"2"}]},
///   {"speaker":"human","blocks":[{"type":"text","text":"three"}]}]"#)?;
/// assert_eq!(compaction_range(&t.messages, 2, 0), 1..3); // the system prompt and two turns stay
/// assert!(compaction_range(&t.messages, 3, 0).is_empty());
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn compaction_range(
    messages: &[Message],
    keep_last_turns: usize,
    keep_first: usize,
) -> std::ops::Range<usize> {
    let keep = keep_last_turns.max(1);
    let points = safe_cut_points(messages);
    let speaker = |i: usize| messages.get(i).map(|m| m.speaker);
    let user_turn = |i: &usize| speaker(*i) == Some(Speaker::Human);
    let step = |i: &usize| {
        speaker(*i) == Some(Speaker::Ai)
            && i.checked_sub(1).and_then(speaker) == Some(Speaker::Tool)
    };
    let mut starts: Vec<usize> = points.iter().copied().filter(user_turn).collect();
    if starts.len() <= keep {
        starts = points
            .iter()
            .copied()
            .filter(|i| user_turn(i) || step(i))
            .collect();
    }
    let end = if starts.len() > keep {
        starts.get(starts.len() - keep).copied().unwrap_or(0)
    } else {
        0
    };
    let mut head = keep_first;
    while speaker(head) == Some(Speaker::System) {
        head += 1;
    }
    let start = points.iter().copied().find(|&i| i >= head).unwrap_or(end);
    start..end.max(start)
}

/// What replacing `messages[start..end]` separates: the ids of calls kept (before `start`)
/// whose results are removed, and of results kept (from `end` on) whose calls are removed.
pub(crate) fn separated(
    messages: &[Message],
    start: usize,
    end: usize,
) -> (Vec<String>, Vec<String>) {
    let removed = |i: usize| (start..end).contains(&i);
    let mut calls: Vec<String> = Vec::new();
    let mut results: Vec<String> = Vec::new();
    for (call, result, id) in pairs(messages) {
        let list = if call < start && removed(result) {
            &mut calls
        } else if removed(call) && result >= end {
            &mut results
        } else {
            continue;
        };
        if !list.iter().any(|x| x == id) {
            list.push(id.to_string());
        }
    }
    (calls, results)
}

/// The record a summary message keeps ([`COMPACTION_KEY`]).
pub(crate) fn record(removed: usize, calls: &[String], results: &[String]) -> Value {
    json!({"messages": removed, "calls": calls, "results": results})
}

/// The ids of calls whose results compaction removed, from the summaries among `extras`.
pub(crate) fn compacted_calls<'a>(
    extras: impl Iterator<Item = &'a serde_json::Map<String, Value>>,
) -> Vec<&'a str> {
    extras
        .filter_map(|e| e.get(COMPACTION_KEY)?.get("calls")?.as_array())
        .flatten()
        .filter_map(Value::as_str)
        .collect()
}
