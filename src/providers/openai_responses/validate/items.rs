//! The item view the Responses rules work on: item kinds, roles and field lookups, read once from
//! `input` with shape errors reported on the way.

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::openai_responses::native;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::{Pairing, WireApi};

/// Where Responses keeps tool calls and their outputs (both name the call by `call_id`).
const PAIRING: Pairing = WireApi::Responses.pairing();
/// The `type` of an item that calls a function.
const CALL: &str = PAIRING.call;
/// The `type` of an item that answers one.
const OUTPUT: &str = PAIRING.result;

/// Built-in tool item types accepted in `input` without deeper checks (the renderer never emits
/// them; they are listed so valid bodies that use built-in tools are not rejected).
const BUILT_IN_ITEM_TYPES: [&str; 10] = [
    "file_search_call",
    "web_search_call",
    "computer_call",
    "computer_call_output",
    "code_interpreter_call",
    "image_generation_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "mcp_call",
];

/// A message role the Responses API accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `user`.
    User,
    /// `assistant`.
    Assistant,
    /// `system`.
    System,
    /// `developer`.
    Developer,
}

impl Role {
    /// Reads a wire role; `None` for an unknown one.
    fn parse(s: &str) -> Option<Role> {
        match s {
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "system" => Some(Role::System),
            "developer" => Some(Role::Developer),
            _ => None,
        }
    }

    /// The role as written on the wire.
    pub(super) fn name(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::System => "system",
            Role::Developer => "developer",
        }
    }
}

/// What an input item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// `message` (also an easy-input message without `type`); the role when it is a known one.
    Message(Option<Role>),
    /// `function_call`.
    FunctionCall,
    /// `function_call_output`.
    FunctionCallOutput,
    /// `reasoning`.
    Reasoning,
    /// `item_reference`.
    ItemReference,
    /// A built-in tool item; `true` when it is a model output item (a call, a tool listing or an
    /// approval request), which may follow a reasoning item.
    BuiltIn(bool),
    /// A client-tool call (`custom_tool_call`, `apply_patch_call`, …; ORS-19).
    ClientCall(&'static native::Kind),
    /// A client-tool output (`custom_tool_call_output`, …; ORS-19).
    ClientOutput(&'static native::Kind),
    /// `compaction` (ORS-20), `compaction_trigger` or `additional_tools`: items of their own
    /// shape that take part in no pairing.
    Other(&'static str),
    /// Not an object, or of a missing or unknown type (already reported).
    Invalid,
}

impl Kind {
    /// A short description for messages.
    pub(super) fn describe(self) -> String {
        match self {
            Kind::Message(Some(role)) => format!("{} message", role.name()),
            Kind::Message(None) => "message".to_string(),
            Kind::FunctionCall => CALL.to_string(),
            Kind::FunctionCallOutput => OUTPUT.to_string(),
            Kind::Reasoning => "reasoning".to_string(),
            Kind::ItemReference => "item_reference".to_string(),
            Kind::BuiltIn(_) => "built-in tool".to_string(),
            Kind::ClientCall(k) => k.call.to_string(),
            Kind::ClientOutput(k) => k.output.to_string(),
            Kind::Other(t) => t.to_string(),
            Kind::Invalid => "invalid".to_string(),
        }
    }
}

/// One input item as far as it could be read.
pub(super) struct Item<'a> {
    /// Index in `input`.
    pub(super) idx: usize,
    /// The item object (empty for a non-object item).
    pub(super) obj: Option<&'a Map<String, Value>>,
    /// What the item is.
    pub(super) kind: Kind,
}

impl<'a> Item<'a> {
    /// `$.input[idx]`.
    pub(super) fn path(&self) -> Path {
        Path::root().k("input").i(self.idx)
    }

    /// A member of the item.
    pub(super) fn get(&self, key: &str) -> Option<&'a Value> {
        self.obj.and_then(|o| o.get(key))
    }

    /// A string member of the item.
    pub(super) fn str_field(&self, key: &str) -> Option<&'a str> {
        self.get(key).and_then(Value::as_str)
    }

    /// The `call_id`, when it is a non-empty string (a `local_shell_call_output` names its call
    /// by `id`).
    pub(super) fn call_id(&self) -> Option<&'a str> {
        self.str_field(self.call_id_field())
            .filter(|s| !s.is_empty())
    }

    /// The member naming the call: `call_id`, `id` on a `local_shell_call_output`.
    pub(super) fn call_id_field(&self) -> &'static str {
        match self.kind {
            Kind::ClientOutput(k) => k.output_call_id,
            _ => PAIRING.call_id,
        }
    }

    /// Whether the item calls a tool the client runs (a function or a client tool).
    pub(super) fn is_call(&self) -> bool {
        matches!(self.kind, Kind::FunctionCall | Kind::ClientCall(_))
    }

    /// Whether the item answers such a call.
    pub(super) fn is_output(&self) -> bool {
        matches!(self.kind, Kind::FunctionCallOutput | Kind::ClientOutput(_))
    }

    /// The `id`, when it is a string.
    pub(super) fn id(&self) -> Option<&'a str> {
        self.str_field("id")
    }

    /// Whether the item is a message (any role): the items that continue the conversation.
    pub(super) fn is_message(&self) -> bool {
        matches!(self.kind, Kind::Message(_))
    }
}

/// Reads `input`; reports shape errors; `None` when there is nothing to check further (a
/// missing, empty or non-array `input`, or string input, which holds no items).
pub(super) fn parse_input<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<Vec<Item<'a>>> {
    let path = Path::root().k("input");
    let items = match obj.get("input") {
        None | Some(Value::Null) => {
            out.push(STRUCT, path, "Missing required parameter: 'input'.");
            return None;
        }
        Some(Value::String(s)) => {
            if s.is_empty() {
                out.push(
                    STRUCT,
                    path,
                    "empty string. Expected a string with minimum length 1, but got an empty \
                     string instead.",
                );
            }
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(
                STRUCT,
                path,
                "input must be a string or an array of input items",
            );
            return None;
        }
    };
    if items.is_empty() {
        out.push(
            STRUCT,
            path,
            "empty array. Expected an array with minimum length 1, but got an empty array \
             instead.",
        );
        return None;
    }
    let parsed = items
        .iter()
        .enumerate()
        .map(|(i, v)| parse_item(i, v, out))
        .collect();
    Some(parsed)
}

/// Reads one item: its kind and role; reports a non-object item, a missing or unknown type and
/// an unknown role.
fn parse_item<'a>(idx: usize, v: &'a Value, out: &mut Findings) -> Item<'a> {
    let path = Path::root().k("input").i(idx);
    let Some(obj) = v.as_object() else {
        out.push(STRUCT, path, "input item must be a JSON object");
        return Item {
            idx,
            obj: None,
            kind: Kind::Invalid,
        };
    };
    let kind = match obj.get("type") {
        None | Some(Value::Null) if obj.contains_key("role") => message_kind(obj, &path, out),
        None | Some(Value::Null) => {
            out.push(
                STRUCT,
                path.k("type"),
                "Missing required parameter: 'type' (an input item needs a type, or a role for \
                 a message).",
            );
            Kind::Invalid
        }
        Some(Value::String(t)) => match t.as_str() {
            "message" => message_kind(obj, &path, out),
            CALL => Kind::FunctionCall,
            OUTPUT => Kind::FunctionCallOutput,
            "reasoning" => Kind::Reasoning,
            "item_reference" => Kind::ItemReference,
            t if BUILT_IN_ITEM_TYPES.contains(&t) => Kind::BuiltIn(
                t.ends_with("_call") || t == "mcp_list_tools" || t == "mcp_approval_request",
            ),
            // a tool search the API runs itself answers no client call
            "tool_search_call" | "tool_search_output" if native::is_server_search(v) => {
                Kind::BuiltIn(t == "tool_search_call")
            }
            t if native::by_call(t).is_some() => {
                native::by_call(t).map_or(Kind::Invalid, Kind::ClientCall)
            }
            t if native::by_output(t).is_some() => {
                native::by_output(t).map_or(Kind::Invalid, Kind::ClientOutput)
            }
            "compaction" => Kind::Other("compaction"),
            "compaction_trigger" => Kind::Other("compaction_trigger"),
            "additional_tools" => Kind::Other("additional_tools"),
            other => {
                out.push(
                    STRUCT,
                    path.k("type"),
                    format!(
                        "Invalid value: '{other}'. Supported input item types are 'message', \
                         'function_call', 'function_call_output', 'reasoning', 'item_reference' \
                         and the built-in tool items."
                    ),
                );
                Kind::Invalid
            }
        },
        Some(_) => {
            out.push(STRUCT, path.k("type"), "type must be a string");
            Kind::Invalid
        }
    };
    Item {
        idx,
        obj: Some(obj),
        kind,
    }
}

/// The kind of a message item: reads and checks its role.
fn message_kind(obj: &Map<String, Value>, path: &Path, out: &mut Findings) -> Kind {
    match obj.get("role").and_then(Value::as_str) {
        Some(r) => {
            let role = Role::parse(r);
            if role.is_none() {
                out.push(
                    STRUCT,
                    path.k("role"),
                    format!(
                        "Invalid value: '{r}'. Supported values are: 'user', 'assistant', \
                         'system', and 'developer'."
                    ),
                );
            }
            Kind::Message(role)
        }
        None => {
            out.push(
                STRUCT,
                path.k("role"),
                "Missing required parameter: 'role' (a string).",
            );
            Kind::Message(None)
        }
    }
}
