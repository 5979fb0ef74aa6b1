//! Projection helpers shared by the adapters.

use std::borrow::Cow;

pub(crate) use crate::request::json_schema_members;

pub(crate) use crate::model::media_type;

/// A code block as fenced Markdown text.
pub(crate) fn fenced(c: &crate::model::CodeBlock) -> String {
    format!(
        "```{}\n{}\n```",
        c.language.as_deref().unwrap_or(""),
        c.code
    )
}

/// The text a text or code block sends where a target takes plain text (code fenced);
/// `None` for any other block.
pub(crate) fn plain_text(b: &crate::model::Block) -> Option<Cow<'_, str>> {
    use crate::model::Block;
    match b {
        Block::Text(t) => Some(Cow::Borrowed(&t.text)),
        Block::Code(c) => Some(Cow::Owned(fenced(c))),
        _ => None,
    }
}

/// The [`plain_text`] of every text and code block, joined by blank lines (one block's text is
/// borrowed, several are joined in one string); `None` when there is none.
///
/// ```ignore
/// // [text "a", media, code ```x```] → "a\n\n```\nx\n```"
/// ```
pub(crate) fn joined_text(blocks: &[crate::model::Block]) -> Option<Cow<'_, str>> {
    let mut out: Option<Cow<'_, str>> = None;
    for piece in blocks.iter().filter_map(plain_text) {
        match &mut out {
            Some(text) => {
                let text = text.to_mut();
                text.push_str("\n\n");
                text.push_str(&piece);
            }
            None => out = Some(piece),
        }
    }
    out
}

/// Whether every block is text or code (a user message a target can take as one string).
pub(crate) fn only_plain_text(blocks: &[crate::model::Block]) -> bool {
    use crate::model::Block;
    blocks
        .iter()
        .all(|b| matches!(b, Block::Text(_) | Block::Code(_)))
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

/// The system prompt as OpenAI's explicit cache breakpoint needs it (ORS-21 Responses, OAC-31
/// Chat; gpt-5.6 and later): one `part_type` part (`input_text` / `text`) carrying the plan's
/// `prompt_cache_breakpoint`, and `prompt_cache_options: {"mode": "explicit"}` on `body` when
/// the caller's list leaves the implicit breakpoint out. `None` when the plan marks no system
/// prompt, or there is none (a listed mark is then reported).
///
/// ```ignore
/// // [{"type": "text", "text": "Be brief.", "prompt_cache_breakpoint": {"mode": "explicit"}}]
/// let content = marked_system("Be brief.".into(), "text", &r.cache, &mut body, &mut p);
/// ```
pub(crate) fn marked_system<'a>(
    system: String,
    part_type: &'static str,
    cache: &'a crate::request::CachePlan,
    body: &mut crate::json::out::Obj<'a>,
    p: &mut super::Projection,
) -> Option<crate::json::out::Out<'a>> {
    use crate::json::out::out;
    if system.is_empty() {
        p.extend_notes(cache.unmarked_system());
        return None;
    }
    let mark = cache.system_breakpoint.as_ref()?;
    if cache.explicit_only {
        body.insert("prompt_cache_options", out!({"mode": "explicit"}));
    }
    let part = out!({"type": part_type, "text": system, "prompt_cache_breakpoint": mark});
    Some(crate::json::out::Out::Arr(vec![part]))
}

/// The declared tool names, reserved before any other name is projected so that a declared
/// tool always keeps its spelling. (Names used only in the history are projected in order, so an
/// earlier call's name never depends on later calls.)
pub(crate) fn declared_names(options: &crate::RenderOptions) -> impl Iterator<Item = &str> {
    options.tools.iter().map(|t| t.name.as_str())
}

/// The start of a function declaration: its `name`, then its `description` when it has one.
pub(crate) fn named(name: String, description: Option<&str>) -> crate::json::out::Obj<'_> {
    let mut d = crate::json::out::Obj::new();
    d.insert("name", name);
    if let Some(desc) = description {
        d.insert("description", desc);
    }
    d
}

/// `temperature` and `top_p`, unless the model's sampling is fixed (OpenAI reasoning models
/// reject them): then they are left out with a `sampling_adjusted` diagnostic.
pub(crate) fn insert_sampling(
    body: &mut crate::json::out::Obj<'_>,
    o: &crate::RenderOptions,
    r: &crate::request::Resolved,
    p: &mut crate::providers::Projection,
) {
    for (field, value) in [("temperature", o.temperature), ("top_p", o.top_p)] {
        let Some(v) = value else { continue };
        if r.caps.fixed_sampling {
            p.note(
                crate::vocab::DiagnosticCode::SamplingAdjusted,
                format!("{} does not take `{field}` (its sampling is fixed); {v} was left out of this request", o.model),
                None,
            );
        } else {
            body.insert(field, v);
        }
    }
}

/// Claude's sampling with thinking on (ANT-35): no temperature other than 1 and no `top_p`
/// below 0.95. Returns the `temperature` and `top_p` to send; a setting thinking does not allow
/// is left out with a `sampling_adjusted` diagnostic.
pub(crate) fn claude_sampling(
    o: &crate::RenderOptions,
    thinking: bool,
    p: &mut crate::providers::Projection,
) -> (Option<f64>, Option<f64>) {
    use crate::vocab::DiagnosticCode::SamplingAdjusted;
    let temperature = match o.temperature {
        Some(t) if thinking && t != 1.0 => {
            p.note(
                SamplingAdjusted,
                format!(
                    "temperature {t} is not allowed with thinking on; left out of this request"
                ),
                None,
            );
            None
        }
        t => t,
    };
    let top_p = match o.top_p {
        Some(t) if thinking && t < 0.95 => {
            p.note(
                SamplingAdjusted,
                format!("top_p {t} is below 0.95, which thinking does not allow; left out of this request"),
                None,
            );
            None
        }
        t => t,
    };
    (temperature, top_p)
}
