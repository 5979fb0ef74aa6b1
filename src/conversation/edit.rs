//! Editing a [`Conversation`]: reading a message, cutting the history, replacing and splicing
//! messages. Every edit keeps the render caches valid: a cache whose boundary is at or before
//! the first changed message stays as it is, one past it goes back through its undo journal or
//! is dropped, so an edit near the end costs about what an append costs.

use serde_json::Value;

use super::Conversation;
use crate::error::{Error, ErrorCode};
use crate::model::{JsonPath, Message};

impl Conversation {
    /// The message at `index`, when there is one.
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
    /// assert!(c.at(0).is_some());
    /// assert!(c.at(1).is_none());
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn at(&self, index: usize) -> Option<&Message> {
        self.transcript.messages.get(index)
    }

    /// Keeps the first `len` messages and returns the others, oldest first (nothing when the
    /// conversation is not longer than `len`).
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// for text in ["one", "two", "three"] {
    ///     c.append_json(&format!(r#"{{"speaker":"human","blocks":[{{"type":"text","text":"{text}"}}]}}"#))?;
    /// }
    /// assert_eq!(c.truncate(1).len(), 2);
    /// assert_eq!(c.len(), 1);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn truncate(&mut self, len: usize) -> Vec<Message> {
        let start = len.min(self.transcript.messages.len());
        self.splice(start, usize::MAX, Vec::new())
    }

    /// Puts `message` at `index` and returns the message that was there. An index past the
    /// end is an `out_of_range` error at `$[index]`, and nothing changes.
    ///
    /// ```
    /// use turnwire::model::{Block, Message, Speaker, TextBlock};
    /// use turnwire::Conversation;
    /// let say = |text: &str| Message::new(Speaker::Human, vec![Block::Text(TextBlock::new(text))]);
    /// let mut c = Conversation::new();
    /// c.append(say("hi"));
    /// let old = c.replace(0, say("hello"))?;
    /// assert_eq!(old, say("hi"));
    /// assert_eq!(c.replace(5, old).unwrap_err().code().as_str(), "out_of_range");
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn replace(&mut self, index: usize, message: Message) -> Result<Message, Error> {
        self.check_index(index)?;
        let old = self.splice(index, 1, vec![message]);
        old.into_iter().next().ok_or_else(|| self.past_end(index))
    }

    /// Removes `delete_count` messages from `start` on, puts `messages` in their place and
    /// returns the removed ones, as JavaScript's `Array.prototype.splice` does: a `start` past
    /// the end means the end, and a count past the end removes up to it.
    ///
    /// ```
    /// use turnwire::model::{Block, Message, Speaker, TextBlock};
    /// use turnwire::Conversation;
    /// let say = |text: &str| Message::new(Speaker::Human, vec![Block::Text(TextBlock::new(text))]);
    /// let mut c = Conversation::new();
    /// for text in ["one", "two", "three"] {
    ///     c.append(say(text));
    /// }
    /// let removed = c.splice(1, 1, vec![say("2")]);
    /// assert_eq!(removed, vec![say("two")]);
    /// assert_eq!(c.at(1), Some(&say("2")));
    /// ```
    pub fn splice(
        &mut self,
        start: usize,
        delete_count: usize,
        messages: Vec<Message>,
    ) -> Vec<Message> {
        let len = self.transcript.messages.len();
        let start = start.min(len);
        let end = start.saturating_add(delete_count).min(len);
        if start == end && messages.is_empty() {
            return Vec::new();
        }
        let inserted = messages.len();
        let removed: Vec<Message> = self
            .transcript
            .messages
            .splice(start..end, messages)
            .collect();
        crate::json::report::rebase(
            &mut self.transcript.read_repairs,
            start,
            removed.len(),
            inserted,
        );
        self.edited(start);
        removed
    }

    /// [`Conversation::replace`] with the message in its JSON shape; a bad message is an error
    /// at `$[index]…` and nothing changes.
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
    /// let bad = serde_json::json!({"speaker": "robot", "blocks": []});
    /// assert_eq!(c.replace_value(0, bad).unwrap_err().path(), "$[0].speaker");
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn replace_value(&mut self, index: usize, value: Value) -> Result<Message, Error> {
        self.check_index(index)?;
        let message = Message::read(value, &JsonPath::Root.index(index))?;
        crate::memory::check("replacing a message")?;
        self.replace(index, message)
    }

    /// [`Conversation::splice`] with the messages in their JSON shape, read at the indexes they
    /// would have (`$[start + k]…`); a bad one is an error and nothing changes.
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// let say = |t: &str| serde_json::json!({"speaker": "human", "blocks": [{"type": "text", "text": t}]});
    /// c.splice_values(0, 0, vec![say("a"), say("b")])?;
    /// assert_eq!(c.len(), 2);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn splice_values(
        &mut self,
        start: usize,
        delete_count: usize,
        values: Vec<Value>,
    ) -> Result<Vec<Message>, Error> {
        let start = start.min(self.transcript.messages.len());
        let mut messages = Vec::with_capacity(values.len());
        for (k, v) in values.into_iter().enumerate() {
            messages.push(Message::read(v, &JsonPath::Root.index(start + k))?);
        }
        crate::memory::check("splicing messages")?;
        Ok(self.splice(start, delete_count, messages))
    }

    /// Every render cache forgets what it knew of the messages from `index` on.
    fn edited(&mut self, index: usize) {
        for t in &mut self.targets {
            t.prefix.keep_before(index);
            t.failed = None;
        }
    }

    fn check_index(&self, index: usize) -> Result<(), Error> {
        if index < self.transcript.messages.len() {
            Ok(())
        } else {
            Err(self.past_end(index))
        }
    }

    fn past_end(&self, index: usize) -> Error {
        Error::new(
            ErrorCode::OutOfRange,
            format!("$[{index}]"),
            format!(
                "no message at index {index}: the conversation has {} messages",
                self.transcript.messages.len()
            ),
        )
    }
}
