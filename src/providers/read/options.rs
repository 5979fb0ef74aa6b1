//! The render options a request body implies: its model, output limit, tool declarations,
//! thinking switch and sampling; every other field is kept as `extra`.

use serde_json::{Map, Value};

use super::context::{wrong_type, Reader};
use super::ImportSource;
use crate::error::{Error, ErrorCode};
use crate::request::{
    owned_fields, RenderOptions, ResponseFormat, ServerTool, ThinkingOptions, ToolChoice,
    ToolDeclaration,
};
use crate::vocab::{CacheStyle, Provider};

/// Where a wire format keeps what [`body_options`] reads.
pub(crate) struct BodyFields {
    /// The fields the history was read from (not options).
    pub history: &'static [&'static str],
    /// The output limit's names, first found wins.
    pub max_tokens: &'static [&'static str],
    /// The member of a tool declaration that holds its JSON Schema.
    pub tool_schema: &'static str,
}

/// Reads the options of an Anthropic-shaped or chat-shaped body.
pub(crate) fn body_options(
    provider: Provider,
    body: &Map<String, Value>,
    source: &ImportSource,
    fields: &BodyFields,
    r: &mut Reader,
) -> Result<RenderOptions, Error> {
    let model = match body.get("model") {
        Some(Value::String(m)) => m.clone(),
        Some(other) => return Err(wrong_type("$.model", "a string", other)),
        None => source.model.clone().ok_or_else(|| {
            Error::new(
                ErrorCode::MissingField,
                "$.model",
                "the body names no model; give one in the import source",
            )
        })?,
    };
    let mut o = RenderOptions::new(provider, model);
    o.endpoint = source.endpoint.clone();
    for (key, value) in body {
        let at = format!("$.{key}");
        match key.as_str() {
            k if fields.history.contains(&k) || k == "model" => {}
            // Read with the other marks below.
            "cache_control" if provider == Provider::Anthropic => {}
            "prompt_cache_key"
                if matches!(provider, Provider::OpenAiChat | Provider::OpenAiResponses) => {}
            // ORS-21, OAC-31: the mode of a system breakpoint, read into `cache.breakpoints`
            "prompt_cache_options"
                if matches!(provider, Provider::OpenAiChat | Provider::OpenAiResponses)
                    && super::cache::system_breakpoint(body)
                    && value.as_object().is_some_and(|o| {
                        o.iter().all(|(k, v)| match k.as_str() {
                            "mode" => v == "implicit" || v == "explicit",
                            "ttl" => v == "30m",
                            _ => false,
                        })
                    }) => {}
            k if fields.max_tokens.contains(&k) => o.max_tokens = Some(count(value, &at)?),
            "temperature" => o.temperature = Some(number(value, &at)?),
            "top_p" => o.top_p = Some(number(value, &at)?),
            "tools" => {
                let (functions, server) = tools(value, fields.tool_schema, provider, r)?;
                o.tools = functions;
                o.server_tools.extend(server);
            }
            "web_search_options" if provider == Provider::OpenAiChat => {
                match super::server_tools::chat_web_search(value) {
                    Some(t) => o.server_tools.push(t),
                    None => {
                        o.extra.insert(key.clone(), value.clone());
                    }
                }
            }
            // Responses: `{effort, summary}` turns reasoning on; no summary is `none`, `auto`
            // the default.
            "reasoning" => {
                o.thinking = Some(ThinkingOptions {
                    enabled: true,
                    budget_tokens: None,
                    effort: value
                        .get("effort")
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    summary: match value.get("summary").and_then(Value::as_str) {
                        None => Some("none".to_string()),
                        Some("auto") => None,
                        Some(other) => Some(other.to_string()),
                    },
                })
            }
            "thinking" => o.thinking = switch_thinking(value, o.thinking.take()),
            "tool_choice" => match tool_choice(value) {
                Some(choice) => o.tool_choice = Some(choice),
                None => {
                    r.opaque(value.clone(), &at, "this tool choice");
                }
            },
            "stop_sequences" | "stop" => o.stop_sequences = stop_sequences(value, &at)?,
            // Anthropic `output_config`: `effort`, and `format` below.
            "output_config" if value.get("format").is_none() && value.get("effort").is_some() => {
                read_effort(value, &mut o, &at, r)
            }
            // Anthropic `output_config.format`, Chat `response_format`, Responses `text.format`.
            "output_config" | "response_format" | "text" => match response_format(key, value) {
                Some(format) => {
                    o.response_format = Some(format);
                    if key == "output_config" {
                        read_effort(value, &mut o, &at, r);
                    }
                }
                None => {
                    r.opaque(value.clone(), &at, "this output setting");
                }
            },
            "reasoning_effort" => {
                let mut t = o.thinking.take().unwrap_or(ThinkingOptions {
                    enabled: true,
                    budget_tokens: None,
                    effort: None,
                    summary: None,
                });
                t.effort = value.as_str().map(str::to_string);
                o.thinking = Some(t);
            }
            k if owned_fields(provider).contains(&k) => {
                r.opaque(value.clone(), &at, "this field");
            }
            _ => {
                o.extra.insert(key.clone(), value.clone());
            }
        }
    }
    o.cache = match provider.cache_style() {
        CacheStyle::Breakpoints => super::cache::anthropic_cache(body, r),
        CacheStyle::Key => super::cache::openai_cache(body),
        // Converse reads its cache points itself (`bedrock_converse/read.rs`).
        CacheStyle::Implicit | CacheStyle::Points => None,
    };
    Ok(o)
}

/// A tool choice in any wire shape: `"auto"`, `"none"`, `"required"` / `"any"`, Anthropic's
/// `{"type": …, "name"?}`, Chat's `{"type": "function", "function": {"name"}}`, Responses'
/// `{"type": "function", "name"}`. `None` for another kind (an allowed-tools list, a server
/// tool).
pub(crate) fn tool_choice(v: &Value) -> Option<ToolChoice> {
    let kind = match v {
        Value::String(s) => s.as_str(),
        Value::Object(o) => o.get("type").and_then(Value::as_str)?,
        _ => return None,
    };
    match kind {
        "auto" => Some(ToolChoice::Auto),
        "none" => Some(ToolChoice::None),
        "required" | "any" => Some(ToolChoice::Required),
        "tool" | "function" => v
            .get("name")
            .or_else(|| v.get("function").and_then(|f| f.get("name")))
            .and_then(Value::as_str)
            .map(|name| ToolChoice::Tool(name.to_string())),
        _ => None,
    }
}

/// A JSON schema output format from `output_config` (`{format: {type, schema}}`, no name:
/// `response` is given), `response_format` (`{type, json_schema: {…}}`) or `text`
/// (`{format: {type, name, schema, …}}`). `None` for anything else (JSON mode, other settings
/// beside the format).
pub(crate) fn response_format(key: &str, v: &Value) -> Option<ResponseFormat> {
    let obj = v.as_object()?;
    let spec = match key {
        "response_format" => {
            if obj.get("type").and_then(Value::as_str) != Some("json_schema") || obj.len() != 2 {
                return None;
            }
            obj.get("json_schema")?
        }
        _ => {
            if obj.len() != 1 {
                return None;
            }
            let format = obj.get("format")?;
            if format.get("type").and_then(Value::as_str) != Some("json_schema") {
                return None;
            }
            format
        }
    };
    Some(ResponseFormat::JsonSchema {
        name: spec
            .get("name")
            .and_then(Value::as_str)
            .unwrap_or(DEFAULT_FORMAT_NAME)
            .to_string(),
        schema: spec.get("schema").filter(|s| s.is_object())?.clone(),
        description: spec
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        strict: spec.get("strict").and_then(Value::as_bool),
    })
}

/// The name given to a format read from a body that names none (Anthropic, Gemini).
pub(crate) const DEFAULT_FORMAT_NAME: &str = "response";

/// Stop sequences: one string or a list of strings.
pub(crate) fn stop_sequences(v: &Value, at: &str) -> Result<Vec<String>, Error> {
    match v {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|s| {
                s.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| wrong_type(at, "a list of strings", v))
            })
            .collect(),
        other => Err(wrong_type(at, "a string or a list of strings", other)),
    }
}

pub(crate) fn count(v: &Value, at: &str) -> Result<u32, Error> {
    v.as_u64()
        .and_then(|n| u32::try_from(n).ok())
        .ok_or_else(|| wrong_type(at, "a whole number of tokens", v))
}

pub(crate) fn number(v: &Value, at: &str) -> Result<f64, Error> {
    v.as_f64().ok_or_else(|| wrong_type(at, "a number", v))
}

/// `tools`: function declarations and the server tools turnwire declares; other kinds cannot
/// be declared through the options and are reported.
fn tools(
    v: &Value,
    schema: &str,
    provider: Provider,
    r: &mut Reader,
) -> Result<(Vec<ToolDeclaration>, Vec<ServerTool>), Error> {
    let Value::Array(list) = v else {
        return Err(wrong_type("$.tools", "an array of tool declarations", v));
    };
    let mut out = Vec::with_capacity(list.len());
    let mut server = Vec::new();
    for (i, t) in list.iter().enumerate() {
        if let Some(s) = super::server_tools::declaration(provider, t) {
            server.push(s);
            continue;
        }
        // Chat formats wrap the declaration in {"type": "function", "function": {…}}.
        let decl = t.get("function").unwrap_or(t);
        match decl.get("name").and_then(Value::as_str) {
            Some(name)
                if t.get("type")
                    .is_none_or(|k| k == "function" || k == "custom") =>
            {
                // a `null` schema (Responses' "no parameters") is no schema
                out.push(declaration(
                    decl,
                    name,
                    decl.get(schema).filter(|s| !s.is_null()).cloned(),
                ))
            }
            _ => {
                r.opaque(
                    t.clone(),
                    &format!("$.tools[{i}]"),
                    "this tool (not a function)",
                );
            }
        }
    }
    Ok((out, server))
}

/// Anthropic `output_config.effort` as the thinking effort (thinking stays as the body's
/// `thinking` says, off when it says nothing).
pub(crate) fn read_effort(v: &Value, o: &mut RenderOptions, at: &str, r: &mut Reader) {
    match v.get("effort").and_then(Value::as_str) {
        Some(e) => {
            let mut t = o.thinking.take().unwrap_or(ThinkingOptions {
                enabled: false,
                budget_tokens: None,
                effort: None,
                summary: None,
            });
            t.effort = Some(e.to_string());
            o.thinking = Some(t);
        }
        None => {
            if let Some(e) = v.get("effort") {
                r.opaque(e.clone(), &format!("{at}.effort"), "this effort");
            }
        }
    }
}

/// `thinking`: `{type: "enabled", budget_tokens?}`, `{type: "adaptive"}` or `{type: "disabled"}` (Anthropic, and the
/// Kimi / DeepSeek switch); an effort read before it is kept.
pub(crate) fn switch_thinking(
    v: &Value,
    before: Option<ThinkingOptions>,
) -> Option<ThinkingOptions> {
    let kind = v.get("type").and_then(Value::as_str);
    let enabled = kind == Some("enabled") || kind == Some("adaptive");
    Some(ThinkingOptions {
        enabled,
        budget_tokens: v
            .get("budget_tokens")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok()),
        effort: before.and_then(|b| b.effort),
        // adaptive thinking's `display`: `omitted` is no summary
        summary: match v.get("display").and_then(Value::as_str) {
            Some("omitted") => Some("none".to_string()),
            Some(_) => Some("auto".to_string()),
            None => None,
        },
    })
}

/// A function declaration: its name, its `description` and the schema found for it.
pub(crate) fn declaration(decl: &Value, name: &str, schema: Option<Value>) -> ToolDeclaration {
    ToolDeclaration {
        name: name.to_string(),
        description: decl
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        parameters: schema,
        // Anthropic's and Responses' `defer_loading` (tool search)
        defer_loading: decl.get("defer_loading").and_then(Value::as_bool),
    }
}
