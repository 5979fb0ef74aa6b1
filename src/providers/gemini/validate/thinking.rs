//! `GEM-14`: `thinkingLevel` and `thinkingBudget` are not sent together; with the model known
//! (from the request URL), a level only on a model with thinking levels (Gemini 3), and one of
//! the levels it takes (capability table).

use serde_json::{Map, Value};

use crate::models::capabilities;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// GEM-14 on `generationConfig.thinkingConfig`.
pub(super) fn check_gem_14_thinking_level(
    obj: &Map<String, Value>,
    model: Option<&str>,
    out: &mut Findings,
) {
    let Some(thinking) = obj
        .get("generationConfig")
        .and_then(|c| c.get("thinkingConfig"))
    else {
        return;
    };
    let path = Path::root().k("generationConfig").k("thinkingConfig");
    let Some(level) = thinking.get("thinkingLevel").and_then(Value::as_str) else {
        return;
    };
    if thinking.get("thinkingBudget").is_some_and(|b| !b.is_null()) {
        out.push(
            "GEM-14",
            path.clone(),
            "You can only set only one of thinking budget and thinking level.",
        );
    }
    let Some(caps) = model.and_then(|m| capabilities(Provider::Gemini, m)) else {
        return;
    };
    let path = path.k("thinkingLevel");
    if caps.efforts.is_empty() {
        out.push(
            "GEM-14",
            path,
            "Thinking level is not supported for this model.",
        );
    } else if !caps.efforts.iter().any(|l| l.eq_ignore_ascii_case(level)) {
        out.push(
            "GEM-14",
            path,
            format!("Thinking level {} is not supported for this model. Please retry with other thinking level.", level.to_ascii_uppercase()),
        );
    }
}
