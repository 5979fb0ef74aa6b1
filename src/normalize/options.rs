//! What the normaliser needs to know about the render target and the caller's policies.

use serde::{Deserialize, Serialize};

use crate::models::{self, ModelCaps, ReasoningField, FUNCTION_RESPONSE_MEDIA};
pub(crate) use crate::vocab::Bridge;
use crate::vocab::{ByModel, Provider, Replay};

/// What to do with a tool result whose call is no longer in the history (compaction).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum OrphanPolicy {
    /// Keep the result's content as plain user-visible text (nothing is lost). The default.
    #[default]
    Text,
    /// Drop it (named in a diagnostic).
    Drop,
    /// Re-create a call for it just before the result.
    ReconstructCall,
}

/// What to do with thinking the target cannot replay (another provider's or model's, unsigned).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum ForeignThinking {
    /// Leave it out (named in a diagnostic). The default.
    #[default]
    Drop,
    /// Turn it into plain text in `<thinking>` tags.
    Text,
}

/// Options of [`normalize`](super::normalize).
///
/// ```
/// use turnwire::{NormalizeOptions, Provider};
/// let o = NormalizeOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
/// assert!(!o.thinking_enabled);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct NormalizeOptions {
    /// The provider the result will be rendered for.
    pub target: Provider,
    /// The model the request goes to.
    pub model: String,
    /// The endpoint (base URL) the request goes to, when known.
    pub endpoint: Option<String>,
    /// The host the request goes to (`turnwire::hosts`); when `None`, the host `endpoint`'s
    /// URL names, else the target provider's own ([`crate::Host::of`]). Continuity artifacts
    /// of another host's family are not replayed.
    pub host: Option<crate::vocab::Host>,
    /// The account the request goes out under, when known.
    pub account: Option<String>,
    /// Whether the caller asked for thinking on this request.
    pub thinking_enabled: bool,
    /// Text of synthetic completions for calls without a real result.
    pub synthetic_result_text: String,
    /// Orphan result policy.
    pub orphan_results: OrphanPolicy,
    /// Foreign thinking policy.
    pub foreign_thinking: ForeignThinking,
    /// Treat signed thinking with no provenance as coming from the target model.
    pub trust_unattributed_thinking: bool,
    /// Text of the user turn inserted when a provider needs the history to open with one.
    pub leading_user_text: String,
    /// Text of the assistant turn inserted between tool results and the next user message
    /// where the provider needs one (Mistral).
    pub bridge_text: String,
    /// Text of the user turn appended after a final assistant message when the model takes no
    /// prefill (Claude 4.6+, deepseek-reasoner).
    pub continuation_text: String,
    /// Names of the tools the request declares (empty when it declares none).
    pub declared_tools: Vec<String>,
    /// What the target model needs (from [`crate::models`]).
    pub caps: ModelCaps,
    /// Whether an `openai-compatible` target takes image parts.
    pub compat_images: bool,
}

/// The default text of a synthetic completion: neutral, says what happened, invents nothing.
pub const DEFAULT_SYNTHETIC_RESULT_TEXT: &str =
    "No result was recorded for this tool call: it was cancelled or interrupted before it finished.";

/// The text of a synthetic completion for a call whose result compaction removed.
pub const COMPACTED_RESULT_TEXT: &str =
    "The result of this tool call was removed when the conversation was compacted; see the summary.";

/// The default text of an assistant turn bridging tool results and a user message.
pub const DEFAULT_BRIDGE_TEXT: &str = "(tool results received)";

/// The default text of the user turn appended after a final assistant message for a model that
/// takes no prefill: it asks the model to go on, whether that message was cut off or complete,
/// and invents nothing.
pub const DEFAULT_CONTINUATION_TEXT: &str = "Continue.";

/// The default text of an inserted leading user turn.
pub const DEFAULT_LEADING_USER_TEXT: &str = "(continuing an earlier conversation)";

impl NormalizeOptions {
    /// Defaults for a target provider and model.
    pub fn new(target: Provider, model: impl Into<String>) -> Self {
        let model = model.into();
        let caps = models::capabilities_or_defaults(target, &model);
        NormalizeOptions {
            target,
            caps,
            model,
            endpoint: None,
            host: None,
            account: None,
            thinking_enabled: false,
            synthetic_result_text: DEFAULT_SYNTHETIC_RESULT_TEXT.to_string(),
            orphan_results: OrphanPolicy::default(),
            foreign_thinking: ForeignThinking::default(),
            trust_unattributed_thinking: false,
            leading_user_text: DEFAULT_LEADING_USER_TEXT.to_string(),
            bridge_text: DEFAULT_BRIDGE_TEXT.to_string(),
            continuation_text: DEFAULT_CONTINUATION_TEXT.to_string(),
            compat_images: true,
            declared_tools: Vec::new(),
        }
    }
}

/// How a target takes reasoning back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ThinkingReplay {
    /// Signed thinking blocks from the same provider and model (Anthropic).
    AnthropicSigned,
    /// Reasoning items with encrypted content from the same model (OpenAI Responses).
    ReasoningItems,
    /// Reasoning text in a `reasoning_content` field; `required` on the tool-call turns of the
    /// current tool loop (DeepSeek thinking mode, Kimi thinking models).
    ReasoningField { required: bool },
    /// Not at all.
    None,
}

/// Which media a tool result can carry on the wire; the rest moves to a user message right after
/// the results ([`super::tool_media`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ToolResultMedia {
    /// Any media (Anthropic `tool_result` content, OpenAI Responses output items).
    Any,
    /// Only these media types (Gemini 3 `functionResponse.parts`).
    Only(&'static [&'static str]),
    /// None (the chat dialects: OAC-07, Gemini 2.x).
    None,
}

impl ToolResultMedia {
    /// Whether a tool result can carry media of this type.
    pub fn takes(self, mime_type: &str) -> bool {
        match self {
            ToolResultMedia::Any => true,
            ToolResultMedia::None => false,
            ToolResultMedia::Only(types) => {
                types.contains(&crate::model::media_essence(mime_type).as_str())
            }
        }
    }
}

/// Structural and continuity needs of a target, derived from the provider and the model's
/// capabilities (see [`crate::models`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Profile {
    /// Same-speaker neighbours must be merged (strict user/assistant alternation).
    pub alternation: bool,
    /// The first wire message must be a user message.
    pub leading_user: bool,
    /// System messages may stand anywhere in the conversation (else all go to the system slot).
    pub system_anywhere: bool,
    /// Tools called in the history must be declared when any tool is.
    pub declares_history_tools: bool,
    /// The history's tool blocks need a tools list even when the caller declares none (BDR-03).
    pub tool_blocks_need_declarations: bool,
    /// Where an assistant turn bridges tool results and the next user message.
    pub bridge: Bridge,
    /// The media tool results can carry (the rest moves to a user message after them).
    pub tool_result_media: ToolResultMedia,
    /// An assistant message's calls must come last (each call is an item its output follows).
    pub calls_last: bool,
    /// How reasoning is replayed.
    pub thinking: ThinkingReplay,
    /// Gemini thought signatures on call and text parts are replayed (same model only).
    pub gemini_tokens: bool,
    /// The first call of each step of the current tool loop needs a thought signature
    /// (Gemini 3); foreign calls get the documented placeholder.
    pub placeholder_signatures: bool,
    /// A final assistant message (a prefill) may not end with whitespace (Anthropic, ANT-23).
    pub prefill_without_trailing_whitespace: bool,
}

impl Profile {
    pub fn of(p: Provider, caps: ModelCaps) -> Profile {
        let n = p.needs();
        let by_model = |need: ByModel, model: bool| match need {
            ByModel::No => false,
            ByModel::Yes => true,
            ByModel::Model => model,
        };
        Profile {
            alternation: by_model(n.alternation, caps.strict_alternation),
            leading_user: n.leading_user,
            system_anywhere: by_model(n.system_anywhere, caps.system_messages),
            declares_history_tools: n.declares_history_tools,
            tool_blocks_need_declarations: n.tool_blocks_need_declarations,
            bridge: n.bridge,
            tool_result_media: match n.tool_result_media {
                ByModel::No => ToolResultMedia::None,
                ByModel::Yes => ToolResultMedia::Any,
                ByModel::Model if caps.media_in_function_responses => {
                    ToolResultMedia::Only(&FUNCTION_RESPONSE_MEDIA)
                }
                ByModel::Model => ToolResultMedia::None,
            },
            calls_last: n.calls_last,
            thinking: match n.thinking {
                Replay::None => ThinkingReplay::None,
                Replay::AnthropicSigned => ThinkingReplay::AnthropicSigned,
                Replay::ReasoningItems if caps.reasoning_items => ThinkingReplay::ReasoningItems,
                Replay::ReasoningItems => ThinkingReplay::None,
                Replay::ReasoningField => match caps.reasoning_field {
                    ReasoningField::None => ThinkingReplay::None,
                    ReasoningField::Accepted => ThinkingReplay::ReasoningField { required: false },
                    ReasoningField::RequiredOnToolTurns => {
                        ThinkingReplay::ReasoningField { required: true }
                    }
                },
            },
            gemini_tokens: n.gemini_tokens,
            placeholder_signatures: n.placeholder_signatures && caps.thought_signatures_required,
            prefill_without_trailing_whitespace: n.prefill_without_trailing_whitespace,
        }
    }

    /// The profile of the options' target.
    pub fn for_options(opts: &NormalizeOptions) -> Profile {
        Profile::of(opts.target, opts.caps)
    }

    /// Consecutive assistant messages are one turn stored in pieces and are merged: where the
    /// provider needs strict alternation, and where it needs `reasoning_content` on every
    /// tool-call message (KIM-12, DSK-03), so that a step stored as its reasoning, its text and
    /// its calls (smallmain/vscode-unify-chat-provider#289) sends its reasoning on the message
    /// that makes the calls instead of losing it as an aborted turn.
    pub fn merges_assistant_pieces(self) -> bool {
        self.alternation || self.thinking == (ThinkingReplay::ReasoningField { required: true })
    }
}
