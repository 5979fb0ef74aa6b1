//! Host names: who serves a wire API at a base URL (a provider's own API, a cloud that serves
//! Claude or Gemini, a gateway). The word only; what each host changes about a request, its
//! URLs, auth and continuity family are rows of the host table (`src/hosts.rs`).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::Provider;
use crate::error::{Error, ErrorCode};

/// A host: who serves a wire API (the `host` render option, a provenance's `host`).
///
/// ```
/// use turnwire::{Host, Provider};
/// let h: Host = "vertex".parse()?;
/// assert_eq!(h.as_str(), "vertex");
/// assert_eq!(Host::of(Provider::Anthropic), Some(Host::Anthropic));
/// assert_eq!(Host::of(Provider::OpenAiCompatible), None); // the caller's base URL
/// # Ok::<(), turnwire::Error>(())
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(
    feature = "wasm-bind",
    derive(tsify::Tsify),
    tsify(
        type = "\"anthropic\" | \"openai\" | \"google\" | \"mistral\" | \"bedrock\" | \"bedrock-mantle\" | \"vertex\" | \"azure\" | \"foundry\" | \"openrouter\" | \"xai\" | \"deepseek\" | \"kimi\" | \"zai\" | \"ollama\""
    )
)]
pub enum Host {
    /// `api.anthropic.com`: Anthropic Messages.
    Anthropic,
    /// `api.openai.com`: Chat Completions and Responses.
    OpenAi,
    /// `generativelanguage.googleapis.com` (Google AI Studio): generateContent.
    Google,
    /// `api.mistral.ai`: Mistral's Chat Completions dialect.
    Mistral,
    /// Amazon Bedrock runtime (InvokeModel with the Anthropic body; Converse).
    Bedrock,
    /// Amazon Bedrock's `bedrock-mantle` endpoints: the first-party Anthropic and OpenAI bodies.
    BedrockMantle,
    /// Google Vertex AI: Claude (Anthropic body) and Gemini (generateContent).
    Vertex,
    /// Azure OpenAI (`{resource}.openai.azure.com`).
    Azure,
    /// Microsoft Foundry (`{resource}.services.ai.azure.com`): OpenAI models and Claude.
    Foundry,
    /// OpenRouter: the Chat Completions API for every model.
    OpenRouter,
    /// xAI: Chat Completions and Responses.
    Xai,
    /// DeepSeek: its Chat dialect and its Anthropic-compatible endpoint (`/anthropic`).
    DeepSeek,
    /// Moonshot (Kimi): its Chat dialect and its Anthropic-compatible endpoint.
    Kimi,
    /// Z.ai (GLM): its Anthropic-compatible endpoint and its Chat API.
    Zai,
    /// A local Ollama server (`http://localhost:11434`, no key): Chat Completions at `/v1` and
    /// its native `/api/chat` (the `ollama` provider).
    Ollama,
}

impl Host {
    /// Every host name, in a fixed order.
    pub const ALL: [Host; 15] = [
        Host::Anthropic,
        Host::OpenAi,
        Host::Google,
        Host::Mistral,
        Host::Bedrock,
        Host::BedrockMantle,
        Host::Vertex,
        Host::Azure,
        Host::Foundry,
        Host::OpenRouter,
        Host::Xai,
        Host::DeepSeek,
        Host::Kimi,
        Host::Zai,
        Host::Ollama,
    ];

    /// The stable name.
    ///
    /// ```
    /// assert_eq!(turnwire::Host::BedrockMantle.as_str(), "bedrock-mantle");
    /// ```
    pub const fn as_str(self) -> &'static str {
        match self {
            Host::Anthropic => "anthropic",
            Host::OpenAi => "openai",
            Host::Google => "google",
            Host::Mistral => "mistral",
            Host::Bedrock => "bedrock",
            Host::BedrockMantle => "bedrock-mantle",
            Host::Vertex => "vertex",
            Host::Azure => "azure",
            Host::Foundry => "foundry",
            Host::OpenRouter => "openrouter",
            Host::Xai => "xai",
            Host::DeepSeek => "deepseek",
            Host::Kimi => "kimi",
            Host::Zai => "zai",
            Host::Ollama => "ollama",
        }
    }

    /// The host a provider's requests go to when the caller names none: its own API.
    /// `openai-compatible` has none (the caller's base URL says where it goes).
    ///
    /// ```
    /// use turnwire::{Host, Provider};
    /// assert_eq!(Host::of(Provider::Gemini), Some(Host::Google));
    /// ```
    pub const fn of(provider: Provider) -> Option<Host> {
        match provider {
            Provider::Anthropic => Some(Host::Anthropic),
            Provider::OpenAiChat | Provider::OpenAiResponses => Some(Host::OpenAi),
            Provider::Gemini => Some(Host::Google),
            Provider::Mistral => Some(Host::Mistral),
            Provider::Kimi => Some(Host::Kimi),
            Provider::DeepSeek => Some(Host::DeepSeek),
            Provider::OpenAiCompatible => None,
            Provider::BedrockConverse => Some(Host::Bedrock),
            Provider::Ollama => Some(Host::Ollama),
        }
    }
}

impl fmt::Display for Host {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Host {
    type Err = Error;

    /// An unknown name is `invalid_value` at `$.host`, naming every host.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Host::ALL
            .iter()
            .copied()
            .find(|h| h.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Host::ALL.iter().map(|h| h.as_str()).collect();
                Error::new(
                    ErrorCode::InvalidValue,
                    "$.host",
                    format!("unknown host `{s}`; expected one of {}", names.join(", ")),
                )
            })
    }
}

impl Serialize for Host {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Host {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e: Error| serde::de::Error::custom(e.message().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_unknown_names_list_every_host() {
        for h in Host::ALL {
            assert_eq!(h.as_str().parse::<Host>().ok(), Some(h));
        }
        let e = "aws".parse::<Host>().err().map(|e| e.message().to_string());
        let e = e.unwrap_or_default();
        assert!(e.contains("unknown host `aws`"), "{e}");
        assert!(e.contains("bedrock-mantle") && e.contains("ollama"), "{e}");
    }
}
