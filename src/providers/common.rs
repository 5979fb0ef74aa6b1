//! Projection helpers shared by the adapters.

use serde_json::Value;

use crate::model::ToolResponseBlock;

/// The text a provider sees for a tool result: the error text for failed calls (followed by
/// any result), otherwise the result itself (strings as they are, other JSON compact).
///
/// ```
/// use turnwire::model::ToolResponseBlock;
/// let r = ToolResponseBlock::new("c1", "ls", serde_json::json!({"files": 2}));
/// assert_eq!(turnwire::providers::common::result_text(&r), r#"{"files":2}"#);
/// ```
pub fn result_text(r: &ToolResponseBlock) -> String {
    let result = match &r.result {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    match &r.error {
        Some(e) if result.trim().is_empty() => e.clone(),
        Some(e) => format!("{e}\n{result}"),
        None => result,
    }
}

/// A code block as fenced Markdown text.
///
/// ```
/// let c = turnwire::model::CodeBlock { code: "x = 1".into(), language: Some("py".into()), ..Default::default() };
/// assert_eq!(turnwire::providers::common::fenced(&c), "```py\nx = 1\n```");
/// ```
pub fn fenced(c: &crate::model::CodeBlock) -> String {
    format!(
        "```{}\n{}\n```",
        c.language.as_deref().unwrap_or(""),
        c.code
    )
}

/// Splits a `data:` URL into (mime type, base64 payload) when it is base64-encoded.
///
/// ```
/// let (m, d) = turnwire::providers::common::split_data_url("data:image/png;base64,AAAA").unwrap();
/// assert_eq!((m, d), ("image/png", "AAAA"));
/// ```
pub fn split_data_url(url: &str) -> Option<(&str, &str)> {
    let rest = url.strip_prefix("data:")?;
    let (head, data) = rest.split_once(',')?;
    let mime = head.strip_suffix(";base64")?;
    Some((mime, data))
}

/// The media type with `image/jpg` spelled as providers want it.
pub fn media_type(mime: &str) -> String {
    let m = mime.to_ascii_lowercase();
    if m == "image/jpg" {
        "image/jpeg".into()
    } else {
        m
    }
}

/// The system prompt: the caller's, then the transcript's system messages.
pub fn system_text(options: &crate::RenderOptions, hoisted: &[String]) -> String {
    let mut parts: Vec<&str> = Vec::new();
    if let Some(s) = options.system.as_deref() {
        if !s.trim().is_empty() {
            parts.push(s);
        }
    }
    parts.extend(
        hoisted
            .iter()
            .map(String::as_str)
            .filter(|s| !s.trim().is_empty()),
    );
    parts.join("\n\n")
}

/// The declared tool names, reserved before any other name is projected so that a declared
/// tool always keeps its spelling. (Names used only in the history are projected in order, so an
/// earlier call's name never depends on later calls.)
pub fn declared_names(options: &crate::RenderOptions) -> impl Iterator<Item = &str> {
    options.tools.iter().map(|t| t.name.as_str())
}
