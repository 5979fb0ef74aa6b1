//! What each provider takes and refuses, as facts the stages ask in place: stop-sequence
//! limits, prompt caching, the forced-choice rule, structured output, token counting, the
//! output limit, media, its chat dialect and pi-ai's names for it. One row per provider in
//! each; a new provider is a compile error at each until it has its row.

use super::Provider;

impl Provider {
    /// How many stop sequences the provider takes (`None`: no published limit; OpenAI
    /// Responses has no stop field: 0) and how long each may be in bytes (`None`: no published
    /// limit). The render keeps what fits (`request/stop.rs`); the strict validators refuse what
    /// does not (OAC-17, GEM's stop rule).
    pub(crate) const fn stop_limits(self) -> (Option<usize>, Option<usize>) {
        match self {
            Provider::Anthropic => (None, None),
            Provider::OpenAiChat | Provider::Mistral | Provider::OpenAiCompatible => {
                (Some(4), None)
            }
            Provider::OpenAiResponses => (Some(0), None),
            Provider::Gemini => (Some(5), None),
            Provider::Kimi => (Some(5), Some(32)),
            Provider::DeepSeek => (Some(16), None),
            // `inferenceConfig.stopSequences`: no limit published for every model [inferred].
            Provider::BedrockConverse => (None, None),
            // `options.stop`: any number, any length (the Go `Options.Stop []string`).
            Provider::Ollama => (None, None),
        }
    }

    /// The most stop sequences the provider takes ([`Provider::stop_limits`]; `usize::MAX`
    /// without a limit).
    pub(crate) const fn max_stop_sequences(self) -> usize {
        match self.stop_limits().0 {
            Some(n) => n,
            None => usize::MAX,
        }
    }

    /// How the provider takes prompt caching: breakpoints on blocks (Anthropic `cache_control`),
    /// a cache key (OpenAI `prompt_cache_key`), or implicitly with no cache fields.
    pub(crate) const fn cache_style(self) -> CacheStyle {
        match self {
            Provider::Anthropic => CacheStyle::Breakpoints,
            Provider::OpenAiChat | Provider::OpenAiResponses => CacheStyle::Key,
            Provider::Gemini
            | Provider::Mistral
            | Provider::Kimi
            | Provider::DeepSeek
            | Provider::OpenAiCompatible
            | Provider::Ollama => CacheStyle::Implicit,
            // `cachePoint` blocks, for the models that take them (BDR-18).
            Provider::BedrockConverse => CacheStyle::Points,
        }
    }

    /// The rule by which the provider refuses a forced tool choice while thinking is on, and
    /// its name in the diagnostic; `None` where a forced choice and thinking go together.
    pub(crate) const fn forced_choice_with_thinking(self) -> Option<(&'static str, &'static str)> {
        match self {
            Provider::Anthropic => Some(("ANT-36", "Anthropic")),
            Provider::Kimi => Some(("KIM-09", "Kimi")),
            Provider::DeepSeek => Some(("DSK-07", "DeepSeek")),
            // Claude's rule (ANT-36) passed through by Bedrock (BDR-17).
            Provider::BedrockConverse => Some(("BDR-17", "Claude on Bedrock")),
            Provider::OpenAiChat
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::Mistral
            | Provider::OpenAiCompatible
            | Provider::Ollama => None,
        }
    }

    /// Whether the provider takes a JSON-schema response format at all (DeepSeek's Chat
    /// Completions takes only `json_object`); a model may still lack it (`structured_output`).
    pub(crate) const fn takes_json_schema(self) -> bool {
        match self {
            Provider::DeepSeek => false,
            // Converse: `outputConfig.textFormat` (API_runtime_OutputFormat, JSON schema text).
            Provider::BedrockConverse
            | Provider::Anthropic
            | Provider::OpenAiChat
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::Mistral
            | Provider::Kimi
            | Provider::OpenAiCompatible
            // `format`: `"json"` or a JSON Schema (Ollama 0.5, `ChatRequest.Format`).
            | Provider::Ollama => true,
        }
    }

    /// The provider's token-counting endpoint, where turnwire knows one: the body members it
    /// takes (Anthropic `count_tokens`, OpenAI `input_tokens`), or the whole body as a
    /// `generateContentRequest` (Gemini `countTokens`).
    pub(crate) const fn token_counting(self) -> Option<TokenCounting> {
        match self {
            Provider::Anthropic => Some(TokenCounting::Members(ANTHROPIC_COUNTS)),
            Provider::OpenAiResponses => Some(TokenCounting::Members(RESPONSES_COUNTS)),
            Provider::Gemini => Some(TokenCounting::GenerateContentRequest),
            Provider::OpenAiChat
            | Provider::Mistral
            | Provider::Kimi
            | Provider::DeepSeek
            | Provider::OpenAiCompatible
            | Provider::BedrockConverse
            | Provider::Ollama => None,
        }
    }

    /// How the provider's output limit is chosen (`request/limits.rs` holds the numbers).
    pub(crate) const fn output_limit(self) -> OutputLimit {
        match self {
            Provider::Anthropic => OutputLimit::Required,
            Provider::Kimi => OutputLimit::RaisedForThinking,
            Provider::OpenAiResponses => OutputLimit::AtLeastMinimum,
            Provider::OpenAiChat
            | Provider::Gemini
            | Provider::Mistral
            | Provider::DeepSeek
            | Provider::OpenAiCompatible
            | Provider::BedrockConverse
            // `options.num_predict`
            | Provider::Ollama => OutputLimit::AsAsked,
        }
    }

    /// Whether a thinking budget counts inside the output limit and must stay below it, at
    /// 1024 or more (Anthropic, ANT-34's budget rules).
    pub(crate) const fn budget_inside_output_limit(self) -> bool {
        match self {
            // Claude's budget rules hold through Converse (BDR-17).
            Provider::Anthropic | Provider::BedrockConverse => true,
            Provider::OpenAiChat
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::Mistral
            | Provider::Kimi
            | Provider::DeepSeek
            | Provider::OpenAiCompatible
            | Provider::Ollama => false,
        }
    }

    /// Which media the provider takes, in user content or a tool result.
    pub(crate) const fn media(self) -> MediaSupport {
        const NONE: MediaSupport = MediaSupport {
            images: Images::No,
            remote: true,
            pdf: Carry::No,
            audio: Audio::No,
            video: false,
        };
        const IMAGES: MediaSupport = MediaSupport {
            images: Images::Yes,
            ..NONE
        };
        match self {
            Provider::Anthropic => MediaSupport {
                pdf: Carry::Any,
                ..IMAGES
            },
            Provider::OpenAiChat => MediaSupport {
                pdf: Carry::Inline,
                audio: Audio::Inline(&["audio/wav", "audio/mpeg", "audio/mp3"]),
                ..IMAGES
            },
            Provider::OpenAiResponses => MediaSupport {
                pdf: Carry::Inline,
                ..IMAGES
            },
            // inline data only: Gemini does not fetch arbitrary URLs
            Provider::Gemini => MediaSupport {
                images: Images::Yes,
                remote: false,
                pdf: Carry::Inline,
                audio: Audio::AnyInline,
                video: true,
            },
            Provider::Mistral | Provider::Kimi => IMAGES,
            Provider::OpenAiCompatible => MediaSupport {
                images: Images::OptIn,
                ..NONE
            },
            Provider::DeepSeek => NONE,
            // Bytes only (`source.bytes`; S3 locations are the caller's own): images and
            // documents (BDR-19).
            Provider::BedrockConverse => MediaSupport {
                images: Images::Yes,
                remote: false,
                pdf: Carry::Inline,
                ..NONE
            },
            // `images`: bare base64 (no `data:` URL, nothing fetched) for vision models.
            Provider::Ollama => MediaSupport {
                images: Images::Yes,
                remote: false,
                ..NONE
            },
        }
    }

    /// The provider's dialect of Chat Completions, for the providers that speak it.
    pub(crate) const fn chat_dialect(self) -> Option<ChatDialect> {
        match self {
            Provider::OpenAiChat => Some(ChatDialect::OpenAi),
            Provider::Mistral => Some(ChatDialect::Mistral),
            Provider::Kimi => Some(ChatDialect::Kimi),
            Provider::DeepSeek => Some(ChatDialect::DeepSeek),
            Provider::OpenAiCompatible => Some(ChatDialect::Compatible),
            Provider::Anthropic
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::BedrockConverse
            | Provider::Ollama => None,
        }
    }

    /// pi-ai's `provider` and `api` names for the provider (`to_pi_ai` writes them).
    pub(crate) const fn pi_ai_names(self) -> (&'static str, &'static str) {
        match self {
            Provider::Anthropic => ("anthropic", "anthropic-messages"),
            Provider::OpenAiResponses => ("openai", "openai-responses"),
            Provider::OpenAiChat => ("openai", "openai-completions"),
            Provider::Gemini => ("google", "google-generative-ai"),
            Provider::Mistral => ("mistral", "mistral-conversations"),
            Provider::Kimi => ("moonshotai", "openai-completions"),
            Provider::DeepSeek => ("deepseek", "openai-completions"),
            Provider::OpenAiCompatible => ("openai-compatible", "openai-completions"),
            Provider::BedrockConverse => ("amazon-bedrock", "bedrock-converse-stream"),
            // pi-ai reaches Ollama through its OpenAI-compatible endpoint.
            Provider::Ollama => ("ollama", "openai-completions"),
        }
    }

    /// The request parameters the provider takes as HTTP headers, never in the body: (the
    /// SDK's parameter name, the header). Anthropic's SDK strips them from the body
    /// (`MessageCreateParams`: "Header param"); in the body they are a 400 (ANT-42).
    pub(crate) const fn header_params(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Provider::Anthropic => &[
                ("betas", "anthropic-beta"),
                ("user_profile_id", "anthropic-user-profile-id"),
                ("workspace_id", "anthropic-workspace-id"),
            ],
            Provider::OpenAiChat
            | Provider::OpenAiResponses
            | Provider::Gemini
            | Provider::Mistral
            | Provider::Kimi
            | Provider::DeepSeek
            | Provider::OpenAiCompatible
            | Provider::BedrockConverse
            | Provider::Ollama => &[],
        }
    }
}

/// How a provider takes prompt caching ([`Provider::cache_style`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum CacheStyle {
    /// Breakpoints on the blocks to cache up to (`cache_control`), with a lifetime.
    Breakpoints,
    /// A key that routes requests with a shared prefix to the same cache (`prompt_cache_key`).
    Key,
    /// Long enough prefixes are cached by the provider itself; no cache fields.
    Implicit,
    /// `cachePoint` blocks after what to cache (Bedrock Converse), on the models that take them
    /// (Claude, Nova); other models cache implicitly.
    Points,
}

/// What a provider's token-counting endpoint takes ([`Provider::token_counting`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum TokenCounting {
    /// The render's body with only these members.
    Members(&'static [&'static str]),
    /// The whole body, with `model`, as a `generateContentRequest`.
    GenerateContentRequest,
}

/// The body members Anthropic's `count_tokens` takes.
const ANTHROPIC_COUNTS: &[&str] = &[
    "model",
    "messages",
    "system",
    "tools",
    "tool_choice",
    "thinking",
    "output_config",
    "cache_control",
];
/// The body members OpenAI's `input_tokens` takes.
const RESPONSES_COUNTS: &[&str] = &[
    "model",
    "input",
    "instructions",
    "tools",
    "tool_choice",
    "reasoning",
    "text",
];

/// How a provider's output limit is chosen ([`Provider::output_limit`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OutputLimit {
    /// Every request names one (Anthropic `max_tokens`): the caller's, or one turnwire chooses.
    Required,
    /// The caller's; without one, a larger one for a thinking model than the provider's own
    /// default (Kimi).
    RaisedForThinking,
    /// The caller's, raised to the provider's minimum (OpenAI Responses).
    AtLeastMinimum,
    /// The caller's, or none.
    AsAsked,
}

/// Which media a provider takes ([`Provider::media`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct MediaSupport {
    /// Images (JPEG, PNG, GIF, WebP).
    pub images: Images,
    /// Whether media may be a URL the provider fetches (otherwise inline data only).
    pub remote: bool,
    /// PDF documents.
    pub pdf: Carry,
    /// Audio.
    pub audio: Audio,
    /// Video, inline.
    pub video: bool,
}

/// Whether a provider takes images.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Images {
    /// Never.
    No,
    /// Always.
    Yes,
    /// When the caller says the server does (`compat.images`).
    OptIn,
}

/// Whether a provider takes a media type, and how it must be sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Carry {
    /// Never.
    No,
    /// As inline (base64) data only.
    Inline,
    /// Inline or as a URL.
    Any,
}

/// Which audio a provider takes (inline data only).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Audio {
    /// None.
    No,
    /// These media types.
    Inline(&'static [&'static str]),
    /// Every `audio/*` type.
    AnyInline,
}

/// A provider's dialect of Chat Completions ([`Provider::chat_dialect`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ChatDialect {
    /// OpenAI's own.
    OpenAi,
    /// Mistral's (its ids, a tool result's `name`, `prefix` on a final assistant message).
    Mistral,
    /// Kimi's (its ids, `reasoning_content`, the `thinking` switch).
    Kimi,
    /// DeepSeek's (`reasoning_content`, the `thinking` switch).
    DeepSeek,
    /// Any other server, as the caller's `compat` options describe it.
    Compatible,
}
