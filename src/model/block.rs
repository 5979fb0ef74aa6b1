//! Content blocks: the ordered pieces of a message.

use serde_json::{Map, Value};

use super::provenance::Provenance;
use super::provider_meta::ProviderMeta;
use super::server_tool::ServerToolBlock;
use super::status::ToolStatus;
use super::tool_change::ToolChangeBlock;
use crate::vocab::SyntheticReason;

mod json;
mod nested_meta;

pub(crate) use nested_meta::NESTED_META_KEYS;

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
    /// Gemini may sign a text part (`thoughtSignature`); an OpenAI Responses assistant
    /// message may label it (`phase`).
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
    /// Gemini thought signature on the `functionCall` part, or the OpenAI Responses
    /// client-tool item the call was read from ([`ProviderMeta::OpenAiItem`]).
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
    /// The OpenAI Responses output item it was read from, when not a `function_call_output`
    /// ([`ProviderMeta::OpenAiItem`]).
    pub meta: Option<ProviderMeta>,
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
        self.result_text().into_owned()
    }

    /// [`text`](Self::text), borrowed where it is the string result or the error as they are
    /// (the adapters send it without a copy).
    pub(crate) fn result_text(&self) -> std::borrow::Cow<'_, str> {
        use std::borrow::Cow;
        let result = match &self.result {
            None | Some(Value::Null) => Cow::Borrowed(""),
            Some(Value::String(s)) => Cow::Borrowed(s.as_str()),
            Some(other) => Cow::Owned(crate::json::write::to_string(other)),
        };
        match &self.error {
            Some(e) if result.trim().is_empty() => Cow::Borrowed(e.as_str()),
            Some(e) => Cow::Owned(format!("{e}\n{result}")),
            None => result,
        }
    }

    /// Lifecycle status inferred exactly as REQ-915-048 says: error present → errored; else
    /// `isComplete: true` → complete; else non-null result → complete; else pending.
    pub fn status(&self) -> ToolStatus {
        ToolStatus::infer(self.error.is_some(), self.is_complete, self.result.as_ref())
    }

    /// Which of several responses to one call counts (lower first): a completed result, then
    /// an error, then a completion turnwire synthesised in an earlier render, then a pending
    /// one. The renderer's dedupe and [`crate::model::tool_calls`] agree through it.
    pub(crate) fn preference(&self) -> u8 {
        match (self.synthetic.is_some(), self.status()) {
            (false, ToolStatus::Complete) => 0,
            (false, ToolStatus::Errored) => 1,
            (true, _) => 2,
            (false, ToolStatus::Pending) => 3,
        }
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
    /// `{"type": "server_tool"}`: a provider's own server-tool block, kept for replay.
    ServerTool(ServerToolBlock),
    /// `{"type": "tool_change"}`: a tool offered or withdrawn from here on.
    ToolChange(ToolChangeBlock),
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
            Block::ServerTool(_) => "server_tool",
            Block::ToolChange(_) => "tool_change",
            Block::Other(v) => v.get("type").and_then(Value::as_str).unwrap_or("unknown"),
        }
    }
}
