//! Server tools (`serverTools`): tools the provider runs itself, declared in each provider's
//! own form, resolved once per render.
//!
//! | tool | anthropic | openai-responses | gemini | openai-chat |
//! |---|---|---|---|---|
//! | `web_search` | `{"type": "web_search_20250305", "name": "web_search", …}` in `tools` | `{"type": "web_search", …}` in `tools` | `{"googleSearch": {}}` in `tools` | `web_search_options` (search models only) |
//! | `code_execution` | `{"type": "code_execution_20250825", "name": "code_execution"}` | `{"type": "code_interpreter", "container": {"type": "auto"}}` | `{"codeExecution": {}}` | — |
//!
//! Mistral, Kimi, DeepSeek and other compatible servers run no server tools through their chat
//! API. A tool or an option a target does not have is left out with a `server_tool_unavailable`
//! diagnostic naming it, so a request that fails over to another provider still goes out.
//! Gemini 2.x refuses server tools next to function declarations ("Tool use with function
//! calling is unsupported"): the functions win there; Gemini 3 takes both with
//! `toolConfig.includeServerSideToolInvocations`.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::controls::note;
use super::options::RenderOptions;
use crate::error::{Error, ErrorCode};
use crate::normalize::{Diagnostic, DiagnosticCode};
use crate::providers::common::obj;
use crate::providers::Provider;

/// Which server tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ServerToolKind {
    /// Searching the web (Anthropic web search, OpenAI web search, Gemini Google Search).
    WebSearch,
    /// Running code in the provider's sandbox (Anthropic code execution, OpenAI code
    /// interpreter, Gemini code execution).
    CodeExecution,
}

impl ServerToolKind {
    /// The name of the tool in options and diagnostics.
    pub const fn as_str(self) -> &'static str {
        match self {
            ServerToolKind::WebSearch => "web_search",
            ServerToolKind::CodeExecution => "code_execution",
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

/// Read through a `Value` by hand: serde's derives, monomorphised for every reader the options
/// come through, cost the render module kilobytes.
impl<'de> Deserialize<'de> for ServerTool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let Value::Object(mut o) = Value::deserialize(d)? else {
            return Err(D::Error::custom(EXPECTED));
        };
        let kind = match o.remove("type").as_ref().and_then(Value::as_str) {
            Some("web_search") => ServerToolKind::WebSearch,
            Some("code_execution") => ServerToolKind::CodeExecution,
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "{EXPECTED} (unknown server tool \"{other}\")"
                )))
            }
            None => return Err(D::Error::custom(format!("{EXPECTED} (type is missing)"))),
        };
        let mut t = ServerTool::new(kind);
        for (key, v) in o {
            match key.as_str() {
                "maxUses" => {
                    t.max_uses = match v.as_u64().map(u32::try_from) {
                        Some(Ok(n)) => Some(n),
                        _ => return Err(D::Error::custom("maxUses must be a whole number")),
                    }
                }
                "allowedDomains" => t.allowed_domains = strings(v, "allowedDomains")?,
                "blockedDomains" => t.blocked_domains = strings(v, "blockedDomains")?,
                "userLocation" => t.user_location = Some(user_location(v)?),
                other => {
                    return Err(D::Error::custom(format!(
                        "{EXPECTED} (unknown field `{other}`)"
                    )))
                }
            }
        }
        Ok(t)
    }
}

const EXPECTED: &str = "a server tool is {\"type\": \"web_search\" | \"code_execution\"} with optional maxUses, allowedDomains, blockedDomains and userLocation";

fn strings<E: serde::de::Error>(v: Value, field: &str) -> Result<Vec<String>, E> {
    let list = match v {
        Value::Array(list) => list,
        _ => return Err(E::custom(format!("{field} must be a list of domain names"))),
    };
    list.into_iter()
        .map(|d| match d {
            Value::String(s) => Ok(s),
            _ => Err(E::custom(format!("{field} must be a list of domain names"))),
        })
        .collect()
}

fn user_location<E: serde::de::Error>(v: Value) -> Result<UserLocation, E> {
    const WANT: &str = "userLocation is {city?, region?, country?, timezone?} with string values";
    let Value::Object(o) = v else {
        return Err(E::custom(WANT));
    };
    let mut l = UserLocation::default();
    for (key, v) in o {
        let slot = match key.as_str() {
            "city" => &mut l.city,
            "region" => &mut l.region,
            "country" => &mut l.country,
            "timezone" => &mut l.timezone,
            _ => return Err(E::custom(WANT)),
        };
        match v {
            Value::String(s) => *slot = Some(s),
            _ => return Err(E::custom(WANT)),
        }
    }
    Ok(l)
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
        functions: usize,
    ) -> (Vec<Value>, bool, Option<Diagnostic>) {
        if self.tools.is_empty() || functions == 0 {
            return (self.tools.clone(), false, None);
        }
        if gemini_major(model).is_some_and(|v| v >= 3) {
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

/// The major version of a `gemini-N…` model name.
fn gemini_major(model: &str) -> Option<u32> {
    let rest = model.rsplit('/').next()?.strip_prefix("gemini-")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
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
            match (self.provider, t.kind) {
                (Provider::Anthropic, _) => {}
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
mod tests {
    use super::*;

    fn plan(provider: Provider, model: &str, tools: &[&str]) -> Result<ServerToolPlan, Error> {
        let mut o = RenderOptions::new(provider, model);
        o.server_tools = tools
            .iter()
            .map(|t| serde_json::from_str(t).expect("tool"))
            .collect();
        o.server_tool_plan()
    }

    #[test]
    fn each_provider_gets_its_own_declarations_or_a_note() {
        let both = [r#"{"type":"web_search"}"#, r#"{"type":"code_execution"}"#];
        for (provider, model, sent, notes) in [
            (Provider::Anthropic, "claude-sonnet-4-5", 2, 0),
            (Provider::OpenAiResponses, "gpt-5.2", 2, 0),
            (Provider::Gemini, "gemini-2.5-pro", 2, 0),
            (Provider::OpenAiChat, "gpt-5.2", 0, 2),
            (Provider::Mistral, "mistral-large-latest", 0, 2),
            (Provider::Kimi, "kimi-k2.6", 0, 2),
            (Provider::DeepSeek, "deepseek-chat", 0, 2),
            (Provider::OpenAiCompatible, "llama-3.3-70b", 0, 2),
        ] {
            let p = plan(provider, model, &both).expect("plans");
            assert_eq!((p.tools.len(), p.notes.len()), (sent, notes), "{provider}");
        }
        let chat = plan(
            Provider::OpenAiChat,
            "gpt-5-search-api",
            &[r#"{"type":"web_search","userLocation":{"country":"GB"}}"#],
        )
        .expect("plans");
        assert_eq!(
            chat.web_search_options,
            Some(
                serde_json::json!({"user_location": {"type": "approximate", "approximate": {"country": "GB"}}})
            )
        );
    }

    #[test]
    fn bad_declarations_are_errors_at_their_path() {
        for (tools, path) in [
            (
                vec![r#"{"type":"web_search"}"#, r#"{"type":"web_search"}"#],
                "$.serverTools[1]",
            ),
            (
                vec![r#"{"type":"web_search","allowedDomains":["a"],"blockedDomains":["b"]}"#],
                "$.serverTools[0]",
            ),
            (
                vec![r#"{"type":"web_search","maxUses":0}"#],
                "$.serverTools[0].maxUses",
            ),
        ] {
            let e = plan(Provider::Anthropic, "claude-sonnet-4-5", &tools).expect_err("refused");
            assert_eq!((e.code(), e.path()), (ErrorCode::InvalidValue, path));
        }
        assert!(serde_json::from_str::<ServerTool>(r#"{"type":"web_fetch"}"#).is_err());
    }

    #[test]
    fn gemini_2_drops_server_tools_next_to_functions_and_gemini_3_keeps_both() {
        let p = plan(
            Provider::Gemini,
            "gemini-2.5-pro",
            &[r#"{"type":"web_search"}"#],
        )
        .expect("plans");
        let (tools, flag, d) = p.for_gemini("gemini-2.5-pro", 1);
        assert!(tools.is_empty() && !flag && d.is_some());
        let (tools, flag, d) = p.for_gemini("gemini-3-pro-preview", 1);
        assert!(tools.len() == 1 && flag && d.is_none());
        let (tools, flag, _) = p.for_gemini("gemini-2.5-pro", 0);
        assert!(tools.len() == 1 && !flag);
    }
}
