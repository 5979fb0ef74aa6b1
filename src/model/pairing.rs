//! Which response answers which tool call in a history: a response answers the latest call
//! before it with its id; one before any such call answers none. The tool-call states
//! ([`super::tool_calls`]) and the safe cut points ([`super::safe_cut_points`]) read it.

use crate::fast_map::HashMap;

use super::block::{Block, ToolCallBlock, ToolResponseBlock};
use super::message::Message;
use super::tool_calls::BlockRef;

/// The calls of a history, in order, and every response that answers one of them.
pub(crate) struct Pairing<'a> {
    /// Each call and where it is.
    pub calls: Vec<(BlockRef, &'a ToolCallBlock)>,
    /// Each answering response: the index of its call in `calls`, where it is, and itself.
    pub answers: Vec<(usize, BlockRef, &'a ToolResponseBlock)>,
}

/// The [`Pairing`] of `messages`.
pub(crate) fn pairing(messages: &[Message]) -> Pairing<'_> {
    let mut out = Pairing {
        calls: Vec::new(),
        answers: Vec::new(),
    };
    // call id -> the latest call with it so far
    let mut latest: HashMap<&str, usize> = HashMap::default();
    for (mi, m) in messages.iter().enumerate() {
        for (bi, b) in m.blocks.iter().enumerate() {
            let at = BlockRef {
                message_index: mi,
                block_index: bi,
            };
            match b {
                Block::ToolCall(c) => {
                    latest.insert(c.id.as_str(), out.calls.len());
                    out.calls.push((at, c));
                }
                Block::ToolResponse(r) => {
                    if let Some(&k) = latest.get(r.call_id.as_str()) {
                        out.answers.push((k, at, r));
                    }
                }
                _ => {}
            }
        }
    }
    out
}
