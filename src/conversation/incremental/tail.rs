//! The tail: the messages after the boundary, normalised and projected on their own, and the checks
//! that let them be spliced after the prefix.

use super::wire::{sort_renamed, tail_names, take_wire, wire_ids};
use super::*;
use crate::normalize::{binds_thinking, reaches_thinking_prefix};

/// The tail rendered on its own, ready to be spliced after a [`Prefix`].
#[derive(Debug)]
pub(crate) struct Tail {
    /// The adapter's input messages: `stub` made-up messages, then the normalised tail.
    pub(super) msgs: Vec<Message>,
    pub(super) stub: usize,
    /// Input message index of each normalised tail message.
    pub(super) origins: Vec<Option<usize>>,
    /// System texts the tail hoisted.
    pub(super) system: Vec<String>,
    /// Per pass: the tail's diagnostics (final form).
    pub(super) passes: ByPass,
    /// Tools first called by the tail and not declared, with the message of that call.
    pub(super) undeclared: Vec<(String, Option<usize>)>,
    /// The body with the wire messages taken out.
    pub(super) envelope: Map<String, Value>,
    /// The body member holding the wire messages.
    pub(super) key: &'static str,
    /// Wire messages before the prefix's (a chat target's system message).
    pub(super) lead: Vec<Value>,
    /// The tail's wire messages.
    pub wire: Vec<Value>,
    pub(super) id_map: Vec<(String, String)>,
    /// Projection diagnostics other than renamed tools.
    pub(super) notes: Vec<Diagnostic>,
    /// Tools renamed by the declarations.
    pub(super) renamed_declared: Vec<Renamed>,
    /// Tools first renamed by the tail's calls.
    pub(super) renamed_new: Vec<Renamed>,
    /// Tool names of the tail's calls → the names sent.
    pub(super) names: HashMap<String, String>,
}
/// Normalises and projects the messages from `prefix.boundary` on, alone, and checks that they
/// can be spliced after the prefix (see the module doc). With no prefix this is the full
/// render, and never falls back (a fall back there means: use [`crate::render`]).
pub(crate) fn render_tail(
    prefix: &Prefix,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Result<Result<Tail, Fallback>, Error> {
    let b = prefix.boundary;
    let (n, trace) = if b == 0 {
        normalize_traced(transcript.clone(), &resolved.normalize, 0, None)
    } else {
        let tail = Transcript::new(transcript.messages.get(b..).unwrap_or_default().to_vec());
        normalize_traced(tail, &resolved.normalize, b, prefix.opener)
    };
    if n.transcript.messages.is_empty() {
        if b == 0 {
            return Err(empty_transcript());
        }
        return Ok(Err(Fallback::TailEmpty));
    }
    if let Some(why) = splice_check(prefix, transcript, resolved, &n, &trace) {
        return Ok(Err(why));
    }
    Ok(project_tail(prefix, options, resolved, n, trace))
}

/// Whether `m` changes the tools in force (a `tool_change` block): such a history renders in
/// full, never through a prefix.
pub(super) fn changes_tools(m: &crate::model::Message) -> bool {
    m.blocks
        .iter()
        .any(|b| matches!(b, crate::model::Block::ToolChange(_)))
}

/// Why the normalised tail `n` cannot follow the prefix, if it cannot (nothing with no prefix).
fn splice_check(
    prefix: &Prefix,
    transcript: &Transcript,
    resolved: &Resolved,
    n: &Normalized,
    trace: &Trace,
) -> Option<Fallback> {
    let b = prefix.boundary;
    if b == 0 {
        return None;
    }
    if n.thinking_enabled != resolved.normalize.thinking_enabled {
        return Some(Fallback::ThinkingTurnedOff);
    }
    // ANT-52: the tail's report sees its own repairs and blocks only
    if binds_thinking(&resolved.normalize, n.thinking_enabled) {
        let prefix_repaired = prefix
            .head
            .iter()
            .chain(&prefix.trail)
            .flatten()
            .any(|d| reaches_thinking_prefix(d).0);
        let tail_everywhere = n.diagnostics.iter().any(|d| reaches_thinking_prefix(d).1);
        if prefix_repaired || tail_everywhere {
            return Some(Fallback::ThinkingBinding);
        }
    }
    // the prefix holds none (split refuses to move the boundary over one)
    if transcript
        .messages
        .get(b..)
        .unwrap_or_default()
        .iter()
        .any(changes_tools)
    {
        return Some(Fallback::ToolChanges);
    }
    // A user turn after a prefix that ends inside a tool loop closes the loop's turn. Of the
    // current-turn rules only the request-wide thinking switch (ANT-10) reaches the prefix's
    // messages, and only when the loop's opener has no thinking to replay while thinking is on
    // (its requests ran with thinking off, the new turn's runs with it on). A prefix is not
    // built inside such a loop today (its tails turn thinking off and fall back), so this only
    // keeps that assumption checked; otherwise the prefix stays as it is.
    // (an orphan result turned into user text ends the turn too: look at the output)
    if prefix.mid_turn()
        && has_turn_rules(&resolved.normalize)
        && resolved.normalize.thinking_enabled
        && !prefix.opener.is_some_and(|o| o.thinking)
        && turn_starts(&n.transcript.messages)
    {
        return Some(Fallback::UserTurnAfterToolLoop);
    }
    // The tail opens with its first input message: a user turn, or the next step of a tool
    // loop (an assistant message after the prefix's results).
    let first = transcript.messages.get(b).map(|m| m.speaker);
    let opens = n
        .transcript
        .messages
        .first()
        .is_some_and(|m| m.speaker == Speaker::Human || Some(m.speaker) == first)
        && trace.origins.first() == Some(&Some(b));
    // ...after a message it may follow: an answer before a user turn, results before a step
    // (an edit at the boundary can put anything there).
    let pair = (
        prefix.last,
        n.transcript.messages.first().map(|m| m.speaker),
    );
    let follows = matches!(
        pair,
        (Some(Speaker::Ai), Some(Speaker::Human)) | (Some(Speaker::Tool), Some(Speaker::Ai))
    );
    if !opens || !follows {
        return Some(Fallback::TailOpensMidTurn);
    }
    let seen = |id: &String| prefix.ids.contains(id);
    let input_ids = transcript
        .messages
        .get(b..)
        .unwrap_or_default()
        .iter()
        .flat_map(stored_ids);
    let final_ids = n.transcript.messages.iter().flat_map(stored_ids);
    let diag_ids = n.diagnostics.iter().filter_map(|d| d.call_id.as_ref());
    if input_ids.chain(final_ids).chain(diag_ids).any(seen) {
        return Some(Fallback::SharedCallId);
    }
    None
}

/// Tools the tail calls first and does not declare, with the message of that call.
type Undeclared = Vec<(String, Option<usize>)>;

/// The tail's diagnostics split by normaliser pass (the pass each one names, in the order of
/// [`PASSES`]), without the tool declarations the prefix already reported (one diagnostic
/// each, at the first call).
fn by_pass(
    prefix: &Prefix,
    diagnostics: Vec<Diagnostic>,
    undeclared_tools: Vec<String>,
) -> Result<(ByPass, Undeclared), Fallback> {
    let mut passes: ByPass = vec![Vec::new(); PASSES.len()];
    for d in diagnostics {
        let Some(pass) = d.pass.and_then(|p| passes.get_mut(p.index())) else {
            return Err(Fallback::UnexpectedRender);
        };
        pass.push(d);
    }
    let Some(declared_pass) = passes.get_mut(Pass::Declarations.index()) else {
        return Err(Fallback::UnexpectedRender);
    };
    if declared_pass.len() != undeclared_tools.len()
        || declared_pass
            .iter()
            .any(|d| d.code != DiagnosticCode::ToolDeclared)
    {
        return Err(Fallback::UnexpectedRender);
    }
    let mut undeclared = Vec::new();
    let mut kept = Vec::new();
    for (name, d) in undeclared_tools
        .into_iter()
        .zip(std::mem::take(declared_pass))
    {
        if prefix.undeclared.contains(&name) {
            continue;
        }
        undeclared.push((name, d.message_index));
        kept.push(d);
    }
    *declared_pass = kept;
    Ok((passes, undeclared))
}

/// Projects the normalised tail (after a stub that stands for the prefix where the envelope
/// depends on it) and takes it apart into what a splice needs.
fn project_tail(
    prefix: &Prefix,
    options: &RenderOptions,
    resolved: &Resolved,
    n: Normalized,
    trace: Trace,
) -> Result<Tail, Fallback> {
    let (mut passes, undeclared) = by_pass(prefix, n.diagnostics, n.undeclared_tools)?;
    let tool_changes = n.tool_changes;
    let (mut input, stub, lead) = tail_input(
        prefix,
        options,
        n.transcript.messages,
        &n.system,
        &undeclared,
        (n.thinking_enabled, n.reasoning_field),
    );
    // (the whole history's: a tail after a prefix with tool changes falls back)
    input.tool_changes = tool_changes;
    // providerOptions the validator refuses: the full render gives the error
    let (body, mut projection) =
        project(&input, options, resolved).map_err(|_| Fallback::UnexpectedRender)?;
    let renamed = projection.finish();
    let mut id_map = std::mem::take(&mut projection.id_map);
    let renumbered = wire_ids(prefix, options, &mut id_map)?;
    let msgs = input.transcript.messages;
    let names = tail_names(prefix, &renamed, msgs.get(stub..).unwrap_or_default())?;
    let mut notes = std::mem::take(&mut projection.diagnostics);
    let finish = |d: &mut Diagnostic| {
        d.provider = Some(options.provider);
        if let Some(id) = &d.call_id {
            d.emitted_id = projection
                .emitted(id)
                .map(|e| renumbered.get(e).unwrap_or(e).clone());
        }
    };
    let Some(cut) = notes.len().checked_sub(renamed.len()) else {
        return Err(Fallback::UnexpectedRender);
    };
    let renamed_diags = notes.split_off(cut);
    let (renamed_declared, renamed_new) = sort_renamed(
        prefix,
        options,
        &input.undeclared_tools,
        renamed.into_iter().zip(renamed_diags),
        &finish,
    );
    for d in passes.iter_mut().flatten().chain(notes.iter_mut()) {
        finish(d);
    }
    let parts = take_wire(body, options, lead, stub, &renumbered)?;
    Ok(Tail {
        msgs,
        stub,
        origins: trace.origins,
        system: n.system,
        passes,
        undeclared,
        envelope: parts.envelope,
        key: parts.key,
        lead: parts.lead,
        wire: parts.wire,
        id_map,
        notes,
        renamed_declared,
        renamed_new,
        names,
    })
}

/// What the adapter projects for the tail: its messages (after a reasoning stub that stands for
/// the prefix where the Responses envelope depends on it) with the whole request's system
/// prompt and tool declarations. Returns it with the stub's length and the number of wire
/// messages the system prompt takes.
fn tail_input(
    prefix: &Prefix,
    options: &RenderOptions,
    tail_msgs: Vec<Message>,
    tail_system: &[String],
    undeclared: &Undeclared,
    (thinking_enabled, reasoning_field): (bool, bool),
) -> (Normalized, usize, usize) {
    let stub = usize::from(
        prefix.boundary > 0 && prefix.reasoning && options.provider == Provider::OpenAiResponses,
    );
    let mut msgs = Vec::with_capacity(stub + tail_msgs.len());
    if stub > 0 {
        msgs.push(reasoning_stub());
    }
    msgs.extend(tail_msgs);
    let (system, lead) = system_lead(prefix, tail_system, options);
    let input = Normalized {
        transcript: Transcript::new(msgs),
        system,
        thinking_enabled,
        undeclared_tools: prefix
            .undeclared
            .iter()
            .chain(undeclared.iter().map(|(n, _)| n))
            .cloned()
            .collect(),
        reasoning_field,
        tool_changes: Default::default(),
        diagnostics: Vec::new(),
    };
    (input, stub, lead)
}
