//! Server-tool declarations in request bodies, read back as `serverTools` where turnwire would
//! write them byte for byte (the history's server-tool blocks are read by
//! `ServerToolBlock::from_anthropic` and its siblings).

use serde_json::Value;

use crate::request::{ServerTool, ServerToolKind, UserLocation};
use crate::vocab::Provider;

/// The server tool a `tools` entry declares, when rendering that tool for `provider` gives the
/// entry back exactly (apart from a cache mark, which is read with the other marks).
pub(crate) fn declaration(provider: Provider, entry: &Value) -> Option<ServerTool> {
    let kind = match (provider, entry.get("type").and_then(Value::as_str)) {
        (Provider::Anthropic, Some(t)) if t.starts_with("web_search_") => ServerToolKind::WebSearch,
        (Provider::Anthropic, Some(t)) if t.starts_with("code_execution_") => {
            ServerToolKind::CodeExecution
        }
        (Provider::Anthropic, Some("tool_search_tool_regex_20251119")) => {
            ServerToolKind::ToolSearchRegex
        }
        (Provider::Anthropic, Some("tool_search_tool_bm25_20251119")) => {
            ServerToolKind::ToolSearchBm25
        }
        (Provider::OpenAiResponses, Some("web_search")) => ServerToolKind::WebSearch,
        (Provider::OpenAiResponses, Some("code_interpreter")) => ServerToolKind::CodeExecution,
        (Provider::Gemini, None) if entry.get("googleSearch").is_some() => {
            ServerToolKind::WebSearch
        }
        (Provider::Gemini, None) if entry.get("codeExecution").is_some() => {
            ServerToolKind::CodeExecution
        }
        _ => return None,
    };
    let strings = |v: Option<&Value>| -> Vec<String> {
        v.and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    };
    let allowed = entry
        .get("allowed_domains")
        .or_else(|| entry.get("filters").and_then(|f| f.get("allowed_domains")));
    let tool = ServerTool {
        kind,
        max_uses: entry
            .get("max_uses")
            .and_then(Value::as_u64)
            .and_then(|n| u32::try_from(n).ok()),
        allowed_domains: strings(allowed),
        blocked_domains: strings(entry.get("blocked_domains")),
        user_location: entry.get("user_location").map(location),
    };
    let mut without_mark = entry.clone();
    if let Value::Object(m) = &mut without_mark {
        m.remove("cache_control");
    }
    (tool.tools_entry(provider).as_ref() == Some(&without_mark)).then_some(tool)
}

/// Chat Completions `web_search_options`, when turnwire would write it the same way.
pub(crate) fn chat_web_search(options: &Value) -> Option<ServerTool> {
    let mut tool = ServerTool::new(ServerToolKind::WebSearch);
    tool.user_location = options
        .get("user_location")
        .and_then(|l| l.get("approximate"))
        .map(location);
    (tool.chat_web_search_options() == *options).then_some(tool)
}

fn location(v: &Value) -> UserLocation {
    let s = |k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    UserLocation {
        city: s("city"),
        region: s("region"),
        country: s("country"),
        timezone: s("timezone"),
    }
}
