//! Where a message or a continuity artifact came from.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::json_path::JsonPath;
use super::node::Node;
use super::read::{into_object, put_opt_str, take_opt_str};
use crate::error::Error;

/// The provider, API, model and endpoint that produced a message or block.
///
/// Every field is optional: history imported from elsewhere often knows only the model.
/// Continuity artifacts (thinking signatures, encrypted reasoning) are replayed only when the
/// provenance matches the render target.
///
/// ```
/// use turnwire::model::Provenance;
/// let p = Provenance { provider: Some("anthropic".into()), model: Some("claude-sonnet-4-5".into()), ..Default::default() };
/// assert!(p.same_model_as(&Provenance { provider: Some("anthropic".into()), model: Some("claude-sonnet-4-5".into()), ..Default::default() }));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// Provider family (`anthropic`, `openai-chat`, `gemini`, … or a caller's own name).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Wire API when the provider has several (`messages`, `chat-completions`, `responses`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api: Option<String>,
    /// Exact model id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Base URL of the endpoint that served the model.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// Who served it (`anthropic`, `bedrock`, `vertex`, `deepseek`…, see `turnwire::hosts`).
    /// When absent, the host `endpoint`'s URL names (see [`Provenance::host_name`]).
    /// Signatures and encrypted reasoning are replayed only to a host of the same family.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// The account the model served under (organisation, project or API key; with the end
    /// user where the provider binds to one), as the caller names it — an opaque label, never
    /// a key itself. Signatures and encrypted reasoning are bound to it (issue 31).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
}

impl Provenance {
    /// True when nothing is known.
    pub fn is_empty(&self) -> bool {
        self.provider.is_none()
            && self.api.is_none()
            && self.model.is_none()
            && self.endpoint.is_none()
            && self.host.is_none()
            && self.account.is_none()
    }

    /// Fields of `self` win; missing ones are taken from `fallback` — only the provider when
    /// `self` names another provider family than `fallback` (a block of one origin inside a
    /// message of another: the message's model, endpoint and account are not the block's).
    ///
    /// ```
    /// use turnwire::model::Provenance;
    /// let message = Provenance { provider: Some("openai-responses".into()), account: Some("acme".into()), ..Default::default() };
    /// let call = Provenance { provider: Some("gemini".into()), ..Default::default() };
    /// assert_eq!(call.or(&message).account, None);
    /// ```
    pub fn or(&self, fallback: &Provenance) -> Provenance {
        let same_origin = match (&self.provider, &fallback.provider) {
            (Some(a), Some(b)) => provider_family(a) == provider_family(b),
            _ => true,
        };
        let inherit = |own: &Option<String>, theirs: &Option<String>| {
            own.clone()
                .or_else(|| same_origin.then(|| theirs.clone()).flatten())
        };
        Provenance {
            provider: self.provider.clone().or_else(|| fallback.provider.clone()),
            api: inherit(&self.api, &fallback.api),
            model: inherit(&self.model, &fallback.model),
            endpoint: inherit(&self.endpoint, &fallback.endpoint),
            host: inherit(&self.host, &fallback.host),
            account: inherit(&self.account, &fallback.account),
        }
    }

    /// Same provider family and same exact model, both known. Endpoints and accounts must agree
    /// when both are known (the same model name can be served by several endpoints that sign
    /// differently, and a token minted for one account does not verify for another).
    pub fn same_model_as(&self, other: &Provenance) -> bool {
        self.same_family_as(other)
            && matches!((&self.model, &other.model), (Some(a), Some(b)) if a == b)
            && self.same_host_as(other)
    }

    /// Same provider family, both known.
    pub(crate) fn same_family_as(&self, other: &Provenance) -> bool {
        matches!((&self.provider, &other.provider), (Some(a), Some(b)) if provider_family(a) == provider_family(b))
    }

    /// Endpoints agree where both are known, hosts are of one continuity family where both
    /// are known ([`Provenance::host_name`]), and accounts agree where both are known.
    pub(crate) fn same_host_as(&self, other: &Provenance) -> bool {
        let endpoint = match (&self.endpoint, &other.endpoint) {
            (Some(a), Some(b)) => a.trim_end_matches('/') == b.trim_end_matches('/'),
            _ => true,
        };
        let host = match (self.host_name(), other.host_name()) {
            (Some(a), Some(b)) => crate::hosts::family_of(&a) == crate::hosts::family_of(&b),
            _ => true,
        };
        let account = match (&self.account, &other.account) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        endpoint && host && account
    }

    /// The host that served it: `host`, else the host `endpoint`'s URL names (the host table's
    /// URL patterns), else `vertex` for a provider name that says Vertex AI (`google-vertex`);
    /// `None` when nothing says it.
    ///
    /// ```
    /// use turnwire::model::Provenance;
    /// let p = Provenance { endpoint: Some("https://us-east5-aiplatform.googleapis.com/v1".into()), ..Default::default() };
    /// assert_eq!(p.host_name().as_deref(), Some("vertex"));
    /// ```
    pub fn host_name(&self) -> Option<String> {
        if let Some(h) = &self.host {
            return Some(h.trim().to_ascii_lowercase());
        }
        let from_url = self.endpoint.as_deref().and_then(crate::hosts::of_url);
        let from_name = || {
            self.provider
                .as_deref()
                .filter(|p| p.to_ascii_lowercase().contains("vertex"))
                .map(|_| crate::Host::Vertex)
        };
        from_url.or_else(from_name).map(|h| h.as_str().to_string())
    }

    pub(crate) fn read(v: Node<'_>, path: &JsonPath<'_>) -> Result<Provenance, Error> {
        let mut obj = into_object(v, path)?;
        Ok(Provenance {
            provider: take_opt_str(&mut obj, "provider", path)?,
            api: take_opt_str(&mut obj, "api", path)?,
            model: take_opt_str(&mut obj, "model", path)?,
            endpoint: take_opt_str(&mut obj, "endpoint", path)?,
            host: take_opt_str(&mut obj, "host", path)?,
            account: take_opt_str(&mut obj, "account", path)?,
        })
    }

    pub(crate) fn write(&self) -> Value {
        let mut obj = Map::new();
        put_opt_str(&mut obj, "provider", &self.provider);
        put_opt_str(&mut obj, "api", &self.api);
        put_opt_str(&mut obj, "model", &self.model);
        put_opt_str(&mut obj, "endpoint", &self.endpoint);
        put_opt_str(&mut obj, "host", &self.host);
        put_opt_str(&mut obj, "account", &self.account);
        Value::Object(obj)
    }
}

/// Folds the many spellings of a provider into its family: any name with `claude`/`anthropic`
/// (also `vertex-anthropic`) → `anthropic`; `openai`/`openai-chat`/`openai-responses`/`codex` →
/// `openai` (but `azure…` and `openai-compatible` are families of their own);
/// `google`/`gemini`/`vertex` → `gemini`; anything else is lower-cased as is.
///
/// ```
/// assert_eq!(turnwire::model::provider_family("OpenAI-Responses"), "openai");
/// ```
pub fn provider_family(name: &str) -> String {
    let n = name.trim().to_ascii_lowercase();
    // Claude served through another cloud (`vertex-anthropic`, `bedrock-claude`) is Anthropic.
    if n.contains("anthropic") || n.contains("claude") {
        "anthropic".into()
    } else if matches!(
        n.as_str(),
        "openai" | "openai-chat" | "openai-responses" | "codex"
    ) {
        "openai".into()
    } else if n.starts_with("azure") {
        // another account: encrypted reasoning does not verify across accounts (ORS-06)
        "azure-openai".into()
    } else if n.starts_with("gemini") || n.starts_with("google") || n.starts_with("vertex") {
        "gemini".into()
    } else if n.starts_with("moonshot") || n.starts_with("kimi") {
        "kimi".into()
    } else {
        n
    }
}
