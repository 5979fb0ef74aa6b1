//! Token usage reported by a stream.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Token counts of one model turn, normalised across providers.
///
/// Every count is optional: a provider reports what it reports, and a stream cut short may
/// report nothing. The counts are additive, whatever the provider's own convention:
///
/// - `input_tokens` are the prompt tokens that were neither read from nor written to a prompt
///   cache, so `input + cache_read + cache_write` is the whole prompt (OpenAI and Gemini count
///   cached tokens inside their prompt count; the decoders subtract them);
/// - `output_tokens` include `reasoning_tokens` (Gemini reports thoughts apart from the
///   candidates; the decoder adds them).
///
/// Counts are `u32` so that they cross into JavaScript as plain numbers.
///
/// ```
/// use turnwire::stream::Usage;
/// let u = Usage { input_tokens: Some(10), cache_read_tokens: Some(90), output_tokens: Some(5), ..Usage::default() };
/// assert_eq!(u.total_tokens(), 105);
/// assert_eq!(serde_json::to_string(&u)?, r#"{"inputTokens":10,"outputTokens":5,"cacheReadTokens":90}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct Usage {
    /// Prompt tokens not served from or written to a cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u32>,
    /// Generated tokens, reasoning included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u32>,
    /// Prompt tokens read from a prompt cache.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_read_tokens: Option<u32>,
    /// Prompt tokens written to a prompt cache (Anthropic `cache_creation_input_tokens`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cache_write_tokens: Option<u32>,
    /// Of the output, the tokens spent on reasoning.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u32>,
}

impl Usage {
    /// True when no count is known.
    ///
    /// ```
    /// assert!(turnwire::stream::Usage::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        *self == Usage::default()
    }

    /// Input (cached or not) plus output tokens; unknown counts count as zero.
    ///
    /// ```
    /// let u = turnwire::stream::Usage { input_tokens: Some(3), output_tokens: Some(4), ..Default::default() };
    /// assert_eq!(u.total_tokens(), 7);
    /// ```
    pub fn total_tokens(&self) -> u64 {
        [
            self.input_tokens,
            self.output_tokens,
            self.cache_read_tokens,
            self.cache_write_tokens,
        ]
        .iter()
        .map(|c| u64::from(c.unwrap_or(0)))
        .sum()
    }

    /// Takes every count `newer` knows; keeps the others. Providers report usage in pieces
    /// (Anthropic: input at the start, output at the end) or cumulatively (Gemini: on every
    /// chunk), and both are merged this way.
    ///
    /// ```
    /// use turnwire::stream::Usage;
    /// let mut u = Usage { input_tokens: Some(10), output_tokens: Some(1), ..Usage::default() };
    /// u.merge(&Usage { output_tokens: Some(42), ..Usage::default() });
    /// assert_eq!((u.input_tokens, u.output_tokens), (Some(10), Some(42)));
    /// ```
    pub fn merge(&mut self, newer: &Usage) {
        let pick = |old: &mut Option<u32>, new: Option<u32>| {
            if new.is_some() {
                *old = new;
            }
        };
        pick(&mut self.input_tokens, newer.input_tokens);
        pick(&mut self.output_tokens, newer.output_tokens);
        pick(&mut self.cache_read_tokens, newer.cache_read_tokens);
        pick(&mut self.cache_write_tokens, newer.cache_write_tokens);
        pick(&mut self.reasoning_tokens, newer.reasoning_tokens);
    }

    /// The JSON object form (camelCase, known counts only), as stored in a message's
    /// `metadata.usage`.
    ///
    /// ```
    /// let u = turnwire::stream::Usage { output_tokens: Some(7), ..Default::default() };
    /// assert_eq!(u.to_value(), serde_json::json!({"outputTokens": 7}));
    /// ```
    pub fn to_value(&self) -> Value {
        let mut o = Map::new();
        for (key, count) in [
            ("inputTokens", self.input_tokens),
            ("outputTokens", self.output_tokens),
            ("cacheReadTokens", self.cache_read_tokens),
            ("cacheWriteTokens", self.cache_write_tokens),
            ("reasoningTokens", self.reasoning_tokens),
        ] {
            if let Some(c) = count {
                o.insert(key.into(), c.into());
            }
        }
        Value::Object(o)
    }
}
