//! `providerOptions`: per-provider request fields, keyed by turnwire's provider names (as the AI
//! SDK keys its provider options), merged into the body turnwire renders for that provider and
//! checked by the provider's strict validator.
//!
//! Here the entries are checked when the options are read; the render merges its provider's
//! entry into the body (`render/provider_options.rs`).

use serde_json::Value;

use super::RenderOptions;
use crate::error::{Error, ErrorCode};
use crate::vocab::Provider;
use crate::vocab::WireApi;

/// Checks every entry: a provider name, an object, no history member.
pub(crate) fn check(o: &RenderOptions) -> Result<(), Error> {
    for (name, patch) in &o.provider_options {
        let at = format!("$.providerOptions.{name}");
        let provider: Provider = name.parse().map_err(|_| {
            Error::new(
                ErrorCode::InvalidValue,
                at.clone(),
                format!("providerOptions is keyed by provider names (anthropic, openai-chat, …), found `{name}`"),
            )
        })?;
        let Value::Object(patch) = patch else {
            return Err(Error::new(
                ErrorCode::InvalidType,
                at,
                "a provider's options are a JSON object of request fields",
            ));
        };
        if provider == o.provider {
            if let Some(k) = patch.keys().find(|k| o.extra.contains_key(*k)) {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    format!("$.extra.{k}"),
                    format!("`{k}` is set by providerOptions.{name}; leave it out of `extra`"),
                ));
            }
        }
        let history = WireApi::of(provider).messages_key();
        if patch.contains_key(history) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                format!("{at}.{history}"),
                format!(
                    "`{history}` is rendered from the transcript; providerOptions may not set it"
                ),
            ));
        }
    }
    Ok(())
}
