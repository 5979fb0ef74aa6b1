//! `Conversation`: a transcript owned by the wasm module, grown message by message.
//!
//! Phase 1 renders the whole transcript on every `render` call; the API is the one the
//! incremental (per-message cached) renderer will keep.

use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::types::{MessageInput, TranscriptInput};
use super::{json_of, read_options, read_transcript, to_js};
use crate::error::Error;
use crate::model::{JsonPath, Message, Transcript};
use crate::render::{render, render_body, RenderOptions, Rendered};

/// A conversation kept in wasm memory: append messages as they happen, render for any
/// provider on every turn. Call `free()` (or `using`) when done: the memory is not
/// JavaScript's, and a `FinalizationRegistry` only frees it eventually.
///
/// @example
/// ```ts
/// using convo = new Conversation();
/// convo.append({ speaker: "human", blocks: [{ type: "text", text: "hi" }] });
/// const body = convo.render({ provider: "anthropic", model: "claude-sonnet-4-5" });
/// ```
#[wasm_bindgen]
pub struct Conversation {
    transcript: Transcript,
}

#[wasm_bindgen]
impl Conversation {
    /// A conversation, empty or starting from a transcript (a value or its JSON text).
    #[wasm_bindgen(constructor)]
    pub fn new(transcript: Option<TranscriptInput>) -> Result<Conversation, JsValue> {
        let transcript = match transcript {
            Some(t) => read_transcript(&t)?,
            None => Transcript::default(),
        };
        Ok(Conversation { transcript })
    }

    /// A conversation from a transcript's JSON text (what `JSON.stringify(conversation)`
    /// wrote) or from a transcript value.
    #[wasm_bindgen(js_name = fromJSON)]
    pub fn from_json(transcript: &TranscriptInput) -> Result<Conversation, JsValue> {
        Ok(Conversation {
            transcript: read_transcript(transcript)?,
        })
    }

    /// The number of messages.
    #[wasm_bindgen(getter)]
    pub fn length(&self) -> u32 {
        u32::try_from(self.transcript.messages.len()).unwrap_or(u32::MAX)
    }

    /// Appends one message. A bad message is a `TurnwireError` whose path is the index it
    /// would have had (`$[12].blocks[0].id`); the conversation is left unchanged.
    pub fn append(&mut self, message: &MessageInput) -> Result<(), JsValue> {
        let value = json_of(message, "the message")?;
        self.push(&value)?;
        Ok(())
    }

    /// Appends one message given as JSON text.
    #[wasm_bindgen(js_name = appendJson)]
    pub fn append_json(&mut self, json: &str) -> Result<(), JsValue> {
        let value: serde_json::Value = serde_json::from_str(json).map_err(|e| {
            Error::new(
                crate::error::ErrorCode::InvalidJson,
                "$",
                format!("the message is not valid JSON: {e}"),
            )
        })?;
        self.push(&value)?;
        Ok(())
    }

    /// Renders the request body for `options.provider` as UTF-8 JSON bytes.
    pub fn render(&self, options: Ts<RenderOptions>) -> Result<Vec<u8>, JsValue> {
        let options = read_options(&options.js_value())?;
        Ok(render_body(&self.transcript, &options)?)
    }

    /// Renders `{ body, idMap, toolNames, diagnostics }` as plain objects.
    #[wasm_bindgen(js_name = renderObject)]
    pub fn render_object(&self, options: Ts<RenderOptions>) -> Result<Ts<Rendered>, JsValue> {
        let options = read_options(&options.js_value())?;
        let out = render(&self.transcript, &options)?;
        Ok(Ts::new_unchecked(to_js(&out)?))
    }

    /// The transcript in its JSON history shape (so `JSON.stringify(conversation)` works).
    #[wasm_bindgen(js_name = toJSON, unchecked_return_type = "Transcript")]
    pub fn to_json(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&self.transcript.to_value())?)
    }
}

impl Conversation {
    fn push(&mut self, value: &serde_json::Value) -> Result<(), Error> {
        let root = JsonPath::Root;
        let message = Message::read(value, &root.index(self.transcript.messages.len()))?;
        self.transcript.messages.push(message);
        Ok(())
    }
}
