//! The transcript as read from JSON text: [`Node`] keeps the objects and arrays of the history
//! shape (the transcript, its messages and their blocks, metadata and provenance) as lists of
//! members whose names are borrowed from the text, and holds everything else (tool arguments,
//! results, unknown members) as a `Value`. The readers (`Message::read_node`, `Block::read`)
//! take members out of it as they took them out of a `Map`, so text and parsed values go
//! through one reading code; the text just skips building and dropping a map with an owned name
//! per member for every message and block.
//!
//! Text is read into a `Node` by turnwire's own parser ([`super::node_text`]); text it gives
//! up on is parsed by serde_json into a `Value` (`Node::Value`), which reads the same.

use std::borrow::Cow;

use serde_json::{Map, Value};

/// A JSON value of the history shape (see the module doc).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Node<'a> {
    /// An object, its members in the text's order (a repeated name keeps its first place and
    /// its last value, as `serde_json::Map` does).
    Object(Members<'a>),
    /// An array.
    Array(Vec<Node<'a>>),
    /// Anything else, or any value below a member the history shape gives no structure.
    Value(Value),
}

/// An object's members.
pub(crate) type Members<'a> = Vec<(Cow<'a, str>, Node<'a>)>;

impl<'a> Node<'a> {
    /// The node as a `Value` (member names owned).
    pub(crate) fn into_value(self) -> Value {
        match self {
            Node::Object(members) => Value::Object(into_map(members)),
            Node::Array(items) => Value::Array(items.into_iter().map(Node::into_value).collect()),
            Node::Value(v) => v,
        }
    }

    /// The members of an object (a `Value` object's are taken over as they are).
    pub(crate) fn into_members(self) -> Result<Members<'a>, Node<'a>> {
        match self {
            Node::Object(members) => Ok(members),
            Node::Value(Value::Object(map)) => Ok(map
                .into_iter()
                .map(|(k, v)| (Cow::Owned(k), Node::Value(v)))
                .collect()),
            other => Err(other),
        }
    }

    /// The items of an array.
    pub(crate) fn into_items(self) -> Result<Vec<Node<'a>>, Node<'a>> {
        match self {
            Node::Array(items) => Ok(items),
            Node::Value(Value::Array(items)) => Ok(items.into_iter().map(Node::Value).collect()),
            other => Err(other),
        }
    }

    /// What kind of JSON value it is, for errors ("an object").
    pub(crate) fn type_name(&self) -> &'static str {
        match self {
            Node::Object(_) => "an object",
            Node::Array(_) => "an array",
            Node::Value(v) => super::read::type_name(v),
        }
    }
}

/// The members as a `Map` (for `extra`).
pub(crate) fn into_map(members: Members<'_>) -> Map<String, Value> {
    members
        .into_iter()
        .map(|(k, v)| (k.into_owned(), v.into_value()))
        .collect()
}

/// Removes the member `key` (the others keep their order).
pub(crate) fn take<'a>(members: &mut Members<'a>, key: &str) -> Option<Node<'a>> {
    let at = members.iter().position(|(k, _)| k == key)?;
    Some(members.remove(at).1)
}

/// The member `key`, if there is one.
pub(crate) fn get<'m, 'a>(members: &'m Members<'a>, key: &str) -> Option<&'m Node<'a>> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}
