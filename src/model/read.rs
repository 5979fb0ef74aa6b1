//! Small typed accessors over `serde_json` values that fail with a code and a JSON path.

use serde_json::{Map, Value};

use super::json_path::JsonPath;
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

pub(crate) fn wrong_type(path: &JsonPath<'_>, expected: &str, got: &Value) -> Error {
    Error::new(
        ErrorCode::InvalidType,
        path.to_string(),
        format!("expected {expected}, found {}", type_name(got)),
    )
}

/// Takes the object out of an owned value.
pub(crate) fn into_object(v: Value, path: &JsonPath<'_>) -> Result<Map<String, Value>, Error> {
    match v {
        Value::Object(o) => Ok(o),
        other => Err(wrong_type(path, "an object", &other)),
    }
}

/// Takes the array out of an owned value.
pub(crate) fn into_array(v: Value, path: &JsonPath<'_>) -> Result<Vec<Value>, Error> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(wrong_type(path, "an array", &other)),
    }
}

/// Removes a required string member.
pub(crate) fn take_str(
    obj: &mut Map<String, Value>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<String, Error> {
    match obj.shift_remove(key) {
        Some(Value::String(s)) => Ok(s),
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
    obj: &mut Map<String, Value>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<Option<String>, Error> {
    match obj.shift_remove(key) {
        Some(Value::String(s)) => Ok(Some(s)),
        Some(Value::Null) | None => Ok(None),
        Some(other) => Err(wrong_type(&path.key(key), "a string", &other)),
    }
}

/// Removes an optional boolean member; `null` counts as absent.
pub(crate) fn take_opt_bool(
    obj: &mut Map<String, Value>,
    key: &str,
    path: &JsonPath<'_>,
) -> Result<Option<bool>, Error> {
    match obj.shift_remove(key) {
        Some(Value::Bool(b)) => Ok(Some(b)),
        Some(Value::Null) | None => Ok(None),
        Some(other) => Err(wrong_type(&path.key(key), "a boolean", &other)),
    }
}

/// Inserts `value` under `key` when it is `Some`.
pub(crate) fn put_opt_str(obj: &mut Map<String, Value>, key: &str, value: &Option<String>) {
    if let Some(v) = value {
        obj.insert(key.to_string(), Value::String(v.clone()));
    }
}
