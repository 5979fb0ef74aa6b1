//! Continuity tokens the reader could not take: a nested `providerMeta` / `meta` object whose
//! meaning is not clear (model/block/nested_meta.rs) stays in the block's `extra` and is not
//! replayed; each is reported, never lost silently. Part of content hygiene.

use super::work::{describe, Msg};
use crate::model::{Block, NESTED_META_KEYS};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Reports every unread nested token (the messages pass through unchanged).
pub(crate) fn report(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    for item in msgs.iter().flat_map(|m| &m.items) {
        let extra = match &item.block {
            Block::Text(b) => &b.extra,
            Block::Thinking(b) => &b.extra,
            Block::ToolCall(b) => &b.extra,
            _ => continue,
        };
        for key in NESTED_META_KEYS {
            if let Some(meta) = extra.get(key).filter(|v| v.is_object()) {
                let tag = meta
                    .get("provider")
                    .or_else(|| meta.get("kind"))
                    .and_then(|v| v.as_str())
                    .map(|t| format!(" (tagged `{t}`)"))
                    .unwrap_or_default();
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::ContinuityDropped,
                        FaultClass::ProviderProjection,
                        format!(
                            "the {} block at {} holds a continuity token under `{key}`{tag} that is not one turnwire can read for this block (a signature, redacted data, a Gemini thought signature or an OpenAI reasoning item, with no flat field saying otherwise); it is not replayed",
                            item.block.type_name(),
                            describe(item.origin)
                        ),
                    )
                    .at(item.origin),
                );
            }
        }
    }
    msgs
}
