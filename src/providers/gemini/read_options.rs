//! The options a Gemini generateContent body implies: its function declarations
//! (`tools`), its tool choice (`toolConfig`) and its `generationConfig` (output limit,
//! sampling, thinking, stop sequences, JSON output). Other settings are reported.

use serde_json::Value;

use crate::error::Error;
use crate::providers::read::context::{string_at, wrong_type, Reader};
use crate::request::{RenderOptions, ServerTool, ThinkingOptions, ToolChoice, ToolDeclaration};
use crate::vocab::Provider;

/// `tools`: the function declarations of every entry, and the server tools turnwire declares
/// (`googleSearch`, `codeExecution`); other tools are reported.
pub(crate) fn tools(
    r: &mut Reader,
    v: &Value,
    server: &mut Vec<ServerTool>,
) -> Result<Vec<ToolDeclaration>, Error> {
    let Value::Array(list) = v else {
        return Err(wrong_type("$.tools", "an array of tools", v));
    };
    let mut out = Vec::new();
    for (i, tool) in list.iter().enumerate() {
        if let Some(t) = crate::providers::read::server_tools::declaration(Provider::Gemini, tool) {
            server.push(t);
            continue;
        }
        let Some(Value::Array(decls)) = tool.get("functionDeclarations") else {
            r.opaque(
                tool.clone(),
                &format!("$.tools[{i}]"),
                "this tool (not function declarations)",
            );
            continue;
        };
        for (k, d) in decls.iter().enumerate() {
            let name = string_at(
                d,
                "name",
                &format!("$.tools[{i}].functionDeclarations[{k}]"),
            )?;
            let schema = d
                .get("parametersJsonSchema")
                .or_else(|| d.get("parameters"))
                .cloned();
            out.push(crate::providers::read::options::declaration(
                d, name, schema,
            ));
        }
    }
    Ok(out)
}

/// The `toolConfig` switch that lets Gemini 3 run server tools next to function calls.
pub(crate) const INVOCATIONS: &str = "includeServerSideToolInvocations";

/// `toolConfig.functionCallingConfig` as a tool choice: `AUTO`, `NONE`, `ANY`, or `ANY` limited
/// to one name. `None` for anything else (several names, `VALIDATED`, other settings).
pub(crate) fn tool_config(v: &Value) -> Option<ToolChoice> {
    let Value::Object(top) = v else { return None };
    // Written by turnwire for Gemini 3 with both functions and server tools.
    let flag = usize::from(top.get(INVOCATIONS) == Some(&Value::Bool(true)));
    let config = top.get("functionCallingConfig")?.as_object()?;
    if top.len() != 1 + flag
        || config
            .keys()
            .any(|k| k != "mode" && k != "allowedFunctionNames")
    {
        return None;
    }
    let names: Option<Vec<&str>> = config.get("allowedFunctionNames").map(|n| {
        n.as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect()
    });
    match (
        config.get("mode").and_then(Value::as_str)?,
        names.as_deref(),
    ) {
        ("AUTO", None) => Some(ToolChoice::Auto),
        ("NONE", None) => Some(ToolChoice::None),
        ("ANY", None) => Some(ToolChoice::Required),
        ("ANY", Some([name])) => Some(ToolChoice::Tool((*name).to_string())),
        _ => None,
    }
}

/// `generationConfig`: the output limit, sampling and thinking; other settings go to
/// `providerOptions.gemini.generationConfig` (merged back when the options render).
pub(crate) fn generation_config(
    r: &mut Reader,
    v: &Value,
    o: &mut RenderOptions,
) -> Result<(), Error> {
    let Value::Object(config) = v else {
        return Err(wrong_type("$.generationConfig", "an object", v));
    };
    // JSON output: the MIME type and the schema together make one response format.
    let json = config.get("responseMimeType").and_then(Value::as_str) == Some("application/json");
    let schema = config.get("responseJsonSchema").filter(|s| s.is_object());
    let format = json && schema.is_some();
    if let (true, Some(schema)) = (format, schema) {
        o.response_format = Some(crate::request::ResponseFormat::JsonSchema {
            name: crate::providers::read::options::DEFAULT_FORMAT_NAME.to_string(),
            schema: schema.clone(),
            description: None,
            strict: None,
        });
    }
    for (key, value) in config {
        let at = format!("$.generationConfig.{key}");
        match key.as_str() {
            "responseMimeType" | "responseJsonSchema" if format => {}
            "maxOutputTokens" => {
                o.max_tokens = value.as_u64().and_then(|n| u32::try_from(n).ok());
            }
            "temperature" => o.temperature = value.as_f64(),
            "topP" => o.top_p = value.as_f64(),
            "stopSequences" => {
                o.stop_sequences = crate::providers::read::options::stop_sequences(value, &at)?
            }
            "thinkingConfig" => {
                o.thinking = Some(ThinkingOptions {
                    // turnwire sends thoughts back with budget 0 where a model's range says
                    // so; a budget of 0 without thoughts is thinking off
                    enabled: value.get("includeThoughts") == Some(&Value::Bool(true))
                        || value.get("thinkingBudget").and_then(Value::as_i64) != Some(0),
                    budget_tokens: value
                        .get("thinkingBudget")
                        .and_then(Value::as_u64)
                        .and_then(|n| u32::try_from(n).ok()),
                    // `thinkingLevel` is an effort name, upper-case on the wire
                    effort: value
                        .get("thinkingLevel")
                        .and_then(Value::as_str)
                        .map(str::to_ascii_lowercase),
                    summary: None,
                });
            }
            // A setting the options do not model (topK, seed, …) goes back through
            // providerOptions, merged into the rendered generationConfig.
            _ if !value.is_null() => {
                let gemini = o
                    .provider_options
                    .entry("gemini")
                    .or_insert_with(|| Value::Object(serde_json::Map::new()));
                if let Value::Object(g) = gemini {
                    if let Value::Object(c) = g
                        .entry("generationConfig")
                        .or_insert_with(|| Value::Object(serde_json::Map::new()))
                    {
                        c.insert(key.clone(), value.clone());
                    }
                }
            }
            _ => {
                r.opaque(value.clone(), &at, "this generation setting");
            }
        }
    }
    Ok(())
}
