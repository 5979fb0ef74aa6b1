//! One render's decisions, made once from its options: the wire API, the model's row of the
//! capability table, the limits the request is sent with and the normaliser's options (the
//! target, the capabilities adjusted for the caller's switches, the repair policy). The render,
//! the incremental renderer and the adapters read this value instead of looking the model up
//! again or copying options into options.

use super::controls::Controls;
use super::limits::Limits;
use super::{CachePlan, HeaderPlan, ServerToolPlan};
use super::{RenderOptions, ThinkingOptions};
use crate::error::Error;
use crate::hosts::{self, HostRow, ModelAt};
use crate::models::{self, ModelCaps};
use crate::normalize::NormalizeOptions;
use crate::vocab::WireApi;

/// What one render call resolved from its [`RenderOptions`] (see the module's doc; the tests
/// below show what each field holds).
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    /// The wire API the body is written for.
    pub api: WireApi,
    /// Where the request goes: the caller's `host`, else the provider's own API (the host
    /// table, `src/hosts.rs`); none for `openai-compatible` without a `host`.
    pub host: Option<&'static HostRow>,
    /// The model's row of the capability table (the provider's defaults for a model it lacks).
    pub caps: ModelCaps,
    /// The output limit and thinking budget the request is sent with, and notes on them and on
    /// the request controls.
    pub limits: Limits,
    /// The tool choice and stop sequences the request is sent with.
    pub controls: Controls,
    /// The cache breakpoints and key the request is sent with.
    pub cache: CachePlan,
    /// The server tools the request declares, in its target's form.
    pub server_tools: ServerToolPlan,
    /// The thinking setting the request is sent with: the caller's, or thinking off when a
    /// forced tool choice needs it ([`Controls`]).
    pub thinking: Option<ThinkingOptions>,
    /// What the normaliser needs: the target, the adjusted capabilities, the repair policy.
    pub normalize: NormalizeOptions,
    /// The headers the caller's header params (ANT-42) give.
    pub headers: HeaderPlan,
}

impl Resolved {
    /// Checks the options and resolves them: the errors of a render that come before any
    /// normalisation (bad options, a model strict mode refuses).
    pub(crate) fn of(options: &RenderOptions) -> Result<Resolved, Error> {
        let caps = models::capabilities_or_defaults(options.provider, &options.model);
        options.check_with(caps)?;
        if options.strict_models {
            models::resolve(options.provider, &options.model, true)?;
        }
        let host = hosts::resolve(options.host, options.provider, "$.host")?;
        let controls = options.controls(caps, host)?;
        let cache = options.cache_plan()?;
        let server_tools = options.server_tool_plan()?;
        let headers = options.header_plan()?;
        // A forced tool choice the provider refuses with thinking on: the request is resolved
        // as if the caller had switched thinking off (limits, history, thinking switch).
        let effective = match &controls.thinking {
            Some(off) => std::borrow::Cow::Owned(RenderOptions {
                thinking: Some(off.clone()),
                ..options.clone()
            }),
            None => std::borrow::Cow::Borrowed(options),
        };
        let mut limits = effective.limits(caps);
        limits.notes.extend(controls.notes.iter().cloned());
        limits.notes.extend(cache.notes.iter().cloned());
        limits.notes.extend(server_tools.notes.iter().cloned());
        limits.notes.extend(headers.notes.iter().cloned());
        Ok(Resolved {
            api: WireApi::of(options.provider),
            host,
            caps,
            limits,
            normalize: effective.policy(effective.adjusted(caps)),
            thinking: effective.thinking.clone(),
            controls,
            cache,
            server_tools,
            headers,
        })
    }
}

impl Resolved {
    /// Whether the body names the model (`"model": …`); otherwise the URL does (Google's
    /// `models/{model}:generateContent`, Bedrock's `/model/{id}/invoke`).
    pub(crate) fn model_in_body(&self) -> bool {
        self.host.is_none_or(|h| h.model == ModelAt::Body)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::models::ReasoningField;
    use crate::request::ThinkingOptions;
    use crate::vocab::Provider;

    /// The table's row is kept as it is; the normaliser gets it adjusted for the caller's switch.
    #[test]
    fn the_table_row_and_the_adjusted_capabilities_are_both_resolved() {
        let mut o = RenderOptions::new(Provider::Kimi, "kimi-k2.6");
        o.thinking = Some(ThinkingOptions {
            enabled: false,
            budget_tokens: None,
            effort: None,
            summary: None,
        });
        let r = Resolved::of(&o).expect("kimi resolves");
        assert_eq!(r.api, WireApi::ChatCompletions);
        assert_eq!(r.caps.reasoning_field, ReasoningField::RequiredOnToolTurns);
        assert_eq!(r.normalize.caps.reasoning_field, ReasoningField::Accepted);
        assert_eq!(r.normalize.target, Provider::Kimi);
        assert_eq!(r.limits, o.limits(r.caps));
    }

    /// The limits are computed once, with the notes a render reports.
    #[test]
    fn limits_are_resolved_with_their_notes() {
        let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: Some(8000),
            effort: None,
            summary: None,
        });
        let r = Resolved::of(&o).expect("anthropic resolves");
        assert_eq!(r.limits.max_tokens, Some(12_096));
        assert_eq!(r.limits.thinking_budget, Some(8000));
        assert_eq!(r.limits.notes.len(), 1);
        assert!(r.normalize.thinking_enabled);
    }

    /// The errors come in the order a render always gave them: the options, then strict mode.
    #[test]
    fn option_errors_come_before_strict_mode_errors() {
        let mut o = RenderOptions::new(Provider::OpenAiChat, "no-such-model");
        o.strict_models = true;
        let strict = Resolved::of(&o).err().map(|e| e.code());
        assert_eq!(strict, Some(ErrorCode::UnsupportedModel));
        o.max_tokens = Some(0);
        let both = Resolved::of(&o).err().map(|e| e.code());
        assert_eq!(both, Some(ErrorCode::InvalidValue));
    }
}
