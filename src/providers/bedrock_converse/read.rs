//! Reading a Converse request body back into a transcript (`fromRequestBody("bedrock-converse")`).
//!
//! - `system`: text blocks become one system message (a `cachePoint` there is read into
//!   `cache.breakpoints`);
//! - `assistant` messages: `text`, `reasoningContent.reasoningText` (its `signature` kept as
//!   [`ProviderMeta::AnthropicSignature`]), `reasoningContent.redactedContent`, `toolUse`;
//! - `user` messages: `toolResult` blocks become a tool message (a `json` object as the result,
//!   text as the result or, with `status: "error"`, the error; images after it as attachments),
//!   `text`, `image` and `document` blocks a human message, in order;
//! - `toolConfig`, `inferenceConfig` and Claude's `additionalModelRequestFields` (`thinking`,
//!   `output_config.effort`) become options; other fields are kept as `extra`.
//!
//! The body does not name its model (it is in the URL): give it in [`ImportSource`].

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::model::{
    Block, MediaBlock, MediaEncoding, ProviderMeta, Speaker, TextBlock, ThinkingBlock,
    ToolCallBlock, ToolResponseBlock,
};
use crate::providers::read::context::{provenance, string_at, wrong_type, Reader};
use crate::providers::read::options::{
    count, declaration, number, read_effort, stop_sequences, switch_thinking,
};
use crate::providers::read::{ImportSource, Imported};
use crate::request::ToolChoice;
use crate::request::{CacheBreakpoints, CacheOptions, CachePoint, CacheTtl, RenderOptions};
use crate::vocab::Provider;

/// A whole Converse body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let model = source.model_outside_body("Converse")?;
    let mut r = Reader::new(provenance(Provider::BedrockConverse, None, source));
    let mut cache = Marks::default();
    if let Some(system) = body.get("system") {
        let blocks = system_blocks(&mut r, system, &mut cache)?;
        r.push(Speaker::System, blocks);
    }
    let empty = Value::Array(Vec::new());
    messages(&mut r, body.get("messages").unwrap_or(&empty), &mut cache)?;
    let mut o = RenderOptions::new(Provider::BedrockConverse, model);
    o.endpoint = source.endpoint.clone();
    for (key, value) in body {
        match key.as_str() {
            "messages" | "system" => {}
            "inferenceConfig" => inference_config(&mut r, value, &mut o)?,
            "toolConfig" => tool_config(&mut r, value, &mut o, &mut cache)?,
            "additionalModelRequestFields" => model_fields(&mut r, value, &mut o),
            "outputConfig" => match output_format(value) {
                Some(format) => o.response_format = Some(format),
                None => {
                    o.extra.insert(key.clone(), value.clone());
                }
            },
            _ => {
                o.extra.insert(key.clone(), value.clone());
            }
        }
    }
    o.cache = cache.options();
    Ok(r.finish(Some(o)))
}

/// The cache points found, as `cache` options.
#[derive(Default)]
struct Marks {
    points: Vec<CachePoint>,
    ttl: Option<CacheTtl>,
}

impl Marks {
    fn saw(&mut self, point: CachePoint, block: &Value) {
        if !self.points.contains(&point) {
            self.points.push(point);
        }
        match block.pointer("/cachePoint/ttl").and_then(Value::as_str) {
            Some("1h") => self.ttl = Some(CacheTtl::OneHour),
            Some("5m") => self.ttl = Some(CacheTtl::FiveMinutes),
            _ => {}
        }
    }

    fn options(self) -> Option<CacheOptions> {
        if self.points.is_empty() {
            return None;
        }
        let all = [CachePoint::Tools, CachePoint::System, CachePoint::Messages];
        let breakpoints = if all.iter().all(|p| self.points.contains(p)) {
            CacheBreakpoints::Auto
        } else {
            CacheBreakpoints::List(self.points)
        };
        Some(CacheOptions {
            breakpoints,
            ttl: self.ttl,
            key: None,
        })
    }
}

fn list<'a>(v: &'a Value, at: &str) -> Result<&'a [Value], Error> {
    match v {
        Value::Array(a) => Ok(a),
        other => Err(wrong_type(at, "an array of content blocks", other)),
    }
}

fn system_blocks(r: &mut Reader, v: &Value, cache: &mut Marks) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (k, b) in list(v, "$.system")?.iter().enumerate() {
        if let Some(Value::String(t)) = b.get("text") {
            out.push(Block::Text(TextBlock::new(t.as_str())));
        } else if b.get("cachePoint").is_some() {
            cache.saw(CachePoint::System, b);
        } else {
            out.push(r.opaque(b.clone(), &format!("$.system[{k}]"), "this system block"));
        }
    }
    Ok(out)
}

fn messages(r: &mut Reader, v: &Value, cache: &mut Marks) -> Result<(), Error> {
    let Value::Array(list_) = v else {
        return Err(wrong_type("$.messages", "an array of messages", v));
    };
    for (i, m) in list_.iter().enumerate() {
        let at = format!("$.messages[{i}]");
        let content_at = format!("{at}.content");
        let content = list(m.get("content").unwrap_or(&Value::Null), &content_at)?;
        match m.get("role").and_then(Value::as_str) {
            Some("assistant") => {
                let blocks = assistant(r, content, &content_at, cache)?;
                r.push(Speaker::Ai, blocks);
            }
            Some("user") => {
                let blocks = user(r, content, &content_at, cache)?;
                r.push_runs(blocks);
            }
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!(
                        "a Converse message's role is `user` or `assistant`, found {}",
                        other.map_or("none".to_string(), |o| format!("`{o}`"))
                    ),
                ))
            }
        }
    }
    Ok(())
}

fn assistant(
    r: &mut Reader,
    content: &[Value],
    at: &str,
    cache: &mut Marks,
) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, b) in content.iter().enumerate() {
        let bat = format!("{at}[{j}]");
        if let Some(Value::String(t)) = b.get("text") {
            out.push(Block::Text(TextBlock::new(t.as_str())));
        } else if let Some(u) = b.get("toolUse") {
            let uat = format!("{bat}.toolUse");
            let id = string_at(u, "toolUseId", &uat)?.to_string();
            let name = string_at(u, "name", &uat)?.to_string();
            r.names.insert(id.clone(), name.clone());
            out.push(Block::ToolCall(ToolCallBlock {
                parameters: u.get("input").cloned(),
                ..ToolCallBlock::new(id, name, Value::Null)
            }));
        } else if let Some(rc) = b.get("reasoningContent") {
            if let Some(Value::String(data)) = rc.get("redactedContent") {
                let mut t = ThinkingBlock::new("");
                t.meta = Some(ProviderMeta::AnthropicRedacted { data: data.clone() });
                out.push(Block::Thinking(t));
            } else if let Some(text) = rc.get("reasoningText") {
                let tat = format!("{bat}.reasoningContent.reasoningText");
                let mut t = ThinkingBlock::new(string_at(text, "text", &tat)?);
                if let Some(s) = text.get("signature").and_then(Value::as_str) {
                    t.meta = Some(ProviderMeta::AnthropicSignature {
                        signature: s.to_string(),
                    });
                }
                out.push(Block::Thinking(t));
            } else {
                out.push(r.opaque(b.clone(), &bat, "this reasoning block"));
            }
        } else if b.get("cachePoint").is_some() {
            cache.saw(CachePoint::Messages, b);
        } else {
            out.push(r.opaque(b.clone(), &bat, "this assistant block"));
        }
    }
    Ok(out)
}

/// A user message's blocks, each with its speaker: results (and what follows them inside) to
/// `tool`, the rest to `human`.
fn user(
    r: &mut Reader,
    content: &[Value],
    at: &str,
    cache: &mut Marks,
) -> Result<Vec<(Speaker, Block)>, Error> {
    let mut out = Vec::new();
    for (j, b) in content.iter().enumerate() {
        let bat = format!("{at}[{j}]");
        if let Some(tr) = b.get("toolResult") {
            let rat = format!("{bat}.toolResult");
            let id = string_at(tr, "toolUseId", &rat)?.to_string();
            let error = tr.get("status").and_then(Value::as_str) == Some("error");
            let mut block = ToolResponseBlock {
                call_id: id.clone(),
                tool_name: r.names.get(&id).cloned(),
                ..ToolResponseBlock::default()
            };
            let items = list(
                tr.get("content").unwrap_or(&Value::Null),
                &format!("{rat}.content"),
            )?;
            let mut rest = Vec::new();
            for (k, c) in items.iter().enumerate() {
                let cat = format!("{rat}.content[{k}]");
                let first = k == 0;
                match (first, c.get("json"), c.get("text")) {
                    (true, Some(json), _) => block.result = Some(json.clone()),
                    (true, None, Some(Value::String(t))) if error => block.error = Some(t.clone()),
                    (true, None, Some(Value::String(t))) => {
                        block.result = Some(Value::String(t.clone()))
                    }
                    _ => rest.push(content_block(r, c, &cat)),
                }
            }
            out.push((Speaker::Tool, Block::ToolResponse(block)));
            out.extend(rest.into_iter().map(|b| (Speaker::Tool, b)));
        } else if b.get("cachePoint").is_some() {
            cache.saw(CachePoint::Messages, b);
        } else {
            out.push((Speaker::Human, content_block(r, b, &bat)));
        }
    }
    Ok(out)
}

/// Converse's `format` as a MIME type.
fn mime_of(format: &str) -> Option<&'static str> {
    Some(match format {
        "png" => "image/png",
        "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "csv" => "text/csv",
        "doc" => "application/msword",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls" => "application/vnd.ms-excel",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "html" => "text/html",
        "txt" => "text/plain",
        "md" => "text/markdown",
        _ => return None,
    })
}

/// `text`, and `image` / `document` blocks of bytes.
fn content_block(r: &mut Reader, b: &Value, at: &str) -> Block {
    if let Some(Value::String(t)) = b.get("text") {
        return Block::Text(TextBlock::new(t.as_str()));
    }
    for key in ["image", "document"] {
        let Some(m) = b.get(key) else { continue };
        let mime = m.get("format").and_then(Value::as_str).and_then(mime_of);
        let bytes = m.pointer("/source/bytes").and_then(Value::as_str);
        if let (Some(mime), Some(bytes)) = (mime, bytes) {
            let mut media = MediaBlock::new(mime, bytes, MediaEncoding::Base64);
            if key == "document" {
                media.filename = m.get("name").and_then(Value::as_str).map(str::to_string);
            }
            return Block::Media(media);
        }
    }
    r.opaque(b.clone(), at, "this content block")
}

/// `inferenceConfig`: the output limit, sampling and stop sequences.
fn inference_config(r: &mut Reader, v: &Value, o: &mut RenderOptions) -> Result<(), Error> {
    let Value::Object(c) = v else {
        return Err(wrong_type("$.inferenceConfig", "an object", v));
    };
    for (key, value) in c {
        let at = format!("$.inferenceConfig.{key}");
        match key.as_str() {
            "maxTokens" => o.max_tokens = Some(count(value, &at)?),
            "temperature" => o.temperature = Some(number(value, &at)?),
            "topP" => o.top_p = Some(number(value, &at)?),
            "stopSequences" => o.stop_sequences = stop_sequences(value, &at)?,
            _ => {
                r.opaque(value.clone(), &at, "this inference setting");
            }
        }
    }
    Ok(())
}

/// `toolConfig`: the `toolSpec` declarations and the tool choice.
fn tool_config(
    r: &mut Reader,
    v: &Value,
    o: &mut RenderOptions,
    cache: &mut Marks,
) -> Result<(), Error> {
    let tools = v.get("tools").unwrap_or(&Value::Null);
    for (k, t) in tools.as_array().into_iter().flatten().enumerate() {
        let at = format!("$.toolConfig.tools[{k}]");
        if let Some(spec) = t.get("toolSpec") {
            let name = string_at(spec, "name", &format!("{at}.toolSpec"))?;
            let schema = spec.pointer("/inputSchema/json").cloned();
            o.tools.push(declaration(spec, name, schema));
        } else if t.get("cachePoint").is_some() {
            cache.saw(CachePoint::Tools, t);
        } else {
            r.opaque(t.clone(), &at, "this tool");
        }
    }
    if let Some(choice) = v.get("toolChoice") {
        o.tool_choice = match choice {
            c if c.get("auto").is_some() => Some(ToolChoice::Auto),
            c if c.get("any").is_some() => Some(ToolChoice::Required),
            c => match c.pointer("/tool/name").and_then(Value::as_str) {
                Some(n) => Some(ToolChoice::Tool(n.to_string())),
                None => {
                    r.opaque(c.clone(), "$.toolConfig.toolChoice", "this tool choice");
                    None
                }
            },
        };
    }
    Ok(())
}

/// Claude's `thinking` and `output_config.effort`; the binding controls' beta is the render's
/// own (it follows `thinking.block_binding`); anything else is kept for the same model.
fn model_fields(r: &mut Reader, v: &Value, o: &mut RenderOptions) {
    let Value::Object(fields) = v else {
        r.opaque(
            v.clone(),
            "$.additionalModelRequestFields",
            "these model fields",
        );
        return;
    };
    let mut rest = Map::new();
    for (key, value) in fields {
        let at = format!("$.additionalModelRequestFields.{key}");
        match key.as_str() {
            "thinking" => o.thinking = switch_thinking(value, o.thinking.take()),
            "output_config" if value.as_object().is_some_and(|c| c.len() == 1) => {
                read_effort(value, o, &at, r)
            }
            "anthropic_beta"
                if value.as_array().is_some_and(|b| {
                    b.iter().all(|x| {
                        x.as_str() == Some(crate::providers::anthropic::betas::BINDING_BETA)
                    })
                }) => {}
            _ => {
                rest.insert(key.clone(), value.clone());
            }
        }
    }
    if !rest.is_empty() {
        let mut patch = Map::new();
        patch.insert("additionalModelRequestFields".into(), Value::Object(rest));
        o.provider_options.insert(
            Provider::BedrockConverse.as_str().to_string(),
            Value::Object(patch),
        );
    }
}

/// `outputConfig.textFormat` as a JSON-schema response format (the schema is JSON text).
fn output_format(v: &Value) -> Option<crate::request::ResponseFormat> {
    let Value::Object(top) = v else { return None };
    let format = top.get("textFormat").filter(|_| top.len() == 1)?;
    if format.get("type").and_then(Value::as_str) != Some("json_schema") {
        return None;
    }
    let def = format.pointer("/structure/jsonSchema")?;
    let schema: Value = serde_json::from_str(def.get("schema")?.as_str()?).ok()?;
    Some(crate::request::ResponseFormat::JsonSchema {
        name: def.get("name").and_then(Value::as_str)?.to_string(),
        schema,
        description: def
            .get("description")
            .and_then(Value::as_str)
            .map(str::to_string),
        strict: None,
    })
}
