//! Reading an Ollama `/api/chat` body back into a transcript (`fromRequestBody("ollama")`).
//!
//! - `system` messages become system messages where they stand; `user` messages a human
//!   message of their text and their `images` (bare base64, the type read from the bytes);
//! - `assistant` messages: `thinking` (a thinking block that remembers the field), the text,
//!   then `tool_calls` (`arguments` an object). A call without an `id` (Ollama before 0.12.10)
//!   gets `call_{message}_{k}`;
//! - consecutive `tool` messages become one tool message: each answers the call its
//!   `tool_call_id` names, else the first unanswered call of the last assistant message with
//!   its `tool_name` (OLL-01), else it keeps its own name with an id of its own;
//! - options: `model`, `tools`, `think` (a boolean or a level), `format` (a JSON Schema; `"json"`
//!   stays a provider option), `options` (`num_predict`, `temperature`, `top_p`, `stop`; the rest,
//!   `num_ctx` among them, stay provider options), every other member `extra`.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::model::{
    Block, MediaBlock, MediaEncoding, Speaker, TextBlock, ThinkingBlock, ToolCallBlock,
    ToolResponseBlock,
};
use crate::providers::read::context::{provenance, string_at, wrong_type, Reader};
use crate::providers::read::options::{body_options, BodyFields};
use crate::providers::read::{ImportSource, Imported};
use crate::request::{ResponseFormat, ThinkingOptions};
use crate::vocab::Provider;

/// The assistant message fields the importer reads; any other is kept on the message.
const ASSISTANT_FIELDS: [&str; 5] = ["role", "content", "thinking", "tool_calls", "images"];

/// The body members read here rather than by the shared option reader.
const OWN: [&str; 3] = ["options", "think", "format"];

/// A whole `/api/chat` body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::Ollama, Some(body), source));
    let empty = Value::Array(Vec::new());
    read(&mut r, body.get("messages").unwrap_or(&empty))?;
    let shared: Map<String, Value> = body
        .iter()
        .filter(|(k, _)| !OWN.contains(&k.as_str()))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut o = body_options(
        Provider::Ollama,
        &shared,
        source,
        &BodyFields {
            history: &["messages"],
            max_tokens: &[],
            tool_schema: "parameters",
        },
        &mut r,
    )?;
    let mut rest = Map::new();
    if let Some(options) = body.get("options") {
        let Value::Object(members) = options else {
            return Err(wrong_type("$.options", "an object", options));
        };
        let mut kept = Map::new();
        for (k, v) in members {
            let at = format!("$.options.{k}");
            match (k.as_str(), v) {
                ("num_predict", Value::Number(n)) if n.as_u64().is_some() => {
                    o.max_tokens = n.as_u64().map(|n| u32::try_from(n).unwrap_or(u32::MAX))
                }
                ("temperature", Value::Number(n)) => o.temperature = n.as_f64(),
                ("top_p", Value::Number(n)) => o.top_p = n.as_f64(),
                ("stop", Value::Array(items)) => {
                    o.stop_sequences = items
                        .iter()
                        .map(|s| {
                            s.as_str()
                                .map(str::to_string)
                                .ok_or_else(|| wrong_type(&at, "an array of strings", v))
                        })
                        .collect::<Result<_, _>>()?
                }
                _ => {
                    kept.insert(k.clone(), v.clone());
                }
            }
        }
        if !kept.is_empty() {
            rest.insert("options".into(), Value::Object(kept));
        }
    }
    match body.get("think") {
        None | Some(Value::Null) => {}
        Some(Value::Bool(on)) => o.thinking = Some(thinking(*on, None)),
        Some(Value::String(level)) => o.thinking = Some(thinking(true, Some(level.clone()))),
        Some(other) => return Err(wrong_type("$.think", "a boolean or a level", other)),
    }
    match body.get("format") {
        None | Some(Value::Null) => {}
        Some(schema @ Value::Object(_)) => {
            o.response_format = Some(ResponseFormat::JsonSchema {
                name: "response".into(),
                schema: schema.clone(),
                description: None,
                strict: None,
            })
        }
        Some(other) => {
            rest.insert("format".into(), other.clone());
        }
    }
    if !rest.is_empty() {
        o.provider_options
            .insert(Provider::Ollama.as_str().into(), Value::Object(rest));
    }
    Ok(r.finish(Some(o)))
}

fn thinking(enabled: bool, effort: Option<String>) -> ThinkingOptions {
    ThinkingOptions {
        enabled,
        budget_tokens: None,
        effort,
        summary: None,
    }
}

/// The calls of the last assistant message not answered yet: (id, name).
type Open = Vec<(String, String)>;

fn read(r: &mut Reader, messages: &Value) -> Result<(), Error> {
    let Value::Array(list) = messages else {
        return Err(wrong_type("$.messages", "an array of messages", messages));
    };
    let mut results: Vec<Block> = Vec::new();
    let mut open: Open = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let at = format!("$.messages[{i}]");
        let role = string_at(m, "role", &at)?;
        if role != "tool" && !results.is_empty() {
            r.push(Speaker::Tool, std::mem::take(&mut results));
        }
        let content = match m.get("content") {
            None | Some(Value::Null) => "",
            Some(Value::String(s)) => s.as_str(),
            Some(other) => return Err(wrong_type(&format!("{at}.content"), "a string", other)),
        };
        match role {
            "system" => r.push(Speaker::System, text(content)),
            "user" => {
                let mut blocks = text(content);
                blocks.extend(images(m, &at)?);
                r.push(Speaker::Human, blocks);
            }
            "assistant" => {
                let (blocks, calls) = assistant(r, m, content, i, &at)?;
                open = calls;
                r.push(Speaker::Ai, blocks);
                r.keep_extra(m, &ASSISTANT_FIELDS);
            }
            "tool" => results.push(result(r, m, content, i, &mut open)),
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!("an Ollama message's role is `system`, `user`, `assistant` or `tool`, found `{other}`"),
                ))
            }
        }
    }
    r.push(Speaker::Tool, results);
    Ok(())
}

fn text(content: &str) -> Vec<Block> {
    if content.is_empty() {
        Vec::new()
    } else {
        vec![Block::Text(TextBlock::new(content))]
    }
}

/// `images`: bare base64, the type read from the first bytes (PNG where they say none).
fn images(m: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let list = match m.get("images") {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(other) => return Err(wrong_type(&format!("{at}.images"), "an array", other)),
    };
    list.iter()
        .enumerate()
        .map(|(k, v)| {
            let data = v
                .as_str()
                .ok_or_else(|| wrong_type(&format!("{at}.images[{k}]"), "a base64 string", v))?;
            let head = crate::model::media_data::base64_prefix(data);
            let mime = crate::model::media_data::sniff_image(&head).unwrap_or("image/png");
            Ok(Block::Media(MediaBlock::new(
                mime,
                data,
                MediaEncoding::Base64,
            )))
        })
        .collect()
}

fn assistant(
    r: &mut Reader,
    m: &Value,
    content: &str,
    i: usize,
    at: &str,
) -> Result<(Vec<Block>, Open), Error> {
    let mut blocks = Vec::new();
    if let Some(Value::String(t)) = m.get("thinking") {
        let mut b = ThinkingBlock::new(t.as_str());
        b.source_field = Some("thinking".to_string());
        blocks.push(Block::Thinking(b));
    }
    blocks.extend(text(content));
    let calls = match m.get("tool_calls") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(calls)) => calls.as_slice(),
        Some(other) => return Err(wrong_type(&format!("{at}.tool_calls"), "an array", other)),
    };
    let mut open = Vec::new();
    for (k, call) in calls.iter().enumerate() {
        let call_at = format!("{at}.tool_calls[{k}]");
        let id = match call.get("id").and_then(Value::as_str) {
            Some(id) if !id.is_empty() => id.to_string(),
            _ => format!("call_{i}_{k}"),
        };
        let function = call.get("function").unwrap_or(&Value::Null);
        let name = string_at(function, "name", &format!("{call_at}.function"))?.to_string();
        let parameters = crate::providers::read::values::arguments(
            function.get("arguments"),
            &format!("{call_at}.function.arguments"),
        );
        r.names.insert(id.clone(), name.clone());
        open.push((id.clone(), name.clone()));
        blocks.push(Block::ToolCall(ToolCallBlock {
            parameters,
            ..ToolCallBlock::new(id, name, Value::Null)
        }));
    }
    Ok((blocks, open))
}

/// A `tool` message: the call its `tool_call_id` names, else the first open call of its
/// `tool_name` (OLL-01).
fn result(r: &mut Reader, m: &Value, content: &str, i: usize, open: &mut Open) -> Block {
    let by_id = m.get("tool_call_id").and_then(Value::as_str);
    let name = m.get("tool_name").and_then(Value::as_str);
    let position = match by_id {
        Some(id) => open.iter().position(|(c, _)| c == id),
        None => name.and_then(|n| open.iter().position(|(_, c)| c == n)),
    };
    let (call_id, tool_name) = match (position, by_id) {
        (Some(p), _) => {
            let (id, n) = open.remove(p);
            (id, Some(n))
        }
        (None, Some(id)) => (id.to_string(), r.names.get(id).cloned()),
        (None, None) => (format!("call_{i}_result"), None),
    };
    Block::ToolResponse(ToolResponseBlock {
        tool_name: tool_name.or_else(|| name.map(str::to_string)),
        call_id,
        result: Some(Value::String(content.to_string())),
        ..ToolResponseBlock::default()
    })
}
