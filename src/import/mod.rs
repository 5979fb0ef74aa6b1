//! Importers: histories kept in another library's or provider's shape, read into the canonical
//! transcript with every continuity token and its provenance.
//!
//! Each importer reads one format and returns an [`Imported`]: the transcript, the render
//! options a request body implied (for [`from_request_body`]), and diagnostics for what the
//! transcript cannot carry as the format had it (kept as opaque blocks, which renders leave
//! out). The layers stay honest: importers only read — they do not repair; the normaliser
//! repairs what they read when it is rendered.
//!
//! Provider formats rarely name the model that wrote an assistant turn, and continuity tokens
//! (thinking signatures, encrypted reasoning, thought signatures) are replayed only to the model
//! that made them. So assistant messages get the provenance of [`ImportSource`]: the provider
//! of the format, and the model and endpoint the caller gives (a request body's own `model` when
//! it has one).
//!
//! ```
//! use turnwire::import::{from_request_body, ImportSource};
//! use turnwire::{render_body, Provider};
//! let body = serde_json::json!({
//!     "model": "claude-sonnet-4-5", "max_tokens": 1024,
//!     "messages": [{"role": "user", "content": "hi"}]
//! });
//! let imported = from_request_body(Provider::Anthropic, &body, &ImportSource::default())?;
//! let options = imported.options.expect("a request body has options");
//! // the same history, for another provider
//! let gemini = turnwire::RenderOptions::new(Provider::Gemini, "gemini-2.5-pro");
//! let out: serde_json::Value = serde_json::from_slice(&render_body(&imported.transcript, &gemini)?).unwrap();
//! assert_eq!(out["contents"][0]["parts"][0]["text"], "hi");
//! assert_eq!(options.max_tokens, Some(1024));
//! # Ok::<(), turnwire::Error>(())
//! ```

mod ai_sdk;
mod pi_ai;
pub(crate) mod pi_ai_keys;
mod request;

pub use crate::providers::anthropic::read::from_anthropic;
pub use crate::providers::gemini::read::from_gemini;
pub use crate::providers::openai_chat::read::from_openai_chat;
pub use crate::providers::openai_responses::read::from_responses_input;
pub use ai_sdk::from_ai_sdk;
pub use pi_ai::from_pi_ai;
pub use request::{repair_request_body, RepairedRequest};

use serde_json::Value;

use crate::error::{Error, ErrorCode};
pub use crate::providers::read::{ImportSource, Imported};
use crate::vocab::{Provider, WireApi};

/// Reads a request body turnwire renders for `provider` (or one built elsewhere for that API)
/// back into a transcript and the render options it implies, so it can be repaired and
/// rendered for any provider.
///
/// ```
/// use turnwire::import::{from_request_body, ImportSource};
/// let body = serde_json::json!({"model": "m", "max_tokens": 64, "messages": []});
/// let imported = from_request_body(turnwire::Provider::Anthropic, &body, &ImportSource::default())?;
/// assert!(imported.transcript.messages.is_empty());
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn from_request_body(
    provider: Provider,
    body: &Value,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let Some(obj) = body.as_object() else {
        return Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            format!(
                "a request body is a JSON object, found {}",
                crate::model::type_name(body)
            ),
        ));
    };
    WireApi::of(provider).read_body(provider, obj, source)
}
