//! `ORS-21` (docs/provider-rules-added.md): explicit prompt cache breakpoints. The official
//! SDK's types (openai-node 6.49.0): `prompt_cache_options: {mode?: 'implicit' | 'explicit',
//! ttl?: '30m'}` on the request, "Supported for `gpt-5.6` and later models", and
//! `prompt_cache_breakpoint: {mode: 'explicit'}` on `input_text`, `input_image` and
//! `input_file` parts; "Each request can write up to four breakpoints"; and
//! `prompt_cache_retention`, deprecated in favour of `prompt_cache_options.ttl`.
//!
//! `OAC-31` is the same rule on Chat Completions (`chat/completions.d.ts`: the request's
//! `prompt_cache_options`, `prompt_cache_breakpoint` on `text`, `image_url`, `input_audio` and
//! `file` parts of `messages[].content`): [`CHAT`].

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};

/// Where an API's breakpoints live, and the rule that checks them.
pub(crate) struct Surface {
    rule: &'static str,
    /// The array of items or messages.
    items: &'static str,
    /// The members of an item that hold parts.
    contents: &'static [&'static str],
    /// The parts that take a breakpoint.
    markable: &'static [&'static str],
}

/// OpenAI Responses (`ORS-21`).
pub(crate) const RESPONSES: Surface = Surface {
    rule: "ORS-21",
    items: "input",
    contents: &["content", "output"],
    markable: &["input_text", "input_image", "input_file"],
};

/// OpenAI Chat Completions (`OAC-31`).
pub(crate) const CHAT: Surface = Surface {
    rule: "OAC-31",
    items: "messages",
    contents: &["content"],
    markable: &["text", "image_url", "input_audio", "file"],
};

/// The most breakpoints one request writes.
const MAX_BREAKPOINTS: usize = 4;

/// Whether the body's model takes explicit breakpoints (gpt-5.6 and later).
fn takes_breakpoints(obj: &Map<String, Value>) -> bool {
    let model = obj.get("model").and_then(Value::as_str).unwrap_or_default();
    crate::models::explicit_cache_breakpoints(model)
}

/// `ORS-21` / `OAC-31` on the request: `prompt_cache_options` in its shape, only on gpt-5.6
/// and later, and not next to the deprecated `prompt_cache_retention`.
pub(crate) fn check_prompt_cache_options(
    obj: &Map<String, Value>,
    surface: &Surface,
    out: &mut Findings,
) {
    let rule = surface.rule;
    let takes = takes_breakpoints(obj);
    if let Some(options) = obj.get("prompt_cache_options").filter(|v| !v.is_null()) {
        let path = Path::root().k("prompt_cache_options");
        if !takes {
            out.push(
                rule,
                path.clone(),
                "Unsupported parameter: 'prompt_cache_options' is not supported with this model.",
            );
        }
        check_options(rule, options, &path, out);
        if obj
            .get("prompt_cache_retention")
            .is_some_and(|v| !v.is_null())
        {
            out.push(
                rule,
                Path::root().k("prompt_cache_retention"),
                "prompt_cache_retention is deprecated: set the lifetime with prompt_cache_options.ttl, not both.",
            );
        }
    }
}

/// `ORS-21` / `OAC-31` on the input: `prompt_cache_breakpoint` in its shape, on markable
/// parts, only on gpt-5.6 and later, at most four.
pub(crate) fn check_breakpoints(obj: &Map<String, Value>, surface: &Surface, out: &mut Findings) {
    let rule = surface.rule;
    let marks = breakpoints(obj, surface, out);
    if !marks.is_empty() && !takes_breakpoints(obj) {
        if let Some(first) = marks.first() {
            out.push(
                rule,
                first.clone(),
                "Unsupported parameter: 'prompt_cache_breakpoint' is not supported with this model.",
            );
        }
    }
    if marks.len() > MAX_BREAKPOINTS {
        for path in marks.iter().take(marks.len() - MAX_BREAKPOINTS) {
            out.push(
                rule,
                path.clone(),
                format!(
                    "A request writes at most {MAX_BREAKPOINTS} prompt cache breakpoints (the latest ones); this one is never written."
                ),
            );
        }
    }
}

fn supported(rule: &'static str, path: &Path, got: &Value, allowed: &str, out: &mut Findings) {
    let got = got.as_str().map_or_else(|| got.to_string(), str::to_string);
    out.push(
        rule,
        path.clone(),
        format!("Invalid value: '{got}'. Supported values are: {allowed}."),
    );
}

fn check_options(rule: &'static str, options: &Value, path: &Path, out: &mut Findings) {
    let Some(o) = options.as_object() else {
        out.push(rule, path.clone(), "prompt_cache_options must be an object");
        return;
    };
    for (k, v) in o {
        match (k.as_str(), v) {
            (_, Value::Null) => {}
            ("mode", Value::String(m)) if m == "implicit" || m == "explicit" => {}
            ("mode", v) => supported(rule, &path.k("mode"), v, "'implicit' and 'explicit'", out),
            ("ttl", Value::String(t)) if t == "30m" => {}
            ("ttl", v) => supported(rule, &path.k("ttl"), v, "'30m'", out),
            (k, _) => out.push(
                rule,
                path.clone(),
                format!("Unknown parameter: 'prompt_cache_options.{k}'."),
            ),
        }
    }
}

/// The paths of every breakpoint in `input`, in order; a breakpoint of the wrong shape or on a
/// part that takes none is reported.
fn breakpoints(obj: &Map<String, Value>, surface: &Surface, out: &mut Findings) -> Vec<Path> {
    let (rule, list) = (surface.rule, surface.items);
    let mut marks = Vec::new();
    let Some(items) = obj.get(list).and_then(Value::as_array) else {
        return marks;
    };
    for (i, item) in items.iter().enumerate() {
        for &key in surface.contents {
            let Some(parts) = item.get(key).and_then(Value::as_array) else {
                continue;
            };
            for (j, part) in parts.iter().enumerate() {
                let Some(mark) = part.get("prompt_cache_breakpoint").filter(|v| !v.is_null())
                else {
                    continue;
                };
                let path = Path::root()
                    .k(list)
                    .i(i)
                    .k(key)
                    .i(j)
                    .k("prompt_cache_breakpoint");
                let ty = part.get("type").and_then(Value::as_str).unwrap_or_default();
                if !surface.markable.contains(&ty) {
                    out.push(
                        rule,
                        path.clone(),
                        format!(
                            "Unknown parameter: '{list}[{i}].{key}[{j}].prompt_cache_breakpoint'."
                        ),
                    );
                }
                match mark.get("mode") {
                    Some(Value::String(m)) if m == "explicit" => {}
                    Some(v) => supported(rule, &path.k("mode"), v, "'explicit'", out),
                    None => out.push(
                        rule,
                        path.k("mode"),
                        format!("Missing required parameter: '{list}[{i}].{key}[{j}].prompt_cache_breakpoint.mode'."),
                    ),
                }
                marks.push(path);
            }
        }
    }
    marks
}
