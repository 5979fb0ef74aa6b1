//! Where the boundary goes: the candidates, and moving it (splitting a tail, checking that the
//! render through the new boundary is the same).

use super::split::split;
use super::*;

/// Whether a message could open a tail: a user message of text, code and media with some
/// non-blank text.
pub(super) fn opens_turn(m: &Message) -> bool {
    m.speaker == Speaker::Human
        && m.blocks
            .iter()
            .all(|b| matches!(b, Block::Text(_) | Block::Code(_) | Block::Media(_)))
        && m.blocks
            .iter()
            .any(|b| matches!(b, Block::Text(t) if !t.text.trim().is_empty()))
}

/// Whether a message could close a prefix: an assistant message with some non-blank text and
/// no tool blocks.
pub(super) fn closes_turn(m: &Message) -> bool {
    m.speaker == Speaker::Ai
        && !m
            .blocks
            .iter()
            .any(|b| matches!(b, Block::ToolCall(_) | Block::ToolResponse(_)))
        && m.blocks
            .iter()
            .any(|b| matches!(b, Block::Text(t) if !t.text.trim().is_empty()))
}

/// The first assistant message of the turn that `middle` (normalised messages, input
/// positions in `origins`) ends inside: opened in `middle` after its last user message that
/// opens a turn (one folded into tool results does not), or before it (the prefix's).
pub(super) fn turn_opener(
    prefix: &Prefix,
    middle: &[Message],
    origins: &[Option<usize>],
) -> Option<TurnOpener> {
    let Some(start) = (0..middle.len()).rev().find(|&k| opens_turn_at(middle, k)) else {
        return prefix.opener;
    };
    let k = (start + 1..middle.len()).find(|&k| middle[k].speaker == Speaker::Ai)?;
    Some(TurnOpener {
        thinking: matches!(middle[k].blocks.first(), Some(Block::Thinking(_))),
        origin: origins.get(k).copied().flatten(),
    })
}

/// Whether a user message in `msgs` (normalised) starts a new turn: one right after tool
/// results does not (Anthropic and Gemini fold it into the results' message, and their
/// current-turn rules read it as part of the tool loop; chat targets have no such rules).
pub(super) fn turn_starts(msgs: &[Message]) -> bool {
    (0..msgs.len()).any(|k| opens_turn_at(msgs, k))
}

/// Whether `msgs[k]` opens a turn, by the normaliser's rule ([`starts_turn_at`], results folded).
fn opens_turn_at(msgs: &[Message], k: usize) -> bool {
    starts_turn_at(|i| msgs.get(i).map(|m| m.speaker), k, true)
}

/// Whether `at` is the next step of a tool loop: an assistant message right after a tool
/// message of results.
pub(super) fn next_step(before: &Message, at: &Message) -> bool {
    before.speaker == Speaker::Tool
        && before
            .blocks
            .iter()
            .all(|b| matches!(b, Block::ToolResponse(_)))
        && at.speaker == Speaker::Ai
}

/// The latest input index after `from` (and before the last message's end) where a boundary
/// may go, judged on the input alone ([`advance`] checks the rest).
pub(crate) fn candidate(
    transcript: &Transcript,
    from: usize,
    resolved: &Resolved,
) -> Option<usize> {
    let turn_rules = has_turn_rules(&resolved.normalize);
    let msgs = &transcript.messages;
    // A boundary inside a tool loop only holds while no user message follows it.
    let mut user_after = false;
    (from + 1..msgs.len()).rev().find(|&i| {
        let (Some(before), Some(at)) = (msgs.get(i - 1), msgs.get(i)) else {
            return false;
        };
        let found =
            (opens_turn(at) && closes_turn(before)) || (!user_after && next_step(before, at));
        user_after |= turn_rules && starts_turn(at.speaker, Some(before.speaker), true);
        found
    })
}

/// The latest new-turn boundary (a user message after an answer) in `(from, to)`: where a
/// boundary inside a tool loop at `to` is taken back to when a user turn arrives.
fn turn_candidate(transcript: &Transcript, from: usize, to: usize) -> Option<usize> {
    let msgs = &transcript.messages;
    (from + 1..to)
        .rev()
        .find(|&i| msgs.get(i).is_some_and(opens_turn) && msgs.get(i - 1).is_some_and(closes_turn))
}

/// Moves the boundary up to `to` (see [`advance_to`]); a boundary inside a tool loop first
/// takes its turn's start, if that is after the boundary: where the prefix goes back to when a
/// user turn arrives. Returns whether the boundary moved.
pub(crate) fn advance(
    prefix: &mut Prefix,
    tail: &Tail,
    to: usize,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Result<bool, Error> {
    let in_loop = transcript
        .messages
        .get(to)
        .is_some_and(|m| m.speaker == Speaker::Ai);
    let mut through = None;
    if let Some(turn) = turn_candidate(transcript, prefix.boundary, to).filter(|_| in_loop) {
        through = advance_to(prefix, tail, turn, transcript, options, resolved)?;
    }
    let moved = through.is_some();
    let base = through.as_ref().unwrap_or(tail);
    Ok(advance_to(prefix, base, to, transcript, options, resolved)?.is_some() || moved)
}

/// Splits `tail` at input message `to` and moves the part before it into `prefix`, then checks
/// that rendering through the new boundary gives exactly what `tail` gave (after the old
/// prefix). Returns the render through the new boundary when it moved (on `None` the prefix
/// is as it was).
fn advance_to(
    prefix: &mut Prefix,
    tail: &Tail,
    to: usize,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Result<Option<Tail>, Error> {
    let Some((middle, cuts)) = split(prefix, tail, to, transcript, options, resolved) else {
        return Ok(None);
    };
    let step = transcript
        .messages
        .get(to)
        .is_some_and(|m| m.speaker == Speaker::Ai);
    let undo = prefix.extend(middle);
    // A boundary at a user turn ends the turn the journal was kept for: the render through it
    // is checked as a prefix that is not inside a tool loop.
    let journal = if step {
        Vec::new()
    } else {
        std::mem::take(&mut prefix.steps)
    };
    let after = match render_tail(prefix, transcript, options, resolved)? {
        Ok(after) if agrees(prefix, &undo, tail, &cuts, &after) => Some(after),
        _ => None,
    };
    if after.is_none() {
        prefix.undo(undo);
        if !step {
            prefix.steps = journal;
        }
    } else if step {
        prefix.steps.push(undo);
    }
    Ok(after)
}

/// Where the middle's share of a tail's lists ends.
pub(super) struct Cuts {
    pub(super) wire: usize,
    pub(super) id_map: usize,
    pub(super) renamed: usize,
}

/// Whether `prefix` (just extended, `undo` saying by what) + `after` is the old prefix +
/// `before`: the result of every render through the new boundary is the old one's.
pub(super) fn agrees(
    prefix: &Prefix,
    undo: &Undo,
    before: &Tail,
    cuts: &Cuts,
    after: &Tail,
) -> bool {
    let lists = same_map(&before.envelope, &after.envelope)
        && same_values(&before.lead, &after.lead)
        && before
            .wire
            .get(cuts.wire..)
            .is_some_and(|w| same_values(w, &after.wire))
        && before.id_map.get(cuts.id_map..) == Some(&after.id_map[..])
        && before.renamed_declared == after.renamed_declared
        && before.renamed_new.get(cuts.renamed..) == Some(&after.renamed_new[..])
        && before.notes == after.notes
        && before.passes.len() == PASSES.len()
        && after.passes.len() == PASSES.len();
    lists
        && (0..PASSES.len()).all(|p| {
            let (Some(head), Some(trail), Some(&h), Some(&t)) = (
                prefix.head.get(p),
                prefix.trail.get(p),
                undo.head.get(p),
                undo.trail.get(p),
            ) else {
                return false;
            };
            let (Some(added), Some(old_trail), Some(new_trail)) =
                (head.get(h..), trail.get(..t), trail.get(t..))
            else {
                return false;
            };
            let was = before.passes[p].iter().chain(old_trail);
            let is = added
                .iter()
                .chain(&after.passes[p])
                .chain(old_trail)
                .chain(new_trail);
            was.eq(is)
        })
}

/// Equal and serialised alike (object members in the same order).
pub(super) fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => same_map(x, y),
        (Value::Array(x), Value::Array(y)) => same_values(x, y),
        _ => a == b,
    }
}

pub(super) fn same_values(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
}

pub(super) fn same_map(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}
