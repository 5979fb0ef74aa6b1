//! A request body another client built, repaired and rendered again: for the provider it was
//! built for (a repairing `fetch` or proxy), or for another one.

use serde_json::{Map, Value};

use super::{from_request_body, ImportSource};
use crate::error::{Error, ErrorCode};
use crate::render::{render_owned, Rendered};
use crate::request::RenderOptions;
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// A request body rendered again, and the options it was rendered with.
#[derive(Debug, Clone)]
pub struct RepairedRequest {
    /// The body, id map, renamed tools and every diagnostic (the importer's first).
    pub rendered: Rendered,
    /// The options the body was rendered with: the body's own with the target's set over them.
    pub options: RenderOptions,
}

/// Reads `body` (a request for `provider`), then renders it again with the options the body
/// implied, changed by `target`: render options in their JSON form (`{"provider": "gemini",
/// "model": "gemini-3-pro-preview"}`, `thinking`, `extra`, …; `extra` is merged into the
/// body's own other fields). Every repair is a diagnostic of the result, the importer's first.
///
/// The body's other fields (`stream`, `metadata`, `service_tier`, …) belong to its API: when
/// `target` names a provider of another API they are dropped, each with a
/// `request_field_dropped` diagnostic; the caller sets that API's own through `target.extra`.
///
/// ```
/// use serde_json::json;
/// use turnwire::import::{repair_request_body, ImportSource};
/// let body = json!({
///     "model": "claude-sonnet-4-5", "max_tokens": 512, "stream": true,
///     "messages": [
///         {"role": "user", "content": "Read it."},
///         {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_1", "name": "read", "input": {}}]},
///         {"role": "user", "content": "Well?"}
///     ]
/// });
/// let same = repair_request_body(turnwire::Provider::Anthropic, &body, &ImportSource::default(), &Default::default())?;
/// assert_eq!(same.rendered.body["stream"], true);
/// // the missing result, added
/// assert_eq!(same.rendered.body["messages"][2]["content"][0]["type"], "tool_result");
/// let target = json!({"provider": "gemini", "model": "gemini-2.5-pro"});
/// // a Vertex body keeps its envelope: the host writes `anthropic_version`, the URL the model
/// let vertex = json!({"anthropic_version": "vertex-2023-10-16", "max_tokens": 64,
///     "messages": [{"role": "user", "content": "hi"}]});
/// let source = ImportSource { model: Some("claude-sonnet-4-5".into()), host: Some(turnwire::Host::Vertex), ..Default::default() };
/// let r = repair_request_body(turnwire::Provider::Anthropic, &vertex, &source, &Default::default())?;
/// assert_eq!(r.rendered.body["anthropic_version"], "vertex-2023-10-16");
/// assert!(r.rendered.body.get("model").is_none());
/// let gemini = repair_request_body(turnwire::Provider::Anthropic, &body, &ImportSource::default(), target.as_object().unwrap())?;
/// assert!(gemini.rendered.body.get("stream").is_none());
/// assert_eq!(gemini.options.model, "gemini-2.5-pro");
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn repair_request_body(
    provider: Provider,
    body: &Value,
    source: &ImportSource,
    target: &Map<String, Value>,
) -> Result<RepairedRequest, Error> {
    let imported = from_request_body(provider, body, source)?;
    let mut diagnostics = imported.diagnostics;
    let options = imported
        .options
        .unwrap_or_else(|| RenderOptions::new(provider, source.model.clone().unwrap_or_default()));
    let mut options = retarget(options, target, &mut diagnostics)?;
    // A host that names the version in the body (Bedrock, Vertex) writes `anthropic_version`
    // itself: the body's own is its envelope, not one of its API's fields.
    let host = options.host.or(source.host);
    if host
        .and_then(|h| crate::hosts::row_for(h, options.provider))
        .is_some_and(|r| matches!(r.version, crate::hosts::VersionAt::Body(_)))
    {
        options.host = host;
        options.extra.remove("anthropic_version");
    }
    let mut rendered = render_owned(imported.transcript, &options)?;
    diagnostics.append(&mut rendered.diagnostics);
    rendered.diagnostics = diagnostics;
    Ok(RepairedRequest { rendered, options })
}

/// The body's options with `target`'s fields set over them.
fn retarget(
    options: RenderOptions,
    target: &Map<String, Value>,
    diagnostics: &mut Vec<Diagnostic>,
) -> Result<RenderOptions, Error> {
    let wire = options.provider.wire_api();
    let mut merged = match serde_json::to_value(&options) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    };
    if let Some(p) = target.get("provider") {
        let to: Provider = match p.as_str() {
            Some(name) => name.parse()?,
            None => {
                return Err(Error::new(
                    ErrorCode::InvalidType,
                    "$.provider",
                    "the target's provider must be a string",
                ))
            }
        };
        if to.wire_api() != wire {
            drop_fields(&mut merged, wire, to, diagnostics);
        }
    }
    for (key, value) in target {
        match (key.as_str(), merged.get_mut(key), value) {
            ("extra", Some(Value::Object(own)), Value::Object(more)) => {
                own.extend(more.iter().map(|(k, v)| (k.clone(), v.clone())));
            }
            _ => {
                merged.insert(key.clone(), value.clone());
            }
        }
    }
    let mut out = RenderOptions::from_value(Value::Object(merged))?;
    out.read_repairs = options.read_repairs;
    Ok(out)
}

/// Removes the body's own fields of another API (`extra`), one diagnostic each.
fn drop_fields(
    merged: &mut Map<String, Value>,
    wire: &str,
    to: Provider,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let Some(Value::Object(extra)) = merged.remove("extra") else {
        return;
    };
    for key in extra.keys() {
        diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::RequestFieldDropped,
                FaultClass::CanonicalState,
                format!(
                    "the {wire} body's field \"{key}\" has no place in a {} request ({to}); it was left out",
                    to.wire_api()
                ),
            )
            .at_path(format!("$.{key}")),
        );
    }
}
