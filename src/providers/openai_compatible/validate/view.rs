//! A light, read-only view of an OpenAI-shaped request body for the dialect rules (Mistral,
//! Kimi, DeepSeek, other OpenAI-compatible servers). Shape errors are not reported here: the OAC
//! checks that every dialect runs first report them, so the dialect rules only read what is
//! readable and skip the rest.

use serde_json::{Map, Value};

use crate::providers::validate_support::Path;

/// Rule id of shape errors found by dialect checks (the same id the OAC checks use).
pub(crate) const STRUCT: &str = "OAC-STRUCT";

/// One message that is a JSON object.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WireMsg<'a> {
    /// Index in `messages`.
    pub(crate) idx: usize,
    /// The message object.
    pub(crate) obj: &'a Map<String, Value>,
}

/// One entry of an assistant message's `tool_calls`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct WireCall<'a> {
    /// Index in `tool_calls`.
    pub(crate) j: usize,
    /// `id`, when it is a string.
    pub(crate) id: Option<&'a str>,
    /// `function.name`, when it is a string.
    pub(crate) name: Option<&'a str>,
}

impl<'a> WireMsg<'a> {
    /// The `role`, when it is a string.
    pub(crate) fn role(&self) -> Option<&'a str> {
        self.obj.get("role").and_then(Value::as_str)
    }

    /// Whether the message has `role`.
    pub(crate) fn is(&self, role: &str) -> bool {
        self.role() == Some(role)
    }

    /// `$.messages[idx]`.
    pub(crate) fn path(&self) -> Path {
        Path::msg(self.idx)
    }

    /// The `tool_calls` entries (none when absent or not an array).
    pub(crate) fn calls(&self) -> Vec<WireCall<'a>> {
        self.obj
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
            .enumerate()
            .map(|(j, c)| WireCall {
                j,
                id: c.get("id").and_then(Value::as_str),
                name: c
                    .get("function")
                    .and_then(|f| f.get("name"))
                    .and_then(Value::as_str),
            })
            .collect()
    }

    /// Whether this is an assistant message with a non-empty `tool_calls` array.
    pub(crate) fn has_tool_calls(&self) -> bool {
        self.is("assistant")
            && self
                .obj
                .get("tool_calls")
                .and_then(Value::as_array)
                .is_some_and(|c| !c.is_empty())
    }

    /// The `tool_call_id`, when it is a string.
    pub(crate) fn tool_call_id(&self) -> Option<&'a str> {
        self.obj.get("tool_call_id").and_then(Value::as_str)
    }

    /// Member `key`, unless absent or null.
    pub(crate) fn field(&self, key: &str) -> Option<&'a Value> {
        self.obj.get(key).filter(|v| !v.is_null())
    }
}

/// The messages that are JSON objects, with their indexes.
pub(crate) fn messages(body: &Value) -> Vec<WireMsg<'_>> {
    body.get("messages")
        .and_then(Value::as_array)
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .enumerate()
        .filter_map(|(idx, m)| m.as_object().map(|obj| WireMsg { idx, obj }))
        .collect()
}

/// The `model`, lower-cased (empty when absent).
pub(crate) fn model_lower(body: &Value) -> String {
    body.get("model")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_ascii_lowercase()
}

/// `thinking.type` of the body (`"enabled"`, `"disabled"`, ...), when present.
pub(crate) fn thinking_type(body: &Value) -> Option<&str> {
    body.get("thinking")
        .and_then(|t| t.get("type"))
        .and_then(Value::as_str)
}

/// Whether any assistant message carries a non-null `field`.
pub(crate) fn any_assistant_has(msgs: &[WireMsg<'_>], field: &str) -> bool {
    msgs.iter()
        .any(|m| m.is("assistant") && m.field(field).is_some())
}

/// An assistant message with `tool_calls` and the contiguous tool messages right after it.
#[derive(Debug, Clone)]
pub(crate) struct ToolRun<'a> {
    /// The calling assistant message.
    pub(crate) assistant: WireMsg<'a>,
    /// The tool messages that follow it, in order.
    pub(crate) tools: Vec<WireMsg<'a>>,
}

/// Every assistant message with `tool_calls`, with its run of tool messages. Non-object entries
/// of `messages` end a run (they are neither tool messages nor skippable).
pub(crate) fn tool_runs<'a>(msgs: &[WireMsg<'a>]) -> Vec<ToolRun<'a>> {
    let mut runs: Vec<ToolRun<'a>> = Vec::new();
    let mut open: Option<ToolRun<'a>> = None;
    let mut prev_idx: Option<usize> = None;
    for m in msgs {
        let adjacent = prev_idx.is_some_and(|p| p + 1 == m.idx);
        prev_idx = Some(m.idx);
        if m.is("tool") && adjacent {
            if let Some(run) = open.as_mut() {
                run.tools.push(*m);
                continue;
            }
        }
        if let Some(run) = open.take() {
            runs.push(run);
        }
        if m.has_tool_calls() {
            open = Some(ToolRun {
                assistant: *m,
                tools: Vec::new(),
            });
        }
    }
    if let Some(run) = open.take() {
        runs.push(run);
    }
    runs
}
