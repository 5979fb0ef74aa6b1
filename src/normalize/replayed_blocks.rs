//! The Anthropic API's own blocks that are no tool's (kept as server-tool blocks for replay):
//!
//! - `fallback` (ANT-43): where a refusal handed the turn to another model. Replayed to
//!   Anthropic in its place ("keep this block in its original position": without it the
//!   thinking on both sides merges into one span the server rejects); left out for every other
//!   target, which has no use for it (`block_omitted`).
//! - `compaction` (ANT-44): a server-side summary of the earlier context. Replayed to Anthropic
//!   with its `content` (and `signature`, `tool_changes`) but never its `encrypted_content`,
//!   which the API refuses (`…compaction.encrypted_content: Extra inputs are not permitted`,
//!   `continuity_dropped`); a failed compaction (`content` null, or the refused `""`) is a
//!   no-op and is left out (`block_omitted`). Other targets read the summary as text.

use super::work::{describe, Item};
use crate::model::{Block, ServerToolBlock};
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// What becomes of `item` for `target` when it is one of these blocks: `None` when it is not
/// (the caller goes on with it), else what replaces it (nothing: left out).
pub(crate) fn settle(
    item: &mut Item,
    target: Provider,
    diags: &mut Vec<Diagnostic>,
) -> Option<Settled> {
    let Block::ServerTool(b) = &mut item.block else {
        return None;
    };
    if b.provider != "anthropic" {
        return None;
    }
    let kind = b.wire.get("type").and_then(serde_json::Value::as_str)?;
    match kind {
        "fallback" if target == Provider::Anthropic => Some(Settled::Keep),
        "fallback" => {
            diags.push(omitted(
                item.origin,
                format!(
                    "the `fallback` block at {} marks where Anthropic handed the turn to another model; {target} has no use for it, left out",
                    describe(item.origin)
                ),
            ));
            Some(Settled::Drop)
        }
        "compaction" => Some(compaction(b, item.origin, target, diags)),
        _ => None,
    }
}

/// The fate of one of these blocks.
pub(crate) enum Settled {
    /// Replayed as it is (or as it was repaired).
    Keep,
    /// Sent as its portable text.
    Text,
    /// Left out.
    Drop,
}

fn compaction(
    b: &mut ServerToolBlock,
    origin: Option<(usize, usize)>,
    target: Provider,
    diags: &mut Vec<Diagnostic>,
) -> Settled {
    let content = b
        .wire
        .get("content")
        .and_then(serde_json::Value::as_str)
        .filter(|c| !c.is_empty());
    if content.is_none() {
        diags.push(omitted(
            origin,
            format!(
                "the `compaction` block at {} holds no summary (a failed compaction, which the API treats as a no-op; `content: \"\"` it refuses); left out",
                describe(origin)
            ),
        ));
        return Settled::Drop;
    }
    if target != Provider::Anthropic {
        return Settled::Text;
    }
    let encrypted = b
        .wire
        .as_object_mut()
        .and_then(|w| w.remove("encrypted_content"))
        .filter(|v| !v.is_null());
    if encrypted.is_some() {
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuityDropped,
                FaultClass::ProviderProjection,
                format!(
                    "`encrypted_content` of the `compaction` block at {} left out: the API refuses it on a replayed block (ANT-44); its `content` is sent",
                    describe(origin)
                ),
            )
            .at(origin),
        );
    }
    Settled::Keep
}

fn omitted(origin: Option<(usize, usize)>, message: String) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::BlockOmitted,
        FaultClass::ProviderProjection,
        message,
    )
    .at(origin)
}
