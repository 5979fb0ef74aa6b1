//! Bedrock Converse answers written for a Converse client: the ConverseStream events and the
//! whole `ConverseResponse`.
//!
//! A stream's [`Frame`]s name the Converse event type in `event` (`messageStart`,
//! `contentBlockStart`, `contentBlockDelta`, `contentBlockStop`, `messageStop`, `metadata`) and
//! hold its payload in `data`; an error frame names the exception type (`throttlingException`,
//! …) with `{"message": …}`. The binary `application/vnd.amazon.eventstream` framing around
//! them is the HTTP layer's (one frame per event, `:message-type` `event` or `exception`).

use serde_json::{json, Value};

use crate::streaming::relay_frame::{parts, Frame, Part, RelayOptions};
use crate::streaming::{Delta, StopReason, StreamOutcome, Usage};

/// What kind of content block is open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    Text,
    Reasoning,
    Tool,
}

/// The stream writer.
#[derive(Debug)]
pub(crate) struct Stream {
    started: bool,
    open: Option<(usize, Open)>,
    next: usize,
}

impl Stream {
    pub(crate) fn new(options: RelayOptions) -> Self {
        let _ = options;
        Stream {
            started: false,
            open: None,
            next: 0,
        }
    }

    fn frame(event: &str, payload: Value) -> Frame {
        Frame {
            event: Some(event.to_string()),
            data: payload.to_string(),
        }
    }

    fn start(&mut self, out: &mut Vec<Frame>) {
        if !self.started {
            self.started = true;
            out.push(Self::frame("messageStart", json!({"role": "assistant"})));
        }
    }

    fn close(&mut self, out: &mut Vec<Frame>) {
        if let Some((index, _)) = self.open.take() {
            out.push(Self::frame(
                "contentBlockStop",
                json!({ "contentBlockIndex": index }),
            ));
        }
    }

    /// The index of an open block of `kind`, opening one (and closing another) if needed.
    fn block(&mut self, kind: Open, out: &mut Vec<Frame>) -> usize {
        match self.open {
            Some((index, open)) if open == kind => index,
            _ => {
                self.close(out);
                let index = self.next;
                self.next += 1;
                self.open = Some((index, kind));
                index
            }
        }
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        self.start(out);
        match d {
            Delta::Text { text } => {
                let index = self.block(Open::Text, out);
                out.push(Self::frame(
                    "contentBlockDelta",
                    json!({"contentBlockIndex": index, "delta": {"text": text}}),
                ));
            }
            Delta::Reasoning { text } => {
                let index = self.block(Open::Reasoning, out);
                out.push(Self::frame(
                    "contentBlockDelta",
                    json!({"contentBlockIndex": index, "delta": {"reasoningContent": {"text": text}}}),
                ));
            }
            Delta::ToolCallStart { id, name } => {
                self.close(out);
                let index = self.block(Open::Tool, out);
                out.push(Self::frame(
                    "contentBlockStart",
                    json!({"contentBlockIndex": index, "start": {"toolUse": {"toolUseId": id, "name": name}}}),
                ));
            }
            Delta::ToolCallArguments { delta, .. } => {
                if let Some((index, Open::Tool)) = self.open {
                    out.push(Self::frame(
                        "contentBlockDelta",
                        json!({"contentBlockIndex": index, "delta": {"toolUse": {"input": delta}}}),
                    ));
                }
            }
            Delta::ToolCallComplete { .. } => self.close(out),
            _ => {}
        }
    }

    /// The closing events: the open block's stop, `messageStop` and `metadata` with the usage.
    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        self.start(out);
        self.close(out);
        out.push(Self::frame(
            "messageStop",
            json!({ "stopReason": stop_reason(&outcome.stop_reason) }),
        ));
        out.push(Self::frame(
            "metadata",
            json!({"usage": usage(&outcome.usage), "metrics": {"latencyMs": 0}}),
        ));
    }

    /// An exception event: its type names the frame, its payload the message.
    pub(crate) fn error(&mut self, error_type: &str, message: &str, out: &mut Vec<Frame>) {
        out.push(Self::frame(error_type, error_body(error_type, message)));
    }
}

/// The whole answer: a `ConverseResponse`.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let _ = options;
    let content: Vec<Value> = parts(outcome)
        .into_iter()
        .map(|p| match p {
            Part::Text(text) => json!({ "text": text }),
            Part::Thinking(text) => json!({"reasoningContent": {"reasoningText": {"text": text}}}),
            Part::Call {
                id,
                name,
                arguments,
            } => json!({"toolUse": {"toolUseId": id, "name": name, "input": arguments}}),
        })
        .collect();
    json!({
        "output": {"message": {"role": "assistant", "content": content}},
        "stopReason": stop_reason(&outcome.stop_reason),
        "usage": usage(&outcome.usage),
        "metrics": {"latencyMs": 0}
    })
}

/// Converse's `stopReason`.
fn stop_reason(s: &StopReason) -> &str {
    match s {
        StopReason::ToolUse => "tool_use",
        StopReason::MaxTokens => "max_tokens",
        StopReason::StopSequence => "stop_sequence",
        StopReason::ContentFilter | StopReason::Refusal => "content_filtered",
        StopReason::Other(s) => s.as_str(),
        _ => "end_turn",
    }
}

/// Converse's `usage`: `inputTokens` without the cache reads and writes, which have their own.
fn usage(u: &Usage) -> Value {
    let count = |n: Option<u32>| u64::from(n.unwrap_or(0));
    let input = count(u.input_tokens);
    let output = count(u.output_tokens);
    let read = count(u.cache_read_tokens);
    let write = count(u.cache_write_tokens);
    let mut o = json!({
        "inputTokens": input,
        "outputTokens": output,
        "totalTokens": input + output + read + write,
    });
    if let Some(map) = o.as_object_mut() {
        if read > 0 {
            map.insert("cacheReadInputTokens".into(), read.into());
        }
        if write > 0 {
            map.insert("cacheWriteInputTokens".into(), write.into());
        }
    }
    o
}

/// Bedrock's error body: `{"message": …}`; the type goes in the `x-amzn-ErrorType` header.
pub(crate) fn error_body(error_type: &str, message: &str) -> Value {
    let _ = error_type;
    json!({ "message": message })
}
