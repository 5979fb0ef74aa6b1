//! Each provider's strict validator as one row: its rules on a body (with the model the body
//! goes to, which some rules need), its rules on everything but the history (what
//! `providerOptions` can change), and its words for an unpaired surrogate in the JSON text.
//! `validate_request`, `validate_request_for_model`, `validate_request_text` and the render's
//! `providerOptions` check all read this table.

use serde_json::Value;

use super::json_text::{self, Rule};
use super::{
    anthropic, bedrock_converse, deepseek, gemini, kimi, mistral, ollama, openai_chat,
    openai_compatible, openai_responses, Violation,
};
use crate::vocab::Provider;

/// One provider's strict validator.
pub(crate) struct Validator {
    /// Every rule a body can be checked against, given the model where known.
    pub body: fn(&Value, Option<&str>) -> Vec<Violation>,
    /// The rules on everything but the history member, given the model where known.
    pub envelope: fn(&Value, Option<&str>) -> Vec<Violation>,
    /// The rule id and the provider's words for an unpaired surrogate.
    pub surrogates: &'static Rule,
}

/// The validator of `provider`.
pub(crate) fn validator(provider: Provider) -> Validator {
    match provider {
        Provider::Anthropic => Validator {
            body: |b, _| anthropic::validate::validate(b),
            envelope: |b, _| anthropic::validate::validate_envelope(b),
            surrogates: &json_text::ANTHROPIC,
        },
        Provider::OpenAiChat => Validator {
            body: |b, _| openai_chat::validate::validate(b),
            envelope: |b, _| openai_chat::validate::validate_envelope(b),
            surrogates: &json_text::OPENAI_CHAT,
        },
        Provider::OpenAiResponses => Validator {
            body: |b, _| openai_responses::validate::validate(b),
            envelope: |b, _| openai_responses::validate::validate_envelope(b),
            surrogates: &json_text::OPENAI_RESPONSES,
        },
        Provider::Gemini => Validator {
            body: gemini::validate::validate_with_model,
            envelope: gemini::validate::validate_envelope,
            surrogates: &json_text::GEMINI,
        },
        Provider::Mistral => Validator {
            body: |b, _| mistral::validate::validate(b),
            envelope: |b, _| mistral::validate::validate_envelope(b),
            surrogates: &json_text::MISTRAL,
        },
        Provider::Kimi => Validator {
            body: |b, _| kimi::validate::validate(b),
            envelope: |b, _| kimi::validate::validate_envelope(b),
            surrogates: &json_text::KIMI,
        },
        Provider::DeepSeek => Validator {
            body: |b, _| deepseek::validate::validate(b),
            envelope: |b, _| deepseek::validate::validate_envelope(b),
            surrogates: &json_text::DEEPSEEK,
        },
        Provider::OpenAiCompatible => Validator {
            body: |b, _| openai_compatible::validate::validate(b),
            envelope: |b, _| openai_compatible::validate::validate_envelope(b),
            surrogates: &json_text::COMPATIBLE,
        },
        Provider::BedrockConverse => Validator {
            body: bedrock_converse::validate::validate,
            envelope: bedrock_converse::validate::validate_envelope,
            surrogates: &json_text::BEDROCK,
        },
        Provider::Ollama => Validator {
            body: ollama::validate::validate,
            envelope: ollama::validate::validate_envelope,
            surrogates: &json_text::OLLAMA,
        },
    }
}
