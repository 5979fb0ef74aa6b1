//! Anthropic Messages: `message_start`, content blocks (text, thinking, tool_use), then
//! `message_delta` and `message_stop`; the whole answer is a `message`.

use serde_json::{json, Map, Value};

use crate::streaming::relay_frame::named;
use crate::streaming::relay_frame::{parts, Frame, Part, RelayOptions};
use crate::streaming::{Delta, StopReason, StreamOutcome, Usage};

/// The block being streamed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Text,
    Thinking,
}

/// The stream writer.
#[derive(Debug)]
pub(crate) struct Stream {
    options: RelayOptions,
    started: bool,
    open: Option<Open>,
    /// The index of the next block.
    next: usize,
}

impl Stream {
    pub(crate) fn new(options: RelayOptions) -> Self {
        Stream {
            options,
            started: false,
            open: None,
            next: 0,
        }
    }

    fn start(&mut self, out: &mut Vec<Frame>) {
        if !self.started {
            self.started = true;
            let message = json!({"id": self.options.id, "type": "message", "role": "assistant",
                "model": self.options.model, "content": [], "stop_reason": null, "stop_sequence": null,
                "usage": {"input_tokens": 0, "output_tokens": 0}});
            out.push(named(
                "message_start",
                json!({"type": "message_start", "message": message}),
            ));
        }
    }

    fn close(&mut self, out: &mut Vec<Frame>) {
        if self.open.take().is_some() {
            let index = self.next - 1;
            out.push(named(
                "content_block_stop",
                json!({"type": "content_block_stop", "index": index}),
            ));
        }
    }

    /// Opens a block of `kind` unless one is open, and returns its index.
    fn ensure(&mut self, kind: Open, block: Value, out: &mut Vec<Frame>) -> usize {
        self.start(out);
        if self.open != Some(kind) {
            self.close(out);
            self.open = Some(kind);
            self.next += 1;
            out.push(named(
                "content_block_start",
                json!({"type": "content_block_start", "index": self.next - 1, "content_block": block}),
            ));
        }
        self.next - 1
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        let (index, delta) = match d {
            Delta::Text { text } => {
                let i = self.ensure(Open::Text, json!({"type": "text", "text": ""}), out);
                (i, json!({"type": "text_delta", "text": text}))
            }
            Delta::Reasoning { text } => {
                let block = json!({"type": "thinking", "thinking": "", "signature": ""});
                let i = self.ensure(Open::Thinking, block, out);
                (i, json!({"type": "thinking_delta", "thinking": text}))
            }
            // A call goes out whole when it is complete: calls of some formats interleave.
            Delta::ToolCallComplete {
                id,
                name,
                arguments,
            } => {
                self.start(out);
                self.close(out);
                let index = self.next;
                self.next += 1;
                let block = json!({"type": "tool_use", "id": id, "name": name, "input": {}});
                out.push(named(
                    "content_block_start",
                    json!({"type": "content_block_start", "index": index, "content_block": block}),
                ));
                let partial =
                    json!({"type": "input_json_delta", "partial_json": arguments.to_string()});
                out.push(named(
                    "content_block_delta",
                    json!({"type": "content_block_delta", "index": index, "delta": partial}),
                ));
                out.push(named(
                    "content_block_stop",
                    json!({"type": "content_block_stop", "index": index}),
                ));
                return;
            }
            _ => return,
        };
        out.push(named(
            "content_block_delta",
            json!({"type": "content_block_delta", "index": index, "delta": delta}),
        ));
    }

    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        self.start(out);
        self.close(out);
        let delta =
            json!({"stop_reason": stop_reason(&outcome.stop_reason), "stop_sequence": null});
        out.push(named(
            "message_delta",
            json!({"type": "message_delta", "delta": delta, "usage": usage(&outcome.usage)}),
        ));
        out.push(named("message_stop", json!({"type": "message_stop"})));
    }

    pub(crate) fn error(&mut self, error_type: &str, message: &str, out: &mut Vec<Frame>) {
        out.push(named(
            "error",
            json!({"type": "error", "error": {"type": error_type, "message": message}}),
        ));
    }
}

/// The whole answer: a `message`.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let content: Vec<Value> = parts(outcome)
        .into_iter()
        .map(|p| match p {
            Part::Text(text) => json!({"type": "text", "text": text}),
            Part::Thinking(thinking) => {
                json!({"type": "thinking", "thinking": thinking, "signature": ""})
            }
            Part::Call {
                id,
                name,
                arguments,
            } => {
                json!({"type": "tool_use", "id": id, "name": name, "input": arguments})
            }
        })
        .collect();
    json!({"id": options.id, "type": "message", "role": "assistant", "model": options.model,
        "content": content, "stop_reason": stop_reason(&outcome.stop_reason), "stop_sequence": null,
        "usage": usage(&outcome.usage)})
}

fn stop_reason(s: &StopReason) -> &'static str {
    match s {
        StopReason::ToolUse => "tool_use",
        StopReason::MaxTokens => "max_tokens",
        StopReason::StopSequence => "stop_sequence",
        StopReason::Refusal | StopReason::ContentFilter => "refusal",
        StopReason::Pause => "pause_turn",
        _ => "end_turn",
    }
}

fn usage(u: &Usage) -> Value {
    let mut o = Map::new();
    o.insert("input_tokens".into(), u.input_tokens.unwrap_or(0).into());
    o.insert("output_tokens".into(), u.output_tokens.unwrap_or(0).into());
    if let Some(n) = u.cache_read_tokens {
        o.insert("cache_read_input_tokens".into(), n.into());
    }
    if let Some(n) = u.cache_write_tokens {
        o.insert("cache_creation_input_tokens".into(), n.into());
    }
    Value::Object(o)
}

/// The format's error body for an error of type `error_type` (a provider's own type or status).
pub(crate) fn error_body(error_type: &str, message: &str) -> Value {
    json!({"type": "error", "error": {"type": error_type, "message": message}})
}
