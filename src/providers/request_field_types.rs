//! A top-level request field and the JSON types it takes: the words of the field tables in
//! `request_fields.rs`, which are written from the official SDKs' request types.

use serde_json::Value;

/// A set of JSON types, as bit flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Json(u8);

impl Json {
    pub(crate) const NULL: Json = Json(1);
    pub(crate) const BOOL: Json = Json(2);
    pub(crate) const NUMBER: Json = Json(4);
    pub(crate) const STRING: Json = Json(8);
    pub(crate) const ARRAY: Json = Json(16);
    pub(crate) const OBJECT: Json = Json(32);
    /// Any JSON value (the SDK types the field `unknown`, or as a type this reader does not
    /// take apart).
    pub(crate) const ANY: Json = Json(63);

    /// Either set.
    pub(crate) const fn or(self, other: Json) -> Json {
        Json(self.0 | other.0)
    }

    /// The flag of `v`'s type.
    fn of(v: &Value) -> Json {
        match v {
            Value::Null => Json::NULL,
            Value::Bool(_) => Json::BOOL,
            Value::Number(_) => Json::NUMBER,
            Value::String(_) => Json::STRING,
            Value::Array(_) => Json::ARRAY,
            Value::Object(_) => Json::OBJECT,
        }
    }

    /// Whether `v` has one of these types.
    pub(crate) fn admits(self, v: &Value) -> bool {
        self.0 & Json::of(v).0 != 0
    }

    /// The types in words, without `null` (`a number`, `a string or an object`).
    pub(crate) fn describe(self) -> String {
        let names: Vec<&str> = [
            (Json::BOOL, "a boolean"),
            (Json::NUMBER, "a number"),
            (Json::STRING, "a string"),
            (Json::ARRAY, "an array"),
            (Json::OBJECT, "an object"),
        ]
        .iter()
        .filter(|(f, _)| self.0 & f.0 != 0)
        .map(|(_, n)| *n)
        .collect();
        match names.split_last() {
            None => "null".to_string(),
            Some((last, [])) => (*last).to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
        }
    }

    /// The type of `v` in words (`a string`).
    pub(crate) fn describe_value(v: &Value) -> String {
        Json::of(v).describe()
    }
}

/// One request field: its name on the wire and the JSON types it takes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Field {
    /// The member name in the body.
    pub(crate) name: &'static str,
    /// The JSON types the API takes for it.
    pub(crate) takes: Json,
}

impl Field {
    /// A field of the table.
    pub(crate) const fn new(name: &'static str, takes: Json) -> Field {
        Field { name, takes }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn types_admit_and_describe() {
        let t = Json::NULL.or(Json::NUMBER);
        assert!(t.admits(&json!(1.5)) && t.admits(&json!(null)) && !t.admits(&json!("hot")));
        assert_eq!(t.describe(), "a number");
        assert_eq!(
            Json::STRING.or(Json::OBJECT).describe(),
            "a string or an object"
        );
        assert_eq!(Json::describe_value(&json!([1])), "an array");
        assert!(Json::ANY.admits(&json!({})));
    }
}
