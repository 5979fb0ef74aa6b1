//! How an OpenAI-compatible dialect departs from the OpenAI Chat rules. The dialect validators
//! (`mistral`, `kimi`, `deepseek`, `openai_compatible`) run every OAC check through
//! [`check_dialect`](super::check_dialect) with one of these and add their own rules on top.

use crate::vocab::Provider;

/// The OAC checks a dialect relaxes. [`Dialect::OPENAI`] relaxes none: it is what
/// [`validate`](super::validate) uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Dialect {
    /// Whether `OAC-03` (ids at most 40 characters) applies. Dialects whose ids follow their own
    /// rule (Kimi's `functions.{name}:{idx}`, configurable servers) check ids themselves.
    pub(crate) oac_03_id_length: bool,
    /// Content-part types accepted on assistant messages besides `text` and `refusal` (`OAC-08`).
    /// The dialect checks the fields of these parts itself.
    pub(crate) extra_assistant_part_types: &'static [&'static str],
    /// Whether an assistant message with `tool_calls` may carry a non-empty array `content`
    /// (`OAC-06` otherwise wants null or a non-empty string).
    pub(crate) array_content_with_tool_calls: bool,
    /// The string values `tool_choice` takes (`OAC-16`; Mistral also takes `any`).
    pub(crate) tool_choice_values: &'static [&'static str],
    /// The most stop sequences `stop` takes (`OAC-17`: OpenAI, Mistral 4, Kimi 5, DeepSeek 16).
    pub(crate) max_stop: usize,
    /// The longest stop sequence in bytes, where there is a limit (Kimi: 32).
    pub(crate) max_stop_bytes: Option<usize>,
    /// Whether models with fixed sampling (OpenAI reasoning models) refuse `stop` (`OAC-18`).
    pub(crate) no_stop_for_fixed_sampling: bool,
}

impl Dialect {
    /// OpenAI Chat Completions itself: every OAC check as written.
    pub(crate) const OPENAI: Dialect = Dialect {
        oac_03_id_length: true,
        extra_assistant_part_types: &[],
        array_content_with_tool_calls: false,
        tool_choice_values: &["auto", "none", "required"],
        max_stop: Provider::OpenAiChat.max_stop_sequences(),
        max_stop_bytes: None,
        no_stop_for_fixed_sampling: true,
    };
}
