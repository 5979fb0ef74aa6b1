//! Server tools: tools a provider runs itself (web search, code execution) inside one assistant
//! turn. Their blocks are kept exactly as the provider sent them, to be replayed to it, together
//! with a text every other provider can read.

use serde_json::{Map, Value};

/// Whether a server-tool block is the model's call or the tool's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ServerToolPhase {
    /// The model called the tool (Anthropic `server_tool_use`, Gemini `executableCode` or
    /// `toolCall`, an OpenAI Responses `*_call` item, which also carries its outcome).
    #[default]
    Call,
    /// The tool's result (Anthropic `*_tool_result`, Gemini `codeExecutionResult` or
    /// `toolResponse`).
    Result,
}

impl ServerToolPhase {
    /// The stable string form (`call` or `result`).
    pub const fn as_str(self) -> &'static str {
        match self {
            ServerToolPhase::Call => "call",
            ServerToolPhase::Result => "result",
        }
    }

    /// Parses the stable string form.
    pub fn parse(s: &str) -> Option<ServerToolPhase> {
        match s {
            "call" => Some(ServerToolPhase::Call),
            "result" => Some(ServerToolPhase::Result),
            _ => None,
        }
    }
}

/// A call to a server tool, or its result, as its provider sent it.
///
/// `wire` is the provider's own block (an Anthropic content block, a Gemini part, an OpenAI
/// Responses output item), replayed unchanged when the next request goes to the same provider;
/// any other provider gets [`ServerToolBlock::portable_text`] as assistant text instead.
///
/// ```
/// use turnwire::model::{ServerToolBlock, ServerToolPhase};
/// let call = ServerToolBlock::new("anthropic", ServerToolPhase::Call, serde_json::json!({
///     "type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search",
///     "input": {"query": "rust 2024 edition"}
/// }));
/// assert_eq!((call.id.as_str(), call.name.as_str()), ("srvtoolu_01", "web_search"));
/// assert_eq!(call.portable_text(), "[web_search] query: rust 2024 edition");
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ServerToolBlock {
    /// The provider that ran the tool, in turnwire's names (`anthropic`, `gemini`,
    /// `openai-responses`).
    pub provider: String,
    /// Call or result.
    pub phase: ServerToolPhase,
    /// The provider's id of the call (`srvtoolu_…`, `ws_…`; empty when it gives none).
    pub id: String,
    /// The tool's name (`web_search`, `code_execution`, …).
    pub name: String,
    /// The provider's block, byte for byte as received.
    pub wire: Value,
    /// What other providers read instead; derived from `wire` when absent.
    pub text: Option<String>,
    /// Fields turnwire does not know, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl ServerToolBlock {
    /// A block for `provider`'s `wire` block, with its id and name read from it.
    pub fn new(provider: impl Into<String>, phase: ServerToolPhase, wire: Value) -> Self {
        let provider = provider.into();
        let (id, name) = ids_of(&provider, &wire);
        ServerToolBlock {
            provider,
            phase,
            id,
            name,
            wire,
            text: None,
            extra: Map::new(),
        }
    }

    /// An Anthropic content block of a server tool (`server_tool_use`, every `*_tool_result`),
    /// or one of the API's own blocks kept for replay in place: `fallback` (where a refusal
    /// handed the turn to another model, ANT-43) and `compaction` (a server-side summary,
    /// ANT-44; other providers read its `content`). `None` for any other block.
    ///
    /// ```
    /// use turnwire::model::ServerToolBlock;
    /// let b = ServerToolBlock::from_anthropic(&serde_json::json!({
    ///     "type": "compaction", "content": "We fixed the build.", "encrypted_content": null
    /// })).unwrap();
    /// assert_eq!((b.name.as_str(), b.portable_text().as_str()), ("compaction", "We fixed the build."));
    /// ```
    pub fn from_anthropic(block: &Value) -> Option<Self> {
        let phase = match block.get("type").and_then(Value::as_str)? {
            "server_tool_use" | "fallback" | "compaction" => ServerToolPhase::Call,
            t if t.ends_with("_tool_result") => ServerToolPhase::Result,
            _ => return None,
        };
        Some(ServerToolBlock::new("anthropic", phase, block.clone()))
    }

    /// A Gemini part of code the model ran or a server-side tool it called (`executableCode`,
    /// `toolCall`) or their results (`codeExecutionResult`, `toolResponse`), `None` for any
    /// other part.
    pub fn from_gemini(part: &Value) -> Option<Self> {
        let has = |k: &str| part.get(k).is_some();
        let phase = if has("executableCode") || has("toolCall") {
            ServerToolPhase::Call
        } else if has("codeExecutionResult") || has("toolResponse") {
            ServerToolPhase::Result
        } else {
            return None;
        };
        Some(ServerToolBlock::new("gemini", phase, part.clone()))
    }

    /// An OpenAI Responses item of a tool the API runs itself (`web_search_call`,
    /// `code_interpreter_call`, `file_search_call`, `image_generation_call`), `None` for any
    /// other item.
    pub fn from_responses(item: &Value) -> Option<Self> {
        const BUILT_IN: [&str; 4] = [
            "web_search_call",
            "code_interpreter_call",
            "file_search_call",
            "image_generation_call",
        ];
        let kind = item.get("type").and_then(Value::as_str)?;
        BUILT_IN
            .contains(&kind)
            .then(|| ServerToolBlock::new("openai-responses", ServerToolPhase::Call, item.clone()))
    }

    /// The text another provider sees: `text` when set, otherwise a description of `wire`
    /// (the query and the sources of a search, the code and the output of a run).
    pub fn portable_text(&self) -> String {
        match &self.text {
            Some(t) => t.clone(),
            // an Anthropic `compaction` block is a summary: its text is the summary
            None => match self.wire.get("content").and_then(Value::as_str) {
                Some(summary) if self.name == "compaction" => summary.to_string(),
                _ => describe(&self.name, &self.wire),
            },
        }
    }
}

/// The call id and tool name a provider's block carries.
fn ids_of(provider: &str, wire: &Value) -> (String, String) {
    let s = |k: &str| wire.get(k).and_then(Value::as_str).map(str::to_string);
    let kind = s("type").unwrap_or_default();
    match provider {
        "anthropic" => {
            let id = s("id").or_else(|| s("tool_use_id")).unwrap_or_default();
            let name = s("name").unwrap_or_else(|| tool_of_result_type(&kind));
            (id, name)
        }
        "openai-responses" => {
            let name = match kind.as_str() {
                "web_search_call" => "web_search".to_string(),
                "code_interpreter_call" => "code_interpreter".to_string(),
                other => other.trim_end_matches("_call").to_string(),
            };
            (s("id").unwrap_or_default(), name)
        }
        _ => gemini_ids(wire),
    }
}

/// `web_search_tool_result` → `web_search`.
fn tool_of_result_type(kind: &str) -> String {
    kind.strip_suffix("_tool_result")
        .unwrap_or(kind)
        .to_string()
}

fn gemini_ids(part: &Value) -> (String, String) {
    fn id_of(v: &Value) -> &str {
        v.get("id").and_then(Value::as_str).unwrap_or_default()
    }
    if part.get("executableCode").is_some() || part.get("codeExecutionResult").is_some() {
        let inner = part
            .get("executableCode")
            .or_else(|| part.get("codeExecutionResult"))
            .unwrap_or(&Value::Null);
        return (id_of(inner).to_string(), "code_execution".into());
    }
    let inner = part
        .get("toolCall")
        .or_else(|| part.get("toolResponse"))
        .unwrap_or(&Value::Null);
    let name = inner
        .get("toolType")
        .and_then(Value::as_str)
        .map(|t| match t {
            "GOOGLE_SEARCH_WEB" | "GOOGLE_SEARCH_IMAGE" => "google_search".to_string(),
            other => other.to_ascii_lowercase(),
        })
        .unwrap_or_else(|| "server_tool".into());
    (id_of(inner).to_string(), name)
}

/// A readable account of a provider's server-tool block, for a model that cannot take it.
fn describe(name: &str, wire: &Value) -> String {
    let mut out = format!("[{name}]");
    // The query of a search, whichever provider asked it.
    let query = first_text(
        wire,
        &[
            "/input/query",
            "/input/pattern",
            "/action/query",
            "/toolCall/args/query",
        ],
    )
    .map(str::to_string)
    .or_else(|| queries(wire.get("action")));
    if let Some(q) = query.filter(|q| !q.trim().is_empty()) {
        out.push_str(&format!(" query: {q}"));
    }
    let code = [
        "/input/code",
        "/input/command",
        "/code",
        "/executableCode/code",
    ];
    if let Some(c) = first_text(wire, &code) {
        out.push_str(&format!("\n```\n{c}\n```"));
    }
    for source in sources(wire) {
        out.push_str(&format!("\n- {source}"));
    }
    // the tools an Anthropic tool search found (`tool_search_tool_search_result`)
    let found = wire
        .pointer("/content/tool_references")
        .and_then(Value::as_array);
    for name in found
        .into_iter()
        .flatten()
        .filter_map(|r| r.get("tool_name")?.as_str())
    {
        out.push_str(&format!("\n- found tool `{name}`"));
    }
    let output = outputs(wire);
    if !output.is_empty() {
        out.push_str(&format!("\noutput:\n{output}"));
    }
    if let Some(code) = error_code(wire) {
        out.push_str(&format!(" error: {code}"));
    }
    out
}

/// The first non-empty string at one of `pointers` (JSON Pointers) in `wire`.
fn first_text<'a>(wire: &'a Value, pointers: &[&str]) -> Option<&'a str> {
    pointers
        .iter()
        .filter_map(|p| wire.pointer(p)?.as_str())
        .find(|s| !s.is_empty())
}

/// `action.queries` of a Responses search.
fn queries(action: Option<&Value>) -> Option<String> {
    let list = action?.get("queries")?.as_array()?;
    let qs: Vec<&str> = list.iter().filter_map(Value::as_str).collect();
    (!qs.is_empty()).then(|| qs.join("; "))
}

/// Titles and URLs of search results (Anthropic result content, Responses action sources).
fn sources(wire: &Value) -> Vec<String> {
    let list = wire.get("content").and_then(Value::as_array).or_else(|| {
        wire.get("action")
            .and_then(|a| a.get("sources"))
            .and_then(Value::as_array)
    });
    let Some(list) = list else {
        return Vec::new();
    };
    list.iter()
        .filter_map(|r| {
            let url = r.get("url").and_then(Value::as_str)?;
            Some(match r.get("title").and_then(Value::as_str) {
                Some(t) if !t.is_empty() => format!("{t} <{url}>"),
                _ => format!("<{url}>"),
            })
        })
        .collect()
}

/// What a code run printed (Anthropic `stdout`/`stderr`, Gemini `output`, Responses `logs`).
fn outputs(wire: &Value) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut push = |v: Option<&Value>| {
        if let Some(s) = v.and_then(Value::as_str).filter(|s| !s.trim().is_empty()) {
            parts.push(s.to_string());
        }
    };
    let content = wire.get("content").unwrap_or(&Value::Null);
    push(content.get("stdout"));
    push(content.get("stderr"));
    push(
        wire.get("codeExecutionResult")
            .and_then(|r| r.get("output")),
    );
    if let Some(list) = wire.get("outputs").and_then(Value::as_array) {
        for o in list {
            push(o.get("logs"));
        }
    }
    parts.join("\n")
}

/// An error code a result carries (`content.error_code`, a failed Gemini outcome).
fn error_code(wire: &Value) -> Option<String> {
    let content = wire.get("content").unwrap_or(&Value::Null);
    if let Some(c) = content.get("error_code").and_then(Value::as_str) {
        return Some(c.to_string());
    }
    let outcome = wire
        .get("codeExecutionResult")
        .and_then(|r| r.get("outcome"))
        .and_then(Value::as_str)?;
    (outcome != "OUTCOME_OK").then(|| outcome.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn each_provider_block_reads_its_id_and_name_and_describes_itself() {
        let result = ServerToolBlock::new(
            "anthropic",
            ServerToolPhase::Result,
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": [
                {"type": "web_search_result", "url": "https://a.example", "title": "A", "encrypted_content": "x"}
            ]}),
        );
        assert_eq!(
            (result.id.as_str(), result.name.as_str()),
            ("srvtoolu_1", "web_search")
        );
        assert_eq!(
            result.portable_text(),
            "[web_search]\n- A <https://a.example>"
        );
        let run = ServerToolBlock::new(
            "gemini",
            ServerToolPhase::Result,
            json!({"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "4\n"}}),
        );
        assert_eq!(run.name, "code_execution");
        assert_eq!(run.portable_text(), "[code_execution]\noutput:\n4\n");
        let search = ServerToolBlock::new(
            "openai-responses",
            ServerToolPhase::Call,
            json!({"type": "web_search_call", "id": "ws_1", "status": "completed",
                   "action": {"type": "search", "queries": ["a", "b"]}}),
        );
        assert_eq!(
            (search.id.as_str(), search.name.as_str()),
            ("ws_1", "web_search")
        );
        assert_eq!(search.portable_text(), "[web_search] query: a; b");
        let failed = ServerToolBlock::new(
            "anthropic",
            ServerToolPhase::Result,
            json!({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_2",
                   "content": {"type": "web_search_tool_result_error", "error_code": "max_uses_exceeded"}}),
        );
        assert_eq!(
            failed.portable_text(),
            "[web_search] error: max_uses_exceeded"
        );
    }

    #[test]
    fn a_tool_search_result_names_the_tools_it_found() {
        let call =
            ServerToolBlock::from_anthropic(&json!({"type": "server_tool_use", "id": "srvtoolu_9",
            "name": "tool_search_tool_regex", "input": {"query": "weather"}}))
            .unwrap();
        assert_eq!(
            call.portable_text(),
            "[tool_search_tool_regex] query: weather"
        );
        let result = ServerToolBlock::from_anthropic(
            &json!({"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_9",
            "content": {"type": "tool_search_tool_search_result", "tool_references": [
                {"type": "tool_reference", "tool_name": "get_weather"}]}}),
        )
        .unwrap();
        assert_eq!(
            result.portable_text(),
            "[tool_search]\n- found tool `get_weather`"
        );
    }

    #[test]
    fn a_given_text_wins_over_the_description() {
        let mut b = ServerToolBlock::new(
            "gemini",
            ServerToolPhase::Call,
            json!({"executableCode": {"language": "PYTHON", "code": "print(1)"}}),
        );
        assert_eq!(b.portable_text(), "[code_execution]\n```\nprint(1)\n```");
        b.text = Some("ran it".into());
        assert_eq!(b.portable_text(), "ran it");
    }
}
