//! What render options imply for the normaliser: the model's capabilities as this request
//! uses them and the repair policy, built once per call (see [`super::Resolved`]).

use crate::error::Error;
use crate::models::{self, ModelCaps, ReasoningField};
use crate::normalize::{
    NormalizeOptions, DEFAULT_BRIDGE_TEXT, DEFAULT_CONTINUATION_TEXT, DEFAULT_LEADING_USER_TEXT,
    DEFAULT_SYNTHETIC_RESULT_TEXT,
};
use crate::vocab::Provider;
use crate::RenderOptions;

impl RenderOptions {
    /// The normaliser options these render options imply, with the capability table's row for
    /// the model as it is (see [`RenderOptions::resolved_normalize_options`]).
    pub fn normalize_options(&self) -> NormalizeOptions {
        self.policy(models::capabilities_or_defaults(self.provider, &self.model))
    }

    /// The normaliser options with the model's capabilities resolved (strict mode errors).
    pub fn resolved_normalize_options(&self) -> Result<NormalizeOptions, Error> {
        let caps = models::resolve(self.provider, &self.model, self.strict_models)?;
        Ok(self.policy(self.adjusted(caps)))
    }

    /// The model's capabilities as this request uses them: an explicit thinking switch decides
    /// whether Kimi / DeepSeek need reasoning back, and a compatible server takes a reasoning
    /// field only when the caller names one.
    pub(crate) fn adjusted(&self, mut caps: ModelCaps) -> ModelCaps {
        // A model that always thinks keeps needing its reasoning back, whatever the switch says.
        let always = crate::models::always_thinks(self.provider, &self.model);
        if matches!(self.provider, Provider::Kimi | Provider::DeepSeek) && !always {
            if let Some(t) = &self.thinking {
                caps.reasoning_field = if t.enabled {
                    ReasoningField::RequiredOnToolTurns
                } else {
                    ReasoningField::Accepted
                };
            }
        }
        if self.provider == Provider::OpenAiCompatible {
            let field = self
                .compat
                .as_ref()
                .and_then(|c| c.reasoning_field.as_ref());
            // A model that thinks by default behind any server (GLM-5, KIM-12) needs its
            // reasoning back on tool-call turns unless the caller switches thinking off.
            let off = self.thinking.as_ref().is_some_and(|t| !t.enabled);
            caps.reasoning_field =
                if caps.reasoning_field == ReasoningField::RequiredOnToolTurns && !off {
                    ReasoningField::RequiredOnToolTurns
                } else if field.is_some() || caps.reasoning_field != ReasoningField::None {
                    ReasoningField::Accepted
                } else {
                    ReasoningField::None
                };
        }
        caps
    }

    /// The normaliser's options: the target, `caps` and the caller's repair policy, each
    /// field taken once from these options.
    pub(crate) fn policy(&self, caps: ModelCaps) -> NormalizeOptions {
        let text = |t: &Option<String>, default: &str| t.clone().unwrap_or_else(|| default.into());
        NormalizeOptions {
            target: self.provider,
            model: self.model.clone(),
            endpoint: self.endpoint.clone(),
            host: self.host,
            account: self.account.clone(),
            thinking_enabled: self.thinking_enabled(),
            synthetic_result_text: text(&self.synthetic_result_text, DEFAULT_SYNTHETIC_RESULT_TEXT),
            orphan_results: self.orphan_results,
            foreign_thinking: self.foreign_thinking,
            trust_unattributed_thinking: self.trust_unattributed_thinking,
            leading_user_text: text(&self.leading_user_text, DEFAULT_LEADING_USER_TEXT),
            bridge_text: text(&self.bridge_text, DEFAULT_BRIDGE_TEXT),
            continuation_text: text(&self.continuation_text, DEFAULT_CONTINUATION_TEXT),
            declared_tools: self.tools.iter().map(|t| t.name.clone()).collect(),
            caps,
            compat_images: self.provider != Provider::OpenAiCompatible
                || self.compat.as_ref().is_none_or(|c| c.images),
        }
    }
}
