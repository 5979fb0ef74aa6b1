//! The message view the Anthropic rules work on: roles, content and block lookups, read once
//! from `messages` with shape errors reported on the way.

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::{Pairing, WireApi};

/// Where Messages keeps tool calls and their results.
pub(super) const PAIRING: Pairing = WireApi::Messages.pairing();

/// A message role Anthropic accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `system`, inside the conversation (ANT-25).
    System,
}

impl Role {
    /// The role as written on the wire.
    pub(super) fn name(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
        }
    }
}

/// The content of one message as far as it could be read.
pub(super) enum Content<'a> {
    /// String content.
    Text(&'a str),
    /// An array of content blocks.
    Blocks(&'a [Value]),
    /// Missing or of the wrong type (already reported).
    Invalid,
}

/// One message as far as it could be read.
pub(super) struct Msg<'a> {
    /// The role, when it is a known one.
    pub(super) role: Option<Role>,
    /// The content as far as it could be read.
    pub(super) content: Content<'a>,
}

impl<'a> Msg<'a> {
    /// Content blocks with their index (none for string or unreadable content).
    pub(super) fn blocks(&self) -> impl Iterator<Item = (usize, &'a Value)> {
        let slice: &'a [Value] = match self.content {
            Content::Blocks(b) => b,
            _ => &[],
        };
        slice.iter().enumerate()
    }

    /// Blocks of one type with their index.
    pub(super) fn blocks_of(&self, ty: &'static str) -> impl Iterator<Item = (usize, &'a Value)> {
        self.blocks()
            .filter(move |(_, b)| block_type(b) == Some(ty))
    }

    /// `(block index, id)` of every `tool_use` block with a string id.
    pub(super) fn tool_use_ids(&self) -> Vec<(usize, &'a str)> {
        self.blocks_of(PAIRING.call)
            .filter_map(|(b, v)| {
                v.get(PAIRING.call_id)
                    .and_then(Value::as_str)
                    .map(|id| (b, id))
            })
            .collect()
    }

    /// `(block index, id)` of every `tool_result` block with a string `tool_use_id`.
    pub(super) fn tool_result_ids(&self) -> Vec<(usize, &'a str)> {
        self.blocks_of(PAIRING.result)
            .filter_map(|(b, v)| {
                v.get(PAIRING.result_id)
                    .and_then(Value::as_str)
                    .map(|id| (b, id))
            })
            .collect()
    }

    /// Whether the message has `role`.
    pub(super) fn is(&self, role: Role) -> bool {
        self.role == Some(role)
    }

    /// Whether any block is `thinking` or `redacted_thinking`.
    pub(super) fn has_thinking(&self) -> bool {
        self.blocks().any(|(_, b)| is_thinking_block(b))
    }
}

/// The `type` of a content block, when it is a string.
pub(super) fn block_type(b: &Value) -> Option<&str> {
    b.get("type").and_then(Value::as_str)
}

/// Whether a block is `thinking` or `redacted_thinking`.
pub(super) fn is_thinking_block(b: &Value) -> bool {
    matches!(block_type(b), Some("thinking" | "redacted_thinking"))
}

/// Reads `messages`; reports shape errors; `None` when there is nothing to check further.
pub(super) fn parse_messages<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<Vec<Msg<'a>>> {
    let path = Path::root().k("messages");
    let msgs = match obj.get("messages") {
        None => {
            out.push(STRUCT, path, "messages: Field required");
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "messages must be an array");
            return None;
        }
    };
    if msgs.is_empty() {
        out.push(STRUCT, path, "messages must contain at least one message");
        return None;
    }
    let parsed = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| parse_message(i, m, out))
        .collect();
    Some(parsed)
}

/// Reads one message; reports a non-object message, an unknown role and bad content.
fn parse_message<'a>(i: usize, m: &'a Value, out: &mut Findings) -> Msg<'a> {
    let Some(obj) = m.as_object() else {
        out.push(STRUCT, Path::msg(i), "message must be a JSON object");
        return Msg {
            role: None,
            content: Content::Invalid,
        };
    };
    let role = match obj.get("role").and_then(Value::as_str) {
        Some("user") => Some(Role::User),
        Some("assistant") => Some(Role::Assistant),
        Some("system") => Some(Role::System),
        Some(other) => {
            out.push(
                STRUCT,
                Path::msg(i).k("role"),
                format!("role must be \"user\", \"assistant\" or \"system\", found {other:?}"),
            );
            None
        }
        None => {
            out.push(
                STRUCT,
                Path::msg(i).k("role"),
                "role: Field required (\"user\" or \"assistant\")",
            );
            None
        }
    };
    let content = match obj.get("content") {
        Some(Value::String(s)) => Content::Text(s),
        Some(Value::Array(a)) => Content::Blocks(a),
        Some(_) => {
            out.push(
                STRUCT,
                Path::msg(i).k("content"),
                "content must be a string or an array of content blocks",
            );
            Content::Invalid
        }
        None => {
            out.push(STRUCT, Path::msg(i).k("content"), "content: Field required");
            Content::Invalid
        }
    };
    Msg { role, content }
}
