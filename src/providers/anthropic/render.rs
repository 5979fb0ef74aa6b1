//! Anthropic Messages request bodies: a pure projection of the normalised transcript.

use std::borrow::Cow;

use crate::json::out::{out, Obj, Out};
use serde_json::Value;

use super::thinking::anthropic_thinking;
use crate::ids::IdFormat;
use crate::model::{
    split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker,
};
use crate::normalize::Normalized;
use crate::providers::body::{results_then_user, tool_declarations, ListTurns};
use crate::providers::common::{
    claude_sampling, declared_names, fenced, media_type, named, system_text,
};
use crate::providers::Projection;
use crate::request::Resolved;
use crate::vocab::DiagnosticCode;
use crate::{CachePoint, RenderOptions, ToolChoice, DEFAULT_MAX_TOKENS};

/// Builds the whole request body.
pub fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
    let mut p = Projection::new(IdFormat::Anthropic);
    p.reserve_names(declared_names(o));
    let limits = &r.limits;
    let mut body = Obj::new();
    if r.model_in_body() {
        body.insert("model", &o.model);
    }
    body.insert(
        "max_tokens",
        limits.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS),
    );
    let system = system_text(o, &n.system);
    let cache = &r.cache;
    match cache.mark_for(CachePoint::System) {
        _ if system.is_empty() => {
            p.extend_notes(cache.nothing_to_mark(CachePoint::System, "no system prompt"))
        }
        // A breakpoint needs a block to sit on: the system prompt becomes one text block.
        Some(mark) => {
            let block = out!({"type": "text", "text": system, "cache_control": mark});
            body.insert("system", vec![block]);
        }
        None => {
            body.insert("system", system);
        }
    }
    let mut tools = tool_declarations(n, o, &mut p, declaration, true);
    tools.extend(r.server_tools.tools.iter().map(Out::from));
    undefer_all(&mut tools, &mut p);
    body.insert("messages", messages(&n.transcript.messages, &mut p));
    match (tools.last_mut(), cache.mark_for(CachePoint::Tools)) {
        (Some(last), Some(mark)) => {
            if let Some(last) = last.as_obj_mut() {
                last.insert("cache_control", mark);
            }
        }
        (None, _) => p.extend_notes(cache.nothing_to_mark(CachePoint::Tools, "no tools")),
        _ => {}
    }
    if !tools.is_empty() {
        body.insert("tools", tools);
        if let Some(choice) = &r.controls.tool_choice {
            body.insert("tool_choice", tool_choice(choice, &mut p));
        }
    }
    if !r.controls.stop.is_empty() {
        body.insert("stop_sequences", Out::strs(&r.controls.stop));
    }
    let thinking = anthropic_thinking(o, r, n.thinking_enabled);
    let mut output = Obj::new();
    if let Some(effort) = thinking.effort {
        output.insert("effort", effort);
    }
    if let Some(crate::ResponseFormat::JsonSchema { schema, .. }) = &r.controls.response_format {
        output.insert("format", out!({"type": "json_schema", "schema": schema}));
    }
    if !output.is_empty() {
        body.insert("output_config", output);
    }
    if let Some(t) = thinking.thinking {
        body.insert("thinking", t);
    }
    for d in thinking.notes {
        p.extend_notes(Some(d));
    }
    // The API's automatic breakpoint: it marks the last cacheable block and moves every turn.
    if let Some(mark) = cache.mark_for(CachePoint::Messages) {
        body.insert("cache_control", mark);
    }
    sampling(&mut body, o, n.thinking_enabled, &mut p);
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Out::Obj(body), p)
}

/// `tool_choice`: `{"type": "auto" | "none" | "any"}` or `{"type": "tool", "name": …}`.
fn tool_choice(choice: &ToolChoice, p: &mut Projection) -> Out<'static> {
    match choice {
        ToolChoice::Auto => out!({"type": "auto"}),
        ToolChoice::None => out!({"type": "none"}),
        ToolChoice::Required => out!({"type": "any"}),
        ToolChoice::Tool(name) => out!({"type": "tool", "name": p.tool_name(name)}),
    }
}

fn messages<'a>(msgs: &'a [Message], p: &mut Projection) -> Vec<Out<'a>> {
    let turns = ListTurns {
        assistant_role: "assistant",
        member: "content",
        assistant,
        results: tool_results,
        user,
    };
    // The normaliser leaves system messages inside the conversation only for models that take
    // them, where they stand (ANT-25): each is a `role: "system"` message.
    let mut out = Vec::with_capacity(msgs.len());
    for run in msgs.split_inclusive(|m| m.speaker == Speaker::System) {
        let (rest, system) = match run.split_last() {
            Some((last, rest)) if last.speaker == Speaker::System => (rest, Some(last)),
            _ => (run, None),
        };
        out.extend(results_then_user(rest, p, &turns));
        if let Some(m) = system {
            // `SystemMessageParam.content`: its texts as one text block, joined as the system
            // prompt joins them (a merged pair reads back as one system message anywhere)
            let texts: Vec<Cow<'a, str>> = m
                .blocks
                .iter()
                .filter_map(|b| match b {
                    Block::Text(t) => Some(Cow::Borrowed(t.text.as_str())),
                    Block::Code(c) => Some(Cow::Owned(c.code.clone())),
                    _ => None,
                })
                .collect();
            let mut content = Vec::with_capacity(1 + m.blocks.len());
            if !texts.is_empty() {
                content.push(text(texts.join("\n\n")));
            }
            // its tool changes, after the text (ANT-53; the beta header follows from the block)
            for b in &m.blocks {
                if let Block::ToolChange(c) = b {
                    content.push(Out::Json(Cow::Owned(tool_change(c, p))));
                }
            }
            out.push(out!({"role": "system", "content": content}));
        }
    }
    out
}

/// A system message's `tool_addition` / `tool_removal`, a declared tool named as `tools` names it.
fn tool_change(c: &crate::model::ToolChangeBlock, p: &mut Projection) -> Value {
    match (&c.name, &c.server_name, &c.definition) {
        (Some(name), None, None) => {
            let projected = crate::model::ToolChangeBlock {
                name: Some(p.tool_name(name)),
                ..c.clone()
            };
            projected.to_anthropic()
        }
        _ => c.to_anthropic(),
    }
}

fn text<'a>(s: impl Into<Out<'a>>) -> Out<'a> {
    out!({"type": "text", "text": s.into()})
}

fn user(m: &Message) -> Vec<Out<'_>> {
    m.blocks.iter().filter_map(content_block).collect()
}

/// Text, code and media: the blocks a user message or a tool result can hold.
fn content_block(b: &Block) -> Option<Out<'_>> {
    match b {
        Block::Text(t) => Some(text(&t.text)),
        Block::Code(c) => Some(text(fenced(c))),
        Block::Media(m) => Some(media(m)),
        _ => None,
    }
}

fn media(m: &MediaBlock) -> Out<'_> {
    let source = match (m.encoding, split_data_url(&m.data)) {
        (MediaEncoding::Url, Some((mime, data))) => {
            out!({"type": "base64", "media_type": media_type(mime), "data": data})
        }
        (MediaEncoding::Url, None) => out!({"type": "url", "url": m.data.as_str()}),
        (MediaEncoding::Base64, _) => {
            out!({"type": "base64", "media_type": media_type(&m.mime_type), "data": m.data.as_str()})
        }
    };
    let kind = if m.is_image() { "image" } else { "document" };
    out!({"type": kind, "source": source})
}

fn assistant<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    let mut out = Vec::with_capacity(m.blocks.len());
    for b in &m.blocks {
        match b {
            Block::Thinking(t) => {
                match &t.meta {
                    Some(ProviderMeta::AnthropicRedacted { data }) => {
                        out.push(out!({"type": "redacted_thinking", "data": data.as_str()}));
                    }
                    Some(ProviderMeta::AnthropicSignature { signature }) => {
                        out.push(out!({"type": "thinking", "thinking": t.thought.as_str(), "signature": signature.as_str()}));
                    }
                    // The normaliser only leaves signed thinking for Anthropic.
                    _ => {}
                }
            }
            Block::Text(t) => out.push(text(&t.text)),
            Block::Code(c) => out.push(text(fenced(c))),
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                let id = p.call_id(&c.id, &name);
                let input = c.parameters.as_ref().map_or(out!({}), Out::from);
                out.push(out!({"type": "tool_use", "id": id, "name": name, "input": input}));
            }
            // The normaliser leaves only Anthropic's own blocks, replayed as they came.
            Block::ServerTool(s) => out.push(Out::from(&s.wire)),
            _ => {}
        }
    }
    out
}

fn tool_results<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    let mut out = Vec::new();
    let mut attachments = Vec::new();
    let mut current: Option<Obj<'a>> = None;
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                flush(&mut out, current.take(), std::mem::take(&mut attachments));
                let mut tr = Obj::new();
                tr.insert("type", "tool_result");
                tr.insert("tool_use_id", p.result_id(&r.call_id));
                tr.insert("content", r.result_text());
                if r.error.is_some() {
                    tr.insert("is_error", true);
                }
                current = Some(tr);
            }
            // a tool this result loads (tool search run by the client): a `tool_reference`
            Block::ToolChange(c) => {
                if let Some(name) = c.tool_name() {
                    attachments
                        .push(out!({"type": "tool_reference", "tool_name": p.tool_name(name)}));
                }
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
fn flush<'a>(out: &mut Vec<Out<'a>>, current: Option<Obj<'a>>, mut attachments: Vec<Out<'a>>) {
    let Some(mut tr) = current else { return };
    // the tools a result loads (`tool_reference`) go after its other content, wherever the
    // history stored them
    attachments.sort_by_key(|a| a.get("type").and_then(Out::as_str) == Some("tool_reference"));
    if !attachments.is_empty() {
        if let Some(content) = tr.get_mut("content") {
            let first = match std::mem::replace(content, Out::Arr(Vec::new())) {
                Out::Str(s) => s,
                _ => Cow::Borrowed(""),
            };
            let mut parts = vec![text(first)];
            parts.extend(attachments);
            *content = Out::Arr(parts);
        }
    }
    out.push(Out::Obj(tr));
}

/// Every tool deferred leaves the model nothing to start from, not even a tool search
/// (ANT-54, `All tools cannot be deferred` [inferred]): the tools are sent without
/// `defer_loading`, each named in a `feature_unavailable` diagnostic.
fn undefer_all(tools: &mut [Out<'_>], p: &mut Projection) {
    let deferred = |t: &Out<'_>| match t {
        Out::Json(v) => v.get("defer_loading").and_then(Value::as_bool) == Some(true),
        other => {
            matches!(other.get("defer_loading"), Some(Out::Json(v)) if v.as_bool() == Some(true))
        }
    };
    if tools.is_empty() || !tools.iter().all(deferred) {
        return;
    }
    for t in tools.iter_mut() {
        if let Some(o) = t.as_obj_mut() {
            o.remove("defer_loading");
        }
    }
    p.note(
        DiagnosticCode::FeatureUnavailable,
        "every tool asks to be loaded by tool search (`deferLoading`), and at least one tool must be loaded (ANT-54): all are sent loaded".to_string(),
        None,
    );
}

/// With thinking on, Anthropic accepts no temperature other than 1 and no `top_p` below 0.95;
/// such settings are left out for this request and a diagnostic says so.
fn sampling(body: &mut Obj<'_>, o: &RenderOptions, thinking: bool, p: &mut Projection) {
    let (temperature, top_p) = claude_sampling(o, thinking, p);
    if let Some(t) = temperature {
        body.insert("temperature", t);
    }
    if let Some(t) = top_p {
        body.insert("top_p", t);
    }
}

/// One entry of `tools`; a missing schema is an open object.
fn declaration<'a>(
    name: String,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
) -> Out<'a> {
    let mut d = named(name, description);
    d.insert(
        "input_schema",
        schema.map_or_else(|| out!({"type": "object"}), Out::from),
    );
    Out::Obj(d)
}
