//! Strict validator for Gemini generateContent request bodies (provider-rules.md §4; Google AI
//! and Vertex AI).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order; [`validate_with_model`] adds the rule that needs the model name (which travels in the
//! URL, not the body). Rule ids are the ones of provider-rules.md; `GEM-STRUCT` marks plain
//! shape errors.
//!
//! Checked from one body:
//!
//! - `GEM-STRUCT` — body is an object; `contents` an array of `{role, parts}` objects; parts are
//!   objects with only known fields (camelCase, as turnwire renders; the JSON mapping's
//!   snake_case aliases are reported as unknown names); `inlineData` `{mimeType, data}`,
//!   `fileData` `{fileUri, mimeType?}`, `functionCall` `{name, args?, id?}` only in model
//!   contents, `functionResponse` `{name, response, id?}` only in user contents, `thought` a
//!   boolean, `thoughtSignature` a string; `systemInstruction` `{parts: [text parts]}`; `tools[]`
//!   objects whose `functionDeclarations` are `{name, description?, parameters?}`;
//!   `generationConfig.thinkingConfig` field types. `executableCode` / `codeExecutionResult`
//!   parts are accepted as data parts without deeper checks.
//! - `GEM-01` a function call turn (model content with `functionCall` parts) is followed by ONE
//!   user content with exactly as many `functionResponse` parts; each response answers a
//!   distinct call — by id when ids are used (`GEM-22` when it does not), by name otherwise —
//!   and names agree. Strict: a
//!   request ending on a function call turn, or a call turn followed by a model content, is
//!   reported too (every call needs its response).
//! - `GEM-02` a function call turn comes right after a user content (text/media or function
//!   responses): not first, not after another model content.
//! - `GEM-03` a user content with `functionResponse` parts comes right after a function call
//!   turn.
//! - `GEM-04` [inferred] roles are `user` or `model` (a missing role is reported too), the first
//!   content is `user`, and no two consecutive contents share a role (strict reading: the
//!   renderer merges them). A request ending on a model content is not reported (unverified).
//! - `GEM-05` only in [`validate_with_model`] with a `gemini-3…` model (bare id, `models/…` or a
//!   longer resource name): the first `functionCall` part of every model content in the current
//!   turn (the model contents after the last user content without `functionResponse` parts)
//!   carries a non-empty part-level `thoughtSignature`. Later parallel calls need none.
//! - `GEM-06` `thoughtSignature` is a part-level sibling of `functionCall` or `text`: never
//!   nested inside `functionCall`/`functionResponse`/`inlineData`/`fileData`, never on a
//!   `functionResponse`, `inlineData`, `fileData` or code part.
//! - `GEM-09` `contents` present and non-empty; every content has a non-empty `parts` array;
//!   every part has exactly one data field (`text`, `inlineData`, `fileData`, `functionCall`,
//!   `functionResponse`); no empty or whitespace-only text part — except one carrying a
//!   `thoughtSignature`, because Gemini itself returns such signed empty parts and they must be
//!   replayed unmodified; the same on `systemInstruction` parts.
//! - `GEM-10` function names match `^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$` in declarations and in
//!   history (`functionCall.name`, `functionResponse.name`); declaration names are unique; when
//!   function declarations are sent, names in history are declared ones [inferred].
//! - `GEM-11` `functionResponse.response` is a JSON object (required); `functionCall.args`, when
//!   present, is a JSON object.
//! - `GEM-16` (docs/provider-rules-added.md) a declaration's `parameters` uses only the fields of
//!   Gemini's `Schema` (OpenAPI subset): no `additionalProperties`, `$schema`, `strict`, `$ref`…
//!   (`Invalid JSON payload received. Unknown name "additionalProperties" at '…': Cannot find
//!   field.`), string `enum` values only, `items` on every array. turnwire sends
//!   `parametersJsonSchema`, which takes full JSON Schema and is not checked.
//! - `GEM-17` `functionResponse.parts` is an array of parts holding one `inlineData` or
//!   `fileData` each, of a type Gemini 3 takes there (PNG, JPEG, WebP, PDF, plain text); with a
//!   model (in [`validate_with_model`]) older than Gemini 3, any `parts` is refused ("Multimodal
//!   function responses are not supported for this model").
//! - `GEM-22` (docs/provider-rules-added.md) where a call turn uses ids, every
//!   `functionResponse.id` is the id of a distinct call of that turn: `functionResponse.id does
//!   not match functionCall.id` (a response without an id there is reported too, [inferred]).
//!   With an endpoint (in [`validate_for_endpoint`]) that names the stable `v1` API, no
//!   `functionCall` / `functionResponse` carries an `id`: `Invalid JSON payload received.
//!   Unknown name "id" at 'contents[N].parts[M].function_call': Cannot find field.`
//! - `GEM-18` the user content answering a function call turn with two or more calls holds no
//!   `inlineData` / `fileData` part beside the responses (counted against the calls:
//!   google-gemini/gemini-cli#16135).
//!
//! Not checkable from one body:
//!
//! - `GEM-14` `thinkingLevel` and `thinkingBudget` not together: `You can only set only one of
//!   thinking budget and thinking level.`; with the model (in [`validate_with_model`]), a level
//!   only on Gemini 3 (`Thinking level is not supported for this model.`) and one it takes
//!   (`Thinking level MEDIUM is not supported for this model. Please retry with other thinking
//!   level.`).
//! - `GEM-05` in [`validate`]: whether signatures are mandatory depends on the model, which is
//!   not in the body.
//! - `GEM-07` foreign calls replayed with a dummy signature
//!   (`skip_thought_signature_validator`, `context_engineering_is_the_way_to_go`) are valid by
//!   design; any signature string passes, so there is nothing to check beyond `GEM-05`.
//! - `GEM-08` whether a signature was produced by Gemini (and is unmodified) needs Google's keys
//!   and the original response.

mod call_ids;
mod contents;
mod controls;
mod media;
mod names;
mod parts;
mod schema;
mod signatures;
mod structure;
mod thinking;
mod turns;

use serde_json::Value;

use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;

use contents::parse_contents;
use controls::{
    check_gem_15_21_json_output, check_gem_19_tool_config, check_gem_20_stop_sequences,
};
use media::{
    check_gem_17_function_response_media, check_gem_18_no_media_beside_parallel_responses,
};
use names::check_gem_10_history_names;
use signatures::{check_gem_05_current_turn_signatures, is_gemini_3};
use structure::{check_generation_config, check_system_instruction, check_tools};
use turns::{
    check_gem_01_responses_match_calls, check_gem_02_call_turn_position,
    check_gem_03_response_turn_position, check_gem_04_role_order,
};

/// Rule id for plain shape errors.
const STRUCT: &str = "GEM-STRUCT";

/// Checks a Gemini generateContent request body against every rule of provider-rules.md §4 that
/// can be checked from the body alone (`GEM-05` needs the model: see [`validate_with_model`]).
/// Returns the violations in document order; an empty list means the body passes.
///
/// ```
/// use turnwire::providers::gemini::validate::validate;
/// let body = serde_json::json!({"contents": [{"role": "user", "parts": [{"text": "hi"}]}]});
/// assert!(validate(&body).is_empty());
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    validate_with_model(body, None)
}

/// [`validate`] plus `GEM-05` when `model` (from the request URL) is a Gemini 3 model: the first
/// `functionCall` part of every model step in the current turn must carry a `thoughtSignature`.
///
/// ```
/// use turnwire::providers::gemini::validate::validate_with_model;
/// let body = serde_json::json!({"contents": [
///     {"role": "user", "parts": [{"text": "list files"}]},
///     {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]},
///     {"role": "user", "parts": [{"functionResponse": {"name": "ls", "response": {"output": "a"}}}]}
/// ]});
/// assert!(validate_with_model(&body, Some("gemini-2.5-pro")).is_empty());
/// let v = validate_with_model(&body, Some("gemini-3-pro-preview"));
/// assert_eq!(v[0].rule, "GEM-05");
/// ```
pub fn validate_with_model(body: &Value, model: Option<&str>) -> Vec<Violation> {
    validate_for_endpoint(body, model, None)
}

/// [`validate_with_model`] plus the rule that needs the endpoint the body goes to (its base URL):
/// an endpoint on the stable `v1` API takes no `functionCall.id` / `functionResponse.id`
/// (`GEM-22`).
///
/// ```
/// use turnwire::providers::gemini::validate::validate_for_endpoint;
/// let body = serde_json::json!({"contents": [
///     {"role": "user", "parts": [{"text": "list files"}]},
///     {"role": "model", "parts": [{"functionCall": {"name": "ls", "id": "k3v9", "args": {}}}]},
///     {"role": "user", "parts": [{"functionResponse": {"name": "ls", "id": "k3v9", "response": {"output": "a"}}}]}
/// ]});
/// assert!(validate_for_endpoint(&body, None, Some("https://generativelanguage.googleapis.com/v1beta")).is_empty());
/// let v = validate_for_endpoint(&body, None, Some("https://generativelanguage.googleapis.com/v1"));
/// assert_eq!((v[0].rule, v[0].path.as_str()), ("GEM-22", "$.contents[1].parts[0].functionCall.id"));
/// ```
pub fn validate_for_endpoint(
    body: &Value,
    model: Option<&str>,
    endpoint: Option<&str>,
) -> Vec<Violation> {
    let mut out = Findings::default();
    let Some(obj) = body.as_object() else {
        out.push(STRUCT, Path::root(), "request body must be a JSON object");
        return out.finish(body);
    };
    let declared = check_envelope(obj, model, &mut out);
    if let Some(contents) = parse_contents(obj, &mut out) {
        check_gem_01_responses_match_calls(&contents, &mut out);
        check_gem_02_call_turn_position(&contents, &mut out);
        check_gem_03_response_turn_position(&contents, &mut out);
        check_gem_04_role_order(&contents, &mut out);
        if model.is_some_and(is_gemini_3) {
            check_gem_05_current_turn_signatures(&contents, &mut out);
        }
        check_gem_10_history_names(&contents, declared.as_ref(), &mut out);
        check_gem_17_function_response_media(&contents, model, &mut out);
        check_gem_18_no_media_beside_parallel_responses(&contents, &mut out);
        if endpoint.is_some_and(crate::vocab::names_stable_v1) {
            call_ids::check_gem_22_no_ids_on_stable_v1(&contents, &mut out);
        }
    }
    out.finish(body)
}

/// The rules on everything but `contents` (what `providerOptions` can change); returns the
/// declared function names.
fn check_envelope<'a>(
    obj: &'a serde_json::Map<String, Value>,
    model: Option<&str>,
    out: &mut Findings,
) -> Option<crate::fast_map::HashSet<&'a str>> {
    check_system_instruction(obj, out);
    let declared = check_tools(obj, out);
    check_gem_19_tool_config(obj, declared.as_ref(), out);
    check_generation_config(obj, out);
    check_gem_20_stop_sequences(obj, out);
    check_gem_15_21_json_output(obj, declared.as_ref(), model, out);
    thinking::check_gem_14_thinking_level(obj, model, out);
    declared
}

/// [`validate_with_model`]'s rules on everything but `contents`.
pub(crate) fn validate_envelope(body: &Value, model: Option<&str>) -> Vec<Violation> {
    let mut out = Findings::default();
    if let Some(obj) = body.as_object() {
        check_envelope(obj, model, &mut out);
    }
    out.finish(body)
}
