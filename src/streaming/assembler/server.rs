//! Server-tool blocks (web search, code execution the provider ran itself): kept whole, in
//! their place among the other blocks, with a call's input assembled from its streamed JSON.

use serde_json::Value;

use super::{Assembler, Content, Slot};
use crate::model::ServerToolBlock;
use crate::streaming::StreamError;

/// A server-tool block under assembly: the block, and the input JSON text streamed so far.
#[derive(Debug, Clone)]
pub(super) struct ServerSlot {
    pub block: ServerToolBlock,
    pub raw_input: String,
}

/// The `extra` field that keeps streamed input that did not parse.
const RAW_INPUT: &str = "rawInput";

impl Assembler {
    /// Opens a server-tool block under `key` (its input may stream, see [`Self::server_input`]).
    pub(crate) fn start_server(
        &mut self,
        key: &str,
        block: ServerToolBlock,
    ) -> Result<(), StreamError> {
        self.push_slot(
            key,
            Content::Server(ServerSlot {
                block,
                raw_input: String::new(),
            }),
        )
    }

    /// A whole server-tool block, closed at once (a result, a Responses item, a Gemini part).
    pub(crate) fn add_server(&mut self, block: ServerToolBlock) {
        self.slots.push(Slot {
            content: Content::Server(ServerSlot {
                block,
                raw_input: String::new(),
            }),
            key: None,
        });
    }

    /// The final form of the server-tool block open under `key` (an item's `done` event):
    /// it replaces what was started there, in its place, and closes it; a block never started
    /// is added whole.
    pub(crate) fn finish_server(&mut self, key: &str, block: ServerToolBlock) {
        if !self.is_server(key) {
            self.add_server(block);
            return;
        }
        if let Some(Content::Server(s)) = self.slot_mut(key).map(|s| &mut s.content) {
            s.block = block;
        }
        self.detach(key);
    }

    /// Whether a server-tool block is open under `key`.
    pub(crate) fn is_server(&self, key: &str) -> bool {
        matches!(
            self.open.get(key).and_then(|i| self.slots.get(*i)),
            Some(Slot {
                content: Content::Server(_),
                ..
            })
        )
    }

    /// The block open under `key`, to fill in from its deltas (an Anthropic `compaction`
    /// block's `compaction_delta`).
    pub(crate) fn server_block_mut(&mut self, key: &str) -> Option<&mut ServerToolBlock> {
        match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Server(s)) => Some(&mut s.block),
            _ => None,
        }
    }

    /// Appends streamed input JSON text to the server-tool call open under `key`.
    pub(crate) fn server_input(&mut self, key: &str, delta: &str) {
        if let Some(Content::Server(s)) = self.slot_mut(key).map(|s| &mut s.content) {
            s.raw_input.push_str(delta);
        }
    }

    /// Closes the server-tool block under `key`: streamed input becomes the call's `input`
    /// (kept as text in `rawInput` when it is not JSON, which is then an error).
    pub(super) fn close_server(&mut self, key: &str) -> Result<(), StreamError> {
        let mut result = Ok(());
        if let Some(Content::Server(s)) = self.slot_mut(key).map(|s| &mut s.content) {
            if !s.raw_input.trim().is_empty() {
                match serde_json::from_str::<Value>(&s.raw_input) {
                    Ok(input) => {
                        if let Value::Object(w) = &mut s.block.wire {
                            w.insert("input".into(), input);
                        }
                    }
                    Err(e) => {
                        s.block
                            .extra
                            .insert(RAW_INPUT.into(), s.raw_input.clone().into());
                        result = Err(StreamError::InvalidArguments {
                            id: s.block.id.clone(),
                            name: s.block.name.clone(),
                            detail: e.to_string(),
                        });
                    }
                }
            }
        }
        self.detach(key);
        result
    }
}
