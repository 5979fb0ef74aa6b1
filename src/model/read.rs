//! Small typed accessors over an object's members ([`Node`]) that fail with a code and a JSON
//! path.

use serde_json::{Map, Value};

use super::json_path::JsonPath;
use super::node::{take, Members, Node};
use crate::error::{Error, ErrorCode};

pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

pub(crate) fn wrong_type(path: &JsonPath<'_>, expected: &str, got: &Node<'_>) -> Error {
    Error::new(
        ErrorCode::InvalidType,
        path.to_string(),
        format!("expected {expected}, found {}", got.type_name()),
    )
}

/// Takes the members out of an object.
pub(crate) fn into_object<'a>(v: Node<'a>, path: &JsonPath<'_>) -> Result<Members<'a>, Error> {
    v.into_members()
        .map_err(|other| wrong_type(path, "an object", &other))
}

/// Takes the items out of an array.
pub(crate) fn into_array<'a>(v: Node<'a>, path: &JsonPath<'_>) -> Result<Vec<Node<'a>>, Error> {
    v.into_items()
        .map_err(|other| wrong_type(path, "an array", &other))
}

/// Removes a required string member.
pub(crate) fn take_str(
    obj: &mut Members<'_>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<String, Error> {
    match take(obj, key) {
        Some(Node::Value(Value::String(s))) => Ok(s),
        Some(other) => Err(wrong_type(&path.key(key), "a string", &other)),
        None => Err(Error::new(
            ErrorCode::MissingField,
            path.key(key).to_string(),
            format!("required field `{key}` is missing"),
        )),
    }
}

/// Removes an optional string member; `null` counts as absent.
pub(crate) fn take_opt_str(
    obj: &mut Members<'_>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<Option<String>, Error> {
    match take(obj, key) {
        Some(Node::Value(Value::String(s))) => Ok(Some(s)),
        Some(Node::Value(Value::Null)) | None => Ok(None),
        Some(other) => Err(wrong_type(&path.key(key), "a string", &other)),
    }
}

/// Removes an optional boolean member; `null` counts as absent.
pub(crate) fn take_opt_bool(
    obj: &mut Members<'_>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<Option<bool>, Error> {
    match take(obj, key) {
        Some(Node::Value(Value::Bool(b))) => Ok(Some(b)),
        Some(Node::Value(Value::Null)) | None => Ok(None),
        Some(other) => Err(wrong_type(&path.key(key), "a boolean", &other)),
    }
}

/// Removes an optional member of any kind, as a `Value`.
pub(crate) fn take_value(obj: &mut Members<'_>, key: &str) -> Option<Value> {
    take(obj, key).map(Node::into_value)
}

/// Inserts `value` under `key` when it is `Some`.
pub(crate) fn put_opt_str(obj: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        obj.insert(key.to_string(), Value::String(v.clone()));
    }
}
