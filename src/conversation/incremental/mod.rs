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
//!
//! # Layout
//!
//! `prefix` (the cache and its undo journal), `tail` (render the tail and check it),
//! `wire` (the tail's projection taken apart: wire ids, tool names, wire messages),
//! `boundary` (candidates, and moving the boundary with its agreement check), `split` (the
//! facts of a tail's messages before a new boundary), `splice` (body, ids, names and
//! diagnostics joined), `fallback` (why a render could not use the cache).

mod boundary;
mod fallback;
mod prefix;
mod segments;
pub(crate) mod sent;
mod splice;
mod split;
mod tail;
mod wire;

use boundary::turn_starts;
pub(crate) use boundary::{advance, candidate};
pub use fallback::Fallback;
pub(crate) use prefix::Prefix;
use prefix::{Middle, Undo};
pub(crate) use splice::{betas, body_value, diagnostics, id_map, tool_names, write_body};
pub(crate) use tail::{render_tail, Tail};

use crate::fast_map::{HashMap, HashSet};

use serde_json::{Map, Value};

use crate::error::Error;
use crate::model::{Block, Message, ProviderMeta, Speaker, ThinkingBlock, Transcript};
use crate::normalize::{
    has_turn_rules, normalize_traced, starts_turn, starts_turn_at, Normalized, Trace, TurnOpener,
    PASSES,
};
use crate::providers::common::system_text;
use crate::render::{empty_transcript, project};
use crate::request::{RenderOptions, Resolved};
use crate::vocab::Provider;
use crate::vocab::WireApi;
use crate::vocab::{Diagnostic, DiagnosticCode, Pass};

/// Diagnostics split by normaliser pass, in the order of [`PASSES`].
pub(super) type ByPass = Vec<Vec<Diagnostic>>;

/// A renamed tool and the diagnostic that reports it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Renamed {
    pub from: String,
    pub to: String,
    pub diagnostic: Diagnostic,
}

/// The whole request's system prompt texts (the prefix's, then `system`), and how many wire
/// messages they take (one where the target puts the system prompt first among its messages).
pub(super) fn system_lead(
    prefix: &Prefix,
    system: &[String],
    options: &RenderOptions,
) -> (Vec<String>, usize) {
    let all: Vec<String> = prefix.system.iter().chain(system).cloned().collect();
    let lead = usize::from(
        WireApi::of(options.provider).system_in_messages()
            && !system_text(options, &all).is_empty(),
    );
    (all, lead)
}

/// Ids a message stores (call ids and the ids results answer).
pub(super) fn stored_ids(m: &Message) -> impl Iterator<Item = &String> {
    m.blocks.iter().filter_map(|b| match b {
        Block::ToolCall(c) => Some(&c.id),
        Block::ToolResponse(r) => Some(&r.call_id),
        _ => None,
    })
}

pub(super) fn call_names(msgs: &[Message]) -> impl Iterator<Item = &String> {
    msgs.iter().flat_map(|m| &m.blocks).filter_map(|b| match b {
        Block::ToolCall(c) => Some(&c.name),
        _ => None,
    })
}

/// A made-up assistant message holding one OpenAI reasoning item: it makes the Responses
/// adapter ask for encrypted reasoning as a prefix with reasoning does; its item is dropped.
pub(super) fn reasoning_stub() -> Message {
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
