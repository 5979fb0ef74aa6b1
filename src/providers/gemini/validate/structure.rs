//! `GEM-STRUCT` on the top-level fields other than `contents`: `systemInstruction`, `tools`
//! (declaration names also get `GEM-10`) and `generationConfig`.

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::names::check_gem_10_name;
use super::parts::{check_part, PartKind};
use super::schema::check_gem_16_parameters_schema;
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// `systemInstruction` is `{parts: [text parts]}` with non-empty text (GEM-09).
pub(super) fn check_system_instruction(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("systemInstruction");
    let si = match obj.get("systemInstruction") {
        None | Some(Value::Null) => return,
        Some(Value::Object(m)) => m,
        Some(_) => {
            out.push(
                STRUCT,
                path,
                "systemInstruction must be a Content object with text parts",
            );
            return;
        }
    };
    let ppath = path.k("parts");
    let parts = match si.get("parts") {
        Some(Value::Array(a)) if !a.is_empty() => a,
        Some(Value::Array(_)) => {
            out.push(
                "GEM-09",
                ppath,
                "* GenerateContentRequest.system_instruction.parts: parts must not be empty.",
            );
            return;
        }
        _ => {
            out.push(
                STRUCT,
                ppath,
                "systemInstruction.parts must be a non-empty array of text parts",
            );
            return;
        }
    };
    for (p, part) in parts.iter().enumerate() {
        let loc = format!("system_instruction.parts[{p}]");
        let kind = check_part(part, &ppath.i(p), &loc, None, out);
        if !matches!(kind, PartKind::Text | PartKind::Invalid) {
            out.push(
                STRUCT,
                ppath.i(p),
                "systemInstruction parts must be text parts",
            );
        }
    }
}

/// `tools[]`: `functionDeclarations` entries `{name, description?, parameters?}` with valid,
/// unique names (GEM-10) and `parameters` in Gemini's schema subset (GEM-16); other tool kinds
/// are accepted as they are. Returns the declared
/// function names when at least one declaration was sent.
pub(super) fn check_tools<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<HashSet<&'a str>> {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools") {
        None | Some(Value::Null) => return None,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tools must be an array of Tool objects");
            return None;
        }
    };
    let mut names = HashSet::default();
    let mut declared_any = false;
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        let Some(tool_obj) = tool.as_object() else {
            out.push(STRUCT, tpath, "tool must be a JSON object");
            continue;
        };
        let dpath = tpath.k("functionDeclarations");
        let decls = match tool_obj.get("functionDeclarations") {
            None | Some(Value::Null) => continue,
            Some(Value::Array(a)) => a,
            Some(_) => {
                out.push(STRUCT, dpath, "functionDeclarations must be an array");
                continue;
            }
        };
        for (d, decl) in decls.iter().enumerate() {
            let dp = dpath.i(d);
            let Some(decl_obj) = decl.as_object() else {
                out.push(STRUCT, dp, "function declaration must be a JSON object");
                continue;
            };
            declared_any = true;
            check_gem_10_name(decl_obj.get("name"), &dp.k("name"), out);
            if let Some(name) = decl_obj.get("name").and_then(Value::as_str) {
                if !names.insert(name) {
                    out.push(
                        "GEM-10",
                        dp.k("name"),
                        format!("duplicate function declaration name {name:?} [inferred]"),
                    );
                }
            }
            if decl_obj.get("description").is_some_and(|v| !v.is_string()) {
                out.push(STRUCT, dp.k("description"), "description must be a string");
            }
            for key in ["parameters", "parametersJsonSchema"] {
                if decl_obj
                    .get(key)
                    .is_some_and(|v| !v.is_object() && !v.is_null())
                {
                    let kp = if key == "parameters" {
                        dp.k("parameters")
                    } else {
                        dp.k("parametersJsonSchema")
                    };
                    out.push(STRUCT, kp, format!("{key} must be a schema object"));
                }
            }
            if let Some(schema) = decl_obj.get("parameters") {
                check_gem_16_parameters_schema(
                    schema,
                    &dp.k("parameters"),
                    &format!("tools[{t}].function_declarations[{d}].parameters"),
                    out,
                );
            }
        }
    }
    declared_any.then_some(names)
}

/// `generationConfig` is an object; its `thinkingConfig` an object with a boolean
/// `includeThoughts`, an integer `thinkingBudget` and a string `thinkingLevel`.
pub(super) fn check_generation_config(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("generationConfig");
    let cfg = match obj.get("generationConfig") {
        None | Some(Value::Null) => return,
        Some(Value::Object(m)) => m,
        Some(_) => {
            out.push(STRUCT, path, "generationConfig must be an object");
            return;
        }
    };
    let tpath = path.k("thinkingConfig");
    let thinking = match cfg.get("thinkingConfig") {
        None | Some(Value::Null) => return,
        Some(Value::Object(m)) => m,
        Some(_) => {
            out.push(STRUCT, tpath, "thinkingConfig must be an object");
            return;
        }
    };
    if thinking
        .get("includeThoughts")
        .is_some_and(|v| !v.is_boolean())
    {
        out.push(
            STRUCT,
            tpath.k("includeThoughts"),
            "includeThoughts must be a boolean",
        );
    }
    if thinking.get("thinkingBudget").is_some_and(|v| !v.is_i64()) {
        out.push(
            STRUCT,
            tpath.k("thinkingBudget"),
            "thinkingBudget must be an integer",
        );
    }
    if thinking
        .get("thinkingLevel")
        .is_some_and(|v| !v.is_string())
    {
        out.push(
            STRUCT,
            tpath.k("thinkingLevel"),
            "thinkingLevel must be a string",
        );
    }
}
