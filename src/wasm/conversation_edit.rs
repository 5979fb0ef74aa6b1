//! `Conversation` editing and queries from JavaScript: `at`, `truncate`, `replace`, `splice`
//! (its variadic form is `js/conversation-ext.mts` over `spliceArray`), `toolCalls`,
//! `openCalls`. Indexes are JavaScript's: integers, negative ones counting from the end where
//! `Array.prototype.at` / `with` / `splice` take them.

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::conversation::Conversation;
use super::errors::js_type_name;
use super::types::MessageInput;
use super::{text, to_js};
use crate::error::{Error, ErrorCode};
use crate::model::{Message, ToolCallState};
use crate::vocab::Diagnostic;

#[wasm_bindgen(typescript_custom_section)]
const TS_CONVERSATION_EDITS: &'static str = r#"
export interface Conversation {
    /**
     * Removes `deleteCount` messages from `start` on (all of them when left out), puts
     * `messages` in their place and returns the removed ones, as `Array.prototype.splice`
     * does (a negative `start` counts from the end). Refused with a `TurnInFlightError`
     * while a turn is in flight.
     *
     * @example
     * ```ts
     * convo.splice(-1, 1, { speaker: "human", blocks: [{ type: "text", text: "try again" }] });
     * ```
     */
    splice(start: number, deleteCount?: number, ...messages: Message[]): Message[];
    /**
     * Whether a turn (`streamTurn`, `runAgent`) is in flight on this conversation: while it
     * is, appends, edits, a second turn and `free()` are `TurnInFlightError`s.
     */
    readonly inFlight: boolean;
}"#;

#[wasm_bindgen]
impl Conversation {
    /// The message at `index` (negative: from the end), or `undefined`.
    ///
    /// @example
    /// ```ts
    /// const last = convo.at(-1);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Message | undefined")]
    pub fn at(
        &self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let i = relative(integer(index, "index")?, self.inner.len());
        match i.and_then(|i| self.inner.at(i)) {
            Some(m) => Ok(to_js(&m.write())?),
            None => Ok(JsValue::UNDEFINED),
        }
    }

    /// Keeps the first `length` messages and returns the others (what a retry from an earlier
    /// point, or an undo, removes). The render caches stay valid: an edit near the end costs
    /// about what an append costs.
    ///
    /// @example
    /// ```ts
    /// const removed = convo.truncate(convo.length - 2);
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Message[]")]
    pub fn truncate(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] length: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let n = integer(length, "length")?;
        if n < 0.0 {
            return Err(Error::new(
                ErrorCode::OutOfRange,
                "$",
                format!("`length` must be 0 or more, got {n}"),
            )
            .into());
        }
        messages_js(&self.inner.truncate(n as usize))
    }

    /// Puts `message` at `index` (negative: from the end) and returns the one that was there.
    /// An index with no message is an `out_of_range` error, a bad message an error at
    /// `$[index]…`; either way nothing changes.
    ///
    /// @example
    /// ```ts
    /// convo.replace(-1, { speaker: "human", blocks: [{ type: "text", text: "shorter, please" }] });
    /// ```
    #[wasm_bindgen(unchecked_return_type = "Message")]
    pub fn replace(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "number")] index: &JsValue,
        message: &MessageInput,
    ) -> Result<JsValue, JsValue> {
        let raw = integer(index, "index")?;
        let len = self.inner.len();
        let Some(i) = relative(raw, len).filter(|&i| i < len) else {
            return Err(Error::new(
                ErrorCode::OutOfRange,
                "$",
                format!("no message at index {raw}: the conversation has {len} messages"),
            )
            .into());
        };
        let (value, repairs) = message_at(message, i, "the message")?;
        let old = self.inner.replace_value(i, value)?;
        self.inner.add_read_repairs(repairs);
        Ok(to_js(&old.write())?)
    }

    /// `splice(start, deleteCount, messages)` with the messages as one array: what the
    /// variadic `splice` calls.
    #[wasm_bindgen(js_name = spliceArray, skip_typescript)]
    pub fn splice_array(
        &mut self,
        start: &JsValue,
        delete_count: &JsValue,
        messages: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let len = self.inner.len();
        let start = relative(integer(start, "start")?, len)
            .unwrap_or(0)
            .min(len);
        let delete = if delete_count.is_undefined() {
            usize::MAX
        } else {
            integer(delete_count, "deleteCount")?.max(0.0) as usize
        };
        // the items as they are now (a getter or a Proxy's trap runs once, here)
        let list: Array = super::guarded::items(messages).map_err(|e| {
            Error::new(
                ErrorCode::InvalidType,
                "$",
                format!(
                    "`messages` must be an array of messages; reading it threw: {}",
                    super::errors::describe(&e)
                ),
            )
        })?;
        let mut values = Vec::with_capacity(list.length() as usize);
        let mut repairs = Vec::new();
        for (k, m) in list.iter().enumerate() {
            let (value, read) = message_at(&m, start + k, "the message")?;
            values.push(value);
            repairs.extend(read);
        }
        let removed = self.inner.splice_values(start, delete, values)?;
        self.inner.add_read_repairs(repairs);
        messages_js(&removed)
    }

    /// Every tool call of the history with its status (`complete`, `errored`, `pending`),
    /// where it is and which response decides it, reconstructed from the messages.
    ///
    /// @example
    /// ```ts
    /// for (const call of convo.toolCalls()) console.log(call.name, call.status);
    /// ```
    #[wasm_bindgen(js_name = toolCalls, unchecked_return_type = "ToolCallState[]")]
    pub fn tool_calls(&self) -> Result<JsValue, JsValue> {
        calls_js(&self.inner.tool_calls())
    }

    /// The calls still waiting for a result (no response, or only a pending one): run them,
    /// or record them cancelled, before the next turn.
    ///
    /// @example
    /// ```ts
    /// if (convo.openCalls().length > 0) convo.append(await runToolCalls(convo.at(-1), tools));
    /// ```
    #[wasm_bindgen(js_name = openCalls, unchecked_return_type = "ToolCallState[]")]
    pub fn open_calls(&self) -> Result<JsValue, JsValue> {
        calls_js(&self.inner.open_calls())
    }
}

/// A message given as a JS value, read as JSON for index `index` of the conversation: its value
/// and the repairs reading it took (values JSON cannot carry, unpaired surrogates), each at its
/// path below `$[index]`.
pub(super) fn message_at(
    message: &JsValue,
    index: usize,
    what: &str,
) -> Result<(serde_json::Value, Vec<Diagnostic>), Error> {
    let root = format!("$[{index}]");
    let converted = text::stringify(message, what, &root)?;
    let parsed = crate::json::parse(&converted.text, &root, what)?;
    let mut repairs = converted.repairs;
    repairs.extend(crate::json::report::surrogates(&parsed.repairs, &root));
    Ok((parsed.value, repairs))
}

/// An integer argument (a JavaScript number with no fraction).
pub(super) fn integer(value: &JsValue, name: &str) -> Result<f64, Error> {
    match value.as_f64() {
        Some(v) if v.is_finite() && v.fract() == 0.0 => Ok(v),
        _ => Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            format!("`{name}` must be an integer, found {}", js_type_name(value)),
        )),
    }
}

/// A JavaScript index into `len` messages, a negative one counting from the end; `None` before
/// the start. One past the end stays past it (`usize::MAX`), for the callers to refuse or clamp.
pub(super) fn relative(i: f64, len: usize) -> Option<usize> {
    if i >= 0.0 {
        Some(if i < len as f64 {
            i as usize
        } else {
            usize::MAX
        })
    } else {
        let back = -i;
        (back <= len as f64).then(|| len - back as usize)
    }
}

pub(super) fn messages_js(messages: &[Message]) -> Result<JsValue, JsValue> {
    let values: Vec<serde_json::Value> = messages.iter().map(Message::write).collect();
    Ok(to_js(&serde_json::Value::Array(values))?)
}

fn calls_js(calls: &[ToolCallState]) -> Result<JsValue, JsValue> {
    let value = serde_json::to_value(calls).map_err(|e| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!("tool calls could not be written: {e}"),
        )
    })?;
    Ok(to_js(&value)?)
}
