//! Gemini `generateContent`: one `GenerateContentResponse` chunk per delta, the last with its
//! `finishReason` and `usageMetadata`; the whole answer is one response.

use serde_json::{json, Map, Value};

use crate::streaming::relay_frame::data;
use crate::streaming::relay_frame::{parts, Frame, Part, RelayOptions};
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

    fn chunk(&self, parts: Vec<Value>) -> Frame {
        data(
            &json!({"candidates": [{"content": {"role": "model", "parts": parts}, "index": 0}],
            "modelVersion": self.options.model, "responseId": self.options.id}),
        )
    }

    pub(crate) fn delta(&mut self, d: &Delta, out: &mut Vec<Frame>) {
        let part = match d {
            Delta::Text { text } => json!({"text": text}),
            Delta::Reasoning { text } => json!({"text": text, "thought": true}),
            Delta::ToolCallComplete {
                id,
                name,
                arguments,
            } => call(id, name, arguments.clone()),
            _ => return,
        };
        out.push(self.chunk(vec![part]));
    }

    pub(crate) fn end(&mut self, outcome: &StreamOutcome, out: &mut Vec<Frame>) {
        out.push(data(&json!({
            "candidates": [{"content": {"role": "model", "parts": []},
                "finishReason": finish_reason(&outcome.stop_reason), "index": 0}],
            "usageMetadata": usage(&outcome.usage),
            "modelVersion": self.options.model, "responseId": self.options.id})));
    }
}

/// The whole answer.
pub(crate) fn whole(outcome: &StreamOutcome, options: &RelayOptions) -> Value {
    let content: Vec<Value> = parts(outcome)
        .into_iter()
        .map(|p| match p {
            Part::Text(text) => json!({"text": text}),
            Part::Thinking(text) => json!({"text": text, "thought": true}),
            Part::Call {
                id,
                name,
                arguments,
            } => call(id, name, arguments),
        })
        .collect();
    json!({"candidates": [{"content": {"role": "model", "parts": content},
            "finishReason": finish_reason(&outcome.stop_reason), "index": 0}],
        "usageMetadata": usage(&outcome.usage), "modelVersion": options.model, "responseId": options.id})
}

fn call(id: &str, name: &str, arguments: Value) -> Value {
    json!({"functionCall": {"id": id, "name": name, "args": arguments}})
}

fn finish_reason(s: &StopReason) -> &'static str {
    match s {
        StopReason::MaxTokens => "MAX_TOKENS",
        StopReason::Refusal | StopReason::ContentFilter => "SAFETY",
        _ => "STOP",
    }
}

fn usage(u: &Usage) -> Value {
    let (prompt, cached) = crate::streaming::relay_frame::prompt_tokens(u);
    let thoughts = u.reasoning_tokens.unwrap_or(0);
    let candidates = u.output_tokens.unwrap_or(0).saturating_sub(thoughts);
    let mut o = Map::new();
    o.insert("promptTokenCount".into(), prompt.into());
    o.insert("candidatesTokenCount".into(), candidates.into());
    if thoughts > 0 {
        o.insert("thoughtsTokenCount".into(), thoughts.into());
    }
    if cached > 0 {
        o.insert("cachedContentTokenCount".into(), cached.into());
    }
    o.insert(
        "totalTokenCount".into(),
        (prompt + candidates + thoughts).into(),
    );
    Value::Object(o)
}

/// The format's error body for an error of type `error_type` (a provider's own type or status).
pub(crate) fn error_body(error_type: &str, message: &str) -> Value {
    json!({"error": {"code": 500, "message": message, "status": error_type}})
}
