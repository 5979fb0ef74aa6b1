//! Structured output: the `responseFormat` option (`{type: "json_schema", name, schema}`), its
//! checks, and whether a target can take it.
//!
//! The answer must be JSON matching `schema`. Every provider with structured output gets it in
//! its own field (Anthropic `output_config.format`, Chat `response_format`, Responses
//! `text.format`, Gemini `generationConfig.responseJsonSchema`); DeepSeek's Chat Completions and
//! Claude models before 4.5 have none, and asking them is an `unsupported_option` error.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::controls::{note, Controls, ToolChoice};
use super::options::RenderOptions;
use crate::error::{Error, ErrorCode};
use crate::vocab::DiagnosticCode;
use crate::vocab::Provider;

/// The answer's format: JSON matching a JSON Schema.
///
/// ```
/// use turnwire::ResponseFormat;
/// let f: ResponseFormat = serde_json::from_value(serde_json::json!({
///     "type": "json_schema", "name": "city", "schema": {"type": "object"}
/// }))?;
/// let ResponseFormat::JsonSchema { name, .. } = f;
/// assert_eq!(name, "city");
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub enum ResponseFormat {
    /// JSON matching `schema`.
    JsonSchema {
        /// The format's name (`^[a-zA-Z0-9_-]{1,64}$`; OpenAI requires one, others ignore it).
        name: String,
        /// The JSON Schema of the answer (an object).
        schema: Value,
        /// What the format is for (OpenAI).
        description: Option<String>,
        /// OpenAI strict mode: every object closes with `additionalProperties: false` and lists
        /// every property in `required`.
        strict: Option<bool>,
    },
}

/// The JSON form: `{"type": "json_schema", "name", "schema", "description"?, "strict"?}`.
impl Serialize for ResponseFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut members = serde_json::Map::new();
        members.insert("type".into(), "json_schema".into());
        json_schema_members(self, &mut members);
        members.serialize(s)
    }
}

/// Read through a `Value` by hand: serde's derive for a tagged enum costs the render module
/// several kilobytes of buffering code.
impl<'de> Deserialize<'de> for ResponseFormat {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        const EXPECTED: &str = "responseFormat must be {\"type\": \"json_schema\", \"name\": …, \"schema\": {…}} with optional description and strict";
        let Value::Object(mut o) = Value::deserialize(d)? else {
            return Err(D::Error::custom(EXPECTED));
        };
        if o.remove("type").as_ref().and_then(Value::as_str) != Some("json_schema") {
            return Err(D::Error::custom(format!(
                "{EXPECTED} (type \"json_schema\" is the one supported)"
            )));
        }
        let name = match o.remove("name") {
            Some(Value::String(n)) => n,
            _ => return Err(D::Error::custom(format!("{EXPECTED} (name is missing)"))),
        };
        let schema = o
            .remove("schema")
            .ok_or_else(|| D::Error::custom(format!("{EXPECTED} (schema is missing)")))?;
        let description = match o.remove("description") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(_) => {
                return Err(D::Error::custom(
                    "responseFormat.description must be a string",
                ))
            }
        };
        let strict = match o.remove("strict") {
            None | Some(Value::Null) => None,
            Some(Value::Bool(b)) => Some(b),
            Some(_) => return Err(D::Error::custom("responseFormat.strict must be a boolean")),
        };
        if let Some(k) = o.keys().next() {
            return Err(D::Error::custom(format!(
                "{EXPECTED} (unknown member `{k}`)"
            )));
        }
        Ok(ResponseFormat::JsonSchema {
            name,
            schema,
            description,
            strict,
        })
    }
}

/// Whether `model` on `provider` has structured output: every provider but DeepSeek (Chat
/// Completions takes only `json_object`) and Claude before 4.5.
///
/// ```
/// use turnwire::{structured_output, Provider};
/// assert!(structured_output(Provider::Anthropic, "claude-sonnet-4-5"));
/// assert!(!structured_output(Provider::Anthropic, "claude-3-7-sonnet-latest"));
/// assert!(!structured_output(Provider::DeepSeek, "deepseek-chat"));
/// ```
pub fn structured_output(provider: Provider, model: &str) -> bool {
    let family = crate::models::capabilities_or_defaults(provider, model).family;
    provider.takes_json_schema() && !matches!(family, "claude-3" | "claude-4.0")
}

impl ResponseFormat {
    /// Checks the format on its own: a usable name, an object schema, a strict schema that is
    /// strict. `$.responseFormat…` paths.
    pub(crate) fn check(&self) -> Result<(), Error> {
        let ResponseFormat::JsonSchema {
            name,
            schema,
            strict,
            ..
        } = self;
        if !valid_format_name(name) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                "$.responseFormat.name",
                format!("responseFormat.name must be 1-64 letters, digits, `_` or `-` (OpenAI refuses others), found `{name}`"),
            ));
        }
        if !schema.is_object() {
            return Err(Error::new(
                ErrorCode::InvalidType,
                "$.responseFormat.schema",
                "responseFormat.schema must be a JSON Schema object",
            ));
        }
        if *strict == Some(true) {
            if let Some((path, why)) = not_strict(schema, "$.responseFormat.schema") {
                return Err(Error::new(ErrorCode::InvalidValue, path, why));
            }
        }
        Ok(())
    }
}

/// Whether a format name is one OpenAI takes: `^[a-zA-Z0-9_-]{1,64}$`.
pub(crate) fn valid_format_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// The first place a schema breaks OpenAI's strict rules, with why: each object schema has
/// `additionalProperties: false` and lists every property in `required`.
pub(crate) fn not_strict(schema: &Value, path: &str) -> Option<(String, String)> {
    let obj = schema.as_object()?;
    let is_object =
        obj.get("type").and_then(Value::as_str) == Some("object") || obj.contains_key("properties");
    if is_object {
        if obj.get("additionalProperties") != Some(&Value::Bool(false)) {
            return Some((
                path.to_string(),
                "strict structured output needs `additionalProperties: false` on every object"
                    .into(),
            ));
        }
        let props = obj.get("properties").and_then(Value::as_object);
        let required: Vec<&str> = obj
            .get("required")
            .and_then(Value::as_array)
            .map(|r| r.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        if let Some(missing) = props
            .into_iter()
            .flat_map(|p| p.keys())
            .find(|k| !required.contains(&k.as_str()))
        {
            return Some((
                path.to_string(),
                format!("strict structured output needs every property in `required`; `{missing}` is not"),
            ));
        }
    }
    for key in ["properties", "$defs", "definitions"] {
        if let Some(map) = obj.get(key).and_then(Value::as_object) {
            for (k, sub) in map {
                if let Some(found) = not_strict(sub, &format!("{path}.{key}.{k}")) {
                    return Some(found);
                }
            }
        }
    }
    for key in ["items", "anyOf", "oneOf", "allOf"] {
        match obj.get(key) {
            Some(Value::Array(list)) => {
                for (i, sub) in list.iter().enumerate() {
                    if let Some(found) = not_strict(sub, &format!("{path}.{key}[{i}]")) {
                        return Some(found);
                    }
                }
            }
            Some(sub @ Value::Object(_)) => {
                if let Some(found) = not_strict(sub, &format!("{path}.{key}")) {
                    return Some(found);
                }
            }
            _ => {}
        }
    }
    None
}

impl RenderOptions {
    /// `responseFormat`: checked, left out (`feature_unavailable`) where the target has no
    /// structured output, and squared with the tool choice where a provider refuses both
    /// (Mistral MIS-08, Gemini 2.x GEM-15). One rule for a feature the target lacks: left out
    /// and reported, so the request still goes out.
    pub(super) fn settle_response_format(&self, c: &mut Controls) -> Result<(), Error> {
        let Some(format) = &self.response_format else {
            return Ok(());
        };
        format.check()?;
        if !structured_output(self.provider, &self.model) {
            c.notes.push(
                note(
                    DiagnosticCode::FeatureUnavailable,
                    format!(
                        "{} on {} has no structured output (JSON schema response format); responseFormat was left out of this request, so the answer may not be JSON",
                        self.model, self.provider
                    ),
                )
                .at_path("$.responseFormat"),
            );
            return Ok(());
        }
        let forced = self
            .tool_choice
            .as_ref()
            .is_some_and(ToolChoice::forces_a_call);
        let gemini_2 = self.provider == Provider::Gemini
            && !crate::models::capabilities_or_defaults(self.provider, &self.model)
                .functions_with_other_tools;
        if gemini_2 {
            c.no_calls_with_json = true;
            if forced {
                c.notes.push(
                    note(
                        DiagnosticCode::FeatureUnavailable,
                        format!("{} cannot call functions in a request with structured output (GEM-15); the forced toolChoice was left out and toolConfig says NONE for this request", self.model),
                    )
                    .at_path("$.toolChoice"),
                );
            } else if !self.tools.is_empty() {
                c.notes.push(note(
                    DiagnosticCode::ToolChoiceLowered,
                    format!("{} cannot call functions in a request with structured output (GEM-15); toolConfig says NONE for this request", self.model),
                ));
            }
        }
        if self.provider == Provider::Mistral && forced {
            c.tool_choice = Some(ToolChoice::Auto);
            c.notes.push(note(
                DiagnosticCode::ToolChoiceLowered,
                "Mistral refuses a forced tool choice with a response format (MIS-08); toolChoice was sent as `auto`".to_string(),
            ));
        }
        c.response_format = Some(format.clone());
        Ok(())
    }
}

/// The members of an OpenAI JSON schema format: `name`, `description`, `schema`, `strict`
/// (nested under `json_schema` by Chat Completions, flat beside `type` in Responses).
pub(crate) fn json_schema_members(
    format: &ResponseFormat,
    into: &mut serde_json::Map<String, serde_json::Value>,
) {
    let ResponseFormat::JsonSchema {
        name,
        schema,
        description,
        strict,
    } = format;
    into.insert("name".into(), name.clone().into());
    if let Some(d) = description {
        into.insert("description".into(), d.clone().into());
    }
    into.insert("schema".into(), schema.clone());
    if let Some(s) = strict {
        into.insert("strict".into(), (*s).into());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn format(name: &str, schema: Value, strict: Option<bool>) -> ResponseFormat {
        ResponseFormat::JsonSchema {
            name: name.into(),
            schema,
            description: None,
            strict,
        }
    }

    #[test]
    fn names_schemas_and_strict_schemas_are_checked_with_their_paths() {
        assert!(format("city_1", json!({"type": "object"}), None)
            .check()
            .is_ok());
        let e = format("a b", json!({}), None).check().unwrap_err();
        assert_eq!(e.path(), "$.responseFormat.name");
        let e = format("x", json!("object"), None).check().unwrap_err();
        assert_eq!(e.path(), "$.responseFormat.schema");
        let loose = json!({"type": "object", "additionalProperties": false,
            "properties": {"a": {"type": "object", "properties": {"b": {"type": "string"}}}},
            "required": ["a"]});
        let e = format("x", loose, Some(true)).check().unwrap_err();
        assert_eq!(e.path(), "$.responseFormat.schema.properties.a");
        let closed = json!({"type": "object", "additionalProperties": false,
            "properties": {"a": {"type": "array", "items": {"type": "object", "properties": {"b": {"type": "string"}}, "required": ["b"], "additionalProperties": false}}},
            "required": ["a"]});
        assert!(format("x", closed, Some(true)).check().is_ok());
    }

    #[test]
    fn the_json_form_is_tagged_by_type_and_refuses_unknown_members() {
        let ok: Result<ResponseFormat, _> =
            serde_json::from_value(json!({"type": "json_schema", "name": "n", "schema": {}}));
        assert!(ok.is_ok());
        for bad in [
            json!({"type": "json_object"}),
            json!({"type": "json_schema", "name": "n", "schema": {}, "x": 1}),
        ] {
            assert!(serde_json::from_value::<ResponseFormat>(bad).is_err());
        }
    }
}
