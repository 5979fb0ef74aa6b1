//! What every decoder tracks besides the blocks: usage, stop reason, the reported model,
//! whether the terminal event came, and the errors.

use super::assembler::Assembler;
use super::delta::Delta;
use super::error::StreamError;
use super::stop_reason::StopReason;
use super::usage::Usage;

/// The most problems one stream keeps (a hostile stream can make one per event); the rest are
/// counted in one `errors_dropped` entry.
pub const MAX_STREAM_ERRORS: usize = 100;

/// The state of one stream, shared by the wire decoders.
#[derive(Debug, Clone, Default)]
pub(crate) struct StreamState {
    /// The message's blocks.
    pub(crate) blocks: Assembler,
    /// Usage so far.
    pub(crate) usage: Usage,
    /// The stop reason, once the provider said it.
    pub(crate) stop_reason: Option<StopReason>,
    /// The model the stream reports.
    pub(crate) model: Option<String>,
    /// The provider's id of the response (message id, completion id, `responseId`).
    pub(crate) response_id: Option<String>,
    /// What the provider said about the answer besides its blocks, kept in the message's
    /// metadata (Anthropic `stopDetails` of a refusal, `inputTransformations`).
    pub(crate) answer: serde_json::Map<String, serde_json::Value>,
    /// The wire format's terminal event arrived.
    pub(crate) terminal: bool,
    /// A provider error ended the stream.
    pub(crate) failed: bool,
    /// Nothing more belongs to the stream: its last event arrived (the terminal event, or for
    /// chat streams the `[DONE]` marker after it). Later events are ignored.
    pub(crate) closed: bool,
    /// Problems found past [`MAX_STREAM_ERRORS`], counted only.
    pub(crate) dropped_errors: usize,
    /// Errors of the event being decoded.
    pending: Vec<StreamError>,
    /// Every error of the stream so far.
    pub(crate) errors: Vec<StreamError>,
    /// The deltas of the last event `push` answered with an error (kept for a caller that
    /// wants them: the error does not undo them).
    pub(crate) held: Vec<Delta>,
}

impl StreamState {
    /// Records an error of the current event.
    pub(crate) fn error(&mut self, e: StreamError) {
        self.pending.push(e);
    }

    /// Records a problem the stream survived without losing the event (kept in the outcome's
    /// errors, not returned by `push`).
    pub(crate) fn note(&mut self, e: StreamError) {
        if self.errors.len() < MAX_STREAM_ERRORS {
            self.errors.push(e);
        } else {
            self.dropped_errors += 1;
        }
    }

    /// Records the error of a fallible step, if any.
    pub(crate) fn check(&mut self, r: Result<(), StreamError>) {
        if let Err(e) = r {
            self.error(e);
        }
    }

    /// Records several errors.
    pub(crate) fn check_all(&mut self, errors: Vec<StreamError>) {
        self.pending.extend(errors);
    }

    /// Notes the reported model and response id (the first one seen wins).
    pub(crate) fn identify(&mut self, model: Option<&str>, response_id: Option<&str>) {
        if self.model.is_none() {
            self.model = model.filter(|m| !m.is_empty()).map(str::to_string);
        }
        if self.response_id.is_none() {
            self.response_id = response_id.filter(|m| !m.is_empty()).map(str::to_string);
        }
    }

    /// Merges new usage counts and reports them when they changed.
    pub(crate) fn add_usage(&mut self, newer: &Usage) {
        let before = self.usage;
        self.usage.merge(newer);
        if self.usage != before {
            let usage = self.usage;
            self.blocks.emit(Delta::Usage { usage });
        }
    }

    /// The turn ended normally: the terminal event arrived. A stop reason said earlier is kept
    /// unless `reason` is given.
    pub(crate) fn done(&mut self, reason: Option<StopReason>) {
        if let Some(r) = reason {
            self.stop_reason = Some(r);
        }
        let stop_reason = self.final_stop_reason(true);
        self.stop_reason = Some(stop_reason.clone());
        if !self.terminal {
            self.terminal = true;
            self.blocks.emit(Delta::Done { stop_reason });
        }
    }

    /// The provider reported an error in the stream: the turn ended with it.
    pub(crate) fn provider_error(&mut self, error_type: &str, message: &str) {
        self.error(StreamError::Provider {
            error_type: error_type.to_string(),
            message: message.to_string(),
        });
        self.failed = true;
        self.stop_reason = Some(StopReason::Error);
        if !self.terminal {
            self.terminal = true;
            self.blocks.emit(Delta::Done {
                stop_reason: StopReason::Error,
            });
        }
    }

    /// The stop reason: the provider's, else `tool_use` / `end_turn` for a finished turn and
    /// `incomplete` for a partial one.
    pub(crate) fn final_stop_reason(&self, complete: bool) -> StopReason {
        match &self.stop_reason {
            Some(r) => r.clone(),
            None if !complete => StopReason::Incomplete,
            None if self.blocks.has_tool_calls() => StopReason::ToolUse,
            None => StopReason::EndTurn,
        }
    }

    /// Ends the current event: its deltas, or its first error (all errors are kept for the
    /// outcome).
    pub(crate) fn end_event(&mut self) -> Result<Vec<Delta>, StreamError> {
        let deltas = self.blocks.take_deltas();
        let pending = std::mem::take(&mut self.pending);
        let first = pending.first().cloned();
        for e in pending {
            self.note(e);
        }
        match first {
            Some(e) => {
                self.held = deltas;
                Err(e)
            }
            None => {
                self.held.clear();
                Ok(deltas)
            }
        }
    }
}
