//! The block assembler every decoder shares: blocks in the order they *started*, whatever
//! order they finish in.
//!
//! A decoder names each block with a key of its wire format (Anthropic's content block index,
//! a Responses item id, a chat tool-call index, a lane name) and reports starts, deltas and
//! stops. The assembler keeps one slot per block in start order, so a tool call that started
//! before a thinking block stays before it even if it completes after it. Tool arguments are
//! kept as raw JSON text and parsed once, when the call completes.
//!
//! Every protocol mistake (a delta for a block never started, a start of a block still open, a
//! completion for an unknown call, arguments that are not JSON) is returned as a typed
//! [`StreamError`]; the assembler keeps what it can (an orphan text delta still becomes text)
//! and stays usable. Nothing in here panics.

use crate::fast_map::{HashMap, HashSet};

use serde_json::{Map, Value};

use super::delta::Delta;
use super::error::StreamError;
use crate::model::{Block, ProviderMeta, TextBlock, ThinkingBlock, ToolCallBlock};
use tools::parse_arguments;

mod server;
mod text;
mod tools;

#[cfg(test)]
mod tests;

/// The `extra` field that keeps the raw text of arguments that did not parse.
pub(crate) const RAW_ARGUMENTS: &str = "rawArguments";

#[derive(Debug, Clone)]
struct ToolSlot {
    id: String,
    name: String,
    /// Arguments JSON text as streamed (or as given by an authoritative final event).
    raw: String,
    /// Arguments given whole at the start (used when no argument text streams).
    initial: Option<Value>,
    meta: Option<ProviderMeta>,
    /// Set when the call completed: its arguments and, when they did not parse, the raw text.
    done: Option<(Value, Option<String>)>,
}

#[derive(Debug, Clone)]
enum Content {
    Text {
        text: String,
        meta: Option<ProviderMeta>,
    },
    Thinking {
        thought: String,
        meta: Option<ProviderMeta>,
        source_field: Option<String>,
    },
    Tool(ToolSlot),
    Server(server::ServerSlot),
}

#[derive(Debug, Clone)]
struct Slot {
    content: Content,
    /// The key this block is open under; `None` once closed.
    key: Option<String>,
}

/// Blocks of one assistant message under assembly, in start order.
#[derive(Debug, Clone, Default)]
pub(crate) struct Assembler {
    slots: Vec<Slot>,
    /// Open blocks: key → slot index.
    open: HashMap<String, usize>,
    /// Every tool-call id started in this stream.
    tool_ids: HashSet<String>,
    /// Progress reports not yet handed to the caller.
    deltas: Vec<Delta>,
}

impl Assembler {
    /// Drains the progress reports gathered since the last call.
    pub(crate) fn take_deltas(&mut self) -> Vec<Delta> {
        std::mem::take(&mut self.deltas)
    }

    pub(crate) fn emit(&mut self, d: Delta) {
        self.deltas.push(d);
    }

    /// Whether a block is open under `key`.
    pub(crate) fn is_open(&self, key: &str) -> bool {
        self.open.contains_key(key)
    }

    /// Number of tool calls started so far.
    pub(crate) fn tool_count(&self) -> usize {
        self.slots
            .iter()
            .filter(|s| matches!(s.content, Content::Tool(_)))
            .count()
    }

    /// Whether the message has any tool call.
    pub(crate) fn has_tool_calls(&self) -> bool {
        self.tool_count() > 0
    }

    fn slot_mut(&mut self, key: &str) -> Option<&mut Slot> {
        let i = *self.open.get(key)?;
        self.slots.get_mut(i)
    }

    /// Opens a new slot under `key`. A block still open under the same key is detached (it
    /// stays where it is, and an unfinished call stays unfinished) and `DuplicateStart` is
    /// returned; the new block is started either way.
    fn push_slot(&mut self, key: &str, content: Content) -> Result<(), StreamError> {
        let duplicate = self.detach(key);
        self.open.insert(key.to_string(), self.slots.len());
        self.slots.push(Slot {
            content,
            key: Some(key.to_string()),
        });
        if duplicate {
            Err(StreamError::DuplicateStart {
                key: key.to_string(),
            })
        } else {
            Ok(())
        }
    }

    /// Forgets `key` without completing its block; true when something was open under it.
    fn detach(&mut self, key: &str) -> bool {
        match self.open.remove(key) {
            Some(i) => {
                if let Some(s) = self.slots.get_mut(i) {
                    s.key = None;
                }
                true
            }
            None => false,
        }
    }

    /// Closes the block open under `key`: a text or thinking block is done, a tool call
    /// completes with the arguments streamed so far. `UnknownBlockStop` when nothing is open
    /// there.
    pub(crate) fn close(&mut self, key: &str) -> Result<(), StreamError> {
        let (is_tool, is_server) = match self.slot_mut(key) {
            None => {
                return Err(StreamError::UnknownBlockStop {
                    key: key.to_string(),
                })
            }
            Some(s) => (
                matches!(s.content, Content::Tool(_)),
                matches!(s.content, Content::Server(_)),
            ),
        };
        if is_server {
            self.close_server(key)
        } else if is_tool {
            self.complete_tool(key, None)
        } else {
            self.detach(key);
            Ok(())
        }
    }

    /// A string of everything assembled so far (block kinds, text, names, arguments):
    /// independent of how the stream was split into events. Seeds minted ids.
    pub(crate) fn fingerprint(&self) -> String {
        let mut s = String::new();
        for slot in &self.slots {
            match &slot.content {
                Content::Text { text, .. } => {
                    s.push_str("\u{1}t");
                    s.push_str(text);
                }
                Content::Thinking { thought, .. } => {
                    s.push_str("\u{1}r");
                    s.push_str(thought);
                }
                Content::Tool(t) => {
                    s.push_str("\u{1}c");
                    s.push_str(&t.name);
                    s.push('\u{2}');
                    s.push_str(&t.raw);
                }
                Content::Server(b) => {
                    s.push_str("\u{1}s");
                    s.push_str(&b.block.name);
                    s.push('\u{2}');
                    s.push_str(&b.raw_input);
                }
            }
        }
        s
    }

    /// The canonical blocks so far, in start order, plus an `UnfinishedToolCall` error for
    /// every call that has not completed. Empty text and thinking without an artifact are left
    /// out. Unfinished calls keep their arguments when they parse, else `{}` with the raw text
    /// in `rawArguments`.
    pub(crate) fn blocks(&self) -> (Vec<Block>, Vec<StreamError>) {
        let mut blocks = Vec::with_capacity(self.slots.len());
        let mut errors = Vec::new();
        for slot in &self.slots {
            match &slot.content {
                Content::Text { text, meta } => {
                    if !text.is_empty() || meta.is_some() {
                        blocks.push(Block::Text(TextBlock {
                            text: text.clone(),
                            meta: meta.clone(),
                            ..TextBlock::default()
                        }));
                    }
                }
                Content::Thinking {
                    thought,
                    meta,
                    source_field,
                } => {
                    if !thought.is_empty() || meta.is_some() {
                        blocks.push(Block::Thinking(ThinkingBlock {
                            thought: thought.clone(),
                            meta: meta.clone(),
                            source_field: source_field.clone(),
                            ..ThinkingBlock::default()
                        }));
                    }
                }
                Content::Tool(t) => {
                    let (arguments, raw) = match &t.done {
                        Some((v, raw)) => (v.clone(), raw.clone()),
                        None => {
                            errors.push(StreamError::UnfinishedToolCall {
                                id: t.id.clone(),
                                name: t.name.clone(),
                            });
                            match parse_arguments(&t.raw, t.initial.as_ref()) {
                                Ok(v) => (v, None),
                                Err((v, raw, _)) => (v, Some(raw)),
                            }
                        }
                    };
                    let mut extra = Map::new();
                    if let Some(raw) = raw {
                        extra.insert(RAW_ARGUMENTS.into(), raw.into());
                    }
                    blocks.push(Block::ToolCall(ToolCallBlock {
                        id: t.id.clone(),
                        name: t.name.clone(),
                        parameters: Some(arguments),
                        meta: t.meta.clone(),
                        extra,
                        ..ToolCallBlock::default()
                    }));
                }
                Content::Server(b) => blocks.push(Block::ServerTool(b.block.clone())),
            }
        }
        (blocks, errors)
    }
}
