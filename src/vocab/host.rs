//! Where a wire API is served, and what each host changes about a request. Today every
//! provider has one host, its own API; a host that serves another party's wire (a cloud that
//! serves Claude, a gateway that serves every model) is one more row here.

use super::Provider;

/// A host: who serves a wire API at a base URL.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Host {
    /// `api.anthropic.com`: Anthropic Messages.
    Anthropic,
    /// `api.openai.com`: Chat Completions and Responses.
    OpenAi,
    /// `generativelanguage.googleapis.com` (Google AI Studio): generateContent.
    GoogleAiStudio,
    /// `api.mistral.ai`: Mistral's Chat Completions dialect.
    Mistral,
    /// `api.moonshot.ai`: Kimi's Chat Completions dialect.
    Moonshot,
    /// `api.deepseek.com`: DeepSeek's Chat Completions dialect.
    DeepSeek,
    /// Any other server of the Chat Completions API, at the caller's base URL.
    Compatible,
    /// `bedrock-runtime.{region}.amazonaws.com`: Bedrock Converse, the model in the URL.
    BedrockRuntime,
}

impl Host {
    /// The host a provider's requests go to when the caller names none: its own API.
    pub(crate) const fn of(provider: Provider) -> Host {
        match provider {
            Provider::Anthropic => Host::Anthropic,
            Provider::OpenAiChat | Provider::OpenAiResponses => Host::OpenAi,
            Provider::Gemini => Host::GoogleAiStudio,
            Provider::Mistral => Host::Mistral,
            Provider::Kimi => Host::Moonshot,
            Provider::DeepSeek => Host::DeepSeek,
            Provider::OpenAiCompatible => Host::Compatible,
            Provider::BedrockConverse => Host::BedrockRuntime,
        }
    }

    /// Whether the body names the model (`"model": …`); otherwise the URL does (Google AI
    /// Studio's `models/{model}:generateContent`).
    pub(crate) const fn model_in_body(self) -> bool {
        match self {
            Host::GoogleAiStudio | Host::BedrockRuntime => false,
            Host::Anthropic
            | Host::OpenAi
            | Host::Mistral
            | Host::Moonshot
            | Host::DeepSeek
            | Host::Compatible => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::WireApi;

    /// Today a provider's host serves its wire; the body names the model unless the host puts
    /// it in the URL, which generateContent and Converse do.
    #[test]
    fn every_provider_has_a_host_that_places_its_model() {
        for p in Provider::ALL {
            let host = Host::of(p);
            assert_eq!(
                host.model_in_body(),
                !matches!(WireApi::of(p), WireApi::GenerateContent | WireApi::Converse),
                "{p}"
            );
            assert_eq!(
                host.model_in_body(),
                WireApi::of(p).owned_fields().contains(&"model"),
                "{p}: the owned fields name `model` exactly when the body does"
            );
        }
    }
}
