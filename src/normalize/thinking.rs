//! Thinking and continuity policy for the render target (REQ-915-023…025).
//!
//! A thinking block is replayed as thinking only when the target can verify it: an Anthropic
//! signature (or redacted data) produced by the same provider and model, on a request with
//! thinking on. Everything else is dropped or turned into plain text by option, and continuity
//! tokens of other providers (Gemini thought signatures, OpenAI reasoning items) are not
//! replayed. Every decision is a diagnostic.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::{ForeignThinking, NormalizeOptions, Profile};
use super::work::{describe, Item, Msg};
use crate::model::{Block, Provenance, ProviderMeta, Speaker, TextBlock, ThinkingBlock};

fn target_provenance(opts: &NormalizeOptions) -> Provenance {
    Provenance {
        provider: Some(opts.target.as_str().to_string()),
        api: None,
        model: Some(opts.model.clone()),
        endpoint: opts.endpoint.clone(),
    }
}

fn describe_origin(p: &Provenance) -> String {
    let mut s = format!(
        "{} / {}",
        p.provider.as_deref().unwrap_or("an unknown provider"),
        p.model.as_deref().unwrap_or("an unknown model")
    );
    if let Some(e) = &p.endpoint {
        s.push_str(&format!(" at {e}"));
    }
    s
}

/// Why a thinking block cannot be replayed as thinking, or `None` when it can.
fn refusal(t: &ThinkingBlock, msg_prov: &Provenance, opts: &NormalizeOptions) -> Option<String> {
    let profile = Profile::of(opts.target);
    if !profile.replays_anthropic_thinking {
        return Some(format!("{} cannot take thinking blocks", opts.target));
    }
    let signed = match &t.meta {
        Some(ProviderMeta::AnthropicSignature { signature }) => !signature.is_empty(),
        Some(ProviderMeta::AnthropicRedacted { data }) => !data.is_empty(),
        _ => false,
    };
    if !signed {
        return Some("it carries no Anthropic signature".into());
    }
    let prov = t.provenance.clone().unwrap_or_default().or(msg_prov);
    let target = target_provenance(opts);
    if prov.is_empty() {
        if !opts.trust_unattributed_thinking {
            return Some(
                "its provenance is unknown, so its signature cannot be attributed to this model"
                    .into(),
            );
        }
    } else if !prov.same_model_as(&target) {
        return Some(format!(
            "it was signed by {}, not {}",
            describe_origin(&prov),
            describe_origin(&target)
        ));
    }
    if !opts.thinking_enabled {
        return Some("thinking is off for this request".into());
    }
    None
}

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

/// Per-block policy: keep verifiable thinking, convert or drop the rest, strip foreign tokens.
pub(crate) fn apply(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let mut out = Vec::with_capacity(msgs.len());
    for mut m in msgs {
        let prov = m.provenance();
        let mut items = Vec::with_capacity(m.items.len());
        for mut item in std::mem::take(&mut m.items) {
            match &mut item.block {
                Block::Thinking(t) => match refusal(t, &prov, opts) {
                    None => items.push(item),
                    Some(why) => items.extend(convert(item, &why, opts, diags)),
                },
                Block::Text(TextBlock { meta, .. }) => {
                    strip_token(meta, item.origin, opts, diags);
                    items.push(item);
                }
                Block::ToolCall(c) => {
                    strip_token(&mut c.meta, item.origin, opts, diags);
                    items.push(item);
                }
                _ => items.push(item),
            }
        }
        m.items = items;
        if m.items.is_empty() {
            continue;
        }
        out.push(m);
    }
    out
}

/// Gemini thought signatures on text and call parts are only for Gemini.
fn strip_token(
    meta: &mut Option<ProviderMeta>,
    origin: Option<(usize, usize)>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) {
    if let Some(m) = meta.take() {
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuityDropped,
                FaultClass::ProviderProjection,
                format!(
                    "{} at {} is not replayed to {}",
                    m.kind(),
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
    msgs.into_iter()
        .map(|mut m| {
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

/// ANT-10: with thinking on, a request that continues an open tool loop (or ends with an
/// assistant message to continue) needs that assistant message to start with the model's own
/// thinking. When it does not (the loop was opened by another model), the request runs with
/// thinking off and says why. Returns whether thinking stays on.
pub(crate) fn request_setting(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, bool) {
    if !opts.thinking_enabled || !Profile::of(opts.target).replays_anthropic_thinking {
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
    let caller = msgs.iter().rev().find(|m| m.speaker == Speaker::Ai);
    let starts_with_thinking = caller
        .and_then(|m| m.items.first())
        .is_some_and(|i| matches!(i.block, Block::Thinking(_)));
    if starts_with_thinking {
        return (msgs, true);
    }
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ThinkingDisabledForRequest,
            FaultClass::ProviderProjection,
            format!(
                "{} does not start with thinking signed by {} / {}; Anthropic requires it with thinking on, so this request runs with thinking off",
                if open_loop { "the assistant message of the open tool loop" } else { "the final assistant message (a prefill)" },
                opts.target,
                opts.model
            ),
        )
        .at_message(caller.and_then(|m| m.origin)),
    );
    let off = NormalizeOptions {
        thinking_enabled: false,
        ..opts.clone()
    };
    (apply(msgs, &off, diags), false)
}
