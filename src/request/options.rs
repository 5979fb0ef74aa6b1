//! Render options: the target, the caller's request settings and the repair policies.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::normalize::{ForeignThinking, OrphanPolicy};
use crate::vocab::{Host, Provider};

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
    /// Load the tool only when a tool search finds it (Anthropic `defer_loading`); targets
    /// without tool search declare it as any other tool (`feature_unavailable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defer_loading: Option<bool>,
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
            defer_loading: None,
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
    /// Anthropic thinking budget (default 1024; must stay below `maxTokens`). Claude 4.6 and
    /// later think adaptively: Opus 4.6 and Sonnet 4.6 take a budget only when one is given,
    /// Opus 4.7 and later none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget_tokens: Option<u32>,
    /// Reasoning effort, one of `none`, `minimal`, `low`, `medium`, `high`, `xhigh`, `max`:
    /// OpenAI `reasoning_effort` / `reasoning.effort` as given; Anthropic `output_config.effort`
    /// at the highest level the model takes that is not above it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "Effort"))]
    pub effort: Option<String>,
    /// Whether the model's reasoning comes back summarized: `auto` (the default), `concise`,
    /// `detailed` or `none`. OpenAI Responses `reasoning.summary` (`none`: left out); Anthropic
    /// adaptive thinking `display` (`summarized`, or `omitted` for `none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "wasm-bind",
        tsify(type = "\"auto\" | \"concise\" | \"detailed\" | \"none\"")
    )]
    pub summary: Option<String>,
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
    /// Who serves the wire (`bedrock`, `vertex`, `azure`, `deepseek`…; see `turnwire::hosts`):
    /// the body takes the host's envelope (Bedrock and Vertex Claude name the model in the URL
    /// and the version in the body) and continuity artifacts of another host are not
    /// replayed. Default: the provider's own API ([`Host::of`]). A host that does not serve the
    /// provider is `invalid_value`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "Host"))]
    pub host: Option<Host>,
    /// The account the request goes out under (organisation, project or API key; with the end
    /// user where the provider binds to one), as you name it — an opaque label such as
    /// `"acme-prod"`, never a key itself. Signatures and encrypted reasoning minted under
    /// another account are not replayed (their provenance's `account`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub account: Option<String>,
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
    /// Which tools the model may or must call (`tool_choice`, Gemini `toolConfig`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "ToolChoice"))]
    pub tool_choice: Option<super::ToolChoice>,
    /// Texts that end the model's answer (`stop_sequences`, `stop`, Gemini
    /// `generationConfig.stopSequences`), each within the provider's limits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub stop_sequences: Vec<String>,
    /// Structured output: the answer is JSON matching a schema (Anthropic
    /// `output_config.format`, Chat `response_format`, Responses `text.format`, Gemini
    /// `responseJsonSchema`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "ResponseFormat"))]
    pub response_format: Option<super::ResponseFormat>,
    /// Prompt caching: Anthropic breakpoints and their lifetime, OpenAI `prompt_cache_key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "CacheOptions"))]
    pub cache: Option<super::CacheOptions>,
    /// Tools the provider runs itself (`web_search`, `code_execution`), declared in each
    /// provider's own form; a target without one leaves it out with a diagnostic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "ServerTool[]"))]
    pub server_tools: Vec<super::ServerTool>,
    /// Per-provider request fields, keyed by provider name, merged into the body rendered for
    /// that provider as a JSON Merge Patch and checked by its strict validator (see
    /// `providerOptions` in the README); the other providers' entries are ignored.
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    #[cfg_attr(feature = "wasm-bind", tsify(type = "ProviderOptions"))]
    pub provider_options: Map<String, Value>,
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
    pub read_repairs: Vec<crate::vocab::Diagnostic>,
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
    crate::vocab::WireApi::of(provider).owned_fields()
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
            host: None,
            account: None,
            max_tokens: None,
            system: None,
            tools: Vec::new(),
            thinking: None,
            temperature: None,
            top_p: None,
            tool_choice: None,
            stop_sequences: Vec::new(),
            response_format: None,
            cache: None,
            server_tools: Vec::new(),
            provider_options: Map::new(),
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
}
