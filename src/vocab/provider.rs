//! Provider names: the same everywhere (CLI, options, JavaScript).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode};

/// A wire format turnwire renders for.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "wasm-bind",
    derive(tsify::Tsify),
    tsify(
        type = "\"anthropic\" | \"openai-chat\" | \"openai-responses\" | \"gemini\" | \"mistral\" | \"kimi\" | \"deepseek\" | \"openai-compatible\" | \"bedrock-converse\" | \"ollama\""
    )
)]
pub enum Provider {
    /// Anthropic Messages API.
    Anthropic,
    /// OpenAI Chat Completions.
    OpenAiChat,
    /// OpenAI Responses.
    OpenAiResponses,
    /// Google Gemini generateContent.
    Gemini,
    /// Mistral La Plateforme.
    Mistral,
    /// Kimi / Moonshot (OpenAI-compatible).
    Kimi,
    /// DeepSeek (OpenAI-compatible).
    DeepSeek,
    /// Any other OpenAI-compatible server.
    OpenAiCompatible,
    /// AWS Bedrock Converse / ConverseStream (every model Bedrock serves, one wire).
    BedrockConverse,
    /// Ollama's native chat API (`/api/chat`, NDJSON streams), local or remote.
    Ollama,
}

impl Provider {
    /// Every provider name turnwire knows, in a fixed order.
    pub const ALL: [Provider; 10] = [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
        Provider::Mistral,
        Provider::Kimi,
        Provider::DeepSeek,
        Provider::OpenAiCompatible,
        Provider::BedrockConverse,
        Provider::Ollama,
    ];

    /// The providers this build can render for: every one of [`Provider::ALL`].
    #[deprecated(
        since = "0.9.0",
        note = "every provider is implemented: use `Provider::ALL`"
    )]
    pub const IMPLEMENTED: [Provider; 10] = Provider::ALL;

    /// The stable name.
    ///
    /// ```
    /// use turnwire::Provider;
    /// let p: Provider = "openai-chat".parse()?;
    /// assert_eq!(p, Provider::OpenAiChat);
    /// assert_eq!(p.as_str(), "openai-chat");
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAiChat => "openai-chat",
            Provider::OpenAiResponses => "openai-responses",
            Provider::Gemini => "gemini",
            Provider::Mistral => "mistral",
            Provider::Kimi => "kimi",
            Provider::DeepSeek => "deepseek",
            Provider::OpenAiCompatible => "openai-compatible",
            Provider::BedrockConverse => "bedrock-converse",
            Provider::Ollama => "ollama",
        }
    }

    /// A current model of the provider with the richest continuity needs, used by the demo, the
    /// golden files and the tests (turnwire never picks a model for a request itself).
    ///
    /// ```
    /// assert_eq!(turnwire::Provider::DeepSeek.reference_model(), "deepseek-reasoner");
    /// ```
    pub const fn reference_model(self) -> &'static str {
        match self {
            Provider::Anthropic => "claude-sonnet-4-5",
            Provider::OpenAiChat | Provider::OpenAiResponses => "gpt-5.2",
            Provider::Gemini => "gemini-3-pro-preview",
            Provider::Mistral => "mistral-large-latest",
            Provider::Kimi => "kimi-k2-thinking",
            Provider::DeepSeek => "deepseek-reasoner",
            Provider::OpenAiCompatible => "llama-3.3-70b-versatile",
            Provider::BedrockConverse => "us.anthropic.claude-sonnet-4-5-20250929-v1:0",
            Provider::Ollama => "qwen3:8b",
        }
    }

    /// The wire API's name in a message's provenance (`api`): `messages`, `responses`,
    /// `generate-content`, or `chat-completions` for every chat dialect.
    ///
    /// ```
    /// assert_eq!(turnwire::Provider::Kimi.wire_api(), "chat-completions");
    /// ```
    pub const fn wire_api(self) -> &'static str {
        super::WireApi::of(self).name()
    }

    /// Whether this build renders for the provider: always, every provider is implemented.
    #[deprecated(since = "0.9.0", note = "every provider is implemented")]
    pub fn is_implemented(self) -> bool {
        true
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Provider {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Provider::ALL
            .iter()
            .copied()
            .find(|p| p.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Provider::ALL.iter().map(|p| p.as_str()).collect();
                Error::new(
                    ErrorCode::UnknownProvider,
                    "$.provider",
                    format!(
                        "unknown provider `{s}`; expected one of {}",
                        names.join(", ")
                    ),
                )
            })
    }
}

impl Serialize for Provider {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e: Error| serde::de::Error::custom(e.message().to_string()))
    }
}
