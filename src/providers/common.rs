//! Projection helpers shared by the adapters.

/// A code block as fenced Markdown text.
pub(crate) fn fenced(c: &crate::model::CodeBlock) -> String {
    format!(
        "```{}\n{}\n```",
        c.language.as_deref().unwrap_or(""),
        c.code
    )
}

/// The media type with `image/jpg` spelled as providers want it.
pub(crate) fn media_type(mime: &str) -> String {
    let m = mime.to_ascii_lowercase();
    if m == "image/jpg" {
        "image/jpeg".into()
    } else {
        m
    }
}

/// The system prompt: the caller's, then the transcript's system messages.
pub(crate) fn system_text(options: &crate::RenderOptions, hoisted: &[String]) -> String {
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
pub(crate) fn declared_names(options: &crate::RenderOptions) -> impl Iterator<Item = &str> {
    options.tools.iter().map(|t| t.name.as_str())
}
