//! The canonical transcript written as a pi-ai `Context` (`systemPrompt` and `messages`),
//! continuity tokens in the fields pi-ai reads back for each `api`
//! (docs/research/pi-ai-format.md §2, §4).

use crate::fast_map::HashMap;
use crate::import::pi_ai_keys::{
    CALL_ID, OPENAI_ITEM, PHASE, PROVENANCE, REASONING_DETAILS, SERVER_TOOL_KEY, STRUCTURED_RESULT,
    TOKEN_KIND,
};

use serde_json::{json, Map, Value};

use crate::model::{Block, MediaEncoding, Message, ProviderMeta, Speaker, Transcript};
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// What `to_pi_ai` wrote.
#[derive(Debug, Clone, PartialEq)]
pub struct PiAiContext {
    /// The `Context` object: `systemPrompt` (when there is one) and `messages`.
    pub context: Value,
    /// Blocks a pi-ai message has no place for (`block_omitted`).
    pub diagnostics: Vec<Diagnostic>,
}

/// Writes `transcript` as a pi-ai `Context`. Assistant messages name the `provider`, `api` and
/// `model` of their provenance as pi-ai spells them (pi-ai replays a signature only when all
/// three equal the target's); signatures go where that `api` reads them: Anthropic
/// `thinkingSignature` (redacted thinking with `redacted: true`), the Responses reasoning item as
/// JSON, Gemini `thinkingSignature` / `textSignature` / `thoughtSignature`, the chat reasoning
/// field's name. Leading system messages become `systemPrompt`; a later one stays in place as
/// a pi-ai 1.x `system` message.
///
/// ```
/// let t = turnwire::Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let out = turnwire::export::to_pi_ai(&t);
/// assert_eq!(out.context["messages"][0]["content"][0]["text"], "hi");
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn to_pi_ai(transcript: &Transcript) -> PiAiContext {
    let mut w = Writer::default();
    let mut system: Vec<String> = Vec::new();
    let mut messages: Vec<Value> = Vec::new();
    for (i, m) in transcript.messages.iter().enumerate() {
        match m.speaker {
            Speaker::System => {
                let texts: Vec<String> = m
                    .blocks
                    .iter()
                    .filter_map(|b| match b {
                        Block::Text(t) => Some(t.text.clone()),
                        Block::Code(c) => Some(crate::providers::common::fenced(c)),
                        _ => None,
                    })
                    .collect();
                // the leading ones are the system prompt; a later one keeps its place as a
                // pi-ai 1.x `system` message
                let changes: Vec<Value> = m
                    .blocks
                    .iter()
                    .filter(|b| matches!(b, Block::ToolChange(_)))
                    .map(Block::write)
                    .collect();
                if messages.is_empty() {
                    system.extend(texts);
                    for (j, b) in m.blocks.iter().enumerate() {
                        if matches!(b, Block::ToolChange(_)) {
                            w.left_out(b, (i, j));
                        }
                    }
                } else {
                    let mut msg = json!({"role": "system", "content": texts.join("\n\n"),
                        "timestamp": kept(m, "timestamp", json!(0))});
                    // pi-ai has no tool changes: kept for `fromPiAi`
                    if !changes.is_empty() {
                        msg["turnwire"] = json!({"toolChanges": changes});
                    }
                    messages.push(msg);
                }
            }
            Speaker::Human => messages.push(w.user(m, i)),
            Speaker::Ai => messages.push(w.assistant(m, i)),
            Speaker::Tool => messages.extend(w.results(m, i)),
        }
    }
    let mut context = Map::new();
    if !system.is_empty() {
        context.insert("systemPrompt".into(), system.join("\n\n").into());
    }
    context.insert("messages".into(), Value::Array(messages));
    for (k, v) in &transcript.extra {
        context.entry(k.clone()).or_insert_with(|| v.clone());
    }
    PiAiContext {
        context: Value::Object(context),
        diagnostics: w.diagnostics,
    }
}

/// pi-ai's `provider` and `api` for a turnwire provider (none without one).
fn pi_names(p: Option<Provider>) -> (&'static str, &'static str) {
    p.map_or(("", ""), Provider::pi_ai_names)
}

#[derive(Default)]
struct Writer {
    diagnostics: Vec<Diagnostic>,
    names: HashMap<String, String>,
    /// canonical call id → the `call|item` id pi-ai gave the call (its results must say it too:
    /// pi-ai pairs them by the whole id and answers an unmatched call with "No result provided")
    pi_ids: HashMap<String, String>,
}

/// The stored value of `key` in a message's kept fields, or `default`.
fn kept(m: &Message, key: &str, default: Value) -> Value {
    m.extra.get(key).cloned().unwrap_or(default)
}

impl Writer {
    fn left_out(&mut self, b: &Block, at: (usize, usize)) {
        self.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::BlockOmitted,
                FaultClass::ProviderProjection,
                format!(
                    "{} block at message {} block {} has no pi-ai part; left out",
                    b.type_name(),
                    at.0,
                    at.1
                ),
            )
            .at(Some(at)),
        );
    }

    fn part(&mut self, b: &Block, at: (usize, usize)) -> Option<Value> {
        match b {
            Block::Text(t) => Some(json!({"type": "text", "text": t.text})),
            Block::Code(c) => {
                Some(json!({"type": "text", "text": crate::providers::common::fenced(c)}))
            }
            // pi-ai images are base64 bytes: an image given by address cannot go
            Block::Media(m)
                if m.is_image()
                    && (m.encoding == MediaEncoding::Base64 || m.data.starts_with("data:")) =>
            {
                let data =
                    crate::model::split_data_url(&m.data).map_or(m.data.as_str(), |(_, d)| d);
                Some(json!({"type": "image", "data": data, "mimeType": m.mime_type}))
            }
            other => {
                self.left_out(other, at);
                None
            }
        }
    }

    fn user(&mut self, m: &Message, i: usize) -> Value {
        let content: Vec<Value> = m
            .blocks
            .iter()
            .enumerate()
            .filter_map(|(j, b)| self.part(b, (i, j)))
            .collect();
        json!({"role": "user", "content": content, "timestamp": kept(m, "timestamp", json!(0))})
    }

    fn assistant(&mut self, m: &Message, i: usize) -> Value {
        let provenance = m.metadata.as_ref().map(|md| &md.provenance);
        let provider = provenance
            .and_then(|p| p.provider.as_deref())
            .and_then(|p| p.parse::<Provider>().ok());
        let (mut pi_provider, mut api) = pi_names(provider);
        if provider.is_none() {
            // a provenance in another spelling (`openai` + `responses`): its API decides
            (pi_provider, api) = match provenance.and_then(|p| p.api.as_deref()) {
                Some("messages") => ("anthropic", "anthropic-messages"),
                Some("responses") => ("openai", "openai-responses"),
                Some("chat-completions") => ("openai", "openai-completions"),
                Some("generate-content") => ("google", "google-generative-ai"),
                _ => ("", ""),
            };
        }
        let pi_provider = provenance
            .and_then(|p| p.provider.clone())
            .filter(|_| provider.is_none() && !api.is_empty())
            .unwrap_or_else(|| pi_provider.to_string());
        let model = provenance.and_then(|p| p.model.clone()).unwrap_or_default();
        let mut content = Vec::new();
        let mut calls = false;
        for (j, b) in m.blocks.iter().enumerate() {
            match b {
                Block::Text(t) => {
                    let mut o = json!({"type": "text", "text": t.text});
                    let sig = match &t.meta {
                        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
                            Some(thought_signature.clone().into())
                        }
                        _ => t.extra.get("textSignature").cloned(),
                    };
                    if let (Some(sig), Some(obj)) = (sig, o.as_object_mut()) {
                        obj.insert("textSignature".into(), sig);
                    }
                    if let (Some(ProviderMeta::OpenAiPhase { phase }), Some(obj)) =
                        (&t.meta, o.as_object_mut())
                    {
                        obj.insert(PHASE.into(), phase.clone().into());
                    }
                    // a signed text part merged into a turn of another origin keeps its own
                    // provenance (GEM-23), on the part as a call's does
                    if let (Some(p), Some(obj)) = (
                        t.provenance.as_ref().filter(|p| !p.is_empty()),
                        o.as_object_mut(),
                    ) {
                        if let Ok(v) = serde_json::to_value(p) {
                            obj.insert(PROVENANCE.into(), v);
                        }
                    }
                    mark_kind(&mut o, t.meta.as_ref(), api.is_empty());
                    content.push(o);
                }
                Block::Code(c) => content
                    .push(json!({"type": "text", "text": crate::providers::common::fenced(c)})),
                // pi-ai has no server-tool part: a text part pi-ai sends as it is, with the
                // block kept beside it for `fromPiAi`.
                Block::ServerTool(s) => content.push(json!({
                    "type": "text", "text": s.portable_text(), SERVER_TOOL_KEY: b.write()
                })),
                Block::Thinking(t) => content.push(thinking(t, api.is_empty())),
                Block::ToolCall(c) => {
                    calls = true;
                    self.names.insert(c.id.clone(), c.name.clone());
                    let id = c
                        .extra
                        .get("piId")
                        .and_then(Value::as_str)
                        .unwrap_or(&c.id)
                        .to_string();
                    if id != c.id {
                        self.pi_ids.insert(c.id.clone(), id.clone());
                    }
                    let mut o = json!({"type": "toolCall", "id": id, "name": c.name,
                        "arguments": c.parameters.clone().unwrap_or_else(|| json!({}))});
                    // a canonical id holding `|` would be read back as pi-ai's `call|item`
                    if c.id.contains('|') && !c.extra.contains_key("piId") {
                        if let Some(obj) = o.as_object_mut() {
                            obj.insert(CALL_ID.into(), c.id.clone().into());
                        }
                    }
                    let sig = match &c.meta {
                        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
                            Some(thought_signature.clone().into())
                        }
                        _ => c.extra.get("thoughtSignature").cloned(),
                    };
                    if let (Some(sig), Some(obj)) = (sig, o.as_object_mut()) {
                        obj.insert("thoughtSignature".into(), sig);
                    }
                    if let (Some(item), Some(obj)) = (
                        c.meta.as_ref().and_then(ProviderMeta::openai_item_value),
                        o.as_object_mut(),
                    ) {
                        obj.insert(OPENAI_ITEM.into(), item);
                    }
                    // a call merged into a turn of another origin keeps its own provenance
                    // (GEM-22: a Gemini call's id); pi-ai keeps one per message, so it rides
                    // on the part (pi-ai ignores the member; `from_pi_ai` reads it)
                    if let (Some(p), Some(obj)) = (
                        c.provenance.as_ref().filter(|p| !p.is_empty()),
                        o.as_object_mut(),
                    ) {
                        if let Ok(v) = serde_json::to_value(p) {
                            obj.insert(PROVENANCE.into(), v);
                        }
                    }
                    mark_kind(&mut o, c.meta.as_ref(), api.is_empty());
                    content.push(o);
                }
                other => self.left_out(other, (i, j)),
            }
        }
        let zero = json!({"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
            "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}});
        let mut o = Map::new();
        o.insert("role".into(), "assistant".into());
        o.insert("content".into(), Value::Array(content));
        o.insert("api".into(), api.into());
        o.insert("provider".into(), pi_provider.into());
        o.insert("model".into(), model.into());
        o.insert("usage".into(), kept(m, "usage", zero));
        o.insert(
            "stopReason".into(),
            kept(
                m,
                "stopReason",
                json!(if calls { "toolUse" } else { "stop" }),
            ),
        );
        o.insert("timestamp".into(), kept(m, "timestamp", json!(0)));
        // turnwire's own provenance, exactly (pi-ai ignores the member; `from_pi_ai` reads it)
        if let Some(p) = provenance.filter(|p| !p.is_empty()) {
            if let Ok(v) = serde_json::to_value(p) {
                o.insert(PROVENANCE.into(), v);
            }
        }
        for (k, v) in &m.extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }

    /// One `toolResult` message per response; the text and images after it are its content.
    fn results(&mut self, m: &Message, i: usize) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        for (j, b) in m.blocks.iter().enumerate() {
            if let Block::ToolResponse(r) = b {
                let name = r
                    .tool_name
                    .clone()
                    .or_else(|| self.names.get(&r.call_id).cloned())
                    .unwrap_or_default();
                let id = self.pi_ids.get(&r.call_id).unwrap_or(&r.call_id);
                let mut o = json!({"role": "toolResult", "toolCallId": id, "toolName": name,
                    "content": [{"type": "text", "text": r.text()}], "isError": r.error.is_some()});
                if let Some(obj) = o.as_object_mut() {
                    // pi-ai results are text; a structured result also travels as it is
                    // (pi-ai sends only the text, turnwire reads the value back)
                    if let (None, Some(v)) = (&r.error, &r.result) {
                        if !matches!(v, Value::String(_) | Value::Null) {
                            obj.insert(STRUCTURED_RESULT.into(), v.clone());
                        }
                    }
                    for key in ["details", "timestamp"] {
                        if let Some(v) = r.extra.get(key) {
                            obj.insert(key.into(), v.clone());
                        }
                    }
                    if let Some(item) = r.meta.as_ref().and_then(ProviderMeta::openai_item_value) {
                        obj.insert(OPENAI_ITEM.into(), item);
                    }
                    obj.entry("timestamp").or_insert(json!(0));
                }
                out.push(o);
                continue;
            }
            // a tool the result loads: kept with it for `fromPiAi`
            if let Block::ToolChange(_) = b {
                match out.last_mut().and_then(Value::as_object_mut) {
                    Some(o) => {
                        let t = o.entry("turnwire").or_insert_with(|| json!({}));
                        if let Some(list) = t
                            .as_object_mut()
                            .map(|t| t.entry("toolChanges").or_insert_with(|| json!([])))
                            .and_then(Value::as_array_mut)
                        {
                            list.push(b.write());
                        }
                    }
                    None => self.left_out(b, (i, j)),
                }
                continue;
            }
            let part = self.part(b, (i, j));
            match (part, out.last_mut().and_then(|o| o.get_mut("content"))) {
                (Some(p), Some(Value::Array(content))) => content.push(p),
                (Some(_), _) => self.left_out(b, (i, j)),
                (None, _) => {}
            }
        }
        out
    }
}

fn mark_kind(part: &mut Value, meta: Option<&ProviderMeta>, unknown_api: bool) {
    // the Responses labels travel under their own members
    let meta = meta.filter(|m| {
        !matches!(
            m,
            ProviderMeta::OpenAiPhase { .. }
                | ProviderMeta::OpenAiItem { .. }
                | ProviderMeta::OpenRouterReasoningDetails { .. }
        )
    });
    if let (true, Some(meta), Some(obj)) = (unknown_api, meta, part.as_object_mut()) {
        obj.insert(TOKEN_KIND.into(), meta.kind().into());
    }
}

/// A thinking block in the field its `api` reads.
fn thinking(t: &crate::model::ThinkingBlock, unknown_api: bool) -> Value {
    let mut o = json!({"type": "thinking", "thinking": t.thought});
    let sig: Option<Value> = match &t.meta {
        Some(ProviderMeta::AnthropicSignature { signature }) => Some(signature.clone().into()),
        Some(ProviderMeta::AnthropicRedacted { data }) => {
            if let Some(obj) = o.as_object_mut() {
                obj.insert("redacted".into(), true.into());
            }
            Some(data.clone().into())
        }
        Some(ProviderMeta::OpenAiReasoning {
            id,
            encrypted_content,
        }) => {
            let summary = if t.thought.is_empty() {
                json!([])
            } else {
                json!([{"type": "summary_text", "text": t.thought}])
            };
            let mut item = Map::new();
            item.insert("type".into(), "reasoning".into());
            if let Some(id) = id {
                item.insert("id".into(), id.clone().into());
            }
            item.insert("summary".into(), summary);
            if let Some(e) = encrypted_content {
                item.insert("encrypted_content".into(), e.clone().into());
            }
            Some(Value::Object(item).to_string().into())
        }
        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
            Some(thought_signature.clone().into())
        }
        // pi-ai has no field for OpenRouter's details: turnwire's own member keeps them
        Some(ProviderMeta::OpenRouterReasoningDetails { details }) => {
            if let Some(obj) = o.as_object_mut() {
                obj.insert(REASONING_DETAILS.into(), Value::Array(details.clone()));
            }
            t.source_field.clone().map(Value::from)
        }
        // labels of text and tool items (ORS-18/19), never on thinking
        Some(ProviderMeta::OpenAiPhase { .. } | ProviderMeta::OpenAiItem { .. }) | None => t
            .source_field
            .clone()
            .map(Value::from)
            .or_else(|| t.extra.get("thinkingSignature").cloned()),
    };
    if let (Some(sig), Some(obj)) = (sig, o.as_object_mut()) {
        obj.insert("thinkingSignature".into(), sig);
    }
    mark_kind(&mut o, t.meta.as_ref(), unknown_api);
    o
}
