//! Kimi's thinking parameters per model (docs/provider-rules-added.md): `KIM-10` (`thinking.keep`
//! only on K2.6; never `thinking` with `reasoning_effort`) and `KIM-11` (K3 takes no `thinking`
//! and an effort of `low`, `high` or `max`; a model that always thinks refuses `disabled`).

use serde_json::Value;

use crate::models::{always_thinks, capabilities_or_defaults};
use crate::providers::openai_compatible::validate::view::{model_lower, thinking_type};
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// `KIM-10` and `KIM-11` on the body's top-level members.
pub(super) fn check_kim_10_11_thinking_params(body: &Value, out: &mut Findings) {
    let Some(obj) = body.as_object() else { return };
    let model = model_lower(body);
    let caps = capabilities_or_defaults(Provider::Kimi, &model);
    let thinking = obj.get("thinking");
    let effort = obj.get("reasoning_effort");
    if let Some(keep) = thinking.and_then(|t| t.get("keep")) {
        if !caps.thinking_keep_all {
            out.push(
                "KIM-10",
                Path::root().k("thinking").k("keep"),
                format!(
                    "thinking.keep is not supported for model {model}; only kimi-k2.6 takes it"
                ),
            );
        } else if !(keep.is_null() || keep == "all") {
            out.push(
                "KIM-10",
                Path::root().k("thinking").k("keep"),
                "thinking.keep must be null or \"all\"",
            );
        }
    }
    if thinking.is_some() && !caps.thinking_switch {
        out.push(
            "KIM-11",
            Path::root().k("thinking"),
            format!("{model} always reasons and does not support the `thinking` parameter; use `reasoning_effort`"),
        );
    } else if thinking.is_some() && effort.is_some() {
        out.push(
            "KIM-10",
            Path::root().k("reasoning_effort"),
            "cannot specify both 'thinking' and 'reasoning_effort'",
        );
    }
    if thinking_type(body) == Some("disabled") && always_thinks(Provider::Kimi, &model) {
        out.push(
            "KIM-11",
            Path::root().k("thinking").k("type"),
            format!("{model} always thinks; thinking cannot be disabled"),
        );
    }
    if let Some(e) = effort.and_then(Value::as_str) {
        if !caps.efforts.is_empty() && !caps.efforts.contains(&e) {
            out.push(
                "KIM-11",
                Path::root().k("reasoning_effort"),
                format!(
                    "reasoning_effort must be one of {} for {model}, got '{e}'",
                    caps.efforts.join(", ")
                ),
            );
        }
    }
}
