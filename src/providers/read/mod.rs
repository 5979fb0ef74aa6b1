//! What every wire's importer (`providers/<wire>/read.rs`) shares: the reader that keeps the
//! diagnostics and paths ([`context`]), the request-body options ([`options`], [`cache`],
//! [`server_tools`]), value helpers ([`values`]), and what an importer returns. The public
//! entry points are in `import/`.

pub(crate) mod cache;
pub(crate) mod context;
pub(crate) mod options;
pub(crate) mod server_tools;
pub(crate) mod values;

use crate::model::Transcript;
use crate::request::RenderOptions;
use crate::vocab::Diagnostic;

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
    /// The host that served them (`bedrock`, `vertex`, `deepseek`…, see `turnwire::hosts`);
    /// when `None`, a body's `anthropic_version` (`bedrock-2023-05-31`, `vertex-2023-10-16`)
    /// says it.
    pub host: Option<crate::vocab::Host>,
    /// The account they were served under (an opaque label, never a key).
    pub account: Option<String>,
}

impl ImportSource {
    /// The model of a body that does not name it (`what` says whose: Gemini's and Converse's
    /// are in the URL): the source's, else a `missing_field` error at `$.model`.
    pub(crate) fn model_outside_body(&self, what: &str) -> Result<String, crate::error::Error> {
        self.model.clone().ok_or_else(|| {
            crate::error::Error::new(
                crate::error::ErrorCode::MissingField,
                "$.model",
                format!(
                    "a {what} body does not name its model (it is in the URL); give it in the import source"
                ),
            )
        })
    }
}
