//! The tool calls of a history and where each stands, reconstructed from the messages alone
//! (REQ-915-046) with the status precedence of REQ-915-048.

use serde::Serialize;

use super::message::Message;
use super::pairing::{pairing, Pairing};
use super::status::ToolStatus;
use crate::vocab::SyntheticReason;
use crate::vocab::SyntheticReasonCode;

/// One tool call of a history and where it stands ([`tool_calls`] has an example).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct ToolCallState {
    /// The call's canonical id.
    pub id: String,
    /// The tool it calls.
    pub name: String,
    /// Where the call is: its message and its block in that message.
    pub message_index: usize,
    /// The block index of the call in its message.
    pub block_index: usize,
    /// `complete`, `errored`, or `pending` (no response yet, or only a pending one).
    pub status: ToolStatus,
    /// Where the response that decides the status is, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(optional))]
    pub result: Option<BlockRef>,
    /// How many responses answer the call (more than one: a render keeps the best, see
    /// `DedupeDecision`).
    pub responses: usize,
    /// Why turnwire made up the deciding response, when it did (`missing_result`, …).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(optional))]
    pub synthetic: Option<SyntheticReasonCode>,
}

/// A block of a history: its message and its index in that message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct BlockRef {
    /// The message's index.
    pub message_index: usize,
    /// The block's index in the message.
    pub block_index: usize,
}

/// The response that decides a call's status so far.
struct Deciding {
    /// Its [`crate::model::ToolResponseBlock::preference`] (lower wins).
    rank: u8,
    at: BlockRef,
    synthetic: Option<SyntheticReason>,
    status: ToolStatus,
}

/// Every tool call of `messages`, in order, with its status (REQ-915-048): the best response
/// to it decides (a completed result, then an error, then a synthetic completion, then a
/// pending one; the earliest among equals), and a call nothing answers is pending. A response
/// answers the latest call before it with its id; one before any such call answers none.
///
/// ```
/// use turnwire::model::{tool_calls, ToolStatus};
/// use turnwire::Transcript;
/// let t = Transcript::from_json(r#"[
///   {"speaker":"ai","blocks":[{"type":"tool_call","id":"a","name":"ls","parameters":{}},
///                             {"type":"tool_call","id":"b","name":"cat","parameters":{}}]},
///   {"speaker":"tool","blocks":[{"type":"tool_response","callId":"a","result":"x.txt"}]}]"#)?;
/// let calls = tool_calls(&t.messages);
/// assert_eq!(calls[0].status, ToolStatus::Complete);
/// assert_eq!(calls[1].status, ToolStatus::Pending);
/// assert_eq!(calls[1].result, None);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn tool_calls(messages: &[Message]) -> Vec<ToolCallState> {
    let Pairing { calls, answers } = pairing(messages);
    let mut states: Vec<ToolCallState> = calls
        .iter()
        .map(|(at, c)| ToolCallState {
            id: c.id.clone(),
            name: c.name.clone(),
            message_index: at.message_index,
            block_index: at.block_index,
            status: ToolStatus::Pending,
            result: None,
            responses: 0,
            synthetic: None,
        })
        .collect();
    let mut best: Vec<Option<Deciding>> = (0..states.len()).map(|_| None).collect();
    for (k, at, r) in answers {
        if let (Some(call), Some(slot)) = (states.get_mut(k), best.get_mut(k)) {
            call.responses += 1;
            let rank = r.preference();
            if slot.as_ref().is_none_or(|kept| rank < kept.rank) {
                *slot = Some(Deciding {
                    rank,
                    at,
                    synthetic: r.synthetic,
                    status: r.status(),
                });
            }
        }
    }
    for (call, slot) in states.iter_mut().zip(best) {
        if let Some(d) = slot {
            call.status = d.status;
            call.result = Some(d.at);
            call.synthetic = d.synthetic.map(SyntheticReasonCode);
        }
    }
    states
}
