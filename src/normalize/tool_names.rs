//! Tool names with whitespace around them: one rule for every spelling. A name in the history
//! that no declared tool spells exactly is used without the whitespace around it, so ` read `
//! names the declared `read` instead of becoming a second tool (`_read_`), and a name of spaces
//! is the empty name, projected to `tool` and declared like it. Part of content hygiene.

use super::work::{describe, Msg};
use crate::model::Block;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// `name` without surrounding whitespace, unless a declared tool is spelled exactly `name`.
fn trimmed<'a>(name: &'a str, declared: &[String]) -> Option<&'a str> {
    let t = name.trim();
    (t.len() != name.len() && !declared.iter().any(|d| d == name)).then_some(t)
}

fn note(origin: Option<(usize, usize)>, call_id: &str, from: &str, to: &str) -> Diagnostic {
    let what = if to.is_empty() {
        "is only whitespace; it is the empty tool name".to_string()
    } else {
        format!("has whitespace around it; it names `{to}`")
    };
    Diagnostic::new(
        DiagnosticCode::ToolNameTrimmed,
        FaultClass::CanonicalState,
        format!("tool name {from:?} at {} {what}", describe(origin)),
    )
    .at(origin)
    .call(call_id.to_string())
}

/// Trims the tool names of calls and results (see the module docs).
pub(crate) fn trim(
    mut msgs: Vec<Msg>,
    declared: &[String],
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    for item in msgs.iter_mut().flat_map(|m| m.items.iter_mut()) {
        let origin = item.origin;
        match &mut item.block {
            Block::ToolCall(c) => {
                if let Some(t) = trimmed(&c.name, declared) {
                    let t = t.to_string();
                    diags.push(note(origin, &c.id, &c.name, &t));
                    c.name = t;
                }
            }
            Block::ToolResponse(r) => {
                let Some(name) = r.tool_name.as_mut() else {
                    continue;
                };
                if let Some(t) = trimmed(name, declared) {
                    let t = t.to_string();
                    diags.push(note(origin, &r.call_id, name, &t));
                    *name = t;
                }
            }
            _ => {}
        }
    }
    msgs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_declared_spelling_is_kept_as_it_is() {
        let declared = vec![" read ".to_string()];
        assert_eq!(trimmed(" read ", &declared), None);
        assert_eq!(trimmed(" read", &declared), Some("read"));
        assert_eq!(trimmed("   ", &[]), Some(""));
        assert_eq!(trimmed("read", &[]), None);
    }
}
