//! The tail: the messages after the boundary, normalised and projected on their own, and the checks
//! that let them be spliced after the prefix.

use super::*;

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
    pub(super) passes: Vec<Vec<Diagnostic>>,
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
    nopts: &NormalizeOptions,
) -> Result<Result<Tail, Fallback>, Error> {
    let b = prefix.boundary;
    let (n, trace) = if b == 0 {
        normalize_traced(transcript.clone(), nopts, 0, None)
    } else {
        let tail = Transcript::new(transcript.messages.get(b..).unwrap_or_default().to_vec());
        normalize_traced(tail, nopts, b, prefix.opener)
    };
    if n.transcript.messages.is_empty() {
        if b == 0 {
            return Err(empty_transcript());
        }
        return Ok(Err(Fallback::TailEmpty));
    }
    if let Some(why) = splice_check(prefix, transcript, nopts, &n, &trace) {
        return Ok(Err(why));
    }
    Ok(project_tail(prefix, options, n, trace))
}

/// Why the normalised tail `n` cannot follow the prefix, if it cannot (nothing with no prefix).
fn splice_check(
    prefix: &Prefix,
    transcript: &Transcript,
    nopts: &NormalizeOptions,
    n: &Normalized,
    trace: &Trace,
) -> Option<Fallback> {
    let b = prefix.boundary;
    if b == 0 {
        return None;
    }
    if n.thinking_enabled != nopts.thinking_enabled {
        return Some(Fallback::ThinkingTurnedOff);
    }
    // (an orphan result turned into user text ends the turn too: look at the output)
    if prefix.mid_turn() && has_turn_rules(nopts) && turn_starts(&n.transcript.messages) {
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
    if !opens {
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
) -> Result<(Vec<Vec<Diagnostic>>, Undeclared), Fallback> {
    let mut passes: Vec<Vec<Diagnostic>> = vec![Vec::new(); PASSES.len()];
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
    n: Normalized,
    trace: Trace,
) -> Result<Tail, Fallback> {
    let b = prefix.boundary;
    let Normalized {
        transcript: tail_transcript,
        system: tail_system,
        thinking_enabled,
        undeclared_tools,
        reasoning_field,
        diagnostics,
    } = n;
    let (mut passes, undeclared) = by_pass(prefix, diagnostics, undeclared_tools)?;
    let stub =
        usize::from(b > 0 && prefix.reasoning && options.provider == Provider::OpenAiResponses);
    let mut msgs = Vec::with_capacity(stub + tail_transcript.messages.len());
    if stub > 0 {
        msgs.push(reasoning_stub());
    }
    msgs.extend(tail_transcript.messages);
    let system_all: Vec<String> = prefix.system.iter().chain(&tail_system).cloned().collect();
    let lead = usize::from(
        WireApi::of(options.provider).system_in_messages()
            && !system_text(options, &system_all).is_empty(),
    );
    let input = Normalized {
        transcript: Transcript::new(msgs),
        system: system_all,
        thinking_enabled,
        undeclared_tools: prefix
            .undeclared
            .iter()
            .chain(undeclared.iter().map(|(n, _)| n))
            .cloned()
            .collect(),
        reasoning_field,
        diagnostics: Vec::new(),
    };
    let (body, mut projection) = project(&input, options);
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
    let Parts {
        envelope,
        key,
        lead,
        wire,
    } = take_wire(body, options, lead, stub, &renumbered)?;
    Ok(Tail {
        msgs,
        stub,
        origins: trace.origins,
        system: tail_system,
        passes,
        undeclared,
        envelope,
        key,
        lead,
        wire,
        id_map,
        notes,
        renamed_declared,
        renamed_new,
        names,
    })
}

/// Checks the tail's wire ids against the prefix's; Kimi's counted ids (`functions.read:7`)
/// are counted on from the prefix's calls. Returns the renumbered ids (old → new).
fn wire_ids(
    prefix: &Prefix,
    options: &RenderOptions,
    id_map: &mut [(String, String)],
) -> Result<HashMap<String, String>, Fallback> {
    let mut renumbered: HashMap<String, String> = HashMap::new();
    if prefix.boundary == 0 || prefix.id_map.is_empty() || id_map.is_empty() {
        return Ok(renumbered);
    }
    if options.provider == Provider::Kimi {
        let offset = prefix.id_map.len();
        for (k, (_, id)) in id_map.iter_mut().enumerate() {
            let Some(stem) = id.strip_suffix(&format!(":{k}")) else {
                return Err(Fallback::UnexpectedRender);
            };
            let counted = format!("{stem}:{}", k + offset);
            renumbered.insert(std::mem::replace(id, counted.clone()), counted);
        }
    } else if id_map.iter().any(|(c, _)| c.is_empty()) {
        return Err(Fallback::WireIdDependsOnPrefix);
    }
    if id_map.iter().any(|(_, p)| prefix.emitted.contains(p)) {
        return Err(Fallback::WireIdDependsOnPrefix);
    }
    Ok(renumbered)
}

/// The names the tail's calls are sent with; each must be sent as the prefix sent it, and a
/// name new to the tail must take no name the prefix's names took.
fn tail_names(
    prefix: &Prefix,
    renamed: &[(String, String)],
    tail_msgs: &[Message],
) -> Result<HashMap<String, String>, Fallback> {
    let sent: HashMap<&str, &str> = renamed
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    let mut names = HashMap::new();
    for name in call_names(tail_msgs) {
        if names.contains_key(name) {
            continue;
        }
        let to = sent.get(name.as_str()).copied().unwrap_or(name.as_str());
        let fits = match prefix.names.get(name) {
            Some(p) => p == to,
            None => !prefix.projected_names.contains(to),
        };
        if prefix.boundary > 0 && !fits {
            return Err(Fallback::ToolNameDependsOnPrefix);
        }
        names.insert(name.clone(), to.to_string());
    }
    Ok(names)
}

/// Renamed tools, with their diagnostics: those the declarations renamed, and those the tail's
/// calls renamed first (the prefix reported its own).
fn sort_renamed(
    prefix: &Prefix,
    options: &RenderOptions,
    undeclared: &[String],
    renamed: impl Iterator<Item = ((String, String), Diagnostic)>,
    finish: &dyn Fn(&mut Diagnostic),
) -> (Vec<Renamed>, Vec<Renamed>) {
    let declared: HashSet<&str> = options
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .chain(undeclared.iter().map(String::as_str))
        .collect();
    let mut by_declaration = Vec::new();
    let mut by_call = Vec::new();
    for ((from, to), mut diagnostic) in renamed {
        finish(&mut diagnostic);
        let r = Renamed {
            from,
            to,
            diagnostic,
        };
        if declared.contains(r.from.as_str()) {
            by_declaration.push(r);
        } else if !prefix.names.contains_key(&r.from) {
            by_call.push(r);
        }
    }
    (by_declaration, by_call)
}

/// A projected body taken apart.
struct Parts {
    /// The body without its wire messages.
    envelope: Map<String, Value>,
    /// The body member that held them.
    key: &'static str,
    /// Wire messages before the prefix's (a chat target's system message).
    lead: Vec<Value>,
    /// The tail's own wire messages, stubs taken out.
    wire: Vec<Value>,
}

/// The body taken apart into envelope, lead and the tail's wire messages (renumbered).
fn take_wire(
    body: Value,
    options: &RenderOptions,
    lead: usize,
    stub: usize,
    renumbered: &HashMap<String, String>,
) -> Result<Parts, Fallback> {
    let key = WireApi::of(options.provider).messages_key();
    let Value::Object(mut envelope) = body else {
        return Err(Fallback::UnexpectedRender);
    };
    let Some(Value::Array(mut wire)) = envelope.get_mut(key).map(Value::take) else {
        return Err(Fallback::UnexpectedRender);
    };
    if wire.len() < lead + stub {
        return Err(Fallback::UnexpectedRender);
    }
    let mut rest = wire.split_off(lead);
    let stubs: Vec<Value> = rest.drain(..stub).collect();
    if stubs
        .iter()
        .any(|s| s.get("type").and_then(Value::as_str) != Some("reasoning"))
    {
        return Err(Fallback::UnexpectedRender);
    }
    if !renumbered.is_empty() {
        for m in &mut rest {
            renumber(m, renumbered);
        }
    }
    Ok(Parts {
        envelope,
        key,
        lead: wire,
        wire: rest,
    })
}

/// Renames the call ids of a Chat Completions wire message (`tool_calls[].id`,
/// `tool_call_id`).
pub(super) fn renumber(message: &mut Value, ids: &HashMap<String, String>) {
    let swap = |v: &mut Value| {
        if let Some(new) = v.as_str().and_then(|id| ids.get(id)) {
            *v = Value::String(new.clone());
        }
    };
    if let Some(calls) = message.get_mut("tool_calls").and_then(Value::as_array_mut) {
        for call in calls {
            if let Some(id) = call.get_mut("id") {
                swap(id);
            }
        }
    }
    if let Some(id) = message.get_mut("tool_call_id") {
        swap(id);
    }
}
