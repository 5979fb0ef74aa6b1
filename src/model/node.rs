//! The transcript read straight from JSON text: [`Node`] keeps the objects and arrays of the
//! history shape (the transcript, its messages and their blocks, metadata and provenance) as
//! lists of members whose names are borrowed from the text, and holds everything else (tool
//! arguments, results, unknown members) as a `Value`. The readers (`Message::read_node`,
//! `Block::read`) take members out of it as they took them out of a `Map`, so text and parsed
//! values go through one reading code; the text just skips building and dropping a map with an
//! owned name per member for every message and block.
//!
//! This is serde_json's path, which reports errors and makes the repairs; well-formed text is
//! read into the same [`Node`] by turnwire's own parser first ([`super::node_text`]).

use std::borrow::Cow;
use std::fmt;

use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

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

/// Reads a whole transcript document (a bare array of messages or `{"messages": [...]}`).
pub(crate) fn read_transcript<'de, D: de::Deserializer<'de>>(de: D) -> Result<Node<'de>, D::Error> {
    Shape::Transcript.deserialize(de)
}

/// What the history shape expects at a place in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Shape {
    /// The document: a message list or the wrapper object.
    Transcript,
    /// A list of messages.
    Messages,
    /// A message.
    Message,
    /// A message's blocks.
    Blocks,
    /// A block.
    Block,
    /// An object of plain members (metadata, provenance).
    Flat,
    /// No structure: read as a `Value`.
    Any,
}

impl Shape {
    /// What the items of an array at this place are.
    pub(super) fn item(self) -> Shape {
        match self {
            Shape::Transcript | Shape::Messages => Shape::Message,
            Shape::Blocks => Shape::Block,
            _ => Shape::Any,
        }
    }

    /// What the member `key` of an object at this place is.
    pub(super) fn member(self, key: &str) -> Shape {
        match (self, key) {
            (Shape::Transcript, "messages") => Shape::Messages,
            (Shape::Message, "blocks") => Shape::Blocks,
            (Shape::Message, "metadata") | (Shape::Block, "provenance") => Shape::Flat,
            _ => Shape::Any,
        }
    }
}

impl<'de> DeserializeSeed<'de> for Shape {
    type Value = Node<'de>;

    fn deserialize<D: de::Deserializer<'de>>(self, de: D) -> Result<Node<'de>, D::Error> {
        match self {
            Shape::Any => Value::deserialize(de).map(Node::Value),
            _ => de.deserialize_any(self),
        }
    }
}

/// A member name, borrowed from the text unless it holds escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: de::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(s)))
            }
        }
        de.deserialize_str(KeyVisitor)
    }
}

/// The name serde_json gives a number read as a map when `arbitrary_precision` is on.
pub(super) const NUMBER_TOKEN: &str = "$serde_json::private::Number";

impl<'de> Visitor<'de> for Shape {
    type Value = Node<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E: de::Error>(self, b: bool) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::Bool(b)))
    }

    fn visit_i64<E: de::Error>(self, n: i64) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::Number(n.into())))
    }

    fn visit_u64<E: de::Error>(self, n: u64) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::Number(n.into())))
    }

    fn visit_f64<E: de::Error>(self, n: f64) -> Result<Node<'de>, E> {
        Ok(Node::Value(
            Number::from_f64(n).map_or(Value::Null, Value::Number),
        ))
    }

    fn visit_str<E: de::Error>(self, s: &str) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::String(s.to_owned())))
    }

    fn visit_string<E: de::Error>(self, s: String) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::String(s)))
    }

    fn visit_unit<E: de::Error>(self) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::Null))
    }

    fn visit_none<E: de::Error>(self) -> Result<Node<'de>, E> {
        Ok(Node::Value(Value::Null))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node<'de>, A::Error> {
        let item = self.item();
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(node) = seq.next_element_seed(item)? {
            items.push(node);
        }
        Ok(Node::Array(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node<'de>, A::Error> {
        let mut members: Members<'de> = Vec::new();
        while let Some(Key(key)) = map.next_key::<Key<'de>>()? {
            if members.is_empty() && key == NUMBER_TOKEN {
                let digits: String = map.next_value()?;
                let n = digits.parse::<Number>().map_err(de::Error::custom)?;
                return Ok(Node::Value(Value::Number(n)));
            }
            let node = map.next_value_seed(self.member(&key))?;
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some((_, slot)) => *slot = node,
                None => members.push((key, node)),
            }
        }
        Ok(Node::Object(members))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(text: &str) -> Node<'_> {
        let mut de = serde_json::Deserializer::from_str(text);
        match read_transcript(&mut de) {
            Ok(n) => n,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn the_history_shape_keeps_member_names_borrowed_and_the_rest_as_values() {
        let text = r#"{"messages":[{"speaker":"ai","blocks":[{"type":"tool_call","id":"c","parameters":{"a":[1,2.5]}}]}],"x":1}"#;
        let Node::Object(top) = node(text) else {
            panic!("an object")
        };
        assert!(matches!(top[0].0, Cow::Borrowed("messages")));
        let Node::Array(messages) = &top[0].1 else {
            panic!("an array")
        };
        let Node::Object(message) = &messages[0] else {
            panic!("a message")
        };
        let Some(Node::Array(blocks)) = get(message, "blocks") else {
            panic!("blocks")
        };
        let Node::Object(block) = &blocks[0] else {
            panic!("a block")
        };
        assert_eq!(
            get(block, "parameters"),
            Some(&Node::Value(serde_json::json!({"a": [1, 2.5]})))
        );
        assert_eq!(top[1].1, Node::Value(serde_json::json!(1)));
    }

    #[test]
    fn numbers_keep_their_digits_and_repeated_names_keep_the_first_place_and_last_value() {
        let text = r#"[{"speaker":"human","n":123456789012345678901234567890,"blocks":[],"n":2,"speaker":"ai"}]"#;
        let parsed: Value = serde_json::from_str(text).unwrap_or(Value::Null);
        assert_eq!(node(text).into_value(), parsed);
        let Node::Array(messages) = node(text) else {
            panic!("an array")
        };
        let Node::Object(m) = &messages[0] else {
            panic!("a message")
        };
        let names: Vec<&str> = m.iter().map(|(k, _)| k.as_ref()).collect();
        assert_eq!(names, ["speaker", "n", "blocks"]);
        let big = r#"[123456789012345678901234567890]"#;
        assert_eq!(node(big).into_value().to_string(), big);
    }

    #[test]
    fn escaped_member_names_are_owned() {
        let Node::Array(messages) = node(r#"[{"sp\u0065aker":"human"}]"#) else {
            panic!("an array")
        };
        let Node::Object(m) = &messages[0] else {
            panic!("a message")
        };
        assert!(matches!(&m[0].0, Cow::Owned(k) if k == "speaker"));
    }
}
