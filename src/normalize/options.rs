//! What the normaliser needs to know about the render target and the caller's policies.

use serde::{Deserialize, Serialize};

use crate::providers::Provider;

/// What to do with a tool result whose call is no longer in the history (compaction).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
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
    /// Names of the tools the request declares (empty when it declares none).
    pub declared_tools: Vec<String>,
}

/// The default text of a synthetic completion: neutral, says what happened, invents nothing.
pub const DEFAULT_SYNTHETIC_RESULT_TEXT: &str =
    "No result was recorded for this tool call: it was cancelled or interrupted before it finished.";

/// The default text of an inserted leading user turn.
pub const DEFAULT_LEADING_USER_TEXT: &str = "(continuing an earlier conversation)";

impl NormalizeOptions {
    /// Defaults for a target provider and model.
    pub fn new(target: Provider, model: impl Into<String>) -> Self {
        NormalizeOptions {
            target,
            model: model.into(),
            endpoint: None,
            thinking_enabled: false,
            synthetic_result_text: DEFAULT_SYNTHETIC_RESULT_TEXT.to_string(),
            orphan_results: OrphanPolicy::default(),
            foreign_thinking: ForeignThinking::default(),
            trust_unattributed_thinking: false,
            leading_user_text: DEFAULT_LEADING_USER_TEXT.to_string(),
            declared_tools: Vec::new(),
        }
    }
}

/// Structural needs of a target, derived from the provider.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Profile {
    /// Wire roles must strictly alternate (merge same-role neighbours).
    pub alternation: bool,
    /// The first wire message must be a user message.
    pub leading_user: bool,
    /// Signed Anthropic thinking can be replayed.
    pub replays_anthropic_thinking: bool,
    /// System messages may stand anywhere in the conversation (else all go to the system slot).
    pub system_anywhere: bool,
    /// Tools called in the history must be declared when any tool is.
    pub declares_history_tools: bool,
}

impl Profile {
    pub fn of(p: Provider) -> Profile {
        match p {
            Provider::Anthropic => Profile {
                alternation: true,
                leading_user: true,
                replays_anthropic_thinking: true,
                system_anywhere: false,
                declares_history_tools: true,
            },
            _ => Profile {
                alternation: false,
                leading_user: false,
                replays_anthropic_thinking: false,
                system_anywhere: true,
                declares_history_tools: false,
            },
        }
    }
}
