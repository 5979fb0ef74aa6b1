//! Anthropic Messages histories (`messages` and `system`, or a whole request body) read into the
//! canonical transcript.
//!
//! - `user` messages: `text`, `image` and `document` parts become a human message;
//!   `tool_result` parts become a tool message (a first text part is the result; later text and
//!   media parts follow the response as its attachments, as turnwire renders them); text after
//!   the results starts a new human message, so the order is kept.
//! - `assistant` messages: `text`, `thinking` (with its `signature`), `redacted_thinking` (its
//!   `data`) and `tool_use` become the matching blocks, signatures typed as
//!   [`ProviderMeta::AnthropicSignature`] / [`ProviderMeta::AnthropicRedacted`].
//! - `system` (a string or text parts) becomes a system message at the start; a `role:
//!   "system"` message inside `messages` (ANT-25) a system message where it stands, its
//!   `tool_addition` / `tool_removal` parts tool changes; a `tool_reference` in a tool result's
//!   content is a tool change (an added tool) attached to the response.
//! - `fallback` and `compaction` blocks are kept as server-tool blocks; the blocks after a
//!   `fallback` get its `to` model as their provenance (ANT-43).
//! - Server tool blocks (`server_tool_use`, `web_search_tool_result`, …) become server-tool
//!   blocks; unknown parts are kept as opaque blocks with an `import_opaque` diagnostic.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::model::ServerToolBlock;
use crate::model::{
    Block, MediaBlock, MediaEncoding, ProviderMeta, Speaker, TextBlock, ThinkingBlock,
    ToolCallBlock, ToolChangeBlock, ToolResponseBlock,
};
use crate::providers::read::context::{
    part_type, parts, provenance, string_at, wrong_type, Reader,
};
use crate::providers::read::options::{body_options, BodyFields};
use crate::providers::read::{ImportSource, Imported};
use crate::vocab::Provider;

/// Reads Anthropic `messages` (and the request's `system`, when given) into a transcript.
///
/// ```
/// use turnwire::import::{from_anthropic, ImportSource};
/// let messages = serde_json::json!([
///   {"role": "user", "content": "list files"},
///   {"role": "assistant", "content": [
///     {"type": "thinking", "thinking": "ls it", "signature": "sig"},
///     {"type": "tool_use", "id": "toolu_1", "name": "ls", "input": {}}]},
///   {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.rs"}]}
/// ]);
/// let source = ImportSource { model: Some("claude-sonnet-4-5".into()), ..Default::default() };
/// let imported = from_anthropic(&messages, None, &source)?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_anthropic(
    messages: &Value,
    system: Option<&Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::Anthropic, None, source));
    read(&mut r, messages, system, "$")?;
    Ok(r.finish(None))
}

/// A whole Anthropic request body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::Anthropic, Some(body), source));
    let empty = Value::Array(Vec::new());
    read(
        &mut r,
        body.get("messages").unwrap_or(&empty),
        body.get("system"),
        "$.messages",
    )?;
    let options = body_options(
        Provider::Anthropic,
        body,
        source,
        &BodyFields {
            history: &["messages", "system"],
            max_tokens: &["max_tokens"],
            tool_schema: "input_schema",
        },
        &mut r,
    )?;
    Ok(r.finish(Some(options)))
}

fn read(r: &mut Reader, messages: &Value, system: Option<&Value>, path: &str) -> Result<(), Error> {
    if let Some(system) = system.filter(|s| !s.is_null()) {
        let blocks = system_blocks(r, system)?;
        r.push(Speaker::System, blocks);
    }
    let Value::Array(list) = messages else {
        return Err(wrong_type(path, "an array of messages", messages));
    };
    for (i, m) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let role = string_at(m, "role", &at)?;
        let content = m.get("content").unwrap_or(&Value::Null);
        match role {
            "assistant" => {
                let blocks = assistant(r, content, &format!("{at}.content"))?;
                r.push(Speaker::Ai, blocks);
                r.keep_extra(m, &["role", "content"]);
            }
            "user" => user(r, content, &format!("{at}.content"))?,
            // a system message inside the conversation (ANT-25)
            "system" => {
                let blocks = system_message(r, content, &format!("{at}.content"))?;
                r.push(Speaker::System, blocks);
            }
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!(
                        "an Anthropic message's role is `user`, `assistant` or `system`, found `{other}`"
                    ),
                ))
            }
        }
    }
    Ok(())
}

fn system_blocks(r: &mut Reader, system: &Value) -> Result<Vec<Block>, Error> {
    match system {
        Value::String(s) => Ok(vec![Block::Text(TextBlock::new(s.as_str()))]),
        Value::Array(parts) => Ok(parts
            .iter()
            .enumerate()
            .map(
                |(j, p)| match (part_type(p), p.get("text").and_then(Value::as_str)) {
                    ("text", Some(t)) => Block::Text(TextBlock::new(t)),
                    _ => r.opaque(p.clone(), &format!("$.system[{j}]"), "this system part"),
                },
            )
            .collect()),
        other => Err(wrong_type(
            "$.system",
            "a string or an array of text parts",
            other,
        )),
    }
}

/// A `role: "system"` message's content: text parts become text, the beta's `tool_addition` /
/// `tool_removal` parts tool changes; other parts are kept as opaque blocks.
fn system_message(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut blocks = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        blocks.push(match (part_type(&part), part.get("text")) {
            ("text", Some(Value::String(t))) => Block::Text(TextBlock::new(t.as_str())),
            ("tool_addition" | "tool_removal", _) => match ToolChangeBlock::from_anthropic(&part) {
                Some(c) => Block::ToolChange(c),
                None => r.opaque(
                    part,
                    &at,
                    "this tool change (a reference turnwire does not read)",
                ),
            },
            _ => r.opaque(part, &at, "this system message part"),
        });
    }
    Ok(blocks)
}

fn assistant(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut blocks = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        let block = match part_type(&part) {
            "text" => Block::Text(TextBlock::new(string_at(&part, "text", &at)?)),
            "thinking" => {
                let mut t = ThinkingBlock::new(string_at(&part, "thinking", &at)?);
                if let Some(signature) = part.get("signature").and_then(Value::as_str) {
                    t.meta = Some(ProviderMeta::AnthropicSignature {
                        signature: signature.to_string(),
                    });
                }
                Block::Thinking(t)
            }
            "redacted_thinking" => {
                let mut t = ThinkingBlock::new("");
                t.meta = Some(ProviderMeta::AnthropicRedacted {
                    data: string_at(&part, "data", &at)?.to_string(),
                });
                Block::Thinking(t)
            }
            "tool_use" => {
                let id = string_at(&part, "id", &at)?.to_string();
                let name = string_at(&part, "name", &at)?.to_string();
                r.names.insert(id.clone(), name.clone());
                let input = part.get("input").cloned();
                Block::ToolCall(ToolCallBlock {
                    parameters: input,
                    ..ToolCallBlock::new(id, name, Value::Null)
                })
            }
            _ => match ServerToolBlock::from_anthropic(&part) {
                Some(b) => Block::ServerTool(b),
                None => r.opaque(part, &at, "this assistant part"),
            },
        };
        blocks.push(block);
    }
    crate::model::fallback::attribute(blocks.iter_mut());
    Ok(blocks)
}

/// A user message: its parts in order, tool results as tool messages between human ones.
fn user(r: &mut Reader, content: &Value, path: &str) -> Result<(), Error> {
    let mut human: Vec<Block> = Vec::new();
    let mut tool: Vec<Block> = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        if part_type(&part) == "tool_result" {
            if !human.is_empty() {
                r.push(Speaker::Human, std::mem::take(&mut human));
            }
            tool_result(r, &part, &at, &mut tool)?;
        } else {
            if !tool.is_empty() {
                r.push(Speaker::Tool, std::mem::take(&mut tool));
            }
            human.push(content_part(r, part, &at)?);
        }
    }
    r.push(Speaker::Tool, tool);
    r.push(Speaker::Human, human);
    Ok(())
}

/// Text, image and document parts (a user message's, or a tool result's).
fn content_part(r: &mut Reader, part: Value, at: &str) -> Result<Block, Error> {
    Ok(match part_type(&part) {
        "text" => Block::Text(TextBlock::new(string_at(&part, "text", at)?)),
        // a tool a tool result loads (tool search run by the client)
        "tool_reference" => match ToolChangeBlock::from_anthropic(&part) {
            Some(c) => Block::ToolChange(c),
            None => r.opaque(part, at, "this tool reference (no `tool_name`)"),
        },
        "image" | "document" => match media(r, &part, at) {
            Some(m) => Block::Media(m),
            None => r.opaque(
                part,
                at,
                "this media part (a source turnwire does not read)",
            ),
        },
        _ => r.opaque(part, at, "this user part"),
    })
}

fn media(r: &mut Reader, part: &Value, at: &str) -> Option<MediaBlock> {
    let source = part.get("source")?;
    let image = part_type(part) == "image";
    match source.get("type").and_then(Value::as_str)? {
        "base64" => Some(MediaBlock::new(
            source.get("media_type").and_then(Value::as_str)?,
            source.get("data").and_then(Value::as_str)?,
            MediaEncoding::Base64,
        )),
        "url" => {
            let url = source.get("url").and_then(Value::as_str)?;
            Some(crate::providers::read::values::url_media(
                r,
                url,
                image,
                &format!("{at}.source"),
            ))
        }
        _ => None,
    }
}

fn tool_result(r: &mut Reader, part: &Value, at: &str, out: &mut Vec<Block>) -> Result<(), Error> {
    let call_id = string_at(part, "tool_use_id", at)?.to_string();
    let mut response = ToolResponseBlock {
        tool_name: r.names.get(&call_id).cloned(),
        call_id,
        ..ToolResponseBlock::default()
    };
    let mut attachments = Vec::new();
    let text = match part.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => result_parts(r, items, at, &mut attachments)?,
        Some(other) => {
            return Err(wrong_type(
                &format!("{at}.content"),
                "a string or an array of content parts",
                other,
            ))
        }
    };
    if part.get("is_error").and_then(Value::as_bool) == Some(true) {
        response.error = Some(text);
    } else {
        response.result = Some(Value::String(text));
    }
    out.push(Block::ToolResponse(response));
    out.extend(attachments);
    Ok(())
}

/// A tool result's content parts: a first text part is the result; every later part (text
/// notes, media) follows the response in the tool message, as turnwire renders attachments.
fn result_parts(
    r: &mut Reader,
    items: &[Value],
    at: &str,
    attachments: &mut Vec<Block>,
) -> Result<String, Error> {
    let mut result = None;
    for (k, item) in items.iter().enumerate() {
        let item_at = format!("{at}.content[{k}]");
        match (k, part_type(item), item.get("text")) {
            (0, "text", Some(Value::String(t))) => result = Some(t.clone()),
            _ => attachments.push(content_part(r, item.clone(), &item_at)?),
        }
    }
    Ok(result.unwrap_or_default())
}
