//! Ollama `/api/chat` request bodies: a pure projection of the normalised transcript.
//!
//! - `messages`: `{role, content}` with `role` `system` | `user` | `assistant` | `tool` and
//!   `content` one string; a user message's images go in `images` as bare base64 (no `data:`
//!   URL, OLL-03); an assistant's reasoning in `thinking` and its calls in `tool_calls`
//!   (`{id, function: {name, arguments}}`, the arguments an object, OLL-02); each result a
//!   `tool` message naming the tool (`tool_name`) and, for Ollama 0.12.10 and later, the call
//!   (`tool_call_id`). Older servers match results by name and order (OLL-01): results keep
//!   their calls' order, so parallel calls of one tool are told apart there by position.
//!   (No per-message note: a projection's notes must not depend on the history, or the
//!   incremental renderer could never move its boundary.)
//! - `tools`: OpenAI-shaped function declarations. Ollama has no `tool_choice`: `none` leaves
//!   the tools out, a forced choice is sent as the default (`tool_choice_lowered`).
//! - `think`: `true` / `false`, or the effort (`low` | `medium` | `high`) for the models that
//!   take one (gpt-oss), only when the options say; `format`: the JSON Schema of a response
//!   format; `options`: `num_predict`, `temperature`, `top_p`, `stop`.
//! - No `num_ctx` by default: the server picks the context length by the machine's memory
//!   (4k / 32k / 256k since 0.15.3, `OLLAMA_CONTEXT_LENGTH`), a request that names another
//!   reloads the model, and one larger than memory fails. A caller sets it with
//!   `providerOptions: {ollama: {options: {num_ctx: 32768}}}`, merged into `options`.
//! - No `stream` member: the caller's HTTP layer writes it (Ollama streams unless it is
//!   `false`).

use crate::json::out::{out, Obj, Out};

use crate::ids::IdFormat;
use crate::model::{split_data_url, Block, Message, Speaker};
use crate::normalize::Normalized;
use crate::providers::body::tool_declarations;
use crate::providers::common::{declared_names, joined_text, plain_text, system_text};
use crate::providers::openai_chat::render::declaration as openai_chat_declaration;
use crate::providers::Projection;
use crate::request::Resolved;
use crate::vocab::DiagnosticCode;
use crate::{RenderOptions, ToolChoice};

/// Builds the whole request body.
pub fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
    let mut p = Projection::new(IdFormat::OpenAi);
    p.reserve_names(declared_names(o));
    let mut body = Obj::new();
    if r.model_in_body() {
        body.insert("model", &o.model);
    }
    let tools = tool_declarations(n, o, &mut p, openai_chat_declaration, false);
    let mut messages = Vec::with_capacity(n.transcript.messages.len() + 1);
    let system = system_text(o, &n.system);
    if !system.is_empty() {
        messages.push(out!({"role": "system", "content": system}));
    }
    for m in &n.transcript.messages {
        match m.speaker {
            Speaker::Ai => messages.push(Out::Obj(assistant(m, &mut p, n.reasoning_field))),
            Speaker::Tool => tool_run(m, &mut p, &mut messages),
            Speaker::Human => messages.push(Out::Obj(user(m))),
            Speaker::System => {
                let text = joined_text(&m.blocks).unwrap_or_default();
                messages.push(out!({"role": "system", "content": text}));
            }
        }
    }
    body.insert("messages", messages);
    if !tools.is_empty() {
        match &r.controls.tool_choice {
            Some(ToolChoice::None) => p.note(
                DiagnosticCode::ToolChoiceLowered,
                "Ollama's /api/chat has no `tool_choice`: toolChoice `none` left the tools out of this request (OLL-05)".into(),
                None,
            ),
            Some(choice @ (ToolChoice::Required | ToolChoice::Tool(_))) => {
                p.note(
                    DiagnosticCode::ToolChoiceLowered,
                    format!("Ollama's /api/chat has no `tool_choice`: toolChoice {choice} was sent as the default, `auto` (OLL-05)"),
                    None,
                );
                body.insert("tools", tools);
            }
            _ => body.insert("tools", tools),
        }
    }
    if let Some(think) = super::thinking::think(o, r, &mut p) {
        body.insert("think", think);
    }
    if let Some(format) = &r.controls.response_format {
        let crate::ResponseFormat::JsonSchema { schema, .. } = format;
        body.insert("format", schema);
    }
    let mut options = Obj::new();
    if let Some(max) = r.limits.max_tokens {
        options.insert("num_predict", max);
    }
    crate::providers::common::insert_sampling(&mut options, o, r, &mut p);
    if !r.controls.stop.is_empty() {
        options.insert("stop", Out::strs(&r.controls.stop));
    }
    if !options.is_empty() {
        body.insert("options", Out::Obj(options));
    }
    // `providerOptions` (`options.num_ctx`, `keep_alive`, …), then `extra`, are added by
    // `render::project`.
    (Out::Obj(body), p)
}

/// A user message: its text in `content`, its images as bare base64 in `images` (OLL-03).
fn user(m: &Message) -> Obj<'_> {
    let mut texts = Vec::new();
    let mut images = Vec::new();
    for b in &m.blocks {
        match b {
            // (The normaliser leaves only the media the target takes: images, inline.)
            Block::Media(media) => {
                let data = split_data_url(&media.data).map_or(media.data.as_str(), |(_, d)| d);
                images.push(Out::from(data));
            }
            other => texts.extend(plain_text(other)),
        }
    }
    let mut msg = Obj::new();
    msg.insert("role", "user");
    msg.insert("content", texts.join("\n\n"));
    if !images.is_empty() {
        msg.insert("images", images);
    }
    msg
}

/// An assistant message: text, reasoning in `thinking` (where the model takes it back) and
/// calls, each with its id (OLL-01).
fn assistant<'a>(m: &'a Message, p: &mut Projection, reasoning: bool) -> Obj<'a> {
    let mut calls = Vec::new();
    let mut thinking: Vec<&str> = Vec::new();
    for b in &m.blocks {
        match b {
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                let id = p.call_id(&c.id, &name);
                let args = c.parameters.as_ref().map_or(out!({}), Out::from);
                calls.push(out!({"id": id, "function": out!({"name": name, "arguments": args})}));
            }
            Block::Thinking(t) if reasoning && !t.thought.is_empty() => thinking.push(&t.thought),
            _ => {}
        }
    }
    let mut msg = Obj::new();
    msg.insert("role", "assistant");
    msg.insert("content", joined_text(&m.blocks).unwrap_or_default());
    if !thinking.is_empty() {
        msg.insert("thinking", thinking.join("\n\n"));
    }
    if !calls.is_empty() {
        msg.insert("tool_calls", calls);
    }
    msg
}

/// One `tool` message per result, in call order, naming the tool and the call; text attached
/// to a result (notes, captions) joins its content.
fn tool_run<'a>(m: &'a Message, p: &mut Projection, out: &mut Vec<Out<'a>>) {
    let mut current: Option<Obj<'a>> = None;
    let mut content = String::new();
    let flush = |cur: Option<Obj<'a>>, content: &mut String, out: &mut Vec<Out<'a>>| {
        if let Some(mut msg) = cur {
            msg.insert("content", std::mem::take(content));
            out.push(Out::Obj(msg));
        }
    };
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                flush(current.take(), &mut content, out);
                let mut msg = Obj::new();
                msg.insert("role", "tool");
                let name = p
                    .call_name(&r.call_id)
                    .or_else(|| r.tool_name.as_deref().map(|n| p.tool_name(n)))
                    .unwrap_or_default();
                msg.insert("tool_name", name);
                msg.insert("tool_call_id", p.result_id(&r.call_id));
                content = r.result_text().into_owned();
                current = Some(msg);
            }
            other => {
                if let (Some(t), true) = (plain_text(other), current.is_some()) {
                    content.push_str("\n\n");
                    content.push_str(&t);
                }
            }
        }
    }
    flush(current.take(), &mut content, out);
}
