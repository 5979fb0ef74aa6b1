//! Content blocks: the ordered pieces of a message.

use serde_json::{Map, Value};

use super::json_path::JsonPath;
use super::provenance::Provenance;
use super::provider_meta::ProviderMeta;
use super::read::{into_object, put_opt_str, take_opt_bool, take_opt_str, take_str, wrong_type};
use super::status::ToolStatus;
use crate::error::{Error, ErrorCode};

/// Plain text.
///
/// ```
/// let b = turnwire::model::TextBlock::new("hello");
/// assert_eq!(b.text, "hello");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TextBlock {
    /// The text.
    pub text: String,
    /// Gemini may sign a text part (`thoughtSignature`).
    pub meta: Option<ProviderMeta>,
    /// Where the block came from, when it differs from its message.
    pub provenance: Option<Provenance>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl TextBlock {
    /// A text block with nothing else set.
    pub fn new(text: impl Into<String>) -> Self {
        TextBlock {
            text: text.into(),
            ..Default::default()
        }
    }
}

/// Visible reasoning, with whatever continuity token its provider attached.
///
/// ```
/// let t = turnwire::model::ThinkingBlock::new("let me think");
/// assert!(t.meta.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThinkingBlock {
    /// The reasoning text (`thought` in the JSON shape); may be empty for redacted or encrypted
    /// reasoning.
    pub thought: String,
    /// The continuity artifact (Anthropic signature or redacted data, OpenAI reasoning item,
    /// Gemini thought signature).
    pub meta: Option<ProviderMeta>,
    /// The wire field it was read from (`reasoning_content`, `reasoning`, `thinking`, …).
    pub source_field: Option<String>,
    /// Where the block came from, when it differs from its message.
    pub provenance: Option<Provenance>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl ThinkingBlock {
    /// A thinking block with no continuity metadata.
    pub fn new(thought: impl Into<String>) -> Self {
        ThinkingBlock {
            thought: thought.into(),
            ..Default::default()
        }
    }
}

/// The assistant calling a tool.
///
/// ```
/// let c = turnwire::model::ToolCallBlock::new("hist_tool_1", "read_file", serde_json::json!({"path": "a.rs"}));
/// assert_eq!(c.name, "read_file");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolCallBlock {
    /// Canonical call id (provider-neutral).
    pub id: String,
    /// Tool name.
    pub name: String,
    /// Arguments; `None` when the field was absent.
    pub parameters: Option<Value>,
    /// Optional human description of the call.
    pub description: Option<String>,
    /// Gemini thought signature on the `functionCall` part.
    pub meta: Option<ProviderMeta>,
    /// Where the block came from, when it differs from its message.
    pub provenance: Option<Provenance>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl ToolCallBlock {
    /// A call with the given id, name and arguments.
    pub fn new(id: impl Into<String>, name: impl Into<String>, parameters: Value) -> Self {
        ToolCallBlock {
            id: id.into(),
            name: name.into(),
            parameters: Some(parameters),
            ..Default::default()
        }
    }
}

/// Why turnwire made up a tool completion. The string form is stable.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SyntheticReason {
    /// The conversation moved on without any result for the call (cancelled, lost).
    MissingResult,
    /// Only a pending (never completed) response existed.
    PendingResult,
    /// The call is still open at the end of the history being rendered.
    OpenAtEnd,
    /// A call reconstructed for a result whose call was lost (compaction).
    ReconstructedCall,
}

impl SyntheticReason {
    /// The stable string form.
    pub const fn as_str(self) -> &'static str {
        match self {
            SyntheticReason::MissingResult => "missing_result",
            SyntheticReason::PendingResult => "pending_result",
            SyntheticReason::OpenAtEnd => "open_at_end",
            SyntheticReason::ReconstructedCall => "reconstructed_call",
        }
    }

    /// Parses the stable string form.
    pub fn parse(s: &str) -> Option<SyntheticReason> {
        Some(match s {
            "missing_result" => SyntheticReason::MissingResult,
            "pending_result" => SyntheticReason::PendingResult,
            "open_at_end" => SyntheticReason::OpenAtEnd,
            "reconstructed_call" => SyntheticReason::ReconstructedCall,
            _ => return None,
        })
    }
}

/// A tool's answer to a call.
///
/// ```
/// use turnwire::model::{ToolResponseBlock, ToolStatus};
/// let r = ToolResponseBlock::new("hist_tool_1", "read_file", serde_json::json!("fn main() {}"));
/// assert_eq!(r.status(), ToolStatus::Complete);
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolResponseBlock {
    /// The canonical id of the call this answers.
    pub call_id: String,
    /// The tool's name, when recorded.
    pub tool_name: Option<String>,
    /// The result; `None` when the field was absent.
    pub result: Option<Value>,
    /// Error text when the tool failed or was cancelled.
    pub error: Option<String>,
    /// Explicit completion marker.
    pub is_complete: Option<bool>,
    /// Set when turnwire synthesised this completion; says why.
    pub synthetic: Option<SyntheticReason>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl ToolResponseBlock {
    /// A completed response.
    pub fn new(call_id: impl Into<String>, tool_name: impl Into<String>, result: Value) -> Self {
        ToolResponseBlock {
            call_id: call_id.into(),
            tool_name: Some(tool_name.into()),
            result: Some(result),
            ..Default::default()
        }
    }

    /// The text a provider sees for this result: the error text for failed calls (followed by
    /// any result), otherwise the result itself (strings as they are, other JSON compact).
    ///
    /// ```
    /// use turnwire::model::ToolResponseBlock;
    /// let r = ToolResponseBlock::new("c1", "ls", serde_json::json!({"files": 2}));
    /// assert_eq!(r.text(), r#"{"files":2}"#);
    /// ```
    pub fn text(&self) -> String {
        let result = match &self.result {
            None | Some(Value::Null) => String::new(),
            Some(Value::String(s)) => s.clone(),
            Some(other) => other.to_string(),
        };
        match &self.error {
            Some(e) if result.trim().is_empty() => e.clone(),
            Some(e) => format!("{e}\n{result}"),
            None => result,
        }
    }

    /// Lifecycle status inferred exactly as REQ-915-048 says: error present → errored; else
    /// `isComplete: true` → complete; else non-null result → complete; else pending.
    pub fn status(&self) -> ToolStatus {
        ToolStatus::infer(self.error.is_some(), self.is_complete, self.result.as_ref())
    }
}

/// How media data is carried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MediaEncoding {
    /// `data` is base64 bytes.
    Base64,
    /// `data` is a URL (http(s) or `data:`).
    Url,
}

/// An image, document or other media.
///
/// ```
/// use turnwire::model::{MediaBlock, MediaEncoding};
/// let m = MediaBlock::new("image/png", "iVBORw0KGgo=", MediaEncoding::Base64);
/// assert!(m.is_image());
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct MediaBlock {
    /// MIME type (`image/png`, `application/pdf`, …).
    pub mime_type: String,
    /// Base64 data or URL, see `encoding`.
    pub data: String,
    /// How `data` is carried.
    pub encoding: MediaEncoding,
    /// Alt text.
    pub caption: Option<String>,
    /// Original file name.
    pub filename: Option<String>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl MediaBlock {
    /// A media block with no caption or file name.
    pub fn new(
        mime_type: impl Into<String>,
        data: impl Into<String>,
        encoding: MediaEncoding,
    ) -> Self {
        MediaBlock {
            mime_type: mime_type.into(),
            data: data.into(),
            encoding,
            caption: None,
            filename: None,
            extra: Map::new(),
        }
    }

    /// True for `image/*`.
    pub fn is_image(&self) -> bool {
        self.mime_type.to_ascii_lowercase().starts_with("image/")
    }
}

/// A code snippet (rendered as a fenced text block).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CodeBlock {
    /// The code.
    pub code: String,
    /// Language tag for the fence.
    pub language: Option<String>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

/// One block of a message.
///
/// Unknown block types are kept verbatim as [`Block::Other`] so they survive a read → write round
/// trip; renderers leave them out of provider bodies and say so in a diagnostic.
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq)]
pub enum Block {
    /// `{"type": "text"}`
    Text(TextBlock),
    /// `{"type": "thinking"}`
    Thinking(ThinkingBlock),
    /// `{"type": "tool_call"}`
    ToolCall(ToolCallBlock),
    /// `{"type": "tool_response"}`
    ToolResponse(ToolResponseBlock),
    /// `{"type": "media"}`
    Media(MediaBlock),
    /// `{"type": "code"}`
    Code(CodeBlock),
    /// Any other block, kept as it was.
    Other(Value),
}

impl Block {
    /// The `type` string of the block.
    pub fn type_name(&self) -> &str {
        match self {
            Block::Text(_) => "text",
            Block::Thinking(_) => "thinking",
            Block::ToolCall(_) => "tool_call",
            Block::ToolResponse(_) => "tool_response",
            Block::Media(_) => "media",
            Block::Code(_) => "code",
            Block::Other(v) => v.get("type").and_then(Value::as_str).unwrap_or("unknown"),
        }
    }

    /// Reads one block of the JSON history shape.
    pub(crate) fn read(v: Value, path: &JsonPath<'_>) -> Result<Block, Error> {
        let mut obj = into_object(v, path)?;
        let kind = match obj.get("type") {
            Some(Value::String(s)) => s.clone(),
            Some(other) => return Err(wrong_type(&path.key("type"), "a string", other)),
            None => {
                return Err(Error::new(
                    ErrorCode::MissingField,
                    path.key("type").to_string(),
                    "every block needs a `type`",
                ))
            }
        };
        let block = match kind.as_str() {
            "text" => {
                obj.shift_remove("type");
                let text = take_str(&mut obj, "text", path)?;
                let meta = take_gemini_signature(&mut obj, path)?;
                let provenance = take_provenance(&mut obj, path)?;
                Block::Text(TextBlock {
                    text,
                    meta,
                    provenance,
                    extra: obj,
                })
            }
            "thinking" => {
                obj.shift_remove("type");
                let thought = take_opt_str(&mut obj, "thought", path)?.unwrap_or_default();
                let meta = take_thinking_meta(&mut obj, path)?;
                let source_field = take_opt_str(&mut obj, "sourceField", path)?;
                let provenance = take_provenance(&mut obj, path)?;
                Block::Thinking(ThinkingBlock {
                    thought,
                    meta,
                    source_field,
                    provenance,
                    extra: obj,
                })
            }
            "tool_call" => {
                obj.shift_remove("type");
                let id = take_str(&mut obj, "id", path)?;
                let name = take_str(&mut obj, "name", path)?;
                let parameters = obj.shift_remove("parameters");
                let description = take_opt_str(&mut obj, "description", path)?;
                let meta = take_gemini_signature(&mut obj, path)?;
                let provenance = take_provenance(&mut obj, path)?;
                Block::ToolCall(ToolCallBlock {
                    id,
                    name,
                    parameters,
                    description,
                    meta,
                    provenance,
                    extra: obj,
                })
            }
            "tool_response" => {
                obj.shift_remove("type");
                let call_id = take_str(&mut obj, "callId", path)?;
                let tool_name = take_opt_str(&mut obj, "toolName", path)?;
                let result = obj.shift_remove("result");
                let error = take_opt_str(&mut obj, "error", path)?;
                let is_complete = take_opt_bool(&mut obj, "isComplete", path)?;
                let synthetic = match take_opt_str(&mut obj, "synthetic", path)? {
                    None => None,
                    Some(s) => Some(SyntheticReason::parse(&s).ok_or_else(|| {
                        Error::new(
                            ErrorCode::InvalidValue,
                            path.key("synthetic").to_string(),
                            format!("unknown synthetic reason `{s}`"),
                        )
                    })?),
                };
                Block::ToolResponse(ToolResponseBlock {
                    call_id,
                    tool_name,
                    result,
                    error,
                    is_complete,
                    synthetic,
                    extra: obj,
                })
            }
            "media" => {
                obj.shift_remove("type");
                let mime_type = take_str(&mut obj, "mimeType", path)?;
                let data = take_str(&mut obj, "data", path)?;
                let encoding = match take_opt_str(&mut obj, "encoding", path)?.as_deref() {
                    Some("base64") => MediaEncoding::Base64,
                    Some("url") => MediaEncoding::Url,
                    None if looks_like_url(&data) => MediaEncoding::Url,
                    None => MediaEncoding::Base64,
                    Some(other) => {
                        return Err(Error::new(
                            ErrorCode::InvalidValue,
                            path.key("encoding").to_string(),
                            format!("encoding must be `base64` or `url`, found `{other}`"),
                        ))
                    }
                };
                let caption = take_opt_str(&mut obj, "caption", path)?;
                let filename = take_opt_str(&mut obj, "filename", path)?;
                Block::Media(MediaBlock {
                    mime_type,
                    data,
                    encoding,
                    caption,
                    filename,
                    extra: obj,
                })
            }
            "code" => {
                obj.shift_remove("type");
                let code = take_str(&mut obj, "code", path)?;
                let language = take_opt_str(&mut obj, "language", path)?;
                Block::Code(CodeBlock {
                    code,
                    language,
                    extra: obj,
                })
            }
            _ => Block::Other(Value::Object(obj)),
        };
        Ok(block)
    }

    /// Writes the block in the JSON history shape.
    pub(crate) fn write(&self) -> Value {
        let mut o = Map::new();
        match self {
            Block::Text(b) => {
                o.insert("type".into(), "text".into());
                o.insert("text".into(), b.text.clone().into());
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::Thinking(b) => {
                o.insert("type".into(), "thinking".into());
                o.insert("thought".into(), b.thought.clone().into());
                put_opt_str(&mut o, "sourceField", &b.source_field);
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::ToolCall(b) => {
                o.insert("type".into(), "tool_call".into());
                o.insert("id".into(), b.id.clone().into());
                o.insert("name".into(), b.name.clone().into());
                if let Some(p) = &b.parameters {
                    o.insert("parameters".into(), p.clone());
                }
                put_opt_str(&mut o, "description", &b.description);
                write_meta(&mut o, &b.meta);
                write_provenance(&mut o, &b.provenance);
                extend(&mut o, &b.extra);
            }
            Block::ToolResponse(b) => {
                o.insert("type".into(), "tool_response".into());
                o.insert("callId".into(), b.call_id.clone().into());
                put_opt_str(&mut o, "toolName", &b.tool_name);
                if let Some(r) = &b.result {
                    o.insert("result".into(), r.clone());
                }
                put_opt_str(&mut o, "error", &b.error);
                if let Some(c) = b.is_complete {
                    o.insert("isComplete".into(), c.into());
                }
                if let Some(s) = b.synthetic {
                    o.insert("synthetic".into(), s.as_str().into());
                }
                extend(&mut o, &b.extra);
            }
            Block::Media(b) => {
                o.insert("type".into(), "media".into());
                o.insert("mimeType".into(), b.mime_type.clone().into());
                o.insert("data".into(), b.data.clone().into());
                let enc = match b.encoding {
                    MediaEncoding::Base64 => "base64",
                    MediaEncoding::Url => "url",
                };
                o.insert("encoding".into(), enc.into());
                put_opt_str(&mut o, "caption", &b.caption);
                put_opt_str(&mut o, "filename", &b.filename);
                extend(&mut o, &b.extra);
            }
            Block::Code(b) => {
                o.insert("type".into(), "code".into());
                o.insert("code".into(), b.code.clone().into());
                put_opt_str(&mut o, "language", &b.language);
                extend(&mut o, &b.extra);
            }
            Block::Other(v) => return v.clone(),
        }
        Value::Object(o)
    }
}

fn looks_like_url(data: &str) -> bool {
    data.starts_with("http://") || data.starts_with("https://") || data.starts_with("data:")
}

fn extend(o: &mut Map<String, Value>, extra: &Map<String, Value>) {
    for (k, v) in extra {
        if !o.contains_key(k) {
            o.insert(k.clone(), v.clone());
        }
    }
}

fn take_provenance(
    obj: &mut Map<String, Value>,
    path: &JsonPath<'_>,
) -> Result<Option<Provenance>, Error> {
    match obj.shift_remove("provenance") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => Provenance::read(v, &path.key("provenance")).map(Some),
    }
}

fn write_provenance(o: &mut Map<String, Value>, p: &Option<Provenance>) {
    if let Some(p) = p {
        o.insert("provenance".into(), p.write());
    }
}

fn take_gemini_signature(
    obj: &mut Map<String, Value>,
    path: &JsonPath<'_>,
) -> Result<Option<ProviderMeta>, Error> {
    Ok(take_opt_str(obj, "thoughtSignature", path)?
        .map(|thought_signature| ProviderMeta::GeminiThoughtSignature { thought_signature }))
}

/// Thinking blocks carry at most one artifact; the first one found (in this order) becomes the
/// typed meta and any other artifact fields stay in `extra` untouched.
fn take_thinking_meta(
    obj: &mut Map<String, Value>,
    path: &JsonPath<'_>,
) -> Result<Option<ProviderMeta>, Error> {
    if obj.contains_key("redactedData") {
        if let Some(data) = take_opt_str(obj, "redactedData", path)? {
            return Ok(Some(ProviderMeta::AnthropicRedacted { data }));
        }
    }
    if obj.contains_key("signature") {
        if let Some(signature) = take_opt_str(obj, "signature", path)? {
            return Ok(Some(ProviderMeta::AnthropicSignature { signature }));
        }
    }
    if obj.contains_key("reasoningId") || obj.contains_key("encryptedContent") {
        let id = take_opt_str(obj, "reasoningId", path)?;
        let encrypted_content = take_opt_str(obj, "encryptedContent", path)?;
        if id.is_some() || encrypted_content.is_some() {
            return Ok(Some(ProviderMeta::OpenAiReasoning {
                id,
                encrypted_content,
            }));
        }
    }
    take_gemini_signature(obj, path)
}

fn write_meta(o: &mut Map<String, Value>, meta: &Option<ProviderMeta>) {
    match meta {
        None => {}
        Some(ProviderMeta::AnthropicSignature { signature }) => {
            o.insert("signature".into(), signature.clone().into());
        }
        Some(ProviderMeta::AnthropicRedacted { data }) => {
            o.insert("redactedData".into(), data.clone().into());
        }
        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
            o.insert("thoughtSignature".into(), thought_signature.clone().into());
        }
        Some(ProviderMeta::OpenAiReasoning {
            id,
            encrypted_content,
        }) => {
            put_opt_str(o, "reasoningId", id);
            put_opt_str(o, "encryptedContent", encrypted_content);
        }
    }
}
