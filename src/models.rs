//! Model capabilities: what a model family needs back in its history.
//!
//! A small table of model families keyed on (provider, model-name prefix). Renders use it to
//! decide what continuity a target needs (signed thinking, reasoning items, thought signatures,
//! `reasoning_content`) and how strict its role order is. Unknown models get their provider's
//! safe defaults; with [`RenderOptions::strict_models`](crate::RenderOptions) an unknown or
//! unsupported model is an `unsupported_model` error instead (ordered-transcripts spec §1.3).

mod bedrock_model;
mod claude_generation;
pub use bedrock_model::{bedrock_model, BedrockFamily};
pub use claude_generation::claude_generation;

use crate::error::{Error, ErrorCode};
use crate::vocab::Provider;

/// How a target takes reasoning text back on assistant messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReasoningField {
    /// Not at all: reasoning fields are rejected or ignored.
    None,
    /// `reasoning_content` is accepted on assistant messages and required on none: the model
    /// does not think unless the request turns thinking on, so the field alone does not put a
    /// body for it in thinking mode.
    Accepted,
    /// `reasoning_content` must be on every assistant message with tool calls (DeepSeek
    /// thinking mode DSK-03, Kimi thinking models KIM-03).
    RequiredOnToolTurns,
}

/// How an Anthropic model is told to think (ANT-34).
///
/// ```
/// use turnwire::{models::{capabilities, ThinkingMode}, Provider};
/// let mode = |m| capabilities(Provider::Anthropic, m).map(|c| c.thinking_mode);
/// assert_eq!(mode("claude-sonnet-4-5"), Some(ThinkingMode::Budget));
/// assert_eq!(mode("claude-opus-4-6"), Some(ThinkingMode::AdaptiveOrBudget));
/// assert_eq!(mode("claude-opus-4-7"), Some(ThinkingMode::Adaptive));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThinkingMode {
    /// `thinking: {"type": "enabled", "budget_tokens": N}` only (Claude 4.5 and earlier).
    Budget,
    /// `{"type": "adaptive"}`, or a budget when the caller gives one (deprecated but accepted:
    /// Opus 4.6, Sonnet 4.6).
    AdaptiveOrBudget,
    /// `{"type": "adaptive"}` only: a budget is a 400 (Opus 4.7 and later, Claude 5).
    Adaptive,
}

/// The reasoning efforts, lowest first: turnwire's closed set (`thinking.effort`).
pub const EFFORTS: [&str; 7] = ["none", "minimal", "low", "medium", "high", "xhigh", "max"];

/// Anthropic `output_config.effort` levels per model family.
/// The media types Gemini 3 takes inside a function response (`functionResponse.parts[]
/// .inlineData`); others are refused ("the mime_type: audio/mpeg is not supported in
/// `function_response.parts`").
pub(crate) const FUNCTION_RESPONSE_MEDIA: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];

const EFFORT_LOW_HIGH: &[&str] = &["low", "medium", "high"];
const EFFORT_TO_MAX: &[&str] = &["low", "medium", "high", "max"];
const EFFORT_ALL: &[&str] = &["low", "medium", "high", "xhigh", "max"];

/// Gemini 3 `thinkingLevel`s per model family, as effort names (sent upper-case).
const LEVELS_LOW_HIGH: &[&str] = &["low", "high"];
const LEVELS_LOW_MEDIUM_HIGH: &[&str] = &["low", "medium", "high"];
const LEVELS_MINIMAL_HIGH: &[&str] = &["minimal", "low", "medium", "high"];

/// What one model family needs.
///
/// ```
/// use turnwire::{models::capabilities, Provider};
/// let caps = capabilities(Provider::Gemini, "gemini-3-pro-preview").unwrap();
/// assert!(caps.thought_signatures_required);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ModelCaps {
    /// A short family name (`claude-4`, `gpt-5`, `gemini-3`, …).
    pub family: &'static str,
    /// Extended thinking with signed thinking blocks (Anthropic).
    pub signed_thinking: bool,
    /// Reasoning items with encrypted content (OpenAI Responses).
    pub reasoning_items: bool,
    /// The first function call of each step of the current tool loop needs a thought
    /// signature (Gemini 3, GEM-05).
    pub thought_signatures_required: bool,
    /// `reasoning_content` handling on assistant messages.
    pub reasoning_field: ReasoningField,
    /// User and assistant messages must strictly alternate (deepseek-reasoner, DSK-01).
    pub strict_alternation: bool,
    /// Sampling is fixed: `temperature` / `top_p` are rejected (OpenAI reasoning models).
    pub fixed_sampling: bool,
    /// Whether turnwire supports the model for continuity-sensitive work (strict mode).
    pub supported: bool,
    /// The most output tokens one request may ask for (`max_tokens` above it is a 400), thinking
    /// included; `None` when the provider publishes none (the context window is the limit).
    pub max_output_tokens: Option<u32>,
    /// The thinking budgets the model takes (`thinkingBudget` for Gemini 2.5), inclusive.
    pub thinking_budget_range: Option<(u32, u32)>,
    /// Media returned by a tool goes inside its function response (`functionResponse.parts`,
    /// Gemini 3; Gemini 2.x answers 400 "Multimodal function responses are not supported for
    /// this model").
    pub media_in_function_responses: bool,
    /// The request may end with an assistant message for the model to continue (a prefill).
    /// Claude 4.6+ (ANT-24) and deepseek-reasoner (DSK-06) refuse one: the conversation must
    /// end with a user message.
    pub accepts_prefill: bool,
    /// Function declarations may share a request with built-in tools and with structured
    /// output (Gemini 3). Gemini 2.x refuses both: "Tool use with function calling is
    /// unsupported", and no calls with a JSON response (GEM-15).
    pub functions_with_other_tools: bool,
    /// How thinking is switched on (Anthropic).
    pub thinking_mode: ThinkingMode,
    /// The effort levels the model takes, lowest first: Anthropic `output_config.effort`,
    /// Gemini 3 `thinkingLevel` (upper-case on the wire), the chat dialects' `reasoning_effort`
    /// (DeepSeek V4, Kimi K3, Mistral's adjustable models, xAI's allow-list) and OpenAI's
    /// (`openai_efforts`, OAC-11 / ORS-22); empty when it takes none (OpenAI: not known, sent
    /// as given).
    pub efforts: &'static [&'static str],
    /// An effort between two of [`ModelCaps::efforts`] is sent as the higher one (the provider's
    /// own mapping: DeepSeek V4 `low`/`medium` → `high`, `xhigh` → `max`, DSK-10; Mistral
    /// everything but `none` → `high`, MIS-09); otherwise as the highest not above it.
    pub efforts_round_up: bool,
    /// The chat body takes `thinking: {"type": "enabled" | "disabled"}` (Kimi K2, DeepSeek).
    /// Kimi K3 takes no `thinking` parameter (KIM-11).
    pub thinking_switch: bool,
    /// With thinking on, `thinking.keep: "all"` makes the server read every historical
    /// `reasoning_content` (Kimi K2.6 Preserved Thinking, KIM-10); no other model takes `keep`.
    pub thinking_keep_all: bool,
    /// `role: "system"` messages inside `messages` are taken in place (Anthropic, ANT-25:
    /// Opus 4.8 and later, Fable, Mythos, Sonnet 5.5, Haiku 5.5; not Sonnet 5). Elsewhere a
    /// mid-conversation system message goes to the system prompt.
    pub system_messages: bool,
    /// A forced tool choice (`any`, a named tool) is taken (Anthropic: not by Fable 5.1 and
    /// Mythos 5.1, ANT-45).
    pub forced_tool_choice: bool,
    /// Function calls and their responses carry the call id Gemini minted
    /// (`functionCall.id` = `functionResponse.id`, Gemini 3, GEM-22). Gemini 2.x histories
    /// pair by order and name.
    pub function_call_ids: bool,
    /// Signed thinking is bound to its conversation prefix (`system`, `tools`, every earlier
    /// message) and the request takes `thinking.block_binding` with the
    /// `thinking-binding-controls-2026-08-01` beta (ANT-52: Fable 5.1 / 5.2, Mythos 5.1 / 5.2,
    /// Opus, Sonnet and Haiku 5.5).
    pub thinking_binding: bool,
}

const fn caps(family: &'static str) -> ModelCaps {
    ModelCaps {
        family,
        signed_thinking: false,
        reasoning_items: false,
        thought_signatures_required: false,
        reasoning_field: ReasoningField::None,
        strict_alternation: false,
        fixed_sampling: false,
        supported: true,
        max_output_tokens: None,
        thinking_budget_range: None,
        media_in_function_responses: false,
        accepts_prefill: true,
        functions_with_other_tools: false,
        thinking_mode: ThinkingMode::Budget,
        efforts: &[],
        efforts_round_up: false,
        thinking_switch: false,
        thinking_keep_all: false,
        system_messages: false,
        forced_tool_choice: true,
        function_call_ids: false,
        thinking_binding: false,
    }
}

/// `c` with its output limit.
const fn limit(c: ModelCaps, max_output_tokens: u32) -> ModelCaps {
    ModelCaps {
        max_output_tokens: Some(max_output_tokens),
        ..c
    }
}

/// One row of the table: provider, model-name prefix, capabilities.
type Row = (Provider, &'static str, ModelCaps);

const CLAUDE_LEGACY: ModelCaps = ModelCaps {
    signed_thinking: true,
    supported: false,
    ..caps("claude-4.0")
};
const CLAUDE: ModelCaps = ModelCaps {
    signed_thinking: true,
    ..caps("claude-4.5")
};
/// Claude 4.6 and later: no assistant prefill (ANT-24), adaptive thinking, effort up to `max`.
const CLAUDE_NO_PREFILL: ModelCaps = ModelCaps {
    signed_thinking: true,
    accepts_prefill: false,
    thinking_mode: ThinkingMode::AdaptiveOrBudget,
    efforts: EFFORT_TO_MAX,
    ..caps("claude-4.6+")
};
/// Claude Opus 4.7 and later and Claude 5: adaptive thinking only, every effort level.
const CLAUDE_ADAPTIVE: ModelCaps = ModelCaps {
    thinking_mode: ThinkingMode::Adaptive,
    efforts: EFFORT_ALL,
    ..CLAUDE_NO_PREFILL
};
/// Claude models the table does not name yet: taken to be adaptive-only (a budget is a 400
/// from Opus 4.7 on), with the effort levels every effort model takes.
const CLAUDE_NEWER: ModelCaps = ModelCaps {
    thinking_mode: ThinkingMode::Adaptive,
    efforts: EFFORT_LOW_HIGH,
    ..CLAUDE_NO_PREFILL
};
const GPT5: ModelCaps = ModelCaps {
    reasoning_items: true,
    fixed_sampling: true,
    ..caps("gpt-5.2+")
};
const GPT5_LEGACY: ModelCaps = ModelCaps {
    reasoning_items: true,
    fixed_sampling: true,
    supported: false,
    ..caps("gpt-5.0/5.1")
};
const O_SERIES: ModelCaps = ModelCaps {
    reasoning_items: true,
    fixed_sampling: true,
    supported: false,
    ..caps("o-series")
};
const GEMINI3: ModelCaps = ModelCaps {
    thought_signatures_required: true,
    function_call_ids: true,
    functions_with_other_tools: true,
    media_in_function_responses: true,
    max_output_tokens: Some(65_536),
    ..caps("gemini-3")
};
/// Gemini 3 with the thinking levels it takes.
const fn gemini_3(levels: &'static [&'static str]) -> ModelCaps {
    ModelCaps {
        efforts: levels,
        ..GEMINI3
    }
}
const CLAUDE_3: ModelCaps = ModelCaps {
    supported: false,
    ..caps("claude-3")
};
/// Gemini 2.5 with the thinking budgets it takes.
const fn gemini_2_5(min_budget: u32, max_budget: u32) -> ModelCaps {
    ModelCaps {
        supported: false,
        max_output_tokens: Some(65_536),
        thinking_budget_range: Some((min_budget, max_budget)),
        ..caps("gemini-2.5")
    }
}
const REQUIRED: ReasoningField = ReasoningField::RequiredOnToolTurns;

/// The chat dialects' `reasoning_effort` levels per model family.
const EFFORT_HIGH_MAX: &[&str] = &["high", "max"];
const EFFORT_LOW_HIGH_MAX: &[&str] = &["low", "high", "max"];
const EFFORT_LOW_HIGH_ONLY: &[&str] = &["low", "high"];
const EFFORT_NONE_HIGH: &[&str] = &["none", "high"];
const EFFORT_NONE_TO_HIGH: &[&str] = &["none", "low", "medium", "high"];
const EFFORT_LOW_TO_XHIGH: &[&str] = &["low", "medium", "high", "xhigh"];

/// Mistral's adjustable-reasoning models (Medium 3.5, Small 4): `reasoning_effort` `none` or
/// `high` (MIS-09).
const MISTRAL_ADJUSTABLE: ModelCaps = ModelCaps {
    efforts: EFFORT_NONE_HIGH,
    efforts_round_up: true,
    ..caps("mistral-adjustable")
};
/// Kimi's thinking models: `reasoning_content` on every tool-call turn (KIM-03, KIM-12).
const KIMI_THINKING: ModelCaps = ModelCaps {
    reasoning_field: REQUIRED,
    thinking_switch: true,
    ..caps("kimi-thinking")
};
/// DeepSeek thinking mode (on by default from V3.2, DSK-03, DSK-10).
const DEEPSEEK_THINKING: ModelCaps = ModelCaps {
    reasoning_field: REQUIRED,
    thinking_switch: true,
    ..caps("deepseek-thinking")
};

/// The family table, most specific prefix first within a provider. Supported (for strict
/// mode) follows the ordered-transcripts spec §1.3: Claude 4.5+, GPT-5.2+, Gemini 3; the
/// OpenAI-compatible chat dialects have no minimum.
const TABLE: &[Row] = &[
    (Provider::Anthropic, "claude-3-7", limit(CLAUDE_3, 64_000)),
    (Provider::Anthropic, "claude-3-5", limit(CLAUDE_3, 8192)),
    (Provider::Anthropic, "claude-3", limit(CLAUDE_3, 4096)),
    (
        Provider::Anthropic,
        "claude-sonnet-4-20",
        limit(CLAUDE_LEGACY, 64_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-20",
        limit(CLAUDE_LEGACY, 32_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-1",
        limit(CLAUDE_LEGACY, 32_000),
    ),
    (
        Provider::Anthropic,
        "claude-sonnet-4-0",
        limit(CLAUDE_LEGACY, 64_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-0",
        limit(CLAUDE_LEGACY, 32_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-6",
        limit(CLAUDE_NO_PREFILL, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-sonnet-4-6",
        limit(CLAUDE_NO_PREFILL, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-7",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-8",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-5",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-sonnet-5",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-fable",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-mythos",
        limit(CLAUDE_ADAPTIVE, 128_000),
    ),
    (
        Provider::Anthropic,
        "claude-sonnet-4-5",
        limit(CLAUDE, 64_000),
    ),
    (
        Provider::Anthropic,
        "claude-opus-4-5",
        limit(
            ModelCaps {
                efforts: EFFORT_LOW_HIGH,
                ..CLAUDE
            },
            64_000,
        ),
    ),
    (
        Provider::Anthropic,
        "claude-haiku-4-5",
        limit(CLAUDE, 64_000),
    ),
    // Newer Claude models the table does not name yet are taken to be 4.6+ (no prefill).
    (Provider::Anthropic, "claude-", limit(CLAUDE_NEWER, 64_000)),
    (
        Provider::OpenAiResponses,
        "gpt-4",
        ModelCaps {
            supported: false,
            ..caps("gpt-4")
        },
    ),
    (Provider::OpenAiResponses, "gpt-5.0", GPT5_LEGACY),
    (Provider::OpenAiResponses, "gpt-5.1", GPT5_LEGACY),
    (Provider::OpenAiResponses, "gpt-5-", GPT5_LEGACY),
    (Provider::OpenAiResponses, "gpt-5", GPT5),
    (Provider::OpenAiResponses, "codex", GPT5),
    (Provider::OpenAiResponses, "o1", O_SERIES),
    (Provider::OpenAiResponses, "o3", O_SERIES),
    (Provider::OpenAiResponses, "o4", O_SERIES),
    (
        Provider::OpenAiChat,
        "gpt-4",
        ModelCaps {
            supported: false,
            ..caps("gpt-4")
        },
    ),
    (
        Provider::OpenAiChat,
        "gpt-5.0",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("gpt-5.0/5.1")
        },
    ),
    (
        Provider::OpenAiChat,
        "gpt-5.1",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("gpt-5.0/5.1")
        },
    ),
    (
        Provider::OpenAiChat,
        "gpt-5-",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("gpt-5.0/5.1")
        },
    ),
    (
        Provider::OpenAiChat,
        "gpt-5",
        ModelCaps {
            fixed_sampling: true,
            ..caps("gpt-5.2+")
        },
    ),
    (
        Provider::OpenAiChat,
        "o1",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("o-series")
        },
    ),
    (
        Provider::OpenAiChat,
        "o3",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("o-series")
        },
    ),
    (
        Provider::OpenAiChat,
        "o4",
        ModelCaps {
            fixed_sampling: true,
            supported: false,
            ..caps("o-series")
        },
    ),
    (
        Provider::Gemini,
        "gemini-3.8-flash",
        gemini_3(LEVELS_LOW_MEDIUM_HIGH),
    ),
    (
        Provider::Gemini,
        "gemini-3.7-flash",
        gemini_3(LEVELS_LOW_MEDIUM_HIGH),
    ),
    (
        Provider::Gemini,
        "gemini-3.6-flash",
        gemini_3(LEVELS_MINIMAL_HIGH),
    ),
    (
        Provider::Gemini,
        "gemini-3.5-flash-lite",
        gemini_3(LEVELS_MINIMAL_HIGH),
    ),
    (
        Provider::Gemini,
        "gemini-3.1-pro",
        gemini_3(LEVELS_LOW_MEDIUM_HIGH),
    ),
    (
        Provider::Gemini,
        "gemini-3-flash",
        gemini_3(LEVELS_MINIMAL_HIGH),
    ),
    // Gemini 3 Pro and the Gemini 3 models the table does not name: the levels all take.
    (Provider::Gemini, "gemini-3", gemini_3(LEVELS_LOW_HIGH)),
    (Provider::Gemini, "gemini-2.5-pro", gemini_2_5(128, 32_768)),
    (
        Provider::Gemini,
        "gemini-2.5-flash-lite",
        gemini_2_5(512, 24_576),
    ),
    (Provider::Gemini, "gemini-2.5-flash", gemini_2_5(1, 24_576)),
    (Provider::Gemini, "gemini-2.5", gemini_2_5(128, 24_576)),
    (
        Provider::Gemini,
        "gemini-2.0",
        ModelCaps {
            supported: false,
            max_output_tokens: Some(8192),
            ..caps("gemini-2.0")
        },
    ),
    (
        Provider::Gemini,
        "gemini-1",
        ModelCaps {
            supported: false,
            max_output_tokens: Some(8192),
            ..caps("gemini-1")
        },
    ),
    (Provider::Mistral, "mistral-medium-2604", MISTRAL_ADJUSTABLE),
    (Provider::Mistral, "mistral-medium-3-5", MISTRAL_ADJUSTABLE),
    (Provider::Mistral, "mistral-medium-3.5", MISTRAL_ADJUSTABLE),
    (
        Provider::Mistral,
        "mistral-medium-latest",
        MISTRAL_ADJUSTABLE,
    ),
    (Provider::Mistral, "mistral-small-2603", MISTRAL_ADJUSTABLE),
    (
        Provider::Mistral,
        "mistral-small-latest",
        MISTRAL_ADJUSTABLE,
    ),
    (Provider::Mistral, "magistral", caps("magistral")),
    (Provider::Mistral, "", caps("mistral")),
    // Kimi models that do not think (k2-0711/0905 preview, k2-turbo preview; thinking-limits §5):
    // a Kimi turn's reasoning is replayed, never required. Moonshot's KIM-03 check applies only
    // with thinking enabled, and the Kimi validator reads these rows so that replayed reasoning
    // on one message does not make it demand the field on every tool-call message (issue 15).
    (
        Provider::Kimi,
        "kimi-k2-0",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            thinking_switch: true,
            ..caps("kimi-k2")
        },
    ),
    (
        Provider::Kimi,
        "kimi-k2-turbo",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            thinking_switch: true,
            ..caps("kimi-k2")
        },
    ),
    // K3 always reasons, takes no `thinking` parameter and a top-level `reasoning_effort`
    // (KIM-11, Moonshot's docs; sglang reads `thinking.effort`, see provider-rules-added.md).
    (
        Provider::Kimi,
        "kimi-k3",
        ModelCaps {
            family: "kimi-k3",
            efforts: EFFORT_LOW_HIGH_MAX,
            thinking_switch: false,
            ..KIMI_THINKING
        },
    ),
    (
        Provider::Kimi,
        "kimi-k2.6",
        ModelCaps {
            family: "kimi-k2.6",
            thinking_keep_all: true,
            ..KIMI_THINKING
        },
    ),
    (Provider::Kimi, "", KIMI_THINKING),
    (
        Provider::DeepSeek,
        "deepseek-v4",
        limit(
            ModelCaps {
                efforts: EFFORT_HIGH_MAX,
                efforts_round_up: true,
                ..DEEPSEEK_THINKING
            },
            384_000,
        ),
    ),
    // `deepseek-reasoner` and `deepseek-chat` were aliases of deepseek-v4-flash with thinking
    // on and off until DeepSeek retired them on 2026-07-24 (DSK-10). turnwire sends a model
    // name as given; the rows keep the R1-era guards (DSK-01, DSK-06) for stored histories.
    (
        Provider::DeepSeek,
        "deepseek-reasoner",
        ModelCaps {
            family: "deepseek-reasoner",
            strict_alternation: true,
            accepts_prefill: false,
            ..DEEPSEEK_THINKING
        },
    ),
    (
        Provider::DeepSeek,
        "deepseek-chat",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            thinking_switch: true,
            ..caps("deepseek-chat")
        },
    ),
    (Provider::DeepSeek, "", DEEPSEEK_THINKING),
    // xAI, reached as an OpenAI-compatible server: `reasoning_effort` only on its allow-list,
    // at a level the model takes (XAI-02); other Grok models refuse the parameter.
    (
        Provider::OpenAiCompatible,
        "grok-3-mini",
        ModelCaps {
            efforts: EFFORT_LOW_HIGH_ONLY,
            ..caps("xai-grok")
        },
    ),
    (
        Provider::OpenAiCompatible,
        "grok-4.3",
        ModelCaps {
            efforts: EFFORT_NONE_TO_HIGH,
            ..caps("xai-grok")
        },
    ),
    (
        Provider::OpenAiCompatible,
        "grok-4.20-multi-agent",
        ModelCaps {
            efforts: EFFORT_LOW_TO_XHIGH,
            ..caps("xai-grok")
        },
    ),
    (Provider::OpenAiCompatible, "grok-", caps("xai-grok")),
    // GLM-5.x (Z.ai / Zhipu, or any server of it) thinks by default and answers Kimi's KIM-03
    // text when a tool-call message lacks `reasoning_content` (KIM-12).
    (
        Provider::OpenAiCompatible,
        "glm-5",
        ModelCaps {
            reasoning_field: REQUIRED,
            thinking_switch: true,
            ..caps("glm-5")
        },
    ),
    (Provider::OpenAiCompatible, "", caps("openai-compatible")),
    // Ollama's `/api/chat` (OLL rules): `think` takes `"low" | "medium" | "high"` for gpt-oss,
    // which always reasons; a boolean elsewhere. Reasoning goes back in `thinking`.
    (
        Provider::Ollama,
        "gpt-oss",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            efforts: EFFORT_LOW_HIGH,
            ..caps("ollama-gpt-oss")
        },
    ),
    (
        Provider::Ollama,
        "qwen3",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            thinking_switch: true,
            ..caps("ollama-qwen3")
        },
    ),
    (
        Provider::Ollama,
        "",
        ModelCaps {
            reasoning_field: ReasoningField::Accepted,
            thinking_switch: true,
            ..caps("ollama")
        },
    ),
];

/// Whether the model thinks on every request and has no switch to turn thinking off:
/// `deepseek-reasoner`, Kimi's dedicated thinking models (`kimi-k2-thinking`,
/// `kimi-k2-thinking-turbo`), the K2.7 code models (which refuse `thinking: {"type":
/// "disabled"}`) and K3 (KIM-11). A request that needs thinking off (a forced tool choice,
/// DSK-07, KIM-09) cannot get it from these.
///
/// ```
/// use turnwire::{models::always_thinks, Provider};
/// assert!(always_thinks(Provider::DeepSeek, "deepseek-reasoner"));
/// assert!(always_thinks(Provider::Kimi, "kimi-k2-thinking-turbo"));
/// assert!(always_thinks(Provider::Kimi, "kimi-k3"));
/// assert!(always_thinks(Provider::Kimi, "kimi-k2.7-code-highspeed"));
/// assert!(!always_thinks(Provider::Kimi, "kimi-k2.6"));
/// ```
pub fn always_thinks(provider: Provider, model: &str) -> bool {
    let model = model.to_ascii_lowercase();
    match provider {
        Provider::DeepSeek => model.contains("deepseek-reasoner"),
        Provider::Kimi => {
            model.contains("thinking") || model.contains("kimi-k3") || model.contains("k2.7-code")
        }
        Provider::Anthropic
        | Provider::OpenAiChat
        | Provider::OpenAiResponses
        | Provider::Gemini
        | Provider::Mistral
        | Provider::OpenAiCompatible
        | Provider::BedrockConverse => false,
        // gpt-oss reasons at a level; `think: false` does not turn it off.
        Provider::Ollama => model.contains("gpt-oss"),
    }
}

/// The capabilities of a known model family, or `None` for a model the table does not know.
///
/// Model names are matched case-insensitively by prefix, ignoring a `models/` or vendor
/// prefix such as `anthropic/` or `google/`.
pub fn capabilities(provider: Provider, model: &str) -> Option<ModelCaps> {
    row_index(provider, model)
        .and_then(|i| TABLE.get(i))
        .map(|(_, _, c)| with_model_features(provider, model, *c))
}

/// Claude models that take `role: "system"` messages in `messages` (ANT-25), by name prefix:
/// the SDK's `SystemMessageParam` (2026-05-28) and the "mid-conversation system messages and
/// tool changes" docs (Opus 4.8, Opus 5, Opus 5.5, Fable 5 / 5.1, Mythos 5 / 5.1, Sonnet 5.5,
/// Haiku 5.5; "not available on Claude Sonnet 5").
const SYSTEM_MESSAGE_MODELS: [&str; 6] = [
    "claude-opus-4-8",
    "claude-opus-5",
    "claude-fable-5",
    "claude-mythos-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
];

/// Claude models that refuse a forced tool choice (ANT-45): `tool_choice: type "tool" and
/// "any" are not supported for this model.` (Fable 5.1, released 2026-09-01; Mythos 5.1).
const NO_FORCED_TOOL_CHOICE_MODELS: [&str; 2] = ["claude-fable-5-1", "claude-mythos-5-1"];

/// Claude models whose thinking blocks are bound to their conversation prefix and that take
/// `thinking.block_binding` (ANT-52), by name prefix: the `supportedModels` of the docs page
/// `build-with-claude/preserved-thinking/prefix-checks` (claude-fable-5-2, claude-mythos-5-2,
/// claude-fable-5-1, claude-mythos-5-1, claude-opus-5-5, claude-sonnet-5-5, claude-haiku-5-5);
/// the pinned SDK (@anthropic-ai/sdk 1.12.0) has the field on its beta thinking configs
/// (`BetaThinkingBlockBinding`) and names no model.
const BLOCK_BINDING_MODELS: [&str; 7] = [
    "claude-fable-5-1",
    "claude-fable-5-2",
    "claude-mythos-5-1",
    "claude-mythos-5-2",
    "claude-opus-5-5",
    "claude-sonnet-5-5",
    "claude-haiku-5-5",
];

/// A row's capabilities with the features that follow model names finer than the table's
/// rows (the rows of [`crate::context_window`] stay one per family).
fn with_model_features(provider: Provider, model: &str, c: ModelCaps) -> ModelCaps {
    if matches!(provider, Provider::OpenAiChat | Provider::OpenAiResponses) {
        return ModelCaps {
            efforts: openai_efforts(model),
            ..c
        };
    }
    // Claude on Bedrock keeps its model's rules (forced choice, thinking binding: BDR-17);
    // Converse has no system role in `messages` (BDR-SCHEMA).
    if provider == Provider::BedrockConverse {
        return match bedrock_model(model) {
            (BedrockFamily::Claude, name) => ModelCaps {
                system_messages: false,
                ..with_model_features(Provider::Anthropic, &name, c)
            },
            _ => c,
        };
    }
    if provider != Provider::Anthropic {
        return c;
    }
    let m = model.trim().to_ascii_lowercase();
    let m = m.rsplit('/').next().unwrap_or(&m);
    ModelCaps {
        system_messages: SYSTEM_MESSAGE_MODELS.iter().any(|p| m.starts_with(p)),
        forced_tool_choice: !NO_FORCED_TOOL_CHOICE_MODELS
            .iter()
            .any(|p| m.starts_with(p)),
        thinking_binding: BLOCK_BINDING_MODELS.iter().any(|p| m.starts_with(p)),
        ..c
    }
}

/// One model id per row of the table, in table order, each naming a model that resolves to
/// that row: the prefix itself, or for a provider's catch-all row (empty prefix) the provider's
/// reference model when it lands there, else `{provider}-next`. Property tests draw their
/// targets from this list so that every row's renderer and validator are checked together.
///
/// ```
/// use turnwire::{models::{capabilities, known_models}, Provider};
/// let kimi: Vec<String> = known_models().into_iter()
///     .filter(|(p, _)| *p == Provider::Kimi).map(|(_, m)| m).collect();
/// assert_eq!(kimi, ["kimi-k2-0", "kimi-k2-turbo", "kimi-k3", "kimi-k2.6", "kimi-k2-thinking"]);
/// ```
pub fn known_models() -> Vec<(Provider, String)> {
    TABLE
        .iter()
        .enumerate()
        .map(|(i, (p, prefix, _))| {
            let id = if prefix.is_empty() {
                let reference = p.reference_model().to_string();
                if row_index(*p, &reference) == Some(i) {
                    reference
                } else {
                    format!("{p}-next")
                }
            } else {
                (*prefix).to_string()
            };
            (*p, id)
        })
        .chain(bedrock_claude_ids())
        .collect()
}

/// Claude's rows as Bedrock Converse serves them: a cross-region inference profile id
/// (`us.anthropic.<row>-v1:0`) reads the row it names (see [`bedrock_model`]).
fn bedrock_claude_ids() -> impl Iterator<Item = (Provider, String)> {
    TABLE
        .iter()
        .filter(|(p, prefix, _)| *p == Provider::Anthropic && prefix.starts_with("claude-"))
        .map(|(_, prefix, _)| {
            (
                Provider::BedrockConverse,
                format!("us.anthropic.{prefix}-v1:0"),
            )
        })
}

/// The index of the row a model resolves to, for tables kept in the same order
/// ([`crate::context_window`]).
pub(crate) fn row_of(provider: Provider, model: &str) -> Option<usize> {
    row_index(provider, model)
}

/// The (provider, prefix) of every row, in order.
#[cfg(test)]
pub(crate) fn rows() -> Vec<(Provider, &'static str)> {
    TABLE.iter().map(|(p, prefix, _)| (*p, *prefix)).collect()
}

/// The index of the row a model resolves to (see [`capabilities`]).
fn row_index(provider: Provider, model: &str) -> Option<usize> {
    // Claude on Bedrock is Claude: its rows serve Converse (BDR-17).
    if provider == Provider::BedrockConverse {
        return match bedrock_model(model) {
            (BedrockFamily::Claude, name) => row_index(Provider::Anthropic, &name),
            _ => None,
        };
    }
    let m = model.trim().to_ascii_lowercase();
    let m = m.rsplit('/').next().unwrap_or(&m).to_string();
    TABLE
        .iter()
        .position(|(p, prefix, _)| *p == provider && m.starts_with(prefix))
}

/// The provider's safe defaults for a model the table does not know: nothing is replayed that
/// needs the model's own continuity, and `reasoning_content` is sent only where the provider
/// is known to require or accept it.
pub fn defaults(provider: Provider) -> ModelCaps {
    match provider {
        Provider::Anthropic => ModelCaps {
            signed_thinking: true,
            accepts_prefill: false,
            ..caps("anthropic-unknown")
        },
        Provider::Gemini => ModelCaps {
            thought_signatures_required: true,
            function_call_ids: true,
            ..caps("gemini-unknown")
        },
        Provider::OpenAiResponses => ModelCaps {
            reasoning_items: true,
            ..caps("responses-unknown")
        },
        Provider::DeepSeek | Provider::Kimi => ModelCaps {
            reasoning_field: ReasoningField::RequiredOnToolTurns,
            thinking_switch: true,
            ..caps("reasoning-unknown")
        },
        _ => caps("unknown"),
    }
}

/// The table's row for a model, else the provider's safe defaults (what a render assumes about
/// a model the table does not know).
///
/// ```
/// use turnwire::{models::capabilities_or_defaults, Provider};
/// assert!(!capabilities_or_defaults(Provider::Anthropic, "claude-opus-4-6").accepts_prefill);
/// assert!(capabilities_or_defaults(Provider::Anthropic, "claude-sonnet-4-5").accepts_prefill);
/// ```
pub fn capabilities_or_defaults(provider: Provider, model: &str) -> ModelCaps {
    capabilities(provider, model).unwrap_or_else(|| defaults(provider))
}

/// Capabilities for a render: the table's row, else the provider's safe defaults; in strict
/// mode an unknown or unsupported model is an error.
pub fn resolve(provider: Provider, model: &str, strict: bool) -> Result<ModelCaps, Error> {
    match capabilities(provider, model) {
        Some(c) if c.supported || !strict => Ok(c),
        Some(c) => Err(Error::new(
            ErrorCode::UnsupportedModel,
            "$.model",
            format!("`{model}` ({}) lacks the continuity features turnwire's strict mode requires on {provider}", c.family),
        )),
        None if strict => Err(Error::new(
            ErrorCode::UnsupportedModel,
            "$.model",
            format!("`{model}` is not a model turnwire knows for {provider}; turn strict mode off to render with the provider's safe defaults"),
        )),
        None => Ok(defaults(provider)),
    }
}

/// Whether an OpenAI model takes explicit prompt cache breakpoints (`prompt_cache_options`,
/// `prompt_cache_breakpoint` on input parts): "Supported for `gpt-5.6` and later models"
/// (openai-node 6.49.0, `ResponseCreateParams.prompt_cache_options`; ORS-21). Read from the
/// name: `gpt-<major>[.<minor>]…` at or above 5.6 (a dated or suffixed name counts as its
/// version).
///
/// ```
/// use turnwire::models::explicit_cache_breakpoints;
/// assert!(explicit_cache_breakpoints("gpt-5.6"));
/// assert!(explicit_cache_breakpoints("gpt-5.10-codex"));
/// assert!(explicit_cache_breakpoints("gpt-6"));
/// assert!(!explicit_cache_breakpoints("gpt-5.5"));
/// assert!(!explicit_cache_breakpoints("gpt-5-mini"));
/// ```
pub fn explicit_cache_breakpoints(model: &str) -> bool {
    gpt_version(model).is_some_and(|v| v >= (5, 6))
}

/// `(major, minor)` of a `gpt-<major>[.<minor>]…` name (`gpt-5-mini` is 5.0).
fn gpt_version(model: &str) -> Option<(u32, u32)> {
    let rest = model
        .trim()
        .to_ascii_lowercase()
        .strip_prefix("gpt-")
        .map(str::to_string)?;
    let number = |s: &str| -> Option<u32> {
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    let major = number(&rest)?;
    let after = rest.get(major.to_string().len()..).unwrap_or_default();
    let minor = after.strip_prefix('.').and_then(number).unwrap_or(0);
    Some((major, minor))
}

/// OpenAI `reasoning_effort` / `reasoning.effort` levels per model family (OAC-11, ORS-22).
const OPENAI_O_SERIES: &[&str] = &["low", "medium", "high"];
const OPENAI_PRO: &[&str] = &["high"];
const OPENAI_GPT5: &[&str] = &["minimal", "low", "medium", "high"];
const OPENAI_GPT5_1: &[&str] = &["none", "low", "medium", "high"];
const OPENAI_GPT5_2: &[&str] = &["none", "low", "medium", "high", "xhigh"];
const OPENAI_CODEX: &[&str] = &["low", "medium", "high", "xhigh"];
const OPENAI_GPT5_6: &[&str] = &["none", "low", "medium", "high", "xhigh", "max"];

/// The reasoning efforts an OpenAI model takes, lowest first (OAC-11 Chat, ORS-22 Responses;
/// `docs/research/thinking-limits.md` §3): the o-series `low`…`high`; `gpt-5-pro` `high` only;
/// `gpt-5` (-mini, -nano) `minimal`…`high`; `gpt-5.1` `none`…`high`; `gpt-5.2` to `gpt-5.5`
/// `none`…`xhigh` (`minimal` refused); their codex models and `gpt-5.1-codex-max`
/// `low`…`xhigh`; `gpt-5.6` and later also `max` (openai-node 6.49.0 `ReasoningEffort`; the
/// API's own list for gpt-5.6-luna). Empty for a name whose levels are not known (sent as
/// given).
///
/// ```
/// use turnwire::models::openai_efforts;
/// assert_eq!(openai_efforts("gpt-5.6-sol").last(), Some(&"max"));
/// assert_eq!(openai_efforts("gpt-5.5").last(), Some(&"xhigh"));
/// assert_eq!(openai_efforts("o3-mini"), ["low", "medium", "high"]);
/// assert!(openai_efforts("gpt-5.1-codex-mini").is_empty());
/// ```
pub fn openai_efforts(model: &str) -> &'static [&'static str] {
    let m = model.trim().to_ascii_lowercase();
    let m = m.rsplit('/').next().unwrap_or(&m);
    if ["o1", "o3", "o4"].iter().any(|p| m.starts_with(p)) {
        return OPENAI_O_SERIES;
    }
    let Some(version) = gpt_version(m) else {
        return &[];
    };
    let codex = m.contains("codex");
    match version {
        _ if m.contains("-chat") => &[],
        (5, 0) if m.starts_with("gpt-5-pro") => OPENAI_PRO,
        _ if m.contains("-pro") => &[],
        (5, 1) if m.contains("codex-max") => OPENAI_CODEX,
        (5, 0 | 1) if codex => &[],
        (5, 0) => OPENAI_GPT5,
        (5, 1) => OPENAI_GPT5_1,
        (5, 2..=5) if codex => OPENAI_CODEX,
        (5, 2..=5) => OPENAI_GPT5_2,
        v if v >= (5, 6) => OPENAI_GPT5_6,
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_has_a_known_model_that_resolves_to_it() {
        let known = known_models();
        let (rows, bedrock) = known.split_at(TABLE.len());
        for (i, (p, model)) in rows.iter().enumerate() {
            assert_eq!(row_index(*p, model), Some(i), "{p} {model} is shadowed");
        }
        // then Claude's rows again as Bedrock ids, each reading its Claude row
        let claude: Vec<usize> = (0..TABLE.len())
            .filter(|&i| TABLE[i].0 == Provider::Anthropic && TABLE[i].1.starts_with("claude-"))
            .collect();
        assert_eq!(bedrock.len(), claude.len());
        for ((p, model), i) in bedrock.iter().zip(claude) {
            assert_eq!(*p, Provider::BedrockConverse);
            assert_eq!(
                row_index(*p, model),
                Some(i),
                "{model} does not read its row"
            );
        }
    }
}
