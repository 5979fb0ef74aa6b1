//! `OAC-11` (Chat `reasoning_effort`) and `ORS-22` (Responses `reasoning.effort`): an OpenAI
//! reasoning model takes only its own effort levels (`models::openai_efforts`; `max` from
//! gpt-5.6 on). The API's answer: `Unsupported value: 'reasoning_effort' does not support
//! 'minimal' with this model. Supported values are: 'none', 'low', 'medium', 'high', and
//! 'xhigh'.` (gpt-5.2, docs/research/thinking-limits.md §3).

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};

/// `'a', 'b', and 'c'`: the API's list of supported values.
fn supported_list(levels: &[&str]) -> String {
    let quoted: Vec<String> = levels.iter().map(|l| format!("'{l}'")).collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
    }
}

/// Reports `effort` (at `path`, the API's parameter `param`) when the body's model has known
/// levels and `effort` is not one of them.
pub(crate) fn check_openai_effort(
    obj: &Map<String, Value>,
    effort: Option<&Value>,
    path: Path,
    param: &str,
    rule: &'static str,
    out: &mut Findings,
) {
    let Some(Value::String(effort)) = effort else {
        return;
    };
    let model = obj.get("model").and_then(Value::as_str).unwrap_or_default();
    let levels = crate::models::openai_efforts(model);
    if levels.is_empty() || levels.contains(&effort.as_str()) {
        return;
    }
    out.push(
        rule,
        path,
        format!(
            "Unsupported value: '{param}' does not support '{effort}' with this model. Supported values are: {}.",
            supported_list(levels)
        ),
    );
}

/// `OAC-11` on a Chat Completions body.
pub(super) fn check_oac_11_effort(obj: &Map<String, Value>, out: &mut Findings) {
    check_openai_effort(
        obj,
        obj.get("reasoning_effort"),
        Path::root().k("reasoning_effort"),
        "reasoning_effort",
        "OAC-11",
        out,
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_supported_values_are_listed_as_the_api_lists_them() {
        assert_eq!(supported_list(&["high"]), "'high'");
        assert_eq!(
            supported_list(&["none", "low", "high"]),
            "'none', 'low', and 'high'"
        );
    }
}
