//! The canonical transcript written as AI SDK `ModelMessage[]` (v6 and v7 read it; v5 too, but
//! for media inside tool results), continuity tokens under the `providerOptions` keys the
//! stock `@ai-sdk/*` providers read back (docs/research/ai-sdk-format.md §2).

use crate::fast_map::HashMap;

use serde_json::{json, Map, Value};

use super::Exported;
use crate::model::{Block, MediaBlock, MediaEncoding, Message, ProviderMeta, Speaker, Transcript};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Writes `transcript` as AI SDK `ModelMessage[]`: system messages as `system` messages,
/// thinking as `reasoning` parts (Anthropic `signature` / `redactedData`, OpenAI `itemId` and
/// `reasoningEncryptedContent`, Google `thoughtSignature`), calls as `tool-call` parts and
/// results as `tool-result` parts with `text`, `json`, `error-text` or `content` outputs. It
/// writes what is there: repair first (`normalize`) for a history the AI SDK accepts.
///
/// ```
/// let t = turnwire::Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let out = turnwire::export::to_ai_sdk(&t);
/// assert_eq!(out.messages[0], serde_json::json!({"role": "user", "content": [{"type": "text", "text": "hi"}]}));
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn to_ai_sdk(transcript: &Transcript) -> Exported {
    let mut w = Writer::default();
    for (i, m) in transcript.messages.iter().enumerate() {
        let message = match m.speaker {
            Speaker::System => with_changes(
                json!({"role": "system", "content": w.texts(m, i)}),
                &m.blocks,
            ),
            Speaker::Human => json!({"role": "user", "content": w.user(m, i)}),
            Speaker::Ai => json!({"role": "assistant", "content": w.assistant(m, i)}),
            Speaker::Tool => json!({"role": "tool", "content": w.tool(m, i)}),
        };
        w.messages.push(message);
    }
    Exported {
        messages: w.messages,
        diagnostics: w.diagnostics,
        id_map: Vec::new(),
        tool_names: Vec::new(),
    }
}

#[derive(Default)]
struct Writer {
    messages: Vec<Value>,
    diagnostics: Vec<Diagnostic>,
    names: HashMap<String, String>,
}

impl Writer {
    fn left_out(&mut self, b: &Block, at: (usize, usize), why: &str) {
        self.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::BlockOmitted,
                FaultClass::ProviderProjection,
                format!(
                    "{} block at message {} block {} {why}",
                    b.type_name(),
                    at.0,
                    at.1
                ),
            )
            .at(Some(at)),
        );
    }

    /// A system message's text (the AI SDK takes a string there).
    fn texts(&mut self, m: &Message, i: usize) -> Value {
        let mut texts = Vec::new();
        for (j, b) in m.blocks.iter().enumerate() {
            match b {
                Block::Text(t) => texts.push(t.text.clone()),
                Block::Code(c) => texts.push(crate::providers::common::fenced(c)),
                // kept under `providerOptions.turnwire.toolChanges` (see `with_changes`)
                Block::ToolChange(_) => {}
                other => self.left_out(other, (i, j), "has no place in a system message; left out"),
            }
        }
        Value::String(texts.join("\n\n"))
    }

    fn user(&mut self, m: &Message, i: usize) -> Value {
        let mut parts = Vec::new();
        for (j, b) in m.blocks.iter().enumerate() {
            match b {
                Block::Text(t) => parts.push(json!({"type": "text", "text": t.text})),
                Block::Code(c) => {
                    parts.push(json!({"type": "text", "text": crate::providers::common::fenced(c)}))
                }
                Block::Media(media) => parts.push(file_part(media)),
                other => self.left_out(other, (i, j), "has no place in a user message; left out"),
            }
        }
        Value::Array(parts)
    }

    fn assistant(&mut self, m: &Message, i: usize) -> Value {
        let mut parts: Vec<Value> = Vec::new();
        // a turn whose calls come from several origins (the role-order pass merged them) says
        // each call's: the AI SDK keeps no provenance, and `fromAiSdk` attributes the rest of
        // the turn to one source
        let own = m.provenance();
        let origin = |c: &crate::model::ToolCallBlock| {
            c.provenance
                .as_ref()
                .map_or_else(|| own.clone(), |p| p.or(&own))
        };
        let origins: Vec<crate::model::Provenance> = m
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::ToolCall(c) => Some(origin(c)),
                _ => None,
            })
            .collect();
        let mixed = origins.windows(2).any(|w| w[0] != w[1]);
        for (j, b) in m.blocks.iter().enumerate() {
            match b {
                Block::Text(t) => parts.push(with_options(
                    json!({"type": "text", "text": t.text}),
                    t.meta.as_ref(),
                )),
                Block::Code(c) => {
                    parts.push(json!({"type": "text", "text": crate::providers::common::fenced(c)}))
                }
                Block::Thinking(t) => {
                    let by = t
                        .provenance
                        .as_ref()
                        .map_or_else(|| own.clone(), |p| p.or(&own))
                        .provider;
                    let part = with_options(
                        json!({"type": "reasoning", "text": t.thought}),
                        t.meta.as_ref(),
                    );
                    parts.push(bedrock_key(part, by.as_deref()));
                }
                Block::ToolCall(c) => {
                    self.names.insert(c.id.clone(), c.name.clone());
                    let input = c.parameters.clone().unwrap_or_else(|| json!({}));
                    let mut part = with_options(
                        json!({"type": "tool-call", "toolCallId": c.id, "toolName": c.name, "input": input}),
                        c.meta.as_ref(),
                    );
                    let origin = origin(c);
                    if crate::providers::gemini::minted_by_gemini(&c.id, &origin) {
                        turnwire_option(&mut part, "geminiCallId", Value::Bool(true));
                    }
                    if mixed && !origin.is_empty() {
                        turnwire_option(&mut part, "provenance", origin.write());
                    }
                    parts.push(part);
                }
                Block::Media(media) => parts.push(file_part(media)),
                Block::ServerTool(s) => parts.push(server_tool_part(s, b)),
                other => self.left_out(other, (i, j), "has no AI SDK assistant part; left out"),
            }
        }
        Value::Array(parts)
    }

    fn tool(&mut self, m: &Message, i: usize) -> Value {
        let mut parts: Vec<Value> = Vec::new();
        for (j, b) in m.blocks.iter().enumerate() {
            match b {
                Block::ToolResponse(r) => {
                    let name = r
                        .tool_name
                        .clone()
                        .or_else(|| self.names.get(&r.call_id).cloned())
                        .unwrap_or_default();
                    let output = match (&r.error, &r.result) {
                        (Some(_), _) => json!({"type": "error-text", "value": r.text()}),
                        (None, Some(Value::String(s))) => json!({"type": "text", "value": s}),
                        (None, None | Some(Value::Null)) => json!({"type": "text", "value": ""}),
                        (None, Some(v)) => json!({"type": "json", "value": v}),
                    };
                    parts.push(with_options(
                        json!({"type": "tool-result", "toolCallId": r.call_id, "toolName": name, "output": output}),
                        r.meta.as_ref(),
                    ));
                }
                // a tool the result loads: kept with the result
                Block::ToolChange(_) if !parts.is_empty() => {
                    if let Some(last) = parts.last_mut() {
                        *last = with_changes(std::mem::take(last), std::slice::from_ref(b));
                    }
                }
                // Text and media after a result are that result's further output.
                Block::Text(_) | Block::Code(_) | Block::Media(_) if !parts.is_empty() => {
                    if let Some(last) = parts.last_mut() {
                        attach(last, b);
                    }
                }
                other => self.left_out(
                    other,
                    (i, j),
                    "in a tool message follows no result; left out",
                ),
            }
        }
        Value::Array(parts)
    }
}

/// A server tool as the AI SDK writes a provider-executed call or result: a `tool-call` with
/// `providerExecuted` (its input) or an assistant `tool-result` (its content as JSON). The
/// block itself rides along in `providerOptions.turnwire.serverTool`, where `fromAiSdk` reads
/// it back whole.
/// `v` with the tool changes among `blocks` added under `providerOptions.turnwire.toolChanges`
/// (the AI SDK has no tool changes; `fromAiSdk` reads them back).
fn with_changes(mut v: Value, blocks: &[Block]) -> Value {
    let changes: Vec<Value> = blocks
        .iter()
        .filter(|b| matches!(b, Block::ToolChange(_)))
        .map(Block::write)
        .collect();
    if changes.is_empty() {
        return v;
    }
    let Some(o) = v.as_object_mut() else { return v };
    let options = o.entry("providerOptions").or_insert_with(|| json!({}));
    if let Some(options) = options.as_object_mut() {
        let turnwire = options.entry("turnwire").or_insert_with(|| json!({}));
        if let Some(t) = turnwire.as_object_mut() {
            let list = t.entry("toolChanges").or_insert_with(|| json!([]));
            if let Some(list) = list.as_array_mut() {
                list.extend(changes);
            }
        }
    }
    v
}

fn server_tool_part(s: &crate::model::ServerToolBlock, b: &Block) -> Value {
    let keep = json!({"turnwire": {"serverTool": b.write()}});
    let wire = |k: &str| s.wire.get(k).cloned().unwrap_or_else(|| s.wire.clone());
    match s.phase {
        crate::model::ServerToolPhase::Call => json!({
            "type": "tool-call", "toolCallId": s.id, "toolName": s.name,
            "input": wire("input"), "providerExecuted": true, "providerOptions": keep,
        }),
        crate::model::ServerToolPhase::Result => json!({
            "type": "tool-result", "toolCallId": s.id, "toolName": s.name,
            "output": {"type": "json", "value": wire("content")}, "providerOptions": keep,
        }),
    }
}

/// Turns a result's output into `content` items and adds `b` to them.
fn attach(result: &mut Value, b: &Block) {
    let kind = result
        .pointer("/output/type")
        .and_then(Value::as_str)
        .unwrap_or_default();
    if kind != "content" {
        // A `content` output has no error form: the flag goes where `fromAiSdk` reads it back
        // (the AI SDK's providers ignore a namespace that is not theirs).
        if kind.starts_with("error-") {
            if let Some(part) = result.as_object_mut() {
                let options = part.entry("providerOptions").or_insert_with(|| json!({}));
                if let Some(o) = options.as_object_mut() {
                    let ours = o.entry("turnwire").or_insert_with(|| json!({}));
                    if let Some(ours) = ours.as_object_mut() {
                        ours.insert("isError".into(), true.into());
                    }
                }
            }
        }
        if let Some(output) = result.get_mut("output") {
            let first = match output.get("value") {
                Some(Value::String(s)) => s.clone(),
                Some(other) => other.to_string(),
                None => String::new(),
            };
            *output = json!({"type": "content", "value": [{"type": "text", "text": first}]});
        }
    }
    let item = match b {
        Block::Text(t) => json!({"type": "text", "text": t.text}),
        Block::Code(c) => json!({"type": "text", "text": crate::providers::common::fenced(c)}),
        Block::Media(m) => match m.encoding {
            MediaEncoding::Base64 => {
                json!({"type": "file-data", "data": m.data, "mediaType": m.mime_type})
            }
            MediaEncoding::Url => {
                json!({"type": "file-url", "url": m.data, "mediaType": m.mime_type})
            }
        },
        _ => return,
    };
    if let Some(Value::Array(items)) = result.pointer_mut("/output/value") {
        items.push(item);
    }
}

/// A `file` part: base64 data, or a URL, with its media type.
fn file_part(m: &MediaBlock) -> Value {
    let mut o = Map::new();
    o.insert("type".into(), "file".into());
    o.insert("data".into(), m.data.clone().into());
    o.insert("mediaType".into(), m.mime_type.clone().into());
    if let Some(f) = &m.filename {
        o.insert("filename".into(), f.clone().into());
    }
    Value::Object(o)
}

/// Sets `providerOptions.turnwire.<key>` on a part, which `fromAiSdk` reads back: the mark of a
/// call whose id Gemini minted (`geminiCallId`: the AI SDK does not say which model made a turn,
/// and a repair may have replaced the turn's Google signature with the placeholder, GEM-22,
/// GEM-23) and a call's own `provenance`.
fn turnwire_option(part: &mut Value, key: &str, value: Value) {
    if let Some(o) = part.as_object_mut() {
        let options = o.entry("providerOptions").or_insert_with(|| json!({}));
        if let Some(options) = options.as_object_mut() {
            let turnwire = options.entry("turnwire").or_insert_with(|| json!({}));
            if let Some(t) = turnwire.as_object_mut() {
                t.insert(key.into(), value);
            }
        }
    }
}

/// Claude's reasoning token under the key of the AI SDK provider that sends it back:
/// `@ai-sdk/amazon-bedrock` reads `providerOptions.bedrock` (`signature`, `redactedData`), so a
/// Bedrock block has it there instead of under `anthropic`, and a block that names no provider
/// under both.
fn bedrock_key(mut part: Value, by: Option<&str>) -> Value {
    let bedrock = crate::vocab::Provider::BedrockConverse.as_str();
    if by.is_some() && by != Some(bedrock) {
        return part;
    }
    let Some(options) = part
        .get_mut("providerOptions")
        .and_then(Value::as_object_mut)
    else {
        return part;
    };
    let Some(token) = options.get("anthropic").cloned() else {
        return part;
    };
    if by == Some(bedrock) {
        options.remove("anthropic");
    }
    options.insert("bedrock".into(), token);
    part
}

/// Adds the continuity token as the `providerOptions` the AI SDK's providers read back.
fn with_options(mut part: Value, meta: Option<&ProviderMeta>) -> Value {
    let options = match meta {
        Some(ProviderMeta::AnthropicSignature { signature }) => {
            json!({"anthropic": {"signature": signature}})
        }
        Some(ProviderMeta::AnthropicRedacted { data }) => {
            json!({"anthropic": {"redactedData": data}})
        }
        Some(ProviderMeta::OpenAiReasoning {
            id,
            encrypted_content,
        }) => {
            json!({"openai": {"itemId": id, "reasoningEncryptedContent": encrypted_content}})
        }
        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
            json!({"google": {"thoughtSignature": thought_signature}})
        }
        // Responses-only labels (ORS-18/19): the AI SDK has no field for them; they ride in
        // turnwire's namespace, which `fromAiSdk` reads back
        Some(ProviderMeta::OpenAiPhase { phase }) => json!({"turnwire": {"phase": phase}}),
        Some(m @ ProviderMeta::OpenAiItem { .. }) => {
            json!({"turnwire": {"openaiItem": m.openai_item_value()}})
        }
        // where @openrouter/ai-sdk-provider reads them back
        Some(ProviderMeta::OpenRouterReasoningDetails { details }) => {
            json!({"openrouter": {"reasoning_details": details}})
        }
        None => return part,
    };
    if let Value::Object(o) = &mut part {
        o.insert("providerOptions".into(), options);
    }
    part
}
