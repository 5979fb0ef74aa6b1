//! What every adapter's body repeats, written once: the tool declarations (the caller's, then
//! the tools the history calls), and a history where tool results and the user's next words
//! share one user turn.

use std::borrow::Cow;

use crate::json::out::{Obj, Out};
use crate::model::{Message, Speaker};
use crate::normalize::declarations::HISTORY_TOOL_DESCRIPTION;
use crate::normalize::Normalized;
use crate::request::RenderOptions;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};
use serde_json::Value;

use super::Projection;

/// One wire's tool declaration: a projected name, a description and a JSON Schema.
pub(crate) type Declare<'a> = fn(String, Option<&'a str>, Option<&'a Value>) -> Out<'a>;

/// The function tools of a body: the caller's declarations first, their names projected before
/// any name of the history, then one for each tool the history calls that the caller did not
/// declare (`normalize::declarations`, for the wires that need every called tool declared),
/// described as such and without a schema.
pub(crate) fn tool_declarations<'a>(
    n: &'a Normalized,
    o: &'a RenderOptions,
    p: &mut Projection,
    declare: Declare<'a>,
    defers: bool,
) -> Vec<Out<'a>> {
    let mut tools = Vec::with_capacity(o.tools.len() + n.undeclared_tools.len());
    // a tool the history withdrew is left out where the target takes no tool changes
    for (i, t) in o.tools.iter().enumerate() {
        if !n.tool_changes.keeps(&t.name) {
            continue;
        }
        let d = declare(
            p.tool_name(&t.name),
            t.description.as_deref(),
            t.parameters.as_ref(),
        );
        let at = || format!("$.tools[{i}].deferLoading");
        tools.push(deferred(
            d,
            t.defer_loading == Some(true),
            defers,
            &t.name,
            at,
            p,
        ));
    }
    // tools the history added with their definition (an Anthropic `tools` entry)
    for def in &n.tool_changes.defined {
        let text = |k: &str| def.get(k).and_then(Value::as_str);
        let name = text("name").unwrap_or_default();
        let d = declare(
            p.tool_name(name),
            text("description"),
            def.get("input_schema"),
        );
        let defer = def.get("defer_loading").and_then(Value::as_bool) == Some(true);
        let at = || "$.transcript".to_string();
        tools.push(deferred(d, defer, defers, name, at, p));
    }
    for name in &n.undeclared_tools {
        tools.push(declare(
            p.tool_name(name),
            Some(HISTORY_TOOL_DESCRIPTION),
            None,
        ));
    }
    tools
}

/// A declaration with `defer_loading: true` where the target takes it (`defers`), else as it
/// is with a `feature_unavailable` diagnostic at `at` when the tool asked for it.
fn deferred<'a>(
    mut d: Out<'a>,
    defer: bool,
    defers: bool,
    name: &str,
    at: impl Fn() -> String,
    p: &mut Projection,
) -> Out<'a> {
    if !defer {
        return d;
    }
    match d.as_obj_mut() {
        Some(obj) if defers => obj.insert("defer_loading", true),
        _ => p.extend_notes(Some(
            Diagnostic::new(
                DiagnosticCode::FeatureUnavailable,
                FaultClass::ProviderProjection,
                format!(
                    "tool `{name}` asks to be loaded by tool search (`deferLoading`), which this target does not take from turnwire; it is declared as any other tool"
                ),
            )
            .at_path(at()),
        )),
    }
    d
}

/// How a wire spells a turn whose content is a list: the role of the model's turns, the
/// member that holds the list, and the writers of each kind of message's content.
pub(crate) struct ListTurns<'a> {
    /// The role of the model's turns (`assistant`, `model`).
    pub assistant_role: &'static str,
    /// The member that holds a turn's list (`content`, `parts`).
    pub member: &'static str,
    /// The content of an assistant message.
    pub assistant: fn(&'a Message, &mut Projection) -> Vec<Out<'a>>,
    /// The results of a tool message.
    pub results: fn(&'a Message, &mut Projection) -> Vec<Out<'a>>,
    /// The content of a user (or system) message.
    pub user: fn(&'a Message) -> Vec<Out<'a>>,
}

/// The wire turns of a normalised history for the wires that put tool results in a user turn
/// (Anthropic Messages, Gemini): one turn per message, except that a tool message and the
/// user message right after it share one user turn, results first.
pub(crate) fn results_then_user<'a>(
    msgs: &'a [Message],
    p: &mut Projection,
    w: &ListTurns<'a>,
) -> Vec<Out<'a>> {
    let turn = |role: &'static str, list: Vec<Out<'a>>| {
        Out::Obj(Obj(vec![
            (Cow::Borrowed("role"), Out::from(role)),
            (Cow::Borrowed(w.member), Out::from(list)),
        ]))
    };
    let mut out = Vec::with_capacity(msgs.len());
    let mut i = 0;
    while let Some(m) = msgs.get(i) {
        i += 1;
        match m.speaker {
            Speaker::Ai => out.push(turn(w.assistant_role, (w.assistant)(m, p))),
            Speaker::Tool => {
                let mut list = (w.results)(m, p);
                if let Some(next) = msgs.get(i).filter(|n| n.speaker == Speaker::Human) {
                    list.extend((w.user)(next));
                    i += 1;
                }
                out.push(turn("user", list));
            }
            Speaker::Human | Speaker::System => out.push(turn("user", (w.user)(m))),
        }
    }
    out
}
