//! OpenAI Chat Completions request bodies: a pure projection of the normalised transcript.

use serde_json::{json, Map, Value};

use crate::ids::IdFormat;
use crate::model::{split_data_url, Block, MediaBlock, MediaEncoding, Message, Speaker};
use crate::normalize::{DiagnosticCode, Normalized};
use crate::providers::common::{declared_names, fenced, media_type, system_text};
use crate::providers::Projection;
use crate::RenderOptions;

/// Builds the whole request body.
pub fn body(n: &Normalized, o: &RenderOptions) -> (Value, Projection) {
    let mut p = Projection::new(IdFormat::OpenAi);
    p.reserve_names(declared_names(o));
    let mut body = Map::new();
    body.insert("model".into(), o.model.clone().into());
    let tools: Vec<Value> = o
        .tools
        .iter()
        .map(|t| {
            let mut f = Map::new();
            f.insert("name".into(), p.tool_name(&t.name).into());
            if let Some(desc) = &t.description {
                f.insert("description".into(), desc.clone().into());
            }
            if let Some(params) = &t.parameters {
                f.insert("parameters".into(), params.clone());
            }
            json!({"type": "function", "function": Value::Object(f)})
        })
        .collect();
    let mut messages = Vec::with_capacity(n.transcript.messages.len() + 1);
    let system = system_text(o, &n.system);
    if !system.is_empty() {
        messages.push(json!({"role": "system", "content": system}));
    }
    for m in &n.transcript.messages {
        match m.speaker {
            Speaker::Ai => messages.push(assistant(m, &mut p)),
            Speaker::Tool => tool_run(m, &mut p, &mut messages),
            Speaker::Human => {
                messages.push(json!({"role": "user", "content": user_content(&m.blocks)}))
            }
            Speaker::System => {
                let texts: Vec<String> = m.blocks.iter().filter_map(plain_text).collect();
                messages.push(json!({"role": "system", "content": texts.join("\n\n")}));
            }
        }
    }
    body.insert("messages".into(), Value::Array(messages));
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    if let Some(max) = o.max_tokens {
        body.insert("max_completion_tokens".into(), max.into());
    }
    if let Some(t) = o.thinking.as_ref().filter(|t| t.enabled) {
        if let Some(effort) = &t.effort {
            body.insert("reasoning_effort".into(), effort.clone().into());
        }
    }
    if let Some(t) = o.temperature {
        body.insert("temperature".into(), t.into());
    }
    if let Some(t) = o.top_p {
        body.insert("top_p".into(), t.into());
    }
    for (k, v) in &o.extra {
        body.entry(k.clone()).or_insert_with(|| v.clone());
    }
    (Value::Object(body), p)
}

fn plain_text(b: &Block) -> Option<String> {
    match b {
        Block::Text(t) => Some(t.text.clone()),
        Block::Code(c) => Some(fenced(c)),
        _ => None,
    }
}

/// User content: one string when it is only text, else an array of parts.
fn user_content(blocks: &[Block]) -> Value {
    if blocks.iter().all(|b| plain_text(b).is_some()) {
        let texts: Vec<String> = blocks.iter().filter_map(plain_text).collect();
        return texts.join("\n\n").into();
    }
    Value::Array(
        blocks
            .iter()
            .filter_map(|b| match b {
                Block::Media(m) => Some(media_part(m)),
                other => plain_text(other).map(|t| json!({"type": "text", "text": t})),
            })
            .collect(),
    )
}

fn data_url(m: &MediaBlock) -> String {
    match m.encoding {
        MediaEncoding::Url => m.data.clone(),
        MediaEncoding::Base64 => format!("data:{};base64,{}", media_type(&m.mime_type), m.data),
    }
}

fn media_part(m: &MediaBlock) -> Value {
    let mime = media_type(&m.mime_type);
    if m.is_image() {
        json!({"type": "image_url", "image_url": {"url": data_url(m)}})
    } else if mime.starts_with("audio/") {
        let format = if mime == "audio/wav" { "wav" } else { "mp3" };
        // input_audio takes bare base64
        let data = split_data_url(&m.data).map_or(m.data.as_str(), |(_, d)| d);
        json!({"type": "input_audio", "input_audio": {"data": data, "format": format}})
    } else {
        let filename = m
            .filename
            .clone()
            .unwrap_or_else(|| "attachment.pdf".into());
        json!({"type": "file", "file": {"filename": filename, "file_data": data_url(m)}})
    }
}

fn assistant(m: &Message, p: &mut Projection) -> Value {
    let texts: Vec<String> = m.blocks.iter().filter_map(plain_text).collect();
    let mut calls = Vec::new();
    for b in &m.blocks {
        if let Block::ToolCall(c) = b {
            let name = p.tool_name(&c.name);
            let id = p.call_id(&c.id, &name);
            let args = c
                .parameters
                .clone()
                .unwrap_or_else(|| json!({}))
                .to_string();
            calls.push(json!({"id": id, "type": "function", "function": {"name": name, "arguments": args}}));
        }
    }
    let mut msg = Map::new();
    msg.insert("role".into(), "assistant".into());
    msg.insert(
        "content".into(),
        if texts.is_empty() {
            Value::Null
        } else {
            texts.join("\n\n").into()
        },
    );
    if !calls.is_empty() {
        msg.insert("tool_calls".into(), Value::Array(calls));
    }
    Value::Object(msg)
}

/// The result being written: provider id, canonical id, tool name, content.
struct Pending {
    id: String,
    canonical: String,
    tool: String,
    content: String,
}

/// One tool message per result; media attached to results cannot ride in tool messages
/// (OAC-07), so it follows the run in one user message.
fn tool_run(m: &Message, p: &mut Projection, out: &mut Vec<Value>) {
    let mut media: Vec<Value> = Vec::new();
    let mut current: Option<Pending> = None;
    let flush = |cur: Option<Pending>, out: &mut Vec<Value>| {
        if let Some(c) = cur {
            out.push(json!({"role": "tool", "tool_call_id": c.id, "content": c.content}));
        }
    };
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                flush(current.take(), out);
                current = Some(Pending {
                    id: p.result_id(&r.call_id),
                    canonical: r.call_id.clone(),
                    tool: r.tool_name.clone().unwrap_or_else(|| "tool".into()),
                    content: r.text(),
                });
            }
            Block::Media(mb) => {
                let Some(c) = current.as_ref() else { continue };
                media.push(json!({"type": "text", "text": format!("Attachment returned by `{}` (call {}):", c.tool, c.id)}));
                media.push(media_part(mb));
                p.note(
                    DiagnosticCode::MediaMoved,
                    format!(
                        "{} returned by call {} cannot be in a tool message; sent in a user message after the tool results",
                        mb.mime_type, c.id
                    ),
                    Some(&c.canonical),
                );
            }
            other => {
                if let (Some(t), Some(c)) = (plain_text(other), current.as_mut()) {
                    c.content.push_str("\n\n");
                    c.content.push_str(&t);
                }
            }
        }
    }
    flush(current.take(), out);
    if !media.is_empty() {
        out.push(json!({"role": "user", "content": media}));
    }
}
