//! `providerOptions` applied: the entry for the render's provider is merged into the body as
//! a JSON Merge Patch (RFC 7396): objects merge member by member, any other value replaces,
//! `null` removes. It may set fields turnwire owns (`thinking`, `tool_choice`,
//! `generationConfig`, …) and fields it does not model (`top_k`, `service_tier`,
//! `safetySettings`, …), but not the history (`messages`, `input`, `contents`), which is
//! rendered from the transcript (`request/provider_options.rs` checks that when the options are
//! read). After the merge the validator's rules on everything but the history run, and a rule
//! the merged fields break is an `invalid_value` error naming the option's path and the
//! provider's own message. The other providers' entries are ignored, so one options object can
//! serve a failover chain.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::providers::validate_envelope;
use crate::request::RenderOptions;
use crate::vocab::Diagnostic;

/// RFC 7396: `patch` merged into `target`.
fn merge(target: &mut Value, patch: &Value) {
    let Value::Object(patch) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let Value::Object(members) = target else {
        return;
    };
    for (k, v) in patch {
        if v.is_null() {
            members.remove(k);
        } else {
            merge(members.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

/// The first violation of the provider's rules on everything but the history that lies at or
/// below one of `keys`.
fn first_broken(body: &Value, o: &RenderOptions, keys: &[&String]) -> Option<crate::Violation> {
    validate_envelope(o.provider, &o.model, body)
        .into_iter()
        .find(|v| {
            keys.iter().any(|k| {
                v.path == format!("$.{k}")
                    || v.path.starts_with(&format!("$.{k}."))
                    || v.path.starts_with(&format!("$.{k}["))
            })
        })
}

/// Checks the fields `extra` added to `body` (after the merge): one the API does not know, or
/// of a type it does not take (ANT-50, OAC-30, ORS-30, GEM-30, MIS-20), or that breaks another
/// rule, is an `invalid_value` error at `$.extra.<field>` with the provider's own message.
pub(crate) fn check_extra(body: &Value, o: &RenderOptions) -> Result<(), Error> {
    if o.extra.is_empty() {
        return Ok(());
    }
    let keys: Vec<&String> = o.extra.keys().collect();
    match first_broken(body, o, &keys) {
        None => Ok(()),
        Some(v) => Err(Error::new(
            ErrorCode::InvalidValue,
            format!("$.extra{}", v.path.trim_start_matches('$')),
            format!(
                "extra makes a body {} refuses ({}): {}",
                o.provider, v.rule, v.message
            ),
        )),
    }
}

/// Applies the render's provider's entry to `body` and checks the result. `Ok` when there is
/// none; else the diagnostics of what the merged fields needed settled (Anthropic's context
/// edits, ANT-46).
pub(crate) fn apply(body: &mut Value, o: &RenderOptions) -> Result<Vec<Diagnostic>, Error> {
    let Some(patch) = o.provider_options.get(o.provider.as_str()) else {
        return Ok(Vec::new());
    };
    // Header params (ANT-42) are the render's headers, not body fields.
    let without_headers;
    let patch = match patch.as_object() {
        Some(members)
            if members
                .keys()
                .any(|k| crate::request::is_header_param(o.provider, k)) =>
        {
            without_headers = Value::Object(
                members
                    .iter()
                    .filter(|(k, _)| !crate::request::is_header_param(o.provider, k))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            );
            &without_headers
        }
        _ => patch,
    };
    merge(body, patch);
    let notes = if o.provider == crate::vocab::Provider::Anthropic {
        let binds =
            crate::models::capabilities(o.provider, &o.model).is_some_and(|c| c.thinking_binding);
        crate::providers::anthropic::thinking::settle_binding(body, patch, binds);
        crate::providers::anthropic::context_edits::settle(body)
    } else {
        Vec::new()
    };
    let touched: Vec<&String> = patch
        .as_object()
        .map(|p| p.keys().collect())
        .unwrap_or_default();
    match first_broken(body, o, &touched) {
        None => Ok(notes),
        Some(v) => Err(Error::new(
            ErrorCode::InvalidValue,
            format!(
                "$.providerOptions.{}{}",
                o.provider,
                v.path.trim_start_matches('$')
            ),
            format!(
                "providerOptions.{} makes a body {} refuses ({}): {}",
                o.provider, o.provider, v.rule, v.message
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_patch_is_a_json_merge_patch() {
        let mut body = json!({"a": {"b": 1, "c": 2}, "d": [1], "e": 1});
        merge(
            &mut body,
            &json!({"a": {"b": 9, "x": {"y": 1}}, "d": [2, 3], "e": null, "f": "new"}),
        );
        assert_eq!(
            body,
            json!({"a": {"b": 9, "c": 2, "x": {"y": 1}}, "d": [2, 3], "f": "new"})
        );
    }
}
