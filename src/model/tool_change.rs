//! Tool changes: a tool offered to the model, or withdrawn from it, from one point of the
//! conversation onward (Anthropic's `tool_addition` / `tool_removal` blocks of a mid-conversation
//! system message, and the `tool_reference` a tool result gives to load a deferred tool).

use serde_json::{Map, Value};

/// Whether a tool change offers a tool or withdraws it.
///
/// ```
/// use turnwire::model::ToolChangeKind;
/// assert_eq!(ToolChangeKind::parse("remove"), Some(ToolChangeKind::Remove));
/// assert_eq!(ToolChangeKind::Add.as_str(), "add");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ToolChangeKind {
    /// The tool is offered from here on (`tool_addition`; in a tool result, `tool_reference`).
    #[default]
    Add,
    /// The tool is no longer offered from here on (`tool_removal`).
    Remove,
}

impl ToolChangeKind {
    /// The stable string form (`add` or `remove`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolChangeKind::Add => "add",
            ToolChangeKind::Remove => "remove",
        }
    }

    /// Parses the stable string form.
    pub fn parse(s: &str) -> Option<ToolChangeKind> {
        match s {
            "add" => Some(ToolChangeKind::Add),
            "remove" => Some(ToolChangeKind::Remove),
            _ => None,
        }
    }
}

/// A tool offered or withdrawn from this point of the conversation onward.
///
/// It names the tool as declared in the request's tools (`name`), one tool of an MCP server
/// (`name` and `server_name`), every tool of an MCP server (`server_name` only), or carries the
/// tool's definition itself (`definition`, a provider's `tools` entry). In a system message it
/// is Anthropic's `tool_addition` / `tool_removal`; in a tool message (next to the response of
/// a tool that searched for tools) an added tool is a `tool_reference`. Targets that take no
/// tool changes get the tools in force at the end of the history instead.
///
/// ```
/// use turnwire::model::{ToolChangeBlock, ToolChangeKind};
/// let b = ToolChangeBlock::from_anthropic(&serde_json::json!({
///     "type": "tool_removal", "tool": {"type": "tool_reference", "name": "deploy"}
/// })).unwrap();
/// assert_eq!((b.change, b.name.as_deref()), (ToolChangeKind::Remove, Some("deploy")));
/// assert_eq!(b.to_anthropic()["tool"]["name"], "deploy");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ToolChangeBlock {
    /// Offered or withdrawn.
    pub change: ToolChangeKind,
    /// The tool's name (absent for a whole MCP server).
    pub name: Option<String>,
    /// The MCP server whose tool (with `name`) or tools (without) change.
    pub server_name: Option<String>,
    /// The tool's definition, when the change carries it (a provider's `tools` entry).
    pub definition: Option<Value>,
    /// Fields turnwire does not know (`cache_control`, …), kept for the round trip.
    pub extra: Map<String, Value>,
}

impl ToolChangeBlock {
    /// A change of one tool declared by `name`.
    pub fn new(change: ToolChangeKind, name: impl Into<String>) -> Self {
        ToolChangeBlock {
            change,
            name: Some(name.into()),
            ..Default::default()
        }
    }

    /// The tool name this change affects in the request's tool list: the tool's own name, or
    /// the name of the definition it carries. `None` for a whole MCP server.
    ///
    /// ```
    /// use turnwire::model::{ToolChangeBlock, ToolChangeKind};
    /// assert_eq!(ToolChangeBlock::new(ToolChangeKind::Add, "grep").tool_name(), Some("grep"));
    /// ```
    pub fn tool_name(&self) -> Option<&str> {
        self.name.as_deref().or_else(|| {
            self.definition
                .as_ref()
                .and_then(|d| d.get("name"))
                .and_then(Value::as_str)
        })
    }

    /// How the change reads to a person: `grep`, `github/create_issue`, `every tool of github`.
    pub fn describe(&self) -> String {
        match (self.tool_name(), self.server_name.as_deref()) {
            (Some(n), Some(s)) => format!("{s}/{n}"),
            (Some(n), None) => n.to_string(),
            (None, Some(s)) => format!("every tool of {s}"),
            (None, None) => "an unnamed tool".to_string(),
        }
    }

    /// An Anthropic `tool_addition` / `tool_removal` block (`BetaRequestToolAdditionBlock`)
    /// or a `tool_reference` content block of a tool result (`ToolReferenceBlockParam`).
    /// `None` for any other block.
    pub fn from_anthropic(block: &Value) -> Option<Self> {
        let mut extra = block.as_object()?.clone();
        let kind = extra.remove("type")?;
        let change = match kind.as_str()? {
            "tool_addition" => ToolChangeKind::Add,
            "tool_removal" => ToolChangeKind::Remove,
            "tool_reference" => {
                let name = extra.remove("tool_name")?.as_str()?.to_string();
                return Some(ToolChangeBlock {
                    extra,
                    ..ToolChangeBlock::new(ToolChangeKind::Add, name)
                });
            }
            _ => return None,
        };
        let tool = extra.remove("tool")?;
        let s = |k: &str| tool.get(k).and_then(Value::as_str).map(str::to_string);
        let mut b = ToolChangeBlock {
            change,
            extra,
            ..Default::default()
        };
        match s("type")?.as_str() {
            "tool_reference" => b.name = Some(s("name")?),
            "mcp_tool_reference" => (b.name, b.server_name) = (Some(s("name")?), s("server_name")),
            "mcp_toolset_reference" => b.server_name = Some(s("server_name")?),
            "tool_definition" => b.definition = Some(tool.get("definition")?.clone()),
            _ => return None,
        }
        Some(b)
    }

    /// The Anthropic `tool_addition` / `tool_removal` block of this change (a system message's).
    pub fn to_anthropic(&self) -> Value {
        let tool = match (&self.definition, &self.name, &self.server_name) {
            (Some(d), _, _) if self.change == ToolChangeKind::Add => {
                serde_json::json!({"type": "tool_definition", "definition": d})
            }
            (_, Some(n), Some(s)) => {
                serde_json::json!({"type": "mcp_tool_reference", "name": n, "server_name": s})
            }
            (_, None, Some(s)) => {
                serde_json::json!({"type": "mcp_toolset_reference", "server_name": s})
            }
            _ => {
                serde_json::json!({"type": "tool_reference", "name": self.tool_name().unwrap_or_default()})
            }
        };
        let kind = match self.change {
            ToolChangeKind::Add => "tool_addition",
            ToolChangeKind::Remove => "tool_removal",
        };
        let mut o = Map::new();
        o.insert("type".into(), kind.into());
        o.insert("tool".into(), tool);
        for (k, v) in &self.extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }
}

/// Where the exporters keep tool changes a format has no place for: under
/// `providerOptions.turnwire.toolChanges` (AI SDK) or `turnwire.toolChanges` (pi-ai), as
/// blocks of the JSON history shape.
pub(crate) const KEPT_CHANGES: [&str; 2] = [
    "/providerOptions/turnwire/toolChanges",
    "/turnwire/toolChanges",
];

/// The tool changes an exporter kept on `v` (see [`KEPT_CHANGES`]).
pub(crate) fn kept_changes(v: &Value) -> Vec<super::Block> {
    KEPT_CHANGES
        .iter()
        .filter_map(|p| v.pointer(p)?.as_array())
        .flatten()
        .filter_map(|b| super::Block::from_value(b.clone()).ok())
        .filter(|b| matches!(b, super::Block::ToolChange(_)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_anthropic_reference_reads_and_writes_back() {
        for wire in [
            json!({"type": "tool_addition", "tool": {"type": "tool_reference", "name": "grep"}}),
            json!({"type": "tool_removal", "tool": {"type": "mcp_tool_reference", "name": "create_issue", "server_name": "github"}}),
            json!({"type": "tool_removal", "tool": {"type": "mcp_toolset_reference", "server_name": "github"}, "cache_control": {"type": "ephemeral"}}),
            json!({"type": "tool_addition", "tool": {"type": "tool_definition", "definition": {"name": "ls", "input_schema": {"type": "object"}}}}),
        ] {
            let b = ToolChangeBlock::from_anthropic(&wire).unwrap();
            assert_eq!(b.to_anthropic(), wire);
        }
        let r = ToolChangeBlock::from_anthropic(
            &json!({"type": "tool_reference", "tool_name": "weather"}),
        )
        .unwrap();
        assert_eq!(
            (r.change, r.describe()),
            (ToolChangeKind::Add, "weather".to_string())
        );
        assert!(ToolChangeBlock::from_anthropic(&json!({"type": "text", "text": "x"})).is_none());
    }
}
