//! Anthropic Messages request bodies: a pure projection of the normalised transcript.

use crate::providers::common::obj;
use serde_json::{Map, Value};

use crate::ids::IdFormat;
use crate::model::{
    split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker,
};
use crate::normalize::declarations::HISTORY_TOOL_DESCRIPTION;
use crate::normalize::{DiagnosticCode, Normalized};
use crate::providers::common::{declared_names, fenced, media_type, system_text};
use crate::providers::Projection;
use crate::render::{anthropic_thinking, Resolved};
use crate::{CachePoint, RenderOptions, ToolChoice, DEFAULT_MAX_TOKENS};

/// Builds the whole request body.
pub fn body(n: &Normalized, o: &RenderOptions, r: &Resolved) -> (Value, Projection) {
    let mut p = Projection::new(IdFormat::Anthropic);
    p.reserve_names(declared_names(o));
    let limits = &r.limits;
    let mut body = Map::new();
    body.insert("model".into(), o.model.clone().into());
    body.insert(
        "max_tokens".into(),
        limits.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS).into(),
    );
    let system = system_text(o, &n.system);
    let cache = &r.cache;
    match cache.mark_for(CachePoint::System) {
        _ if system.is_empty() => {
            p.extend_notes(cache.nothing_to_mark(CachePoint::System, "no system prompt"))
        }
        // A breakpoint needs a block to sit on: the system prompt becomes one text block.
        Some(mark) => {
            let block = obj!({"type": "text", "text": system, "cache_control": mark.clone()});
            body.insert("system".into(), Value::Array(vec![block]));
        }
        None => {
            body.insert("system".into(), system.into());
        }
    }
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
    body.insert("messages".into(), messages(&n.transcript.messages, &mut p));
    match (tools.last_mut(), cache.mark_for(CachePoint::Tools)) {
        (Some(Value::Object(last)), Some(mark)) => {
            last.insert("cache_control".into(), mark.clone());
        }
        (None, _) => p.extend_notes(cache.nothing_to_mark(CachePoint::Tools, "no tools")),
        _ => {}
    }
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
        if let Some(choice) = &r.controls.tool_choice {
            body.insert("tool_choice".into(), tool_choice(choice, &mut p));
        }
    }
    if !r.controls.stop.is_empty() {
        body.insert("stop_sequences".into(), r.controls.stop.clone().into());
    }
    let thinking = anthropic_thinking(o, r, n.thinking_enabled);
    let mut output = Map::new();
    if let Some(effort) = thinking.effort {
        output.insert("effort".into(), effort.into());
    }
    if let Some(crate::ResponseFormat::JsonSchema { schema, .. }) = &r.controls.response_format {
        let format = obj!({"type": "json_schema", "schema": schema.clone()});
        output.insert("format".into(), format);
    }
    if !output.is_empty() {
        body.insert("output_config".into(), Value::Object(output));
    }
    if let Some(t) = thinking.thinking {
        body.insert("thinking".into(), t);
    }
    for d in thinking.notes {
        p.extend_notes(Some(d));
    }
    // The API's automatic breakpoint: it marks the last cacheable block and moves every turn.
    if let Some(mark) = cache.mark_for(CachePoint::Messages) {
        body.insert("cache_control".into(), mark.clone());
    }
    sampling(&mut body, o, n.thinking_enabled, &mut p);
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Value::Object(body), p)
}

/// `tool_choice`: `{"type": "auto" | "none" | "any"}` or `{"type": "tool", "name": …}`.
fn tool_choice(choice: &ToolChoice, p: &mut Projection) -> Value {
    match choice {
        ToolChoice::Auto => obj!({"type": "auto"}),
        ToolChoice::None => obj!({"type": "none"}),
        ToolChoice::Required => obj!({"type": "any"}),
        ToolChoice::Tool(name) => obj!({"type": "tool", "name": p.tool_name(name)}),
    }
}

fn messages(msgs: &[Message], p: &mut Projection) -> Value {
    let mut out = Vec::with_capacity(msgs.len());
    let mut i = 0;
    while let Some(m) = msgs.get(i) {
        i += 1;
        match m.speaker {
            Speaker::Ai => out.push(obj!({"role": "assistant", "content": assistant(m, p)})),
            Speaker::Tool => {
                let mut content = tool_results(m, p);
                // Tool results and the user's next words share one user message, results first.
                if let Some(next) = msgs.get(i).filter(|n| n.speaker == Speaker::Human) {
                    content.extend(user(next));
                    i += 1;
                }
                out.push(obj!({"role": "user", "content": content}));
            }
            Speaker::Human | Speaker::System => {
                out.push(obj!({"role": "user", "content": user(m)}))
            }
        }
    }
    Value::Array(out)
}

fn text(s: &str) -> Value {
    obj!({"type": "text", "text": s})
}

fn user(m: &Message) -> Vec<Value> {
    m.blocks.iter().filter_map(content_block).collect()
}

/// Text, code and media: the blocks a user message or a tool result can hold.
fn content_block(b: &Block) -> Option<Value> {
    match b {
        Block::Text(t) => Some(text(&t.text)),
        Block::Code(c) => Some(text(&fenced(c))),
        Block::Media(m) => Some(media(m)),
        _ => None,
    }
}

fn media(m: &MediaBlock) -> Value {
    let source = match (m.encoding, split_data_url(&m.data)) {
        (MediaEncoding::Url, Some((mime, data))) => {
            obj!({"type": "base64", "media_type": media_type(mime), "data": data})
        }
        (MediaEncoding::Url, None) => obj!({"type": "url", "url": m.data.as_str()}),
        (MediaEncoding::Base64, _) => {
            obj!({"type": "base64", "media_type": media_type(&m.mime_type), "data": m.data.as_str()})
        }
    };
    let kind = if m.is_image() { "image" } else { "document" };
    obj!({"type": kind, "source": source})
}

fn assistant(m: &Message, p: &mut Projection) -> Vec<Value> {
    let mut out = Vec::with_capacity(m.blocks.len());
    for b in &m.blocks {
        match b {
            Block::Thinking(t) => {
                match &t.meta {
                    Some(ProviderMeta::AnthropicRedacted { data }) => {
                        out.push(obj!({"type": "redacted_thinking", "data": data.as_str()}));
                    }
                    Some(ProviderMeta::AnthropicSignature { signature }) => {
                        out.push(obj!({"type": "thinking", "thinking": t.thought.as_str(), "signature": signature.as_str()}));
                    }
                    // The normaliser only leaves signed thinking for Anthropic.
                    _ => {}
                }
            }
            Block::Text(t) => out.push(text(&t.text)),
            Block::Code(c) => out.push(text(&fenced(c))),
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                let id = p.call_id(&c.id, &name);
                let input = c
                    .parameters
                    .clone()
                    .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
                out.push(obj!({"type": "tool_use", "id": id, "name": name, "input": input}));
            }
            // The normaliser leaves only Anthropic's own blocks, replayed as they came.
            Block::ServerTool(s) => out.push(s.wire.clone()),
            _ => {}
        }
    }
    out
}

fn tool_results(m: &Message, p: &mut Projection) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    let mut attachments: Vec<Value> = Vec::new();
    let mut current: Option<Map<String, Value>> = None;
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                flush(&mut out, current.take(), std::mem::take(&mut attachments));
                let mut tr = Map::new();
                tr.insert("type".into(), "tool_result".into());
                tr.insert("tool_use_id".into(), p.result_id(&r.call_id).into());
                tr.insert("content".into(), r.text().into());
                if r.error.is_some() {
                    tr.insert("is_error".into(), true.into());
                }
                current = Some(tr);
            }
            other => {
                // Text notes and media attached to a result go inside its tool_result.
                if let Some(v) = content_block(other) {
                    attachments.push(v);
                }
            }
        }
    }
    flush(&mut out, current, attachments);
    out
}

/// Closes a tool_result: attachments turn its content into an array (text first).
fn flush(out: &mut Vec<Value>, current: Option<Map<String, Value>>, attachments: Vec<Value>) {
    let Some(mut tr) = current else { return };
    if !attachments.is_empty() {
        let first = tr.remove("content").unwrap_or(Value::Null);
        let mut content = vec![text(first.as_str().unwrap_or_default())];
        content.extend(attachments);
        let is_error = tr.remove("is_error");
        tr.insert("content".into(), Value::Array(content));
        if let Some(e) = is_error {
            tr.insert("is_error".into(), e);
        }
    }
    out.push(Value::Object(tr));
}

/// With thinking on, Anthropic accepts no temperature other than 1 and no `top_p` below 0.95;
/// such settings are left out for this request and a diagnostic says so.
fn sampling(body: &mut Map<String, Value>, o: &RenderOptions, thinking: bool, p: &mut Projection) {
    if let Some(t) = o.temperature {
        if thinking && t != 1.0 {
            p.note(
                DiagnosticCode::SamplingAdjusted,
                format!(
                    "temperature {t} is not allowed with thinking on; left out of this request"
                ),
                None,
            );
        } else {
            body.insert("temperature".into(), t.into());
        }
    }
    if let Some(t) = o.top_p {
        if thinking && t < 0.95 {
            p.note(
                DiagnosticCode::SamplingAdjusted,
                format!("top_p {t} is below 0.95, which thinking does not allow; left out of this request"),
                None,
            );
        } else {
            body.insert("top_p".into(), t.into());
        }
    }
}

/// One entry of `tools`; a missing schema is an open object.
fn declaration(name: &str, description: Option<&str>, schema: Option<Value>) -> Value {
    let mut d = Map::new();
    d.insert("name".into(), name.into());
    if let Some(desc) = description {
        d.insert("description".into(), desc.into());
    }
    d.insert(
        "input_schema".into(),
        schema.unwrap_or_else(|| obj!({"type": "object"})),
    );
    Value::Object(d)
}
