//! `StreamRelay`, `relayWhole` and `relayErrorBody`: an answer of one provider written in
//! another's wire format (see `crate::relay`); what `repairingFetch({ target })` answers a
//! client of another API with.

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::args::read_provider;
use super::stream::outcome_value;
use super::{json_of, to_js};
use crate::error::{Error, ErrorCode};
use crate::relay::{self, Frame, RelayOptions};

#[wasm_bindgen(typescript_custom_section)]
const TS_RELAY: &'static str = r#"
/** What a relay writes that the answer does not say. */
export interface RelayOptions {
    /** The model the client asked for (its answers name it). */
    model: string;
    /** The answer's id (message, completion or response id); item ids are made from it. */
    id: string;
    /** Unix seconds, for the formats that carry a creation time (default 0). */
    created?: number;
}
"#;

/// Reads `{model, id, created?}`.
fn read_relay_options(value: &JsValue) -> Result<RelayOptions, Error> {
    let Value::Object(o) = json_of(value, "the relay options")? else {
        return Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            "relay options must be an object like {model, id}",
        ));
    };
    let text = |key: &str| match o.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        _ => Err(Error::new(
            ErrorCode::InvalidType,
            format!("$.{key}"),
            format!("the relay options' `{key}` must be a string"),
        )),
    };
    let mut options = RelayOptions::new(text("model")?, text("id")?);
    options.created = o.get("created").and_then(Value::as_u64).unwrap_or(0);
    Ok(options)
}

/// Frames as SSE text.
fn sse(frames: Vec<Frame>) -> String {
    frames.iter().map(Frame::to_sse).collect()
}

/// A streamed answer of provider `from`, rewritten event by event as `to`'s stream: push each
/// SSE `data:` payload of the answer, send on the SSE text returned. A provider error in the
/// stream becomes `to`'s error event. Continuity tokens the client's format cannot hold stay in
/// `outcome()`. Call `free()` (or `using`) when done.
///
/// @example
/// ```ts
/// using relay = new StreamRelay("gemini", "anthropic", { model: "claude-sonnet-4-6", id: "msg_1" });
/// for (const data of geminiEvents) controller.enqueue(encoder.encode(relay.push(data)));
/// controller.enqueue(encoder.encode(relay.finish()));
/// ```
#[wasm_bindgen]
pub struct StreamRelay {
    inner: relay::StreamRelay,
}

#[wasm_bindgen]
impl StreamRelay {
    /// A relay for one answer.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "Provider")] from: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "Provider")] to: &JsValue,
        #[wasm_bindgen(unchecked_param_type = "RelayOptions")] options: &JsValue,
    ) -> Result<StreamRelay, JsValue> {
        let (from, to) = (read_provider(from)?, read_provider(to)?);
        let options = read_relay_options(options)?;
        Ok(StreamRelay {
            inner: relay::StreamRelay::new(from, to, options),
        })
    }

    /// The client's SSE text for one event of the answer (empty when it adds nothing).
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] event: &JsValue,
    ) -> Result<String, JsValue> {
        let event = super::args::json_text(event, "event")?;
        let frames = self.inner.push(&event);
        crate::memory::check("relaying a stream event")?;
        Ok(sse(frames))
    }

    /// The answer's body ended: the end frames if the answer stopped without saying it was over.
    pub fn finish(&mut self) -> String {
        sse(self.inner.finish())
    }

    /// Whether the client's stream is complete.
    #[wasm_bindgen(getter)]
    pub fn closed(&self) -> bool {
        self.inner.is_closed()
    }

    /// What was decoded so far (the message with its continuity tokens).
    #[wasm_bindgen(unchecked_return_type = "StreamOutcome")]
    pub fn outcome(&self) -> Result<JsValue, JsValue> {
        Ok(to_js(&outcome_value(&self.inner.outcome()))?)
    }
}

/// A whole answer of `from` written as `to`'s whole answer: `{ body, outcome }`. An error
/// answer becomes `to`'s error body.
///
/// @example
/// ```ts
/// const { body } = relayWhole("gemini", "openai-chat", await res.json(), { model: "gpt-5.2", id: "chatcmpl_1" });
/// ```
#[wasm_bindgen(js_name = relayWhole, unchecked_return_type = "{ body: JsonObject; outcome: StreamOutcome }")]
pub fn relay_whole(
    #[wasm_bindgen(unchecked_param_type = "Provider")] from: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "Provider")] to: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "JsonObject")] answer: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "RelayOptions")] options: &JsValue,
) -> Result<JsValue, JsValue> {
    let (from, to) = (read_provider(from)?, read_provider(to)?);
    let answer = json_of(answer, "the answer")?;
    let options = read_relay_options(options)?;
    let (body, outcome) = relay::relay_whole(from, to, &answer, &options);
    let mut o = Map::new();
    o.insert("body".into(), body);
    o.insert("outcome".into(), outcome_value(&outcome));
    Ok(to_js(&Value::Object(o))?)
}

/// `to`'s error body for an error of another provider (its type or status, and message).
///
/// @example
/// ```ts
/// relayErrorBody("anthropic", "RESOURCE_EXHAUSTED", "Quota exceeded"); // {type: "error", error: {…}}
/// ```
#[wasm_bindgen(js_name = relayErrorBody, unchecked_return_type = "JsonObject")]
pub fn relay_error_body(
    #[wasm_bindgen(unchecked_param_type = "Provider")] to: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] error_type: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] message: &JsValue,
) -> Result<JsValue, JsValue> {
    let to = read_provider(to)?;
    let error_type = super::args::string(error_type, "error_type")?;
    let message = super::args::string(message, "message")?;
    Ok(to_js(&relay::error_body(to, &error_type, &message))?)
}
