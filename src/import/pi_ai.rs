//! pi-ai (`@mariozechner/pi-ai` ≤ 0.73, `@earendil-works/pi-ai` 1.x) histories read into the
//! canonical transcript: a `Context` (`systemPrompt`, `messages`, `tools`) or its `messages`.
//!
//! pi-ai keeps continuity in opaque string fields whose meaning depends on the assistant
//! message's `api` (docs/research/pi-ai-format.md §2), and each assistant message names its
//! `provider`, `api` and `model`, which become the message's provenance:
//!
//! - `anthropic-messages`: `thinkingSignature` is the signature (`redacted: true`: the redacted
//!   data);
//! - `openai-responses` (and Azure / Codex): `thinkingSignature` is the whole reasoning item as
//!   JSON (its `id` and `encrypted_content` are read); a tool call id is `call_id|item_id` (the
//!   call id is the canonical id);
//! - `google-generative-ai` / `google-vertex`: `thinkingSignature`, `textSignature` and a tool
//!   call's `thoughtSignature` are Gemini thought signatures;
//! - `openai-completions`: `thinkingSignature` names the field the reasoning came in.
//!
//! Fields turnwire does not read (`usage`, `timestamp`, `stopReason`, a result's `details`, a
//! Responses text's message id) are kept on the canonical message or block. `tools` are kept on
//! the transcript (declare them in the render options) and reported.

use serde_json::{Map, Value};

use super::pi_ai_keys::{
    CALL_ID, OPENAI_ITEM, PHASE, PROVENANCE, REASONING_DETAILS, SERVER_TOOL_KEY, STRUCTURED_RESULT,
    TOKEN_KIND,
};
use super::{ImportSource, Imported};
use crate::error::{Error, ErrorCode};
use crate::model::{
    Block, MediaBlock, MediaEncoding, Metadata, Provenance, ProviderMeta, Speaker, TextBlock,
    ThinkingBlock, ToolCallBlock, ToolResponseBlock,
};
use crate::providers::read::context::{part_type, string_at, wrong_type, Reader};
use crate::vocab::Provider;

/// The assistant message fields read as provenance or content; the others are kept.
const ASSISTANT_FIELDS: [&str; 6] = ["role", "content", "api", "provider", "model", PROVENANCE];

/// Reads a pi-ai `Context` (or its `messages` array) into a transcript.
///
/// ```
/// use turnwire::import::{from_pi_ai, ImportSource};
/// let context = serde_json::json!({"systemPrompt": "be brief", "messages": [
///   {"role": "user", "content": "hi", "timestamp": 1},
///   {"role": "assistant", "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
///    "content": [{"type": "thinking", "thinking": "greet", "thinkingSignature": "sig"}, {"type": "text", "text": "hello"}],
///    "stopReason": "stop", "timestamp": 2}
/// ]});
/// let imported = from_pi_ai(&context, &ImportSource::default())?;
/// assert_eq!(imported.transcript.messages.len(), 3);
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_pi_ai(context: &Value, source: &ImportSource) -> Result<Imported, Error> {
    let mut r = Reader::new(Provenance::default());
    let (messages, path) = match context {
        Value::Array(_) => (context, "$".to_string()),
        Value::Object(o) => {
            if let Some(Value::String(s)) = o.get("systemPrompt") {
                r.push(
                    Speaker::System,
                    vec![Block::Text(TextBlock::new(s.as_str()))],
                );
            }
            (
                o.get("messages").unwrap_or(&Value::Null),
                "$.messages".to_string(),
            )
        }
        other => return Err(wrong_type("$", "a pi-ai Context or its messages", other)),
    };
    let Value::Array(list) = messages else {
        return Err(wrong_type(&path, "an array of messages", messages));
    };
    let mut results: Vec<Block> = Vec::new();
    for (i, m) in list.iter().enumerate() {
        let at = format!("{path}[{i}]");
        let role = string_at(m, "role", &at)?;
        if role != "toolResult" && !results.is_empty() {
            r.push(Speaker::Tool, std::mem::take(&mut results));
        }
        let content_at = format!("{at}.content");
        match role {
            "user" | "system" => {
                let mut blocks = user_content(&mut r, m.get("content").unwrap_or(&Value::Null), &content_at)?;
                let speaker = if role == "user" { Speaker::Human } else { Speaker::System };
                // a system message's tool changes (`toPiAi` keeps them under `turnwire`)
                blocks.extend(crate::model::kept_changes(m));
                r.push(speaker, blocks);
                r.keep_extra(m, &["role", "content", "turnwire"]);
            }
            "assistant" => {
                let api = m.get("api").and_then(Value::as_str).unwrap_or_default();
                let blocks = assistant(&mut r, m, api, &content_at)?;
                r.push(Speaker::Ai, blocks);
                let provenance = provenance(m, api, source);
                if let Some(last) = r.messages.last_mut().filter(|l| l.speaker == Speaker::Ai) {
                    last.metadata = Some(Metadata { provenance, extra: Map::new() });
                }
                r.keep_extra(m, &ASSISTANT_FIELDS);
            }
            "toolResult" => results.extend(tool_result(&mut r, m, &at)?),
            other => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("{at}.role"),
                    format!("a pi-ai message's role is `user`, `assistant`, `toolResult` or `system`, found `{other}`"),
                ))
            }
        }
    }
    r.push(Speaker::Tool, results);
    let mut imported = r.finish(None);
    if let Some(tools) = context.get("tools").filter(|t| !t.is_null()) {
        imported
            .transcript
            .extra
            .insert("tools".into(), tools.clone());
        imported.diagnostics.push(
            crate::vocab::Diagnostic::new(
                crate::vocab::DiagnosticCode::ImportConverted,
                crate::vocab::FaultClass::CanonicalState,
                "the context's tools are kept on the transcript; declare them in the render options",
            )
            .at_path("$.tools"),
        );
    }
    Ok(imported)
}

/// turnwire's provider for a pi-ai assistant message: by its `api`, and for chat completions by
/// its `provider`.
pub(crate) fn provider_of(api: &str, pi_provider: &str) -> Option<Provider> {
    Some(match api {
        "anthropic-messages" => Provider::Anthropic,
        "openai-responses" | "azure-openai-responses" | "openai-codex-responses" => {
            Provider::OpenAiResponses
        }
        "google-generative-ai" | "google-vertex" | "google-gemini-cli" => Provider::Gemini,
        "mistral-conversations" => Provider::Mistral,
        "openai-completions" => match pi_provider {
            "deepseek" => Provider::DeepSeek,
            "moonshotai" | "kimi" => Provider::Kimi,
            "mistral" => Provider::Mistral,
            "openai" => Provider::OpenAiChat,
            _ => Provider::OpenAiCompatible,
        },
        _ => return None,
    })
}

fn provenance(m: &Value, api: &str, source: &ImportSource) -> Provenance {
    // turnwire's own provenance, written by `to_pi_ai`, is the exact one
    if let Some(kept) = m
        .get(PROVENANCE)
        .and_then(|v| serde_json::from_value::<Provenance>(v.clone()).ok())
    {
        return kept;
    }
    let text = |key: &str| m.get(key).and_then(Value::as_str).filter(|s| !s.is_empty());
    let provider = provider_of(api, text("provider").unwrap_or_default());
    Provenance {
        provider: provider.map(|p| p.as_str().to_string()),
        api: provider.map(|p| p.wire_api().to_string()),
        model: text("model")
            .map(str::to_string)
            .or_else(|| source.model.clone()),
        endpoint: source.endpoint.clone(),
        host: source.host.map(|h| h.as_str().to_string()),
        account: source.account.clone(),
    }
}

fn user_content(r: &mut Reader, content: &Value, path: &str) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    for (j, part) in crate::providers::read::context::parts(content, path)?
        .into_iter()
        .enumerate()
    {
        let at = format!("{path}[{j}]");
        out.push(content_part(r, part, &at)?);
    }
    Ok(out)
}

/// `text` and `image` (`{data, mimeType}`, base64) parts.
fn content_part(r: &mut Reader, part: Value, at: &str) -> Result<Block, Error> {
    Ok(match part_type(&part) {
        "text" => Block::Text(TextBlock::new(string_at(&part, "text", at)?)),
        "image" => {
            let data = string_at(&part, "data", at)?;
            let mime = string_at(&part, "mimeType", at)?;
            Block::Media(MediaBlock::new(mime, data, MediaEncoding::Base64))
        }
        _ => r.opaque(part, at, "this part"),
    })
}

fn is_responses(api: &str) -> bool {
    matches!(
        api,
        "openai-responses" | "azure-openai-responses" | "openai-codex-responses"
    )
}

fn is_google(api: &str) -> bool {
    matches!(
        api,
        "google-generative-ai" | "google-vertex" | "google-gemini-cli"
    )
}

fn gemini(sig: Option<&str>) -> Option<ProviderMeta> {
    sig.filter(|s| !s.is_empty())
        .map(|s| ProviderMeta::GeminiThoughtSignature {
            thought_signature: s.to_string(),
        })
}

/// The call id of a pi-ai tool call id: a Responses id is `call_id|item_id`.
fn call_id(id: &str) -> &str {
    id.split('|').next().unwrap_or(id)
}

/// The `api` to read a part's tokens by: the message's, or, for a message without one, the
/// kind `to_pi_ai` noted on the part.
fn part_api<'a>(part: &Value, api: &'a str) -> &'a str {
    if !api.is_empty() {
        return api;
    }
    match part.get(TOKEN_KIND).and_then(Value::as_str) {
        Some("anthropic_signature" | "anthropic_redacted") => "anthropic-messages",
        Some("openai_reasoning") => "openai-responses",
        Some("gemini_thought_signature") => "google-generative-ai",
        _ => api,
    }
}

fn assistant(
    r: &mut Reader,
    m: &Value,
    message_api: &str,
    path: &str,
) -> Result<Vec<Block>, Error> {
    let mut out = Vec::new();
    let content = m.get("content").unwrap_or(&Value::Null);
    for (j, part) in crate::providers::read::context::parts(content, path)?
        .into_iter()
        .enumerate()
    {
        let at = format!("{path}[{j}]");
        let api = part_api(&part, message_api);
        let signature = |key: &str| {
            part.get(key)
                .and_then(Value::as_str)
                .filter(|s| !s.is_empty())
        };
        let block = match part_type(&part) {
            "text" if part.get(SERVER_TOOL_KEY).is_some() => {
                let kept = part.get(SERVER_TOOL_KEY).cloned().unwrap_or_default();
                match Block::from_value(kept) {
                    Ok(b @ Block::ServerTool(_)) => b,
                    _ => Block::Text(TextBlock::new(string_at(&part, "text", &at)?)),
                }
            }
            "text" => {
                let mut t = TextBlock::new(string_at(&part, "text", &at)?);
                // the part's own provenance, written by `to_pi_ai` for a signed text part
                // merged into a turn of another origin (GEM-23)
                t.provenance = part_provenance(&part);
                if is_google(api) || is_gemini(t.provenance.as_ref()) {
                    t.meta = gemini(signature("textSignature"));
                } else if let Some(s) = signature("textSignature") {
                    // a Responses message item id: kept, not rendered
                    t.extra.insert("textSignature".into(), s.into());
                }
                if let (None, Some(phase)) = (&t.meta, part.get(PHASE).and_then(Value::as_str)) {
                    t.meta = Some(ProviderMeta::OpenAiPhase {
                        phase: phase.to_string(),
                    });
                }
                Block::Text(t)
            }
            "thinking" => Block::Thinking(thinking(&part, api, &at)?),
            "toolCall" => {
                let full = string_at(&part, "id", &at)?;
                let id = match part.get(CALL_ID).and_then(Value::as_str) {
                    Some(kept) => kept,
                    None if is_responses(api) => call_id(full),
                    None => full,
                }
                .to_string();
                if id != full {
                    r.renamed.insert(full.to_string(), id.clone());
                }
                let name = string_at(&part, "name", &at)?.to_string();
                r.names.insert(id.clone(), name.clone());
                let mut c = ToolCallBlock::new(id, name, Value::Null);
                c.parameters = part.get("arguments").cloned();
                // the call's own provenance, written by `to_pi_ai` for a call merged into a
                // turn of another origin (GEM-22)
                c.provenance = part_provenance(&part);
                if is_google(api) || is_gemini(c.provenance.as_ref()) {
                    c.meta = gemini(signature("thoughtSignature"));
                } else if let Some(s) = signature("thoughtSignature") {
                    c.extra.insert("thoughtSignature".into(), s.into());
                }
                if full != c.id {
                    c.extra.insert("piId".into(), full.into());
                }
                if c.meta.is_none() {
                    c.meta = part
                        .get(OPENAI_ITEM)
                        .and_then(ProviderMeta::openai_item_from);
                }
                Block::ToolCall(c)
            }
            _ => r.opaque(part, &at, "this assistant part"),
        };
        out.push(block);
    }
    Ok(out)
}

fn thinking(part: &Value, api: &str, at: &str) -> Result<ThinkingBlock, Error> {
    let text = part
        .get("thinking")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let sig = part
        .get("thinkingSignature")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty());
    let redacted = part.get("redacted") == Some(&Value::Bool(true));
    let mut t = ThinkingBlock::new(if redacted { "" } else { text });
    match (api, sig) {
        ("anthropic-messages", Some(s)) if redacted => {
            t.meta = Some(ProviderMeta::AnthropicRedacted {
                data: s.to_string(),
            })
        }
        ("anthropic-messages", Some(s)) => {
            t.meta = Some(ProviderMeta::AnthropicSignature {
                signature: s.to_string(),
            })
        }
        (api, Some(s)) if is_responses(api) => {
            let item: Value =
                crate::json::parse(s, &format!("{at}.thinkingSignature"), "the reasoning item")
                    .map(|p| p.value)
                    .unwrap_or(Value::Null);
            t.meta = Some(crate::providers::openai_responses::read::reasoning_meta(
                &item,
            ));
        }
        (api, sig) if is_google(api) => t.meta = gemini(sig),
        // the field the reasoning came in (`reasoning_content`, `reasoning`), or OpenRouter's
        // reasoning details (kept)
        (_, Some(s)) if s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            t.source_field = Some(s.to_string())
        }
        (_, Some(s)) => {
            t.extra.insert("thinkingSignature".into(), s.into());
        }
        (_, None) => {}
    }
    if let (None, Some(Value::Array(details))) = (&t.meta, part.get(REASONING_DETAILS)) {
        t.meta = Some(ProviderMeta::OpenRouterReasoningDetails {
            details: details.clone(),
        });
    }
    Ok(t)
}

fn tool_result(r: &mut Reader, m: &Value, at: &str) -> Result<Vec<Block>, Error> {
    let full = string_at(m, "toolCallId", at)?;
    let id = r
        .renamed
        .get(full)
        .cloned()
        .unwrap_or_else(|| full.to_string());
    let mut response = ToolResponseBlock {
        tool_name: m
            .get("toolName")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or_else(|| r.names.get(&id).cloned()),
        call_id: id,
        ..ToolResponseBlock::default()
    };
    let content_at = format!("{at}.content");
    let mut attachments = Vec::new();
    let mut result = None;
    for (k, part) in crate::providers::read::context::parts(
        m.get("content").unwrap_or(&Value::Null),
        &content_at,
    )?
    .into_iter()
    .enumerate()
    {
        match (k, part_type(&part), part.get("text")) {
            (0, "text", Some(Value::String(t))) => result = Some(t.clone()),
            _ => attachments.push(content_part(r, part, &format!("{content_at}[{k}]"))?),
        }
    }
    let text = result.unwrap_or_default();
    if m.get("isError") == Some(&Value::Bool(true)) {
        response.error = Some(text);
    } else {
        // a structured result turnwire wrote (`to_pi_ai`) next to its text
        response.result = Some(match m.get(STRUCTURED_RESULT) {
            Some(v) if !v.is_null() => v.clone(),
            _ => Value::String(text),
        });
    }
    for key in ["details", "timestamp"] {
        if let Some(v) = m.get(key) {
            response.extra.insert(key.into(), v.clone());
        }
    }
    response.meta = m.get(OPENAI_ITEM).and_then(ProviderMeta::openai_item_from);
    let mut out = vec![Block::ToolResponse(response)];
    out.extend(attachments);
    // the tools it loads (`toPiAi` keeps them under `turnwire.toolChanges`)
    out.extend(crate::model::kept_changes(m));
    Ok(out)
}

/// A part's own provenance (`turnwireProvenance`), which `to_pi_ai` writes on a call or a
/// signed text part merged into a turn of another origin (GEM-22/23).
fn part_provenance(part: &Value) -> Option<Provenance> {
    part.get(PROVENANCE)
        .and_then(|v| serde_json::from_value::<Provenance>(v.clone()).ok())
}

/// Whether a part's own provenance names a Gemini provider (its signature is Gemini's).
fn is_gemini(provenance: Option<&Provenance>) -> bool {
    provenance.is_some_and(|p| {
        p.provider
            .as_deref()
            .is_some_and(|p| crate::model::provider_family(p) == "gemini")
    })
}
