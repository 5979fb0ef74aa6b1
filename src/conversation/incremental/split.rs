//! Splitting a tail at an input message: the facts of the messages before it (the middle that
//! joins the prefix when the boundary moves), each step its own function.

use super::boundary::{turn_opener, Cuts};
use super::tail::changes_tools;
use super::*;

/// The facts of the tail's messages before input message `to`, and where they end in the
/// tail's lists; `None` when `to` cannot be a boundary of this render.
pub(super) fn split(
    prefix: &Prefix,
    tail: &Tail,
    to: usize,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Option<(Middle, Cuts)> {
    // The prefix never holds a tool change (the tail's check then needs only the tail's
    // messages): a history that changes tools renders in full.
    let input = transcript.messages.get(prefix.boundary..to)?;
    if input.iter().any(changes_tools) {
        return None;
    }
    let msgs = tail.msgs.get(tail.stub..)?;
    let j = opening_index(msgs, &tail.origins, to, resolved)?;
    let middle_msgs = msgs.get(..j)?;
    let (head, trail, hoisted_later) = split_diagnostics(&tail.passes, to)?;
    let system = tail
        .system
        .get(..tail.system.len().checked_sub(hoisted_later)?)?
        .to_vec();
    let undeclared = undeclared_before(&tail.undeclared, to)?;
    let ids = middle_ids(prefix, transcript, to, middle_msgs, &head, &trail)?;
    let count = middle_wire_count(prefix, &system, middle_msgs, options, resolved)?;
    let wire = tail.wire.get(..count)?.to_vec();
    let mapped = mapped_calls(&tail.id_map, middle_msgs)?;
    let id_map = tail.id_map.get(..mapped)?.to_vec();
    let names = middle_names(tail, middle_msgs)?;
    let named = tail
        .renamed_new
        .iter()
        .take_while(|r| names.iter().any(|(n, _)| *n == r.from))
        .count();
    let renamed = tail.renamed_new.get(..named)?.to_vec();
    let reasoning = resolved.api.reasoning_items()
        && wire
            .iter()
            .any(|w| w.get("type").and_then(Value::as_str) == Some("reasoning"));
    let opener = match msgs.get(j).map(|m| m.speaker) {
        Some(Speaker::Ai) => turn_opener(prefix, middle_msgs, &tail.origins),
        _ => None,
    };
    let middle = Middle {
        boundary: to,
        head,
        trail,
        system,
        undeclared,
        ids,
        wire,
        id_map,
        names,
        renamed,
        reasoning,
        opener,
        last: middle_msgs.last().map(|m| m.speaker),
    };
    let cuts = Cuts {
        wire: count,
        id_map: mapped,
        renamed: named,
    };
    Some((middle, cuts))
}

/// The normalised message that opens the new tail at input message `to`: every message before
/// it comes from before `to` and every one from it on from `to` or later, and it is a user turn
/// after an assistant message, or a tool loop's next step after its results.
fn opening_index(
    msgs: &[Message],
    origins: &[Option<usize>],
    to: usize,
    resolved: &Resolved,
) -> Option<usize> {
    if origins.len() != msgs.len() {
        return None;
    }
    let j = origins.iter().position(|o| *o == Some(to))?;
    let before_ok = origins.get(..j)?.iter().all(|o| o.is_none_or(|i| i < to));
    let after_ok = origins.get(j..)?.iter().all(|o| o.is_none_or(|i| i >= to));
    let before = j
        .checked_sub(1)
        .and_then(|i| msgs.get(i))
        .map(|m| m.speaker);
    // Inside a tool loop only while no user message follows (an orphan result turned into
    // user text counts): one would move the current turn's start past the prefix.
    let no_user_after =
        || !has_turn_rules(&resolved.normalize) || !turn_starts(msgs.get(j..).unwrap_or_default());
    let pair_ok = match (before, msgs.get(j).map(|m| m.speaker)) {
        (Some(Speaker::Ai), Some(Speaker::Human)) => true,
        (Some(Speaker::Tool), Some(Speaker::Ai)) => no_user_after(),
        _ => false,
    };
    (before_ok && after_ok && pair_ok).then_some(j)
}

/// Each pass's diagnostics of the messages before `to` (`head`, in message order) and the
/// leading user turn's (`trail`, which come last), and how many system prompt hoists belong to
/// later messages. `None` when a pass reports an earlier message after a later one.
fn split_diagnostics(passes: &[Vec<Diagnostic>], to: usize) -> Option<(ByPass, ByPass, usize)> {
    let later = |d: &Diagnostic| d.message_index.is_some_and(|i| i >= to);
    let leading = |d: &&Diagnostic| d.code == DiagnosticCode::LeadingUserInserted;
    let mut head = Vec::with_capacity(PASSES.len());
    let mut trail = Vec::with_capacity(PASSES.len());
    let mut hoisted_later = 0;
    for pass in passes {
        let cut = pass.iter().position(later).unwrap_or(pass.len());
        let (before, after) = pass.split_at(cut);
        if after
            .iter()
            .any(|d| d.message_index.is_some_and(|i| i < to))
        {
            return None;
        }
        hoisted_later += after
            .iter()
            .filter(|d| d.code == DiagnosticCode::SystemHoisted)
            .count();
        head.push(before.iter().filter(|d| !leading(d)).cloned().collect());
        trail.push(pass.iter().filter(leading).cloned().collect());
    }
    Some((head, trail, hoisted_later))
}

/// The tools first called before `to` that the request declares because the history calls
/// them; `None` when one first called later comes before one called earlier.
fn undeclared_before(undeclared: &[(String, Option<usize>)], to: usize) -> Option<Vec<String>> {
    let first_later = undeclared
        .iter()
        .position(|(_, at)| at.is_some_and(|i| i >= to))
        .unwrap_or(undeclared.len());
    let (before, after) = undeclared.split_at(first_later);
    if after.iter().any(|(_, at)| !at.is_some_and(|i| i >= to)) {
        return None;
    }
    Some(before.iter().map(|(n, _)| n.clone()).collect())
}

/// Every call id the middle mentions: in its input messages, its normalised messages and its
/// diagnostics (sorted, once each).
fn middle_ids(
    prefix: &Prefix,
    transcript: &Transcript,
    to: usize,
    middle_msgs: &[Message],
    head: &[Vec<Diagnostic>],
    trail: &[Vec<Diagnostic>],
) -> Option<Vec<String>> {
    let mut ids: Vec<String> = transcript
        .messages
        .get(prefix.boundary..to)?
        .iter()
        .flat_map(stored_ids)
        .chain(middle_msgs.iter().flat_map(stored_ids))
        .chain(
            head.iter()
                .chain(trail)
                .flatten()
                .filter_map(|d| d.call_id.as_ref()),
        )
        .cloned()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    Some(ids)
}

/// How many wire messages the middle's messages make: the middle projected alone, with the same
/// envelope inputs (the system prompt, which chat targets put first).
fn middle_wire_count(
    prefix: &Prefix,
    system: &[String],
    middle_msgs: &[Message],
    options: &RenderOptions,
    resolved: &Resolved,
) -> Option<usize> {
    let (system_all, lead) = system_lead(prefix, system, options);
    let input = Normalized {
        transcript: Transcript::new(middle_msgs.to_vec()),
        system: system_all,
        thinking_enabled: false,
        undeclared_tools: Vec::new(),
        reasoning_field: false,
        tool_changes: Default::default(),
        diagnostics: Vec::new(),
    };
    let (body, _) = project(&input, options, resolved).ok()?;
    body.get(resolved.api.messages_key())?
        .as_array()?
        .len()
        .checked_sub(lead)
}

/// How many of the tail's id map entries are the middle's calls (they come first); `None` when
/// one of its calls comes after another's.
fn mapped_calls(id_map: &[(String, String)], middle_msgs: &[Message]) -> Option<usize> {
    let call_ids: HashSet<&String> = middle_msgs
        .iter()
        .flat_map(|m| &m.blocks)
        .filter_map(|b| match b {
            Block::ToolCall(c) => Some(&c.id),
            _ => None,
        })
        .collect();
    let mapped = id_map
        .iter()
        .take_while(|(c, _)| call_ids.contains(c))
        .count();
    let rest = id_map.get(mapped..)?;
    (!rest.iter().any(|(c, _)| call_ids.contains(c))).then_some(mapped)
}

/// Each tool name the middle calls, with the name it is sent as, in order of first call.
fn middle_names(tail: &Tail, middle_msgs: &[Message]) -> Option<Vec<(String, String)>> {
    let mut names: Vec<(String, String)> = Vec::new();
    for name in call_names(middle_msgs) {
        if names.iter().any(|(n, _)| n == name) {
            continue;
        }
        names.push((name.clone(), tail.names.get(name)?.clone()));
    }
    Some(names)
}
