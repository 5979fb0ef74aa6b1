//! The incremental renderer behind [`crate::Conversation`]: render the messages after a
//! *stable boundary* only, and splice them after the cached wire messages of everything before
//! it. The full render ([`crate::render`]) is the reference: every result here is byte for byte
//! the full render's (body, `idMap`, `toolNames`, diagnostics), or the full render is used.
//!
//! # The boundary
//!
//! A boundary `B` splits the input transcript into a prefix `T[..B]` and a tail `T[B..]`. Only
//! the latest place that can be one is tried, of two kinds:
//!
//! - a **new turn**: an input user message `T[B]` of text, code and media with some non-blank
//!   text, right after an assistant message `T[B-1]` with text and no tool blocks;
//! - the **next step of a tool loop**: an assistant message `T[B]` right after a tool message
//!   of results `T[B-1]`. Agents store their sessions this way (a user message follows the
//!   last results, with no closing answer), so without it their histories never had a
//!   boundary. It holds only while no user message that starts a turn follows it (one right
//!   after results does not: Anthropic and Gemini fold it into the results), for targets with
//!   rules about the current turn (Gemini's thought signature placeholders, Anthropic's
//!   thinking switch, which reads the turn's first assistant message: the prefix keeps it as
//!   its [`TurnOpener`]). When one does, the prefix is taken back to where the turn opened
//!   ([`Prefix::rewind`]) and the tail rendered from there.
//!
//! A boundary is only taken (see [`advance`]) when, in a render of the whole transcript:
//!
//! - `T[B]` opens a message of its own in the normalised output (nothing inserted before it,
//!   nothing merged into it), and the normalised message right before it is an assistant
//!   message (a new turn) or tool results (a next step): every call of the prefix was answered
//!   or closed inside the prefix, no result, user text or assistant piece can merge across the
//!   boundary, no adapter joins the two;
//! - splitting that render at `B` (normalised messages, diagnostics pass by pass, hoisted
//!   system texts, history-only tool declarations, wire messages, ids, tool names) and
//!   rendering again through the new boundary gives exactly the same body, id map, tool names
//!   and diagnostics as the render that proposed it.
//!
//! # What a render with a boundary checks
//!
//! The normaliser and the adapters are local except for a few channels through which later
//! messages can reach back. Each render normalises and projects the tail alone (input
//! positions shifted by `B`), and uses the cached prefix only when none of them is open;
//! otherwise it renders in full:
//!
//! - **ids** — no tail call or result mentions an id the prefix has seen (stored or final call
//!   ids, result ids, ids named in the prefix's diagnostics), and no final id the tail gives a
//!   call or names in a diagnostic is one of them: results pair, dedupe, close and are placed
//!   exactly as in a full render, renamed ids are the same, the prefix's orphans stay orphans
//!   and its open calls stay closed;
//! - **thinking** — the tail does not turn the request's thinking off (Anthropic's
//!   request-level rule reaches back over the whole history; a prefill or an open tool loop
//!   without signed thinking does it);
//! - **opening** — the tail's first normalised message is `T[B]` itself, as a user message, or
//!   as the assistant step it is (no leading user turn is inserted for a tail);
//! - **turns** — after a boundary inside a tool loop, no user message starts a turn (for
//!   targets with current-turn rules);
//! - **wire ids** — the provider ids the tail gets are none of the prefix's; Kimi's counted ids
//!   are counted on from the prefix's calls; a hashed empty id (which counts too) falls back;
//! - **tool names** — every tool name the tail projects is sent as the prefix sent it, and a
//!   name new to the tail takes no name the prefix's names took.
//!
//! The envelope (everything but the wire messages) comes from the tail's projection, fed with
//! the prefix's hoisted system texts and history-only tool declarations; where it depends on
//! the prefix's messages otherwise (OpenAI Responses asks for encrypted reasoning when any
//! reasoning item is replayed) a one-item stub stands for the prefix. Diagnostics are merged
//! pass by pass (the normaliser reports in pass order): the prefix's, then the tail's, then
//! the prefix's end-of-pass notes (the inserted leading user turn). A tool the history calls
//! but the request does not declare is reported once, at its first call.

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::error::Error;
use crate::model::{Block, Message, ProviderMeta, Speaker, ThinkingBlock, Transcript};
use crate::normalize::{
    has_turn_rules, normalize_traced, Diagnostic, DiagnosticCode, NormalizeOptions, Normalized,
    TurnOpener, PASSES,
};
use crate::providers::common::system_text;
use crate::providers::Provider;
use crate::render::{empty_transcript, project, RenderOptions};

/// A renamed tool and the diagnostic that reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Renamed {
    pub from: String,
    pub to: String,
    pub diagnostic: Diagnostic,
}

/// What a render needs to know about the messages before the boundary.
#[derive(Debug, Default)]
pub(crate) struct Prefix {
    /// Input messages `[0, boundary)` are in the prefix (0: no prefix).
    pub boundary: usize,
    /// Per normaliser pass: the prefix's diagnostics (final form).
    head: Vec<Vec<Diagnostic>>,
    /// Per normaliser pass: the prefix's diagnostics that come after the tail's.
    trail: Vec<Vec<Diagnostic>>,
    /// Hoisted system texts.
    system: Vec<String>,
    /// Tools the prefix calls but the request does not declare, in order of first call.
    undeclared: Vec<String>,
    /// Every canonical id the prefix has seen.
    ids: HashSet<String>,
    /// The prefix's wire messages (without a chat target's leading system message).
    pub wire: Vec<Value>,
    /// Their compact JSON, comma-separated.
    wire_bytes: Vec<u8>,
    /// Canonical → provider ids of the prefix, in call order.
    id_map: Vec<(String, String)>,
    /// The provider ids of `id_map`.
    emitted: HashSet<String>,
    /// Tool names of the prefix's calls → the names sent.
    names: HashMap<String, String>,
    /// The names sent for them.
    projected_names: HashSet<String>,
    /// Tools renamed by the prefix's calls (not by declarations).
    renamed: Vec<Renamed>,
    /// Whether the prefix has an OpenAI reasoning item (it makes Responses ask for them).
    reasoning: bool,
    /// When the boundary sits inside a tool loop (before an assistant step): how to take the
    /// prefix back to where that turn opened, latest extension last. A user message after such
    /// a boundary ends the turn, and what providers send for the current turn changes (Gemini's
    /// thought signature placeholder, reasoning kept for the current turn only).
    steps: Vec<Undo>,
    /// When the boundary sits inside a tool loop: that turn's first assistant message.
    opener: Option<TurnOpener>,
}

/// How to take back a [`Prefix::extend`].
#[derive(Debug)]
struct Undo {
    boundary: usize,
    head: Vec<usize>,
    trail: Vec<usize>,
    system: usize,
    undeclared: usize,
    ids: Vec<String>,
    wire: usize,
    wire_bytes: usize,
    id_map: usize,
    emitted: Vec<String>,
    names: Vec<String>,
    projected_names: Vec<String>,
    renamed: usize,
    reasoning: bool,
    opener: Option<TurnOpener>,
}

/// The facts of the messages between the old boundary and a new one.
struct Middle {
    boundary: usize,
    head: Vec<Vec<Diagnostic>>,
    trail: Vec<Vec<Diagnostic>>,
    system: Vec<String>,
    undeclared: Vec<String>,
    ids: Vec<String>,
    wire: Vec<Value>,
    id_map: Vec<(String, String)>,
    names: Vec<(String, String)>,
    renamed: Vec<Renamed>,
    reasoning: bool,
    /// The current turn's first assistant message, when the new boundary is inside a tool loop.
    opener: Option<TurnOpener>,
}

impl Prefix {
    fn extend(&mut self, m: Middle) -> Undo {
        if self.head.is_empty() {
            self.head = vec![Vec::new(); PASSES];
            self.trail = vec![Vec::new(); PASSES];
        }
        let undo = Undo {
            boundary: self.boundary,
            head: self.head.iter().map(Vec::len).collect(),
            trail: self.trail.iter().map(Vec::len).collect(),
            system: self.system.len(),
            undeclared: self.undeclared.len(),
            ids: m
                .ids
                .iter()
                .filter(|i| !self.ids.contains(*i))
                .cloned()
                .collect(),
            wire: self.wire.len(),
            wire_bytes: self.wire_bytes.len(),
            id_map: self.id_map.len(),
            emitted: m
                .id_map
                .iter()
                .filter(|(_, p)| !self.emitted.contains(p))
                .map(|(_, p)| p.clone())
                .collect(),
            names: m
                .names
                .iter()
                .filter(|(n, _)| !self.names.contains_key(n))
                .map(|(n, _)| n.clone())
                .collect(),
            projected_names: m
                .names
                .iter()
                .filter(|(_, p)| !self.projected_names.contains(p))
                .map(|(_, p)| p.clone())
                .collect(),
            renamed: self.renamed.len(),
            reasoning: self.reasoning,
            opener: self.opener,
        };
        self.boundary = m.boundary;
        self.opener = m.opener;
        for (dst, src) in self.head.iter_mut().zip(m.head) {
            dst.extend(src);
        }
        for (dst, src) in self.trail.iter_mut().zip(m.trail) {
            dst.extend(src);
        }
        self.system.extend(m.system);
        self.undeclared.extend(m.undeclared);
        self.ids.extend(m.ids);
        for v in &m.wire {
            if !self.wire_bytes.is_empty() {
                self.wire_bytes.push(b',');
            }
            // Writing JSON into a Vec<u8> cannot fail.
            let _ = serde_json::to_writer(&mut self.wire_bytes, v);
        }
        self.wire.extend(m.wire);
        for (_, p) in &m.id_map {
            self.emitted.insert(p.clone());
        }
        self.id_map.extend(m.id_map);
        for (n, p) in m.names {
            self.projected_names.insert(p.clone());
            self.names.entry(n).or_insert(p);
        }
        self.renamed.extend(m.renamed);
        self.reasoning |= m.reasoning;
        undo
    }

    /// Whether the boundary sits inside a tool loop.
    pub(crate) fn mid_turn(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Takes the prefix back to where the current turn opened; whether it moved.
    pub(crate) fn rewind(&mut self) -> bool {
        let moved = !self.steps.is_empty();
        while let Some(u) = self.steps.pop() {
            self.undo(u);
        }
        moved
    }

    fn undo(&mut self, u: Undo) {
        self.boundary = u.boundary;
        for (v, n) in self.head.iter_mut().zip(u.head) {
            v.truncate(n);
        }
        for (v, n) in self.trail.iter_mut().zip(u.trail) {
            v.truncate(n);
        }
        self.system.truncate(u.system);
        self.undeclared.truncate(u.undeclared);
        for i in u.ids {
            self.ids.remove(&i);
        }
        self.wire.truncate(u.wire);
        self.wire_bytes.truncate(u.wire_bytes);
        self.id_map.truncate(u.id_map);
        for p in u.emitted {
            self.emitted.remove(&p);
        }
        for n in u.names {
            self.names.remove(&n);
        }
        for p in u.projected_names {
            self.projected_names.remove(&p);
        }
        self.renamed.truncate(u.renamed);
        self.reasoning = u.reasoning;
        self.opener = u.opener;
    }
}

/// The tail rendered on its own, ready to be spliced after a [`Prefix`].
#[derive(Debug)]
pub(crate) struct Tail {
    /// The adapter's input messages: `stub` made-up messages, then the normalised tail.
    msgs: Vec<Message>,
    stub: usize,
    /// Input message index of each normalised tail message.
    origins: Vec<Option<usize>>,
    /// System texts the tail hoisted.
    system: Vec<String>,
    /// Per pass: the tail's diagnostics (final form).
    passes: Vec<Vec<Diagnostic>>,
    /// Tools first called by the tail and not declared, with the message of that call.
    undeclared: Vec<(String, Option<usize>)>,
    /// The body with the wire messages taken out.
    envelope: Map<String, Value>,
    /// The body member holding the wire messages.
    key: &'static str,
    /// Wire messages before the prefix's (a chat target's system message).
    lead: Vec<Value>,
    /// The tail's wire messages.
    pub wire: Vec<Value>,
    id_map: Vec<(String, String)>,
    /// Projection diagnostics other than renamed tools.
    notes: Vec<Diagnostic>,
    /// Tools renamed by the declarations.
    renamed_declared: Vec<Renamed>,
    /// Tools first renamed by the tail's calls.
    renamed_new: Vec<Renamed>,
    /// Tool names of the tail's calls → the names sent.
    names: HashMap<String, String>,
}

/// Why the cached prefix could not be used.
pub(crate) type Fallback = &'static str;

/// The body member that holds the wire messages.
fn wire_key(p: Provider) -> &'static str {
    match p {
        Provider::OpenAiResponses => "input",
        Provider::Gemini => "contents",
        _ => "messages",
    }
}

/// Whether the target's adapter puts the system prompt first in its wire messages.
fn system_in_wire(p: Provider) -> bool {
    !matches!(
        p,
        Provider::Anthropic | Provider::OpenAiResponses | Provider::Gemini
    )
}

/// Ids a message stores (call ids and the ids results answer).
fn stored_ids(m: &Message) -> impl Iterator<Item = &String> {
    m.blocks.iter().filter_map(|b| match b {
        Block::ToolCall(c) => Some(&c.id),
        Block::ToolResponse(r) => Some(&r.call_id),
        _ => None,
    })
}

fn call_names(msgs: &[Message]) -> impl Iterator<Item = &String> {
    msgs.iter().flat_map(|m| &m.blocks).filter_map(|b| match b {
        Block::ToolCall(c) => Some(&c.name),
        _ => None,
    })
}

/// A made-up assistant message holding one OpenAI reasoning item: it makes the Responses
/// adapter ask for encrypted reasoning as a prefix with reasoning does; its item is dropped.
fn reasoning_stub() -> Message {
    Message::new(
        Speaker::Ai,
        vec![Block::Thinking(ThinkingBlock {
            meta: Some(ProviderMeta::OpenAiReasoning {
                id: None,
                encrypted_content: Some("stub".into()),
            }),
            ..ThinkingBlock::default()
        })],
    )
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
        return Ok(Err("the tail normalised to nothing"));
    }
    if b > 0 {
        if n.thinking_enabled != nopts.thinking_enabled {
            return Ok(Err("the tail turns thinking off for the whole request"));
        }
        // (an orphan result turned into user text ends the turn too: look at the output)
        if prefix.mid_turn() && has_turn_rules(nopts) && turn_starts(&n.transcript.messages) {
            return Ok(Err(
                "a user turn follows a prefix that ends inside a tool loop",
            ));
        }
        // The tail opens with its first input message: a user turn, or the next step of a
        // tool loop (an assistant message after the prefix's results).
        let first = transcript.messages.get(b).map(|m| m.speaker);
        let opens = n
            .transcript
            .messages
            .first()
            .is_some_and(|m| m.speaker == Speaker::Human || Some(m.speaker) == first)
            && trace.origins.first() == Some(&Some(b));
        if !opens {
            return Ok(Err(
                "the tail does not open with its first message as a user turn",
            ));
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
            return Ok(Err("the tail mentions a call id of the prefix"));
        }
    }
    let Normalized {
        transcript: tail_transcript,
        system: tail_system,
        thinking_enabled,
        undeclared_tools,
        reasoning_field,
        diagnostics,
    } = n;

    // Diagnostics per pass.
    if trace.pass_ends.len() != PASSES || trace.pass_ends.last() != Some(&diagnostics.len()) {
        return Ok(Err("unexpected normaliser trace"));
    }
    let mut passes: Vec<Vec<Diagnostic>> = Vec::with_capacity(PASSES);
    let mut it = diagnostics.into_iter();
    let mut at = 0;
    for &end in &trace.pass_ends {
        passes.push(it.by_ref().take(end.saturating_sub(at)).collect());
        at = end;
    }
    // Tools declared for the history: one diagnostic each, at the first call; the prefix's
    // are already reported.
    let Some(declared_pass) = passes.last_mut() else {
        return Ok(Err("unexpected normaliser trace"));
    };
    if declared_pass.len() != undeclared_tools.len()
        || declared_pass
            .iter()
            .any(|d| d.code != DiagnosticCode::ToolDeclared)
    {
        return Ok(Err("unexpected tool declaration diagnostics"));
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

    // Project, after a stub that stands for the prefix where the envelope depends on it.
    let stub =
        usize::from(b > 0 && prefix.reasoning && options.provider == Provider::OpenAiResponses);
    let mut msgs = Vec::with_capacity(stub + tail_transcript.messages.len());
    if stub > 0 {
        msgs.push(reasoning_stub());
    }
    msgs.extend(tail_transcript.messages);
    let system_all: Vec<String> = prefix.system.iter().chain(&tail_system).cloned().collect();
    let lead = usize::from(
        system_in_wire(options.provider) && !system_text(options, &system_all).is_empty(),
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
    let msgs = input.transcript.messages;
    let tail_msgs = msgs.get(stub..).unwrap_or_default();

    let mut id_map = std::mem::take(&mut projection.id_map);
    // Kimi ids count the calls (`functions.read:7`): the tail's count on from the prefix's.
    let mut renumbered: HashMap<String, String> = HashMap::new();
    if b > 0 && !prefix.id_map.is_empty() && !id_map.is_empty() {
        if options.provider == Provider::Kimi {
            let offset = prefix.id_map.len();
            for (k, (_, id)) in id_map.iter_mut().enumerate() {
                let Some(stem) = id.strip_suffix(&format!(":{k}")) else {
                    return Ok(Err("unexpected Kimi call id"));
                };
                let counted = format!("{stem}:{}", k + offset);
                renumbered.insert(std::mem::replace(id, counted.clone()), counted);
            }
        } else if id_map.iter().any(|(c, _)| c.is_empty()) {
            return Ok(Err("the tail's wire ids depend on the prefix's call count"));
        }
        if id_map.iter().any(|(_, p)| prefix.emitted.contains(p)) {
            return Ok(Err("a wire id of the tail is one of the prefix's"));
        }
    }

    // Tool names.
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
        if b > 0 && !fits {
            return Ok(Err(
                "a tool name of the tail is sent differently after the prefix",
            ));
        }
        names.insert(name.clone(), to.to_string());
    }
    let mut notes = std::mem::take(&mut projection.diagnostics);
    let Some(split) = notes.len().checked_sub(renamed.len()) else {
        return Ok(Err("unexpected projection diagnostics"));
    };
    let renamed_diags = notes.split_off(split);
    let finish = |d: &mut Diagnostic| {
        d.provider = Some(options.provider);
        if let Some(id) = &d.call_id {
            d.emitted_id = projection
                .emitted(id)
                .map(|e| renumbered.get(e).unwrap_or(e).clone());
        }
    };
    let declared: HashSet<&str> = options
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .chain(input.undeclared_tools.iter().map(String::as_str))
        .collect();
    let mut renamed_declared = Vec::new();
    let mut renamed_new = Vec::new();
    for ((from, to), mut diagnostic) in renamed.into_iter().zip(renamed_diags) {
        finish(&mut diagnostic);
        if declared.contains(from.as_str()) {
            renamed_declared.push(Renamed {
                from,
                to,
                diagnostic,
            });
        } else if !prefix.names.contains_key(&from) {
            renamed_new.push(Renamed {
                from,
                to,
                diagnostic,
            });
        }
    }
    for d in passes.iter_mut().flatten().chain(notes.iter_mut()) {
        finish(d);
    }

    // Take the wire messages out of the body.
    let key = wire_key(options.provider);
    let Value::Object(mut envelope) = body else {
        return Ok(Err("the body is not an object"));
    };
    let Some(Value::Array(mut wire)) = envelope.get_mut(key).map(Value::take) else {
        return Ok(Err("the body has no wire messages"));
    };
    if wire.len() < lead + stub {
        return Ok(Err("unexpected wire messages"));
    }
    let mut rest = wire.split_off(lead);
    let stubs: Vec<Value> = rest.drain(..stub).collect();
    if stubs
        .iter()
        .any(|s| s.get("type").and_then(Value::as_str) != Some("reasoning"))
    {
        return Ok(Err("unexpected wire messages"));
    }
    if !renumbered.is_empty() {
        for m in &mut rest {
            renumber(m, &renumbered);
        }
    }
    Ok(Ok(Tail {
        msgs,
        stub,
        origins: trace.origins,
        system: tail_system,
        passes,
        undeclared,
        envelope,
        key,
        lead: wire,
        wire: rest,
        id_map,
        notes,
        renamed_declared,
        renamed_new,
        names,
    }))
}

/// Renames the call ids of a Chat Completions wire message (`tool_calls[].id`,
/// `tool_call_id`).
fn renumber(message: &mut Value, ids: &HashMap<String, String>) {
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

/// A string no body holds elsewhere (checked), where the wire messages go.
const SPLICE: &str = "\u{0}turnwire:wire-messages\u{0}";

/// The body of `prefix` + `tail` as the byte slices that make it up, in order, given to
/// `sink`; `None` (and `sink` not called) when they cannot be spliced.
pub(crate) fn write_body(
    prefix: &Prefix,
    tail: &Tail,
    sink: &mut dyn FnMut(&[&[u8]]),
) -> Option<()> {
    let mut envelope = tail.envelope.clone();
    envelope.insert(tail.key.to_string(), Value::String(SPLICE.to_string()));
    let text = Value::Object(envelope).to_string();
    let marker = Value::String(SPLICE.to_string()).to_string();
    let at = text.find(&marker)?;
    let after = at + marker.len();
    if text.get(after..)?.contains(&marker) {
        return None;
    }
    let items = |values: &[Value]| -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            serde_json::to_writer(&mut out, v).ok()?;
        }
        Some(out)
    };
    let (lead, own) = (items(&tail.lead)?, items(&tail.wire)?);
    let (open, close) = (text.get(..at)?.as_bytes(), text.get(after..)?.as_bytes());
    let mut parts: Vec<&[u8]> = vec![open, b"["];
    for part in [
        lead.as_slice(),
        prefix.wire_bytes.as_slice(),
        own.as_slice(),
    ] {
        if part.is_empty() {
            continue;
        }
        if parts.len() > 2 {
            parts.push(b",");
        }
        parts.push(part);
    }
    parts.push(b"]");
    parts.push(close);
    sink(&parts);
    Some(())
}

/// The body value of `prefix` + `tail`.
pub(crate) fn body_value(prefix: &Prefix, tail: &Tail) -> Value {
    let mut envelope = tail.envelope.clone();
    let mut wire = Vec::with_capacity(tail.lead.len() + prefix.wire.len() + tail.wire.len());
    wire.extend(tail.lead.iter().cloned());
    wire.extend(prefix.wire.iter().cloned());
    wire.extend(tail.wire.iter().cloned());
    envelope.insert(tail.key.to_string(), Value::Array(wire));
    Value::Object(envelope)
}

/// Canonical → provider ids of `prefix` + `tail`.
pub(crate) fn id_map(prefix: &Prefix, tail: &Tail) -> Vec<(String, String)> {
    prefix.id_map.iter().chain(&tail.id_map).cloned().collect()
}

fn all_renamed<'a>(prefix: &'a Prefix, tail: &'a Tail) -> impl Iterator<Item = &'a Renamed> {
    tail.renamed_declared
        .iter()
        .chain(&prefix.renamed)
        .chain(&tail.renamed_new)
}

/// Renamed tools of `prefix` + `tail`, in the order the full render names them.
pub(crate) fn tool_names(prefix: &Prefix, tail: &Tail) -> Vec<(String, String)> {
    all_renamed(prefix, tail)
        .map(|r| (r.from.clone(), r.to.clone()))
        .collect()
}

/// Diagnostics of `prefix` + `tail`, in the full render's order.
pub(crate) fn diagnostics(prefix: &Prefix, tail: &Tail) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (p, own) in tail.passes.iter().enumerate() {
        out.extend(prefix.head.get(p).into_iter().flatten().cloned());
        out.extend(own.iter().cloned());
        out.extend(prefix.trail.get(p).into_iter().flatten().cloned());
    }
    out.extend(tail.notes.iter().cloned());
    out.extend(all_renamed(prefix, tail).map(|r| r.diagnostic.clone()));
    out
}

/// Whether a message could open a tail: a user message of text, code and media with some
/// non-blank text.
fn opens_turn(m: &Message) -> bool {
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
fn closes_turn(m: &Message) -> bool {
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
fn turn_opener(
    prefix: &Prefix,
    middle: &[Message],
    origins: &[Option<usize>],
) -> Option<TurnOpener> {
    let opens = |k: usize| {
        middle.get(k).is_some_and(|m| m.speaker == Speaker::Human)
            && (k == 0
                || middle
                    .get(k - 1)
                    .is_some_and(|p| p.speaker != Speaker::Tool))
    };
    let Some(start) = (0..middle.len()).rev().find(|&k| opens(k)) else {
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
fn turn_starts(msgs: &[Message]) -> bool {
    (0..msgs.len()).any(|k| {
        msgs[k].speaker == Speaker::Human && (k == 0 || msgs[k - 1].speaker != Speaker::Tool)
    })
}

/// Whether `at` is the next step of a tool loop: an assistant message right after a tool
/// message of results.
fn next_step(before: &Message, at: &Message) -> bool {
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
    nopts: &NormalizeOptions,
) -> Option<usize> {
    let turn_rules = has_turn_rules(nopts);
    let msgs = &transcript.messages;
    // A boundary inside a tool loop only holds while no user message follows it.
    let mut user_after = false;
    (from + 1..msgs.len()).rev().find(|&i| {
        let (Some(before), Some(at)) = (msgs.get(i - 1), msgs.get(i)) else {
            return false;
        };
        let found =
            (opens_turn(at) && closes_turn(before)) || (!user_after && next_step(before, at));
        user_after |= turn_rules && at.speaker == Speaker::Human && before.speaker != Speaker::Tool;
        found
    })
}

/// Splits `tail` at input message `to` and moves the part before it into `prefix`, then checks
/// that rendering through the new boundary gives exactly what `tail` gave (after the old
/// prefix). Returns whether the boundary moved (on `false` the prefix is as it was).
pub(crate) fn advance(
    prefix: &mut Prefix,
    tail: &Tail,
    to: usize,
    transcript: &Transcript,
    options: &RenderOptions,
    nopts: &NormalizeOptions,
) -> Result<bool, Error> {
    let Some((middle, cuts)) = split(prefix, tail, to, transcript, options, nopts) else {
        return Ok(false);
    };
    let undo = prefix.extend(middle);
    let same = match render_tail(prefix, transcript, options, nopts)? {
        Ok(after) => agrees(prefix, &undo, tail, &cuts, &after),
        Err(_) => false,
    };
    if !same {
        prefix.undo(undo);
    } else if transcript
        .messages
        .get(to)
        .is_some_and(|m| m.speaker == Speaker::Ai)
    {
        prefix.steps.push(undo);
    } else {
        prefix.steps.clear();
    }
    Ok(same)
}

/// Where the middle's share of a tail's lists ends.
struct Cuts {
    wire: usize,
    id_map: usize,
    renamed: usize,
}

/// Whether `prefix` (just extended, `undo` saying by what) + `after` is the old prefix +
/// `before`: the result of every render through the new boundary is the old one's.
fn agrees(prefix: &Prefix, undo: &Undo, before: &Tail, cuts: &Cuts, after: &Tail) -> bool {
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
        && before.passes.len() == PASSES
        && after.passes.len() == PASSES;
    lists
        && (0..PASSES).all(|p| {
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
fn same_value(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => same_map(x, y),
        (Value::Array(x), Value::Array(y)) => same_values(x, y),
        _ => a == b,
    }
}

fn same_values(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| same_value(x, y))
}

fn same_map(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|((ka, va), (kb, vb))| ka == kb && same_value(va, vb))
}

/// The facts of the tail's messages before input message `to`.
fn split(
    prefix: &Prefix,
    tail: &Tail,
    to: usize,
    transcript: &Transcript,
    options: &RenderOptions,
    nopts: &NormalizeOptions,
) -> Option<(Middle, Cuts)> {
    let msgs = tail.msgs.get(tail.stub..)?;
    let origins = &tail.origins;
    // The normalised message that opens the new tail, and the assistant message before it.
    let j = origins.iter().position(|o| *o == Some(to))?;
    let before_ok = origins[..j].iter().all(|o| o.is_none_or(|i| i < to));
    let after_ok = origins[j..].iter().all(|o| o.is_none_or(|i| i >= to));
    // A user turn after an assistant message, or a tool loop's next step after its results.
    let pair = (
        j.checked_sub(1)
            .and_then(|i| msgs.get(i))
            .map(|m| m.speaker),
        msgs.get(j).map(|m| m.speaker),
    );
    // Inside a tool loop only while no user message follows (an orphan result turned into
    // user text counts): one would move the current turn's start past the prefix.
    let no_user_after = || !has_turn_rules(nopts) || !turn_starts(&msgs[j..]);
    let (closes, opens) = match pair {
        (Some(Speaker::Ai), Some(Speaker::Human)) => (true, true),
        (Some(Speaker::Tool), Some(Speaker::Ai)) if no_user_after() => (true, true),
        _ => (false, false),
    };
    if !(before_ok && after_ok && opens && closes && origins.len() == msgs.len()) {
        return None;
    }
    let later = |d: &Diagnostic| d.message_index.is_some_and(|i| i >= to);
    // Diagnostics: each pass's own come in message order; the leading user turn's comes last.
    let mut head = Vec::with_capacity(PASSES);
    let mut trail = Vec::with_capacity(PASSES);
    let mut hoisted_later = 0;
    for pass in &tail.passes {
        let cut = pass.iter().position(later).unwrap_or(pass.len());
        if pass[cut..]
            .iter()
            .any(|d| d.message_index.is_some_and(|i| i < to))
        {
            return None;
        }
        hoisted_later += pass[cut..]
            .iter()
            .filter(|d| d.code == DiagnosticCode::SystemHoisted)
            .count();
        let leading = |d: &&Diagnostic| d.code == DiagnosticCode::LeadingUserInserted;
        head.push(
            pass[..cut]
                .iter()
                .filter(|d| !leading(d))
                .cloned()
                .collect::<Vec<_>>(),
        );
        trail.push(pass.iter().filter(leading).cloned().collect::<Vec<_>>());
    }
    let system = tail
        .system
        .get(..tail.system.len().checked_sub(hoisted_later)?)?
        .to_vec();
    let undeclared = &tail.undeclared;
    let first_later = undeclared
        .iter()
        .position(|(_, at)| at.is_some_and(|i| i >= to))
        .unwrap_or(undeclared.len());
    if undeclared[first_later..]
        .iter()
        .any(|(_, at)| !at.is_some_and(|i| i >= to))
    {
        return None;
    }
    let undeclared: Vec<String> = undeclared[..first_later]
        .iter()
        .map(|(n, _)| n.clone())
        .collect();
    let middle_msgs = &msgs[..j];
    let mut ids: Vec<String> = transcript
        .messages
        .get(prefix.boundary..to)?
        .iter()
        .flat_map(stored_ids)
        .chain(middle_msgs.iter().flat_map(stored_ids))
        .chain(
            head.iter()
                .chain(&trail)
                .flatten()
                .filter_map(|d| d.call_id.as_ref()),
        )
        .cloned()
        .collect();
    ids.sort_unstable();
    ids.dedup();
    // Wire messages of the middle: project it alone, with the same envelope inputs.
    let count = {
        let system_all: Vec<String> = prefix.system.iter().chain(&system).cloned().collect();
        let lead = usize::from(
            system_in_wire(options.provider) && !system_text(options, &system_all).is_empty(),
        );
        let input = Normalized {
            transcript: Transcript::new(middle_msgs.to_vec()),
            system: system_all,
            thinking_enabled: false,
            undeclared_tools: Vec::new(),
            reasoning_field: false,
            diagnostics: Vec::new(),
        };
        let (body, _) = project(&input, options);
        body.get(wire_key(options.provider))?
            .as_array()?
            .len()
            .checked_sub(lead)?
    };
    let wire = tail.wire.get(..count)?.to_vec();
    let call_ids: HashSet<&String> = middle_msgs
        .iter()
        .flat_map(|m| &m.blocks)
        .filter_map(|b| match b {
            Block::ToolCall(c) => Some(&c.id),
            _ => None,
        })
        .collect();
    let mapped = tail
        .id_map
        .iter()
        .take_while(|(c, _)| call_ids.contains(c))
        .count();
    if tail.id_map[mapped..]
        .iter()
        .any(|(c, _)| call_ids.contains(c))
    {
        return None;
    }
    let id_map = tail.id_map[..mapped].to_vec();
    let mut names: Vec<(String, String)> = Vec::new();
    for name in call_names(middle_msgs) {
        if names.iter().any(|(n, _)| n == name) {
            continue;
        }
        names.push((name.clone(), tail.names.get(name)?.clone()));
    }
    let named = tail
        .renamed_new
        .iter()
        .take_while(|r| names.iter().any(|(n, _)| *n == r.from))
        .count();
    let renamed = tail.renamed_new[..named].to_vec();
    let reasoning = options.provider == Provider::OpenAiResponses
        && wire
            .iter()
            .any(|w| w.get("type").and_then(Value::as_str) == Some("reasoning"));
    let opener = match msgs.get(j).map(|m| m.speaker) {
        Some(Speaker::Ai) => turn_opener(prefix, middle_msgs, origins),
        _ => None,
    };
    Some((
        Middle {
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
        },
        Cuts {
            wire: count,
            id_map: mapped,
            renamed: named,
        },
    ))
}
