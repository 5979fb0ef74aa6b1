//! Ollama `/api/chat` stream decoding: `application/x-ndjson`, one JSON object per line, each
//! line one [`push`](crate::stream::StreamDecoder::push). Of each object turnwire reads:
//!
//! - `model` (the served model; Ollama sends no response id);
//! - `message.thinking`, appended to one thinking block (`sourceField: "thinking"`);
//! - `message.content`, appended to one text block;
//! - `message.tool_calls[]`: whole calls (`{id?, function: {index?, name, arguments}}`, the
//!   arguments an object), each started and completed at once. A call without an `id` (Ollama
//!   before 0.12.10) gets a minted one (`call_…`, from the caller's id seed or the content);
//! - `done: true` with `done_reason` (`stop`: the turn ended, `tool_use` when it holds calls;
//!   `length`: the output limit) and the counts `prompt_eval_count` (prompt tokens) and
//!   `eval_count` (output tokens, reasoning included): the terminal object;
//! - `{"error": "…"}`: the server failed mid-stream (its only error shape), which ends the turn.
//!
//! Ignored: `created_at`, the durations, `logprobs`, `message.role`, `message.images`.

use serde_json::Value;

use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, text};
use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

const FORMAT: &str = "Ollama /api/chat";

/// The one text block of a message.
const TEXT: &str = "content";
/// The one thinking block of a message.
const THINKING: &str = "thinking";

/// The NDJSON chat decoder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder;

/// `done_reason` in turnwire's terms (`None`: the turn ended as its content says).
fn stop_reason(s: &str) -> Option<StopReason> {
    match s {
        "" | "stop" => None,
        "length" => Some(StopReason::MaxTokens),
        other => Some(StopReason::Other(other.to_string())),
    }
}

/// The counts of the terminal object.
fn usage(v: &Value) -> Usage {
    Usage {
        input_tokens: count(v, "prompt_eval_count"),
        output_tokens: count(v, "eval_count"),
        ..Usage::default()
    }
}

fn tool_call(tc: &Value, s: &mut StreamState, o: &StreamOptions) {
    let n = s.blocks.tool_count();
    let key = format!("tool:{n}");
    let f = tc.get("function").unwrap_or(&Value::Null);
    let name = text(f, "name").unwrap_or_default();
    let id = match text(tc, "id").filter(|x| !x.is_empty()) {
        Some(id) => id.to_string(),
        None => mint_call_id("call_", None, o.id_seed.as_deref(), n, || {
            s.blocks.fingerprint()
        }),
    };
    let args = match f.get("arguments") {
        Some(v @ Value::Object(_)) => v.clone(),
        // A server that sends the arguments as JSON text: parsed, else kept as text.
        Some(Value::String(t)) => {
            serde_json::from_str(t).unwrap_or_else(|_| Value::String(t.clone()))
        }
        None | Some(Value::Null) => Value::Object(serde_json::Map::new()),
        Some(other) => other.clone(),
    };
    let errors = s.blocks.add_tool(&key, &id, name, args, None);
    s.check_all(errors);
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        crate::vocab::Provider::Ollama.wire_api()
    }

    fn terminal(&self) -> &'static str {
        "`done: true`"
    }

    fn event(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        if !v.is_object() {
            s.error(StreamError::unexpected(FORMAT, "a line is a JSON object"));
            return;
        }
        if let Some(e) = v.get("error").filter(|e| !e.is_null()) {
            let message = match e {
                Value::String(m) => m.clone(),
                other => text(other, "message").unwrap_or_default().to_string(),
            };
            s.provider_error("error", &message);
            return;
        }
        s.identify(text(v, "model"), None);
        let m = v.get("message").unwrap_or(&Value::Null);
        if let Some(t) = text(m, "thinking").filter(|t| !t.is_empty()) {
            s.blocks.stream_thinking(THINKING, t, Some("thinking"));
        }
        if let Some(t) = text(m, "content").filter(|t| !t.is_empty()) {
            s.blocks.stream_text(TEXT, t);
        }
        if let Some(Value::Array(calls)) = m.get("tool_calls") {
            for tc in calls {
                tool_call(tc, s, o);
            }
        }
        if v.get("done").and_then(Value::as_bool) == Some(true) {
            s.add_usage(&usage(v));
            let reason = text(v, "done_reason").and_then(stop_reason);
            s.done(reason);
        }
    }
}
