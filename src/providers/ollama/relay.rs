//! Ollama `/api/chat` answers: NDJSON lines (each a [`Frame`] with `event: None`, its `data` one
//! line) of `{model, created_at, message, done: false}`, then the terminal line with
//! `done: true`, `done_reason` and the counts; the whole answer (`"stream": false`) is one such
//! object with the whole message. Calls carry ids (`id`, as Ollama 0.12.10 and later send).

use serde_json::{json, Map, Value};

use crate::streaming::relay_frame::{data, parts, Frame, Part, RelayOptions};
use crate::streaming::{Delta, StopReason, StreamOutcome, Usage};

/// The stream writer.
#[derive(Debug)]
pub(crate) struct Stream {
    options: RelayOptions,
}

impl Stream {
    pub(crate) fn new(options: RelayOptions) -> Self {
        Stream { options }
    }

    fn line(&self, message: Map<String, Value>) -> Frame {
        data(
            &json!({"model": self.options.model, "created_at": created_at(self.options.created),
            "message": message, "done": false}),
        )
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        let mut m = empty_message();
        match d {
            Delta::Text { text } => {
                m.insert("content".into(), text.as_str().into());
            }
            Delta::Reasoning { text } => {
                m.insert("thinking".into(), text.as_str().into());
            }
            Delta::ToolCallComplete {
                id,
                name,
                arguments,
            } => {
                m.insert("tool_calls".into(), json!([call(id, name, arguments)]));
            }
            _ => return,
        }
        out.push(self.line(m));
    }

    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        let mut last = json!({"model": self.options.model,
            "created_at": created_at(self.options.created), "message": empty_message(),
            "done": true, "done_reason": done_reason(&outcome.stop_reason)});
        counts(&outcome.usage, &mut last);
        out.push(data(&last));
    }

    /// A failure mid-stream: Ollama's one error line.
    pub(crate) fn error(&mut self, _error_type: &str, message: &str, out: &mut Vec<Frame>) {
        out.push(data(&error_body("", message)));
    }
}

fn empty_message() -> Map<String, Value> {
    let mut m = Map::new();
    m.insert("role".into(), "assistant".into());
    m.insert("content".into(), "".into());
    m
}

fn call(id: &str, name: &str, arguments: &Value) -> Value {
    json!({"id": id, "function": {"name": name, "arguments": arguments}})
}

/// The whole answer: one `ChatResponse` with `done: true`.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let (mut text, mut thinking, mut calls) = (String::new(), String::new(), Vec::new());
    for p in parts(outcome) {
        match p {
            Part::Text(t) => text.push_str(t),
            Part::Thinking(t) => thinking.push_str(t),
            Part::Call {
                id,
                name,
                arguments,
            } => calls.push(call(id, name, &arguments)),
        }
    }
    let mut message = empty_message();
    message.insert("content".into(), text.into());
    if !thinking.is_empty() {
        message.insert("thinking".into(), thinking.into());
    }
    if !calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    let mut v = json!({"model": options.model, "created_at": created_at(options.created),
        "message": message, "done": true, "done_reason": done_reason(&outcome.stop_reason)});
    counts(&outcome.usage, &mut v);
    v
}

/// `done_reason`: `length` at the output limit, else `stop` (Ollama says `stop` after calls).
fn done_reason(s: &StopReason) -> &'static str {
    match s {
        StopReason::MaxTokens => "length",
        _ => "stop",
    }
}

/// `prompt_eval_count` (every prompt token, cached or not) and `eval_count`.
fn counts(u: &Usage, into: &mut Value) {
    let (prompt, _) = crate::streaming::relay_frame::prompt_tokens(u);
    if let Some(o) = into.as_object_mut() {
        o.insert("prompt_eval_count".into(), prompt.into());
        o.insert("eval_count".into(), u.output_tokens.unwrap_or(0).into());
    }
}

/// Ollama's error body: `{"error": "…"}` (no type).
pub(crate) fn error_body(_error_type: &str, message: &str) -> Value {
    json!({ "error": message })
}

/// Unix seconds as RFC 3339 UTC (`1970-01-01T00:00:00Z`), Ollama's `created_at`.
fn created_at(secs: u64) -> String {
    let days = i64::try_from(secs / 86_400).unwrap_or(0);
    let rem = secs % 86_400;
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3_600,
        rem % 3_600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn created_at_is_rfc_3339_utc() {
        assert_eq!(created_at(0), "1970-01-01T00:00:00Z");
        assert_eq!(created_at(1_764_288_000), "2025-11-28T00:00:00Z");
        assert_eq!(created_at(951_825_599), "2000-02-29T11:59:59Z");
    }
}
