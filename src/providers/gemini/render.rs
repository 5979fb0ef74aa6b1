//! Gemini generateContent request bodies (Google AI and Vertex AI): a pure projection of the
//! normalised transcript.
//!
//! The model is not part of the body: it goes in the URL, `models/{model}:generateContent`
//! (`…/publishers/google/models/{model}:generateContent` on Vertex AI). The body holds, in this
//! order, `contents`, `systemInstruction`, `tools`, `generationConfig` and the caller's extra
//! fields.
//!
//! - A human message is a `user` content of `text` and `inlineData` parts.
//! - An AI message is a `model` content whose parts follow the block order: `text` parts and
//!   `functionCall` parts (`{name, args}`), each with its `thoughtSignature` as a part-level
//!   sibling when the normaliser left one (same-model signatures, Gemini 3 placeholders).
//! - A tool message is ONE `user` content with one `functionResponse` part per result, in call
//!   order, never signed (GEM-01, GEM-06); media a result returned goes inside its response
//!   (`functionResponse.parts`, Gemini 3, GEM-17), text attached to a result follows the
//!   responses, and the next human message joins the same content (GEM-04: no two consecutive
//!   user contents) — unless it carries media and the content answers several parallel calls,
//!   where the normaliser put a bridging model turn between them (GEM-18).
//!
//! Call ids (GEM-22): a call turn whose calls all carry the id Gemini minted sends it back,
//! `functionCall.id` and the same `functionResponse.id`, on models that take ids (Gemini 3) and
//! endpoints that are not the stable `v1` API (which refuses the field); the `idMap` lists
//! those ids. Every other call turn carries no ids and pairs by order and name, which the
//! normaliser guarantees (every result right after its call, in call order). See
//! [`super::call_ids`].
//! Declarations use `parametersJsonSchema`, which takes JSON Schema as declared.

use crate::json::out::{out, Obj, Out};
use serde_json::Value;

use super::thinking::gemini_thinking;
use crate::ids::IdFormat;
use crate::model::{
    split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta, ToolResponseBlock,
};
use crate::normalize::Normalized;
use crate::providers::body::{results_then_user, tool_declarations, ListTurns};
use crate::providers::common::{declared_names, fenced, media_type, named, system_text};
use crate::providers::Projection;
use crate::request::Resolved;
use crate::{RenderOptions, ToolChoice};

/// The part-level signature field.
const SIGNATURE: &str = "thoughtSignature";

/// Builds the whole request body (the model travels in the URL, not here).
pub(crate) fn body<'a>(
    n: &'a Normalized,
    o: &'a RenderOptions,
    r: &'a Resolved,
) -> (Out<'a>, Projection) {
    let mut p = Projection::with_leading_letter_names(IdFormat::OpenAi);
    p.reserve_names(declared_names(o));
    // Declared names are projected before any name of the history.
    let declarations = tool_declarations(n, o, &mut p, declaration, false);
    let mut body = Obj::new();
    // The URL names the model on Google AI Studio (`models/{model}:generateContent`).
    if r.model_in_body() {
        body.insert("model", &o.model);
    }
    super::call_ids::echo_ids(
        &n.transcript.messages,
        &r.caps,
        o.endpoint.as_deref(),
        &mut p,
    );
    body.insert("contents", contents(&n.transcript.messages, &mut p));
    let system = system_text(o, &n.system);
    if !system.is_empty() {
        body.insert(
            "systemInstruction",
            out!({"parts": vec![out!({"text": system})]}),
        );
    }
    let (server, include_invocations, note) =
        r.server_tools
            .for_gemini(&o.model, r.caps, declarations.len());
    p.extend_notes(note);
    let functions = !declarations.is_empty();
    let mut tools = Vec::with_capacity(1 + server.len());
    if functions {
        tools.push(out!({ "functionDeclarations": declarations }));
    }
    tools.extend(server.into_iter().map(Out::from));
    if !tools.is_empty() {
        body.insert("tools", tools);
    }
    // `functionCallingConfig` only with function declarations: Gemini refuses it without
    // ("Function calling config is set without function_declarations").
    let mut config = match (&r.controls.tool_choice, functions) {
        (_, true) if r.controls.no_calls_with_json => tool_config(&ToolChoice::None, &mut p),
        (Some(choice), true) => tool_config(choice, &mut p),
        _ => Obj::new(),
    };
    if include_invocations {
        config.insert("includeServerSideToolInvocations", true);
    }
    if !config.is_empty() {
        body.insert("toolConfig", config);
    }
    let config = generation_config(n, o, r, &mut p);
    if !config.is_empty() {
        body.insert("generationConfig", config);
    }
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Out::Obj(body), p)
}

/// `generationConfig`: output limit, sampling and the thinking setting (empty when none is set).
fn generation_config<'a>(
    n: &Normalized,
    o: &RenderOptions,
    r: &'a Resolved,
    p: &mut Projection,
) -> Obj<'a> {
    let mut c = Obj::new();
    if let Some(max) = o.max_tokens {
        c.insert("maxOutputTokens", max);
    }
    if let Some(t) = o.temperature {
        c.insert("temperature", t);
    }
    if let Some(t) = o.top_p {
        c.insert("topP", t);
    }
    if !r.controls.stop.is_empty() {
        c.insert("stopSequences", Out::strs(&r.controls.stop));
    }
    if let Some(crate::ResponseFormat::JsonSchema { schema, .. }) = &r.controls.response_format {
        c.insert("responseMimeType", "application/json");
        c.insert("responseJsonSchema", schema);
    }
    let (thinking, notes) = gemini_thinking(o, r, n.thinking_enabled);
    if let Some(t) = thinking {
        c.insert("thinkingConfig", t);
    }
    for d in notes {
        p.extend_notes(Some(d));
    }
    c
}

/// `toolConfig.functionCallingConfig`: `AUTO`, `NONE`, `ANY`, or `ANY` limited to one name
/// (`allowedFunctionNames`, GEM-19).
fn tool_config(choice: &ToolChoice, p: &mut Projection) -> Obj<'static> {
    let config = match choice {
        ToolChoice::Auto => out!({"mode": "AUTO"}),
        ToolChoice::None => out!({"mode": "NONE"}),
        ToolChoice::Required => out!({"mode": "ANY"}),
        ToolChoice::Tool(name) => {
            out!({"mode": "ANY", "allowedFunctionNames": vec![Out::from(p.tool_name(name))]})
        }
    };
    let mut m = Obj::new();
    m.insert("functionCallingConfig", config);
    m
}

/// One `functionDeclarations` entry.
fn declaration<'a>(
    name: String,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
) -> Out<'a> {
    let mut d = named(name, description);
    if let Some(schema) = schema {
        // JSON Schema as declared (`parameters` takes only an OpenAPI subset and rejects
        // `$schema`, `additionalProperties`, `const`…).
        d.insert("parametersJsonSchema", schema);
    }
    Out::Obj(d)
}

fn contents<'a>(msgs: &'a [Message], p: &mut Projection) -> Vec<Out<'a>> {
    let turns = ListTurns {
        assistant_role: "model",
        member: "parts",
        assistant: model_parts,
        results: response_parts,
        user: user_parts,
    };
    results_then_user(msgs, p, &turns)
}

fn user_parts(m: &Message) -> Vec<Out<'_>> {
    m.blocks.iter().filter_map(content_part).collect()
}

/// Text, code and media: the blocks a user content can hold.
fn content_part(b: &Block) -> Option<Out<'_>> {
    match b {
        Block::Text(t) => Some(out!({"text": t.text.as_str()})),
        Block::Code(c) => Some(out!({"text": fenced(c)})),
        Block::Media(m) => Some(inline_data(m)),
        _ => None,
    }
}

/// Inline media. (The normaliser turned media Gemini cannot take inline — remote URLs — into
/// text notes.)
fn inline_data(m: &MediaBlock) -> Out<'_> {
    let (mime, data) = match (m.encoding, split_data_url(&m.data)) {
        (MediaEncoding::Url, Some((mime, data))) => (media_type(mime), data),
        _ => (media_type(&m.mime_type), m.data.as_str()),
    };
    out!({"inlineData": out!({"mimeType": mime, "data": data})})
}

/// A part with its thought signature, when the block carries one.
fn signed<'a>(mut part: Obj<'a>, meta: Option<&'a ProviderMeta>) -> Out<'a> {
    if let Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) = meta {
        part.insert(SIGNATURE, thought_signature);
    }
    Out::Obj(part)
}

fn model_parts<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    let mut out = Vec::with_capacity(m.blocks.len());
    for b in &m.blocks {
        match b {
            Block::Text(t) => {
                let mut part = Obj::new();
                part.insert("text", &t.text);
                out.push(signed(part, t.meta.as_ref()));
            }
            Block::Code(c) => out.push(out!({"text": fenced(c)})),
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                p.register_call(&c.id, &name);
                let args = c.parameters.as_ref().map_or(out!({}), Out::from);
                let mut call = Obj::new();
                call.insert("name", name);
                // echoed ids are the canonical ids, as Gemini minted them
                if p.emitted(&c.id).is_some() {
                    call.insert("id", &c.id);
                }
                call.insert("args", args);
                let mut part = Obj::new();
                part.insert("functionCall", call);
                out.push(signed(part, c.meta.as_ref()));
            }
            // The normaliser leaves only Gemini's own parts, replayed as they came.
            Block::ServerTool(s) => out.push(Out::from(&s.wire)),
            // The normaliser leaves no thinking for Gemini.
            _ => {}
        }
    }
    out
}

/// One `functionResponse` part per result, in order, then the text attached to the results.
/// Media left in a tool message (Gemini 3 takes it, the normaliser moved any other) goes inside
/// the response of the result it follows, as `functionResponse.parts[].inlineData`.
fn response_parts<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    let mut responses: Vec<Obj<'a>> = Vec::new();
    let mut attachments = Vec::new();
    for b in &m.blocks {
        match (b, responses.last_mut()) {
            (Block::ToolResponse(r), _) => responses.push(function_response(r, p)),
            (Block::Media(media), Some(last)) => {
                if let Some(fr) = last.get_mut("functionResponse").and_then(Out::as_obj_mut) {
                    if fr.get_mut("parts").is_none() {
                        fr.insert("parts", Vec::new());
                    }
                    if let Some(Out::Arr(parts)) = fr.get_mut("parts") {
                        parts.push(inline_data(media));
                    }
                }
            }
            (other, _) => attachments.extend(content_part(other)),
        }
    }
    responses
        .into_iter()
        .map(Out::Obj)
        .chain(attachments)
        .collect()
}

fn function_response<'a>(r: &'a ToolResponseBlock, p: &mut Projection) -> Obj<'a> {
    let name = match p.call_name(&r.call_id) {
        Some(name) => name,
        None => p.tool_name(r.tool_name.as_deref().unwrap_or_default()),
    };
    let response = match (&r.error, r.result.as_ref()) {
        (Some(_), _) => out!({"error": r.result_text()}),
        (None, Some(object @ Value::Object(_))) => Out::from(object),
        (None, _) => out!({"output": r.result_text()}),
    };
    let mut fr = Obj::new();
    fr.insert("name", name);
    if p.emitted(&r.call_id).is_some() {
        fr.insert("id", &r.call_id);
    }
    fr.insert("response", response);
    let mut part = Obj::new();
    part.insert("functionResponse", fr);
    part
}
