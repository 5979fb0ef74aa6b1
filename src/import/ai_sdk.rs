//! AI SDK (`ai` v5–v7) `ModelMessage[]` histories read into the canonical transcript.
//!
//! The AI SDK keeps continuity in each part's `providerOptions`, copied from the provider's
//! `providerMetadata` (docs/research/ai-sdk-format.md):
//!
//! - `anthropic.signature` / `anthropic.redactedData` on reasoning parts: signed or redacted
//!   thinking;
//! - `openai.itemId` + `openai.reasoningEncryptedContent` (or `azure.*`) on reasoning parts: a
//!   Responses reasoning item, one part per summary (consecutive parts of one item are merged);
//! - `google.thoughtSignature` (or `googleVertex` / `vertex`) on any part: a Gemini thought
//!   signature on that block.
//!
//! A signed block's provenance names the provider its namespace belongs to and the source's
//! model, so it replays only there. Read for Gemini, a turn without a Google signature is not
//! attributed to the source model (its call ids are not Gemini's, GEM-22). Tool results read every `output` kind (`text`, `json`,
//! `error-text`, `error-json`, `execution-denied`, `content` with v5 `media`, v6 `file-data` /
//! `image-data` / `file-url`, v7 `file`), and v4's `result`. Provider-executed tool calls and
//! their results, approvals, `custom` and `reasoning-file` parts are kept opaque, reported.

use serde_json::Value;

use super::{ImportSource, Imported};
use crate::error::{Error, ErrorCode};
use crate::model::{
    Block, MediaBlock, MediaEncoding, Provenance, ProviderMeta, Speaker, TextBlock, ThinkingBlock,
    ToolCallBlock,
};
use crate::providers::read::context::{
    part_type, parts, provenance, string_at, wrong_type, Reader,
};
use crate::providers::read::values::url_media;
use crate::vocab::Provider;

mod tool_results;
use tool_results::tool;

/// The continuity namespaces of Gemini signatures, in the order the AI SDK reads them.
const GOOGLE_NAMESPACES: [&str; 3] = ["google", "googleVertex", "vertex"];

/// Reads AI SDK `ModelMessage[]` into a transcript. `source.provider` and `source.model` say who
/// wrote the assistant turns (the AI SDK does not store it); signed blocks also name the
/// provider of their namespace.
///
/// ```
/// use turnwire::import::{from_ai_sdk, ImportSource};
/// let messages = serde_json::json!([
///   {"role": "user", "content": "weather?"},
///   {"role": "assistant", "content": [
///     {"type": "reasoning", "text": "look it up", "providerOptions": {"anthropic": {"signature": "sig"}}},
///     {"type": "tool-call", "toolCallId": "toolu_1", "toolName": "weather", "input": {"city": "Oslo"}}]},
///   {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "toolu_1", "toolName": "weather",
///     "output": {"type": "text", "value": "cold"}}]}
/// ]);
/// let source = ImportSource { model: Some("claude-sonnet-4-5".into()), ..Default::default() };
/// let imported = from_ai_sdk(&messages, None, &source)?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_ai_sdk(
    messages: &Value,
    provider: Option<Provider>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let who = match provider {
        Some(p) => provenance(p, None, source),
        None => Provenance {
            model: source.model.clone(),
            endpoint: source.endpoint.clone(),
            host: source.host.map(|h| h.as_str().to_string()),
            account: source.account.clone(),
            ..Provenance::default()
        },
    };
    let mut r = Reader::new(who);
    let Value::Array(list) = messages else {
        return Err(wrong_type("$", "an array of ModelMessage", messages));
    };
    for (i, m) in list.iter().enumerate() {
        let at = format!("$[{i}]");
        let content = m.get("content").unwrap_or(&Value::Null);
        let content_at = format!("{at}.content");
        match string_at(m, "role", &at)? {
            "system" => {
                let mut blocks = user(&mut r, content, &content_at)?;
                blocks.extend(crate::model::kept_changes(m));
                r.push(Speaker::System, blocks);
            }
            "user" => {
                let blocks = user(&mut r, content, &content_at)?;
                r.push(Speaker::Human, blocks);
            }
            "assistant" => {
                let blocks = assistant(&mut r, content, &content_at)?;
                push_assistant(&mut r, blocks, content);
            }
            "tool" => {
                let blocks = tool(&mut r, content, &content_at)?;
                r.push(Speaker::Tool, blocks);
            }
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!("a ModelMessage's role is `system`, `user`, `assistant` or `tool`, found `{other}`"),
                ))
            }
        }
    }
    Ok(r.finish(None))
}

/// Pushes an assistant turn with the source's provenance — except a turn read for Gemini that
/// carries no Google thought signature (a call `toAiSdk` marked `turnwire.geminiCallId` is then
/// the source's on its own): Gemini 3 signs every call turn, so such a turn is
/// another model's, and its call ids must not be echoed as Gemini's (GEM-22). It keeps the
/// source's endpoint and account, not its provider and model.
fn push_assistant(r: &mut Reader, blocks: Vec<crate::model::Block>, content: &Value) {
    let gemini = r
        .assistant
        .provider
        .as_deref()
        .is_some_and(|p| crate::model::provider_family(p) == "gemini");
    // the placeholder a repair for Gemini writes is no one's signature (the calls `toAiSdk`
    // marked as Gemini's are the source's on their own, see `assistant`)
    let signed = content.as_array().is_some_and(|parts| {
        parts.iter().any(|p| {
            str_of(options(p, &GOOGLE_NAMESPACES), "thoughtSignature")
                .is_some_and(|s| s != crate::normalize::synthesize::GEMINI_PLACEHOLDER_SIGNATURE)
        })
    });
    if !gemini || signed {
        r.push(Speaker::Ai, blocks);
        return;
    }
    let source = std::mem::take(&mut r.assistant);
    r.assistant = Provenance {
        endpoint: source.endpoint.clone(),
        host: source.host.clone(),
        account: source.account.clone(),
        ..Provenance::default()
    };
    r.push(Speaker::Ai, blocks);
    r.assistant = source;
}

/// The object under `providerOptions.<namespace>` of a part, for the first namespace present.
fn options<'a>(part: &'a Value, namespaces: &[&str]) -> Option<&'a Value> {
    let all = part.get("providerOptions")?;
    namespaces.iter().find_map(|n| all.get(*n))
}

/// The `providerOptions` entry that holds a Claude reasoning token (`anthropic` or `bedrock`),
/// and the provenance it gives the block: Bedrock's for `bedrock` alone; for both keys with
/// the same token, the message's own in a Converse history (the exporter writes both for a
/// block that names no provider); Anthropic's otherwise.
fn claude_token<'a>(part: &'a Value, r: &Reader) -> (Option<&'a Value>, Option<Provenance>) {
    let anthropic = options(part, &["anthropic"]);
    let bedrock = options(part, &["bedrock"]);
    let converse = r.assistant.provider.as_deref() == Some(Provider::BedrockConverse.as_str());
    match (anthropic, bedrock) {
        (Some(a), Some(b)) if a == b && converse => (Some(a), None),
        (None, Some(b)) => (Some(b), signed_by(r, Provider::BedrockConverse)),
        (a, _) => (a, signed_by(r, Provider::Anthropic)),
    }
}

fn str_of<'a>(v: Option<&'a Value>, key: &str) -> Option<&'a str> {
    v.and_then(|o| o.get(key)).and_then(Value::as_str)
}

/// A Gemini thought signature on a part, with the provenance it replays to.
fn google_signature(part: &Value) -> Option<ProviderMeta> {
    str_of(options(part, &GOOGLE_NAMESPACES), "thoughtSignature").map(|s| {
        ProviderMeta::GeminiThoughtSignature {
            thought_signature: s.to_string(),
        }
    })
}

/// An OpenAI Responses label `toAiSdk` keeps in `providerOptions.turnwire` (ORS-18/19): a
/// text's `phase`, a call's or result's `openaiItem`.
pub(crate) fn responses_label(part: &Value) -> Option<ProviderMeta> {
    if let Some(p) = part
        .pointer("/providerOptions/turnwire/phase")
        .and_then(Value::as_str)
    {
        return Some(ProviderMeta::OpenAiPhase {
            phase: p.to_string(),
        });
    }
    part.pointer("/providerOptions/turnwire/openaiItem")
        .and_then(ProviderMeta::openai_item_from)
}

/// The provenance of a block signed for `provider`: the message's, named for that provider.
fn signed_by(r: &Reader, provider: Provider) -> Option<Provenance> {
    if r.assistant.provider.as_deref() == Some(provider.as_str()) {
        return None; // the message's own provenance says it
    }
    Some(Provenance {
        provider: Some(provider.as_str().to_string()),
        api: Some(provider.wire_api().to_string()),
        model: r.assistant.model.clone(),
        endpoint: r.assistant.endpoint.clone(),
        host: r.assistant.host.clone(),
        account: r.assistant.account.clone(),
    })
}

/// System and user content: text, image and file parts.
fn user(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        out.push(match part_type(&part) {
            "text" => Block::Text(TextBlock::new(string_at(&part, "text", &at)?)),
            "image" | "file" => match file(r, &part, &at) {
                Some(m) => Block::Media(m),
                None => r.opaque(
                    part,
                    &at,
                    "this file part (a provider file reference, or bytes not given as base64)",
                ),
            },
            _ => r.opaque(part, &at, "this part"),
        });
    }
    Ok(out)
}

/// An image or file part: `image` / `data` as base64, a data URL or a URL (bare, or v7's
/// tagged `{type: "data" | "url", …}`).
fn file(r: &mut Reader, part: &Value, at: &str) -> Option<MediaBlock> {
    let image = part_type(part) == "image";
    let data = if image {
        part.get("image")
    } else {
        part.get("data")
    }?;
    let declared = part
        .get("mediaType")
        .and_then(Value::as_str)
        .filter(|m| m.contains('/'));
    let (text, url) = match data {
        Value::String(s) => (
            s.as_str(),
            s.starts_with("http://") || s.starts_with("https://") || s.starts_with("data:"),
        ),
        Value::Object(tagged) => match tagged.get("type").and_then(Value::as_str) {
            Some("data") => (tagged.get("data")?.as_str()?, false),
            Some("url") => (tagged.get("url")?.as_str()?, true),
            _ => return None,
        },
        _ => return None,
    };
    let mut m = if url {
        let mut m = url_media(
            r,
            text,
            image || declared.is_some_and(|d| d.starts_with("image/")),
            at,
        );
        if let (Some(d), MediaEncoding::Url) = (declared, m.encoding) {
            m.mime_type = d.to_string();
        }
        m
    } else {
        let mime = declared.unwrap_or(if image {
            "image/png"
        } else {
            "application/octet-stream"
        });
        if declared.is_none() {
            r.note(
                at,
                format!("the part names no full media type; `{mime}` was assumed"),
            );
        }
        MediaBlock::new(mime, text, MediaEncoding::Base64)
    };
    m.filename = part
        .get("filename")
        .and_then(Value::as_str)
        .map(str::to_string);
    Some(m)
}

/// Assistant content; a provider-executed call and its result (server tools) stay opaque.
fn assistant(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out: Vec<Block> = Vec::new();
    for (j, part) in parts(content, path)?.into_iter().enumerate() {
        let at = format!("{path}[{j}]");
        match part_type(&part) {
            "text" => {
                let mut t = TextBlock::new(string_at(&part, "text", &at)?);
                t.meta = google_signature(&part);
                if t.meta.is_some() {
                    t.provenance = signed_by(r, Provider::Gemini);
                } else {
                    t.meta = responses_label(&part);
                }
                out.push(Block::Text(t));
            }
            "reasoning" => {
                let text = part.get("text").and_then(Value::as_str).unwrap_or_default();
                if is_openai(&part) {
                    if let Some(mut block) = merge_openai_part(&mut out, &part, text) {
                        if let Block::Thinking(t) = &mut block {
                            t.provenance = signed_by(r, Provider::OpenAiResponses);
                        }
                        out.push(block);
                    }
                    continue;
                }
                let mut t = ThinkingBlock::new(text);
                // `@ai-sdk/amazon-bedrock` keeps Claude's signature under `bedrock`; both keys
                // with the same token say no more than "Claude's" (an unattributed block).
                let (claude, minter) = claude_token(&part, r);
                if let Some(s) = str_of(claude, "signature") {
                    t.meta = Some(ProviderMeta::AnthropicSignature {
                        signature: s.to_string(),
                    });
                    t.provenance = minter;
                } else if let Some(d) = str_of(claude, "redactedData") {
                    t.meta = Some(ProviderMeta::AnthropicRedacted {
                        data: d.to_string(),
                    });
                    t.provenance = minter;
                } else if let Some(meta) = google_signature(&part) {
                    t.meta = Some(meta);
                    t.provenance = signed_by(r, Provider::Gemini);
                } else if let Some(Value::Array(details)) =
                    options(&part, &["openrouter"]).and_then(|o| o.get("reasoning_details"))
                {
                    t.meta = Some(ProviderMeta::OpenRouterReasoningDetails {
                        details: details.clone(),
                    });
                }
                out.push(Block::Thinking(t));
            }
            "tool-call" | "tool-result" if server_tool(&part).is_some() => {
                match server_tool(&part).map(|b| Block::from_value(b.clone())) {
                    Some(Ok(block)) => out.push(block),
                    _ => out.push(r.opaque(part, &at, "this provider-executed tool part")),
                }
            }
            "tool-call" if part.get("providerExecuted") == Some(&Value::Bool(true)) => {
                out.push(r.opaque(part, &at, "this provider-executed tool call"));
            }
            "tool-call" => {
                let id = string_at(&part, "toolCallId", &at)?.to_string();
                let name = string_at(&part, "toolName", &at)?.to_string();
                r.names.insert(id.clone(), name.clone());
                let input = crate::providers::read::values::arguments(
                    part.get("input").or_else(|| part.get("args")),
                    &format!("{at}.input"),
                );
                let meta = google_signature(&part);
                // the call's own provenance, kept by `toAiSdk` for a call merged into a turn of
                // another origin
                let own = part
                    .pointer("/providerOptions/turnwire/provenance")
                    .and_then(|v| serde_json::from_value::<Provenance>(v.clone()).ok());
                // a call `toAiSdk` marked as Gemini's is the source's (GEM-22), whatever turn it
                // sits in
                let marked = part.pointer("/providerOptions/turnwire/geminiCallId")
                    == Some(&Value::Bool(true));
                let provenance = own
                    .or_else(|| meta.as_ref().and_then(|_| signed_by(r, Provider::Gemini)))
                    .or_else(|| marked.then(|| r.assistant.clone()));
                let meta = meta.or_else(|| responses_label(&part));
                out.push(Block::ToolCall(ToolCallBlock {
                    parameters: input,
                    meta,
                    provenance,
                    ..ToolCallBlock::new(id, name, Value::Null)
                }));
            }
            "file" | "image" => match file(r, &part, &at) {
                Some(m) => out.push(Block::Media(m)),
                None => out.push(r.opaque(part, &at, "this file part")),
            },
            _ => out.push(r.opaque(part, &at, "this assistant part")),
        }
    }
    Ok(out)
}

/// The server-tool block `toAiSdk` keeps in `providerOptions.turnwire.serverTool`.
fn server_tool(part: &Value) -> Option<&Value> {
    part.pointer("/providerOptions/turnwire/serverTool")
        .filter(|b| b.get("type").and_then(Value::as_str) == Some("server_tool"))
}

fn is_openai(part: &Value) -> bool {
    let o = options(part, &["openai", "azure"]);
    str_of(o, "itemId").is_some() || str_of(o, "reasoningEncryptedContent").is_some()
}

/// An OpenAI reasoning part: merged into the previous block when it is the same item (the AI
/// SDK writes one part per summary), else a new thinking block to push.
fn merge_openai_part(out: &mut [Block], part: &Value, text: &str) -> Option<Block> {
    if !is_openai(part) {
        return None;
    }
    let o = options(part, &["openai", "azure"]);
    let id = str_of(o, "itemId").map(str::to_string);
    let encrypted = str_of(o, "reasoningEncryptedContent").map(str::to_string);
    if let Some(Block::Thinking(prev)) = out.last_mut() {
        if let Some(ProviderMeta::OpenAiReasoning {
            id: prev_id,
            encrypted_content,
        }) = &mut prev.meta
        {
            if id.is_some() && *prev_id == id {
                if !text.is_empty() {
                    if !prev.thought.is_empty() {
                        prev.thought.push_str("\n\n");
                    }
                    prev.thought.push_str(text);
                }
                if encrypted.is_some() {
                    *encrypted_content = encrypted;
                }
                return None;
            }
        }
    }
    let mut t = ThinkingBlock::new(text);
    t.meta = Some(ProviderMeta::OpenAiReasoning {
        id,
        encrypted_content: encrypted,
    });
    Some(Block::Thinking(t))
}
