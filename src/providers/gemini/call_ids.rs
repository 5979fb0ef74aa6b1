//! Gemini's function call ids (GEM-22): which calls carry the id Gemini minted, so that the
//! renderer echoes it as `functionCall.id` and `functionResponse.id`.
//!
//! Gemini 3 returns an `id` with every `functionCall` and wants it back on the matching
//! `functionResponse` (`functionResponse.id does not match functionCall.id` otherwise). The
//! decoder and the importer keep that id as the call's canonical id; a call Gemini gave no id
//! gets one turnwire mints, starting with [`MINTED_PREFIX`]. Only Gemini's own ids are sent
//! back: ids turnwire minted, ids the normaliser renamed (`id~N`) and other providers' ids are
//! not (Google's Agent Development Kit strips its client-side ids the same way before a
//! request), and those calls pair by order and name as before.

use crate::model::{provider_family, Block, Message, Provenance, Speaker};
use crate::models::{self, ModelCaps};
use crate::providers::Projection;
use crate::vocab::{names_stable_v1, DiagnosticCode, Provider};

/// How every call id turnwire mints for a Gemini call without one begins (the stream decoder's
/// `gemini_call_{responseId}_{n}`, the importer's `gemini_call_{n}`).
pub(crate) const MINTED_PREFIX: &str = "gemini_call_";

/// Prefixes of ids a client gave calls (turnwire's and its history's own): never Gemini's.
const CLIENT_PREFIXES: [&str; 2] = [MINTED_PREFIX, "hist_tool_"];

/// Whether the call id `id`, made by `prov` (the call's provenance, or its message's), is one
/// Gemini minted: made by a Gemini model that mints call ids (Gemini 3; the model must be
/// known), and not an id a client minted or the normaliser renamed.
///
/// ```ignore
/// let gemini = Provenance { provider: Some("gemini".into()), model: Some("gemini-3-pro-preview".into()), ..Default::default() };
/// assert!(minted_by_gemini("fc_8a1f", &gemini));
/// assert!(!minted_by_gemini("gemini_call_3", &gemini));
/// ```
pub(crate) fn minted_by_gemini(id: &str, prov: &Provenance) -> bool {
    let gemini = prov
        .provider
        .as_deref()
        .is_some_and(|p| provider_family(p) == "gemini");
    let mints_ids = prov
        .model
        .as_deref()
        .is_some_and(|m| models::capabilities_or_defaults(Provider::Gemini, m).function_call_ids);
    gemini
        && mints_ids
        && !id.is_empty()
        && !CLIENT_PREFIXES.iter().any(|p| id.starts_with(p))
        && !renamed(id)
}

/// Decides, call turn by call turn, whose ids go on the wire, and records them in `p` (the
/// adapter then writes `functionCall.id` and `functionResponse.id` for those calls). A call turn
/// sends ids when the model takes them (`function_call_ids`, Gemini 3), the endpoint is not the
/// stable `v1` API, and every call of the turn carries an id Gemini minted; otherwise the turn
/// pairs by order and name, which the normaliser guarantees (results right after their calls,
/// in call order). Ids left out for a `v1` endpoint or a turn mixing origins are reported
/// (`request_field_dropped`).
pub(crate) fn echo_ids(
    msgs: &[Message],
    caps: &ModelCaps,
    endpoint: Option<&str>,
    p: &mut Projection,
) {
    if !caps.function_call_ids {
        return;
    }
    let stable = endpoint.filter(|e| names_stable_v1(e));
    let mut unsent = 0usize;
    for m in msgs.iter().filter(|m| m.speaker == Speaker::Ai) {
        let prov = m.provenance();
        let calls: Vec<(&str, bool)> = m
            .blocks
            .iter()
            .filter_map(|b| match b {
                Block::ToolCall(c) => {
                    let origin = c
                        .provenance
                        .as_ref()
                        .map_or_else(|| prov.clone(), |b| b.or(&prov));
                    Some((c.id.as_str(), minted_by_gemini(&c.id, &origin)))
                }
                _ => None,
            })
            .collect();
        let minted = calls.iter().filter(|(_, g)| *g).count();
        if minted == 0 {
            continue;
        }
        if stable.is_some() {
            unsent += minted;
            continue;
        }
        if minted < calls.len() {
            let first = calls.iter().find(|(_, g)| *g).map(|(id, _)| *id);
            p.note(
                DiagnosticCode::RequestFieldDropped,
                format!(
                    "{minted} of the {} calls of one model turn carry the id Gemini minted and the others do not; no call of that turn is sent with an id (functionCall.id / functionResponse.id), so its responses pair by order and name (GEM-22)",
                    calls.len()
                ),
                first,
            );
            continue;
        }
        for (id, _) in calls {
            p.echo_call_id(id);
        }
    }
    if let (Some(e), true) = (stable, unsent > 0) {
        p.note(
            DiagnosticCode::RequestFieldDropped,
            format!(
                "the ids Gemini minted for {unsent} call(s) were not sent (functionCall.id / functionResponse.id): the endpoint `{e}` is Gemini's stable `v1` API, which answers `Unknown name \"id\"` to them; responses pair by order and name (GEM-22)"
            ),
            None,
        );
    }
}

/// `id~N`: an id the normaliser gave a second call that reused another call's id.
fn renamed(id: &str) -> bool {
    id.rsplit_once('~')
        .is_some_and(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn from(provider: &str, model: &str) -> Provenance {
        Provenance {
            provider: Some(provider.into()),
            model: Some(model.into()),
            ..Provenance::default()
        }
    }

    #[test]
    fn gem_22_only_ids_gemini_minted_are_echoed() {
        let g3 = from("gemini", "gemini-3-pro-preview");
        assert!(minted_by_gemini("call_4162774", &g3));
        assert!(minted_by_gemini(
            "h6yx3cbu",
            &from("google-vertex", "gemini-3.1-pro")
        ));
        assert!(!minted_by_gemini("gemini_call_Lo3w_0", &g3));
        assert!(!minted_by_gemini("hist_tool_k3Jd9", &g3));
        assert!(!minted_by_gemini("h6yx3cbu~2", &g3));
        assert!(minted_by_gemini("a~b", &g3));
        assert!(!minted_by_gemini(
            "h6yx3cbu",
            &from("gemini", "gemini-2.5-pro")
        ));
        assert!(!minted_by_gemini(
            "toolu_01",
            &from("anthropic", "claude-sonnet-4-5")
        ));
        assert!(!minted_by_gemini("h6yx3cbu", &Provenance::default()));
        let no_model = Provenance {
            model: None,
            ..g3.clone()
        };
        assert!(!minted_by_gemini("h6yx3cbu", &no_model));
        assert!(!minted_by_gemini("", &g3));
    }
}
