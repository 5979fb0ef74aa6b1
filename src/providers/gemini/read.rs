//! Gemini histories (`contents` and `systemInstruction`, or a whole generateContent body) read
//! into the canonical transcript.
//!
//! - `model` contents: `text` parts (with `thought: true`, thinking), `functionCall` parts; a
//!   part's `thoughtSignature` is kept as [`ProviderMeta::GeminiThoughtSignature`] on its block;
//! - `user` contents: `functionResponse` parts become a tool message (`response.output` or
//!   `response.error` as the result or error, another object as the result; media in
//!   `response.parts` follows the result as attachments); `text`, `inlineData` and `fileData`
//!   parts become a human message, in order;
//! - a call's `id` (Gemini 3 mints one for every call) is its canonical id, and a response with
//!   an `id` answers the call of that id (GEM-22); calls without an `id` (Gemini 2.x) get
//!   `gemini_call_{n}` ids, and a response without one is paired with the oldest open call of
//!   its name, as Gemini pairs them.
//!
//! The body does not name its model (it is in the URL): give it in [`ImportSource`].

use std::collections::VecDeque;

use serde_json::{Map, Value};

use super::call_ids::MINTED_PREFIX;
use super::read_options::{generation_config, tool_config, tools, INVOCATIONS};
use crate::error::{Error, ErrorCode};
use crate::model::ServerToolBlock;
use crate::model::{
    Block, MediaBlock, MediaEncoding, ProviderMeta, Speaker, TextBlock, ThinkingBlock,
    ToolCallBlock, ToolResponseBlock,
};
use crate::providers::read::context::{provenance, string_at, wrong_type, Reader};
use crate::providers::read::values::media_type_of_url;
use crate::providers::read::{ImportSource, Imported};
use crate::request::RenderOptions;
use crate::vocab::Provider;

/// Reads Gemini `contents` (and the request's `systemInstruction`) into a transcript.
///
/// ```
/// use turnwire::import::{from_gemini, ImportSource};
/// let contents = serde_json::json!([
///   {"role": "user", "parts": [{"text": "weather?"}]},
///   {"role": "model", "parts": [{"functionCall": {"name": "weather", "args": {}}, "thoughtSignature": "c2ln"}]},
///   {"role": "user", "parts": [{"functionResponse": {"name": "weather", "response": {"output": "cold"}}}]}
/// ]);
/// let source = ImportSource { model: Some("gemini-3-pro-preview".into()), ..Default::default() };
/// let imported = from_gemini(&contents, None, &source)?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_gemini(
    contents: &Value,
    system_instruction: Option<&Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let mut r = Reader::new(provenance(Provider::Gemini, None, source));
    read(&mut r, contents, system_instruction, "$")?;
    Ok(r.finish(None))
}

/// A whole generateContent body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let model = source.model_outside_body("Gemini")?;
    let mut r = Reader::new(provenance(Provider::Gemini, None, source));
    let empty = Value::Array(Vec::new());
    read(
        &mut r,
        body.get("contents").unwrap_or(&empty),
        body.get("systemInstruction"),
        "$.contents",
    )?;
    let mut o = RenderOptions::new(Provider::Gemini, model);
    o.endpoint = source.endpoint.clone();
    for (key, value) in body {
        match key.as_str() {
            "contents" | "systemInstruction" => {}
            "tools" => o.tools = tools(&mut r, value, &mut o.server_tools)?,
            "generationConfig" => generation_config(&mut r, value, &mut o)?,
            "toolConfig" => match tool_config(value) {
                Some(choice) => o.tool_choice = Some(choice),
                None if *value == serde_json::json!({ INVOCATIONS: true }) => {}
                None => {
                    r.opaque(value.clone(), "$.toolConfig", "this tool config");
                }
            },
            _ => {
                o.extra.insert(key.clone(), value.clone());
            }
        }
    }
    Ok(r.finish(Some(o)))
}

/// Gemini's pairing: open calls by name, oldest first.
#[derive(Default)]
struct Calls {
    open: Vec<(String, VecDeque<String>)>,
    minted: usize,
}

impl Calls {
    fn opened(&mut self, name: &str, id: String) {
        match self.open.iter_mut().find(|(n, _)| n == name) {
            Some((_, ids)) => ids.push_back(id),
            None => self.open.push((name.to_string(), VecDeque::from([id]))),
        }
    }

    fn answered(&mut self, name: &str) -> Option<String> {
        self.open
            .iter_mut()
            .find(|(n, _)| n == name)
            .and_then(|(_, ids)| ids.pop_front())
    }

    /// A response named its call by id: that call is no longer open (GEM-22: by id, never by
    /// order and name when ids exist).
    fn answered_by_id(&mut self, id: &str) {
        for (_, ids) in &mut self.open {
            if let Some(k) = ids.iter().position(|x| x == id) {
                ids.remove(k);
                return;
            }
        }
    }

    fn mint(&mut self) -> String {
        self.minted += 1;
        format!("{MINTED_PREFIX}{}", self.minted)
    }
}

fn read(r: &mut Reader, contents: &Value, system: Option<&Value>, path: &str) -> Result<(), Error> {
    if let Some(system) = system.filter(|s| !s.is_null()) {
        let parts = system.get("parts").unwrap_or(system);
        let blocks = user_parts(r, parts, "$.systemInstruction.parts", &mut Calls::default())?;
        r.push(
            Speaker::System,
            blocks.into_iter().map(|(_, b)| b).collect(),
        );
    }
    let Value::Array(list) = contents else {
        return Err(wrong_type(path, "an array of contents", contents));
    };
    let mut calls = Calls::default();
    for (i, content) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let parts_at = format!("{at}.parts");
        let parts = content.get("parts").unwrap_or(&Value::Null);
        match content.get("role").and_then(Value::as_str) {
            Some("model") => {
                let blocks = model_parts(r, parts, &parts_at, &mut calls)?;
                r.push(Speaker::Ai, blocks);
            }
            // A content without a role is the user's (Gemini's own default).
            Some("user") | None => {
                let blocks = user_parts(r, parts, &parts_at, &mut calls)?;
                r.push_runs(blocks);
            }
            Some(other) => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!("a Gemini content's role is `user` or `model`, found `{other}`"),
                ))
            }
        }
    }
    Ok(())
}

fn part_list<'a>(parts: &'a Value, at: &str) -> Result<&'a [Value], Error> {
    match parts {
        Value::Array(a) => Ok(a),
        Value::Null => Ok(&[]),
        other => Err(wrong_type(at, "an array of parts", other)),
    }
}

fn signature(part: &Value) -> Option<ProviderMeta> {
    part.get("thoughtSignature")
        .and_then(Value::as_str)
        .map(|s| ProviderMeta::GeminiThoughtSignature {
            thought_signature: s.to_string(),
        })
}

fn model_parts(
    r: &mut Reader,
    parts: &Value,
    at: &str,
    calls: &mut Calls,
) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in part_list(parts, at)?.iter().enumerate() {
        let part_at = format!("{at}[{j}]");
        if let Some(call) = part.get("functionCall") {
            let call_at = format!("{part_at}.functionCall");
            let name = string_at(call, "name", &call_at)?.to_string();
            let id = match call.get("id").and_then(Value::as_str) {
                Some(id) => id.to_string(),
                None => calls.mint(),
            };
            calls.opened(&name, id.clone());
            r.names.insert(id.clone(), name.clone());
            out.push(Block::ToolCall(ToolCallBlock {
                parameters: call.get("args").cloned(),
                meta: signature(part),
                ..ToolCallBlock::new(id, name, Value::Null)
            }));
        } else if let Some(Value::String(text)) = part.get("text") {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                let mut t = ThinkingBlock::new(text.as_str());
                t.meta = signature(part);
                out.push(Block::Thinking(t));
            } else {
                let mut t = TextBlock::new(text.as_str());
                t.meta = signature(part);
                out.push(Block::Text(t));
            }
        } else if let Some(b) = ServerToolBlock::from_gemini(part) {
            out.push(Block::ServerTool(b));
        } else {
            out.push(r.opaque(part.clone(), &part_at, "this model part"));
        }
    }
    Ok(out)
}

/// A user content's parts, each with the speaker it belongs to: responses (and the media in
/// them) to `tool`, the rest to `human`.
fn user_parts(
    r: &mut Reader,
    parts: &Value,
    at: &str,
    calls: &mut Calls,
) -> Result<Vec<(Speaker, Block)>, Error> {
    let mut out = Vec::new();
    for (j, part) in part_list(parts, at)?.iter().enumerate() {
        let part_at = format!("{at}[{j}]");
        if let Some(response) = part.get("functionResponse") {
            let response_at = format!("{part_at}.functionResponse");
            let name = string_at(response, "name", &response_at)?.to_string();
            let id = match response.get("id").and_then(Value::as_str) {
                Some(id) => {
                    calls.answered_by_id(id);
                    id.to_string()
                }
                None => calls.answered(&name).unwrap_or_else(|| calls.mint()),
            };
            let mut block = ToolResponseBlock {
                call_id: id,
                tool_name: Some(name),
                ..ToolResponseBlock::default()
            };
            match response.get("response") {
                Some(Value::Object(o)) if o.len() == 1 && o.contains_key("error") => {
                    block.error = Some(text_of(o.get("error")));
                }
                Some(Value::Object(o)) if o.len() == 1 && o.contains_key("output") => {
                    block.result = Some(Value::String(text_of(o.get("output"))));
                }
                other => block.result = other.cloned(),
            }
            out.push((Speaker::Tool, Block::ToolResponse(block)));
            let media = response.get("parts").unwrap_or(&Value::Null);
            for (k, m) in part_list(media, &format!("{response_at}.parts"))?
                .iter()
                .enumerate()
            {
                let media_at = format!("{response_at}.parts[{k}]");
                out.push((Speaker::Tool, content_part(r, m, &media_at)));
            }
        } else {
            out.push((Speaker::Human, content_part(r, part, &part_at)));
        }
    }
    Ok(out)
}

/// A string as it is; any other value as its JSON text.
fn text_of(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => other.to_string(),
    }
}

/// `text`, `inlineData` and `fileData` parts.
fn content_part(r: &mut Reader, part: &Value, at: &str) -> Block {
    if let Some(Value::String(text)) = part.get("text") {
        return Block::Text(TextBlock::new(text.as_str()));
    }
    if let Some(inline) = part.get("inlineData") {
        let mime = inline.get("mimeType").and_then(Value::as_str);
        if let (Some(mime), Some(data)) = (mime, inline.get("data").and_then(Value::as_str)) {
            return Block::Media(MediaBlock::new(mime, data, MediaEncoding::Base64));
        }
    }
    if let Some(file) = part.get("fileData") {
        if let Some(uri) = file.get("fileUri").and_then(Value::as_str) {
            let mime = match file.get("mimeType").and_then(Value::as_str) {
                Some(m) => m.to_string(),
                None => {
                    let m = media_type_of_url(uri, true);
                    r.note(
                        at,
                        format!("a file part names no media type; `{m}` was taken from its URI"),
                    );
                    m.to_string()
                }
            };
            return Block::Media(MediaBlock::new(mime, uri, MediaEncoding::Url));
        }
    }
    r.opaque(part.clone(), at, "this part")
}
