//! Tool runs: `MIS-03` (as many tool messages as calls) and `MIS-06` (each tool message names
//! the function it answers).

use crate::fast_map::HashMap;

use serde_json::Value;

use crate::providers::openai_compatible::validate::view::{tool_runs, WireMsg};
use crate::providers::validate_support::Findings;

/// MIS-03: the run of tool messages after an assistant message with `tool_calls` has exactly one
/// message per call. (Which ids are answered is OAC-01/02's; OAC-09 catches an id answered twice.)
pub(super) fn check_mis_03_call_count(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for run in tool_runs(msgs) {
        let calls = run.assistant.calls().len();
        let responses = run.tools.len();
        if calls != responses {
            out.push(
                "MIS-03",
                run.assistant.path(),
                format!(
                    "Not the same number of function calls and responses: {calls} call(s) in \
                     messages[{}], {responses} tool message(s) after it",
                    run.assistant.idx
                ),
            );
        }
    }
}

/// MIS-06: every tool message carries `name`, equal to the name of the call it answers.
pub(super) fn check_mis_06_tool_names(msgs: &[WireMsg<'_>], out: &mut Findings) {
    let mut expected: HashMap<usize, &str> = HashMap::default();
    for run in tool_runs(msgs) {
        let calls = run.assistant.calls();
        for tool in &run.tools {
            let name = tool
                .tool_call_id()
                .and_then(|id| calls.iter().find(|c| c.id == Some(id)))
                .and_then(|c| c.name);
            if let Some(name) = name {
                expected.insert(tool.idx, name);
            }
        }
    }
    for tool in msgs.iter().filter(|m| m.is("tool")) {
        let want = expected.get(&tool.idx).copied();
        let path = tool.path().k("name");
        match (tool.obj.get("name"), want) {
            (Some(Value::String(got)), Some(want)) if got != want => out.push(
                "MIS-06",
                path,
                format!(
                    "tool message name {got:?} is not the name of the function it answers \
                     ({want:?})"
                ),
            ),
            (Some(Value::String(got)), _) if got.is_empty() => out.push(
                "MIS-06",
                path,
                "tool message `name` must be the called function's name, not empty",
            ),
            (Some(Value::String(_)), _) => {}
            (_, want) => out.push(
                "MIS-06",
                path,
                match want {
                    Some(want) => format!(
                        "tool message has no string `name`; Mistral's function-calling guide \
                         sends the called function's name ({want:?}) with every tool message"
                    ),
                    None => "tool message has no string `name`; Mistral's function-calling \
                             guide sends the called function's name with every tool message"
                        .to_string(),
                },
            ),
        }
    }
}
