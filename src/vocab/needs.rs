//! What each provider needs of a transcript's structure, before the model is known: the row
//! the normaliser's profile (`normalize/options.rs`) is built from, with the model's
//! capabilities filling in what depends on the model.

use super::Provider;

/// The structural and continuity needs of a provider's API.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Needs {
    /// Whether same-speaker neighbours must be merged (strict user/assistant alternation).
    pub alternation: ByModel,
    /// Whether the first wire message must be a user message.
    pub leading_user: bool,
    /// Whether system messages may stand anywhere (else all go to the system slot); `Model`:
    /// where the model's row says so (Anthropic, ANT-25).
    pub system_anywhere: ByModel,
    /// Whether tools called in the history must be declared when any tool is.
    pub declares_history_tools: bool,
    /// Whether the history's tool blocks need a tools list even when the caller declares no
    /// tool (Bedrock Converse, BDR-03: `toolConfig` with every `toolUse`).
    pub tool_blocks_need_declarations: bool,
    /// Where an assistant turn bridges tool results and the next user message.
    pub bridge: Bridge,
    /// Whether tool results carry media (`ByModel`: only the function-response media of a
    /// model that takes them).
    pub tool_result_media: ByModel,
    /// Whether an assistant message's calls must come last.
    pub calls_last: bool,
    /// How reasoning goes back.
    pub thinking: Replay,
    /// Whether Gemini thought signatures are replayed (same model only).
    pub gemini_tokens: bool,
    /// Whether the first call of each step of the current tool loop needs a thought signature,
    /// for the models that require one.
    pub placeholder_signatures: bool,
    /// Whether a final assistant message (a prefill) may not end with whitespace (ANT-23).
    pub prefill_without_trailing_whitespace: bool,
}

/// A need that holds never, always, or as the model's capabilities say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ByModel {
    /// Never.
    No,
    /// Always.
    Yes,
    /// As the model's row of the capability table says.
    Model,
}

/// How reasoning goes back to a provider.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Replay {
    /// Not at all.
    None,
    /// Signed thinking blocks from the same provider and model (Anthropic).
    AnthropicSigned,
    /// Reasoning items with encrypted content, for the models that return them (Responses).
    ReasoningItems,
    /// Reasoning text in a field, as the model's row says (Kimi, DeepSeek, compatible servers).
    ReasoningField,
}

/// Where a provider needs an assistant turn between tool results and the next user message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Bridge {
    /// Nowhere.
    Never,
    /// Before every user message that follows tool results (Mistral, MIS-02).
    BeforeEveryUser,
    /// Before a user message carrying media that follows the results of several parallel calls
    /// (Gemini, GEM-18: the response content of a parallel call turn holds no media).
    BeforeMediaAfterParallelResults,
}

const PLAIN: Needs = Needs {
    alternation: ByModel::No,
    leading_user: false,
    system_anywhere: ByModel::No,
    declares_history_tools: false,
    tool_blocks_need_declarations: false,
    bridge: Bridge::Never,
    tool_result_media: ByModel::No,
    calls_last: false,
    thinking: Replay::None,
    gemini_tokens: false,
    placeholder_signatures: false,
    prefill_without_trailing_whitespace: false,
};

impl Provider {
    /// What the provider needs of a transcript's structure.
    pub(crate) const fn needs(self) -> Needs {
        match self {
            Provider::Anthropic => Needs {
                alternation: ByModel::Yes,
                leading_user: true,
                system_anywhere: ByModel::Model,
                declares_history_tools: true,
                tool_result_media: ByModel::Yes,
                thinking: Replay::AnthropicSigned,
                prefill_without_trailing_whitespace: true,
                ..PLAIN
            },
            Provider::OpenAiChat => Needs {
                system_anywhere: ByModel::Yes,
                ..PLAIN
            },
            Provider::OpenAiResponses => Needs {
                system_anywhere: ByModel::Yes,
                tool_result_media: ByModel::Yes,
                calls_last: true,
                thinking: Replay::ReasoningItems,
                ..PLAIN
            },
            Provider::Gemini => Needs {
                alternation: ByModel::Yes,
                leading_user: true,
                declares_history_tools: true,
                gemini_tokens: true,
                placeholder_signatures: true,
                bridge: Bridge::BeforeMediaAfterParallelResults,
                tool_result_media: ByModel::Model,
                ..PLAIN
            },
            Provider::Mistral => Needs {
                bridge: Bridge::BeforeEveryUser,
                ..PLAIN
            },
            Provider::Kimi | Provider::DeepSeek => Needs {
                alternation: ByModel::Model,
                thinking: Replay::ReasoningField,
                ..PLAIN
            },
            Provider::OpenAiCompatible => Needs {
                thinking: Replay::ReasoningField,
                ..PLAIN
            },
            // Bedrock Converse (BDR-01..21): user first, strict alternation, results alone in
            // their user turn (a bridging assistant turn before the next user text, BDR-10),
            // every history tool declared (BDR-03), Claude's signed reasoning and prefill rules.
            Provider::BedrockConverse => Needs {
                alternation: ByModel::Yes,
                leading_user: true,
                declares_history_tools: true,
                tool_blocks_need_declarations: true,
                bridge: Bridge::BeforeEveryUser,
                tool_result_media: ByModel::Model,
                thinking: Replay::AnthropicSigned,
                prefill_without_trailing_whitespace: true,
                ..PLAIN
            },
            // Ollama's `/api/chat`: messages of any role in any order (the model's template
            // renders them); reasoning goes back in the assistant's `thinking` field as the
            // model's row says.
            Provider::Ollama => Needs {
                system_anywhere: ByModel::Yes,
                thinking: Replay::ReasoningField,
                ..PLAIN
            },
        }
    }
}
