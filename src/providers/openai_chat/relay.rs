//! Chat Completions (every chat dialect): `chat.completion.chunk`s, a usage chunk and `[DONE]`;
//! the whole answer is a `chat.completion`. Reasoning goes in `reasoning_content`.

use serde_json::{json, Map, Value};

use crate::streaming::relay_frame::data;
use crate::streaming::relay_frame::{parts, Frame, Part, RelayOptions};
use crate::streaming::{Delta, StopReason, StreamOutcome, Usage};

/// The stream writer.
#[derive(Debug)]
pub(crate) struct Stream {
    options: RelayOptions,
    started: bool,
    /// The index of the next tool call.
    calls: usize,
}

impl Stream {
    pub(crate) fn new(options: RelayOptions) -> Self {
        Stream {
            options,
            started: false,
            calls: 0,
        }
    }

    fn chunk(&mut self, mut delta: Map<String, Value>, finish: Value) -> Frame {
        if !self.started {
            self.started = true;
            delta.insert("role".into(), "assistant".into());
        }
        data(
            &json!({"id": self.options.id, "object": "chat.completion.chunk",
            "created": self.options.created, "model": self.options.model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}),
        )
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        let mut delta = Map::new();
        match d {
            Delta::Text { text } => {
                delta.insert("content".into(), text.as_str().into());
            }
            Delta::Reasoning { text } => {
                delta.insert("reasoning_content".into(), text.as_str().into());
            }
            Delta::ToolCallComplete {
                id,
                name,
                arguments,
            } => {
                let call = json!({"index": self.calls, "id": id, "type": "function",
                    "function": {"name": name, "arguments": arguments.to_string()}});
                self.calls += 1;
                delta.insert("tool_calls".into(), json!([call]));
            }
            _ => return,
        }
        out.push(self.chunk(delta, Value::Null));
    }

    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        let finish = finish_reason(&outcome.stop_reason);
        out.push(self.chunk(Map::new(), finish.into()));
        if !outcome.usage.is_empty() {
            out.push(data(
                &json!({"id": self.options.id, "object": "chat.completion.chunk",
                "created": self.options.created, "model": self.options.model, "choices": [],
                "usage": usage(&outcome.usage)}),
            ));
        }
        out.push(Frame {
            event: None,
            data: "[DONE]".into(),
        });
    }
}

/// The whole answer: a `chat.completion`.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let (mut text, mut reasoning, mut calls) = (String::new(), String::new(), Vec::new());
    for p in parts(outcome) {
        match p {
            Part::Text(t) => text.push_str(t),
            Part::Thinking(t) => reasoning.push_str(t),
            Part::Call {
                id,
                name,
                arguments,
            } => calls.push(json!({"id": id, "type": "function",
                "function": {"name": name, "arguments": arguments.to_string()}})),
        }
    }
    let mut message = Map::new();
    message.insert("role".into(), "assistant".into());
    message.insert(
        "content".into(),
        if text.is_empty() {
            Value::Null
        } else {
            text.into()
        },
    );
    if !reasoning.is_empty() {
        message.insert("reasoning_content".into(), reasoning.into());
    }
    if !calls.is_empty() {
        message.insert("tool_calls".into(), Value::Array(calls));
    }
    json!({"id": options.id, "object": "chat.completion", "created": options.created,
        "model": options.model,
        "choices": [{"index": 0, "message": message, "finish_reason": finish_reason(&outcome.stop_reason)}],
        "usage": usage(&outcome.usage)})
}

fn finish_reason(s: &StopReason) -> &'static str {
    match s {
        StopReason::ToolUse => "tool_calls",
        StopReason::MaxTokens => "length",
        StopReason::Refusal | StopReason::ContentFilter => "content_filter",
        _ => "stop",
    }
}

fn usage(u: &Usage) -> Value {
    let (prompt, cached) = crate::streaming::relay_frame::prompt_tokens(u);
    let completion = u.output_tokens.unwrap_or(0);
    json!({"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion,
        "prompt_tokens_details": {"cached_tokens": cached},
        "completion_tokens_details": {"reasoning_tokens": u.reasoning_tokens.unwrap_or(0)}})
}

/// The format's error body for an error of type `error_type` (a provider's own type or status).
pub(crate) fn error_body(error_type: &str, message: &str) -> Value {
    json!({"error": {"message": message, "type": error_type, "param": null, "code": null}})
}
