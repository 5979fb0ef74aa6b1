//! Thinking and continuity policy for the render target (REQ-915-023…025).
//!
//! A thinking block is replayed as thinking only when the target can verify it: an Anthropic
//! signature (or redacted data) produced by the same provider and model, on a request with
//! thinking on. Everything else is dropped or turned into plain text by option, and continuity
//! tokens of other providers (Gemini thought signatures, OpenAI reasoning items) are not
//! replayed. Every decision is a diagnostic.

use super::continuity::{self, Fate};
use super::options::{ForeignThinking, NormalizeOptions, Profile, ThinkingReplay};
use super::work::{current_turn_start, describe, Item, Msg};
use crate::model::{Block, Provenance, ProviderMeta, Speaker, TextBlock};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Replaces a thinking block the target cannot take, per policy. Returns the replacement item.
fn convert(
    item: Item,
    why: &str,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Option<Item> {
    let Block::Thinking(t) = &item.block else {
        return Some(item);
    };
    let as_text = opts.foreign_thinking == ForeignThinking::Text && !t.thought.trim().is_empty();
    let (code, action) = if as_text {
        (DiagnosticCode::ThinkingAsText, "sent as plain text")
    } else {
        (DiagnosticCode::ThinkingDropped, "left out")
    };
    diags.push(
        Diagnostic::new(
            code,
            FaultClass::ProviderProjection,
            format!(
                "thinking at {} ({} characters) {action}: {why}",
                describe(item.origin),
                t.thought.chars().count()
            ),
        )
        .at(item.origin),
    );
    if as_text {
        Some(Item {
            detached: false,
            block: Block::Text(TextBlock::new(format!(
                "<thinking>\n{}\n</thinking>",
                t.thought
            ))),
            origin: item.origin,
        })
    } else {
        None
    }
}

/// Per-block policy (see [`super::continuity`]): keep what the target can verify, reuse
/// reasoning text where the target requires it, convert or drop the rest, strip tokens meant for
/// another model.
pub(crate) fn apply(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::for_options(opts);
    let required = required_reasoning(&msgs, profile);
    let mut out = Vec::with_capacity(msgs.len());
    for (i, mut m) in msgs.into_iter().enumerate() {
        let prov = m.provenance();
        let needs = required.contains(&i);
        let mut items = Vec::with_capacity(m.items.len());
        for mut item in std::mem::take(&mut m.items) {
            match &mut item.block {
                Block::Thinking(t) => match continuity::thinking(t, &prov, opts, profile, needs) {
                    Fate::Keep => {
                        strip_details(&mut item, opts, diags);
                        items.push(item)
                    }
                    Fate::Reuse(why) => {
                        strip_details(&mut item, opts, diags);
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::ReasoningReused,
                                FaultClass::ProviderProjection,
                                format!("thinking at {}: {why}", describe(item.origin)),
                            )
                            .at(item.origin),
                        );
                        items.push(item);
                    }
                    Fate::Convert(why) => items.extend(convert(item, &why, opts, diags)),
                },
                Block::Text(TextBlock {
                    meta,
                    text,
                    provenance,
                    ..
                }) => {
                    if meta.is_some() {
                        let block_prov = provenance
                            .as_ref()
                            .map_or_else(|| prov.clone(), |p| p.or(&prov));
                        keep_or_strip(meta, &block_prov, item.origin, opts, profile, diags);
                    }
                    // an empty text part only carried its signature: nothing is left to send
                    if meta.is_some() || !text.trim().is_empty() {
                        items.push(item);
                    }
                }
                Block::ToolCall(c) => {
                    if c.meta.is_some() {
                        let block_prov = c
                            .provenance
                            .as_ref()
                            .map_or_else(|| prov.clone(), |p| p.or(&prov));
                        keep_or_strip(&mut c.meta, &block_prov, item.origin, opts, profile, diags);
                    }
                    items.push(item);
                }
                Block::ToolResponse(r) => {
                    if r.meta.is_some() {
                        keep_or_strip(&mut r.meta, &prov, item.origin, opts, profile, diags);
                    }
                    items.push(item);
                }
                _ => items.push(item),
            }
        }
        if profile.thinking == ThinkingReplay::ReasoningItems {
            items = lone_reasoning(items, opts, diags);
        }
        m.items = items;
        if m.items.is_empty() {
            continue;
        }
        out.push(m);
    }
    out
}

/// A kept thinking block's OpenRouter `reasoning_details` go only to OpenRouter (ORT-02):
/// elsewhere they are taken off, and said so.
fn strip_details(item: &mut Item, opts: &NormalizeOptions, diags: &mut Vec<Diagnostic>) {
    let Block::Thinking(t) = &mut item.block else {
        return;
    };
    let Some(why) = continuity::details_not_sent(t, opts) else {
        return;
    };
    t.meta = None;
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ContinuityDropped,
            FaultClass::ProviderProjection,
            format!(
                "openrouter_reasoning_details at {} are not replayed: {why}",
                describe(item.origin)
            ),
        )
        .at(item.origin),
    );
}

/// ORS-03: a reasoning item must be followed by the message or call it belongs to; one directly
/// followed by more thinking lost that item (an interrupted step) and is converted.
fn lone_reasoning(
    items: Vec<Item>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Item> {
    let followed_by_thinking: Vec<bool> = (0..items.len())
        .map(|i| matches!(items.get(i + 1).map(|n| &n.block), Some(Block::Thinking(_))))
        .collect();
    items
        .into_iter()
        .zip(followed_by_thinking)
        .filter_map(|(item, lone)| match (&item.block, lone) {
            (Block::Thinking(_), true) => convert(
                item,
                "a reasoning item must be followed by the message or call it belongs to, and this one is followed by more reasoning",
                opts,
                diags,
            ),
            _ => Some(item),
        })
        .collect()
}

/// The assistant messages that must carry reasoning: with a `reasoning_content` target that
/// requires it, every message with tool calls. (DeepSeek documents the need for the current tool
/// loop, Kimi's servers reject any tool-call message without it, DSK-03 / KIM-03; sending it on
/// every tool-call turn satisfies both.)
pub(crate) fn required_reasoning(msgs: &[Msg], profile: Profile) -> Vec<usize> {
    if profile.thinking != (ThinkingReplay::ReasoningField { required: true }) {
        return Vec::new();
    }
    (0..msgs.len())
        .filter(|&i| {
            msgs.get(i)
                .is_some_and(|m| m.speaker == Speaker::Ai && m.has_calls())
        })
        .collect()
}

/// A continuity token on a call or text part: kept for the model that made it, else dropped.
fn keep_or_strip(
    meta: &mut Option<ProviderMeta>,
    prov: &Provenance,
    origin: Option<(usize, usize)>,
    opts: &NormalizeOptions,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(m) = meta.as_ref() else { return };
    let verdict = match m {
        ProviderMeta::GeminiThoughtSignature { thought_signature } => {
            continuity::gemini_token(thought_signature, prov, opts, profile)
        }
        ProviderMeta::OpenAiPhase { .. } | ProviderMeta::OpenAiItem { .. } => {
            continuity::responses_label(m, opts)
        }
        other => Err(format!("a {} does not belong on this part", other.kind())),
    };
    if let Err(why) = verdict {
        let kind = match m {
            ProviderMeta::OpenAiItem { item_type, .. } => format!("openai_item `{item_type}`"),
            other => other.kind().to_string(),
        };
        *meta = None;
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuityDropped,
                FaultClass::ProviderProjection,
                format!(
                    "{kind} at {} is not replayed to {}: {why}",
                    describe(origin),
                    opts.target
                ),
            )
            .at(origin),
        );
    }
}

/// ANT-11 after merging: a message that holds thinking must start with it; thinking that does
/// not lead its message is converted or dropped.
pub(crate) fn enforce_leading(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if Profile::for_options(opts).thinking != ThinkingReplay::AnthropicSigned {
        return msgs;
    }
    let profile = Profile::for_options(opts);
    msgs.into_iter()
        .map(|mut m| {
            if m.speaker == Speaker::Ai {
                after_fallback(&mut m, opts, profile, diags);
            }
            let leads = matches!(m.items.first().map(|i| &i.block), Some(Block::Thinking(_)));
            let has = m.items.iter().any(|i| matches!(i.block, Block::Thinking(_)));
            if m.speaker == Speaker::Ai && has && !leads {
                let items = std::mem::take(&mut m.items);
                m.items = items
                    .into_iter()
                    .filter_map(|it| match it.block {
                        Block::Thinking(_) => convert(
                            it,
                            "a message with thinking must start with it, and this one starts with other content",
                            opts,
                            diags,
                        ),
                        _ => Some(it),
                    })
                    .collect();
            }
            m
        })
        .collect()
}

/// ANT-43: thinking that stands after a `fallback` block in the message as sent came from the
/// block's `to` model (the API reads it so). Pieces merged into one message after the thinking
/// policy ran can put thinking there; it is judged again as that model's.
fn after_fallback(
    m: &mut Msg,
    opts: &NormalizeOptions,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let has_fallback = m.items.iter().any(|i| {
        matches!(&i.block, Block::ServerTool(s) if s.provider == "anthropic" && s.name == "fallback")
    });
    if !has_fallback {
        return;
    }
    crate::model::fallback::attribute(m.items.iter_mut().map(|i| &mut i.block));
    let prov = m.provenance();
    let items = std::mem::take(&mut m.items);
    for mut item in items {
        let fate = match &mut item.block {
            Block::Thinking(t) => Some(continuity::thinking(t, &prov, opts, profile, false)),
            _ => None,
        };
        match fate {
            Some(Fate::Convert(why)) => m.items.extend(convert(item, &why, opts, diags)),
            _ => m.items.push(item),
        }
    }
}

/// ANT-10: with thinking on, a request that continues an open tool loop (or ends with an
/// assistant message to continue) needs the first assistant message of that turn — a tool loop
/// is one assistant turn — to start with the model's own thinking. When it does not (the loop was opened by another model), the request runs with
/// thinking off and says why. Returns whether thinking stays on.
pub(crate) fn request_setting(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    opener: Option<super::TurnOpener>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, bool) {
    if !opts.thinking_enabled
        || Profile::for_options(opts).thinking != ThinkingReplay::AnthropicSigned
    {
        return (msgs, opts.thinking_enabled);
    }
    // The loop is open when the request ends with tool results, including results that share
    // the final user message with the user's words (Anthropic folds them into one message).
    let n = msgs.len();
    let speaker_at = |back: usize| {
        n.checked_sub(back)
            .and_then(|i| msgs.get(i))
            .map(|m| m.speaker)
    };
    let open_loop = speaker_at(1) == Some(Speaker::Tool)
        || (speaker_at(1) == Some(Speaker::Human) && speaker_at(2) == Some(Speaker::Tool));
    // A history that ends with an assistant message asks the model to continue it (prefill):
    // with thinking on, that message must start with thinking too.
    let prefill = speaker_at(1) == Some(Speaker::Ai);
    if !open_loop && !prefill {
        return (msgs, true);
    }
    // A tool loop is one assistant turn: the turn starts after the last user message that is
    // not folded into tool results, and its first assistant message must start with thinking.
    let turn_start = current_turn_start(&msgs, true);
    let caller = msgs
        .iter()
        .skip(turn_start)
        .find(|m| m.speaker == Speaker::Ai);
    // The turn may have opened before these messages (a tail inside a tool loop).
    let (starts_with_thinking, caller_origin) = match opener.filter(|_| turn_start == 0) {
        Some(o) => (o.thinking, o.origin),
        None => (
            caller
                .and_then(|m| m.items.first())
                .is_some_and(|i| matches!(i.block, Block::Thinking(_))),
            caller.and_then(|m| m.origin),
        ),
    };
    if starts_with_thinking {
        return (msgs, true);
    }
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ThinkingDisabledForRequest,
            FaultClass::ProviderProjection,
            format!(
                "{} does not start with thinking signed by {} / {}; Anthropic requires it with thinking on, so this request runs with thinking off",
                if open_loop {
                    "the first assistant message of the open tool loop"
                } else {
                    "the assistant turn being continued (a prefill)"
                },
                opts.target,
                opts.model
            ),
        )
        .at_message(caller_origin),
    );
    let off = NormalizeOptions {
        thinking_enabled: false,
        ..opts.clone()
    };
    (apply(msgs, &off, diags), false)
}

#[cfg(test)]
mod tests;
