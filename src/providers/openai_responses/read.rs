//! OpenAI Responses histories (`input` items and `instructions`, or a whole request body) read
//! into the canonical transcript.
//!
//! - `message` items (or items with a `role` and no `type`): `user` content (`input_text`,
//!   `input_image`, `input_file`) becomes a human message, `system` / `developer` a system
//!   message, `assistant` content (`output_text`, `refusal`) assistant text;
//! - `reasoning` items become thinking blocks carrying the item's `id` and `encrypted_content`
//!   ([`ProviderMeta::OpenAiReasoning`]), their summary texts joined as the thought;
//! - `function_call` items become tool calls (arguments parsed from their JSON text) and
//!   `function_call_output` items tool results (an array output's later parts follow the
//!   result as attachments);
//! - an assistant message's `phase` (ORS-18) labels each of its text blocks
//!   ([`ProviderMeta::OpenAiPhase`]);
//! - the client-tool items (`custom_tool_call`, `apply_patch_call`, `shell_call`,
//!   `local_shell_call`, client `tool_search_call`, `program`) become tool calls and their
//!   outputs tool results, remembering the item ([`super::native`], ORS-19);
//! - `compaction` (ORS-20), `additional_tools` and a server-run tool search become server-tool
//!   blocks, replayed to Responses where they can be;
//! - consecutive assistant items (reasoning, messages, calls) make one assistant message, and
//!   consecutive outputs one tool message. Other items (`item_reference`, built-in tool calls)
//!   are kept as opaque blocks with an `import_opaque` diagnostic.

use serde_json::{Map, Value};

use super::native;
use crate::error::Error;

use crate::model::{
    Block, ProviderMeta, Speaker, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock,
};
use crate::providers::read::cache::breakpoint_notes;
use crate::providers::read::context::{
    part_type, parts, provenance, string_at, wrong_type, Reader,
};
use crate::providers::read::options::{body_options, BodyFields};
use crate::providers::read::values::{arguments, url_media};
use crate::providers::read::{ImportSource, Imported};
use crate::vocab::Provider;

/// Reads Responses `input` items (and the request's `instructions`) into a transcript.
///
/// ```
/// use turnwire::import::{from_responses_input, ImportSource};
/// let input = serde_json::json!([
///   {"role": "user", "content": "weather?"},
///   {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAA", "summary": []},
///   {"type": "function_call", "call_id": "call_1", "name": "weather", "arguments": "{}"},
///   {"type": "function_call_output", "call_id": "call_1", "output": "cold"}
/// ]);
/// let imported = from_responses_input(&input, None, &ImportSource::default())?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_responses_input(
    input: &Value,
    instructions: Option<&Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::OpenAiResponses, None, source));
    read(&mut r, input, instructions, "$")?;
    breakpoint_notes(&mut r, input, "$", false, &["content", "output"]);
    Ok(r.finish(None))
}

/// A whole Responses request body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::OpenAiResponses, Some(body), source));
    let empty = Value::Array(Vec::new());
    let input = body.get("input").unwrap_or(&empty);
    read(&mut r, input, body.get("instructions"), "$.input")?;
    let system_mark = crate::providers::read::cache::system_breakpoint(body);
    breakpoint_notes(
        &mut r,
        input,
        "$.input",
        system_mark,
        &["content", "output"],
    );
    if body.get("store") == Some(&Value::Bool(true)) {
        r.note(
            "$.store",
            "the body stored its responses (`store: true`); turnwire renders stateless requests (`store: false`) that carry their reasoning",
        );
    }
    let options = body_options(
        Provider::OpenAiResponses,
        body,
        source,
        &BodyFields {
            history: &["input", "instructions", "include", "store"],
            max_tokens: &["max_output_tokens"],
            tool_schema: "parameters",
        },
        &mut r,
    )?;
    Ok(r.finish(Some(options)))
}

/// The run being read: assistant items or function outputs gather into one message.
struct Run {
    speaker: Speaker,
    blocks: Vec<Block>,
    /// Its last item was an assistant `message`.
    ends_with_message: bool,
}

fn read(
    r: &mut Reader,
    input: &Value,
    instructions: Option<&Value>,
    path: &str,
) -> Result<(), Error> {
    if let Some(Value::String(s)) = instructions {
        r.push(
            Speaker::System,
            vec![Block::Text(TextBlock::new(s.as_str()))],
        );
    }
    let items = match input {
        // A string input is one user message.
        Value::String(s) => vec![serde_json::json!({"role": "user", "content": s})],
        Value::Array(a) => a.clone(),
        other => {
            return Err(wrong_type(
                path,
                "a string or an array of input items",
                other,
            ))
        }
    };
    let mut run: Option<Run> = None;
    for (i, item) in items.into_iter().enumerate() {
        let at = format!("{path}[{i}]");
        let kind = match part_type(&item) {
            "" if item.get("role").is_some() => "message",
            k => k,
        }
        .to_string();
        let role = item
            .get("role")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let (speaker, blocks) = match (kind.as_str(), role.as_str()) {
            ("message", "assistant") => (Speaker::Ai, assistant_text(r, &item, &at)?),
            ("message", "system" | "developer") => (Speaker::System, content(r, &item, &at)?),
            ("message", _) => (Speaker::Human, content(r, &item, &at)?),
            ("reasoning", _) => (Speaker::Ai, vec![reasoning(&item)]),
            ("function_call", _) => (Speaker::Ai, vec![call(r, &item, &at)?]),
            ("function_call_output", _) => (Speaker::Tool, output(r, &item, &at)?),
            ("custom_tool_call_output", _) => {
                let mut blocks = output(r, &item, &at)?;
                if let Some(Block::ToolResponse(b)) = blocks.first_mut() {
                    b.meta = Some(native::output_meta(&item, &kind, &["call_id", "output"]));
                }
                (Speaker::Tool, blocks)
            }
            (t, _) if native::by_call(t).is_some() => match native::call(&item) {
                Some(c) => {
                    r.names.insert(c.call_id.clone(), c.name.clone());
                    let mut b = ToolCallBlock::new(c.call_id, c.name, c.parameters);
                    b.meta = Some(c.meta);
                    (Speaker::Ai, vec![Block::ToolCall(b)])
                }
                None => (Speaker::Ai, vec![server_or_opaque(r, item, &at)]),
            },
            (t, _) if native::by_output(t).is_some() => match native::output(&item) {
                Some(o) => (
                    Speaker::Tool,
                    vec![Block::ToolResponse(ToolResponseBlock {
                        tool_name: r.names.get(&o.call_id).cloned(),
                        call_id: o.call_id,
                        result: o.result,
                        error: o.error,
                        meta: Some(o.meta),
                        ..ToolResponseBlock::default()
                    })],
                ),
                None => (Speaker::Ai, vec![server_or_opaque(r, item, &at)]),
            },
            _ => match native::server_item(&item) {
                Some(b) => (Speaker::Ai, vec![Block::ServerTool(b)]),
                None => (Speaker::Ai, vec![r.opaque(item, &at, "this input item")]),
            },
        };
        // Two assistant messages in a row were two turns (one turn's text is one message).
        let assistant_message = kind == "message" && speaker == Speaker::Ai;
        let joins = matches!(speaker, Speaker::Ai | Speaker::Tool)
            && run.as_ref().is_some_and(|run| {
                run.speaker == speaker && !(assistant_message && run.ends_with_message)
            });
        match run.as_mut() {
            Some(current) if joins => {
                current.blocks.extend(blocks);
                current.ends_with_message = assistant_message;
            }
            _ => {
                if let Some(done) = run.take() {
                    r.push(done.speaker, done.blocks);
                }
                run = Some(Run {
                    speaker,
                    blocks,
                    ends_with_message: assistant_message,
                });
            }
        }
    }
    if let Some(done) = run {
        r.push(done.speaker, done.blocks);
    }
    Ok(())
}

/// A server-run tool search (kept for Responses, text elsewhere); any other item the
/// client-tool reader refused (a call without its `call_id`) is opaque.
fn server_or_opaque(r: &mut Reader, item: Value, at: &str) -> Block {
    match native::server_item(&item) {
        Some(b) => Block::ServerTool(b),
        None => r.opaque(item, at, "this client-tool item (it names no call)"),
    }
}

/// A user, system or developer message's content parts.
fn content(r: &mut Reader, item: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let path = format!("{at}.content");
    let mut out = Vec::new();
    for (j, part) in parts(item.get("content").unwrap_or(&Value::Null), &path)?
        .into_iter()
        .enumerate()
    {
        out.push(input_part(r, part, &format!("{path}[{j}]"))?);
    }
    Ok(out)
}

/// `input_text`, `input_image` and `input_file` parts (a message's, or a function output's).
fn input_part(r: &mut Reader, part: Value, at: &str) -> Result<Block, Error> {
    Ok(match part_type(&part) {
        "input_text" | "text" | "output_text" => {
            Block::Text(TextBlock::new(string_at(&part, "text", at)?))
        }
        "input_image" => match part.get("image_url").and_then(Value::as_str) {
            Some(url) => Block::Media(url_media(r, url, true, at)),
            None => r.opaque(part, at, "this image part (a file id turnwire cannot read)"),
        },
        "input_file" => match part.get("file_data").and_then(Value::as_str) {
            Some(data) => {
                let mut m = url_media(r, data, false, at);
                m.filename = part
                    .get("filename")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                Block::Media(m)
            }
            None => r.opaque(part, at, "this file part (a file id turnwire cannot read)"),
        },
        _ => r.opaque(part, at, "this content part"),
    })
}

fn assistant_text(r: &mut Reader, item: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let path = format!("{at}.content");
    let mut out = Vec::new();
    let phase = item.get("phase").and_then(Value::as_str);
    for (j, part) in parts(item.get("content").unwrap_or(&Value::Null), &path)?
        .into_iter()
        .enumerate()
    {
        let part_at = format!("{path}[{j}]");
        out.push(match part_type(&part) {
            "output_text" | "text" | "input_text" => {
                Block::Text(TextBlock::new(string_at(&part, "text", &part_at)?))
            }
            "refusal" => Block::Text(TextBlock::new(string_at(&part, "refusal", &part_at)?)),
            _ => r.opaque(part, &part_at, "this assistant part"),
        });
    }
    if let Some(phase) = phase {
        for b in &mut out {
            if let Block::Text(t) = b {
                t.meta = Some(ProviderMeta::OpenAiPhase {
                    phase: phase.to_string(),
                });
            }
        }
    }
    Ok(out)
}

fn reasoning(item: &Value) -> Block {
    let summary: Vec<&str> = item
        .get("summary")
        .and_then(Value::as_array)
        .map(|parts| {
            parts
                .iter()
                .filter_map(|p| p.get("text").and_then(Value::as_str))
                .collect()
        })
        .unwrap_or_default();
    let mut t = ThinkingBlock::new(summary.join("\n\n"));
    t.meta = Some(reasoning_meta(item));
    Block::Thinking(t)
}

/// The continuity of a reasoning item: its `id` and `encrypted_content`.
pub(crate) fn reasoning_meta(item: &Value) -> ProviderMeta {
    ProviderMeta::OpenAiReasoning {
        id: item.get("id").and_then(Value::as_str).map(str::to_string),
        encrypted_content: item
            .get("encrypted_content")
            .and_then(Value::as_str)
            .map(str::to_string),
    }
}

fn call(r: &mut Reader, item: &Value, at: &str) -> Result<Block, Error> {
    let id = string_at(item, "call_id", at)?.to_string();
    let name = string_at(item, "name", at)?.to_string();
    let parameters = arguments(item.get("arguments"), &format!("{at}.arguments"));
    r.names.insert(id.clone(), name.clone());
    Ok(Block::ToolCall(ToolCallBlock {
        parameters,
        ..ToolCallBlock::new(id, name, Value::Null)
    }))
}

fn output(r: &mut Reader, item: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let call_id = string_at(item, "call_id", at)?.to_string();
    let mut attachments = Vec::new();
    let text = match item.get("output") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => {
            let mut first = None;
            for (k, part) in items.iter().enumerate() {
                let part_at = format!("{at}.output[{k}]");
                match (k, part_type(part), part.get("text")) {
                    (0, "input_text", Some(Value::String(t))) => first = Some(t.clone()),
                    _ => attachments.push(input_part(r, part.clone(), &part_at)?),
                }
            }
            first.unwrap_or_default()
        }
        Some(other) => {
            return Err(wrong_type(
                &format!("{at}.output"),
                "a string or an array of parts",
                other,
            ))
        }
    };
    let mut out = vec![Block::ToolResponse(ToolResponseBlock {
        tool_name: r.names.get(&call_id).cloned(),
        call_id,
        result: Some(Value::String(text)),
        ..ToolResponseBlock::default()
    })];
    out.extend(attachments);
    Ok(out)
}
