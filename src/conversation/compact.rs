//! Compacting a [`Conversation`]: a range of messages replaced by a summary, recording the tool
//! calls and results it separated so that every render stays paired (REQ-915-026…028).

use super::Conversation;
use crate::error::{Error, ErrorCode};
use std::ops::Range;

use crate::model::{
    compaction_range, compaction_record, safe_cut_points, separated, Message, Speaker,
    COMPACTION_KEY,
};

impl Conversation {
    /// The indexes where the history can be cut without separating a call from its result
    /// ([`safe_cut_points`]).
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
    /// assert_eq!(c.safe_cut_points(), vec![0, 1]);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn safe_cut_points(&self) -> Vec<usize> {
        safe_cut_points(&self.transcript.messages)
    }

    /// The range [`Conversation::compact`] would replace to keep the last `keep_last_turns`
    /// turns and the first `keep_first` messages ([`compaction_range`]).
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
    /// assert!(c.compaction_range(2, 0).is_empty()); // one turn: nothing to replace
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn compaction_range(&self, keep_last_turns: usize, keep_first: usize) -> Range<usize> {
        compaction_range(&self.transcript.messages, keep_last_turns, keep_first)
    }

    /// Replaces messages `start..end` with `summary` and returns them. The summary records what
    /// was removed under [`COMPACTION_KEY`]: how many messages, the calls kept whose results
    /// went (their renders get a `compacted` synthetic completion, not "cancelled"), and the
    /// results kept whose calls went (rendered by the orphan policy). Between two
    /// [`Conversation::safe_cut_points`] nothing is separated. An empty or out-of-range
    /// `start..end` is an error, and so is a tool message as the summary; nothing changes then.
    ///
    /// ```
    /// use turnwire::model::{Block, Message, Speaker, TextBlock};
    /// use turnwire::Conversation;
    /// let say = |s: Speaker, t: &str| Message::new(s, vec![Block::Text(TextBlock::new(t))]);
    /// let mut c = Conversation::new();
    /// for (s, t) in [(Speaker::Human, "a"), (Speaker::Ai, "b"), (Speaker::Human, "c")] {
    ///     c.append(say(s, t));
    /// }
    /// let removed = c.compact(0, 2, say(Speaker::Human, "Summary: a, then b."))?;
    /// assert_eq!(removed.len(), 2);
    /// assert_eq!(c.len(), 2);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn compact(
        &mut self,
        start: usize,
        end: usize,
        mut summary: Message,
    ) -> Result<Vec<Message>, Error> {
        let len = self.transcript.messages.len();
        if start >= end || end > len {
            return Err(Error::new(
                ErrorCode::OutOfRange,
                "$",
                format!("cannot compact messages {start}..{end} of {len}: the range must hold at least one message"),
            ));
        }
        if summary.speaker == Speaker::Tool {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                "$.speaker",
                "a summary cannot be a tool message: use a human or an ai message",
            ));
        }
        let (calls, results) = separated(&self.transcript.messages, start, end);
        summary.extra.insert(
            COMPACTION_KEY.to_string(),
            compaction_record(end - start, &calls, &results),
        );
        Ok(self.splice(start, end - start, vec![summary]))
    }
}
