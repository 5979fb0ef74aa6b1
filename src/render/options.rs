//! Render options: the target, the caller's request settings and the repair policies.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::models::{self, ModelCaps, ReasoningField};
use crate::normalize::{
    ForeignThinking, NormalizeOptions, OrphanPolicy, DEFAULT_BRIDGE_TEXT,
    DEFAULT_CONTINUATION_TEXT, DEFAULT_LEADING_USER_TEXT, DEFAULT_SYNTHETIC_RESULT_TEXT,
};
use crate::providers::Provider;

/// A tool the model may call, declared in the request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct ToolDeclaration {
    /// Tool name (projected to the provider's name rules when needed).
    pub name: String,
    /// What the tool does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// JSON Schema of the arguments.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "JsonObject"))]
    pub parameters: Option<Value>,
}

impl ToolDeclaration {
    /// A declaration with a description and a schema.
    ///
    /// ```
    /// let t = turnwire::ToolDeclaration::new("read_file", "Read a file", serde_json::json!({"type": "object"}));
    /// assert_eq!(t.name, "read_file");
    /// ```
    pub fn new(name: impl Into<String>, description: impl Into<String>, parameters: Value) -> Self {
        ToolDeclaration {
            name: name.into(),
            description: Some(description.into()),
            parameters: Some(parameters),
        }
    }
}

/// The caller's thinking setting for this request.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct ThinkingOptions {
    /// Thinking on or off.
    pub enabled: bool,
    /// Anthropic thinking budget (default 1024; must stay below `maxTokens`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<u32>,
    /// Reasoning effort for OpenAI-style targets (`low`, `medium`, `high`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effort: Option<String>,
}

/// Everything a render needs besides the transcript.
///
/// The JSON form (CLI `--options`, JavaScript) uses camelCase names:
/// `{"provider": "anthropic", "model": "…", "maxTokens": 4096, "system": "…", "tools": […],
/// "thinking": {"enabled": true, "budgetTokens": 2048}, "orphanResults": "text"}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct RenderOptions {
    /// Target wire format.
    pub provider: Provider,
    /// Target model id.
    pub model: String,
    /// Target endpoint base URL, when it matters for continuity (same model, other host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// Output token limit (`max_tokens`; `max_completion_tokens` for OpenAI). Anthropic needs
    /// one: 4096 when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_tokens: Option<u32>,
    /// System prompt, placed before any `system` messages of the transcript.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub system: Option<String>,
    /// Tool declarations.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tools: Vec<ToolDeclaration>,
    /// Thinking setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<ThinkingOptions>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Nucleus sampling.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub top_p: Option<f64>,
    /// Further top-level request fields, copied into the body as they are (`stream`,
    /// `metadata`, …). They never override fields turnwire sets.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "JsonObject"))]
    pub extra: Map<String, Value>,
    /// Text of synthetic completions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub synthetic_result_text: Option<String>,
    /// What to do with results whose call is gone.
    #[serde(default)]
    pub orphan_results: OrphanPolicy,
    /// What to do with thinking the target cannot replay.
    #[serde(default)]
    pub foreign_thinking: ForeignThinking,
    /// Treat signed thinking without provenance as the target model's own.
    #[serde(default)]
    pub trust_unattributed_thinking: bool,
    /// Text of an inserted leading user turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub leading_user_text: Option<String>,
    /// Text of an assistant turn inserted between tool results and a user message (Mistral).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bridge_text: Option<String>,
    /// Text of the user turn appended after a final assistant message when the model takes no
    /// prefill (Claude 4.6+, deepseek-reasoner).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub continuation_text: Option<String>,
    /// Reject models turnwire does not know or that lack the continuity features it needs
    /// (`unsupported_model`); without it unknown models get the provider's safe defaults.
    #[serde(default)]
    pub strict_models: bool,
    /// Settings of a generic OpenAI-compatible server (`openai-compatible` only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compat: Option<CompatOptions>,
    /// Repairs made while reading these options from JSON text or JavaScript values
    /// (unpaired surrogates in `system`, tool declarations, `extra`…), reported by every render
    /// after the transcript's own. Not part of the JSON form.
    #[serde(skip)]
    pub read_repairs: Vec<crate::normalize::Diagnostic>,
}

/// What a generic OpenAI-compatible server (Groq, xAI, OpenRouter, Ollama, vLLM…) accepts.
/// The defaults are the portable strict profile: ids as OpenAI's, no reasoning fields, images.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct CompatOptions {
    /// Longest tool-call id the server takes (OpenAI: 40).
    pub max_id_len: usize,
    /// Ids may only use ASCII letters and digits (no `_` or `-`).
    pub alphanumeric_ids: bool,
    /// Name of the assistant field that carries reasoning text back (`reasoning_content`,
    /// `reasoning`), or none when the server rejects reasoning fields (Groq, GRQ-01).
    pub reasoning_field: Option<String>,
    /// Whether image parts are accepted.
    pub images: bool,
}

impl Default for CompatOptions {
    /// The portable strict profile. Fields left out of the JSON form take these values:
    ///
    /// ```
    /// let c: turnwire::CompatOptions = serde_json::from_str(r#"{"reasoningField": "reasoning"}"#)?;
    /// assert_eq!(c.reasoning_field.as_deref(), Some("reasoning"));
    /// assert!(c.images);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    fn default() -> Self {
        CompatOptions {
            max_id_len: 40,
            alphanumeric_ids: false,
            reasoning_field: None,
            images: true,
        }
    }
}

/// The body fields turnwire derives from the history and the options for `provider`'s API;
/// `extra` may not set them (another API's fields of the same name are the caller's).
///
/// ```
/// use turnwire::{owned_fields, Provider};
/// assert!(owned_fields(Provider::OpenAiResponses).contains(&"store"));
/// assert!(!owned_fields(Provider::OpenAiChat).contains(&"store")); // chat's own `store` is extra
/// ```
pub fn owned_fields(provider: Provider) -> &'static [&'static str] {
    super::WireApi::of(provider).owned_fields()
}

/// Anthropic's `max_tokens` when the caller gives none.
pub const DEFAULT_MAX_TOKENS: u32 = 4096;
/// Anthropic's thinking budget when the caller gives none (the provider's minimum).
pub const DEFAULT_THINKING_BUDGET: u32 = 1024;

impl RenderOptions {
    /// Options with only the target set.
    pub fn new(provider: Provider, model: impl Into<String>) -> Self {
        RenderOptions {
            provider,
            model: model.into(),
            endpoint: None,
            max_tokens: None,
            system: None,
            tools: Vec::new(),
            thinking: None,
            temperature: None,
            top_p: None,
            extra: Map::new(),
            synthetic_result_text: None,
            bridge_text: None,
            continuation_text: None,
            strict_models: false,
            compat: None,
            orphan_results: OrphanPolicy::default(),
            foreign_thinking: ForeignThinking::default(),
            trust_unattributed_thinking: false,
            leading_user_text: None,
            read_repairs: Vec::new(),
        }
    }

    /// Parses the JSON form.
    ///
    /// ```
    /// use turnwire::{Provider, RenderOptions};
    /// let o = RenderOptions::from_json(r#"{"provider": "openai-chat", "model": "gpt-5.2", "maxTokens": 1000}"#)?;
    /// assert_eq!(o.provider, Provider::OpenAiChat);
    /// assert_eq!(o.max_tokens, Some(1000));
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn from_json(text: &str) -> Result<RenderOptions, Error> {
        let parsed = crate::json::parse(text, "$", "the render options")?;
        let mut options = RenderOptions::from_value(parsed.value)?;
        crate::json::report::push_capped(
            &mut options.read_repairs,
            crate::json::report::surrogates(&parsed.repairs, "$"),
        );
        Ok(options)
    }

    /// Reads the JSON form from a parsed value.
    pub fn from_value(v: Value) -> Result<RenderOptions, Error> {
        if let Some(p) = v.get("provider").and_then(Value::as_str) {
            p.parse::<Provider>()?;
        }
        serde_json::from_value(v).map_err(|e| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                format!("invalid render options: {e}"),
            )
        })
    }

    /// Whether the caller asked for thinking.
    pub fn thinking_enabled(&self) -> bool {
        self.thinking.as_ref().is_some_and(|t| t.enabled)
    }

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
        if matches!(self.provider, Provider::Kimi | Provider::DeepSeek) {
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
            caps.reasoning_field = if field.is_some() {
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

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        s.parse()
            .map_err(|e: Error| serde::de::Error::custom(e.message().to_string()))
    }
}
