//! Provider adapters: one module per wire API (request rendering and strict validation).

pub mod anthropic;
pub(crate) mod common;
pub mod deepseek;
pub mod gemini;
pub mod kimi;
pub mod mistral;
pub mod openai_chat;
pub mod openai_compatible;
pub mod openai_responses;
mod projection;
mod provider;
pub(crate) mod validate_support;
mod violation;

pub(crate) use projection::Projection;
pub use provider::Provider;
pub use violation::Violation;

use serde_json::Value;

/// Checks a request body against the strict rules of `provider` (provider-rules.md). An empty
/// list means every rule that can be checked from a body holds.
///
/// ```
/// use turnwire::{validate_request, Provider};
/// let body = serde_json::json!({"model": "m", "max_tokens": 16, "messages": [{"role": "assistant", "content": "hi"}]});
/// let v = validate_request(Provider::Anthropic, &body);
/// assert!(v.iter().any(|v| v.rule == "ANT-01"));
/// ```
pub fn validate_request(provider: Provider, body: &Value) -> Vec<Violation> {
    match provider {
        Provider::Anthropic => anthropic::validate::validate(body),
        Provider::OpenAiChat => openai_chat::validate::validate(body),
        Provider::OpenAiResponses => openai_responses::validate::validate(body),
        Provider::Gemini => gemini::validate::validate(body),
        Provider::Mistral => mistral::validate::validate(body),
        Provider::Kimi => kimi::validate::validate(body),
        Provider::DeepSeek => deepseek::validate::validate(body),
        Provider::OpenAiCompatible => openai_compatible::validate::validate(body),
    }
}
