//! Strict validator for Mistral chat request bodies (provider-rules.md §5 on top of §2).
//!
//! [`validate`] runs every OpenAI Chat check (OAC rule ids, `OAC-STRUCT` for shape errors) with
//! Mistral's exceptions, then Mistral's own rules, and reports all in document order.
//!
//! Checked from one body:
//!
//! - `OAC-STRUCT`, `OAC-01` .. `OAC-09` — as for OpenAI Chat (see
//!   [`openai_chat::validate`](crate::providers::openai_chat::validate)), with the exceptions
//!   below. `OAC-01`/`OAC-02` carry the "same ids" half of MIS-03 (Mistral's
//!   `Unexpected role RoleEnum.tool` for a tool message without a call is OAC-01).
//! - `MIS-01` every `tool_calls[].id` and `tool_call_id` is exactly 9 characters of
//!   `[a-zA-Z0-9]`: `Tool call id was … but must be a-z, A-Z, 0-9, with a length of 9.`
//! - `MIS-02` no `user` message right after a `tool` message, and no `tool` message right after
//!   a `user` message: `Unexpected role 'user' after role 'tool'`.
//! - `MIS-03` the run of tool messages after an assistant message with `tool_calls` has as many
//!   messages as there are calls: `Not the same number of function calls and responses`.
//! - `MIS-04` an assistant message has non-empty `content` or non-empty `tool_calls`:
//!   `Assistant message must have either content or tool_calls, but not none.`
//! - `MIS-05` the last message is `user` or `tool`, or `assistant` with `"prefix": true`:
//!   `Expected last role User or Tool (or Assistant with prefix True) for serving but got …`.
//! - `MIS-06` every tool message carries `name`, equal to the name of the function whose call it
//!   answers (strict render rule; Mistral's guide sends it, no error text was captured).
//! - `MIS-09` (docs/provider-rules-added.md) `reasoning_effort` only on the models with
//!   adjustable reasoning (Medium 3.5, Small 4), and only `none` or `high`: `reasoning_effort
//!   is not enabled for this model` (the value rule's text is ours).
//! - `OAC-STRUCT` on Mistral `thinking` parts: `thinking` is a non-empty array of
//!   `{"type": "text", "text": <string>}` chunks.
//!
//! Exceptions to the OAC rules (Mistral accepts what OpenAI does not):
//!
//! - `OAC-08`: assistant content parts may also be `thinking` (Magistral reasoning chunks,
//!   `{"type": "thinking", "thinking": [{"type": "text", "text": …}]}`), next to `text`.
//! - `OAC-06`: an assistant message with `tool_calls` may carry a non-empty content array (its
//!   thinking and text chunks) instead of null or a string. An empty string with `tool_calls` is
//!   still reported, as for OpenAI: the strict render sends null.
//!
//! Not checked:
//!
//! - The older API's `… but not both.` (content and tool_calls together rejected) — current
//!   Mistral accepts both; MIS-04 checks only the "not none" half.
//! - Mistral's lenient shapes that the strict render never emits (e.g. `image_url` as a bare
//!   string) stay OAC-STRUCT errors.

mod content;
mod ids;
mod order;
mod tool_runs;

use serde_json::Value;

use crate::providers::openai_chat::validate::{check_dialect, forces_a_call, Dialect};
use crate::providers::openai_compatible::validate::view;
use crate::providers::validate_support::Findings;
use crate::providers::Violation;

use content::{check_mis_04_content_or_calls, check_thinking_chunks};
use ids::check_mis_01_ids;
use order::{check_mis_02_tool_user_order, check_mis_05_last_role};
use tool_runs::{check_mis_03_call_count, check_mis_06_tool_names};

/// The OAC checks with Mistral's exceptions (thinking parts, array content beside tool calls).
const DIALECT: Dialect = Dialect {
    extra_assistant_part_types: &["thinking"],
    array_content_with_tool_calls: true,
    tool_choice_values: &["auto", "none", "any", "required"],
    no_stop_for_fixed_sampling: false,
    ..Dialect::OPENAI
};

/// Checks a Mistral chat request body against OAC (with Mistral's exceptions) and MIS-01 ..
/// MIS-06 (see the module documentation). Returns the violations in document order; an empty
/// list means the body passes.
///
/// ```
/// use turnwire::providers::mistral::validate::validate;
/// let body = serde_json::json!({"model": "mistral-large-latest", "messages": [
///     {"role": "user", "content": "list files"},
///     {"role": "assistant", "content": null, "tool_calls": [
///         {"id": "call_PTLP8xhu3uwZk4l3nlnrrJha", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
///     ]},
///     {"role": "tool", "name": "ls", "tool_call_id": "call_PTLP8xhu3uwZk4l3nlnrrJha", "content": "a.txt"}
/// ]});
/// assert!(validate(&body).iter().any(|v| v.rule == "MIS-01"));
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    check_dialect(body, &DIALECT, &mut out);
    let msgs = view::messages(body);
    check_mis_01_ids(&msgs, &mut out);
    check_mis_02_tool_user_order(&msgs, &mut out);
    check_mis_03_call_count(&msgs, &mut out);
    check_mis_04_content_or_calls(&msgs, &mut out);
    check_mis_05_last_role(body, &msgs, &mut out);
    check_mis_06_tool_names(&msgs, &mut out);
    check_thinking_chunks(&msgs, &mut out);
    check_mis_08_forced_choice_with_format(body, &mut out);
    check_mis_09_effort(body, &mut out);
    out.finish(body)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    crate::providers::openai_chat::validate::envelope_with(body, &DIALECT, |b, out| {
        check_mis_08_forced_choice_with_format(b, out);
        check_mis_09_effort(b, out);
    })
}

/// `MIS-09` (docs/provider-rules-added.md): `reasoning_effort` only on the models with
/// adjustable reasoning (Medium 3.5, Small 4: the capability table), and only `none` or
/// `high`.
fn check_mis_09_effort(body: &Value, out: &mut Findings) {
    let Some(effort) = body.get("reasoning_effort") else {
        return;
    };
    let model = view::model_lower(body);
    let levels =
        crate::models::capabilities_or_defaults(crate::vocab::Provider::Mistral, &model).efforts;
    let path = crate::providers::validate_support::Path::root().k("reasoning_effort");
    if levels.is_empty() {
        out.push(
            "MIS-09",
            path,
            "reasoning_effort is not enabled for this model",
        );
    } else if !effort.as_str().is_some_and(|e| levels.contains(&e)) {
        out.push(
            "MIS-09",
            path,
            format!("reasoning_effort must be one of: {}", levels.join(", ")),
        );
    }
}

/// `MIS-08` (docs/provider-rules-added.md): with a `response_format`, `tool_choice` may only be
/// `auto` or `none`. (Mistral's exact text was not captured; the message is ours.)
fn check_mis_08_forced_choice_with_format(body: &Value, out: &mut Findings) {
    let Some(obj) = body.as_object() else { return };
    if obj.contains_key("response_format") && forces_a_call(obj) == Some(true) {
        out.push(
            "MIS-08",
            crate::providers::validate_support::Path::root().k("tool_choice"),
            "tool_choice must be auto or none when response_format is set",
        );
    }
}
