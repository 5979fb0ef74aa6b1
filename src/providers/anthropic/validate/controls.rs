//! The request controls `tool_choice` (`ANT-36`, `ANT-37`), `stop_sequences` (`ANT-38`) and
//! structured output (`ANT-39`) of docs/provider-rules-added.md.

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// `tool_choice` is `{"type": "auto" | "none" | "any"}` or `{"type": "tool", "name": <a
/// declared tool>}`; it needs `tools` (`ANT-37`) and may not force a call with thinking on
/// (`ANT-36`).
pub(super) fn check_tool_choice(
    obj: &Map<String, Value>,
    declared: Option<&HashSet<&str>>,
    thinking_on: bool,
    out: &mut Findings,
) {
    let Some(choice) = obj.get("tool_choice") else {
        return;
    };
    let path = Path::root().k("tool_choice");
    if declared.is_none_or(HashSet::is_empty) {
        out.push(
            "ANT-37",
            path.clone(),
            "tool_choice may only be specified while providing tools.",
        );
    }
    let forced = match choice.get("type").and_then(Value::as_str) {
        Some("auto" | "none") => false,
        Some("any") => true,
        Some("tool") => {
            match choice.get("name").and_then(Value::as_str) {
                Some(name) if declared.is_none_or(|d| d.contains(name)) => {}
                Some(_) => out.push(
                    STRUCT,
                    path.k("name"),
                    "tool_choice.name must name a tool declared in `tools`",
                ),
                None => out.push(STRUCT, path.k("name"), "tool_choice.name: Field required"),
            }
            true
        }
        _ => {
            out.push(
                STRUCT,
                path.k("type"),
                "tool_choice.type must be \"auto\", \"none\", \"any\" or \"tool\"",
            );
            false
        }
    };
    if forced && thinking_on {
        out.push(
            "ANT-36",
            path,
            "Thinking may not be enabled when tool_choice forces tool use.",
        );
    }
}

/// `ANT-38`: `stop_sequences` is an array of strings, each non-empty with a character that is
/// not whitespace.
pub(super) fn check_ant_38_stop_sequences(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(stop) = obj.get("stop_sequences") else {
        return;
    };
    let path = Path::root().k("stop_sequences");
    let Some(items) = stop.as_array() else {
        out.push(STRUCT, path, "stop_sequences must be an array of strings");
        return;
    };
    for (i, s) in items.iter().enumerate() {
        match s.as_str() {
            None => out.push(STRUCT, path.i(i), "stop_sequences entries must be strings"),
            Some("") => out.push(
                "ANT-38",
                path.i(i),
                "stop_sequences: each stop sequence must be non-empty",
            ),
            Some(s) if s.trim().is_empty() => out.push(
                "ANT-38",
                path.i(i),
                "stop_sequences: each stop sequence must contain non-whitespace",
            ),
            Some(_) => {}
        }
    }
}

/// `ANT-39`: structured output goes in `output_config.format` (`{"type": "json_schema",
/// "schema": {…}}`), not in the deprecated top-level `output_format`, and only for models that
/// have it (Claude 4.5 and later, [`crate::structured_output`]).
pub(super) fn check_ant_39_output_format(obj: &Map<String, Value>, out: &mut Findings) {
    if obj.contains_key("output_format") {
        out.push(
            "ANT-39",
            Path::root().k("output_format"),
            "output_format: This field is deprecated. Use 'output_config.format' instead. See https://platform.claude.com/docs/en/build-with-claude/structured-outputs for more information.",
        );
    }
    let Some(format) = obj.get("output_config").and_then(|c| c.get("format")) else {
        return;
    };
    let path = Path::root().k("output_config").k("format");
    let model = obj.get("model").and_then(Value::as_str).unwrap_or_default();
    if !crate::structured_output(crate::vocab::Provider::Anthropic, model) {
        out.push(
            "ANT-39",
            path.clone(),
            format!("output_config.format: {model} does not support structured outputs"),
        );
    }
    if format.get("type").and_then(Value::as_str) != Some("json_schema")
        || !format.get("schema").is_some_and(Value::is_object)
    {
        out.push(
            STRUCT,
            path,
            "output_config.format must be {\"type\": \"json_schema\", \"schema\": {…}}",
        );
    }
}
