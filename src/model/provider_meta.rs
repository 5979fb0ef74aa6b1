//! Typed provider continuity metadata: the opaque tokens a provider needs back on replay.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// A continuity artifact attached to a block.
///
/// Which provider produced it comes from the block's (or its message's) [`Provenance`](super::Provenance);
/// the variant says what kind of token it is. The JSON history shape keeps these as plain fields
/// (`signature`, `redactedData`, `reasoningId` + `encryptedContent`, `thoughtSignature`, `phase`,
/// `openaiItem`, `reasoningDetails`) so a TypeScript agent's stored history reads and writes unchanged.
///
/// ```
/// use turnwire::model::ProviderMeta;
/// let m = ProviderMeta::AnthropicSignature { signature: "sig".into() };
/// assert_eq!(m.kind(), "anthropic_signature");
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ProviderMeta {
    /// Anthropic extended-thinking signature on a `thinking` block.
    AnthropicSignature {
        /// The opaque signature, byte for byte as received.
        signature: String,
    },
    /// Anthropic `redacted_thinking`: encrypted thinking with no visible text.
    AnthropicRedacted {
        /// The opaque `data` field.
        data: String,
    },
    /// Gemini `thoughtSignature` on a function call, text or thought part.
    GeminiThoughtSignature {
        /// The opaque base64 signature.
        thought_signature: String,
    },
    /// OpenAI Responses reasoning item: its `rs_…` id and, for stateless replay, the
    /// encrypted reasoning.
    OpenAiReasoning {
        /// The reasoning item id.
        #[serde(skip_serializing_if = "Option::is_none")]
        id: Option<String>,
        /// `encrypted_content`, present when the request asked for it.
        #[serde(skip_serializing_if = "Option::is_none")]
        encrypted_content: Option<String>,
    },
    /// OpenAI Responses `phase` of an assistant message (`commentary` or `final_answer`,
    /// ORS-18): resent on the message for the same provider, meaningless elsewhere.
    OpenAiPhase {
        /// The label as received.
        phase: String,
    },
    /// An OpenAI Responses client-tool item behind a neutral tool call or result
    /// (`custom_tool_call`, `apply_patch_call`, `shell_call`, `local_shell_call`,
    /// `tool_search_call`, `program` and their outputs, ORS-19): its `type` and the members the
    /// neutral block does not carry (`status`, `caller`, `environment`, `fingerprint`, …), so a
    /// Responses render gives the same item back.
    OpenAiItem {
        /// The item's `type`.
        item_type: String,
        /// Its other members, as received.
        fields: Map<String, Value>,
    },
    /// OpenRouter's `reasoning_details` of an assistant message (ORT-02): the whole array as
    /// the answer gave it (`reasoning.text` with its `signature`, `reasoning.summary`,
    /// `reasoning.encrypted`; stream pieces joined by `index`), sent back unmodified to the
    /// model that produced it on OpenRouter. Its origin is the block's provenance.
    #[serde(rename = "openrouter_reasoning_details")]
    OpenRouterReasoningDetails {
        /// The detail objects, in order, each as received.
        details: Vec<Value>,
    },
}

impl ProviderMeta {
    /// An [`OpenAiItem`](ProviderMeta::OpenAiItem) as the item it stands for:
    /// `{"type": <item type>, …its members}` (how the JSON history and the exporters keep it).
    ///
    /// ```
    /// use turnwire::model::ProviderMeta;
    /// let item = serde_json::json!({"type": "shell_call", "status": "completed"});
    /// let meta = ProviderMeta::openai_item_from(&item).unwrap();
    /// assert_eq!(meta.openai_item_value(), Some(item));
    /// ```
    pub fn openai_item_value(&self) -> Option<Value> {
        let ProviderMeta::OpenAiItem { item_type, fields } = self else {
            return None;
        };
        let mut item = Map::with_capacity(fields.len() + 1);
        item.insert("type".into(), item_type.clone().into());
        item.extend(fields.iter().map(|(k, v)| (k.clone(), v.clone())));
        Some(Value::Object(item))
    }

    /// The [`OpenAiItem`](ProviderMeta::OpenAiItem) of an object with a string `type`.
    pub fn openai_item_from(v: &Value) -> Option<ProviderMeta> {
        let o = v.as_object()?;
        let item_type = o.get("type")?.as_str()?.to_string();
        let fields = o
            .iter()
            .filter(|(k, _)| k.as_str() != "type")
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        Some(ProviderMeta::OpenAiItem { item_type, fields })
    }

    /// A stable short name of the artifact kind, used in diagnostics.
    pub fn kind(&self) -> &'static str {
        match self {
            ProviderMeta::AnthropicSignature { .. } => "anthropic_signature",
            ProviderMeta::AnthropicRedacted { .. } => "anthropic_redacted",
            ProviderMeta::GeminiThoughtSignature { .. } => "gemini_thought_signature",
            ProviderMeta::OpenAiReasoning { .. } => "openai_reasoning",
            ProviderMeta::OpenAiPhase { .. } => "openai_phase",
            ProviderMeta::OpenAiItem { .. } => "openai_item",
            ProviderMeta::OpenRouterReasoningDetails { .. } => "openrouter_reasoning_details",
        }
    }
}
