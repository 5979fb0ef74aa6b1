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
//! Calls and responses carry no `id`: Vertex AI rejects the field on older API revisions, and
//! the normaliser already guarantees what pairing by order and name needs (every result right
//! after its call, in call order). No wire ids means an empty `idMap` for this target.
//! Declarations use `parametersJsonSchema`, which takes JSON Schema as declared.

use crate::providers::common::obj;
use serde_json::{json, Map, Value};

use crate::ids::IdFormat;
use crate::model::{
    split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker,
    ToolResponseBlock,
};
use crate::normalize::declarations::HISTORY_TOOL_DESCRIPTION;
use crate::normalize::Normalized;
use crate::providers::common::{declared_names, fenced, media_type, system_text};
use crate::providers::Projection;
use crate::render::{gemini_thinking, Resolved};
use crate::{RenderOptions, ToolChoice};

/// The part-level signature field.
const SIGNATURE: &str = "thoughtSignature";

/// Builds the whole request body (the model travels in the URL, not here).
pub(crate) fn body(n: &Normalized, o: &RenderOptions, r: &Resolved) -> (Value, Projection) {
    let mut p = Projection::with_leading_letter_names(IdFormat::OpenAi);
    p.reserve_names(declared_names(o));
    // Declared names are projected before any name of the history.
    let mut declarations: Vec<Value> = o
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
        declarations.push(declaration(
            &projected,
            Some(HISTORY_TOOL_DESCRIPTION),
            None,
        ));
    }
    let mut body = Map::new();
    body.insert("contents".into(), contents(&n.transcript.messages, &mut p));
    let system = system_text(o, &n.system);
    if !system.is_empty() {
        body.insert(
            "systemInstruction".into(),
            json!({"parts": [{"text": system}]}),
        );
    }
    let (server, include_invocations, note) =
        r.server_tools
            .for_gemini(&o.model, r.caps, declarations.len());
    p.extend_notes(note);
    let functions = !declarations.is_empty();
    let mut tools = Vec::with_capacity(1 + server.len());
    if functions {
        tools.push(json!({ "functionDeclarations": declarations }));
    }
    tools.extend(server);
    if !tools.is_empty() {
        body.insert("tools".into(), Value::Array(tools));
    }
    // `functionCallingConfig` only with function declarations: Gemini refuses it without
    // ("Function calling config is set without function_declarations").
    let mut config = match (&r.controls.tool_choice, functions) {
        (_, true) if r.controls.no_calls_with_json => tool_config(&ToolChoice::None, &mut p),
        (Some(choice), true) => tool_config(choice, &mut p),
        _ => Map::new(),
    };
    if include_invocations {
        config.insert("includeServerSideToolInvocations".into(), true.into());
    }
    if !config.is_empty() {
        body.insert("toolConfig".into(), Value::Object(config));
    }
    let config = generation_config(n, o, r, &mut p);
    if !config.is_empty() {
        body.insert("generationConfig".into(), Value::Object(config));
    }
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Value::Object(body), p)
}

/// `generationConfig`: output limit, sampling and the thinking setting (empty when none is set).
fn generation_config(
    n: &Normalized,
    o: &RenderOptions,
    r: &Resolved,
    p: &mut Projection,
) -> Map<String, Value> {
    let mut c = Map::new();
    if let Some(max) = o.max_tokens {
        c.insert("maxOutputTokens".into(), max.into());
    }
    if let Some(t) = o.temperature {
        c.insert("temperature".into(), t.into());
    }
    if let Some(t) = o.top_p {
        c.insert("topP".into(), t.into());
    }
    if !r.controls.stop.is_empty() {
        c.insert("stopSequences".into(), r.controls.stop.clone().into());
    }
    if let Some(crate::ResponseFormat::JsonSchema { schema, .. }) = &r.controls.response_format {
        c.insert("responseMimeType".into(), "application/json".into());
        c.insert("responseJsonSchema".into(), schema.clone());
    }
    let (thinking, notes) = gemini_thinking(o, r, n.thinking_enabled);
    if let Some(t) = thinking {
        c.insert("thinkingConfig".into(), t);
    }
    for d in notes {
        p.extend_notes(Some(d));
    }
    c
}

/// `toolConfig.functionCallingConfig`: `AUTO`, `NONE`, `ANY`, or `ANY` limited to one name
/// (`allowedFunctionNames`, GEM-19).
fn tool_config(choice: &ToolChoice, p: &mut Projection) -> Map<String, Value> {
    let config = match choice {
        ToolChoice::Auto => obj!({"mode": "AUTO"}),
        ToolChoice::None => obj!({"mode": "NONE"}),
        ToolChoice::Required => obj!({"mode": "ANY"}),
        ToolChoice::Tool(name) => {
            obj!({"mode": "ANY", "allowedFunctionNames": vec![Value::from(p.tool_name(name))]})
        }
    };
    let mut m = Map::new();
    m.insert("functionCallingConfig".into(), config);
    m
}

/// One `functionDeclarations` entry.
fn declaration(name: &str, description: Option<&str>, schema: Option<Value>) -> Value {
    let mut d = Map::new();
    d.insert("name".into(), name.into());
    if let Some(desc) = description {
        d.insert("description".into(), desc.into());
    }
    if let Some(schema) = schema {
        // JSON Schema as declared (`parameters` takes only an OpenAPI subset and rejects
        // `$schema`, `additionalProperties`, `const`…).
        d.insert("parametersJsonSchema".into(), schema);
    }
    Value::Object(d)
}

fn contents(msgs: &[Message], p: &mut Projection) -> Value {
    let mut out = Vec::with_capacity(msgs.len());
    let mut i = 0;
    while let Some(m) = msgs.get(i) {
        i += 1;
        match m.speaker {
            Speaker::Ai => out.push(obj!({"role": "model", "parts": model_parts(m, p)})),
            Speaker::Tool => {
                let mut parts = response_parts(m, p);
                // Tool results and the user's next words share one user content, results first.
                if let Some(next) = msgs.get(i).filter(|n| n.speaker == Speaker::Human) {
                    parts.extend(user_parts(next));
                    i += 1;
                }
                out.push(obj!({"role": "user", "parts": parts}));
            }
            Speaker::Human | Speaker::System => {
                out.push(obj!({"role": "user", "parts": user_parts(m)}))
            }
        }
    }
    Value::Array(out)
}

fn user_parts(m: &Message) -> Vec<Value> {
    m.blocks.iter().filter_map(content_part).collect()
}

/// Text, code and media: the blocks a user content can hold.
fn content_part(b: &Block) -> Option<Value> {
    match b {
        Block::Text(t) => Some(obj!({"text": t.text.as_str()})),
        Block::Code(c) => Some(obj!({"text": fenced(c)})),
        Block::Media(m) => Some(inline_data(m)),
        _ => None,
    }
}

/// Inline media. (The normaliser turned media Gemini cannot take inline — remote URLs — into
/// text notes.)
fn inline_data(m: &MediaBlock) -> Value {
    let (mime, data) = match (m.encoding, split_data_url(&m.data)) {
        (MediaEncoding::Url, Some((mime, data))) => (media_type(mime), data),
        _ => (media_type(&m.mime_type), m.data.as_str()),
    };
    obj!({"inlineData": obj!({"mimeType": mime, "data": data})})
}

/// A part with its thought signature, when the block carries one.
fn signed(mut part: Map<String, Value>, meta: Option<&ProviderMeta>) -> Value {
    if let Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) = meta {
        part.insert(SIGNATURE.into(), thought_signature.clone().into());
    }
    Value::Object(part)
}

fn model_parts(m: &Message, p: &mut Projection) -> Vec<Value> {
    let mut out = Vec::with_capacity(m.blocks.len());
    for b in &m.blocks {
        match b {
            Block::Text(t) => {
                let mut part = Map::new();
                part.insert("text".into(), t.text.clone().into());
                out.push(signed(part, t.meta.as_ref()));
            }
            Block::Code(c) => out.push(obj!({"text": fenced(c)})),
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                p.register_call(&c.id, &name);
                let args = c
                    .parameters
                    .clone()
                    .unwrap_or_else(|| Value::Object(serde_json::Map::new()));
                let mut part = Map::new();
                part.insert("functionCall".into(), obj!({"name": name, "args": args}));
                out.push(signed(part, c.meta.as_ref()));
            }
            // The normaliser leaves only Gemini's own parts, replayed as they came.
            Block::ServerTool(s) => out.push(s.wire.clone()),
            // The normaliser leaves no thinking for Gemini.
            _ => {}
        }
    }
    out
}

/// One `functionResponse` part per result, in order, then the text attached to the results.
/// Media left in a tool message (Gemini 3 takes it, the normaliser moved any other) goes inside
/// the response of the result it follows, as `functionResponse.parts[].inlineData`.
fn response_parts(m: &Message, p: &mut Projection) -> Vec<Value> {
    let mut responses: Vec<Map<String, Value>> = Vec::new();
    let mut attachments = Vec::new();
    for b in &m.blocks {
        match (b, responses.last_mut()) {
            (Block::ToolResponse(r), _) => responses.push(function_response(r, p)),
            (Block::Media(media), Some(last)) => {
                if let Some(Value::Object(fr)) = last.get_mut("functionResponse") {
                    if let Value::Array(parts) = fr
                        .entry("parts")
                        .or_insert_with(|| Value::Array(Vec::new()))
                    {
                        parts.push(inline_data(media));
                    }
                }
            }
            (other, _) => attachments.extend(content_part(other)),
        }
    }
    responses
        .into_iter()
        .map(Value::Object)
        .chain(attachments)
        .collect()
}

fn function_response(r: &ToolResponseBlock, p: &mut Projection) -> Map<String, Value> {
    let name = match p.call_name(&r.call_id) {
        Some(name) => name,
        None => p.tool_name(r.tool_name.as_deref().unwrap_or_default()),
    };
    let response = match (&r.error, &r.result) {
        (Some(_), _) => obj!({"error": r.text()}),
        (None, Some(Value::Object(o))) => Value::Object(o.clone()),
        (None, _) => obj!({"output": r.text()}),
    };
    let mut part = Map::new();
    part.insert(
        "functionResponse".into(),
        obj!({"name": name, "response": response}),
    );
    part
}
