//! Strict validator for OpenAI Chat Completions request bodies (provider-rules.md §2).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order. Rule ids are the ones of provider-rules.md; `OAC-STRUCT` marks plain shape errors.
//!
//! Checked from one body (all of §2 is checkable from one body):
//!
//! - `OAC-STRUCT` — body is an object; `model` a non-empty string; `messages` a non-empty array
//!   of objects with a known role (`system`, `developer`, `user`, `assistant`, `tool`);
//!   `tool_calls` only on assistant messages, each `{id, type: "function", function: {name,
//!   arguments}}`; tool messages carry a string
//!   `tool_call_id`; content is a string, an array of typed parts, or null; `tools[]` are
//!   `{type: "function", function: {name, description?, parameters?}}`.
//! - `OAC-01` every tool message sits in the contiguous run of tool messages right after an
//!   assistant message with `tool_calls`, and answers one of its ids.
//! - `OAC-02` every `tool_calls[].id` is answered in that run (missing ids listed).
//! - `OAC-03` `tool_calls[].id` and `tool_call_id` are at most 40 characters.
//! - `OAC-04` no empty call id, `tool_call_id`, function name, or `tool_calls: []`.
//! - `OAC-05` function names match `^[a-zA-Z0-9_-]{1,64}$` in `tools` and history; tool
//!   descriptions are at most 1024 characters.
//! - `OAC-06` content null/absent only on assistant messages with `tool_calls`; otherwise a
//!   non-empty string or non-empty array; with `tool_calls`, null or a non-empty string.
//! - `OAC-07` `image_url` parts only in user messages.
//! - `OAC-08` content part types by role: user {text, image_url, input_audio, file}, assistant
//!   {text, refusal}, system/developer/tool {text}.
//! - `OAC-09` tool-call ids unique across the request, and no id answered twice.
//! - `OAC-14` (docs/provider-rules-added.md) `tool_calls[].function.arguments` is a string
//!   holding a JSON object: `messages.1.tool_calls.0.function.arguments: arguments must be a
//!   valid JSON object string` (Moonshot, vLLM and gateways re-parse replayed arguments).
//! - `OAC-16` … `OAC-19` request controls (tool choice, stop, structured output): see
//!   `controls`.
//! - `OAC-20` `prompt_cache_key` is a string of at most 64 characters: `Invalid
//!   'prompt_cache_key': string too long. Expected a string with maximum length 64, but got a
//!   string with length 72 instead.`
//! - `OAC-31` `prompt_cache_options` and `prompt_cache_breakpoint` (on `text`, `image_url`,
//!   `input_audio`, `file` parts) only for gpt-5.6 and later, at most four breakpoints: the
//!   checks of `ORS-21` (`openai_responses::validate::cache`).
//! - `OAC-11` `reasoning_effort` is one of the model's levels (`max` from gpt-5.6 on):
//!   `Unsupported value: 'reasoning_effort' does not support 'max' with this model. Supported
//!   values are: 'none', 'low', 'medium', 'high', and 'xhigh'.` (see `effort`).

mod content;
mod controls;
mod dialect;
mod effort;
mod message;
mod names;
mod structure;
mod tool_runs;

use serde_json::Value;

use crate::providers::openai_responses::validate::cache;
use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;

use content::{check_content_parts, check_oac_06_content_presence};
use message::parse_messages;
use structure::{check_model, check_tool_call_id, check_tool_calls, check_tools};
use tool_runs::{check_oac_01_02_tool_runs, check_oac_09_unique_call_ids};

use controls::{check_oac_16_tool_choice, check_oac_17_18_stop, check_oac_19_response_format};
pub(crate) use controls::{check_prompt_cache_key, forces_a_call};
pub(crate) use dialect::Dialect;
pub(crate) use effort::check_openai_effort;

/// Rule id for plain shape errors.
const STRUCT: &str = "OAC-STRUCT";

/// Checks an OpenAI Chat Completions request body against every rule of provider-rules.md §2
/// (see the module documentation). Returns the violations in document order; an empty list
/// means the body passes.
///
/// ```
/// use turnwire::providers::openai_chat::validate::validate;
/// let body = serde_json::json!({
///     "model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]
/// });
/// assert!(validate(&body).is_empty());
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    check_dialect(body, &Dialect::OPENAI, &mut out);
    out.finish(body)
}

/// The OAC rules on everything but `messages` (what `providerOptions` can change), with the
/// relaxations of `dialect`.
pub(crate) fn check_envelope(
    obj: &serde_json::Map<String, Value>,
    dialect: &Dialect,
    out: &mut Findings,
) {
    check_model(obj, out);
    check_tools(obj, out);
    check_oac_16_tool_choice(obj, dialect, out);
    check_oac_17_18_stop(obj, dialect, out);
    check_oac_19_response_format(obj, out);
    check_prompt_cache_key(obj, "OAC-20", out);
    effort::check_oac_11_effort(obj, out);
    cache::check_prompt_cache_options(obj, &cache::CHAT, out);
}

/// [`validate`]'s rules on everything but `messages`.
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    envelope_with(body, &Dialect::OPENAI, |_, _| {})
}

/// The envelope rules of a chat dialect: the OAC ones with its relaxations, then its own
/// (`extra`).
pub(crate) fn envelope_with(
    body: &Value,
    dialect: &Dialect,
    extra: impl Fn(&Value, &mut Findings),
) -> Vec<Violation> {
    let mut out = Findings::default();
    if let Some(obj) = body.as_object() {
        check_envelope(obj, dialect, &mut out);
        extra(body, &mut out);
    }
    out.finish(body)
}

/// Runs every OAC check on `body` with the relaxations of `dialect` (see [`Dialect`]), recording
/// into `out`. With [`Dialect::OPENAI`] this is exactly [`validate`]; the OpenAI-compatible
/// dialect validators call it and add their own rules to the same findings.
pub(crate) fn check_dialect(body: &Value, dialect: &Dialect, out: &mut Findings) {
    let Some(obj) = body.as_object() else {
        out.push(STRUCT, Path::root(), "request body must be a JSON object");
        return;
    };
    check_envelope(obj, dialect, out);
    if let Some(msgs) = parse_messages(obj, out) {
        for msg in &msgs {
            check_tool_calls(msg, dialect, out);
            check_tool_call_id(msg, dialect, out);
            check_oac_06_content_presence(msg, dialect, out);
            check_content_parts(msg, dialect, out);
        }
        check_oac_01_02_tool_runs(&msgs, out);
        check_oac_09_unique_call_ids(&msgs, out);
        cache::check_breakpoints(obj, &cache::CHAT, out);
    }
}
