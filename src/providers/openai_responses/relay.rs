//! OpenAI Responses: `response.created`, output items (reasoning with a summary, message with
//! output text, function calls) each added, streamed and done, then `response.completed` with
//! every item; the whole answer is a `response`. Item ids are made from the answer's id.

use serde_json::{json, Value};

use crate::streaming::relay_frame::named;
use crate::streaming::relay_frame::{parts, Frame, Part, RelayOptions};
use crate::streaming::{Delta, StopReason, StreamOutcome, Usage};

/// The item being streamed: its kind, id, output index and text so far.
#[derive(Debug)]
struct Open {
    reasoning: bool,
    id: String,
    index: usize,
    text: String,
}

/// The stream writer.
#[derive(Debug)]
pub(crate) struct Stream {
    options: RelayOptions,
    started: bool,
    sequence: u64,
    open: Option<Open>,
    /// Every finished item, in output order.
    items: Vec<Value>,
}

impl Stream {
    pub(crate) fn new(options: RelayOptions) -> Self {
        Stream {
            options,
            started: false,
            sequence: 0,
            open: None,
            items: Vec::new(),
        }
    }

    /// A named event with its `type` and `sequence_number`.
    fn event(&mut self, name: &str, mut v: Value, out: &mut Vec<Frame>) {
        if let Some(o) = v.as_object_mut() {
            o.insert("type".into(), name.into());
            o.insert("sequence_number".into(), self.sequence.into());
        }
        self.sequence += 1;
        out.push(named(name, v));
    }

    fn start(&mut self, out: &mut Vec<Frame>) {
        if !self.started {
            self.started = true;
            let response = response(&self.options, "in_progress", Vec::new(), None);
            self.event("response.created", json!({"response": response}), out);
        }
    }

    fn close(&mut self, out: &mut Vec<Frame>) {
        let Some(o) = self.open.take() else {
            return;
        };
        let (id, index, text) = (o.id.as_str(), o.index, o.text.as_str());
        let item = if o.reasoning {
            let part = json!({"type": "summary_text", "text": text});
            self.event(
                "response.reasoning_summary_text.done",
                json!({"item_id": id, "output_index": index, "summary_index": 0, "text": text}),
                out,
            );
            self.event(
                "response.reasoning_summary_part.done",
                json!({"item_id": id, "output_index": index, "summary_index": 0, "part": part}),
                out,
            );
            reasoning_item(id, text)
        } else {
            let part = json!({"type": "output_text", "text": text, "annotations": []});
            self.event(
                "response.output_text.done",
                json!({"item_id": id, "output_index": index, "content_index": 0, "text": text}),
                out,
            );
            self.event(
                "response.content_part.done",
                json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
                out,
            );
            message_item(id, text)
        };
        self.event(
            "response.output_item.done",
            json!({"output_index": index, "item": item}),
            out,
        );
        self.items.push(item);
    }

    /// Opens a reasoning or message item unless one of that kind is open.
    fn ensure(&mut self, reasoning: bool, out: &mut Vec<Frame>) -> (String, usize) {
        self.start(out);
        if let Some(o) = &self.open {
            if o.reasoning == reasoning {
                return (o.id.clone(), o.index);
            }
        }
        self.close(out);
        let index = self.items.len();
        let id = format!(
            "{}_{}_{index}",
            if reasoning { "rs" } else { "msg" },
            self.options.id
        );
        if reasoning {
            let item = json!({"id": id, "type": "reasoning", "summary": []});
            self.event(
                "response.output_item.added",
                json!({"output_index": index, "item": item}),
                out,
            );
            let part = json!({"type": "summary_text", "text": ""});
            self.event(
                "response.reasoning_summary_part.added",
                json!({"item_id": id, "output_index": index, "summary_index": 0, "part": part}),
                out,
            );
        } else {
            let item = json!({"id": id, "type": "message", "status": "in_progress", "role": "assistant", "content": []});
            self.event(
                "response.output_item.added",
                json!({"output_index": index, "item": item}),
                out,
            );
            let part = json!({"type": "output_text", "text": "", "annotations": []});
            self.event(
                "response.content_part.added",
                json!({"item_id": id, "output_index": index, "content_index": 0, "part": part}),
                out,
            );
        }
        self.open = Some(Open {
            reasoning,
            id: id.clone(),
            index,
            text: String::new(),
        });
        (id, index)
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        match d {
            Delta::Text { text } | Delta::Reasoning { text } => {
                let reasoning = matches!(d, Delta::Reasoning { .. });
                let (id, index) = self.ensure(reasoning, out);
                if let Some(o) = &mut self.open {
                    o.text.push_str(text);
                }
                let (name, at) = if reasoning {
                    ("response.reasoning_summary_text.delta", "summary_index")
                } else {
                    ("response.output_text.delta", "content_index")
                };
                self.event(
                    name,
                    json!({"item_id": id, "output_index": index, at: 0, "delta": text}),
                    out,
                );
            }
            Delta::ToolCallComplete {
                id,
                name,
                arguments,
            } => {
                self.start(out);
                self.close(out);
                let index = self.items.len();
                let item_id = format!("fc_{}_{index}", self.options.id);
                let args = arguments.to_string();
                let mut item = json!({"id": item_id, "type": "function_call", "status": "in_progress",
                    "call_id": id, "name": name, "arguments": ""});
                self.event(
                    "response.output_item.added",
                    json!({"output_index": index, "item": item}),
                    out,
                );
                self.event(
                    "response.function_call_arguments.delta",
                    json!({"item_id": item_id, "output_index": index, "delta": args}),
                    out,
                );
                self.event(
                    "response.function_call_arguments.done",
                    json!({"item_id": item_id, "output_index": index, "arguments": args}),
                    out,
                );
                item["arguments"] = args.into();
                item["status"] = "completed".into();
                self.event(
                    "response.output_item.done",
                    json!({"output_index": index, "item": item}),
                    out,
                );
                self.items.push(item);
            }
            _ => {}
        }
    }

    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        self.start(out);
        self.close(out);
        let (status, details) = status(&outcome.stop_reason);
        let mut response = response(
            &self.options,
            status,
            std::mem::take(&mut self.items),
            details,
        );
        response["usage"] = usage(&outcome.usage);
        let name = if status == "completed" {
            "response.completed"
        } else {
            "response.incomplete"
        };
        self.event(name, json!({"response": response}), out);
    }

    pub(crate) fn error(&mut self, error_type: &str, message: &str, out: &mut Vec<Frame>) {
        self.start(out);
        let mut response = response(
            &self.options,
            "failed",
            std::mem::take(&mut self.items),
            None,
        );
        response["error"] = json!({"code": error_type, "message": message});
        self.event("response.failed", json!({"response": response}), out);
    }
}

/// The whole answer: a `response`.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let items: Vec<Value> = parts(outcome)
        .into_iter()
        .enumerate()
        .map(|(i, p)| match p {
            Part::Text(text) => message_item(&format!("msg_{}_{i}", options.id), text),
            Part::Thinking(text) => reasoning_item(&format!("rs_{}_{i}", options.id), text),
            Part::Call {
                id,
                name,
                arguments,
            } => json!({"id": format!("fc_{}_{i}", options.id),
                "type": "function_call", "status": "completed", "call_id": id, "name": name,
                "arguments": arguments.to_string()}),
        })
        .collect();
    let (status, details) = status(&outcome.stop_reason);
    let mut r = response(options, status, items, details);
    r["usage"] = usage(&outcome.usage);
    r
}

fn response(
    options: &RelayOptions,
    status: &str,
    output: Vec<Value>,
    details: Option<Value>,
) -> Value {
    json!({"id": options.id, "object": "response", "created_at": options.created, "status": status,
        "model": options.model, "output": output, "incomplete_details": details, "error": null})
}

fn message_item(id: &str, text: &str) -> Value {
    json!({"id": id, "type": "message", "status": "completed", "role": "assistant",
        "content": [{"type": "output_text", "text": text, "annotations": []}]})
}

fn reasoning_item(id: &str, text: &str) -> Value {
    json!({"id": id, "type": "reasoning", "summary": [{"type": "summary_text", "text": text}]})
}

/// The response's status, and why it is incomplete.
fn status(s: &StopReason) -> (&'static str, Option<Value>) {
    match s {
        StopReason::MaxTokens => ("incomplete", Some(json!({"reason": "max_output_tokens"}))),
        StopReason::ContentFilter | StopReason::Refusal => {
            ("incomplete", Some(json!({"reason": "content_filter"})))
        }
        _ => ("completed", None),
    }
}

fn usage(u: &Usage) -> Value {
    let (input, cached) = crate::streaming::relay_frame::prompt_tokens(u);
    let output = u.output_tokens.unwrap_or(0);
    json!({"input_tokens": input, "input_tokens_details": {"cached_tokens": cached},
        "output_tokens": output, "output_tokens_details": {"reasoning_tokens": u.reasoning_tokens.unwrap_or(0)},
        "total_tokens": input + output})
}
