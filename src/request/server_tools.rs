//! Server tools (`serverTools`): tools the provider runs itself, declared in each provider's
//! own form, resolved once per render.
//!
//! | tool | anthropic | openai-responses | gemini | openai-chat |
//! |---|---|---|---|---|
//! | `web_search` | `{"type": "web_search_20250305", "name": "web_search", …}` in `tools` | `{"type": "web_search", …}` in `tools` | `{"googleSearch": {}}` in `tools` | `web_search_options` (search models only) |
//! | `code_execution` | `{"type": "code_execution_20250825", "name": "code_execution"}` | `{"type": "code_interpreter", "container": {"type": "auto"}}` | `{"codeExecution": {}}` | — |
//! | `tool_search_regex`, `tool_search_bm25` | `{"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}` (`_bm25`) | — | — | — |
//!
//! Mistral, Kimi, DeepSeek and other compatible servers run no server tools through their chat
//! API. A tool or an option a target does not have is left out with a `server_tool_unavailable`
//! diagnostic naming it, so a request that fails over to another provider still goes out.
//! Gemini 2.x refuses server tools next to function declarations ("Tool use with function
//! calling is unsupported"): the functions win there; Gemini 3 takes both with
//! `toolConfig.includeServerSideToolInvocations`.

use serde::Serialize;
use serde_json::{Map, Value};

use super::controls::note;
use super::options::RenderOptions;
use crate::error::{Error, ErrorCode};
use crate::json::obj::obj;
use crate::models::ModelCaps;
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode};

mod read;

/// Which server tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerToolKind {
    /// Searching the web (Anthropic web search, OpenAI web search, Gemini Google Search).
    WebSearch,
    /// Running code in the provider's sandbox (Anthropic code execution, OpenAI code
    /// interpreter, Gemini code execution).
    CodeExecution,
    /// Searching the request's deferred tools (`deferLoading`) by regular expression
    /// (Anthropic `tool_search_tool_regex_20251119`).
    ToolSearchRegex,
    /// Searching the request's deferred tools by BM25 (Anthropic
    /// `tool_search_tool_bm25_20251119`).
    ToolSearchBm25,
}

impl ServerToolKind {
    /// The name of the tool in options and diagnostics.
    pub const fn as_str(self) -> &'static str {
        match self {
            ServerToolKind::WebSearch => "web_search",
            ServerToolKind::CodeExecution => "code_execution",
            ServerToolKind::ToolSearchRegex => "tool_search_regex",
            ServerToolKind::ToolSearchBm25 => "tool_search_bm25",
        }
    }
}

/// Where the user is, for local search results.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct UserLocation {
    /// City name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub city: Option<String>,
    /// Region or state.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub region: Option<String>,
    /// Two-letter ISO country code.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// IANA time zone (`America/New_York`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timezone: Option<String>,
}

/// One server tool to declare: `{"type": "web_search", "maxUses"?, "allowedDomains"?,
/// "blockedDomains"?, "userLocation"?}` or `{"type": "code_execution"}`.
///
/// ```
/// use turnwire::{ServerTool, ServerToolKind};
/// let t: ServerTool = serde_json::from_str(r#"{"type": "web_search", "maxUses": 3}"#)?;
/// assert_eq!((t.kind, t.max_uses), (ServerToolKind::WebSearch, Some(3)));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ServerTool {
    /// Which tool.
    #[serde(rename = "type")]
    pub kind: ServerToolKind,
    /// At most this many uses in one request (Anthropic).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_uses: Option<u32>,
    /// Only these domains in results (Anthropic, OpenAI Responses).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub allowed_domains: Vec<String>,
    /// Never these domains in results (Anthropic).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocked_domains: Vec<String>,
    /// Where the user is (Anthropic, OpenAI).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_location: Option<UserLocation>,
}

impl ServerTool {
    /// A tool with no options.
    pub fn new(kind: ServerToolKind) -> Self {
        ServerTool {
            kind,
            max_uses: None,
            allowed_domains: Vec::new(),
            blocked_domains: Vec::new(),
            user_location: None,
        }
    }
}

/// The server tools a render sends, in its target's form.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ServerToolPlan {
    /// Entries for the body's `tools` (Anthropic, Responses, Gemini).
    pub tools: Vec<Value>,
    /// Chat Completions `web_search_options`.
    pub web_search_options: Option<Value>,
    /// What was left out, as diagnostics.
    pub notes: Vec<Diagnostic>,
}

impl ServerToolPlan {
    /// Gemini: the entries to send next to `functions` declared functions, with whether the
    /// body needs `toolConfig.includeServerSideToolInvocations`, and a note when Gemini 2.x
    /// cannot take them with functions.
    pub(crate) fn for_gemini(
        &self,
        model: &str,
        caps: ModelCaps,
        functions: usize,
    ) -> (Vec<Value>, bool, Option<Diagnostic>) {
        if self.tools.is_empty() || functions == 0 {
            return (self.tools.clone(), false, None);
        }
        if caps.functions_with_other_tools {
            return (self.tools.clone(), true, None);
        }
        let d = note(
            DiagnosticCode::ServerToolUnavailable,
            format!("{model} refuses server tools next to function declarations (\"Tool use with function calling is unsupported\"); the {functions} function(s) were declared and the server tools left out"),
        )
        .at_path("$.serverTools");
        (Vec::new(), false, Some(d))
    }
}

impl RenderOptions {
    /// Checks `serverTools` and writes them in the target's form.
    pub(crate) fn server_tool_plan(&self) -> Result<ServerToolPlan, Error> {
        let mut plan = ServerToolPlan::default();
        for (i, t) in self.server_tools.iter().enumerate() {
            let path = format!("$.serverTools[{i}]");
            self.check_server_tool(i, t, &path)?;
            let mut unsupported = |what: &str| {
                plan.notes.push(
                    note(
                        DiagnosticCode::ServerToolUnavailable,
                        format!("{} has no {what}; it was left out", self.provider),
                    )
                    .at_path(path.clone()),
                )
            };
            let search = matches!(
                t.kind,
                ServerToolKind::ToolSearchRegex | ServerToolKind::ToolSearchBm25
            );
            match (self.provider, t.kind) {
                (Provider::Anthropic, _) => {}
                // Anthropic's tool search loads deferred tools; the others get every tool loaded
                (_, _) if search => unsupported("tool search for deferred tools in turnwire's renders"),
                (Provider::OpenAiResponses, _) => {
                    if t.max_uses.is_some() {
                        unsupported("`maxUses` for its web search");
                    }
                    if !t.blocked_domains.is_empty() {
                        unsupported("`blockedDomains` for its web search");
                    }
                }
                (Provider::Gemini, _) => {
                    if t.max_uses.is_some()
                        || !t.allowed_domains.is_empty()
                        || !t.blocked_domains.is_empty()
                        || t.user_location.is_some()
                    {
                        unsupported("`maxUses`, domain lists or `userLocation` for its Google Search");
                    }
                }
                (Provider::OpenAiChat, ServerToolKind::WebSearch) if self.model.contains("search") => {
                    if t.max_uses.is_some() || !t.allowed_domains.is_empty() || !t.blocked_domains.is_empty() {
                        unsupported("`maxUses` or domain lists for its web search");
                    }
                    plan.web_search_options = Some(t.chat_web_search_options());
                }
                (Provider::OpenAiChat, ServerToolKind::WebSearch) => unsupported(&format!(
                    "web search for {} through Chat Completions (only its search models, such as gpt-5-search-api, take `web_search_options`)",
                    self.model
                )),
                (_, kind) => unsupported(&format!("server-side {} in its chat API", kind.as_str())),
            }
            plan.tools.extend(t.tools_entry(self.provider));
        }
        Ok(plan)
    }

    /// Each tool once; Anthropic's names free of the function tools'; the domain lists apart.
    fn check_server_tool(&self, i: usize, t: &ServerTool, path: &str) -> Result<(), Error> {
        let name = t.kind.as_str();
        if self.server_tools[..i].iter().any(|o| o.kind == t.kind) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                path,
                format!("serverTools declares `{name}` twice"),
            ));
        }
        if self.provider == Provider::Anthropic && self.tools.iter().any(|f| f.name == name) {
            return Err(Error::new(ErrorCode::InvalidValue, path, format!("a function tool is also named `{name}`, the name Anthropic gives this server tool")));
        }
        if !t.allowed_domains.is_empty() && !t.blocked_domains.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                path,
                "allowedDomains and blockedDomains cannot be used together",
            ));
        }
        if t.max_uses == Some(0) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                format!("{path}.maxUses"),
                "maxUses must be at least 1",
            ));
        }
        Ok(())
    }
}

impl ServerTool {
    /// The entry of the body's `tools` that declares this tool to `provider` (`None` where it
    /// is declared elsewhere, or not at all).
    pub(crate) fn tools_entry(&self, provider: Provider) -> Option<Value> {
        Some(match (provider, self.kind) {
            (Provider::Anthropic, _) => anthropic(self),
            (_, ServerToolKind::ToolSearchRegex | ServerToolKind::ToolSearchBm25) => return None,
            (Provider::OpenAiResponses, ServerToolKind::WebSearch) => responses_search(self),
            (Provider::OpenAiResponses, ServerToolKind::CodeExecution) => {
                obj!({"type": "code_interpreter", "container": obj!({"type": "auto"})})
            }
            (Provider::Gemini, ServerToolKind::WebSearch) => {
                obj!({"googleSearch": Value::Object(Map::new())})
            }
            (Provider::Gemini, ServerToolKind::CodeExecution) => {
                obj!({"codeExecution": Value::Object(Map::new())})
            }
            _ => return None,
        })
    }

    /// Chat Completions `web_search_options`.
    pub(crate) fn chat_web_search_options(&self) -> Value {
        let mut options = Map::new();
        if let Some(loc) = location(self) {
            options.insert(
                "user_location".into(),
                obj!({"type": "approximate", "approximate": loc}),
            );
        }
        Value::Object(options)
    }
}

fn location(t: &ServerTool) -> Option<Value> {
    let l = t.user_location.as_ref()?;
    let mut m = Map::new();
    for (k, v) in [
        ("city", &l.city),
        ("region", &l.region),
        ("country", &l.country),
        ("timezone", &l.timezone),
    ] {
        if let Some(v) = v {
            m.insert(k.into(), v.clone().into());
        }
    }
    Some(Value::Object(m))
}

fn anthropic(t: &ServerTool) -> Value {
    match t.kind {
        ServerToolKind::ToolSearchRegex => {
            obj!({"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"})
        }
        ServerToolKind::ToolSearchBm25 => {
            obj!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
        }
        ServerToolKind::CodeExecution => {
            obj!({"type": "code_execution_20250825", "name": "code_execution"})
        }
        ServerToolKind::WebSearch => {
            let mut m = Map::new();
            m.insert("type".into(), "web_search_20250305".into());
            m.insert("name".into(), "web_search".into());
            if let Some(n) = t.max_uses {
                m.insert("max_uses".into(), n.into());
            }
            if !t.allowed_domains.is_empty() {
                m.insert("allowed_domains".into(), t.allowed_domains.clone().into());
            }
            if !t.blocked_domains.is_empty() {
                m.insert("blocked_domains".into(), t.blocked_domains.clone().into());
            }
            if let Some(Value::Object(mut loc)) = location(t) {
                loc.insert("type".into(), "approximate".into());
                m.insert("user_location".into(), Value::Object(loc));
            }
            Value::Object(m)
        }
    }
}

fn responses_search(t: &ServerTool) -> Value {
    let mut m = Map::new();
    m.insert("type".into(), "web_search".into());
    if !t.allowed_domains.is_empty() {
        m.insert(
            "filters".into(),
            obj!({"allowed_domains": t.allowed_domains.clone()}),
        );
    }
    if let Some(Value::Object(mut loc)) = location(t) {
        loc.insert("type".into(), "approximate".into());
        m.insert("user_location".into(), Value::Object(loc));
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests;
