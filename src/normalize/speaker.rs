//! Speaker repair (REQ-915-047): every block ends up under the speaker that can carry it.
//!
//! Tool calls belong to `ai`, tool responses to `tool`, user text and media to `human`. A message
//! holding blocks of several kinds (the cancelled fan-out persisted as one tool message with both
//! calls and responses, 864 failure mode A) is split, in order, into one message per run.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker};

/// The speaker a block belongs under. `stored` is the speaker it was stored under;
/// `after_response` says whether the previous block of the message was a tool response (or media
/// attached to one).
fn home(block: &Block, stored: Speaker, after_response: bool) -> Speaker {
    match block {
        Block::ToolCall(_) | Block::Thinking(_) => Speaker::Ai,
        Block::ToolResponse(_) => Speaker::Tool,
        // media right after a tool response is that response's attachment
        Block::Media(_) if after_response => Speaker::Tool,
        Block::Media(_) => Speaker::Human,
        Block::Text(_) | Block::Code(_) | Block::Other(_) if stored == Speaker::Tool => {
            Speaker::Human
        }
        Block::Text(_) | Block::Code(_) | Block::Other(_) => stored,
    }
}

pub(crate) fn repair(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let mut out = Vec::with_capacity(msgs.len());
    for msg in msgs {
        let mut runs: Vec<(Speaker, Vec<Item>)> = Vec::new();
        let mut after_response = false;
        for item in &msg.items {
            let to = home(&item.block, msg.speaker, after_response);
            after_response = to == Speaker::Tool;
            if to != msg.speaker {
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::SpeakerRepaired,
                        FaultClass::CanonicalState,
                        format!(
                            "{} block at {} was stored under `{}`; moved to a `{}` message",
                            item.block.type_name(),
                            describe(item.origin),
                            msg.speaker.as_str(),
                            to.as_str()
                        ),
                    )
                    .at(item.origin)
                    .maybe_call(&item.block),
                );
            }
            match runs.last_mut() {
                Some((s, items)) if *s == to => items.push(item.clone()),
                _ => runs.push((to, vec![item.clone()])),
            }
        }
        if runs.is_empty() {
            out.push(msg);
            continue;
        }
        for (speaker, items) in runs {
            out.push(msg.sibling(speaker, items));
        }
    }
    out
}

impl Diagnostic {
    /// Attaches the call id of a tool block, if it is one.
    pub(crate) fn maybe_call(self, block: &Block) -> Diagnostic {
        match block {
            Block::ToolCall(c) => self.call(c.id.clone()),
            Block::ToolResponse(r) => self.call(r.call_id.clone()),
            _ => self,
        }
    }
}
