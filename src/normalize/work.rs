//! The working form of a transcript inside the normaliser: blocks remember where they came from.

use serde_json::Map;

use crate::model::{Block, Message, Metadata, Speaker, Transcript};

/// A block and its input position (`message index`, `block index`), `None` when made up.
#[derive(Debug, Clone)]
pub(crate) struct Item {
    pub block: Block,
    pub origin: Option<(usize, usize)>,
    /// A tool response that answers no call even though a call with its id exists (it was
    /// stored before that call, which has its own result): the orphan pass handles it.
    pub detached: bool,
}

/// A message of the working transcript.
#[derive(Debug, Clone)]
pub(crate) struct Msg {
    pub speaker: Speaker,
    pub items: Vec<Item>,
    pub metadata: Option<Metadata>,
    pub extra: Map<String, serde_json::Value>,
    /// Input message index, `None` for made-up messages.
    pub origin: Option<usize>,
}

impl Msg {
    pub fn made_up(speaker: Speaker, items: Vec<Item>) -> Msg {
        Msg {
            speaker,
            items,
            metadata: None,
            extra: Map::new(),
            origin: None,
        }
    }

    /// A made-up message of `speaker` holding one text block (an inserted turn).
    pub fn made_up_text(speaker: Speaker, text: &str) -> Msg {
        Msg::made_up(
            speaker,
            vec![Item {
                detached: false,
                block: Block::Text(crate::model::TextBlock::new(text)),
                origin: None,
            }],
        )
    }

    /// A message of `speaker` carrying this message's metadata and origin.
    pub fn sibling(&self, speaker: Speaker, items: Vec<Item>) -> Msg {
        Msg {
            speaker,
            items,
            metadata: self.metadata.clone(),
            extra: self.extra.clone(),
            origin: self.origin,
        }
    }

    pub fn has_calls(&self) -> bool {
        self.items
            .iter()
            .any(|i| matches!(i.block, Block::ToolCall(_)))
    }
}

pub(crate) fn from_transcript(t: Transcript) -> Vec<Msg> {
    t.messages
        .into_iter()
        .enumerate()
        .map(|(mi, m)| Msg {
            speaker: m.speaker,
            items: m
                .blocks
                .into_iter()
                .enumerate()
                .map(|(bi, block)| Item {
                    detached: false,
                    block,
                    origin: Some((mi, bi)),
                })
                .collect(),
            metadata: m.metadata,
            extra: m.extra,
            origin: Some(mi),
        })
        .collect()
}

pub(crate) fn to_transcript(msgs: Vec<Msg>) -> Transcript {
    Transcript::new(
        msgs.into_iter()
            .map(|m| Message {
                speaker: m.speaker,
                blocks: m.items.into_iter().map(|i| i.block).collect(),
                metadata: m.metadata,
                extra: m.extra,
            })
            .collect(),
    )
}

/// Human-readable input position for messages.
pub(crate) fn describe(origin: Option<(usize, usize)>) -> String {
    match origin {
        Some((m, b)) => format!("message {m} block {b}"),
        None => "a synthesised block".to_string(),
    }
}

impl Msg {
    /// The message's provenance (empty when unknown).
    pub fn provenance(&self) -> crate::model::Provenance {
        self.metadata
            .as_ref()
            .map(|m| m.provenance.clone())
            .unwrap_or_default()
    }
}

/// Human-readable input message for messages: `message 4`, or that it was made up.
pub(crate) fn describe_message(origin: Option<usize>) -> String {
    match origin {
        Some(m) => format!("message {m}"),
        None => "a synthesised message".to_string(),
    }
}

/// Whether a message of `at` after one of `before` opens a turn: a user message does, except,
/// when `folds_tool_user` (the provider puts tool results and the user's next words in one
/// message), one right after tool results, which continues the turn.
pub(crate) fn starts_turn(at: Speaker, before: Option<Speaker>, folds_tool_user: bool) -> bool {
    at == Speaker::Human && !(folds_tool_user && before == Some(Speaker::Tool))
}

/// Whether message `k` opens a turn by [`starts_turn`], `speaker_of` giving each message's
/// speaker (`None` past the end).
pub(crate) fn starts_turn_at(
    speaker_of: impl Fn(usize) -> Option<Speaker>,
    k: usize,
    folds_tool_user: bool,
) -> bool {
    let before = k.checked_sub(1).and_then(&speaker_of);
    speaker_of(k).is_some_and(|at| starts_turn(at, before, folds_tool_user))
}

/// Index of the first message of the current turn: the one after the last user message that
/// [`starts_turn`].
pub(crate) fn current_turn_start(msgs: &[Msg], folds_tool_user: bool) -> usize {
    (0..msgs.len())
        .rev()
        .find(|&i| starts_turn_at(|k| msgs.get(k).map(|m| m.speaker), i, folds_tool_user))
        .map_or(0, |i| i + 1)
}
