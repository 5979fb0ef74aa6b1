//! `ORS-14` and `ORS-15` (docs/provider-rules-added.md): `tool_choice` in the Responses shape,
//! and no `stop`, which Responses does not have.

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// `ORS-14`: `tool_choice` is `auto`, `none`, `required` or the flat `{"type": "function",
/// "name": …}` naming a declared function (the Chat form nests the name and is refused).
pub(super) fn check_ors_14_tool_choice(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(choice) = obj.get("tool_choice") else {
        return;
    };
    let path = Path::root().k("tool_choice");
    match choice {
        Value::String(s) if matches!(s.as_str(), "auto" | "none" | "required") => {}
        Value::Object(o) if o.get("type").and_then(Value::as_str) == Some("function") => {
            match o.get("name").and_then(Value::as_str) {
                None => out.push("ORS-14", path, "Missing required parameter: 'tool_choice.name'."),
                Some(name) => {
                    let declared = obj
                        .get("tools")
                        .and_then(Value::as_array)
                        .is_some_and(|tools| {
                            tools.iter().any(|t| t.get("name").and_then(Value::as_str) == Some(name))
                        });
                    if !declared {
                        out.push(
                            "ORS-14",
                            path.k("name"),
                            "Tool choice 'function' not found in 'tools' parameter.",
                        );
                    }
                }
            }
        }
        _ => out.push(
            STRUCT,
            path,
            "tool_choice must be \"auto\", \"none\", \"required\" or {\"type\": \"function\", \"name\": …}",
        ),
    }
}

/// `ORS-15`: a Responses body has no `stop`.
pub(super) fn check_ors_15_no_stop(obj: &Map<String, Value>, out: &mut Findings) {
    if obj.contains_key("stop") {
        out.push(
            "ORS-15",
            Path::root().k("stop"),
            "Unknown parameter: 'stop'. Did you mean 'store'?",
        );
    }
}

/// `ORS-16`: structured output is `text.format`, flat, with a `name`; `response_format` does not
/// exist in Responses.
pub(super) fn check_ors_16_text_format(obj: &Map<String, Value>, out: &mut Findings) {
    if obj.contains_key("response_format") {
        out.push(
            "ORS-16",
            Path::root().k("response_format"),
            "Unsupported parameter: 'response_format'. In the Responses API, this parameter has moved to 'text.format'. Try again with the new parameter. See the API documentation for more information: https://platform.openai.com/docs/api-reference/responses/create.",
        );
    }
    let Some(format) = obj.get("text").and_then(|t| t.get("format")) else {
        return;
    };
    if format.get("type").and_then(Value::as_str) != Some("json_schema") {
        return;
    }
    let path = Path::root().k("text").k("format");
    if !format.get("name").is_some_and(Value::is_string) {
        out.push(
            "ORS-16",
            path.k("name"),
            "Missing required parameter: 'text.format.name'.",
        );
    }
    if !format.get("schema").is_some_and(Value::is_object) {
        out.push(
            STRUCT,
            path.k("schema"),
            "text.format.schema must be an object",
        );
    }
}
