//! The configurable profile of an OpenAI-compatible server: [`CompatRules`] and [`IdCharset`].

/// Characters a server accepts in tool-call ids (`tool_calls[].id`, `tool_call_id`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum IdCharset {
    /// Any character.
    Any,
    /// `[A-Za-z0-9_-]`: the portable set (Anthropic's pattern, safe for every server).
    #[default]
    AlnumDashUnderscore,
    /// `[A-Za-z0-9]` only.
    Alnum,
}

impl IdCharset {
    /// Whether `c` may appear in an id.
    pub fn allows(self, c: char) -> bool {
        match self {
            IdCharset::Any => true,
            IdCharset::AlnumDashUnderscore => c.is_ascii_alphanumeric() || c == '_' || c == '-',
            IdCharset::Alnum => c.is_ascii_alphanumeric(),
        }
    }

    /// The set as a pattern, for messages.
    pub fn pattern(self) -> &'static str {
        match self {
            IdCharset::Any => "any characters",
            IdCharset::AlnumDashUnderscore => "[A-Za-z0-9_-]",
            IdCharset::Alnum => "[A-Za-z0-9]",
        }
    }
}

/// What one OpenAI-compatible server accepts beyond (or short of) the OpenAI Chat rules.
///
/// [`CompatRules::default`] is the strict portable profile: ids of at most 40 characters from
/// `[A-Za-z0-9_-]`, no reasoning fields on messages (Groq, GRQ-01), image parts accepted, and
/// assistant `content` only as a string or null (Groq, GRQ-02).
///
/// ```
/// use turnwire::providers::openai_compatible::validate::{CompatRules, IdCharset};
/// let deepinfra_like = CompatRules {
///     max_id_len: 64,
///     reasoning_field: Some("reasoning_content".to_string()),
///     ..CompatRules::default()
/// };
/// assert_eq!(deepinfra_like.id_charset, IdCharset::AlnumDashUnderscore);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompatRules {
    /// Longest accepted tool-call id, in characters (`usize::MAX`: no limit).
    pub max_id_len: usize,
    /// Characters accepted in tool-call ids.
    pub id_charset: IdCharset,
    /// The reasoning field accepted on assistant messages (e.g. `"reasoning_content"` or
    /// `"reasoning"`); `None`: every reasoning field is rejected (GRQ-01).
    pub reasoning_field: Option<String>,
    /// Whether `image_url` parts are accepted (in user messages; OAC-07 still applies).
    pub images: bool,
    /// Whether assistant `content` must be a string or null, never an array of parts (GRQ-02).
    pub assistant_content_string_only: bool,
    /// Whether assistant messages may carry OpenRouter's `reasoning_details` array (OpenRouter,
    /// ORT-02; then a Gemini 3 model's tool-call turns of the current loop must).
    pub reasoning_details: bool,
}

impl CompatRules {
    /// OpenRouter's profile: the portable one, with `reasoning_details` taken back (ORT-02).
    ///
    /// ```
    /// use turnwire::providers::openai_compatible::validate::{validate_with, CompatRules};
    /// let body = serde_json::json!({"model": "anthropic/claude-sonnet-4.5", "messages": [
    ///     {"role": "user", "content": "hi"},
    ///     {"role": "assistant", "content": "hello", "reasoning_details": [
    ///         {"type": "reasoning.text", "text": "greet", "signature": "s", "index": 0}]},
    ///     {"role": "user", "content": "bye"}
    /// ]});
    /// assert!(validate_with(&body, &CompatRules::openrouter()).is_empty());
    /// assert_eq!(validate_with(&body, &CompatRules::default())[0].rule, "GRQ-01");
    /// ```
    pub fn openrouter() -> CompatRules {
        CompatRules {
            reasoning_details: true,
            ..CompatRules::default()
        }
    }
}

impl Default for CompatRules {
    fn default() -> Self {
        CompatRules {
            max_id_len: 40,
            id_charset: IdCharset::AlnumDashUnderscore,
            reasoning_field: None,
            images: true,
            assistant_content_string_only: true,
            reasoning_details: false,
        }
    }
}
