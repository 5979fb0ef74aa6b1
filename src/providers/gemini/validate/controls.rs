//! `GEM-19` and `GEM-20` (docs/provider-rules-added.md): `toolConfig.functionCallingConfig`
//! and `generationConfig.stopSequences`.

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// The most stop sequences Gemini takes.
const MAX_STOP_SEQUENCES: usize = crate::vocab::Provider::Gemini.max_stop_sequences();

/// `GEM-19`: a function calling config needs function declarations; `mode` is `AUTO`, `ANY`,
/// `NONE` or `VALIDATED`; `allowedFunctionNames` only with `ANY` or `VALIDATED`, naming
/// declared functions.
pub(super) fn check_gem_19_tool_config(
    obj: &Map<String, Value>,
    declared: Option<&HashSet<&str>>,
    out: &mut Findings,
) {
    let Some(config) = obj
        .get("toolConfig")
        .and_then(|t| t.get("functionCallingConfig"))
    else {
        return;
    };
    let path = Path::root().k("toolConfig").k("functionCallingConfig");
    if declared.is_none_or(HashSet::is_empty) {
        out.push(
            "GEM-19",
            path.clone(),
            "Function calling config is set without function_declarations.",
        );
    }
    let mode = config.get("mode").and_then(Value::as_str);
    if !matches!(mode, None | Some("AUTO" | "ANY" | "NONE" | "VALIDATED")) {
        out.push(
            STRUCT,
            path.k("mode"),
            "mode must be AUTO, ANY, NONE or VALIDATED",
        );
    }
    let Some(names) = config.get("allowedFunctionNames") else {
        return;
    };
    if !matches!(mode, Some("ANY" | "VALIDATED")) {
        out.push(
            "GEM-19",
            path.k("allowedFunctionNames"),
            "allowedFunctionNames may be set only when mode is ANY or VALIDATED",
        );
    }
    for (i, name) in names.as_array().into_iter().flatten().enumerate() {
        let known = name
            .as_str()
            .is_some_and(|n| declared.is_some_and(|d| d.contains(n)));
        if !known {
            out.push(
                "GEM-19",
                path.k("allowedFunctionNames").i(i),
                "allowedFunctionNames must name declared functions",
            );
        }
    }
}

/// `GEM-20`: at most five stop sequences.
pub(super) fn check_gem_20_stop_sequences(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(stop) = obj
        .get("generationConfig")
        .and_then(|c| c.get("stopSequences"))
    else {
        return;
    };
    let path = Path::root().k("generationConfig").k("stopSequences");
    match stop.as_array() {
        Some(items) if items.len() > MAX_STOP_SEQUENCES => out.push(
            "GEM-20",
            path,
            "the number of stop_sequences must not exceed 5",
        ),
        Some(items) => {
            for (i, s) in items.iter().enumerate() {
                if !s.is_string() {
                    out.push(STRUCT, path.i(i), "stopSequences entries must be strings");
                }
            }
        }
        None => out.push(STRUCT, path, "stopSequences must be an array of strings"),
    }
}

/// `GEM-15` (Gemini 2.x, when the model is known): function declarations with
/// `responseMimeType: application/json` only when calling is off (`mode: NONE`). `GEM-21`:
/// `responseJsonSchema` needs `responseMimeType: application/json` and excludes
/// `responseSchema`.
pub(super) fn check_gem_15_21_json_output(
    obj: &Map<String, Value>,
    declared: Option<&HashSet<&str>>,
    model: Option<&str>,
    out: &mut Findings,
) {
    let Some(config) = obj.get("generationConfig") else {
        return;
    };
    let path = Path::root().k("generationConfig");
    let json = config.get("responseMimeType").and_then(Value::as_str) == Some("application/json");
    if config.get("responseJsonSchema").is_some() {
        if !json {
            out.push(
                "GEM-21",
                path.k("responseMimeType"),
                "responseJsonSchema requires responseMimeType to be application/json",
            );
        }
        if config.get("responseSchema").is_some() {
            out.push(
                "GEM-21",
                path.k("responseSchema"),
                "responseSchema and responseJsonSchema cannot both be set",
            );
        }
    }
    let gemini_2 = model.is_some_and(|m| !super::signatures::is_gemini_3(m));
    let calls_off = obj
        .get("toolConfig")
        .and_then(|t| t.pointer("/functionCallingConfig/mode"))
        .and_then(Value::as_str)
        == Some("NONE");
    if json && gemini_2 && declared.is_some_and(|d| !d.is_empty()) && !calls_off {
        out.push(
            "GEM-15",
            path.k("responseMimeType"),
            "Function calling with a response mime type: 'application/json' is unsupported",
        );
    }
}
