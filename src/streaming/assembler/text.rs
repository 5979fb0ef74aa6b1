//! Text and thinking blocks of the [`Assembler`]: starts, deltas (also of blocks a wire format
//! never starts explicitly), their content and continuity metadata.

use super::*;

impl Assembler {
    /// Starts a text block.
    pub(crate) fn start_text(&mut self, key: &str) -> Result<(), StreamError> {
        self.push_slot(
            key,
            Content::Text {
                text: String::new(),
                meta: None,
            },
        )
    }

    /// Starts a thinking block.
    pub(crate) fn start_thinking(
        &mut self,
        key: &str,
        source_field: Option<&str>,
        meta: Option<ProviderMeta>,
    ) -> Result<(), StreamError> {
        self.push_slot(
            key,
            Content::Thinking {
                thought: String::new(),
                meta,
                source_field: source_field.map(str::to_string),
            },
        )
    }

    /// Appends text to the open block under `key`. Strict: a key never started gives
    /// `OrphanDelta`, and the text is kept in a new text block opened under that key.
    pub(crate) fn text_delta(&mut self, key: &str, delta: &str) -> Result<(), StreamError> {
        let known = self.is_open(key);
        if !known {
            // The text is kept; the start error is superseded by the orphan error.
            let _ = self.start_text(key);
        }
        self.append(key, delta);
        if known {
            Ok(())
        } else {
            Err(StreamError::OrphanDelta {
                key: key.to_string(),
            })
        }
    }

    /// Appends text to the block open under `key`, starting a text block there when none is
    /// open (for formats without start events). An empty piece starts nothing.
    pub(crate) fn stream_text(&mut self, key: &str, delta: &str) {
        if delta.is_empty() {
            return;
        }
        if !self.is_open(key) {
            let _ = self.start_text(key);
        }
        self.append(key, delta);
    }

    /// Appends reasoning to the open block under `key`. Strict: a key never started gives
    /// `OrphanReasoningDelta`, and the text is kept in a new thinking block.
    pub(crate) fn thinking_delta(&mut self, key: &str, delta: &str) -> Result<(), StreamError> {
        let known = self.is_open(key);
        if !known {
            let _ = self.start_thinking(key, None, None);
        }
        self.append(key, delta);
        if known {
            Ok(())
        } else {
            Err(StreamError::OrphanReasoningDelta {
                key: key.to_string(),
            })
        }
    }

    /// Appends reasoning to the block open under `key`, starting a thinking block there when
    /// none is open. An empty piece starts nothing.
    pub(crate) fn stream_thinking(&mut self, key: &str, delta: &str, source_field: Option<&str>) {
        if delta.is_empty() {
            return;
        }
        if !self.is_open(key) {
            let _ = self.start_thinking(key, source_field, None);
        }
        self.append(key, delta);
    }

    /// Appends to the text or thought of the open block under `key` (an open tool call takes
    /// no text: the piece is dropped) and reports it.
    fn append(&mut self, key: &str, delta: &str) {
        if delta.is_empty() {
            return;
        }
        let appended = match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Text { text, .. }) => {
                text.push_str(delta);
                Some(false)
            }
            Some(Content::Thinking { thought, .. }) => {
                thought.push_str(delta);
                Some(true)
            }
            _ => None,
        };
        match appended {
            Some(true) => self.emit(Delta::Reasoning {
                text: delta.to_string(),
            }),
            Some(false) => self.emit(Delta::Text {
                text: delta.to_string(),
            }),
            None => {}
        }
    }

    /// The text or thought of the open block under `key`.
    pub(crate) fn content_of(&self, key: &str) -> Option<&str> {
        let i = *self.open.get(key)?;
        match &self.slots.get(i)?.content {
            Content::Text { text, .. } => Some(text),
            Content::Thinking { thought, .. } => Some(thought),
            Content::Tool(_) | Content::Server(_) => None,
        }
    }

    /// Replaces the text or thought of the open block under `key` (an authoritative final
    /// event); false when no text or thinking block is open there.
    pub(crate) fn set_content(&mut self, key: &str, content: &str) -> bool {
        match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Text { text, .. }) => {
                *text = content.to_string();
                true
            }
            Some(Content::Thinking { thought, .. }) => {
                *thought = content.to_string();
                true
            }
            _ => false,
        }
    }

    /// Sets the continuity artifact of the open block under `key`; false when nothing is open
    /// there.
    pub(crate) fn set_meta(&mut self, key: &str, new: ProviderMeta) -> bool {
        match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Text { meta, .. })
            | Some(Content::Thinking { meta, .. })
            | Some(Content::Tool(ToolSlot { meta, .. })) => {
                *meta = Some(new);
                true
            }
            Some(Content::Server(_)) | None => false,
        }
    }

    /// The continuity artifact of the open block under `key`, to change in place (an artifact
    /// a format streams in pieces); `None` when nothing that carries one is open there.
    pub(crate) fn meta_mut(&mut self, key: &str) -> Option<&mut Option<ProviderMeta>> {
        match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Text { meta, .. })
            | Some(Content::Thinking { meta, .. })
            | Some(Content::Tool(ToolSlot { meta, .. })) => Some(meta),
            Some(Content::Server(_)) | None => None,
        }
    }

    /// The continuity artifact of the open block under `key`.
    pub(crate) fn meta_of(&self, key: &str) -> Option<&ProviderMeta> {
        let i = *self.open.get(key)?;
        match &self.slots.get(i)?.content {
            Content::Text { meta, .. }
            | Content::Thinking { meta, .. }
            | Content::Tool(ToolSlot { meta, .. }) => meta.as_ref(),
            Content::Server(_) => None,
        }
    }
}
