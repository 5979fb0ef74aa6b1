//! Strict validator for Anthropic Messages request bodies (provider-rules.md §1).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order. Rule ids are the ones of provider-rules.md; `ANT-STRUCT` marks plain shape errors
//! (wrong types, missing fields, unknown roles or block types).
//!
//! Checked from one body:
//!
//! - `ANT-STRUCT` — body is an object; `model` a non-empty string; `max_tokens` a positive
//!   integer; `thinking` is `enabled` (integer `budget_tokens` ≥ 1024 and below `max_tokens`),
//!   `adaptive` or `disabled`; `system` a string or text blocks; `tools[]` have a `name` and (for
//!   custom tools) an `input_schema` object; `messages` a non-empty array of `user`/`assistant`
//!   messages whose content is a string or an array of known blocks with the right fields.
//! - `ANT-01` first message is `user`. `ANT-02` roles alternate.
//! - `ANT-03` each `tool_result` answers a `tool_use` of the immediately previous assistant
//!   message (also: `tool_result` inside an assistant message).
//! - `ANT-04` each `tool_use` is answered in the very next message, which is a user message
//!   (also: a request ending on an assistant `tool_use`; `tool_use` inside a user message).
//! - `ANT-05` after `tool_use`, the user message starts with its `tool_result` blocks.
//! - `ANT-06` at most one `tool_result` per `tool_use` id in a message (a late duplicate in a
//!   later message is reported by `ANT-03`).
//! - `ANT-07` `tool_use` ids unique across the request.
//! - `ANT-08` `tool_use.id` / `tool_result.tool_use_id` match `^[a-zA-Z0-9_-]{1,64}$`;
//!   `server_tool_use.id` matches `^srvtoolu_[a-zA-Z0-9_]+$`.
//! - `ANT-09` no empty or whitespace-only text (text blocks, text inside `tool_result`, system
//!   text blocks, string `content`, string `tool_result` content) and no empty content array.
//! - `ANT-10` thinking on and the request ends in an open tool loop (last message: a user message
//!   with `tool_result` blocks): the final assistant message starts with `thinking` or
//!   `redacted_thinking`. Earlier, closed loops need no thinking.
//! - `ANT-11` an assistant message holding thinking starts with it (also: thinking blocks inside
//!   a user message).
//! - `ANT-13` `thinking` blocks carry a non-empty string `signature`; `ANT-51` (issue 31) not
//!   another provider's (a UUID: DeepSeek's Anthropic-compatible endpoint).
//! - `ANT-15` thinking off: a final assistant message holds no thinking.
//! - `ANT-16` an assistant message does not end with a thinking block.
//! - `ANT-17` `redacted_thinking` carries non-empty string `data`.
//! - `ANT-18` at most 4 `cache_control` markers across tools, system and messages (nested
//!   `tool_result` content included) and the request's automatic one (top-level).
//! - `ANT-19` images (also inside `tool_result`): media type jpeg/png/gif/webp; base64 alphabet and
//!   padding; decoded size ≤ 5 MB; leading bytes match the declared media type.
//! - `ANT-20` declared tool names match `^[a-zA-Z0-9_-]{1,64}$` and are unique; when `tools` is
//!   sent, every `tool_use.name` in history is a declared name.
//!
//! Rules of `docs/provider-rules-added.md`:
//!
//! - `ANT-23` a final assistant message (a prefill) does not end with whitespace: `messages:
//!   final assistant content cannot end with trailing whitespace`.
//! - `ANT-24` for models that take no prefill (Claude 4.6 and later, from the capability table
//!   in [`crate::models`], read from the body's `model`): the request ends with a user message.
//! - `ANT-25` `role: "system"` messages inside `messages`: only on models that take them (`role
//!   'system' is not supported on this model`), after a user message, before an assistant
//!   message or at the end (`messages.N: role 'system' must precede an 'assistant' message or
//!   end the array`), holding text (and tool-change) blocks; never first (ANT-01).
//! - `ANT-26` `tool_use.input` is a JSON object: `messages.1.content.0.tool_use.input: Input
//!   should be a valid dictionary`.
//! - `ANT-27` no `cache_control` on an empty text block: `system.0: cache_control cannot be set
//!   for empty text blocks`.
//! - `ANT-28` no `ttl: "1h"` mark after a `5m` one (a mark without `ttl` is `5m`), in the order
//!   tools, system, messages.
//! - `ANT-36` … `ANT-39` request controls (tool choice, stop sequences, structured output):
//!   see `controls`.
//! - `ANT-34` the thinking switch the body's model takes (capability table): `enabled` with a
//!   budget up to Claude 4.5, also `adaptive` for Opus 4.6 and Sonnet 4.6, only `adaptive` from
//!   Opus 4.7 and Claude 5: `"thinking.type.enabled" is not supported for this model. …`,
//!   `adaptive thinking is not supported on this model`.
//! - `ANT-41` `output_config.effort` only on models that take it, at a level they take: `This
//!   model does not support the effort parameter.`
//! - `ANT-40` a `cache_control` mark is `{"type": "ephemeral", "ttl"?: "5m" | "1h"}` on a tool,
//!   a system text block, a content block that is not thinking, or the request itself (the
//!   automatic breakpoint); never on a message object.
//! - `ANT-46` a `clear_thinking_*` context edit needs thinking on (`` `clear_thinking_20251015`
//!   strategy requires `thinking` to be enabled or adaptive ``) and comes first in
//!   `context_management.edits`.
//! - `ANT-43` a replayed `fallback` block names `from.model` and `to.model`, in an assistant
//!   message; `ANT-44` a replayed `compaction` block has no `encrypted_content`
//!   (`messages.N.content.M.compaction.encrypted_content: Extra inputs are not permitted`) and
//!   no empty `content`.
//! - `ANT-45` no forced `tool_choice` (`tool`, `any`) on the models that refuse one (Fable
//!   5.1, Mythos 5.1): `tool_choice: type "tool" and "any" are not supported for this model.`
//! - `ANT-47` a `web_search_result_location` citation on a text block keeps its
//!   `encrypted_index` (and `cited_text`, `url`): `…citations.0.web_search_result_location.
//!   encrypted_index: Field required`.
//! - `ANT-52` `thinking.block_binding` only on an `enabled` / `adaptive` config of a model that
//!   binds thinking (Fable 5.1, …), with `prefix_mismatch_behavior` `error` | `drop_block`, and
//!   (when the headers are known, [`validate_with_headers`]) the
//!   `thinking-binding-controls-2026-08-01` beta: else `thinking.adaptive.block_binding: Extra
//!   inputs are not permitted`.
//! - `ANT-53` a `tool_addition` / `tool_removal` naming a tool, and a `tool_reference` in a tool
//!   result, name a tool declared in `tools` or added with its definition before it
//!   (`tool_reference_unresolved`); `ANT-54` not every tool has `defer_loading: true` (`All tools
//!   cannot be deferred` [inferred]).
//! - `ANT-42` the header params (`betas`, `user_profile_id`, `workspace_id`) are not body
//!   fields: `betas: Extra inputs are not permitted`.
//!
//! Not checkable from one body:
//!
//! - `ANT-12` a signature is valid only for the provider, model, conversation and system prompt
//!   that produced it; checking it needs Anthropic's key and the original response. On the
//!   models that bind thinking (ANT-52) a block whose prefix changed fails with ``messages.N.
//!   content.M: Invalid `signature` in `thinking` block. The block is bound to a different
//!   conversation. …`` unless `drop_block` is set: a body does not show what its prefix was, so
//!   the render reports the repairs that changed it (`thinking_prefix_changed`).
//! - `ANT-14` immutability of the latest assistant message's thinking needs the original response
//!   to compare against.
//! - `ANT-21` is a Bedrock (Converse) rule; this validator checks the first-party body.
//! - `ANT-19` image dimensions (≤ 8000 px) would need image decoding; not checked.

mod binding;
mod blocks;
mod cache;
mod content;
mod context_edits;
mod controls;
mod forced_choice;
mod header_params;
mod images;
mod message;
mod names;
mod prefill;
mod roles;
mod structure;
mod system_messages;
mod thinking;
mod thinking_mode;
mod tool_changes;
mod tool_pairing;

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;

use binding::check_ant_52_block_binding;
use blocks::check_message_blocks;
use cache::check_cache_marks;
use context_edits::check_ant_46_context_edits;
use controls::{check_ant_38_stop_sequences, check_ant_39_output_format, check_tool_choice};
use forced_choice::check_ant_45_forced_choice;
use header_params::check_ant_42_header_params;
use message::parse_messages;
use names::check_ant_20_history_names;
use prefill::{check_ant_23_prefill_whitespace, check_ant_24_no_prefill};
use roles::{check_ant_01_first_user, check_ant_02_alternation};
use structure::{check_max_tokens, check_model, check_system, check_thinking_config, check_tools};
use system_messages::check_ant_25_system_messages;
use thinking::{
    check_ant_10_open_loop_starts_with_thinking, check_ant_11_thinking_first,
    check_ant_15_final_thinking_when_off, check_ant_16_not_ending_with_thinking,
};
use thinking_mode::check_ant_34_41_thinking_mode;
use tool_changes::{check_ant_53_tool_references, check_ant_54_not_all_deferred};
use tool_pairing::{
    check_ant_03_results_answer_previous, check_ant_04_uses_answered_next,
    check_ant_05_results_first, check_ant_06_one_result_per_use, check_ant_07_unique_tool_use_ids,
};

/// Rule id for plain shape errors.
const STRUCT: &str = "ANT-STRUCT";

/// The rules on everything but the history (`messages`): what `providerOptions` can change.
/// Returns the declared tool names and whether thinking is on, which the history's rules use.
fn check_envelope<'a>(
    obj: &'a Map<String, Value>,
    betas: Option<&[&str]>,
    out: &mut Findings,
) -> (Option<HashSet<&'a str>>, bool) {
    check_model(obj, out);
    let max_tokens = check_max_tokens(obj, out);
    let thinking_on = check_thinking_config(obj, max_tokens, out);
    check_system(obj, out);
    let declared = check_tools(obj, out);
    check_tool_choice(obj, declared.as_ref(), thinking_on, out);
    check_ant_38_stop_sequences(obj, out);
    check_ant_39_output_format(obj, out);
    check_ant_34_41_thinking_mode(obj, out);
    check_ant_42_header_params(obj, out);
    check_ant_45_forced_choice(obj, out);
    check_ant_46_context_edits(obj, thinking_on, out);
    check_ant_52_block_binding(obj, betas, out);
    check_ant_54_not_all_deferred(obj, out);
    (declared, thinking_on)
}

/// [`validate`]'s rules on everything but the history (see `check_envelope`).
pub(crate) fn validate_envelope(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    if let Some(obj) = body.as_object() {
        check_envelope(obj, None, &mut out);
        check_cache_marks(obj, &mut out);
    }
    out.finish(body)
}

/// Checks an Anthropic Messages request body against every rule of provider-rules.md §1 that
/// can be checked from one body (see the module documentation). Returns the violations in
/// document order; an empty list means the body passes.
///
/// ```
/// use turnwire::providers::anthropic::validate::validate;
/// let body = serde_json::json!({
///     "model": "claude-sonnet-4-5", "max_tokens": 64,
///     "messages": [{"role": "user", "content": "hi"}]
/// });
/// assert!(validate(&body).is_empty());
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    validate_sent(body, None)
}

/// [`validate`] for a body sent with `headers` (header → value, as [`crate::Rendered`] has
/// them): also the rules on what the body needs in its headers (ANT-52: the
/// `thinking-binding-controls-2026-08-01` beta for `thinking.block_binding`).
///
/// ```
/// use turnwire::providers::anthropic::validate::validate_with_headers;
/// let body = serde_json::json!({
///     "model": "claude-fable-5-1", "max_tokens": 64,
///     "thinking": {"type": "adaptive", "block_binding": {"prefix_mismatch_behavior": "drop_block"}},
///     "messages": [{"role": "user", "content": "hi"}]
/// });
/// let v = validate_with_headers(&body, &[]);
/// assert_eq!(v[0].message, "thinking.adaptive.block_binding: Extra inputs are not permitted");
/// let beta = [("anthropic-beta".to_string(), "thinking-binding-controls-2026-08-01".to_string())];
/// assert!(validate_with_headers(&body, &beta).is_empty());
/// ```
pub fn validate_with_headers(body: &Value, headers: &[(String, String)]) -> Vec<Violation> {
    let betas: Vec<&str> = headers
        .iter()
        .filter(|(h, _)| h.eq_ignore_ascii_case(crate::request::BETA_HEADER))
        .flat_map(|(_, v)| v.split(','))
        .map(str::trim)
        .collect();
    validate_sent(body, Some(&betas))
}

/// [`validate`], with the beta values sent when they are known.
fn validate_sent(body: &Value, betas: Option<&[&str]>) -> Vec<Violation> {
    let mut out = Findings::default();
    let Some(obj) = body.as_object() else {
        out.push(STRUCT, Path::root(), "request body must be a JSON object");
        return out.finish(body);
    };
    let (declared, thinking_on) = check_envelope(obj, betas, &mut out);
    if let Some(msgs) = parse_messages(obj, &mut out) {
        for (i, msg) in msgs.iter().enumerate() {
            check_message_blocks(i, msg, &mut out);
        }
        check_ant_01_first_user(&msgs, &mut out);
        check_ant_02_alternation(&msgs, &mut out);
        check_ant_03_results_answer_previous(&msgs, &mut out);
        check_ant_04_uses_answered_next(&msgs, &mut out);
        check_ant_05_results_first(&msgs, &mut out);
        check_ant_06_one_result_per_use(&msgs, &mut out);
        check_ant_07_unique_tool_use_ids(&msgs, &mut out);
        check_ant_10_open_loop_starts_with_thinking(&msgs, thinking_on, &mut out);
        check_ant_11_thinking_first(&msgs, &mut out);
        check_ant_15_final_thinking_when_off(&msgs, thinking_on, &mut out);
        check_ant_16_not_ending_with_thinking(&msgs, &mut out);
        check_ant_20_history_names(&msgs, declared.as_ref(), &mut out);
        check_ant_23_prefill_whitespace(&msgs, &mut out);
        check_ant_24_no_prefill(&msgs, obj.get("model").and_then(Value::as_str), &mut out);
        check_ant_25_system_messages(&msgs, obj.get("model").and_then(Value::as_str), &mut out);
        check_ant_53_tool_references(&msgs, declared.as_ref(), &mut out);
    }
    check_cache_marks(obj, &mut out);
    out.finish(body)
}
