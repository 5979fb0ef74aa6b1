//! Tool changes for the render target: kept in place where the target takes them, otherwise
//! turned into the tools in force at the end of the history.
//!
//! - Anthropic models that take system messages inside the conversation (ANT-25) take the
//!   `tool_addition` / `tool_removal` blocks of those messages (beta
//!   `mid-conversation-tool-changes-2026-07-01`, ANT-53): they stay where they are.
//! - Every Anthropic model takes a `tool_reference` in a tool result (tool search run by the
//!   client, GA): a tool added in a tool message stays there.
//! - Everywhere else a change is left out (`tool_change_projected`, naming it) and what it
//!   means goes into the request's tools: a tool withdrawn by the end of the history is not
//!   declared, unless the history calls it and the target needs every called tool declared
//!   (Anthropic, Gemini: then it stays, and the diagnostic says so); a tool added with its
//!   definition is declared from it. A change of an MCP server's tools has no place in
//!   turnwire's tool list: it is left out and named.

use serde_json::Value;

use super::options::{NormalizeOptions, Profile};
use super::work::{describe, describe_message, Msg};
use crate::fast_map::HashSet;
use crate::model::{Block, Speaker, ToolChangeBlock, ToolChangeKind};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass, Provider};

/// What the tool changes the target cannot take mean for the request's tools.
///
/// ```
/// let c = turnwire::ToolChanges::default();
/// assert!(c.withdrawn.is_empty() && c.defined.is_empty());
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolChanges {
    /// Declared tools withdrawn by the end of the history: left out of the request's tools.
    pub withdrawn: Vec<String>,
    /// Tools the history added with their definition (an Anthropic `tools` entry) and did not
    /// withdraw again: declared from it, in order of addition.
    pub defined: Vec<Value>,
    /// The changes left out of the transcript, in order: [`super::Normalized::into_history`]
    /// keeps them (in a system message at the end), so the stored history renders the same.
    pub left_out: Vec<ToolChangeBlock>,
}

impl ToolChanges {
    /// Whether the caller's tool `name` is declared in this request.
    pub fn keeps(&self, name: &str) -> bool {
        !self.withdrawn.iter().any(|w| w == name)
    }
}

/// Whether the target takes tool changes in a system message in place.
pub(crate) fn in_place(opts: &NormalizeOptions) -> bool {
    opts.target == Provider::Anthropic && Profile::for_options(opts).system_anywhere
}

/// Keeps or projects every tool change of `msgs` for the target.
pub(crate) fn project(
    mut msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, ToolChanges) {
    let mut out = ToolChanges::default();
    let has_any = msgs.iter().any(|m| {
        m.items
            .iter()
            .any(|i| matches!(i.block, Block::ToolChange(_)))
    });
    if !has_any {
        return (msgs, out);
    }
    let system_in_place = in_place(opts);
    let anthropic = opts.target == Provider::Anthropic;
    let declared: HashSet<&str> = opts.declared_tools.iter().map(String::as_str).collect();
    // the changes left out, in order: their effect is applied below
    let mut projected: Vec<ToolChangeBlock> = Vec::new();
    let mut defined_here: HashSet<String> = HashSet::default();
    for m in &mut msgs {
        let keep = match m.speaker {
            Speaker::System => system_in_place,
            Speaker::Tool => anthropic,
            _ => false,
        };
        // in a tool message, only a change after a response has a `tool_result` to go in
        let mut answered = m.speaker != Speaker::Tool;
        let speaker = m.speaker;
        m.items.retain(|item| {
            let Block::ToolChange(c) = &item.block else {
                answered |= matches!(item.block, Block::ToolResponse(_));
                return true;
            };
            if keep && answered {
                // in place, a change names a tool the request declares or the history defined
                // before it (ANT-53, `tool_reference_unresolved`); any other is left out
                if let (Some(_), Some(n)) = (&c.definition, c.tool_name()) {
                    defined_here.insert(n.to_string());
                    return true;
                }
                let resolved = c.server_name.is_some()
                    || c
                        .tool_name()
                        .is_some_and(|n| declared.contains(n) || defined_here.contains(n));
                if !resolved {
                    diags.push(
                        Diagnostic::new(
                            DiagnosticCode::ToolChangeProjected,
                            FaultClass::ProviderProjection,
                            format!(
                                "a tool change at {} names `{}`, which the request does not declare (ANT-53); left out",
                                describe(item.origin),
                                c.describe()
                            ),
                        )
                        .at(item.origin),
                    );
                }
                return resolved;
            }
            let what = match (speaker, c.change) {
                (Speaker::Tool, _) => "a tool loaded by a tool result",
                (_, ToolChangeKind::Add) => "a tool added mid-conversation",
                (_, ToolChangeKind::Remove) => "a tool removed mid-conversation",
            };
            let effect = match (c.server_name.is_some(), c.change) {
                (true, _) => "an MCP server's tools are not among the request's tools; left out",
                (false, ToolChangeKind::Add) => {
                    "the target takes no tool changes here; the tool is declared for the whole request"
                }
                (false, ToolChangeKind::Remove) => {
                    "the target takes no tool changes here; the tools in force at the end of the history are declared"
                }
            };
            diags.push(
                Diagnostic::new(
                    DiagnosticCode::ToolChangeProjected,
                    FaultClass::ProviderProjection,
                    format!(
                        "{what} (`{}`) at {}: {effect}",
                        c.describe(),
                        describe(item.origin)
                    ),
                )
                .at(item.origin),
            );
            // where the target takes changes in place, one that stands where none can has no
            // position to take effect from: it is only named
            if !system_in_place {
                projected.push(c.clone());
            }
            false
        });
    }
    // a message that held only tool changes the target cannot take is gone
    msgs.retain(|m| {
        if !m.items.is_empty() {
            return true;
        }
        diags.push(
            Diagnostic::new(
                DiagnosticCode::EmptyMessageRemoved,
                FaultClass::CanonicalState,
                format!(
                    "`{}` {} has no content left; removed",
                    m.speaker.as_str(),
                    describe_message(m.origin)
                ),
            )
            .at_message(m.origin),
        );
        false
    });
    let mut withdrawn: Vec<String> = Vec::new();
    for c in projected.iter().filter(|c| c.server_name.is_none()) {
        let Some(name) = c.tool_name() else { continue };
        match c.change {
            ToolChangeKind::Add => {
                withdrawn.retain(|w| w != name);
                out.defined.retain(|d| def_name(d) != Some(name));
                if let Some(d) = &c.definition {
                    if !declared.contains(name) {
                        out.defined.push(d.clone());
                    }
                }
            }
            ToolChangeKind::Remove => {
                out.defined.retain(|d| def_name(d) != Some(name));
                if declared.contains(name) && !withdrawn.iter().any(|w| w == name) {
                    withdrawn.push(name.to_string());
                }
            }
        }
    }
    out.left_out = projected;
    let called: HashSet<&str> = msgs
        .iter()
        .flat_map(|m| &m.items)
        .filter_map(|i| match &i.block {
            Block::ToolCall(c) => Some(c.name.as_str()),
            _ => None,
        })
        .collect();
    let needs_called = Profile::for_options(opts).declares_history_tools;
    for name in withdrawn {
        if needs_called && called.contains(name.as_str()) {
            diags.push(Diagnostic::new(
                DiagnosticCode::ToolChangeProjected,
                FaultClass::ProviderProjection,
                format!("`{name}` was removed mid-conversation, but the history calls it and the target needs every called tool declared; it stays declared"),
            ));
        } else {
            out.withdrawn.push(name);
        }
    }
    // a tool a result loaded that the history withdrew later is not in the request's tools: its
    // `tool_reference` would name nothing (ANT-53); the withdrawal stands
    if !out.withdrawn.is_empty() {
        for m in msgs.iter_mut().filter(|m| m.speaker == Speaker::Tool) {
            m.items.retain(|item| match &item.block {
                Block::ToolChange(c) if c.tool_name().is_some_and(|n| out.withdrawn.iter().any(|w| w == n)) => {
                    diags.push(
                        Diagnostic::new(
                            DiagnosticCode::ToolChangeProjected,
                            FaultClass::ProviderProjection,
                            format!(
                                "a tool loaded by a tool result (`{}`) at {} is withdrawn later in the history, so the request does not declare it; left out",
                                c.describe(),
                                describe(item.origin)
                            ),
                        )
                        .at(item.origin),
                    );
                    false
                }
                _ => true,
            });
        }
    }
    (msgs, out)
}

/// The `name` of a tool definition.
fn def_name(d: &Value) -> Option<&str> {
    d.get("name").and_then(Value::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::msgs;
    use serde_json::json;

    fn opts(p: Provider, model: &str, tools: &[&str]) -> NormalizeOptions {
        let mut o = NormalizeOptions::new(p, model);
        o.declared_tools = tools.iter().map(|s| s.to_string()).collect();
        o
    }

    fn history() -> Vec<Msg> {
        msgs(json!([
            {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
            {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "deploy", "parameters": {}}]},
            {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "toolName": "deploy", "result": "ok"}]},
            {"speaker": "system", "blocks": [
                {"type": "tool_change", "change": "remove", "name": "deploy"},
                {"type": "tool_change", "change": "remove", "name": "lint"},
                {"type": "tool_change", "change": "add", "name": "ls", "definition": {"name": "ls", "input_schema": {"type": "object"}}}
            ]}
        ]))
    }

    #[test]
    fn ant_53_tool_changes_stay_in_place_for_models_that_take_them() {
        let mut d = Vec::new();
        let (m, c) = project(
            history(),
            &opts(Provider::Anthropic, "claude-opus-5", &["deploy", "lint"]),
            &mut d,
        );
        assert_eq!(m[3].items.len(), 3);
        assert_eq!((c, d.len()), (ToolChanges::default(), 0));
    }

    #[test]
    fn tool_changes_become_the_tools_in_force_elsewhere() {
        let mut d = Vec::new();
        let (m, c) = project(
            history(),
            &opts(Provider::OpenAiChat, "gpt-5.2", &["deploy", "lint"]),
            &mut d,
        );
        // the system message held only tool changes: it is gone
        assert_eq!(m.len(), 3);
        // chat needs no declaration for a replayed call: the removed tool goes
        assert_eq!(c.withdrawn, ["deploy", "lint"]);
        assert_eq!(
            c.defined,
            [json!({"name": "ls", "input_schema": {"type": "object"}})]
        );
        assert_eq!(d.len(), 4);
        assert!(d[..3]
            .iter()
            .all(|d| d.code == DiagnosticCode::ToolChangeProjected));
        assert_eq!(d[3].code, DiagnosticCode::EmptyMessageRemoved);
        // older Claude: declared tools for replayed calls, so `deploy` stays
        let mut d = Vec::new();
        let (_, c) = project(
            history(),
            &opts(
                Provider::Anthropic,
                "claude-sonnet-4-5",
                &["deploy", "lint"],
            ),
            &mut d,
        );
        assert_eq!(c.withdrawn, ["lint"]);
        assert_eq!(d.len(), 5);
    }
}
