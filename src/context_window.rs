//! The models' context windows: how many tokens a request (prompt and output) may take, as each
//! provider documents it for the models a row of the capability table matches
//! ([`crate::models`]). An agent compares the prompt size its last turn reported with it to know
//! when to compact (`contextUsage` in JavaScript).
//!
//! Where a row's prefix matches models with different windows, the figure is that of its
//! mainstream models (Claude Opus 4.7 and later: 1,000,000; GPT-5.4 and later stay at the
//! `gpt-5` row's 400,000, the smaller window of that row); catch-all rows take the smallest
//! window still served. An OpenAI-compatible server's window depends on the model behind it:
//! `None`. Sources: Anthropic's models overview and model pages, OpenAI's model pages, Google's
//! Gemini models page, Mistral's, Moonshot's and DeepSeek's model documentation (November 2026).

use crate::models;
use crate::vocab::Provider;

/// One window per row of the capability table, in its order: (provider, prefix, window).
const WINDOWS: &[(Provider, &str, Option<u32>)] = &[
    (Provider::Anthropic, "claude-3-7", Some(200_000)),
    (Provider::Anthropic, "claude-3-5", Some(200_000)),
    (Provider::Anthropic, "claude-3", Some(200_000)),
    (Provider::Anthropic, "claude-sonnet-4-20", Some(200_000)),
    (Provider::Anthropic, "claude-opus-4-20", Some(200_000)),
    (Provider::Anthropic, "claude-opus-4-1", Some(200_000)),
    (Provider::Anthropic, "claude-sonnet-4-0", Some(200_000)),
    (Provider::Anthropic, "claude-opus-4-0", Some(200_000)),
    (Provider::Anthropic, "claude-opus-4-6", Some(1_000_000)),
    (Provider::Anthropic, "claude-sonnet-4-6", Some(1_000_000)),
    (Provider::Anthropic, "claude-opus-4-7", Some(1_000_000)),
    (Provider::Anthropic, "claude-opus-4-8", Some(1_000_000)),
    (Provider::Anthropic, "claude-opus-5", Some(1_000_000)),
    (Provider::Anthropic, "claude-sonnet-5", Some(1_000_000)),
    (Provider::Anthropic, "claude-fable", Some(1_000_000)),
    (Provider::Anthropic, "claude-mythos", Some(1_000_000)),
    (Provider::Anthropic, "claude-sonnet-4-5", Some(200_000)),
    (Provider::Anthropic, "claude-opus-4-5", Some(200_000)),
    (Provider::Anthropic, "claude-haiku-4-5", Some(200_000)),
    (Provider::Anthropic, "claude-", Some(200_000)),
    (Provider::OpenAiResponses, "gpt-4", Some(128_000)),
    (Provider::OpenAiResponses, "gpt-5.0", Some(400_000)),
    (Provider::OpenAiResponses, "gpt-5.1", Some(400_000)),
    (Provider::OpenAiResponses, "gpt-5-", Some(400_000)),
    (Provider::OpenAiResponses, "gpt-5", Some(400_000)),
    (Provider::OpenAiResponses, "codex", Some(200_000)),
    (Provider::OpenAiResponses, "o1", Some(200_000)),
    (Provider::OpenAiResponses, "o3", Some(200_000)),
    (Provider::OpenAiResponses, "o4", Some(200_000)),
    (Provider::OpenAiChat, "gpt-4", Some(128_000)),
    (Provider::OpenAiChat, "gpt-5.0", Some(400_000)),
    (Provider::OpenAiChat, "gpt-5.1", Some(400_000)),
    (Provider::OpenAiChat, "gpt-5-", Some(400_000)),
    (Provider::OpenAiChat, "gpt-5", Some(400_000)),
    (Provider::OpenAiChat, "o1", Some(200_000)),
    (Provider::OpenAiChat, "o3", Some(200_000)),
    (Provider::OpenAiChat, "o4", Some(200_000)),
    (Provider::Gemini, "gemini-3.8-flash", Some(1_048_576)),
    (Provider::Gemini, "gemini-3.7-flash", Some(1_048_576)),
    (Provider::Gemini, "gemini-3.6-flash", Some(1_048_576)),
    (Provider::Gemini, "gemini-3.5-flash-lite", Some(1_048_576)),
    (Provider::Gemini, "gemini-3.1-pro", Some(1_048_576)),
    (Provider::Gemini, "gemini-3-flash", Some(1_048_576)),
    (Provider::Gemini, "gemini-3", Some(1_048_576)),
    (Provider::Gemini, "gemini-2.5-pro", Some(1_048_576)),
    (Provider::Gemini, "gemini-2.5-flash-lite", Some(1_048_576)),
    (Provider::Gemini, "gemini-2.5-flash", Some(1_048_576)),
    (Provider::Gemini, "gemini-2.5", Some(1_048_576)),
    (Provider::Gemini, "gemini-2.0", Some(1_048_576)),
    (Provider::Gemini, "gemini-1", Some(1_048_576)),
    (Provider::Mistral, "mistral-medium-2604", Some(262_144)),
    (Provider::Mistral, "mistral-medium-3-5", Some(262_144)),
    (Provider::Mistral, "mistral-medium-3.5", Some(262_144)),
    (Provider::Mistral, "mistral-medium-latest", Some(262_144)),
    (Provider::Mistral, "mistral-small-2603", Some(128_000)),
    (Provider::Mistral, "mistral-small-latest", Some(128_000)),
    (Provider::Mistral, "magistral", Some(128_000)),
    (Provider::Mistral, "", Some(128_000)),
    (Provider::Kimi, "kimi-k2-0", Some(131_072)),
    (Provider::Kimi, "kimi-k2-turbo", Some(262_144)),
    (Provider::Kimi, "kimi-k3", Some(262_144)),
    (Provider::Kimi, "kimi-k2.6", Some(262_144)),
    (Provider::Kimi, "", Some(262_144)),
    (Provider::DeepSeek, "deepseek-v4", Some(1_000_000)),
    (Provider::DeepSeek, "deepseek-reasoner", Some(1_000_000)),
    (Provider::DeepSeek, "deepseek-chat", Some(1_000_000)),
    (Provider::DeepSeek, "", Some(1_000_000)),
    (Provider::OpenAiCompatible, "grok-3-mini", None),
    (Provider::OpenAiCompatible, "grok-4.3", None),
    (Provider::OpenAiCompatible, "grok-4.20-multi-agent", None),
    (Provider::OpenAiCompatible, "grok-", None),
    (Provider::OpenAiCompatible, "glm-5", None),
    (Provider::OpenAiCompatible, "", None),
    // Ollama's library pages (gpt-oss 128K; Qwen3 from 40K at 0.6b–8b); any other model's
    // window is its Modelfile's, and what a request gets is `options.num_ctx`.
    (Provider::Ollama, "gpt-oss", Some(131_072)),
    (Provider::Ollama, "qwen3", Some(40_960)),
    (Provider::Ollama, "", None),
];

/// The documented context window of `model` (prompt and output tokens together), or `None`
/// for a model the table does not know or a server whose window depends on what it runs.
///
/// ```
/// use turnwire::{context_window, Provider};
/// assert_eq!(context_window(Provider::Anthropic, "claude-sonnet-4-5"), Some(200_000));
/// assert_eq!(context_window(Provider::Gemini, "gemini-3-pro-preview"), Some(1_048_576));
/// assert_eq!(context_window(Provider::OpenAiCompatible, "llama-3.3-70b-versatile"), None);
/// ```
pub fn context_window(provider: Provider, model: &str) -> Option<u32> {
    let row = models::row_of(provider, model)?;
    WINDOWS.get(row).and_then(|(_, _, w)| *w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_window_per_row_of_the_capability_table() {
        let rows = models::rows();
        assert_eq!(rows.len(), WINDOWS.len());
        for ((p, prefix), (wp, wprefix, _)) in rows.iter().zip(WINDOWS) {
            assert_eq!((p, prefix), (wp, wprefix));
        }
    }

    #[test]
    fn the_most_specific_row_decides() {
        assert_eq!(
            context_window(Provider::Anthropic, "claude-opus-4-7"),
            Some(1_000_000)
        );
        assert_eq!(
            context_window(Provider::Anthropic, "anthropic/claude-haiku-4-5"),
            Some(200_000)
        );
        assert_eq!(
            context_window(Provider::Kimi, "kimi-k2-0905-preview"),
            Some(131_072)
        );
        assert_eq!(
            context_window(Provider::OpenAiChat, "gpt-4o"),
            Some(128_000)
        );
        assert_eq!(context_window(Provider::OpenAiChat, "llama"), None);
    }
}
