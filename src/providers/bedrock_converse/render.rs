//! Bedrock Converse request bodies: a pure projection of the normalised transcript.
//!
//! ```text
//! {"messages": [{"role": "user", "content": [{"text": "…"}]}, …],
//!  "system": [{"text": "…"}],
//!  "toolConfig": {"tools": [{"toolSpec": {"name", "description", "inputSchema": {"json": …}}}],
//!                 "toolChoice": {"auto": {}}},
//!  "inferenceConfig": {"maxTokens", "temperature", "topP", "stopSequences"},
//!  "additionalModelRequestFields": {"thinking": …}}
//! ```
//!
//! The model goes in the URL (`/model/{modelId}/converse`), never in the body; a content block
//! is a union of exactly one member (`text`, `image`, `document`, `toolUse`, `toolResult`,
//! `reasoningContent`).

use crate::json::out::{out, Obj, Out};
use serde_json::Value;

use crate::ids::IdFormat;
use crate::model::{split_data_url, Block, MediaBlock, MediaEncoding, Message, ProviderMeta};
use crate::models::{bedrock_model, BedrockFamily};
use crate::normalize::Normalized;
use crate::providers::anthropic::thinking::anthropic_thinking;
use crate::providers::body::{results_then_user, tool_declarations, ListTurns};
use crate::providers::common::{claude_sampling, declared_names, fenced, system_text};
use crate::providers::Projection;
use crate::request::{CachePoint, Resolved};
use crate::vocab::DiagnosticCode;
use crate::{RenderOptions, ToolChoice};

/// Builds the whole request body.
pub fn body<'a>(n: &'a Normalized, o: &'a RenderOptions, r: &'a Resolved) -> (Out<'a>, Projection) {
    // BDR-02 ids (`[a-zA-Z0-9_-]{1,64}`, Anthropic's rule) and BDR-12 names, which the older
    // reference pattern wants to start with a letter.
    let mut p = Projection::with_leading_letter_names(IdFormat::Anthropic);
    p.reserve_names(declared_names(o));
    let family = bedrock_model(&o.model).0;
    let mut body = Obj::new();
    let turns = ListTurns {
        assistant_role: "assistant",
        member: "content",
        assistant,
        results: if takes_status(family) {
            tool_results_with_status
        } else {
            tool_results
        },
        user,
    };
    let mut tools = tool_declarations(n, o, &mut p, declaration, false);
    body.insert(
        "messages",
        results_then_user(&n.transcript.messages, &mut p, &turns),
    );
    let cache = &r.cache;
    let system = system_text(o, &n.system);
    if system.is_empty() {
        p.extend_notes(cache.nothing_to_mark(CachePoint::System, "no system prompt"));
    } else {
        let mut blocks = vec![out!({ "text": system })];
        if let Some(mark) = cache.mark_for(CachePoint::System) {
            blocks.push(out!({ "cachePoint": mark }));
        }
        body.insert("system", blocks);
    }
    match cache.mark_for(CachePoint::Tools) {
        _ if tools.is_empty() => {
            p.extend_notes(cache.nothing_to_mark(CachePoint::Tools, "no tools"))
        }
        // BDR-18: Nova takes no cache point among its tools.
        Some(_) if family == BedrockFamily::Nova => p.extend_notes(cache.nothing_to_mark(
            CachePoint::Tools,
            "a Nova model, which takes no cache point among its tools (BDR-18)",
        )),
        Some(mark) => tools.push(out!({ "cachePoint": mark })),
        None => {}
    }
    // A point in the history would move every turn: Converse has no automatic breakpoint.
    p.extend_notes(cache.nothing_to_mark(
        CachePoint::Messages,
        "no cache point Converse keeps in place in the history (it would move every turn)",
    ));
    if !tools.is_empty() {
        let mut config = Obj::new();
        config.insert("tools", tools);
        if let Some(choice) = r
            .controls
            .tool_choice
            .as_ref()
            .and_then(|c| tool_choice(c, &mut p))
        {
            config.insert("toolChoice", choice);
        }
        body.insert("toolConfig", config);
    }
    let thinking = family == BedrockFamily::Claude && n.thinking_enabled;
    let inference = inference_config(o, r, thinking, &mut p);
    if !inference.is_empty() {
        body.insert("inferenceConfig", inference);
    }
    if let Some(format) = output_config(r) {
        body.insert("outputConfig", format);
    }
    let fields = model_fields(o, r, n, family, &mut p);
    if !fields.is_empty() {
        body.insert("additionalModelRequestFields", fields);
    }
    // `providerOptions`, then `extra`, are added by `render::project`.
    (Out::Obj(body), p)
}

/// `toolResult.status` is taken by Claude and Nova only (BDR-20).
fn takes_status(family: BedrockFamily) -> bool {
    matches!(family, BedrockFamily::Claude | BedrockFamily::Nova)
}

/// `outputConfig.textFormat`: a JSON schema the answer follows, the schema as JSON text
/// (`JsonSchemaDefinition.schema` is a string; API_runtime_OutputFormat).
fn output_config(r: &Resolved) -> Option<Out<'_>> {
    let crate::ResponseFormat::JsonSchema {
        name,
        schema,
        description,
        ..
    } = r.controls.response_format.as_ref()?;
    let mut def = Obj::new();
    def.insert("schema", schema.to_string());
    def.insert("name", name.as_str());
    if let Some(d) = description {
        def.insert("description", d.as_str());
    }
    let structure = out!({ "jsonSchema": Out::Obj(def) });
    Some(out!({"textFormat": out!({"type": "json_schema", "structure": structure})}))
}

/// `toolChoice`: `{"auto": {}}`, `{"any": {}}` or `{"tool": {"name": …}}`. Converse has no way
/// to forbid calls: `none` is left out with a diagnostic.
fn tool_choice(choice: &ToolChoice, p: &mut Projection) -> Option<Out<'static>> {
    match choice {
        ToolChoice::Auto => Some(out!({"auto": out!({})})),
        ToolChoice::Required => Some(out!({"any": out!({})})),
        ToolChoice::Tool(name) => Some(out!({"tool": out!({"name": p.tool_name(name)})})),
        ToolChoice::None => {
            p.note(
                DiagnosticCode::FeatureUnavailable,
                "Converse's `toolChoice` has no `none`: the tools are declared and the model may call them".to_string(),
                None,
            );
            None
        }
    }
}

/// `inferenceConfig`: the output limit, sampling and stop sequences. With Claude's thinking on,
/// Claude's sampling rules hold (temperature 1 only, `topP` at least 0.95: ANT-35 via BDR-17).
fn inference_config<'a>(
    o: &'a RenderOptions,
    r: &'a Resolved,
    thinking: bool,
    p: &mut Projection,
) -> Obj<'a> {
    let mut c = Obj::new();
    if let Some(max) = r.limits.max_tokens {
        c.insert("maxTokens", max);
    }
    let (temperature, top_p) = claude_sampling(o, thinking, p);
    if let Some(t) = temperature {
        c.insert("temperature", t);
    }
    if let Some(t) = top_p {
        c.insert("topP", t);
    }
    if !r.controls.stop.is_empty() {
        c.insert("stopSequences", Out::strs(&r.controls.stop));
    }
    c
}

/// `additionalModelRequestFields`: Claude's `thinking` and `output_config.effort`, as the
/// Messages API takes them (BDR-17). Other families take no thinking member from turnwire.
fn model_fields<'a>(
    o: &'a RenderOptions,
    r: &'a Resolved,
    n: &Normalized,
    family: BedrockFamily,
    p: &mut Projection,
) -> Obj<'a> {
    let mut fields = Obj::new();
    if family != BedrockFamily::Claude {
        if o.thinking.is_some() {
            p.note(
                DiagnosticCode::FeatureUnavailable,
                format!(
                    "turnwire sends thinking settings through Converse only to Claude models; {} gets none",
                    o.model
                ),
                None,
            );
        }
        return fields;
    }
    let thinking = anthropic_thinking(o, r, n.thinking_enabled);
    // Bedrock takes Claude's betas in the body, never as a header (hosts.md §1.1): the binding
    // controls' beta goes with `thinking.block_binding` (ANT-52 via BDR-17).
    let bound = thinking
        .thinking
        .as_ref()
        .and_then(|t| t.get("block_binding"))
        .is_some();
    if let Some(t) = thinking.thinking {
        fields.insert("thinking", t);
    }
    if let Some(effort) = thinking.effort {
        fields.insert("output_config", out!({ "effort": effort }));
    }
    if bound {
        fields.insert(
            "anthropic_beta",
            vec![Out::from(crate::providers::anthropic::betas::BINDING_BETA)],
        );
    }
    p.extend_notes(thinking.notes);
    fields
}

fn user(m: &Message) -> Vec<Out<'_>> {
    m.blocks.iter().filter_map(content_block).collect()
}

/// Text, code and media: the blocks a user message or a tool result can hold.
fn content_block(b: &Block) -> Option<Out<'_>> {
    match b {
        Block::Text(t) => Some(out!({ "text": t.text.as_str() })),
        Block::Code(c) => Some(out!({ "text": fenced(c) })),
        Block::Media(m) => media(m),
        _ => None,
    }
}

/// An `image` or `document` block of base64 bytes; the normaliser leaves only the media the
/// target takes, inline (BDR-19).
fn media(m: &MediaBlock) -> Option<Out<'_>> {
    let (mime, data) = match (m.encoding, split_data_url(&m.data)) {
        (MediaEncoding::Url, Some((mime, data))) => (mime, data),
        (MediaEncoding::Url, None) => return None,
        (MediaEncoding::Base64, _) => (m.mime_type.as_str(), m.data.as_str()),
    };
    let format = media_format(mime)?;
    // the type of the data itself (a `data:` URL's) decides, as it decided the format
    if matches!(format, "png" | "jpeg" | "gif" | "webp") {
        let source = out!({ "bytes": data });
        return Some(out!({"image": out!({"format": format, "source": source})}));
    }
    let name = document_name(m.filename.as_deref());
    let source = out!({ "bytes": data });
    Some(out!({"document": out!({"format": format, "name": name, "source": source})}))
}

/// Converse's `format` for a MIME type (BDR-19's lists).
fn media_format(mime: &str) -> Option<&'static str> {
    let mime = mime.split(';').next().unwrap_or(mime).trim();
    Some(match mime.to_ascii_lowercase().as_str() {
        "image/png" => "png",
        "image/jpeg" | "image/jpg" => "jpeg",
        "image/gif" => "gif",
        "image/webp" => "webp",
        "application/pdf" => "pdf",
        "text/csv" => "csv",
        "application/msword" => "doc",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document" => "docx",
        "application/vnd.ms-excel" => "xls",
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" => "xlsx",
        "text/html" => "html",
        "text/plain" => "txt",
        "text/markdown" => "md",
        _ => return None,
    })
}

/// A document's `name`: alphanumerics, single spaces, `-`, `(`, `)`, `[`, `]`, 1..200
/// characters (BDR-19); the file name's other characters become spaces.
fn document_name(filename: Option<&str>) -> String {
    let base = filename
        .map(|f| f.rsplit_once('.').map_or(f, |(stem, _)| stem))
        .unwrap_or("document");
    let mut name = String::with_capacity(base.len());
    for c in base.chars() {
        let keep = c.is_ascii_alphanumeric() || matches!(c, '-' | '(' | ')' | '[' | ']');
        match (keep, name.ends_with(' ')) {
            (true, _) => name.push(c),
            (false, false) if !name.is_empty() => name.push(' '),
            _ => {}
        }
    }
    let name: String = name.trim_end().chars().take(200).collect();
    if name.is_empty() {
        "document".to_string()
    } else {
        name
    }
}

/// An assistant turn's blocks (the normaliser has left out text beside calls where the model
/// refuses it, BDR-10).
fn assistant<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    let mut out = Vec::with_capacity(m.blocks.len());
    for b in &m.blocks {
        match b {
            // The normaliser leaves only signed reasoning this model minted (BDR-14..16).
            Block::Thinking(t) => match &t.meta {
                Some(ProviderMeta::AnthropicSignature { signature }) => {
                    let text = out!({"text": t.thought.as_str(), "signature": signature.as_str()});
                    out.push(out!({"reasoningContent": out!({ "reasoningText": text })}))
                }
                Some(ProviderMeta::AnthropicRedacted { data }) => {
                    out.push(out!({"reasoningContent": out!({ "redactedContent": data.as_str() })}))
                }
                _ => {}
            },
            Block::Text(t) => out.push(out!({ "text": t.text.as_str() })),
            Block::Code(c) => out.push(out!({ "text": fenced(c) })),
            Block::ToolCall(c) => {
                let name = p.tool_name(&c.name);
                let id = p.call_id(&c.id, &name);
                let input = c.parameters.as_ref().map_or(out!({}), Out::from);
                out.push(out!({"toolUse": out!({"toolUseId": id, "name": name, "input": input})}));
            }
            _ => {}
        }
    }
    out
}

fn tool_results<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    results(m, p, false)
}

fn tool_results_with_status<'a>(m: &'a Message, p: &mut Projection) -> Vec<Out<'a>> {
    results(m, p, true)
}

/// One `toolResult` per result: a JSON object as `{"json": …}` (BDR-06: only objects), any
/// other result as text; media and notes attached to a result join its content.
fn results<'a>(m: &'a Message, p: &mut Projection, status: bool) -> Vec<Out<'a>> {
    let mut out: Vec<Out<'a>> = Vec::new();
    let mut current: Option<(Obj<'a>, Vec<Out<'a>>)> = None;
    let close = |out: &mut Vec<Out<'a>>, c: Option<(Obj<'a>, Vec<Out<'a>>)>| {
        if let Some((mut tr, content)) = c {
            tr.insert("content", content);
            out.push(out!({ "toolResult": Out::Obj(tr) }));
        }
    };
    for b in &m.blocks {
        match b {
            Block::ToolResponse(r) => {
                close(&mut out, current.take());
                let mut tr = Obj::new();
                tr.insert("toolUseId", p.result_id(&r.call_id));
                let content = match (&r.result, &r.error) {
                    (Some(Value::Object(_)), None) => {
                        vec![out!({ "json": r.result.as_ref().map_or(out!({}), Out::from) })]
                    }
                    _ => vec![out!({ "text": r.result_text().into_owned() })],
                };
                if status {
                    tr.insert(
                        "status",
                        if r.error.is_some() {
                            "error"
                        } else {
                            "success"
                        },
                    );
                }
                current = Some((tr, content));
            }
            other => {
                if let (Some((_, content)), Some(v)) = (current.as_mut(), content_block(other)) {
                    content.push(v);
                }
            }
        }
    }
    close(&mut out, current);
    out
}

/// One `toolSpec`; a missing schema is an open object.
fn declaration<'a>(
    name: String,
    description: Option<&'a str>,
    schema: Option<&'a Value>,
) -> Out<'a> {
    let mut spec = Obj::new();
    spec.insert("name", name);
    if let Some(d) = description {
        spec.insert("description", d);
    }
    let schema = schema.map_or_else(|| out!({"type": "object"}), Out::from);
    spec.insert("inputSchema", out!({ "json": schema }));
    out!({ "toolSpec": Out::Obj(spec) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bdr_19_document_names_keep_only_the_allowed_characters() {
        assert_eq!(
            document_name(Some("Q3 report_final.v2.pdf")),
            "Q3 report final v2"
        );
        assert_eq!(document_name(Some("__.pdf")), "document");
        assert_eq!(document_name(None), "document");
        assert_eq!(document_name(Some("a  (b) [c]-d.txt")), "a (b) [c]-d");
    }

    #[test]
    fn bdr_19_media_formats() {
        assert_eq!(media_format("image/jpeg"), Some("jpeg"));
        assert_eq!(media_format("text/plain; charset=utf-8"), Some("txt"));
        assert_eq!(media_format("audio/wav"), None);
    }
}
