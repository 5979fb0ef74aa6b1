//! Tool declarations the history needs: when a request declares tools, Anthropic and Gemini
//! expect every tool called in the history to be among them (ANT-20, GEM-10; Bedrock rejects
//! the request otherwise, ANT-21). Tools the history still calls but the caller no longer declares (an MCP server went
//! away, the agent switched tool sets, a reconstructed call) are listed so the adapter can
//! declare them, each named in a diagnostic.

use crate::fast_map::HashSet;

use super::options::{NormalizeOptions, Profile};
use super::work::Msg;
use crate::model::Block;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Description given to a tool declared only because the history calls it.
pub const HISTORY_TOOL_DESCRIPTION: &str =
    "Called earlier in this conversation; it may no longer be available.";

pub(crate) fn undeclared(
    msgs: &[Msg],
    opts: &NormalizeOptions,
    defined: &[serde_json::Value],
    diags: &mut Vec<Diagnostic>,
) -> Vec<String> {
    // (tools the history defined make a tools list too)
    let no_tools = opts.declared_tools.is_empty() && defined.is_empty();
    let profile = Profile::for_options(opts);
    if (no_tools && !profile.tool_blocks_need_declarations) || !profile.declares_history_tools {
        return Vec::new();
    }
    // the caller's tools and the ones the history defined (a tool change with its definition)
    let mut declared: HashSet<&str> = opts.declared_tools.iter().map(String::as_str).collect();
    declared.extend(
        defined
            .iter()
            .filter_map(|d| d.get("name").and_then(serde_json::Value::as_str)),
    );
    let mut seen: HashSet<&str> = HashSet::default();
    let mut out = Vec::new();
    for item in msgs.iter().flat_map(|m| &m.items) {
        let Block::ToolCall(c) = &item.block else {
            continue;
        };
        if declared.contains(c.name.as_str()) || !seen.insert(c.name.as_str()) {
            continue;
        }
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ToolDeclared,
                FaultClass::ProviderProjection,
                format!(
                    "the history calls `{}`, which is not among the declared tools; it is declared with an open schema",
                    c.name
                ),
            )
            .at(item.origin)
            .call(c.id.clone()),
        );
        out.push(c.name.clone());
    }
    out
}
