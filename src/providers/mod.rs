//! Provider adapters: one module per wire API (request rendering and strict validation).

pub mod anthropic;
pub mod bedrock_converse;
mod body;
mod closed_fields;
pub(crate) mod common;
pub mod deepseek;
pub mod gemini;
pub(crate) mod host_envelope;
mod json_text;
pub mod kimi;
pub mod mistral;
pub mod ollama;
pub mod openai_chat;
pub mod openai_compatible;
pub mod openai_responses;
mod projection;
pub(crate) mod read;
mod request_field_types;
mod request_fields;
mod target;
pub(crate) mod validate_support;
mod validators;
mod violation;

pub use crate::vocab::Provider;
pub use json_text::{validate_request_text, validate_request_text_for_host};
pub(crate) use projection::Projection;
pub(crate) use target::{WireDecoder, WireWriter};
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
    with_fields(
        provider,
        body,
        (validators::validator(provider).body)(body, None),
    )
}

/// `found`, then the closed-field rule's findings (ANT-50, OAC-30, ORS-30, GEM-30, MIS-20) at
/// paths no rule of `found` named already (ORS-15 says more about `stop` than ORS-30).
fn with_fields(provider: Provider, body: &Value, mut found: Vec<Violation>) -> Vec<Violation> {
    let more: Vec<Violation> = closed_fields::check(provider, body)
        .into_iter()
        .filter(|v| !found.iter().any(|f| f.path == v.path))
        .collect();
    found.extend(more);
    found
}

/// The strict validator's rules on everything but the history member (`messages`, `input`,
/// `contents`): what `providerOptions` can change, checked after they are merged.
pub(crate) fn validate_envelope(provider: Provider, model: &str, body: &Value) -> Vec<Violation> {
    with_fields(
        provider,
        body,
        (validators::validator(provider).envelope)(body, Some(model)),
    )
}

/// Like [`validate_request`], with the model the body goes to. Some rules depend on a model
/// that is not in the body: Gemini puts the model in the URL, and its Gemini 3 models need a
/// thought signature on the first call of each step of the current tool loop (GEM-05).
///
/// ```
/// use turnwire::{validate_request_for_model, Provider};
/// let body = serde_json::json!({"contents": [
///     {"role": "user", "parts": [{"text": "weather?"}]},
///     {"role": "model", "parts": [{"functionCall": {"name": "get_weather", "args": {}}}]},
///     {"role": "user", "parts": [{"functionResponse": {"name": "get_weather", "response": {"t": 21}}}]}
/// ]});
/// let v = validate_request_for_model(Provider::Gemini, "gemini-3-pro-preview", &body);
/// assert!(v.iter().any(|v| v.rule == "GEM-05"));
/// ```
pub fn validate_request_for_model(provider: Provider, model: &str, body: &Value) -> Vec<Violation> {
    with_fields(
        provider,
        body,
        (validators::validator(provider).body)(body, Some(model)),
    )
}

/// Like [`validate_request_for_model`], for a body sent to `host` (see `turnwire::hosts`):
/// the host's envelope is checked (HST-01: Bedrock's and Vertex's `anthropic_version` in the
/// body, no `model` where the URL names it, no `stream` where the URL says it; HST-02: what
/// the host refuses), then the body, in its wire's first-party shape, by the wire's
/// validator. A host that does not serve `provider` is one violation (HST-00).
///
/// ```
/// use turnwire::{validate_request_for_host, Host, Provider};
/// let body = serde_json::json!({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64,
///     "messages": [{"role": "user", "content": "hi"}]});
/// assert!(validate_request_for_host(Provider::Anthropic, Host::Bedrock, "claude-sonnet-4-5", &body).is_empty());
/// ```
pub fn validate_request_for_host(
    provider: Provider,
    host: crate::Host,
    model: &str,
    body: &Value,
) -> Vec<Violation> {
    let Ok(Some(row)) = crate::hosts::resolve(Some(host), provider, "$") else {
        let served = crate::hosts::served_by(host).join(", ");
        return vec![Violation::new(
            "HST-00",
            "$",
            format!("host `{host}` does not serve provider `{provider}`; {host} serves {served}"),
        )];
    };
    let mut out: Vec<Violation> = host_envelope::envelope_violations(row, body)
        .into_iter()
        .map(|(rule, field, message)| Violation::new(rule, format!("$.{field}"), message))
        .collect();
    let shaped = host_envelope::first_party_shape(row, model, body);
    out.extend(validate_request_for_model(provider, model, &shaped));
    out
}

/// Like [`validate_request_for_model`], for a body sent with `headers` (header → value, as a
/// render's [`crate::Rendered::headers`] holds them): also the rules on what the body needs in
/// its headers (Anthropic's beta for `thinking.block_binding`, ANT-52). Other providers' bodies
/// need no header of turnwire's rules.
///
/// ```
/// use turnwire::{validate_request_with_headers, Provider};
/// let body = serde_json::json!({"model": "claude-fable-5-1", "max_tokens": 64,
///     "thinking": {"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}},
///     "messages": [{"role": "user", "content": "hi"}]});
/// let v = validate_request_with_headers(Provider::Anthropic, "claude-fable-5-1", &body, &[]);
/// assert_eq!(v[0].rule, "ANT-52");
/// ```
pub fn validate_request_with_headers(
    provider: Provider,
    model: &str,
    body: &Value,
    headers: &[(String, String)],
) -> Vec<Violation> {
    let found = match provider {
        Provider::Anthropic => anthropic::validate::validate_with_headers(body, headers),
        _ => (validators::validator(provider).body)(body, Some(model)),
    };
    with_fields(provider, body, found)
}
