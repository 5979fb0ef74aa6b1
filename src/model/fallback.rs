//! Per-block provenance after an Anthropic `fallback` block (ANT-43): the blocks that follow one
//! in an assistant message came from its `to` model, not from the model the request named. The
//! importer, the decoder and the normaliser (before the thinking policy) all apply it, so a
//! history reads the same whichever way it came in.

use serde_json::Value;

use super::{Block, Provenance};

/// Gives each block after a `fallback` block (up to the next one) the `to` model as its
/// provenance, unless it already has one. Thinking continuity then replays those blocks only
/// to that model.
///
/// ```ignore
/// attribute(blocks.iter_mut()); // [fallback{to: m2}, thinking] → thinking.provenance.model = m2
/// ```
pub(crate) fn attribute<'a>(blocks: impl IntoIterator<Item = &'a mut Block>) {
    let mut to: Option<String> = None;
    for b in blocks {
        let slot = match b {
            Block::ServerTool(s) if s.provider == "anthropic" && s.name == "fallback" => {
                to = s
                    .wire
                    .pointer("/to/model")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                continue;
            }
            Block::Thinking(t) => &mut t.provenance,
            Block::Text(t) => &mut t.provenance,
            Block::ToolCall(c) => &mut c.provenance,
            _ => continue,
        };
        if let (Some(model), None) = (&to, &slot) {
            *slot = Some(Provenance {
                provider: Some("anthropic".into()),
                model: Some(model.clone()),
                ..Provenance::default()
            });
        }
    }
}
