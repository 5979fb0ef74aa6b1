//! Strict validator for other OpenAI-compatible chat servers (provider-rules.md §2 and §8),
//! configured by [`CompatRules`].
//!
//! [`validate_with`] runs every OpenAI Chat check (OAC rule ids, `OAC-STRUCT` for shape errors)
//! and then the server profile's own checks, reporting all in document order. [`validate`] uses
//! [`CompatRules::default`], the strict portable profile.
//!
//! Checked from one body:
//!
//! - `OAC-STRUCT`, `OAC-01`, `OAC-02`, `OAC-04` .. `OAC-09` — as for OpenAI Chat (see
//!   [`openai_chat::validate`](crate::providers::openai_chat::validate)). `ORT-01` (OpenRouter
//!   applies its upstream's rules) is why the pairing rules stay on for every server.
//! - `COMPAT-IDS` every `tool_calls[].id` and `tool_call_id` is at most
//!   [`CompatRules::max_id_len`] characters of [`CompatRules::id_charset`] (default: 40 of
//!   `[A-Za-z0-9_-]`).
//! - `GRQ-01` no reasoning field on any message — a member named `reasoning*` or `thinking*`
//!   (`reasoning_content`, `reasoning`, `reasoning_details`, `thinking`, ...): Groq's
//!   `property 'reasoning_content' is unsupported` — except [`CompatRules::reasoning_field`] on
//!   assistant messages.
//! - `GRQ-02` with [`CompatRules::assistant_content_string_only`] (default on), assistant
//!   `content` is a string or null, never an array: Groq's `value must be a string`.
//! - `XAI-02` (docs/provider-rules-added.md) a Grok model takes `reasoning_effort` only on
//!   xAI's allow-list (grok-3-mini, grok-4.3, grok-4.20-multi-agent), at one of its levels:
//!   `Model grok-4-0709 does not support parameter reasoningEffort`.
//! - `KIM-12` (docs/provider-rules-added.md) GLM-5 (thinking by default, unless the body says
//!   `"thinking": {"type": "disabled"}`): every assistant message with `tool_calls` carries a
//!   string `reasoning_content`: `thinking is enabled but reasoning_content is missing in
//!   assistant tool call message at index …`.
//! - `ORT-02` (docs/provider-rules-added.md) with [`CompatRules::reasoning_details`]
//!   (OpenRouter: [`CompatRules::openrouter`]), assistant messages may carry OpenRouter's
//!   `reasoning_details`, and a Gemini 3 model's assistant tool-call messages of the current
//!   turn must: `Gemini models require OpenRouter reasoning details to be preserved in each
//!   request. …`. [`validate`] takes a body whose assistant messages carry OpenRouter's
//!   details (a field no other server defines) as written for OpenRouter.
//! - `OAC-08` with [`CompatRules::images`] off, no `image_url` part in user messages either (an
//!   unknown part type for that server; other roles are OAC-07's).
//!
//! Exceptions to the OAC rules:
//!
//! - `OAC-03` (ids at most 40 characters) is replaced by `COMPAT-IDS`, whose limit is
//!   configurable; the default profile keeps 40.
//!
//! Not checkable from one body, or not checked:
//!
//! - `GRQ-01` for fields other than reasoning ones (`timestamp`, ...): OpenAI Chat's message
//!   schema has optional members (`name`, `refusal`, `audio`, ...) that some servers take and
//!   some do not; only the reasoning family, the one that broke real sessions, is checked.
//! - `XAI-01` (xAI reuses `call_0` across responses) is about ids xAI *returns*; replaying them
//!   is caught by `OAC-09` (ids unique in the request).
//! - `OLL-01` concerns Ollama's native `/api/chat` (results matched by name and order before
//!   0.12.10), not this OpenAI-shaped body (`providers/ollama`).
//! - `ORT-01` upstream-specific rules behind OpenRouter: the upstream is not named in the body;
//!   validate with that provider's validator as well.

mod content;
mod ids;
mod models;
mod openrouter;
mod reasoning;
mod rules;
pub(crate) mod view;

use serde_json::Value;

use crate::providers::openai_chat::validate::{check_dialect, Dialect};
use crate::providers::validate_support::Findings;
use crate::providers::Violation;

pub use rules::{CompatRules, IdCharset};

use content::{check_grq_02_assistant_string, check_images};
use ids::check_compat_ids;
use models::{check_kim_12_reasoning_content, check_xai_02_effort, needs_reasoning, GLM_FIELD};
use openrouter::{check_ort_02_details_kept, written_for_openrouter};
use reasoning::check_grq_01_reasoning_fields;

/// The OAC checks with OAC-03 left to `COMPAT-IDS`.
const DIALECT: Dialect = Dialect {
    oac_03_id_length: false,
    no_stop_for_fixed_sampling: false,
    ..Dialect::OPENAI
};

/// Checks a request body for an OpenAI-compatible server with the strict portable profile
/// ([`CompatRules::default`]), which takes `reasoning_content` on assistant messages where the
/// body's model needs it back (GLM-5, KIM-12).
///
/// ```
/// use turnwire::providers::openai_compatible::validate::validate;
/// let body = serde_json::json!({"model": "llama-3.3-70b-versatile", "messages": [
///     {"role": "user", "content": "hi"},
///     {"role": "assistant", "content": "hello", "reasoning_content": "greet back"},
///     {"role": "user", "content": "bye"}
/// ]});
/// assert_eq!(validate(&body)[0].rule, "GRQ-01");
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    let rules = CompatRules {
        reasoning_field: needs_reasoning(body).then(|| GLM_FIELD.to_string()),
        reasoning_details: written_for_openrouter(&view::messages(body)),
        ..CompatRules::default()
    };
    validate_with(body, &rules)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    crate::providers::openai_chat::validate::envelope_with(body, &DIALECT, check_xai_02_effort)
}

/// Checks a request body for an OpenAI-compatible server described by `rules` (see the module
/// documentation). Returns the violations in document order; empty means the body passes.
///
/// ```
/// use turnwire::providers::openai_compatible::validate::{validate_with, CompatRules};
/// let body = serde_json::json!({"model": "deepseek-r1-distill", "messages": [
///     {"role": "user", "content": "hi"},
///     {"role": "assistant", "content": "hello", "reasoning_content": "greet back"},
///     {"role": "user", "content": "bye"}
/// ]});
/// let rules = CompatRules { reasoning_field: Some("reasoning_content".into()), ..CompatRules::default() };
/// assert!(validate_with(&body, &rules).is_empty());
/// ```
pub fn validate_with(body: &Value, rules: &CompatRules) -> Vec<Violation> {
    let mut out = Findings::default();
    check_dialect(body, &DIALECT, &mut out);
    let msgs = view::messages(body);
    check_compat_ids(&msgs, rules, &mut out);
    check_grq_01_reasoning_fields(&msgs, rules, &mut out);
    check_grq_02_assistant_string(&msgs, rules, &mut out);
    check_images(&msgs, rules, &mut out);
    check_xai_02_effort(body, &mut out);
    check_kim_12_reasoning_content(body, &msgs, &mut out);
    check_ort_02_details_kept(body, &msgs, rules, &mut out);
    out.finish(body)
}
