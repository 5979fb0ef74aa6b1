//! Compaction from JavaScript: `safeCutPoints(transcript)`, `Conversation.safeCutPoints()` and
//! `Conversation.compact(start, end, summary)` (the `compact` helper of `js/compact.mts`
//! chooses the range and asks the caller for the summary).

use wasm_bindgen::prelude::*;

use super::conversation::Conversation;
use super::conversation_edit::{integer, message_at, messages_js, relative};
use super::read_transcript;
use super::types::{MessageInput, TranscriptInput};
use crate::error::{Error, ErrorCode};
use crate::model::{JsonPath, Message};

/// The message indexes where a history can be cut or summarised without separating a tool call
/// from its result (REQ-915-028): no call/result pair spans the index and no tool message starts
/// there. `0` and the length are always among them.
///
/// @example
/// ```ts
/// const points = safeCutPoints(history); // e.g. [0, 1, 4, 9, 12]
/// ```
#[wasm_bindgen(js_name = safeCutPoints, unchecked_return_type = "number[]")]
pub fn safe_cut_points(transcript: &TranscriptInput) -> Result<JsValue, JsValue> {
    let t = read_transcript(transcript)?;
    Ok(numbers(crate::model::safe_cut_points(&t.messages)))
}

/// The documented context window of a model (prompt and output tokens together), or
/// `undefined` for a model turnwire's table does not know and for `openai-compatible` servers
/// (their window depends on the model behind them).
///
/// @example
/// ```ts
/// contextWindow("anthropic", "claude-sonnet-4-5"); // 200000
/// ```
#[wasm_bindgen(js_name = contextWindow)]
pub fn context_window(
    #[wasm_bindgen(unchecked_param_type = "Provider")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] model: &JsValue,
) -> Result<Option<u32>, JsValue> {
    let provider = super::args::read_provider(provider)?;
    let model = super::args::string(model, "model")?;
    Ok(crate::context_window(provider, &model))
}

#[wasm_bindgen]
impl Conversation {
    /// The indexes where this history can be cut without separating a call from its result.
    ///
    /// @example
    /// ```ts
    /// const points = convo.safeCutPoints();
    /// ```
    #[wasm_bindgen(js_name = safeCutPoints, unchecked_return_type = "number[]")]
    pub fn safe_cut_points(&self) -> JsValue {
        numbers(self.inner.safe_cut_points())
    }

    /// The range `compact` would replace to keep the last `keepLastTurns` turns (default 2; a
    /// turn starts at a user message, or at a tool loop's step when there are too few of them)
    /// and the first `keepFirst` messages (default 0) with a system prompt at the head: `start`
    /// and `end` are safe cut points, and `start >= end` means nothing to replace.
    ///
    /// @example
    /// ```ts
    /// const { start, end } = convo.compactionRange(2);
    /// ```
    #[wasm_bindgen(js_name = compactionRange, unchecked_return_type = "{ start: number; end: number }")]
    pub fn compaction_range(
        &self,
        #[wasm_bindgen(js_name = keepLastTurns, unchecked_optional_param_type = "number | null")]
        keep_last_turns: Option<JsValue>,
        #[wasm_bindgen(js_name = keepFirst, unchecked_optional_param_type = "number | null")]
        keep_first: Option<JsValue>,
    ) -> Result<JsValue, JsValue> {
        // a count: absent (`undefined`, `null`) or not finite is the default, anything but a
        // number an `invalid_type` error
        let count = |v: Option<JsValue>, name: &str, default: usize| match v {
            Some(v) if !v.is_undefined() && !v.is_null() => match v.as_f64() {
                Some(n) if n.is_finite() => Ok(n.max(0.0) as usize),
                Some(_) => Ok(default),
                None => Err(Error::new(
                    ErrorCode::InvalidType,
                    "$",
                    format!(
                        "`{name}` must be a number, found {}",
                        super::errors::js_type_name(&v)
                    ),
                )),
            },
            _ => Ok(default),
        };
        let range = self.inner.compaction_range(
            count(keep_last_turns, "keepLastTurns", 2)?,
            count(keep_first, "keepFirst", 0)?,
        );
        let out = js_sys::Object::new();
        js_sys::Reflect::set(
            &out,
            &"start".into(),
            &JsValue::from_f64(range.start as f64),
        )?;
        js_sys::Reflect::set(&out, &"end".into(), &JsValue::from_f64(range.end as f64))?;
        Ok(out.into())
    }

    /// Replaces messages `start..end` with `summary` (a human or ai message) and returns them
    /// (negative indexes count from the end, as in `splice`).
    /// The summary records what went under `compaction`: `{messages, calls, results}` — calls
    /// kept whose results were removed (rendered with a `compacted` synthetic completion) and
    /// results kept whose calls were removed. Between two `safeCutPoints()` nothing is
    /// separated. Refused while a turn is in flight.
    ///
    /// @example
    /// ```ts
    /// convo.compact(1, 40, { speaker: "human", blocks: [{ type: "text", text: summaryText }] });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Message[]")]
    pub fn compact(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] start: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] end: &JsValue,
        summary: &MessageInput,
    ) -> Result<JsValue, JsValue> {
        let len = self.inner.len();
        let (raw_start, raw_end) = (integer(start, "start")?, integer(end, "end")?);
        let (Some(start), Some(end)) = (relative(raw_start, len), relative(raw_end, len)) else {
            return Err(Error::new(
                ErrorCode::OutOfRange,
                "$",
                format!(
                    "cannot compact {raw_start}..{raw_end}: the conversation has {len} messages"
                ),
            )
            .into());
        };
        // `end` may be the length itself (everything up to the end)
        let end = if end == usize::MAX && raw_end == len as f64 {
            len
        } else {
            end
        };
        let (value, repairs) = message_at(summary, start, "the summary")?;
        let message = Message::read(value, &JsonPath::Root.index(start))?;
        let removed = self.inner.compact(start, end, message)?;
        // what reading the summary repaired, reported at its index
        self.inner.add_read_repairs(repairs);
        messages_js(&removed)
    }
}

/// A plain JavaScript array of the indexes.
fn numbers(points: Vec<usize>) -> JsValue {
    points
        .into_iter()
        .map(|p| JsValue::from_f64(p as f64))
        .collect::<js_sys::Array>()
        .into()
}
