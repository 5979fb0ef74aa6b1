//! OpenAI Responses request bodies: a pure projection of the normalised transcript into
//! `input` items (stateless: the whole history goes in every request, `store: false`).

use std::borrow::Cow;

use crate::json::out::{out, Obj, Out, NULL};
use serde_json::{Map, Value};

use super::native::{self, Kind};
use crate::fast_map::HashMap;
use crate::ids::IdFormat;
use crate::model::{Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker};
use crate::normalize::Normalized;
use crate::providers::body::tool_declarations;
use crate::providers::common::{
    declared_names, joined_text, marked_system, media_type, only_plain_text, plain_text,
    system_text,
};
use crate::providers::Projection;
use crate::request::Resolved;
use crate::{RenderOptions, ToolChoice};

/// Reasoning effort when thinking is on and the caller names none.
const DEFAULT_EFFORT: &str = "medium";

/// What `include` asks for so that reasoning can be replayed statelessly.
const INCLUDE_ENCRYPTED_REASONING: &str = "reasoning.encrypted_content";

/// Builds the whole request body.
pub(crate) fn body<'a>(
    n: &'a Normalized,
    o: &'a RenderOptions,
    r: &'a Resolved,
) -> (Out<'a>, Projection) {
    let mut p = Projection::new(IdFormat::Responses);
    p.reserve_names(declared_names(o));
    let mut tools = tool_declarations(n, o, &mut p, declaration, false);
    tools.extend(r.server_tools.tools.iter().map(Out::from));
    let mut input = input(&n.transcript.messages, &mut p);
    let has_reasoning = input
        .iter()
        .any(|i| i.get("type").and_then(Out::as_str) == Some("reasoning"));

    let mut body = Obj::new();
    if r.model_in_body() {
        body.insert("model", &o.model);
    }
    let system = system_text(o, &n.system);
    if r.cache.system_breakpoint.is_none() && !system.is_empty() {
        body.insert("instructions", system);
    } else if let Some(content) = marked_system(system, "input_text", &r.cache, &mut body, &mut p) {
        // ORS-21: a breakpoint sits on an input part; the system prompt becomes the leading
        // developer message to carry it (`instructions` takes a string only).
        input.insert(
            0,
            out!({"type": "message", "role": "developer", "content": content}),
        );
    }
    body.insert("input", input);
    if !tools.is_empty() {
        body.insert("tools", tools);
        if let Some(choice) = &r.controls.tool_choice {
            body.insert("tool_choice", tool_choice(choice, &mut p));
        }
    }
    if n.thinking_enabled {
        let asked = o.thinking.as_ref().and_then(|t| t.effort.as_deref());
        let mut notes = Vec::new();
        // ORS-22: one of the model's levels (`max` from gpt-5.6 on)
        let effort = crate::providers::openai_chat::thinking::openai_effort(
            &o.model,
            asked.unwrap_or(DEFAULT_EFFORT),
            asked.is_some(),
            r.caps.efforts,
            &mut notes,
        );
        p.extend_notes(notes);
        let summary = o.thinking.as_ref().and_then(|t| t.summary.as_deref());
        let mut reasoning = Obj::new();
        reasoning.insert("effort", effort);
        // `none`: no summary is asked for
        if summary != Some("none") {
            reasoning.insert("summary", summary.unwrap_or("auto"));
        }
        body.insert("reasoning", reasoning);
    }
    if n.thinking_enabled || has_reasoning {
        body.insert("include", vec![Out::from(INCLUDE_ENCRYPTED_REASONING)]);
    }
    if let Some(format) = &r.controls.response_format {
        let mut f = Map::new();
        f.insert("type".into(), "json_schema".into());
        crate::providers::common::json_schema_members(format, &mut f);
        body.insert("text", out!({ "format": Value::Object(f) }));
    }
    // turnwire sends the whole history every time: nothing is stored server-side (ORS-05).
    body.insert("store", false);
    if let Some(max) = r.limits.max_tokens {
        body.insert("max_output_tokens", max);
    }
    if let Some(key) = &r.cache.key {
        body.insert("prompt_cache_key", key.as_str());
    }
    crate::providers::common::insert_sampling(&mut body, o, r, &mut p);
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Out::Obj(body), p)
}

/// `tool_choice`: `"auto"`, `"none"`, `"required"` or the flat `{"type": "function",
/// "name": …}` (ORS-14).
fn tool_choice(choice: &ToolChoice, p: &mut Projection) -> Out<'static> {
    match choice {
        ToolChoice::Auto => "auto".into(),
        ToolChoice::None => "none".into(),
        ToolChoice::Required => "required".into(),
        ToolChoice::Tool(name) => out!({"type": "function", "name": p.tool_name(name)}),
    }
}

/// One flat function tool; a missing schema is `null` (the API reference and the SDK's type
/// make `parameters` required, and nullable).
fn declaration<'a>(
    name: String,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
) -> Out<'a> {
    let mut t = Obj::new();
    t.insert("type", "function");
    t.insert("name", name);
    if let Some(d) = description {
        t.insert("description", d);
    }
    t.insert("parameters", schema.map_or(NULL, Out::from));
    // Responses defaults `strict` to true, which rewrites loose schemas; keep them as declared.
    t.insert("strict", false);
    Out::Obj(t)
}

/// The client-tool kind of each call rendered as a client-tool item, by projected call id: its
/// output is that kind's output item (ORS-19).
type NativeCalls = HashMap<String, &'static Kind>;

/// The calls whose client-tool item could not carry their result (a `tool_search_output`
/// holds a list of tools, not text): sent as a `function_call` and its output instead.
fn plain_calls(msgs: &[Message]) -> crate::fast_map::HashSet<&str> {
    let blocks = || msgs.iter().flat_map(|m| &m.blocks);
    let searches: crate::fast_map::HashSet<&str> = blocks()
        .filter_map(|b| match b {
            Block::ToolCall(c) => match &c.meta {
                Some(ProviderMeta::OpenAiItem { item_type, .. })
                    if item_type == "tool_search_call" =>
                {
                    Some(c.id.as_str())
                }
                _ => None,
            },
            _ => None,
        })
        .collect();
    if searches.is_empty() {
        return searches;
    }
    blocks()
        .filter_map(|b| match b {
            Block::ToolResponse(r)
                if searches.contains(r.call_id.as_str())
                    && (r.error.is_some() || !matches!(r.result, Some(Value::Array(_)))) =>
            {
                Some(r.call_id.as_str())
            }
            _ => None,
        })
        .collect()
}

/// The `input` items, in transcript order.
fn input<'a>(msgs: &'a [Message], p: &mut Projection) -> Vec<Out<'a>> {
    let mut out = Vec::with_capacity(msgs.len());
    let mut native_calls = NativeCalls::default();
    let plain = plain_calls(msgs);
    for m in msgs {
        match m.speaker {
            Speaker::Human => out.push(out!({
                "type": "message",
                "role": "user",
                "content": user_content(&m.blocks),
            })),
            Speaker::System => out.push(out!({
                "type": "message",
                "role": "developer",
                "content": joined_text(&m.blocks).unwrap_or_default(),
            })),
            Speaker::Ai => assistant(m, p, &plain, &mut native_calls, &mut out),
            Speaker::Tool => tool_outputs(m, p, &native_calls, &mut out),
        }
    }
    unique_item_ids(&mut out);
    out
}

/// ORS-12: the item ids turnwire sends (the ones the SDK requires: `local_shell_call`,
/// `program`, `program_output`) are unique; a call repeated in the history gets its id with a
/// `_2`, `_3`, … suffix. (A `local_shell_call_output`'s `id` names its call: left as it is.)
fn unique_item_ids(items: &mut [Out<'_>]) {
    let mut seen: crate::fast_map::HashSet<String> = crate::fast_map::HashSet::default();
    for item in items.iter_mut() {
        if item.get("type").and_then(Out::as_str) == Some("local_shell_call_output") {
            continue;
        }
        let Some(obj) = item.as_obj_mut() else {
            continue;
        };
        let Some(slot) = obj.get_mut("id") else {
            continue;
        };
        let Some(id) = slot.as_str().map(str::to_string) else {
            continue;
        };
        if seen.insert(id.clone()) {
            continue;
        }
        let mut k = 2;
        while !seen.insert(format!("{id}_{k}")) {
            k += 1;
        }
        *slot = Out::from(format!("{id}_{k}"));
    }
}

/// User content: one string when it is only text, else an array of input parts.
fn user_content(blocks: &[Block]) -> Out<'_> {
    if only_plain_text(blocks) {
        return Out::Str(joined_text(blocks).unwrap_or_default());
    }
    Out::Arr(blocks.iter().filter_map(input_part).collect())
}

/// Text, code and media as an input part (user content and function call outputs).
fn input_part(b: &Block) -> Option<Out<'_>> {
    match b {
        Block::Media(m) => Some(media_part(m)),
        other => plain_text(other).map(input_text),
    }
}

fn input_text<'a>(t: impl Into<Out<'a>>) -> Out<'a> {
    out!({"type": "input_text", "text": t.into()})
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
fn media_part(m: &MediaBlock) -> Out<'_> {
    if m.is_image() {
        // `detail` is required by the API reference and the SDK's type; `auto` is its default.
        return out!({"type": "input_image", "image_url": data_url(m), "detail": "auto"});
    }
    let filename = m.filename.clone().unwrap_or_else(|| {
        let mime = media_type(&m.mime_type);
        let ext = mime.rsplit('/').next().unwrap_or("bin").to_string();
        format!("attachment.{ext}")
    });
    out!({"type": "input_file", "filename": filename, "file_data": data_url(m)})
}

/// One item per run of an assistant message, in block order: reasoning items, one assistant
/// message per run of text with one `phase` (its texts joined by a blank line, as Chat
/// Completions joins them; the phase on the item, ORS-18), one `function_call` per call (or the
/// client-tool item the call was read from, ORS-19), the `compaction` and `additional_tools`
/// items the normaliser kept (ORS-20). The message's content is a string: the input message
/// the official SDK's types allow without a server-side id and status (an `output_text` part
/// list needs both).
fn assistant<'a>(
    m: &'a Message,
    p: &mut Projection,
    plain: &crate::fast_map::HashSet<&str>,
    native_calls: &mut NativeCalls,
    out: &mut Vec<Out<'a>>,
) {
    let mut text: Vec<Cow<'a, str>> = Vec::new();
    let mut phase: Option<&'a str> = None;
    let flush = |text: &mut Vec<Cow<'a, str>>, phase: Option<&'a str>, out: &mut Vec<Out<'a>>| {
        let content = match std::mem::take(text).as_mut_slice() {
            [] => return,
            [one] => std::mem::take(one),
            more => Cow::Owned(more.join("\n\n")),
        };
        let mut item = Obj::new();
        item.insert("type", "message");
        item.insert("role", "assistant");
        item.insert("content", content);
        if let Some(phase) = phase {
            item.insert("phase", phase);
        }
        out.push(Out::Obj(item));
    };
    for b in &m.blocks {
        match b {
            Block::Text(_) | Block::Code(_) => {
                let this = match b {
                    Block::Text(t) => match &t.meta {
                        Some(ProviderMeta::OpenAiPhase { phase }) => Some(phase.as_str()),
                        _ => None,
                    },
                    _ => None,
                };
                if this != phase {
                    flush(&mut text, phase, out);
                    phase = this;
                }
                if let Some(t) = plain_text(b) {
                    text.push(t);
                }
            }
            Block::Thinking(t) => {
                flush(&mut text, phase, out);
                // The normaliser leaves only OpenAI reasoning items with encrypted content from
                // this model (see `normalize::continuity`).
                if let Some(ProviderMeta::OpenAiReasoning {
                    encrypted_content, ..
                }) = &t.meta
                {
                    let mut item = Obj::new();
                    item.insert("type", "reasoning");
                    // Stateless replay: the encrypted content without the item id, which
                    // would refer to a server-side item that `store: false` never kept (ORS-05)
                    // and would require the following message's own id (ORS-03).
                    let summary = if t.thought.is_empty() {
                        Vec::new()
                    } else {
                        vec![out!({"type": "summary_text", "text": t.thought.as_str()})]
                    };
                    item.insert("summary", summary);
                    if let Some(e) = encrypted_content {
                        item.insert("encrypted_content", e);
                    }
                    out.push(Out::Obj(item));
                }
            }
            Block::ToolCall(c) => {
                flush(&mut text, phase, out);
                let name = p.tool_name(&c.name);
                let call_id = p.call_id(&c.id, &name);
                let item = c.meta.as_ref().filter(|_| !plain.contains(c.id.as_str()));
                if let Some(ProviderMeta::OpenAiItem { item_type, fields }) = item {
                    let item = native::call_item(
                        item_type,
                        fields,
                        call_id.clone(),
                        name.clone(),
                        c.parameters.as_ref(),
                    );
                    if let (Some(item), Some(kind)) = (item, native::by_call(item_type)) {
                        native_calls.insert(call_id, kind);
                        out.push(item);
                        continue;
                    }
                }
                let arguments = c
                    .parameters
                    .as_ref()
                    .map_or_else(|| "{}".to_string(), crate::json::write::to_string);
                // No `fc_` item id: calls pair with outputs by call_id (ORS-04).
                out.push(out!({
                    "type": "function_call",
                    "call_id": call_id,
                    "name": name,
                    "arguments": arguments,
                }));
            }
            Block::ServerTool(s) => {
                flush(&mut text, phase, out);
                // Only the items the normaliser replays reach here (compaction,
                // additional_tools), sent without their id (stateless replay, ORS-05) and
                // output-only members.
                if let Value::Object(wire) = &s.wire {
                    let mut item = Obj::new();
                    for (k, v) in wire {
                        if !matches!(k.as_str(), "id" | "created_by" | "status") {
                            item.insert(k.as_str(), v);
                        }
                    }
                    out.push(Out::Obj(item));
                }
            }
            // Media never stays in an assistant message (speaker repair moves it to the user).
            _ => {}
        }
    }
    flush(&mut text, phase, out);
}

/// The output being written: its call id, text and attached media, and its item type
/// (`function_call_output`, or `custom_tool_call_output` for a custom tool's call, ORS-19).
struct Pending<'a> {
    item_type: &'static str,
    call_id: String,
    text: Cow<'a, str>,
    media: Vec<Out<'a>>,
}

impl<'a> Pending<'a> {
    fn into_item(self) -> Out<'a> {
        let output = if self.media.is_empty() {
            Out::Str(self.text)
        } else {
            let mut parts = Vec::with_capacity(self.media.len() + 1);
            if !self.text.is_empty() {
                parts.push(input_text(self.text));
            }
            parts.extend(self.media);
            Out::Arr(parts)
        };
        out!({"type": self.item_type, "call_id": self.call_id, "output": output})
    }
}

/// The client-tool kind a result answers: its call's (the normaliser leaves every result
/// after its call in the same render).
fn native_kind(call_id: &str, native_calls: &NativeCalls) -> Option<&'static Kind> {
    native_calls.get(call_id).copied()
}

/// One output item per result, in order: a `function_call_output`, or the output item of the
/// client-tool call it answers (ORS-19). Text attached to a result joins its text; media
/// attached to it makes the output an array of input parts (text first).
fn tool_outputs<'a>(
    m: &'a Message,
    p: &mut Projection,
    native_calls: &NativeCalls,
    out: &mut Vec<Out<'a>>,
) {
    let mut current: Option<Pending> = None;
    // the output type of the last client-tool output sent whole (it carries no attachments)
    let mut whole: Option<&'static str> = None;
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                out.extend(current.take().map(Pending::into_item));
                whole = None;
                let call_id = p.result_id(&r.call_id);
                let kind = native_kind(&call_id, native_calls);
                if let Some(kind) = kind.filter(|k| k.output != "custom_tool_call_output") {
                    let fields = match &r.meta {
                        Some(ProviderMeta::OpenAiItem { item_type, fields })
                            if item_type == kind.output =>
                        {
                            Some(fields)
                        }
                        _ => None,
                    };
                    let parts = native::ResultParts {
                        call_id,
                        text: match (&r.error, &r.result) {
                            (Some(e), _) => Cow::Borrowed(e.as_str()),
                            (None, Some(Value::String(s))) => Cow::Borrowed(s.as_str()),
                            _ => r.result_text(),
                        },
                        value: r.result.as_ref(),
                        failed: r.error.is_some(),
                    };
                    out.extend(native::output_item(kind, fields, parts));
                    whole = Some(kind.output);
                    continue;
                }
                current = Some(Pending {
                    item_type: if kind.is_some() {
                        "custom_tool_call_output"
                    } else {
                        "function_call_output"
                    },
                    call_id,
                    text: r.result_text(),
                    media: Vec::new(),
                });
            }
            Block::Media(media) => {
                if let Some(c) = current.as_mut() {
                    c.media.push(media_part(media));
                } else if let Some(kind) = whole {
                    p.extend_notes(Some(
                        crate::vocab::Diagnostic::new(
                            crate::vocab::DiagnosticCode::BlockOmitted,
                            crate::vocab::FaultClass::ProviderProjection,
                            format!(
                                "{} returned by the tool is not sent: a `{kind}` item carries no media (ORS-19)",
                                media.mime_type
                            ),
                        ),
                    ));
                }
            }
            other => {
                if let (Some(t), Some(c)) = (plain_text(other), current.as_mut()) {
                    let text = c.text.to_mut();
                    if !text.is_empty() {
                        text.push_str("\n\n");
                    }
                    text.push_str(&t);
                }
            }
        }
    }
    out.extend(current.take().map(Pending::into_item));
}
