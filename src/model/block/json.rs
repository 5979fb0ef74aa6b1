//! Reading and writing a [`Block`] in the JSON history shape: the known block types with their
//! continuity metadata and provenance, anything else kept verbatim.

use super::nested_meta::{self, Carrier};
use super::*;
use crate::error::{Error, ErrorCode};
use crate::model::json_path::JsonPath;
use crate::model::node::{get, into_map, take, Members, Node};
use crate::model::read::{
    into_object, put_opt_str, take_opt_bool, take_opt_str, take_str, take_value, wrong_type,
};
use crate::model::ServerToolPhase;
use crate::model::{ToolChangeBlock, ToolChangeKind};

impl Block {
    /// Reads one block of the JSON history shape.
    pub(crate) fn read(v: Node<'_>, path: &JsonPath<'_>) -> Result<Block, Error> {
        let mut obj = into_object(v, path)?;
        let kind = match get(&obj, "type") {
            Some(Node::Value(Value::String(s))) => s.clone(),
            Some(other) => return Err(wrong_type(&path.key("type"), "a string", other)),
            None => {
                return Err(Error::new(
                    ErrorCode::MissingField,
                    path.key("type").to_string(),
                    "every block needs a `type`",
                ))
            }
        };
        let block = match kind.as_str() {
            "text" => {
                take(&mut obj, "type");
                nested_meta::lift(&mut obj, Carrier::SignedPart);
                let text = take_str(&mut obj, "text", path)?;
                let meta = match take_gemini_signature(&mut obj, path)? {
                    Some(m) => Some(m),
                    None => take_phase(&mut obj, path)?,
                };
                let provenance = take_provenance(&mut obj, path)?;
                Block::Text(TextBlock {
                    text,
                    meta,
                    provenance,
                    extra: into_map(obj),
                })
            }
            "thinking" => {
                take(&mut obj, "type");
                nested_meta::lift(&mut obj, Carrier::Thinking);
                let thought = take_opt_str(&mut obj, "thought", path)?.unwrap_or_default();
                let meta = take_thinking_meta(&mut obj, path)?;
                let source_field = take_opt_str(&mut obj, "sourceField", path)?;
                let provenance = take_provenance(&mut obj, path)?;
                Block::Thinking(ThinkingBlock {
                    thought,
                    meta,
                    source_field,
                    provenance,
                    extra: into_map(obj),
                })
            }
            "tool_call" => {
                take(&mut obj, "type");
                nested_meta::lift(&mut obj, Carrier::SignedPart);
                let id = take_str(&mut obj, "id", path)?;
                let name = take_str(&mut obj, "name", path)?;
                let parameters = take_value(&mut obj, "parameters");
                let description = take_opt_str(&mut obj, "description", path)?;
                let meta = match take_gemini_signature(&mut obj, path)? {
                    Some(m) => Some(m),
                    None => take_openai_item(&mut obj),
                };
                let provenance = take_provenance(&mut obj, path)?;
                Block::ToolCall(ToolCallBlock {
                    id,
                    name,
                    parameters,
                    description,
                    meta,
                    provenance,
                    extra: into_map(obj),
                })
            }
            "tool_response" => {
                take(&mut obj, "type");
                let call_id = take_str(&mut obj, "callId", path)?;
                let tool_name = take_opt_str(&mut obj, "toolName", path)?;
                let result = take_value(&mut obj, "result");
                let error = take_opt_str(&mut obj, "error", path)?;
                let is_complete = take_opt_bool(&mut obj, "isComplete", path)?;
                let meta = take_openai_item(&mut obj);
                let synthetic = match take_opt_str(&mut obj, "synthetic", path)? {
                    None => None,
                    Some(s) => Some(SyntheticReason::parse(&s).ok_or_else(|| {
                        Error::new(
                            ErrorCode::InvalidValue,
                            path.key("synthetic").to_string(),
                            format!("unknown synthetic reason `{s}`"),
                        )
                    })?),
                };
                Block::ToolResponse(ToolResponseBlock {
                    call_id,
                    tool_name,
                    result,
                    error,
                    is_complete,
                    synthetic,
                    meta,
                    extra: into_map(obj),
                })
            }
            "media" => {
                take(&mut obj, "type");
                let mime_type = take_str(&mut obj, "mimeType", path)?;
                let data = take_str(&mut obj, "data", path)?;
                let encoding = match take_opt_str(&mut obj, "encoding", path)?.as_deref() {
                    Some("base64") => MediaEncoding::Base64,
                    Some("url") => MediaEncoding::Url,
                    None if looks_like_url(&data) => MediaEncoding::Url,
                    None => MediaEncoding::Base64,
                    Some(other) => {
                        return Err(Error::new(
                            ErrorCode::InvalidValue,
                            path.key("encoding").to_string(),
                            format!("encoding must be `base64` or `url`, found `{other}`"),
                        ))
                    }
                };
                let caption = take_opt_str(&mut obj, "caption", path)?;
                let filename = take_opt_str(&mut obj, "filename", path)?;
                Block::Media(MediaBlock {
                    mime_type,
                    data,
                    encoding,
                    caption,
                    filename,
                    extra: into_map(obj),
                })
            }
            "code" => {
                take(&mut obj, "type");
                let code = take_str(&mut obj, "code", path)?;
                let language = take_opt_str(&mut obj, "language", path)?;
                Block::Code(CodeBlock {
                    code,
                    language,
                    extra: into_map(obj),
                })
            }
            "server_tool" => {
                take(&mut obj, "type");
                Block::ServerTool(read_server_tool(&mut obj, path)?)
            }
            "tool_change" => {
                take(&mut obj, "type");
                Block::ToolChange(read_tool_change(&mut obj, path)?)
            }
            _ => Block::Other(Value::Object(into_map(obj))),
        };
        Ok(block)
    }

    /// Reads one block of the JSON history shape from a parsed value (an importer's embedded
    /// block).
    pub(crate) fn from_value(v: Value) -> Result<Block, Error> {
        Block::read(Node::Value(v), &JsonPath::Root)
    }

    /// Writes the block in the JSON history shape.
    pub(crate) fn write(&self) -> Value {
        let mut o = Map::new();
        match self {
            Block::Text(b) => {
                o.insert("type".into(), "text".into());
                o.insert("text".into(), b.text.clone().into());
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::Thinking(b) => {
                o.insert("type".into(), "thinking".into());
                o.insert("thought".into(), b.thought.clone().into());
                put_opt_str(&mut o, "sourceField", &b.source_field);
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::ToolCall(b) => {
                o.insert("type".into(), "tool_call".into());
                o.insert("id".into(), b.id.clone().into());
                o.insert("name".into(), b.name.clone().into());
                if let Some(p) = &b.parameters {
                    o.insert("parameters".into(), p.clone());
                }
                put_opt_str(&mut o, "description", &b.description);
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::ToolResponse(b) => {
                o.insert("type".into(), "tool_response".into());
                o.insert("callId".into(), b.call_id.clone().into());
                put_opt_str(&mut o, "toolName", &b.tool_name);
                if let Some(r) = &b.result {
                    o.insert("result".into(), r.clone());
                }
                put_opt_str(&mut o, "error", &b.error);
                if let Some(c) = b.is_complete {
                    o.insert("isComplete".into(), c.into());
                }
                if let Some(s) = b.synthetic {
                    o.insert("synthetic".into(), s.as_str().into());
                }
                write_meta(&mut o, &b.meta);
                extend(&mut o, &b.extra);
            }
            Block::Media(b) => {
                o.insert("type".into(), "media".into());
                o.insert("mimeType".into(), b.mime_type.clone().into());
                o.insert("data".into(), b.data.clone().into());
                let enc = match b.encoding {
                    MediaEncoding::Base64 => "base64",
                    MediaEncoding::Url => "url",
                };
                o.insert("encoding".into(), enc.into());
                put_opt_str(&mut o, "caption", &b.caption);
                put_opt_str(&mut o, "filename", &b.filename);
                extend(&mut o, &b.extra);
            }
            Block::Code(b) => {
                o.insert("type".into(), "code".into());
                o.insert("code".into(), b.code.clone().into());
                put_opt_str(&mut o, "language", &b.language);
                extend(&mut o, &b.extra);
            }
            Block::ServerTool(b) => {
                o.insert("type".into(), "server_tool".into());
                o.insert("provider".into(), b.provider.clone().into());
                o.insert("phase".into(), b.phase.as_str().into());
                o.insert("id".into(), b.id.clone().into());
                o.insert("name".into(), b.name.clone().into());
                o.insert("wire".into(), b.wire.clone());
                put_opt_str(&mut o, "text", &b.text);
                extend(&mut o, &b.extra);
            }
            Block::ToolChange(b) => {
                o.insert("type".into(), "tool_change".into());
                o.insert("change".into(), b.change.as_str().into());
                put_opt_str(&mut o, "name", &b.name);
                put_opt_str(&mut o, "serverName", &b.server_name);
                if let Some(d) = &b.definition {
                    o.insert("definition".into(), d.clone());
                }
                extend(&mut o, &b.extra);
            }
            Block::Other(v) => return v.clone(),
        }
        Value::Object(o)
    }
}

/// `{"type": "server_tool", "provider", "phase", "wire", "id"?, "name"?, "text"?}`: a missing
/// id or name is read from `wire`.
fn read_server_tool(obj: &mut Members<'_>, path: &JsonPath<'_>) -> Result<ServerToolBlock, Error> {
    let provider = take_str(obj, "provider", path)?;
    let phase_text = take_str(obj, "phase", path)?;
    let phase = ServerToolPhase::parse(&phase_text).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidValue,
            path.key("phase").to_string(),
            format!("phase must be `call` or `result`, found `{phase_text}`"),
        )
    })?;
    let Some(wire) = take_value(obj, "wire").filter(Value::is_object) else {
        return Err(Error::new(
            ErrorCode::MissingField,
            path.key("wire").to_string(),
            "a server_tool block needs its provider's block as an object in `wire`",
        ));
    };
    let mut b = ServerToolBlock::new(provider, phase, wire);
    if let Some(id) = take_opt_str(obj, "id", path)? {
        b.id = id;
    }
    if let Some(name) = take_opt_str(obj, "name", path)? {
        b.name = name;
    }
    b.text = take_opt_str(obj, "text", path)?;
    b.extra = into_map(std::mem::take(obj));
    Ok(b)
}

/// `{"type": "tool_change", "change": "add" | "remove", "name"?, "serverName"?, "definition"?}`:
/// at least one of `name`, `serverName` and `definition`.
fn read_tool_change(obj: &mut Members<'_>, path: &JsonPath<'_>) -> Result<ToolChangeBlock, Error> {
    let text = take_str(obj, "change", path)?;
    let change = ToolChangeKind::parse(&text).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidValue,
            path.key("change").to_string(),
            format!("change must be `add` or `remove`, found `{text}`"),
        )
    })?;
    let b = ToolChangeBlock {
        change,
        name: take_opt_str(obj, "name", path)?,
        server_name: take_opt_str(obj, "serverName", path)?,
        definition: take_value(obj, "definition").filter(Value::is_object),
        extra: into_map(std::mem::take(obj)),
    };
    if b.name.is_none() && b.server_name.is_none() && b.definition.is_none() {
        return Err(Error::new(
            ErrorCode::MissingField,
            path.key("name").to_string(),
            "a tool_change block names its tool (`name`), an MCP server (`serverName`) or carries a `definition`",
        ));
    }
    Ok(b)
}

fn looks_like_url(data: &str) -> bool {
    data.starts_with("http://") || data.starts_with("https://") || data.starts_with("data:")
}

fn extend(o: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (k, v) in extra {
        if !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
}

fn take_provenance(
    obj: &mut Members<'_>,
    path: &JsonPath<'_>,
) -> Result<Option<Provenance>, Error> {
    match take(obj, "provenance") {
        None | Some(Node::Value(Value::Null)) => Ok(None),
        Some(v) => Provenance::read(v, &path.key("provenance")).map(Some),
    }
}

fn write_provenance(o: &mut Map<String, Value>, p: &Option<Provenance>) {
    if let Some(p) = p {
        o.insert("provenance".into(), p.write());
    }
}

fn take_gemini_signature(
    obj: &mut Members<'_>,
    path: &JsonPath<'_>,
) -> Result<Option<ProviderMeta>, Error> {
    Ok(take_opt_str(obj, "thoughtSignature", path)?
        .map(|thought_signature| ProviderMeta::GeminiThoughtSignature { thought_signature }))
}

/// `phase` on a text block: the OpenAI Responses label of its assistant message (ORS-18).
fn take_phase(obj: &mut Members<'_>, path: &JsonPath<'_>) -> Result<Option<ProviderMeta>, Error> {
    Ok(take_opt_str(obj, "phase", path)?.map(|phase| ProviderMeta::OpenAiPhase { phase }))
}

/// `openaiItem` on a call or result: `{"type": <item type>, …the item's other members}`
/// (ORS-19). A value that is not an object with a string `type` stays in `extra`.
fn take_openai_item(obj: &mut Members<'_>) -> Option<ProviderMeta> {
    let typed = match get(obj, "openaiItem")? {
        Node::Value(Value::Object(o)) => o.get("type").is_some_and(Value::is_string),
        Node::Object(m) => matches!(get(m, "type"), Some(Node::Value(Value::String(_)))),
        _ => false,
    };
    if !typed {
        return None;
    }
    let Some(Value::Object(mut fields)) = take_value(obj, "openaiItem") else {
        return None;
    };
    let item_type = match fields.shift_remove("type") {
        Some(Value::String(t)) => t,
        _ => String::new(),
    };
    Some(ProviderMeta::OpenAiItem { item_type, fields })
}

/// Thinking blocks carry at most one artifact; the first one found (in this order) becomes the
/// typed meta and any other artifact fields stay in `extra` untouched.
fn take_thinking_meta(
    obj: &mut Members<'_>,
    path: &JsonPath<'_>,
) -> Result<Option<ProviderMeta>, Error> {
    if get(obj, "redactedData").is_some() {
        if let Some(data) = take_opt_str(obj, "redactedData", path)? {
            return Ok(Some(ProviderMeta::AnthropicRedacted { data }));
        }
    }
    if get(obj, "signature").is_some() {
        if let Some(signature) = take_opt_str(obj, "signature", path)? {
            return Ok(Some(ProviderMeta::AnthropicSignature { signature }));
        }
    }
    if get(obj, "reasoningId").is_some() || get(obj, "encryptedContent").is_some() {
        let id = take_opt_str(obj, "reasoningId", path)?;
        let encrypted_content = take_opt_str(obj, "encryptedContent", path)?;
        if id.is_some() || encrypted_content.is_some() {
            return Ok(Some(ProviderMeta::OpenAiReasoning {
                id,
                encrypted_content,
            }));
        }
    }
    if let Some(Node::Array(_) | Node::Value(Value::Array(_))) = get(obj, "reasoningDetails") {
        if let Some(Value::Array(details)) = take_value(obj, "reasoningDetails") {
            return Ok(Some(ProviderMeta::OpenRouterReasoningDetails { details }));
        }
    }
    take_gemini_signature(obj, path)
}

fn write_meta(o: &mut Map<String, Value>, meta: &Option<ProviderMeta>) {
    match meta {
        None => {}
        Some(ProviderMeta::AnthropicSignature { signature }) => {
            o.insert("signature".into(), signature.clone().into());
        }
        Some(ProviderMeta::AnthropicRedacted { data }) => {
            o.insert("redactedData".into(), data.clone().into());
        }
        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
            o.insert("thoughtSignature".into(), thought_signature.clone().into());
        }
        Some(ProviderMeta::OpenAiReasoning {
            id,
            encrypted_content,
        }) => {
            put_opt_str(o, "reasoningId", id);
            put_opt_str(o, "encryptedContent", encrypted_content);
        }
        Some(ProviderMeta::OpenAiPhase { phase }) => {
            o.insert("phase".into(), phase.clone().into());
        }
        Some(ProviderMeta::OpenAiItem { item_type, fields }) => {
            let mut item = Map::with_capacity(fields.len() + 1);
            item.insert("type".into(), item_type.clone().into());
            item.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
            o.insert("openaiItem".into(), Value::Object(item));
        }
        Some(ProviderMeta::OpenRouterReasoningDetails { details }) => {
            o.insert("reasoningDetails".into(), Value::Array(details.clone()));
        }
    }
}
