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
mod anthropic;
mod cache;
mod context;
mod gemini;
mod gemini_options;
mod openai_chat;
mod openai_responses;
mod options;
mod pi_ai;
pub(crate) mod pi_ai_keys;
mod request;
mod server_tools;
mod values;

pub use ai_sdk::from_ai_sdk;
pub use anthropic::from_anthropic;
pub use gemini::from_gemini;
pub use openai_chat::from_openai_chat;
pub use openai_responses::from_responses_input;
pub use pi_ai::from_pi_ai;
pub use request::{repair_request_body, RepairedRequest};

use serde_json::Value;

use crate::error::{Error, ErrorCode};
use crate::model::Transcript;
use crate::request::RenderOptions;
use crate::vocab::Diagnostic;
use crate::vocab::Provider;

/// What an importer read.
#[derive(Debug, Clone, PartialEq)]
pub struct Imported {
    /// The canonical transcript.
    pub transcript: Transcript,
    /// The render options a request body implied (model, limits, tools, thinking, sampling, its
    /// other fields as `extra`); `None` for a bare message list.
    pub options: Option<RenderOptions>,
    /// What the transcript could not carry as the input had it, with the JSON path of each.
    pub diagnostics: Vec<Diagnostic>,
}

/// Who wrote the assistant turns of an imported history, when the format does not say.
///
/// ```
/// let s = turnwire::import::ImportSource { model: Some("claude-sonnet-4-5".into()), ..Default::default() };
/// assert!(s.endpoint.is_none());
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ImportSource {
    /// The model of the assistant turns (a request body's `model` is used when this is `None`).
    pub model: Option<String>,
    /// The base URL that served them.
    pub endpoint: Option<String>,
}

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
    match provider {
        Provider::Anthropic => anthropic::from_body(obj, source),
        Provider::OpenAiChat
        | Provider::Mistral
        | Provider::Kimi
        | Provider::DeepSeek
        | Provider::OpenAiCompatible => openai_chat::from_body(provider, obj, source),
        Provider::OpenAiResponses => openai_responses::from_body(obj, source),
        Provider::Gemini => gemini::from_body(obj, source),
    }
}
