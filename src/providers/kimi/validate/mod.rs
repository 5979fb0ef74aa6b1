//! Strict validator for Kimi / Moonshot chat request bodies (provider-rules.md §6 on top of §2).
//!
//! [`validate_with`] runs every OpenAI Chat check (OAC rule ids, `OAC-STRUCT` for shape errors)
//! with Kimi's exceptions, then Kimi's own rules, and reports all in document order.
//! [`validate`] does the same and infers from the body whether the model thinks.
//!
//! Checked from one body:
//!
//! - `OAC-STRUCT`, `OAC-01`, `OAC-02`, `OAC-04` .. `OAC-09` — as for OpenAI Chat (see
//!   [`openai_chat::validate`](crate::providers::openai_chat::validate)).
//! - `KIM-01` every `tool_calls[].id` is `functions.{name}:{idx}`, `{name}` the call's function
//!   name and `{idx}` a non-negative integer; the index is a counter across the conversation, so
//!   no two calls share it; every `tool_call_id` has the same format (tool messages echo the
//!   call's id verbatim; that it equals a call id is OAC-01's). Rewritten ids do not 400 but make
//!   the model stop calling tools (evidence level: client), so the messages are ours.
//! - `KIM-02` is the OpenAI pairing rule and is reported as `OAC-01`/`OAC-02` (Kimi's text is
//!   OpenAI's: `… The following tool_call_ids did not have response messages: Agent:0`).
//! - `KIM-03` in thinking mode every assistant message with `tool_calls` carries a string
//!   `reasoning_content` (an empty string counts as present): `thinking is enabled but
//!   reasoning_content is missing in assistant tool call message at index …`. A non-string
//!   `reasoning_content` is `KIM-03` there and `OAC-STRUCT` elsewhere.
//! - `KIM-04` tool-call ids are unique in the request: `tool call id grep:3 is duplicated`
//!   (reported besides OAC-09, which says the same for OpenAI).
//! - `KIM-06` (docs/provider-rules-added.md) every `tool_call_id` is non-empty and names a call
//!   made earlier in the history: `Invalid request: tool_call_id  is not found` (reported
//!   besides OAC-01 / OAC-04, which say the same in OpenAI's words).
//! - `KIM-10` `thinking.keep` (`null` or `"all"`) only for K2.6, and never `thinking` together
//!   with `reasoning_effort`: `cannot specify both 'thinking' and 'reasoning_effort'`.
//! - `KIM-11` Kimi K3 takes no `thinking` parameter and `reasoning_effort` only `low`, `high`
//!   or `max`; a model that always thinks (K2.7 code models, K3, `*-thinking`) refuses
//!   `"thinking": {"type": "disabled"}` (texts not captured: ours).
//!
//! Exceptions to the OAC rules:
//!
//! - `OAC-03` (ids at most 40 characters) is off: Kimi's native ids embed the function name
//!   (up to 64 characters), so `functions.{name}:{idx}` can exceed 40 and Kimi itself returns
//!   such ids. KIM-01 constrains ids instead.
//! - `reasoning_content` on assistant messages is accepted (the OAC checks do not reject unknown
//!   message members, so this needs no relaxation).
//!
//! Not checkable from one body:
//!
//! - Whether `reasoning_content` is the model's own reasoning for that turn (replaying another
//!   provider's reasoning is a render rule, X5) — only presence and type are checked.
//! - Whether the model thinks when the body does not say (see [`validate`]).

mod ids;
mod params;
mod reasoning;
mod results;

use serde_json::Value;

use crate::providers::openai_chat::validate::{check_dialect, forces_a_call, Dialect};
use crate::providers::openai_compatible::validate::view;
use crate::providers::validate_support::Findings;
use crate::providers::Violation;
use crate::vocab::Provider;

use ids::check_kim_01_04_ids;
use params::check_kim_10_11_thinking_params;
use reasoning::{check_kim_03_reasoning_content, thinking_from_body};
use results::check_kim_06_tool_call_id_found;

/// The OAC checks with OAC-03 off (Kimi ids are checked by KIM-01).
const DIALECT: Dialect = Dialect {
    oac_03_id_length: false,
    max_stop: Provider::Kimi.max_stop_sequences(),
    max_stop_bytes: Provider::Kimi.stop_limits().1,
    no_stop_for_fixed_sampling: false,
    ..Dialect::OPENAI
};

/// Checks a Kimi chat request body, inferring thinking mode from the body: the model thinks when
/// its name contains `thinking` (`kimi-k2-thinking`); otherwise when the body sends
/// `"thinking": {"type": "enabled"}`; not when it sends `"thinking": {"type": "disabled"}`; not
/// when the capability table knows the model as one that does not think (its row accepts
/// `reasoning_content` without requiring it: `kimi-k2-0711-preview`, `kimi-k2-0905-preview`,
/// `kimi-k2-turbo-preview`), whatever its messages carry; otherwise when the model thinks by
/// default (`k2.5`, `k2.6`, `k2.7`, `kimi-k3` in its name) or any assistant message carries
/// `reasoning_content` (a model the table does not single out).
///
/// ```
/// use turnwire::providers::kimi::validate::validate;
/// let body = serde_json::json!({"model": "kimi-k2-thinking", "messages": [
///     {"role": "user", "content": "list files"},
///     {"role": "assistant", "content": null, "tool_calls": [
///         {"id": "functions.ls:0", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
///     ]},
///     {"role": "tool", "tool_call_id": "functions.ls:0", "content": "a.txt"}
/// ]});
/// assert_eq!(validate(&body)[0].rule, "KIM-03");
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    validate_with(body, thinking_from_body(body))
}

/// Checks a Kimi chat request body against OAC (with Kimi's exceptions), KIM-01 .. KIM-04 and
/// KIM-06; `thinking` says whether the model runs in thinking mode (KIM-03). Returns the
/// violations in document order; an empty list means the body passes.
pub fn validate_with(body: &Value, thinking: bool) -> Vec<Violation> {
    let mut out = Findings::default();
    check_dialect(body, &DIALECT, &mut out);
    let msgs = view::messages(body);
    check_kim_01_04_ids(&msgs, &mut out);
    check_kim_03_reasoning_content(&msgs, thinking, &mut out);
    check_kim_06_tool_call_id_found(&msgs, &mut out);
    check_kim_09_forced_choice(body, thinking, &mut out);
    check_kim_10_11_thinking_params(body, &mut out);
    out.finish(body)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    let thinking = thinking_from_body(body);
    crate::providers::openai_chat::validate::envelope_with(body, &DIALECT, |b, out| {
        check_kim_09_forced_choice(b, thinking, out);
        check_kim_10_11_thinking_params(b, out);
    })
}

/// `KIM-09` (docs/provider-rules-added.md): with thinking on, `tool_choice` may not force a
/// call (`required`, a named function).
fn check_kim_09_forced_choice(body: &Value, thinking: bool, out: &mut Findings) {
    let Some(obj) = body.as_object() else { return };
    if !thinking || forces_a_call(obj) != Some(true) {
        return;
    }
    let which = if obj.get("tool_choice").is_some_and(Value::is_object) {
        "specified"
    } else {
        "required"
    };
    out.push(
        "KIM-09",
        crate::providers::validate_support::Path::root().k("tool_choice"),
        format!("tool_choice '{which}' is incompatible with thinking enabled"),
    );
}

/// Whether [`validate`] treats `body` as a thinking-mode request (see there).
///
/// ```
/// use turnwire::providers::kimi::validate::infers_thinking;
/// assert!(infers_thinking(&serde_json::json!({"model": "kimi-k2.5", "messages": []})));
/// assert!(!infers_thinking(&serde_json::json!({"model": "kimi-k2.5", "thinking": {"type": "disabled"}})));
/// ```
pub fn infers_thinking(body: &Value) -> bool {
    thinking_from_body(body)
}
