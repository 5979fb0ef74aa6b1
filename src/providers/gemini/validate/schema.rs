//! `GEM-16`: a `functionDeclarations[].parameters` schema uses only Gemini's OpenAPI subset
//! (`parametersJsonSchema` takes full JSON Schema and is not checked).

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};

/// The fields of Gemini's `Schema` object (ai.google.dev API reference, "Schema").
const SCHEMA_FIELDS: [&str; 22] = [
    "type",
    "format",
    "title",
    "description",
    "nullable",
    "enum",
    "maxItems",
    "minItems",
    "properties",
    "required",
    "minProperties",
    "maxProperties",
    "minLength",
    "maxLength",
    "pattern",
    "example",
    "anyOf",
    "propertyOrdering",
    "default",
    "items",
    "minimum",
    "maximum",
];

/// GEM-16 on one declaration's `parameters` at `path`: unknown keywords (`additionalProperties`,
/// `$schema`, `strict`, `$ref`, …), non-string `enum` values, arrays without `items`. Each
/// violation is reported at `path` and names the place inside the schema (`where`, in Gemini's
/// dotted form, e.g. `tools[0].function_declarations[2].parameters.properties.tags`).
pub(super) fn check_gem_16_parameters_schema(
    schema: &Value,
    path: &Path,
    at: &str,
    out: &mut Findings,
) {
    let Some(obj) = schema.as_object() else {
        return;
    };
    walk(obj, path, at, out);
}

fn walk(obj: &Map<String, Value>, path: &Path, at: &str, out: &mut Findings) {
    for key in obj.keys() {
        if !SCHEMA_FIELDS.contains(&key.as_str()) {
            out.push(
                "GEM-16",
                path.clone(),
                format!(
                    "Invalid JSON payload received. Unknown name {key:?} at '{at}': Cannot find \
                     field."
                ),
            );
        }
    }
    if let Some(values) = obj.get("enum").and_then(Value::as_array) {
        if let Some((i, v)) = values.iter().enumerate().find(|(_, v)| !v.is_string()) {
            out.push(
                "GEM-16",
                path.clone(),
                format!("Invalid value at '{at}.enum[{i}]' (TYPE_STRING), {v}"),
            );
        }
    }
    let is_array = obj
        .get("type")
        .and_then(Value::as_str)
        .is_some_and(|t| t.eq_ignore_ascii_case("array"));
    if is_array && !obj.contains_key("items") {
        out.push(
            "GEM-16",
            path.clone(),
            format!("Invalid JSON payload received. '{at}.items': missing field."),
        );
    }
    if let Some(props) = obj.get("properties").and_then(Value::as_object) {
        for (name, sub) in props {
            if let Some(sub) = sub.as_object() {
                walk(sub, path, &format!("{at}.properties.{name}"), out);
            }
        }
    }
    if let Some(items) = obj.get("items").and_then(Value::as_object) {
        walk(items, path, &format!("{at}.items"), out);
    }
    if let Some(any) = obj.get("anyOf").and_then(Value::as_array) {
        for (i, sub) in any.iter().enumerate() {
            if let Some(sub) = sub.as_object() {
                walk(sub, path, &format!("{at}.anyOf[{i}]"), out);
            }
        }
    }
}
