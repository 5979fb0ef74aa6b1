//! What a host changes about a wire's body (the host table, `src/hosts.rs`): Bedrock and
//! Vertex Claude name the model in the URL and the API version in the body (Bedrock also its
//! betas, and whether it streams in the URL); xAI takes `reasoning.effort` only on its
//! allow-list (XAI-02). The first-party body is built first; this edits it, so a default host
//! leaves it byte for byte. (DeepSeek's `/anthropic` refusing `tool_choice` auto/any, HST-02, is
//! decided with the other tool-choice controls in `request/controls.rs`.)

use serde_json::Value;

use super::Projection;
use crate::hosts::{BetasAt, HostRow, ModelAt, Refusal, VersionAt};
use crate::json::out::Out;
use crate::models::{self, ModelCaps};
use crate::vocab::{DiagnosticCode, Provider, WireApi};

/// The `anthropic-beta` header's name.
const BETA_HEADER: &str = "anthropic-beta";

/// Whether [`apply`] may edit a body of `row`'s host: a version, betas or the `stream` switch
/// moved on a Messages body, or something the host refuses that the body holds (a tool choice
/// it refuses is never written: the request's controls leave it out).
pub(crate) fn edits_envelope(row: &HostRow) -> bool {
    let messages = row.wire == WireApi::Messages;
    row.refuses.iter().any(|r| *r != Refusal::ToolChoiceAutoAny)
        || (messages
            && (row.model == ModelAt::Url
                || matches!(row.version, VersionAt::Body(_))
                || row.betas == BetasAt::Body
                || !row.stream_in_body))
}

/// Edits `body` and `headers` for `row`'s host.
pub(crate) fn apply(
    row: &HostRow,
    model: &str,
    body: &mut Out<'_>,
    headers: &mut Vec<(String, String)>,
    p: &mut Projection,
) {
    let Some(obj) = body.as_obj_mut() else {
        return;
    };
    if row.model == ModelAt::Url {
        obj.remove("model");
    }
    if !row.stream_in_body && obj.remove("stream").is_some() {
        p.note(
            DiagnosticCode::RequestFieldDropped,
            format!(
                "`stream` was left out of the body: {} says it in the URL (`invoke-with-response-stream`)",
                row.host
            ),
            None,
        );
    }
    if let VersionAt::Body(version) = row.version {
        if obj.get_mut("anthropic_version").is_none() {
            obj.insert("anthropic_version", version);
        }
    }
    if row.betas == BetasAt::Body {
        if let Some(i) = headers.iter().position(|(h, _)| h == BETA_HEADER) {
            let (_, joined) = headers.remove(i);
            let betas: Vec<Out<'static>> = joined
                .split(',')
                .map(str::trim)
                .filter(|b| !b.is_empty())
                .map(|b| Out::from(b.to_string()))
                .collect();
            obj.insert("anthropic_beta", betas);
        }
    }
    for refusal in row.refuses {
        match refusal {
            // the request's controls leave it out (`request/controls.rs`), so it is never written
            Refusal::ToolChoiceAutoAny => {}
            Refusal::EffortOffAllowList => xai_effort(model, obj, p),
        }
    }
}

/// XAI-02 on xAI's Responses API: a Grok model takes `reasoning.effort` only on its
/// allow-list (the capability table's xAI rows), at one of its levels; otherwise it is left
/// out with a diagnostic.
fn xai_effort(model: &str, obj: &mut crate::json::out::Obj<'_>, p: &mut Projection) {
    let caps: Option<ModelCaps> =
        models::capabilities(Provider::OpenAiCompatible, model).filter(|c| c.family == "xai-grok");
    let Some(caps) = caps else { return };
    let Some(reasoning) = obj.get_mut("reasoning").and_then(Out::as_obj_mut) else {
        return;
    };
    let effort = reasoning
        .get_mut("effort")
        .and_then(|e| e.as_str())
        .map(str::to_string);
    let Some(effort) = effort else { return };
    if caps.efforts.contains(&effort.as_str()) {
        return;
    }
    reasoning.remove("effort");
    let why = if caps.efforts.is_empty() {
        format!("xAI answers `Model {model} does not support parameter reasoningEffort`")
    } else {
        format!("xAI takes one of {} for it", caps.efforts.join(", "))
    };
    p.note(
        DiagnosticCode::FeatureUnavailable,
        format!("`{model}` takes no reasoning effort `{effort}` ({why}, XAI-02); it was not sent"),
        None,
    );
}

/// A body of `row`'s host in its wire's first-party shape, for the wire's validator: the
/// version and betas the host puts in the body are taken out, the model put back in. What the
/// host itself requires of the envelope is checked by [`envelope_violations`].
pub(crate) fn first_party_shape(row: &HostRow, model: &str, body: &Value) -> Value {
    let mut body = body.clone();
    if let Value::Object(obj) = &mut body {
        if matches!(row.version, VersionAt::Body(_)) {
            obj.remove("anthropic_version");
        }
        if row.betas == BetasAt::Body {
            obj.remove("anthropic_beta");
        }
        // only the Messages body names the model first-party (generateContent and Converse
        // never do)
        if row.model == ModelAt::Url && row.wire == WireApi::Messages && !obj.contains_key("model")
        {
            obj.insert("model".into(), model.into());
        }
    }
    body
}

/// HST-01 and HST-02: what a host requires of a body's envelope (its version value, no
/// `model` where the URL names it, no `stream` where the URL says it, betas as an array of
/// strings) and the fields it refuses.
pub(crate) fn envelope_violations(
    row: &HostRow,
    body: &Value,
) -> Vec<(&'static str, String, String)> {
    let mut out = Vec::new();
    let Some(obj) = body.as_object() else {
        return out;
    };
    if let VersionAt::Body(version) = row.version {
        match obj.get("anthropic_version").and_then(Value::as_str) {
            Some(v) if v == version => {}
            Some(v) => out.push((
                "HST-01",
                "anthropic_version".into(),
                format!(
                    "{} takes `anthropic_version` `{version}`, not `{v}`",
                    row.host
                ),
            )),
            None => out.push((
                "HST-01",
                "anthropic_version".into(),
                format!(
                    "{} needs `anthropic_version` `{version}` in the body",
                    row.host
                ),
            )),
        }
    }
    if row.model == ModelAt::Url && row.wire == WireApi::Messages && obj.contains_key("model") {
        out.push((
            "HST-01",
            "model".into(),
            format!(
                "{} names the model in the URL; the body has no `model`",
                row.host
            ),
        ));
    }
    if !row.stream_in_body && obj.contains_key("stream") {
        out.push((
            "HST-01",
            "stream".into(),
            format!(
                "{} says whether it streams in the URL; the body has no `stream`",
                row.host
            ),
        ));
    }
    if row.betas == BetasAt::Body {
        if let Some(b) = obj.get("anthropic_beta") {
            let strings = b.as_array().is_some_and(|a| a.iter().all(Value::is_string));
            if !strings {
                out.push((
                    "HST-01",
                    "anthropic_beta".into(),
                    "`anthropic_beta` is an array of beta names".into(),
                ));
            }
        }
    }
    if row.refuses.contains(&Refusal::ToolChoiceAutoAny) {
        let kind = obj
            .get("tool_choice")
            .and_then(|c| c.get("type"))
            .and_then(Value::as_str);
        if let Some(kind @ ("auto" | "any")) = kind {
            out.push((
                "HST-02",
                "tool_choice".into(),
                format!(
                    "{} refuses `tool_choice` `{kind}` on its Anthropic-compatible endpoint",
                    row.host
                ),
            ));
        }
    }
    out
}
