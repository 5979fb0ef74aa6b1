//! Per-block provenance after a `fallback` block (ANT-43): the blocks that follow one in an
//! assistant message came from its `to` model, not from the model the request named.

use serde_json::Value;

use crate::model::{Block, Provenance};

/// Gives each block after a `fallback` block (up to the next one) the `to` model as its
/// provenance, unless it already has one. Thinking continuity then replays those blocks only
/// to that model.
///
/// ```ignore
/// attribute(&mut blocks); // [fallback{to: m2}, thinking] → thinking.provenance.model = m2
/// ```
pub(crate) fn attribute(blocks: &mut [Block]) {
    let mut to: Option<String> = None;
    for b in blocks.iter_mut() {
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
