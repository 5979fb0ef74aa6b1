//! `ANT-52`: `thinking.block_binding` (the pinned SDK's `BetaThinkingBlockBinding`:
//! `{prefix_mismatch_behavior?: 'error' | 'drop_block' | null}`) is taken only on an `enabled`
//! or `adaptive` config, of a model that binds thinking to its conversation, with the
//! `thinking-binding-controls-2026-08-01` beta. The API refuses it elsewhere as an unknown
//! field, at the config type's path: `thinking.adaptive.block_binding: Extra inputs are not
//! permitted`.

use serde_json::{Map, Value};

use crate::models::capabilities;
use crate::providers::anthropic::betas::BINDING_BETA;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// The values `prefix_mismatch_behavior` takes.
const BEHAVIORS: [&str; 2] = ["error", "drop_block"];

/// ANT-52 on the body's `thinking`; `betas` are the `anthropic-beta` values sent with it, or
/// `None` when the headers are not known (a body checked alone: the beta is not checked).
pub(super) fn check_ant_52_block_binding(
    obj: &Map<String, Value>,
    betas: Option<&[&str]>,
    out: &mut Findings,
) {
    let Some(thinking) = obj.get("thinking").and_then(Value::as_object) else {
        return;
    };
    let Some(binding) = thinking.get("block_binding").filter(|b| !b.is_null()) else {
        return;
    };
    let kind = thinking
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or("adaptive");
    let at = format!("thinking.{kind}.block_binding");
    let path = Path::root().k("thinking").k("block_binding");
    let refused = |out: &mut Findings| {
        out.push(
            "ANT-52",
            path.clone(),
            format!("{at}: Extra inputs are not permitted"),
        )
    };
    if !matches!(kind, "enabled" | "adaptive") {
        return refused(out);
    }
    if betas.is_some_and(|b| !b.contains(&BINDING_BETA)) {
        return refused(out);
    }
    let binds = obj
        .get("model")
        .and_then(Value::as_str)
        .and_then(|m| capabilities(Provider::Anthropic, m))
        .map(|c| c.thinking_binding);
    if binds == Some(false) {
        return refused(out);
    }
    let Some(members) = binding.as_object() else {
        out.push(
            "ANT-52",
            path,
            format!("{at}: Input should be a valid dictionary"),
        );
        return;
    };
    for (k, v) in members {
        if k != "prefix_mismatch_behavior" {
            // (Bedrock's guide names `mismatch_behavior`, `bind_to_end_user`: no SDK has them)
            out.push(
                "ANT-52",
                path.clone(),
                format!("{at}.{k}: Extra inputs are not permitted"),
            );
        } else if !v.is_null() && !v.as_str().is_some_and(|s| BEHAVIORS.contains(&s)) {
            out.push(
                "ANT-52",
                path.k("prefix_mismatch_behavior"),
                format!("{at}.{k}: Input should be 'error' or 'drop_block'"),
            );
        }
    }
}
