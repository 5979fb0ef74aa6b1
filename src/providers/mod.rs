//! Provider adapters: one module per wire API (request rendering and strict validation).

pub mod anthropic;
pub(crate) mod common;
pub mod openai_chat;
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
        _ => Vec::new(),
    }
}
