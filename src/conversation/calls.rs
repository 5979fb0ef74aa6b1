//! A [`Conversation`]'s tool calls and where each stands (REQ-915-046, REQ-915-048).

use super::Conversation;
use crate::model::{tool_calls, ToolCallState, ToolStatus};

impl Conversation {
    /// Every tool call of the history, in order, with its status, reconstructed from the
    /// messages ([`tool_calls`]).
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"ai","blocks":[{"type":"tool_call","id":"a","name":"ls","parameters":{}}]}"#)?;
    /// assert_eq!(c.tool_calls()[0].id, "a");
    /// assert_eq!(c.open_calls().len(), 1);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn tool_calls(&self) -> Vec<ToolCallState> {
        tool_calls(&self.transcript.messages)
    }

    /// The calls still waiting for a result: no response yet, or only a pending one. An agent
    /// runs them (or records them cancelled) before the next turn.
    ///
    /// ```
    /// use turnwire::Conversation;
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"ai","blocks":[{"type":"tool_call","id":"a","name":"ls","parameters":{}}]}"#)?;
    /// c.append_json(r#"{"speaker":"tool","blocks":[{"type":"tool_response","callId":"a","error":"cancelled"}]}"#)?;
    /// assert!(c.open_calls().is_empty()); // an error is an outcome: the call is closed
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn open_calls(&self) -> Vec<ToolCallState> {
        let mut calls = self.tool_calls();
        calls.retain(|c| c.status == ToolStatus::Pending);
        calls
    }
}
