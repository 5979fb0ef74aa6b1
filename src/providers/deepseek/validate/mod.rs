//! Strict validator for DeepSeek chat request bodies (provider-rules.md §7 on top of §2).
//!
//! [`validate_with`] runs every OpenAI Chat check (OAC rule ids, `OAC-STRUCT` for shape errors),
//! then DeepSeek's own rules, and reports all in document order. [`validate`] does the same and
//! infers from the body whether it is a thinking-mode request.
//!
//! Checked from one body:
//!
//! - `OAC-STRUCT`, `OAC-01` .. `OAC-09` — as for OpenAI Chat (see
//!   [`openai_chat::validate`](crate::providers::openai_chat::validate)).
//! - `DSK-01` for model `deepseek-reasoner`: user and assistant messages interleave. System and
//!   developer messages are skipped; a tool message counts as neither user nor assistant and
//!   separates its neighbours (assistant → tool → assistant is a normal tool loop). Two user or
//!   two assistant messages next to each other are reported at the second: `deepseek-reasoner
//!   does not support successive user or assistant messages (messages[1] and messages[2] in your
//!   input). …`
//! - `DSK-03` in thinking mode, every assistant message with `tool_calls` after the last user
//!   message (the current tool loop) carries a string `reasoning_content` (empty counts as
//!   present): `Missing `reasoning_content` field in the assistant message at message index 4.
//!   …`. Earlier, closed loops need none. A non-string `reasoning_content` is `DSK-03` there and
//!   `OAC-STRUCT` elsewhere.
//! - `DSK-04` is the OpenAI pairing rule and is reported as `OAC-01`/`OAC-02` (DeepSeek writes
//!   "preceding" where OpenAI writes "preceeding").
//! - `OAC-08` tightened: DeepSeek's endpoint takes text parts only. `image_url`, `input_audio`
//!   and `file` parts in user messages and `refusal` parts in assistant messages are reported with
//!   DeepSeek's `Failed to deserialize the JSON body into the target type: messages[1]: unknown
//!   variant `image_url`, expected `text`` (jxxghp/MoviePilot#5863, rikkahub/rikkahub#1433 for
//!   V4, lessweb/deepcode-cli#50; not yet in provider-rules.md).
//!
//! - `DSK-06` (docs/provider-rules-added.md) for models that take no prefill (`deepseek-reasoner`,
//!   from the capability table in [`crate::models`]): the last message is a user (or tool)
//!   message, or an assistant message with `"prefix": true` (beta endpoint): `The last message
//!   of deepseek-reasoner must be a user message, or an assistant message with prefix mode on
//!   …`.
//!
//! - `DSK-10` (docs/provider-rules-added.md) `reasoning_effort` is one DeepSeek documents:
//!   `high` or `max`, with `low` / `medium` taken as `high` and `xhigh` as `max` (text ours).
//!
//! Exceptions to the OAC rules: none are relaxed. `reasoning_content` on assistant messages is
//! accepted (the OAC checks do not reject unknown message members).
//!
//! Not checked:
//!
//! - `DSK-02` (R1 era: `reasoning_content` in input messages returns 400) is superseded by
//!   DSK-03 — current DeepSeek accepts it everywhere and needs it in thinking-mode tool loops —
//!   so sending it back is never reported.
//! - Whether `reasoning_content` is DeepSeek's own reasoning for that turn, and whether V4
//!   accepts `""` for foreign history (provider-rules.md §10): presence and type only.
//! - Whether V4 also wants `reasoning_content` on tool-call turns of earlier, closed loops: only
//!   the current loop is required (the thinking-mode guide drops earlier reasoning).

mod alternation;
mod content;
mod prefill;
mod reasoning;

use serde_json::Value;

use crate::providers::openai_chat::validate::{check_dialect, forces_a_call, Dialect};
use crate::providers::openai_compatible::validate::view;
use crate::providers::validate_support::Findings;
use crate::providers::Violation;
use crate::vocab::Provider;

use alternation::check_dsk_01_alternation;
use content::check_text_only_parts;
use prefill::check_dsk_06_last_message;
use reasoning::{
    check_dsk_03_reasoning_content, check_dsk_10_effort, is_reasoner, thinking_from_body,
};

/// The OAC checks as DeepSeek applies them: up to 16 stop sequences.
const DIALECT: Dialect = Dialect {
    max_stop: Provider::DeepSeek.max_stop_sequences(),
    no_stop_for_fixed_sampling: false,
    ..Dialect::OPENAI
};

/// Checks a DeepSeek chat request body, inferring thinking mode from the body: on for model
/// `deepseek-reasoner`; otherwise on with `"thinking": {"type": "enabled"}` and off with
/// `"thinking": {"type": "disabled"}`; otherwise on for V4 (`deepseek-v4-flash`,
/// `deepseek-v4-pro` think by default, DSK-10) and for a `v3.2` model whose history carries
/// `reasoning_content`.
///
/// ```
/// use turnwire::providers::deepseek::validate::validate;
/// let body = serde_json::json!({"model": "deepseek-reasoner", "messages": [
///     {"role": "user", "content": "hi"},
///     {"role": "user", "content": "are you there?"}
/// ]});
/// assert_eq!(validate(&body)[0].rule, "DSK-01");
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    validate_with(body, thinking_from_body(body))
}

/// Checks a DeepSeek chat request body against OAC and DSK-01/03/04/06; `thinking` says whether the
/// request runs in thinking mode (DSK-03). DSK-01 follows the model name. Returns the violations
/// in document order; an empty list means the body passes.
pub fn validate_with(body: &Value, thinking: bool) -> Vec<Violation> {
    let mut out = Findings::default();
    check_dialect(body, &DIALECT, &mut out);
    let msgs = view::messages(body);
    if is_reasoner(body) {
        check_dsk_01_alternation(&msgs, &mut out);
    }
    check_dsk_03_reasoning_content(&msgs, thinking, &mut out);
    check_dsk_07_forced_choice(body, thinking, &mut out);
    check_dsk_09_no_json_schema(body, &mut out);
    check_dsk_10_effort(body, &mut out);
    check_text_only_parts(&msgs, &mut out);
    check_dsk_06_last_message(body, &msgs, &mut out);
    out.finish(body)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    let thinking = thinking_from_body(body);
    crate::providers::openai_chat::validate::envelope_with(body, &DIALECT, |b, out| {
        check_dsk_07_forced_choice(b, thinking, out);
        check_dsk_09_no_json_schema(b, out);
        check_dsk_10_effort(b, out);
    })
}

/// `DSK-07` (docs/provider-rules-added.md): thinking mode takes only `auto` or `none` as
/// `tool_choice`. Thinking is on when the body says so, for `deepseek-reasoner`, and for a
/// model that thinks by default (the capability table) unless the body switches it off.
fn check_dsk_07_forced_choice(body: &Value, thinking: bool, out: &mut Findings) {
    let Some(obj) = body.as_object() else { return };
    if forces_a_call(obj) != Some(true) {
        return;
    }
    let switched_off = body.pointer("/thinking/type").and_then(Value::as_str) == Some("disabled");
    let model = body
        .get("model")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let by_default =
        crate::models::capabilities_or_defaults(crate::vocab::Provider::DeepSeek, model)
            .reasoning_field
            == crate::models::ReasoningField::RequiredOnToolTurns;
    if thinking || (by_default && !switched_off) || is_reasoner(body) {
        out.push(
            "DSK-07",
            crate::providers::validate_support::Path::root().k("tool_choice"),
            "Thinking mode does not support this tool_choice",
        );
    }
}

/// `DSK-09` (docs/provider-rules-added.md): Chat Completions takes `text` and `json_object`
/// response formats only.
fn check_dsk_09_no_json_schema(body: &Value, out: &mut Findings) {
    if body
        .pointer("/response_format/type")
        .and_then(Value::as_str)
        == Some("json_schema")
    {
        out.push(
            "DSK-09",
            crate::providers::validate_support::Path::root()
                .k("response_format")
                .k("type"),
            "This response_format type is unavailable now",
        );
    }
}

/// Whether [`validate`] treats `body` as a thinking-mode request (see there).
///
/// ```
/// use turnwire::providers::deepseek::validate::infers_thinking;
/// assert!(infers_thinking(&serde_json::json!({"model": "deepseek-reasoner"})));
/// assert!(!infers_thinking(&serde_json::json!({"model": "deepseek-chat"})));
/// ```
pub fn infers_thinking(body: &Value) -> bool {
    thinking_from_body(body)
}
