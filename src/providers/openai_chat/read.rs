//! OpenAI Chat Completions histories (`messages`, or a whole request body) read into the
//! canonical transcript, for every chat dialect: OpenAI, Mistral, Kimi, DeepSeek and
//! OpenAI-compatible servers.
//!
//! - `system` / `developer` messages become system messages where they stand;
//! - `user` content (a string or parts: `text`, `image_url`, `input_audio`, `file`) becomes a
//!   human message;
//! - `assistant` messages: the reasoning text (`reasoning_content`, or `reasoning`) becomes a
//!   thinking block that remembers its field, with OpenRouter's `reasoning_details` array whole
//!   as its meta (ORT-02; their text is the thought when no reasoning string is there), then
//!   the text (Mistral's `thinking` chunks in it
//!   become thinking blocks in their place), then `tool_calls` (arguments parsed from their JSON
//!   text; text that is not JSON is kept as it is, for the normaliser);
//! - consecutive `tool` messages become one tool message, in order.
//!
//! Unknown parts are kept as opaque blocks with an `import_opaque` diagnostic.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::model::{
    Block, MediaBlock, MediaEncoding, ProviderMeta, Speaker, TextBlock, ThinkingBlock,
    ToolCallBlock, ToolResponseBlock,
};
use crate::providers::read::context::{
    part_type, parts, provenance, string_at, wrong_type, Reader,
};
use crate::providers::read::options::{body_options, BodyFields};
use crate::providers::read::values::{arguments, url_media};
use crate::providers::read::{ImportSource, Imported};
use crate::vocab::Provider;

/// The assistant message fields the importer reads (`prefix` is Mistral's, set by the render);
/// any other (`name`, `audio`, …) is kept on the canonical message.
const ASSISTANT_FIELDS: [&str; 7] = [
    "role",
    "content",
    "tool_calls",
    "reasoning_content",
    "reasoning",
    "prefix",
    DETAILS,
];

/// OpenRouter's structured reasoning (ORT-02), read when it is an array (any other value is
/// kept on the message as it is).
const DETAILS: &str = "reasoning_details";

/// The assistant fields reasoning text is read from, first found wins.
const REASONING_FIELDS: [&str; 2] = ["reasoning_content", "reasoning"];

/// Reads chat `messages` written for `provider` (a chat dialect) into a transcript.
///
/// ```
/// use turnwire::import::{from_openai_chat, ImportSource};
/// let messages = serde_json::json!([
///   {"role": "user", "content": "weather?"},
///   {"role": "assistant", "content": null, "tool_calls": [
///     {"id": "call_1", "type": "function", "function": {"name": "weather", "arguments": "{\"city\":\"Oslo\"}"}}]},
///   {"role": "tool", "tool_call_id": "call_1", "content": "cold"}
/// ]);
/// let imported = from_openai_chat(turnwire::Provider::OpenAiChat, &messages, &ImportSource::default())?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_openai_chat(
    provider: Provider,
    messages: &Value,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(provider, None, source));
    read(&mut r, messages, "$")?;
    Ok(r.finish(None))
}

/// A whole chat request body: its history and the options it implies.
pub(crate) fn from_body(
    provider: Provider,
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(provider, Some(body), source));
    let empty = Value::Array(Vec::new());
    let messages = body.get("messages").unwrap_or(&empty);
    read(&mut r, messages, "$.messages")?;
    let system_mark = crate::providers::read::cache::system_breakpoint(body);
    crate::providers::read::cache::breakpoint_notes(
        &mut r,
        messages,
        "$.messages",
        system_mark,
        &["content"],
    );
    let options = body_options(
        provider,
        body,
        source,
        &BodyFields {
            history: &["messages"],
            max_tokens: &["max_tokens", "max_completion_tokens"],
            tool_schema: "parameters",
        },
        &mut r,
    )?;
    Ok(r.finish(Some(options)))
}

fn read(r: &mut Reader, messages: &Value, path: &str) -> Result<(), Error> {
    let Value::Array(list) = messages else {
        return Err(wrong_type(path, "an array of messages", messages));
    };
    let mut results: Vec<Block> = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let role = string_at(m, "role", &at)?;
        if role != "tool" && !results.is_empty() {
            r.push(Speaker::Tool, std::mem::take(&mut results));
        }
        let content = m.get("content").unwrap_or(&Value::Null);
        let content_at = format!("{at}.content");
        match role {
            "system" | "developer" => {
                let blocks = texts(r, content, &content_at)?;
                r.push(Speaker::System, blocks);
            }
            "user" => {
                let blocks = user(r, content, &content_at)?;
                r.push(Speaker::Human, blocks);
            }
            "assistant" => {
                let blocks = assistant(r, m, &at)?;
                r.push(Speaker::Ai, blocks);
                let known = match m.get(DETAILS) {
                    Some(Value::Array(_)) | None => &ASSISTANT_FIELDS[..],
                    Some(_) => &ASSISTANT_FIELDS[..ASSISTANT_FIELDS.len() - 1],
                };
                r.keep_extra(m, known);
            }
            "tool" => {
                let call_id = string_at(m, "tool_call_id", &at)?.to_string();
                let text = texts(r, content, &content_at)?
                    .into_iter()
                    .filter_map(|b| match b {
                        Block::Text(t) => Some(t.text),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("\n\n");
                results.push(Block::ToolResponse(ToolResponseBlock {
                    tool_name: r.names.get(&call_id).cloned().or_else(|| {
                        m.get("name").and_then(Value::as_str).map(str::to_string)
                    }),
                    call_id,
                    result: Some(Value::String(text)),
                    ..ToolResponseBlock::default()
                }));
            }
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!("a chat message's role is `system`, `developer`, `user`, `assistant` or `tool`, found `{other}`"),
                ))
            }
        }
    }
    r.push(Speaker::Tool, results);
    Ok(())
}

/// Text parts only (system, tool and assistant content); `refusal` parts are text too.
fn texts(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        match part_type(&part) {
            "text" => out.push(Block::Text(TextBlock::new(string_at(&part, "text", &at)?))),
            "refusal" => out.push(Block::Text(TextBlock::new(string_at(
                &part, "refusal", &at,
            )?))),
            _ => out.push(r.opaque(part, &at, "this part")),
        }
    }
    Ok(out)
}

/// Assistant content: its text parts, and Mistral's `thinking` chunks (`{"type": "thinking",
/// "thinking": [{"type": "text", "text"}]}`, the SDK's `ThinkChunk`) as thinking blocks that
/// remember the field, in their place (MIS-09).
fn assistant_content(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let Value::Array(list) = content else {
        return texts(r, content, path);
    };
    let mut out = Vec::new();
    for (j, part) in list.iter().enumerate() {
        let at = format!("{path}[{j}]");
        if part_type(part) != "thinking" {
            out.extend(texts(r, &Value::Array(vec![part.clone()]), &at)?);
            continue;
        }
        let text: String = match part.get("thinking") {
            Some(Value::String(t)) => t.clone(),
            Some(Value::Array(pieces)) => pieces
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect(),
            _ => {
                out.push(r.opaque(part.clone(), &at, "this thinking chunk without text"));
                continue;
            }
        };
        let mut t = ThinkingBlock::new(text.as_str());
        t.source_field = Some("thinking".to_string());
        out.push(Block::Thinking(t));
    }
    Ok(out)
}

fn user(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        let block = match part_type(&part) {
            "text" => Block::Text(TextBlock::new(string_at(&part, "text", &at)?)),
            "image_url" => match part.pointer("/image_url/url").and_then(Value::as_str) {
                Some(url) => Block::Media(url_media(r, url, true, &at)),
                None => r.opaque(part, &at, "this image part without a URL"),
            },
            "input_audio" => {
                let data = part.pointer("/input_audio/data").and_then(Value::as_str);
                let format = part.pointer("/input_audio/format").and_then(Value::as_str);
                match (data, format) {
                    (Some(d), Some(f)) => {
                        let mime = if f == "wav" {
                            "audio/wav"
                        } else {
                            "audio/mpeg"
                        };
                        Block::Media(MediaBlock::new(mime, d, MediaEncoding::Base64))
                    }
                    _ => r.opaque(part, &at, "this audio part without data and format"),
                }
            }
            "file" => match part.pointer("/file/file_data").and_then(Value::as_str) {
                Some(data) => {
                    let mut m = url_media(r, data, false, &at);
                    m.filename = part
                        .pointer("/file/filename")
                        .and_then(Value::as_str)
                        .map(str::to_string);
                    Block::Media(m)
                }
                None => r.opaque(part, &at, "this file part (a file id turnwire cannot read)"),
            },
            _ => r.opaque(part, &at, "this user part"),
        };
        out.push(block);
    }
    Ok(out)
}

fn assistant(r: &mut Reader, m: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let mut blocks = Vec::new();
    let details = match m.get(DETAILS) {
        Some(Value::Array(d)) => Some(d),
        _ => None,
    };
    let reasoning = REASONING_FIELDS
        .iter()
        .find_map(|f| match m.get(*f) {
            Some(Value::String(text)) => Some((*f, text.clone())),
            _ => None,
        })
        .or_else(|| details.map(|d| (DETAILS, super::reasoning_details::readable_text(d))));
    if let Some((field, text)) = reasoning {
        let mut t = ThinkingBlock::new(text.as_str());
        t.source_field = Some(field.to_string());
        t.meta = details.map(|d| ProviderMeta::OpenRouterReasoningDetails { details: d.clone() });
        blocks.push(Block::Thinking(t));
    }
    blocks.extend(assistant_content(
        r,
        m.get("content").unwrap_or(&Value::Null),
        &format!("{at}.content"),
    )?);
    let calls = match m.get("tool_calls") {
        None | Some(Value::Null) => &[][..],
        Some(Value::Array(calls)) => calls.as_slice(),
        Some(other) => return Err(wrong_type(&format!("{at}.tool_calls"), "an array", other)),
    };
    for (k, call) in calls.iter().enumerate() {
        let call_at = format!("{at}.tool_calls[{k}]");
        let id = string_at(call, "id", &call_at)?.to_string();
        let function = call.get("function").unwrap_or(&Value::Null);
        let name = string_at(function, "name", &format!("{call_at}.function"))?.to_string();
        let parameters = arguments(
            function.get("arguments"),
            &format!("{call_at}.function.arguments"),
        );
        r.names.insert(id.clone(), name.clone());
        blocks.push(Block::ToolCall(ToolCallBlock {
            parameters,
            ..ToolCallBlock::new(id, name, Value::Null)
        }));
    }
    Ok(blocks)
}
