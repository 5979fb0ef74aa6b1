//! `StreamDecoder`: a provider's response stream in, the canonical assistant message out.

use js_sys::Uint8Array;
use serde_json::{Map, Value};
use tsify::Ts;
use wasm_bindgen::prelude::*;

use super::args::read_provider;
use super::{args, json_of, to_js, to_js_exact};
use crate::decode::StreamDecoder as CoreDecoder;
use crate::error::{Error, ErrorCode};
use crate::streaming::{StreamError, StreamOptions};
use crate::vocab::Provider;

#[wasm_bindgen(typescript_custom_section)]
const TS_STREAM: &'static str = r#"
/** What a `StreamDecoder` is told before the first event (all optional). */
export interface StreamOptions {
    /** The model the request asked for (the message's provenance names it). */
    model?: string;
    /** The base URL the request went to. */
    endpoint?: string;
    /** The host that served it (`"bedrock"`, `"vertex"`, `"deepseek"`…), stamped on the answer's provenance. */
    host?: Host;
    /** The account the request went out under (an opaque label, never a key), stamped on the answer's provenance. */
    account?: string;
    /** A string unique to this turn, to mint ids for calls the provider sent without one. */
    idSeed?: string;
    /** The largest binary event-stream frame read (Bedrock), in bytes; a longer one is skipped with a `frame_too_large` error. Default 16 MiB. */
    maxEventBytes?: number;
}

/** The stable codes of stream decoding problems. */
export type StreamErrorCode =
    | "invalid_json" | "unexpected_event" | "orphan_delta" | "orphan_reasoning_delta"
    | "orphan_tool_delta" | "duplicate_start" | "duplicate_message_start" | "duplicate_tool_call"
    | "unknown_tool_complete" | "unknown_block_stop" | "invalid_arguments" | "unfinished_tool_call"
    | "provider_error" | "incomplete" | "event_after_end" | "errors_dropped" | "lone_surrogate_replaced"
    | "frame_crc_mismatch" | "invalid_frame" | "frame_too_large" | "unknown_event_type";

/** A problem found while decoding; `errorType` is the provider's own type for `provider_error`. */
export interface StreamErrorInfo {
    code: StreamErrorCode;
    message: string;
    errorType?: string;
}

/** What `StreamDecoder.push` returns: progress for a UI, or a decoding problem (the decoder goes on). */
export type StreamDelta = Delta | ({ type: "error" } & StreamErrorInfo);

/** What `StreamDecoder.finish` returns. */
export interface StreamOutcome {
    /** The canonical assistant message, ready to append to the transcript. */
    message: Message;
    usage: Usage;
    stopReason: StopReason;
    /** The stream ended before its terminal event, or with a provider error. */
    incomplete: boolean;
    /** Every problem of the stream, in order. */
    errors: StreamErrorInfo[];
}
"#;

/// Decodes one response stream of `provider` (its SSE `data:` payloads or JSON chunks, one
/// per `push`) into the canonical assistant message. Blocks keep the order they started in;
/// continuity metadata (thinking signatures, encrypted reasoning, Gemini thought signatures) is
/// kept, typed, with the provider and model that produced it. Call `free()` (or `using`) when
/// done.
///
/// @example
/// ```ts
/// using decoder = new StreamDecoder("anthropic", { model: "claude-sonnet-4-5" });
/// for (const data of sseDataPayloads) for (const d of decoder.push(data)) if (d.type === "text") ui.append(d.text);
/// const { message, usage, stopReason } = decoder.finish();
/// conversation.append(message);
/// ```
#[wasm_bindgen]
pub struct StreamDecoder {
    inner: Option<CoreDecoder>,
}

#[wasm_bindgen]
impl StreamDecoder {
    /// A decoder for one stream of `provider`.
    #[wasm_bindgen(constructor)]
    pub fn new(
        provider: Ts<Provider>,
        #[wasm_bindgen(unchecked_optional_param_type = "StreamOptions")] options: Option<JsValue>,
    ) -> Result<StreamDecoder, JsValue> {
        let provider = read_provider(&provider.js_value())?;
        let options = match options {
            Some(o) if !o.is_undefined() && !o.is_null() => read_stream_options(&o)?,
            _ => StreamOptions::default(),
        };
        Ok(StreamDecoder {
            inner: Some(CoreDecoder::new(provider, options)),
        })
    }

    /// Decodes one event: an SSE `data:` payload (with or without the `data:` prefix), a JSON
    /// chunk, or `[DONE]`. For `bedrock-converse`, and `anthropic` with the `bedrock` host
    /// (InvokeModel), also the response body's bytes as they arrive (a `Uint8Array` cut
    /// anywhere: `application/vnd.amazon.eventstream` frames); a `Uint8Array` for a provider
    /// that streams text is an `invalid_type` error. Returns what it added (text, reasoning,
    /// tool-call progress, usage, done) or, for a problem, one
    /// `{ type: "error", code, message }` entry: the decoder keeps what it could and goes on.
    #[wasm_bindgen(unchecked_return_type = "StreamDelta[]")]
    pub fn push(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] event: &JsValue,
    ) -> Result<JsValue, JsValue> {
        let pushed = if let Some(bytes) = event.dyn_ref::<Uint8Array>() {
            let decoder = self.decoder()?;
            if !decoder.reads_bytes() {
                return Err(Error::new(
                    ErrorCode::InvalidType,
                    "$",
                    format!(
                        "`{}` streams text: push each event as a string, not a Uint8Array",
                        decoder.provider().as_str()
                    ),
                )
                .into());
            }
            // bytes may hold many frames: an error in one does not take back what the others
            // carried (the deltas before the error delta, as for separate events)
            match decoder.push_bytes(&bytes.to_vec()) {
                Ok(deltas) => Ok(deltas),
                Err(e) => Err((decoder.take_held_deltas(), e)),
            }
        } else {
            let event = args::json_text(event, "event")?;
            self.decoder()?.push(&event).map_err(|e| (Vec::new(), e))
        };
        let out = match pushed {
            Ok(deltas) => serde_json::to_value(&deltas).unwrap_or(Value::Array(Vec::new())),
            Err((held, e)) => {
                let mut list = match serde_json::to_value(&held) {
                    Ok(Value::Array(list)) => list,
                    _ => Vec::new(),
                };
                list.push(error_delta(&e));
                Value::Array(list)
            }
        };
        // The event is kept (finish() returns it); the caller learns that memory ran out.
        crate::memory::check("decoding a stream event")?;
        Ok(to_js(&out)?)
    }

    /// What has arrived so far, as `finish()` would return it now (the decoder goes on).
    #[wasm_bindgen(unchecked_return_type = "StreamOutcome")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        let Some(decoder) = &self.inner else {
            return Err(finished().into());
        };
        Ok(to_js(&outcome_value(&decoder.outcome()))?)
    }

    /// Ends the stream and returns the message, usage, stop reason and every problem. A stream
    /// that ended before its terminal event gives the partial message with `incomplete: true`;
    /// append it as it is (the next render closes its open calls). The decoder cannot be used
    /// afterwards.
    #[wasm_bindgen(unchecked_return_type = "StreamOutcome")]
    pub fn finish(&mut self) -> Result<JsValue, JsValue> {
        let Some(decoder) = self.inner.take() else {
            return Err(finished().into());
        };
        // One copy of the reply at a time besides its JSON text (sized exactly): a long reply
        // costs about twice its size in wasm memory at the peak, not four times.
        let outcome = decoder.finish();
        let value = outcome_value(&outcome);
        drop(outcome);
        Ok(to_js_exact(&value)?)
    }

    /// Whether the stream's last event has arrived (the terminal event, or a chat stream's
    /// `[DONE]` after it): stop reading then, even if the connection stays open. Later events
    /// are ignored with an `event_after_end` error.
    #[wasm_bindgen(getter)]
    pub fn closed(&self) -> Result<bool, JsValue> {
        match &self.inner {
            Some(d) => Ok(d.is_closed()),
            None => Err(finished().into()),
        }
    }

    /// The provider this decoder reads.
    #[wasm_bindgen(getter, unchecked_return_type = "Provider")]
    pub fn provider(&self) -> Result<String, JsValue> {
        match &self.inner {
            Some(d) => Ok(d.provider().as_str().to_string()),
            None => Err(finished().into()),
        }
    }
}

impl StreamDecoder {
    fn decoder(&mut self) -> Result<&mut CoreDecoder, Error> {
        self.inner.as_mut().ok_or_else(finished)
    }
}

fn finished() -> Error {
    Error::new(
        ErrorCode::InvalidValue,
        "$",
        "this StreamDecoder has finished; start a new one for the next stream",
    )
}

fn read_stream_options(value: &JsValue) -> Result<StreamOptions, Error> {
    serde_json::from_value(json_of(value, "the stream options")?).map_err(|e| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!("stream options are {{model?, endpoint?, host?, account?, idSeed?}} strings and {{maxEventBytes?}} a number: {e}"),
        )
    })
}

/// `{type: "error", code, message, errorType?}`.
fn error_info(e: &StreamError) -> Map<String, Value> {
    let mut o = Map::new();
    o.insert("code".into(), e.code().into());
    o.insert("message".into(), e.message().into());
    if let StreamError::Provider { error_type, .. } = e {
        o.insert("errorType".into(), error_type.clone().into());
    }
    o
}

fn error_delta(e: &StreamError) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), "error".into());
    o.extend(error_info(e));
    Value::Object(o)
}

pub(super) fn outcome_value(outcome: &crate::streaming::StreamOutcome) -> Value {
    let mut v = outcome.to_value();
    if let Some(o) = v.as_object_mut() {
        let errors = outcome
            .errors
            .iter()
            .map(|e| Value::Object(error_info(e)))
            .collect();
        o.insert("errors".into(), Value::Array(errors));
    }
    v
}
