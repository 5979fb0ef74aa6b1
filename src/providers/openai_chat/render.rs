//! Chat Completions request bodies — OpenAI's and the OpenAI-compatible dialects (Mistral,
//! Kimi, DeepSeek, generic servers): a pure projection of the normalised transcript.

use std::borrow::Cow;

use crate::json::out::{out, Obj, Out, NULL};
use serde_json::{Map, Value};

use crate::ids::IdFormat;
use crate::model::{
    split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker, ThinkingBlock,
};
use crate::normalize::synthesize::REASONING_CONTENT_FIELD;
use crate::normalize::Normalized;
use crate::providers::body::tool_declarations;
use crate::providers::common::{
    declared_names, joined_text, marked_system, media_type, only_plain_text, plain_text,
    system_text,
};
use crate::providers::Projection;
use crate::request::Resolved;
use crate::vocab::{ChatDialect, Provider};
use crate::{RenderOptions, ToolChoice};

/// How a chat dialect differs from OpenAI's own Chat Completions.
#[derive(Debug, Clone)]
pub(crate) struct Dialect {
    /// Tool-call id format.
    pub ids: IdFormat,
    /// Name of the output-limit field.
    pub max_tokens_field: &'static str,
    /// Any `reasoning_effort` is sent as given (OpenAI); the other dialects send one only at a
    /// level the model's row of the capability table takes (`thinking.rs`).
    pub reasoning_effort: bool,
    /// The assistant field reasoning text goes back in, when the target takes it.
    pub reasoning_field: Option<String>,
    /// Tool messages carry the called function's `name` (Mistral, MIS-06).
    pub tool_result_name: bool,
    /// A final assistant message is marked `prefix: true` (Mistral, MIS-05).
    pub prefix_final_assistant: bool,
    /// `reasoning_effort` is the thinking switch: on is at least `high`, off is `none`
    /// (Mistral's adjustable models, MIS-09).
    pub effort_is_switch: bool,
}

impl Dialect {
    /// The dialect of a chat target.
    pub fn of(o: &RenderOptions, n: &Normalized) -> Dialect {
        let reasoning = |on: bool| on.then(|| REASONING_CONTENT_FIELD.to_string());
        let base = Dialect {
            ids: IdFormat::OpenAi,
            max_tokens_field: "max_tokens",
            reasoning_effort: false,
            reasoning_field: None,
            tool_result_name: false,
            prefix_final_assistant: false,
            effort_is_switch: false,
        };
        match o.provider.chat_dialect() {
            Some(ChatDialect::OpenAi) => Dialect {
                max_tokens_field: "max_completion_tokens",
                reasoning_effort: true,
                ..base
            },
            Some(ChatDialect::Mistral) => Dialect {
                ids: IdFormat::Mistral,
                tool_result_name: true,
                prefix_final_assistant: true,
                effort_is_switch: true,
                ..base
            },
            Some(ChatDialect::Kimi) => Dialect {
                ids: IdFormat::Kimi,
                reasoning_field: reasoning(n.reasoning_field),
                ..base
            },
            Some(ChatDialect::DeepSeek) => Dialect {
                reasoning_field: reasoning(n.reasoning_field),
                ..base
            },
            // An OpenAI-compatible server, as `compat` describes it (the providers of the other
            // wire APIs, without a chat dialect, never reach this adapter).
            Some(ChatDialect::Compatible) | None => {
                let c = o.compat.clone().unwrap_or_default();
                let max_len = u8::try_from(c.max_id_len).unwrap_or(u8::MAX);
                Dialect {
                    ids: if c.alphanumeric_ids || c.max_id_len != 40 {
                        IdFormat::Compat {
                            max_len,
                            alphanumeric: c.alphanumeric_ids,
                        }
                    } else {
                        IdFormat::OpenAi
                    },
                    // A model that needs its reasoning back (GLM-5, KIM-12) gets it in
                    // `reasoning_content` unless the caller names the server's field.
                    reasoning_field: c
                        .reasoning_field
                        .or_else(|| reasoning(n.reasoning_field))
                        .filter(|_| n.reasoning_field),
                    ..base
                }
            }
        }
    }
}

/// A function tool: `{"type": "function", "function": {name, description?, parameters?}}`.
/// A Chat Completions tool declaration (`{"type":"function","function":{…}}`); Ollama's
/// native `/api/chat` takes the same shape.
pub(crate) fn declaration<'a>(
    name: String,
    description: Option<&'a str>,
    parameters: Option<&'a Value>,
) -> Out<'a> {
    let mut f = crate::providers::common::named(name, description);
    if let Some(params) = parameters {
        f.insert("parameters", params);
    }
    out!({"type": "function", "function": f})
}

/// Builds the whole request body.
pub fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
    let d = Dialect::of(o, n);
    let mut p = Projection::new(d.ids);
    p.reserve_names(declared_names(o));
    let mut body = Obj::new();
    if r.model_in_body() {
        body.insert("model", &o.model);
    }
    let tools = tool_declarations(n, o, &mut p, declaration, false);
    let mut messages = Vec::with_capacity(n.transcript.messages.len() + 1);
    let system = system_text(o, &n.system);
    if r.cache.system_breakpoint.is_none() && !system.is_empty() {
        messages.push(out!({"role": "system", "content": system}));
    } else if let Some(content) = marked_system(system, "text", &r.cache, &mut body, &mut p) {
        // OAC-31: the breakpoint sits on a text part of the system message
        messages.push(out!({"role": "system", "content": content}));
    }
    let last = n.transcript.messages.len().saturating_sub(1);
    for (i, m) in n.transcript.messages.iter().enumerate() {
        match m.speaker {
            Speaker::Ai => {
                let mut msg = assistant(m, &mut p, &d);
                if d.prefix_final_assistant && i == last {
                    msg.insert("prefix", true);
                }
                messages.push(Out::Obj(msg));
            }
            Speaker::Tool => tool_run(m, &mut p, &d, &mut messages),
            Speaker::Human => {
                messages.push(out!({"role": "user", "content": user_content(&m.blocks)}))
            }
            Speaker::System => {
                let text = joined_text(&m.blocks).unwrap_or_default();
                messages.push(out!({"role": "system", "content": text}));
            }
        }
    }
    body.insert("messages", messages);
    if !tools.is_empty() {
        body.insert("tools", tools);
        if let Some(choice) = &r.controls.tool_choice {
            body.insert("tool_choice", tool_choice(choice, o.provider, &mut p));
        }
    }
    if let Some(search) = &r.server_tools.web_search_options {
        body.insert("web_search_options", search);
    }
    if let Some(max) = r.limits.max_tokens {
        body.insert(d.max_tokens_field, max);
    }
    if !r.controls.stop.is_empty() {
        body.insert("stop", Out::strs(&r.controls.stop));
    }
    if let Some(format) = &r.controls.response_format {
        let mut schema = Map::new();
        crate::providers::common::json_schema_members(format, &mut schema);
        body.insert(
            "response_format",
            out!({"type": "json_schema", "json_schema": Value::Object(schema)}),
        );
    }
    let thinking = super::thinking::chat_thinking(o, r, d.reasoning_effort, d.effort_is_switch);
    if let Some(kind) = thinking.switch {
        let mut t = Obj::new();
        t.insert("type", kind);
        if thinking.keep_all {
            t.insert("keep", "all");
        }
        body.insert("thinking", Out::Obj(t));
    }
    if let Some(effort) = thinking.effort {
        body.insert("reasoning_effort", effort);
    }
    if let Some(summary) = r.thinking.as_ref().and_then(|t| t.summary.as_deref()) {
        let why = format!("Chat Completions has no reasoning summary setting; summary `{summary}` was not sent to `{}`", o.provider);
        not_sent(&mut p, why, "$.thinking.summary");
    }
    p.extend_notes(thinking.notes);
    if let Some(key) = &r.cache.key {
        body.insert("prompt_cache_key", key.as_str());
    }
    crate::providers::common::insert_sampling(&mut body, o, r, &mut p);
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Out::Obj(body), p)
}

/// `tool_choice`: `"auto"`, `"none"`, `"required"` (Mistral: `"any"`, the value its docs
/// give) or `{"type": "function", "function": {"name": …}}`.
fn tool_choice(choice: &ToolChoice, provider: Provider, p: &mut Projection) -> Out<'static> {
    match choice {
        ToolChoice::Auto => "auto".into(),
        ToolChoice::None => "none".into(),
        ToolChoice::Required if provider == Provider::Mistral => "any".into(),
        ToolChoice::Required => "required".into(),
        ToolChoice::Tool(name) => {
            out!({"type": "function", "function": out!({"name": p.tool_name(name)})})
        }
    }
}

/// User content: one string when it is only text, else an array of parts.
fn user_content(blocks: &[Block]) -> Out<'_> {
    if only_plain_text(blocks) {
        return Out::Str(joined_text(blocks).unwrap_or_default());
    }
    Out::Arr(
        blocks
            .iter()
            .filter_map(|b| match b {
                Block::Media(m) => Some(media_part(m)),
                other => plain_text(other).map(|t| out!({"type": "text", "text": t})),
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

fn media_part(m: &MediaBlock) -> Out<'_> {
    let mime = media_type(&m.mime_type);
    if m.is_image() {
        out!({"type": "image_url", "image_url": out!({"url": data_url(m)})})
    } else if mime.starts_with("audio/") {
        let format = if mime == "audio/wav" { "wav" } else { "mp3" };
        // input_audio takes bare base64
        let data = split_data_url(&m.data).map_or(m.data.as_str(), |(_, d)| d);
        out!({"type": "input_audio", "input_audio": out!({"data": data, "format": format})})
    } else {
        let filename = m
            .filename
            .clone()
            .unwrap_or_else(|| "attachment.pdf".into());
        out!({"type": "file", "file": out!({"filename": filename, "file_data": data_url(m)})})
    }
}

fn assistant<'a>(m: &'a Message, p: &mut Projection, d: &Dialect) -> Obj<'a> {
    let text = joined_text(&m.blocks);
    let mut calls = Vec::new();
    let mut reasoning: Option<Vec<&str>> = None;
    let mut details: Vec<&Value> = Vec::new();
    for b in &m.blocks {
        match b {
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                let id = p.call_id(&c.id, &name);
                let args = c
                    .parameters
                    .as_ref()
                    .map_or_else(|| "{}".to_string(), crate::json::write::to_string);
                calls.push(out!({"id": id, "type": "function", "function": out!({"name": name, "arguments": args})}));
            }
            // The normaliser leaves OpenRouter's details only for the model that made them on
            // OpenRouter (ORT-02): they go back whole, in place of the text.
            Block::Thinking(ThinkingBlock {
                meta: Some(ProviderMeta::OpenRouterReasoningDetails { details: d }),
                ..
            }) => details.extend(d),
            // The normaliser leaves thinking only where the dialect takes reasoning text back.
            Block::Thinking(t) => reasoning.get_or_insert_with(Vec::new).push(&t.thought),
            _ => {}
        }
    }
    let mut msg = Obj::new();
    msg.insert("role", "assistant");
    msg.insert("content", text.map_or(NULL, Out::from));
    if let (Some(field), Some(parts)) = (&d.reasoning_field, reasoning) {
        let text: Vec<&str> = parts.into_iter().filter(|t| !t.is_empty()).collect();
        msg.insert(field.clone(), text.join("\n\n"));
    }
    if !details.is_empty() {
        msg.insert(
            "reasoning_details",
            Out::Arr(details.into_iter().map(Out::from).collect()),
        );
    }
    if !calls.is_empty() {
        msg.insert("tool_calls", calls);
    }
    msg
}

/// The result being written: provider id, the called function's name for dialects that send
/// it, content.
struct Pending<'a> {
    id: String,
    name: Option<String>,
    content: Cow<'a, str>,
}

/// One tool message per result, in call order; text attached to a result (notes, captions)
/// joins its content. (The normaliser already moved media out of tool results for chat
/// targets, OAC-07.)
fn tool_run<'a>(m: &'a Message, p: &mut Projection, d: &Dialect, out: &mut Vec<Out<'a>>) {
    let mut current: Option<Pending> = None;
    let flush = |cur: Option<Pending<'a>>, out: &mut Vec<Out<'a>>| {
        if let Some(c) = cur {
            let mut msg = Obj::new();
            msg.insert("role", "tool");
            msg.insert("tool_call_id", c.id);
            if let Some(name) = c.name {
                msg.insert("name", name);
            }
            msg.insert("content", c.content);
            out.push(Out::Obj(msg));
        }
    };
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                flush(current.take(), out);
                current = Some(Pending {
                    name: if d.tool_result_name {
                        p.call_name(&r.call_id)
                    } else {
                        None
                    },
                    id: p.result_id(&r.call_id),
                    content: r.result_text(),
                });
            }
            other => {
                if let (Some(t), Some(c)) = (plain_text(other), current.as_mut()) {
                    let content = c.content.to_mut();
                    content.push_str("\n\n");
                    content.push_str(&t);
                }
            }
        }
    }
    flush(current.take(), out);
}

/// Reports a thinking setting the dialect has no field for (`thinking_budget_adjusted`).
fn not_sent(p: &mut Projection, why: String, path: &str) {
    p.extend_notes(Some(
        crate::vocab::Diagnostic::new(
            crate::vocab::DiagnosticCode::ThinkingBudgetAdjusted,
            crate::vocab::FaultClass::ProviderProjection,
            why,
        )
        .at_path(path),
    ));
}
