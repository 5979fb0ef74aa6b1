//! Tiny helpers for the passes' unit tests: build a working transcript from the JSON history
//! shape, and print what a pass left in a compact, readable form.

use serde_json::{json, Value};

use super::options::NormalizeOptions;
use super::work::{self, Msg};
use crate::model::{Block, Transcript};
use crate::vocab::Diagnostic;
use crate::vocab::Provider;

/// A real 1x1 PNG.
pub(crate) const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";

/// The working form of a JSON array of messages in the history shape.
pub(crate) fn msgs(v: Value) -> Vec<Msg> {
    let t = Transcript::from_value(&v).expect("test transcript is valid history JSON");
    work::from_transcript(t)
}

/// One line per message: `speaker: block block …`, e.g. `ai: call(c1) call(c2)` or
/// `tool: result(c1) error(c2) pending(c3) result(c4)*` (`*` marks a synthetic completion).
pub(crate) fn shape(msgs: &[Msg]) -> Vec<String> {
    msgs.iter()
        .map(|m| {
            let blocks: Vec<String> = m.items.iter().map(|i| block_shape(&i.block)).collect();
            format!("{}: {}", m.speaker.as_str(), blocks.join(" "))
        })
        .collect()
}

fn block_shape(b: &Block) -> String {
    match b {
        Block::Text(_) => "text".into(),
        Block::Thinking(_) => "thinking".into(),
        Block::Code(_) => "code".into(),
        Block::ToolCall(c) => format!("call({})", c.id),
        Block::ToolResponse(r) if r.synthetic.is_some() => format!("result({})*", r.call_id),
        Block::ToolResponse(r) => {
            let kind = match r.status() {
                crate::model::ToolStatus::Complete => "result",
                crate::model::ToolStatus::Errored => "error",
                crate::model::ToolStatus::Pending => "pending",
            };
            format!("{kind}({})", r.call_id)
        }
        Block::Media(m) => format!("media({})", m.mime_type),
        Block::ServerTool(s) => format!("server_tool({})", s.name),
        Block::ToolChange(c) => format!("tool_change({} {})", c.change.as_str(), c.describe()),
        Block::Other(_) => format!("other({})", b.type_name()),
    }
}

/// The stable codes of `diags`, in order.
pub(crate) fn codes(diags: &[Diagnostic]) -> Vec<String> {
    diags.iter().map(|d| d.code.as_str().to_string()).collect()
}

/// What `codes` returns when a pass reported nothing.
pub(crate) const NO_CODES: [&str; 0] = [];

/// Every text block's text, in order.
pub(crate) fn texts(msgs: &[Msg]) -> Vec<String> {
    msgs.iter()
        .flat_map(|m| m.items.iter())
        .filter_map(|i| match &i.block {
            Block::Text(t) => Some(t.text.clone()),
            _ => None,
        })
        .collect()
}

/// The block at message `m`, position `b`.
pub(crate) fn block(msgs: &[Msg], m: usize, b: usize) -> &Block {
    &msgs[m].items[b].block
}

/// A text block.
pub(crate) fn text(s: &str) -> Value {
    json!({"type": "text", "text": s})
}

/// A call to `ls` with empty arguments.
pub(crate) fn call(id: &str) -> Value {
    json!({"type": "tool_call", "id": id, "name": "ls", "parameters": {}})
}

/// A completed result of `ls`.
pub(crate) fn result(id: &str) -> Value {
    json!({"type": "tool_response", "callId": id, "toolName": "ls", "result": "ok"})
}

/// A 1x1 PNG media block.
pub(crate) fn png() -> Value {
    json!({"type": "media", "mimeType": "image/png", "data": PNG, "encoding": "base64"})
}

/// Default options for `target` and model `claude-sonnet-4-5`.
pub(crate) fn opts(target: Provider) -> NormalizeOptions {
    NormalizeOptions::new(target, "claude-sonnet-4-5")
}
