//! Output token limits and thinking budgets that fit each other and the model.
//!
//! Thinking counts inside the output limit everywhere (Anthropic `max_tokens`, Gemini
//! `maxOutputTokens`), so a budget needs room below the limit for the answer, and the limit must
//! stay within the model's output limit (the capability table). What the caller did not set is
//! chosen to fit, with a diagnostic; what the caller set that cannot work is an error naming
//! both numbers.

use super::options::{RenderOptions, DEFAULT_MAX_TOKENS, DEFAULT_THINKING_BUDGET};
use crate::error::{Error, ErrorCode};
use crate::models::{ModelCaps, ReasoningField};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};
use crate::vocab::{OutputLimit, Provider};

/// Tokens left for the answer above the thinking budget when turnwire chooses `max_tokens`.
pub const ANSWER_ROOM: u32 = DEFAULT_MAX_TOKENS;

/// The limits a request is sent with.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Limits {
    /// The output limit to send (`None`: leave the field out).
    pub max_tokens: Option<u32>,
    /// The thinking budget to send, when thinking is on and the target takes a budget.
    pub thinking_budget: Option<u32>,
    /// What turnwire chose or adjusted, as diagnostics.
    pub notes: Vec<Diagnostic>,
}

/// The smallest `max_output_tokens` OpenAI Responses takes ("integer below minimum value.
/// Expected a value >= 16").
pub const RESPONSES_MIN_OUTPUT_TOKENS: u32 = 16;

/// `max_tokens` for a Kimi thinking model without `maxTokens`: reasoning and answer share it,
/// and Moonshot's thinking-model guide asks for at least 16000 (its default is about 1024).
pub const KIMI_THINKING_MAX_TOKENS: u32 = 32_768;

/// Whether a Kimi request thinks: a thinking model (`reasoning_content` required on tool turns)
/// whose thinking the caller did not switch off, or one that always thinks (K3, K2.7 code,
/// `*-thinking`: thinking off is not sent to them, KIM-11).
fn kimi_thinks(o: &RenderOptions, caps: ModelCaps) -> bool {
    caps.reasoning_field == ReasoningField::RequiredOnToolTurns
        && (o.thinking.as_ref().is_none_or(|t| t.enabled)
            || crate::models::always_thinks(o.provider, &o.model))
}

fn asked_budget(o: &RenderOptions) -> u32 {
    o.thinking
        .as_ref()
        .and_then(|t| t.budget_tokens)
        .unwrap_or(DEFAULT_THINKING_BUDGET)
}

fn invalid(path: &str, message: String) -> Error {
    Error::new(ErrorCode::InvalidValue, path, message)
}

impl RenderOptions {
    /// The errors of limits Anthropic refuses: a budget below 1024, a budget that leaves no room
    /// below an explicit `maxTokens`, or a budget at or past the model's output limit. (Gemini
    /// takes any budget below or above `maxOutputTokens`; its 2.5 ranges are fitted instead.)
    pub(crate) fn check_limits(&self, caps: ModelCaps) -> Result<(), Error> {
        if !self.thinking_enabled() {
            return Ok(());
        }
        let budget = asked_budget(self);
        let cap = caps.max_output_tokens;
        if !self.provider.budget_inside_output_limit() {
            return Ok(());
        }
        // Through Converse only Claude gets thinking settings (BDR-17); the other families get
        // none, with a diagnostic, so their budget is never sent.
        if self.provider == Provider::BedrockConverse
            && crate::models::bedrock_model(&self.model).0 != crate::models::BedrockFamily::Claude
        {
            return Ok(());
        }
        if budget < DEFAULT_THINKING_BUDGET {
            return Err(invalid(
                "$.thinking.budgetTokens",
                format!(
                    "Anthropic needs 1024 <= budgetTokens < maxTokens; got budgetTokens {budget}"
                ),
            ));
        }
        match (self.max_tokens, cap) {
            (Some(max), _) if budget >= max => Err(invalid(
                "$.thinking.budgetTokens",
                format!("thinking counts inside the output limit, so budgetTokens must stay below maxTokens; got budgetTokens {budget}, maxTokens {max}"),
            )),
            (None, Some(cap)) if budget >= cap => Err(invalid(
                "$.thinking.budgetTokens",
                format!("budgetTokens {budget} leaves no room within {}'s output limit of {cap} tokens; ask for less", self.model),
            )),
            _ => Ok(()),
        }
    }

    /// The output limit and thinking budget this request is sent with, and notes on what was
    /// chosen. Anthropic always gets a `max_tokens`: the caller's; else 4096 when that leaves
    /// at least half of it for the answer; else the budget plus 4096, within the model's output
    /// limit. A Gemini 2.5 budget outside the model's range is moved into it.
    ///
    /// ```
    /// use turnwire::{Provider, RenderOptions, ThinkingOptions};
    /// let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    /// o.thinking = Some(ThinkingOptions { enabled: true, budget_tokens: Some(8000), effort: None, summary: None });
    /// let out = turnwire::render(&turnwire::Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?, &o)?;
    /// assert_eq!(out.body["max_tokens"], 12096);
    /// assert_eq!(out.diagnostics[0].code, turnwire::DiagnosticCode::MaxTokensChosen);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub(crate) fn limits(&self, caps: ModelCaps) -> Limits {
        let mut notes = Vec::new();
        let thinking = self.thinking_enabled();
        let mut budget = asked_budget(self);
        let max_tokens = match self.provider.output_limit() {
            OutputLimit::Required => Some(match self.max_tokens {
                Some(m) => m,
                None if !thinking || budget <= DEFAULT_MAX_TOKENS / 2 => caps
                    .max_output_tokens
                    .map_or(DEFAULT_MAX_TOKENS, |c| c.min(DEFAULT_MAX_TOKENS)),
                None => {
                    let wanted = budget.saturating_add(ANSWER_ROOM);
                    let chosen = caps.max_output_tokens.map_or(wanted, |c| c.min(wanted));
                    let within = caps
                        .max_output_tokens
                        .map(|c| format!(" (the model's output limit is {c})"))
                        .unwrap_or_default();
                    notes.push(Diagnostic::new(
                        DiagnosticCode::MaxTokensChosen,
                        FaultClass::ProviderProjection,
                        format!("no maxTokens was given; max_tokens {chosen} was sent so that the thinking budget {budget} leaves {} tokens for the answer{within}", chosen - budget.min(chosen)),
                    ));
                    chosen
                }
            }),
            OutputLimit::RaisedForThinking if self.max_tokens.is_none() && kimi_thinks(self, caps) => {
                notes.push(Diagnostic::new(
                    DiagnosticCode::MaxTokensChosen,
                    FaultClass::ProviderProjection,
                    format!("no maxTokens was given; Kimi's own default (about 1024 tokens) cuts a thinking model's reasoning and answer short, so max_tokens {KIMI_THINKING_MAX_TOKENS} was sent (Moonshot asks for at least 16000)"),
                ));
                Some(KIMI_THINKING_MAX_TOKENS)
            }
            OutputLimit::AtLeastMinimum => self.max_tokens.map(|asked| {
                if asked >= RESPONSES_MIN_OUTPUT_TOKENS {
                    return asked;
                }
                notes.push(Diagnostic::new(
                    DiagnosticCode::MaxTokensChosen,
                    FaultClass::ProviderProjection,
                    format!("OpenAI Responses takes max_output_tokens from {RESPONSES_MIN_OUTPUT_TOKENS} (\"integer below minimum value\"); {RESPONSES_MIN_OUTPUT_TOKENS} was sent for maxTokens {asked}"),
                ));
                RESPONSES_MIN_OUTPUT_TOKENS
            }),
            OutputLimit::RaisedForThinking | OutputLimit::AsAsked => self.max_tokens,
        };
        if thinking && self.provider == Provider::Gemini {
            if let Some((lo, hi)) = caps.thinking_budget_range {
                let fitted = budget.clamp(lo, hi);
                if fitted != budget {
                    notes.push(Diagnostic::new(
                        DiagnosticCode::ThinkingBudgetAdjusted,
                        FaultClass::ProviderProjection,
                        format!("{} takes thinking budgets from {lo} to {hi} (\"The thinking budget {budget} is invalid\"); {fitted} was sent", self.model),
                    ));
                    budget = fitted;
                }
            }
        }
        Limits {
            max_tokens,
            thinking_budget: thinking.then_some(budget),
            notes,
        }
    }
}
