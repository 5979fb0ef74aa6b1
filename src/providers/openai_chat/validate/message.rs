//! The message view the OpenAI Chat rules work on: roles and tool-call lookups, read once from
//! `messages` with shape errors reported on the way.

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::{Pairing, WireApi};

/// Where Chat Completions keeps tool calls and their results.
const PAIRING: Pairing = WireApi::ChatCompletions.pairing();
/// The role of a message that answers a call.
const RESULT_ROLE: &str = PAIRING.result;

/// A message role OpenAI Chat accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `system`.
    System,
    /// `developer`.
    Developer,
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `tool`.
    Tool,
}

impl Role {
    /// Reads a wire role; `None` for an unknown one.
    fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "developer" => Some(Role::Developer),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            RESULT_ROLE => Some(Role::Tool),
            _ => None,
        }
    }

    /// The role as written on the wire.
    pub(super) fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::Developer => "developer",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => RESULT_ROLE,
        }
    }

    /// Content part types this role accepts (OAC-08).
    pub(super) fn part_types(self) -> &'static [&'static str] {
        match self {
            Role::User => &["text", "image_url", "input_audio", "file"],
            Role::Assistant => &["text", "refusal"],
            Role::System | Role::Developer | Role::Tool => &["text"],
        }
    }
}

/// One message as far as it could be read.
pub(super) struct Msg<'a> {
    /// Index in `messages`.
    pub(super) idx: usize,
    /// The message object.
    pub(super) obj: &'a Map<String, Value>,
    /// The role, when it is a known one.
    pub(super) role: Option<Role>,
}

impl<'a> Msg<'a> {
    /// Whether the message has `role`.
    pub(super) fn is(&self, role: Role) -> bool {
        self.role == Some(role)
    }

    /// `$.messages[idx]`.
    pub(super) fn path(&self) -> Path {
        Path::msg(self.idx)
    }

    /// The `tool_calls` array when present and an array.
    pub(super) fn tool_calls(&self) -> Option<&'a [Value]> {
        self.obj
            .get(PAIRING.call)
            .and_then(Value::as_array)
            .map(Vec::as_slice)
    }

    /// Whether this is an assistant message with a non-empty `tool_calls` array.
    pub(super) fn has_tool_calls(&self) -> bool {
        self.is(Role::Assistant) && self.tool_calls().is_some_and(|c| !c.is_empty())
    }

    /// `(index, id)` of every tool call with a string id.
    pub(super) fn call_ids(&self) -> Vec<(usize, &'a str)> {
        self.tool_calls()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(j, c)| {
                c.get(PAIRING.call_id)
                    .and_then(Value::as_str)
                    .map(|id| (j, id))
            })
            .collect()
    }

    /// The `tool_call_id`, when it is a string.
    pub(super) fn tool_call_id(&self) -> Option<&'a str> {
        self.obj.get(PAIRING.result_id).and_then(Value::as_str)
    }
}

/// Reads `messages`; reports shape errors; `None` when there is nothing to check further.
pub(super) fn parse_messages<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<Vec<Msg<'a>>> {
    let path = Path::root().k("messages");
    let msgs = match obj.get("messages") {
        None => {
            out.push(STRUCT, path, "Missing required parameter: 'messages'.");
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "messages must be an array");
            return None;
        }
    };
    if msgs.is_empty() {
        out.push(
            STRUCT,
            path,
            "empty array. Expected an array with minimum length 1, but got an empty array \
             instead.",
        );
        return None;
    }
    let mut parsed = Vec::with_capacity(msgs.len());
    for (i, m) in msgs.iter().enumerate() {
        let Some(mobj) = m.as_object() else {
            out.push(STRUCT, Path::msg(i), "message must be a JSON object");
            continue;
        };
        let role = match mobj.get("role").and_then(Value::as_str) {
            Some(r) => {
                let role = Role::parse(r);
                if role.is_none() {
                    out.push(
                        STRUCT,
                        Path::msg(i).k("role"),
                        format!(
                            "unknown role {r:?}; expected system, developer, user, assistant or \
                             tool"
                        ),
                    );
                }
                role
            }
            None => {
                out.push(
                    STRUCT,
                    Path::msg(i).k("role"),
                    "Missing required parameter: 'role'.",
                );
                None
            }
        };
        parsed.push(Msg {
            idx: i,
            obj: mobj,
            role,
        });
    }
    Some(parsed)
}
