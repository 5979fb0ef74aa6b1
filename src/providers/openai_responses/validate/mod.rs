//! Strict validator for OpenAI Responses API request bodies (provider-rules.md §3).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order. Rule ids are the ones of provider-rules.md; `ORS-STRUCT` marks plain shape errors.
//!
//! Checked from one body:
//!
//! - `ORS-STRUCT` — body is an object; `model` a non-empty string; `input` a non-empty array of
//!   items (a non-empty string `input` is accepted: it holds no history to check); known item
//!   types (`message`, `function_call`, `function_call_output`, `reasoning`, `item_reference`;
//!   built-in tool items are accepted without deeper checks) with only their own fields
//!   (`Unknown parameter`); message roles `user`/`assistant`/`system`/`developer` (a message
//!   may omit `type`); part types by role (user/system/developer: `input_text`, `input_image`
//!   with `image_url` or `file_id`, `input_file`; assistant: `output_text`, `refusal`); only
//!   assistant messages carry an `id`; `function_call.arguments` a string holding JSON;
//!   reasoning items carry an `id` and a `summary` array of `summary_text` parts; function names
//!   in `tools` and on `function_call` items match `^[a-zA-Z0-9_-]{1,64}$` (the OAC-05 wording)
//!   and tool names are unique; `call_id`s unique among `function_call` items (duplicates make
//!   pairing ambiguous) and at most one output per call; no empty text (`""` content, text,
//!   refusal or output string, empty content arrays); `instructions` a string, `store` a boolean,
//!   `reasoning.effort`/`summary` known values, `include` an array of strings,
//!   `max_output_tokens` ≥ 16.
//! - `ORS-01` every `function_call_output.call_id` matches an earlier `function_call` in `input`.
//!   With `previous_response_id` the call may live in the previous response: unmatched ids are
//!   then not reported.
//! - `ORS-02` every `function_call` has its output in `input` (OpenAI's own rule) and, strictly,
//!   before the next message item: the outputs of a run of calls follow the run, before any
//!   message (user, assistant, system or developer) or the end of input.
//! - `ORS-03` a reasoning item is immediately followed by an assistant message or a
//!   `function_call` (or a built-in tool call) — not by another reasoning item, a
//!   user/system/developer message or an output, and it is not the last item.
//! - `ORS-04` a `function_call` with an `fc_` id has a reasoning item before it in its run of
//!   calls (strict: the `fc_` id is sent only together with its reasoning item).
//! - `ORS-05` with `store: false` (only when `store` is explicitly `false`; the API defaults to
//!   `true`): no `item_reference` items, and every reasoning item carries a non-empty
//!   `encrypted_content`.
//! - `ORS-07` item ids begin with their type's prefix: reasoning `rs_`, `function_call` `fc_`,
//!   message `msg_`.
//! - `ORS-08` `call_id` present, non-empty and at most 64 characters (calls and outputs).
//! - `ORS-09` `function_call_output.output` arrays hold complete `input_text` (string `text`),
//!   `input_image` (`image_url` or `file_id`) and `input_file` (`file_data`, `file_id` or
//!   `file_url`) parts, and are not empty.
//! - `ORS-10` strict adjacency: no message item between a `function_call` and its output (the
//!   same defect is also reported by `ORS-02` at the call, as `OAC-01`/`OAC-02` both report a
//!   late Chat Completions result).
//!
//! Rules of `docs/provider-rules-added.md`:
//!
//! - `ORS-12` input item ids are unique: `Duplicate item found with id msg_4. Remove duplicate
//!   items from your input and try again.`
//! - `ORS-13` assistant message parts are `output_text` or `refusal`: `Invalid value:
//!   'input_text'. Supported values are: 'output_text' and 'refusal'.` (other roles' wrong part
//!   types stay `ORS-STRUCT`).
//! - `ORS-14` … `ORS-16` request controls (tool choice, no stop, `text.format`): see `controls`.
//! - `ORS-17` `prompt_cache_key` is a string of at most 64 characters (the text of `OAC-20`).
//! - `ORS-18` a message's `phase` is `commentary` or `final_answer`.
//! - `ORS-19` the client-tool items (`custom_tool_call`, `apply_patch_call`, `shell_call`,
//!   `local_shell_call`, `tool_search_call`, `program` and their outputs) in the shapes of the
//!   SDK's types (`ORS-STRUCT`), paired like function calls (`ORS-01`/`ORS-02`), each answered
//!   by its own output type, and their ids with the type's prefix: `Invalid 'input[49].id':
//!   'fc_1w8xjn5yx1c0y'. Expected an ID that begins with 'ctc'.` (`apc` for
//!   `apply_patch_call`).
//! - `ORS-21` `prompt_cache_options` (`mode` `implicit`/`explicit`, `ttl` `30m`) and
//!   `prompt_cache_breakpoint: {"mode": "explicit"}` (on `input_text`, `input_image`,
//!   `input_file` parts) only for gpt-5.6 and later, at most four breakpoints (strict: the API
//!   writes the latest four), and not together with the deprecated `prompt_cache_retention`.
//! - `ORS-22` `reasoning.effort` is one of the model's levels (`max` from gpt-5.6 on), the
//!   text of `OAC-11` with `'reasoning.effort'`.
//! - `ORS-20` `compaction` items carry their `encrypted_content` (`ORS-STRUCT`; whether it
//!   verifies for this account is not checkable from one body).
//!
//! Not checkable from one body:
//!
//! - `ORS-06` `encrypted_content` is valid only for the account (organisation) and model family
//!   that produced it; checking it needs OpenAI's keys.
//! - `ORS-01` for ids answered by `previous_response_id` chains, `ORS-05` for ids that the
//!   server may or may not hold with `store: true`, and whether a reasoning item's following
//!   item is the very one it was produced with (the API pairs them by server-side ids): all need
//!   server-side state.
//! - Names on `function_call` items are not checked against `tools` (the API does not require
//!   replayed calls to be declared).

pub(crate) mod cache;
mod client_items;
mod content;
mod controls;
mod item_ids;
mod items;
mod names;
mod pairing;
mod reasoning;
mod shape;
mod structure;

use serde_json::Value;

use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;
use controls::{check_ors_14_tool_choice, check_ors_15_no_stop, check_ors_16_text_format};

use item_ids::check_ors_12_unique_item_ids;
use items::parse_input;
use pairing::{check_ors_01_02_10_pairing, check_unique_call_ids};
use reasoning::{
    check_ors_03_reasoning_followed, check_ors_04_fc_id_needs_reasoning, check_ors_05_unstored,
};
use shape::check_item;
use structure::check_top_level;

/// Rule id for plain shape errors.
const STRUCT: &str = "ORS-STRUCT";

/// Checks an OpenAI Responses request body against every rule of provider-rules.md §3 that can
/// be checked from one body (see the module documentation). Returns the violations in document
/// order; an empty list means the body passes.
///
/// ```
/// use turnwire::providers::openai_responses::validate::validate;
/// let body = serde_json::json!({
///     "model": "gpt-5",
///     "input": [{"type": "message", "role": "user", "content": "hi"}]
/// });
/// assert!(validate(&body).is_empty());
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    let Some(obj) = body.as_object() else {
        out.push(STRUCT, Path::root(), "request body must be a JSON object");
        return out.finish(body);
    };
    let settings = check_envelope(obj, &mut out);
    if let Some(items) = parse_input(obj, &mut out) {
        for item in &items {
            check_item(item, &mut out);
        }
        check_unique_call_ids(&items, &mut out);
        check_ors_12_unique_item_ids(&items, &mut out);
        check_ors_01_02_10_pairing(&items, settings.chained, &mut out);
        check_ors_03_reasoning_followed(&items, &mut out);
        check_ors_04_fc_id_needs_reasoning(&items, &mut out);
        check_ors_05_unstored(&items, settings.store_false, &mut out);
        cache::check_breakpoints(obj, &cache::RESPONSES, &mut out);
    }
    out.finish(body)
}

/// The rules on everything but `input` (what `providerOptions` can change).
fn check_envelope(obj: &serde_json::Map<String, Value>, out: &mut Findings) -> structure::Settings {
    let settings = check_top_level(obj, out);
    check_ors_14_tool_choice(obj, out);
    check_ors_15_no_stop(obj, out);
    check_ors_16_text_format(obj, out);
    crate::providers::openai_chat::validate::check_prompt_cache_key(obj, "ORS-17", out);
    cache::check_prompt_cache_options(obj, &cache::RESPONSES, out);
    settings
}

/// [`validate`]'s rules on everything but `input`.
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    if let Some(obj) = body.as_object() {
        check_envelope(obj, &mut out);
    }
    out.finish(body)
}
