//! `ANT-34` (the thinking switch a model takes: a budget up to Claude 4.5, adaptive from Opus
//! 4.6 and Sonnet 4.6, adaptive only from Opus 4.7 and Claude 5) and `ANT-41` (the
//! `output_config.effort` levels a model takes), from the capability table for the body's
//! `model`; a model the table does not know is not checked.

use serde_json::{Map, Value};

use crate::models::{capabilities, ThinkingMode};
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

const ANT_34_ENABLED: &str = "\"thinking.type.enabled\" is not supported for this model. Use \"thinking.type.adaptive\" and \"output_config.effort\" to control thinking behavior.";
const ANT_34_ADAPTIVE: &str = "adaptive thinking is not supported on this model";
const ANT_41_NO_EFFORT: &str = "This model does not support the effort parameter.";

/// ANT-34 and ANT-41 for the body's model.
pub(super) fn check_ant_34_41_thinking_mode(obj: &Map<String, Value>, out: &mut Findings) {
    let Some(caps) = obj
        .get("model")
        .and_then(Value::as_str)
        .and_then(|m| capabilities(Provider::Anthropic, m))
    else {
        return;
    };
    let kind = obj
        .get("thinking")
        .and_then(|t| t.get("type"))
        .and_then(Value::as_str);
    let path = Path::root().k("thinking").k("type");
    match (kind, caps.thinking_mode) {
        (Some("enabled"), ThinkingMode::Adaptive) => out.push("ANT-34", path, ANT_34_ENABLED),
        (Some("adaptive"), ThinkingMode::Budget) => out.push("ANT-34", path, ANT_34_ADAPTIVE),
        _ => {}
    }
    let Some(effort) = obj.get("output_config").and_then(|c| c.get("effort")) else {
        return;
    };
    let path = Path::root().k("output_config").k("effort");
    if caps.efforts.is_empty() {
        out.push("ANT-41", path, ANT_41_NO_EFFORT);
    } else if !effort.as_str().is_some_and(|e| caps.efforts.contains(&e)) {
        let levels: Vec<String> = caps.efforts.iter().map(|e| format!("'{e}'")).collect();
        out.push(
            "ANT-41",
            path,
            format!(
                "output_config.effort: Input should be {}",
                levels.join(", ")
            ),
        );
    }
}
