//! OpenAI Responses request bodies: a pure projection of the normalised transcript into
//! `input` items (stateless: the whole history goes in every request, `store: false`).

use crate::providers::common::obj;
use serde_json::{json, Map, Value};

use crate::ids::IdFormat;
use crate::model::{Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker};
use crate::normalize::declarations::HISTORY_TOOL_DESCRIPTION;
use crate::normalize::Normalized;
use crate::providers::common::{
    declared_names, joined_text, media_type, only_plain_text, plain_text, system_text,
};
use crate::providers::Projection;
use crate::render::Resolved;
use crate::{RenderOptions, ToolChoice};

/// Reasoning effort when thinking is on and the caller names none.
const DEFAULT_EFFORT: &str = "medium";

/// What `include` asks for so that reasoning can be replayed statelessly.
const INCLUDE_ENCRYPTED_REASONING: &str = "reasoning.encrypted_content";

/// Builds the whole request body.
pub(crate) fn body(n: &Normalized, o: &RenderOptions, r: &Resolved) -> (Value, Projection) {
    let mut p = Projection::new(IdFormat::Responses);
    p.reserve_names(declared_names(o));
    let mut tools: Vec<Value> = o
        .tools
        .iter()
        .map(|t| {
            declaration(
                &p.tool_name(&t.name),
                t.description.as_deref(),
                t.parameters.clone(),
            )
        })
        .collect();
    for name in &n.undeclared_tools {
        let projected = p.tool_name(name);
        tools.push(declaration(
            &projected,
            Some(HISTORY_TOOL_DESCRIPTION),
            None,
        ));
    }
    tools.extend(r.server_tools.tools.iter().cloned());
    let input = input(&n.transcript.messages, &mut p);
    let has_reasoning = input
        .iter()
        .any(|i| i.get("type").and_then(Value::as_str) == Some("reasoning"));

    let mut body = Map::new();
    body.insert("model".into(), o.model.clone().into());
    let system = system_text(o, &n.system);
    if !system.is_empty() {
        body.insert("instructions".into(), system.into());
    }
    body.insert("input".into(), Value::Array(input));
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
        if let Some(choice) = &r.controls.tool_choice {
            body.insert("tool_choice".into(), tool_choice(choice, &mut p));
        }
    }
    if n.thinking_enabled {
        let effort = o
            .thinking
            .as_ref()
            .and_then(|t| t.effort.clone())
            .unwrap_or_else(|| DEFAULT_EFFORT.to_string());
        let summary = o.thinking.as_ref().and_then(|t| t.summary.as_deref());
        let mut reasoning = Map::new();
        reasoning.insert("effort".into(), effort.into());
        // `none`: no summary is asked for
        if summary != Some("none") {
            reasoning.insert("summary".into(), summary.unwrap_or("auto").into());
        }
        body.insert("reasoning".into(), Value::Object(reasoning));
    }
    if n.thinking_enabled || has_reasoning {
        body.insert("include".into(), json!([INCLUDE_ENCRYPTED_REASONING]));
    }
    if let Some(format) = &r.controls.response_format {
        let mut f = Map::new();
        f.insert("type".into(), "json_schema".into());
        crate::providers::common::json_schema_members(format, &mut f);
        body.insert("text".into(), obj!({ "format": Value::Object(f) }));
    }
    // turnwire sends the whole history every time: nothing is stored server-side (ORS-05).
    body.insert("store".into(), false.into());
    if let Some(max) = r.limits.max_tokens {
        body.insert("max_output_tokens".into(), max.into());
    }
    if let Some(key) = &r.cache.key {
        body.insert("prompt_cache_key".into(), key.as_str().into());
    }
    crate::providers::common::insert_sampling(&mut body, o, r, &mut p);
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Value::Object(body), p)
}

/// `tool_choice`: `"auto"`, `"none"`, `"required"` or the flat `{"type": "function",
/// "name": …}` (ORS-14).
fn tool_choice(choice: &ToolChoice, p: &mut Projection) -> Value {
    match choice {
        ToolChoice::Auto => "auto".into(),
        ToolChoice::None => "none".into(),
        ToolChoice::Required => "required".into(),
        ToolChoice::Tool(name) => obj!({"type": "function", "name": p.tool_name(name)}),
    }
}

/// One flat function tool; a missing schema is `null` (the API reference and the SDK's type
/// make `parameters` required, and nullable).
fn declaration(name: &str, description: Option<&str>, schema: Option<Value>) -> Value {
    let mut t = Map::new();
    t.insert("type".into(), "function".into());
    t.insert("name".into(), name.into());
    if let Some(d) = description {
        t.insert("description".into(), d.into());
    }
    t.insert("parameters".into(), schema.unwrap_or(Value::Null));
    // Responses defaults `strict` to true, which rewrites loose schemas; keep them as declared.
    t.insert("strict".into(), false.into());
    Value::Object(t)
}

/// The `input` items, in transcript order.
fn input(msgs: &[Message], p: &mut Projection) -> Vec<Value> {
    let mut out = Vec::with_capacity(msgs.len());
    for m in msgs {
        match m.speaker {
            Speaker::Human => out.push(obj!({
                "type": "message",
                "role": "user",
                "content": user_content(&m.blocks),
            })),
            Speaker::System => out.push(obj!({
                "type": "message",
                "role": "developer",
                "content": joined_text(&m.blocks).unwrap_or_default(),
            })),
            Speaker::Ai => assistant(m, p, &mut out),
            Speaker::Tool => tool_outputs(m, p, &mut out),
        }
    }
    out
}

/// User content: one string when it is only text, else an array of input parts.
fn user_content(blocks: &[Block]) -> Value {
    if only_plain_text(blocks) {
        return joined_text(blocks).unwrap_or_default().into();
    }
    Value::Array(blocks.iter().filter_map(input_part).collect())
}

/// Text, code and media as an input part (user content and function call outputs).
fn input_part(b: &Block) -> Option<Value> {
    match b {
        Block::Media(m) => Some(media_part(m)),
        other => plain_text(other).map(|t| input_text(&t)),
    }
}

fn input_text(t: &str) -> Value {
    obj!({"type": "input_text", "text": t})
}

/// The media as a URL: remote and `data:` URLs as they are, base64 as a `data:` URL.
fn data_url(m: &MediaBlock) -> String {
    match m.encoding {
        MediaEncoding::Url => m.data.clone(),
        MediaEncoding::Base64 => format!("data:{};base64,{}", media_type(&m.mime_type), m.data),
    }
}

/// An `input_image`, or an `input_file` for documents (the normaliser leaves only images and
/// base64 PDFs for this target).
fn media_part(m: &MediaBlock) -> Value {
    if m.is_image() {
        // `detail` is required by the API reference and the SDK's type; `auto` is its default.
        return obj!({"type": "input_image", "image_url": data_url(m), "detail": "auto"});
    }
    let filename = m.filename.clone().unwrap_or_else(|| {
        let mime = media_type(&m.mime_type);
        let ext = mime.rsplit('/').next().unwrap_or("bin").to_string();
        format!("attachment.{ext}")
    });
    obj!({"type": "input_file", "filename": filename, "file_data": data_url(m)})
}

/// One item per run of an assistant message, in block order: reasoning items, one assistant
/// message per run of text (its texts joined by a blank line, as Chat Completions joins them),
/// one `function_call` per call. The message's content is a string: the input message the
/// official SDK's types allow without a server-side id and status (an `output_text` part list
/// needs both).
fn assistant(m: &Message, p: &mut Projection, out: &mut Vec<Value>) {
    let mut text: Vec<String> = Vec::new();
    let flush = |text: &mut Vec<String>, out: &mut Vec<Value>| {
        if !text.is_empty() {
            out.push(obj!({
                "type": "message",
                "role": "assistant",
                "content": std::mem::take(text).join("\n\n"),
            }));
        }
    };
    for b in &m.blocks {
        match b {
            Block::Text(_) | Block::Code(_) => {
                if let Some(t) = plain_text(b) {
                    text.push(t.into_owned());
                }
            }
            Block::Thinking(t) => {
                flush(&mut text, out);
                // The normaliser leaves only OpenAI reasoning items with encrypted content from
                // this model (see `normalize::continuity`).
                if let Some(ProviderMeta::OpenAiReasoning {
                    encrypted_content, ..
                }) = &t.meta
                {
                    let mut item = Map::new();
                    item.insert("type".into(), "reasoning".into());
                    // Stateless replay: the encrypted content without the item id, which
                    // would refer to a server-side item that `store: false` never kept (ORS-05)
                    // and would require the following message's own id (ORS-03).
                    let summary = if t.thought.is_empty() {
                        Vec::new()
                    } else {
                        vec![obj!({"type": "summary_text", "text": t.thought.as_str()})]
                    };
                    item.insert("summary".into(), Value::Array(summary));
                    if let Some(e) = encrypted_content {
                        item.insert("encrypted_content".into(), e.clone().into());
                    }
                    out.push(Value::Object(item));
                }
            }
            Block::ToolCall(c) => {
                flush(&mut text, out);
                let name = p.tool_name(&c.name);
                let call_id = p.call_id(&c.id, &name);
                let arguments = c
                    .parameters
                    .as_ref()
                    .map_or_else(|| "{}".to_string(), crate::json::write::to_string);
                // No `fc_` item id: calls pair with outputs by call_id (ORS-04).
                out.push(obj!({
                    "type": "function_call",
                    "call_id": call_id,
                    "name": name,
                    "arguments": arguments,
                }));
            }
            // Media never stays in an assistant message (speaker repair moves it to the user).
            _ => {}
        }
    }
    flush(&mut text, out);
}

/// The output being written: its call id, text and attached media.
struct Pending {
    call_id: String,
    text: String,
    media: Vec<Value>,
}

impl Pending {
    fn into_item(self) -> Value {
        let output = if self.media.is_empty() {
            Value::String(self.text)
        } else {
            let mut parts = Vec::with_capacity(self.media.len() + 1);
            if !self.text.is_empty() {
                parts.push(input_text(&self.text));
            }
            parts.extend(self.media);
            Value::Array(parts)
        };
        obj!({"type": "function_call_output", "call_id": self.call_id, "output": output})
    }
}

/// One `function_call_output` per result, in order. Text attached to a result joins its text;
/// media attached to it makes the output an array of input parts (text first).
fn tool_outputs(m: &Message, p: &mut Projection, out: &mut Vec<Value>) {
    let mut current: Option<Pending> = None;
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                out.extend(current.take().map(Pending::into_item));
                current = Some(Pending {
                    call_id: p.result_id(&r.call_id),
                    text: r.text(),
                    media: Vec::new(),
                });
            }
            Block::Media(media) => {
                if let Some(c) = current.as_mut() {
                    c.media.push(media_part(media));
                }
            }
            other => {
                if let (Some(t), Some(c)) = (plain_text(other), current.as_mut()) {
                    if !c.text.is_empty() {
                        c.text.push_str("\n\n");
                    }
                    c.text.push_str(&t);
                }
            }
        }
    }
    out.extend(current.take().map(Pending::into_item));
}
