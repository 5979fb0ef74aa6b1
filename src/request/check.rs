//! Checking render options on their own, before anything is rendered: every refusal is a
//! typed error with the JSON path of the option at fault.

use super::options::owned_fields;
use crate::error::{Error, ErrorCode};
use crate::models::{self, ModelCaps};
use crate::RenderOptions;

impl RenderOptions {
    /// Checks the options on their own.
    pub fn check(&self) -> Result<(), Error> {
        self.check_with(models::capabilities_or_defaults(self.provider, &self.model))
    }

    /// [`RenderOptions::check`] with the model's row of the capability table at hand.
    pub(crate) fn check_with(&self, caps: ModelCaps) -> Result<(), Error> {
        if self.model.trim().is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                "$.model",
                "model must be a non-empty string",
            ));
        }
        if self.max_tokens == Some(0) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                "$.maxTokens",
                "maxTokens must be at least 1",
            ));
        }
        self.check_limits(caps)?;
        for (field, path, value) in [
            (
                "syntheticResultText",
                "$.syntheticResultText",
                &self.synthetic_result_text,
            ),
            (
                "leadingUserText",
                "$.leadingUserText",
                &self.leading_user_text,
            ),
            (
                "continuationText",
                "$.continuationText",
                &self.continuation_text,
            ),
        ] {
            if value.as_deref().is_some_and(|t| t.trim().is_empty()) {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    path,
                    format!("{field} must contain text (providers reject empty text); leave it out for the default"),
                ));
            }
        }
        if let Some(key) = self
            .extra
            .keys()
            .find(|k| owned_fields(self.provider).contains(&k.as_str()))
        {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                format!("$.extra.{key}"),
                format!("`{key}` is set by turnwire from the history and the options; use the matching option instead of `extra`"),
            ));
        }
        if let Some(e) = self.thinking.as_ref().and_then(|t| t.effort.as_deref()) {
            if !crate::models::EFFORTS.contains(&e) {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    "$.thinking.effort",
                    format!(
                        "effort must be one of {}, found `{e}`",
                        crate::models::EFFORTS.join(", ")
                    ),
                ));
            }
        }
        super::provider_options::check(self)?;
        if let Some(v) = self.thinking.as_ref().and_then(|t| t.summary.as_deref()) {
            if !["auto", "concise", "detailed", "none"].contains(&v) {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    "$.thinking.summary",
                    format!("summary must be one of auto, concise, detailed, none, found `{v}`"),
                ));
            }
        }
        if let Some(c) = &self.compat {
            if !(9..=255).contains(&c.max_id_len) {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    "$.compat.maxIdLen",
                    format!("maxIdLen must be between 9 and 255, got {}", c.max_id_len),
                ));
            }
        }
        for (i, t) in self.tools.iter().enumerate() {
            if let Some(p) = &t.parameters {
                if !p.is_object() {
                    return Err(Error::new(
                        ErrorCode::InvalidType,
                        format!("$.tools[{i}].parameters"),
                        "tool parameters must be a JSON Schema object",
                    ));
                }
            }
        }
        Ok(())
    }
}
