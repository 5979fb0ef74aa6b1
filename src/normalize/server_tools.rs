//! Server-tool blocks for the render target: replayed as they are to the provider that ran them
//! where it takes them back, sent as assistant text everywhere else.
//!
//! - Anthropic takes back its `server_tool_use` and `*_tool_result` blocks; a result whose
//!   call is not earlier in the same message, or a call id outside `^srvtoolu_[a-zA-Z0-9_]+$`
//!   (ANT-08), is sent as text.
//! - Gemini takes back its `executableCode`, `codeExecutionResult`, `toolCall` and
//!   `toolResponse` parts.
//! - OpenAI Responses items (`web_search_call`, `code_interpreter_call`) are sent as text even
//!   to Responses: turnwire renders with `store: false`, and the API looks those ids up in its
//!   store ("Item with id 'ws_…' not found") and wants each with its reasoning item.
//! - Two Responses items are no tool runs and carry no store reference once their id is left
//!   out: a `compaction` item (ORS-20) goes back to Responses only from the same provider
//!   family, endpoint and account (its content is encrypted for that account; an endpoint or
//!   account unknown on either side does not count against it), and is dropped everywhere else
//!   (there is nothing readable in it); `additional_tools` (tools declared mid-history) goes
//!   back to Responses and is dropped elsewhere, its tools named (a call to one of them is
//!   declared by the declarations pass where the target needs it).
//!
//! What each block decides depends only on its own message and the target, so a message
//! renders the same whatever follows it (the incremental renderer relies on that).

use crate::fast_map::HashSet;

use super::options::NormalizeOptions;
use super::replayed_blocks::{self, Settled};
use super::work::{describe, Item, Msg};
use crate::model::{
    provider_family, Block, Provenance, ServerToolBlock, ServerToolPhase, Speaker, TextBlock,
};
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Replays or converts every server-tool block of `msgs` for the target.
pub(crate) fn project(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    msgs.into_iter()
        .map(|mut m| {
            if m.speaker == Speaker::Ai
                && m.items
                    .iter()
                    .any(|i| matches!(i.block, Block::ServerTool(_)))
            {
                // the blocks after a `fallback` block came from its `to` model (ANT-43)
                crate::model::fallback::attribute(m.items.iter_mut().map(|i| &mut i.block));
                let prov = m.provenance();
                m.items = project_message(std::mem::take(&mut m.items), &prov, opts, diags);
            }
            m
        })
        .collect()
}

fn project_message(
    items: Vec<Item>,
    prov: &Provenance,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Item> {
    let mut calls: HashSet<String> = HashSet::default();
    let mut out = Vec::with_capacity(items.len());
    for mut item in items {
        match replayed_blocks::settle(&mut item, opts.target, diags) {
            Some(Settled::Keep) => out.push(item),
            Some(Settled::Text) => out.push(as_text(
                item,
                "it is Anthropic's server-side summary of the earlier conversation",
                diags,
            )),
            Some(Settled::Drop) => {}
            None => {
                let Block::ServerTool(b) = &item.block else {
                    out.push(item);
                    continue;
                };
                if let Some(verdict) = responses_state(b, prov, opts) {
                    match verdict {
                        Ok(()) => out.push(item),
                        Err(why) => dropped(&item, b, &why, opts.target, diags),
                    }
                    continue;
                }
                match replay_refusal(b, opts.target, &mut calls) {
                    None => out.push(item),
                    Some(why) => out.push(as_text(item, why, diags)),
                }
            }
        }
    }
    out
}

/// The Responses items that are no tool runs (`compaction`, ORS-20; `additional_tools`,
/// ORS-19): `Some(Ok)` replayed, `Some(Err(why))` dropped, `None` for any other block.
fn responses_state(
    b: &ServerToolBlock,
    prov: &Provenance,
    opts: &NormalizeOptions,
) -> Option<Result<(), String>> {
    if b.provider != "openai-responses" {
        return None;
    }
    let kind = b.wire.get("type").and_then(serde_json::Value::as_str)?;
    let responses = opts.target == Provider::OpenAiResponses;
    match kind {
        "compaction" => Some(if !responses {
            Err(format!(
                "its content is encrypted for the OpenAI account that compacted the history; {} cannot read it",
                opts.target
            ))
        } else {
            same_account(prov, opts)
        }),
        "additional_tools" => Some(if responses {
            Ok(())
        } else {
            let names: Vec<&str> = b
                .wire
                .get("tools")
                .and_then(serde_json::Value::as_array)
                .map(|tools| {
                    tools
                        .iter()
                        .filter_map(|t| t.get("name").or_else(|| t.get("type")))
                        .filter_map(serde_json::Value::as_str)
                        .collect()
                })
                .unwrap_or_default();
            Err(format!(
                "{} takes no tool declarations inside the history (tools: {}); calls to them are declared with the request's tools where the target needs it",
                opts.target,
                names.join(", ")
            ))
        }),
        _ => None,
    }
}

/// ORS-20: a compaction item verifies only with the OpenAI account that made it: the provider
/// families must agree (OpenAI, not Azure), and the endpoints and the accounts where both sides
/// name one (an unknown side: the others decide, as for every continuity token; issue 31).
fn same_account(prov: &Provenance, opts: &NormalizeOptions) -> Result<(), String> {
    let family = prov
        .provider
        .as_deref()
        .map_or_else(|| "openai".to_string(), provider_family);
    if family != provider_family(opts.target.as_str()) {
        return Err(format!(
            "it was made by {family}, and its content is encrypted for that account"
        ));
    }
    match (&prov.endpoint, &opts.endpoint) {
        (Some(a), Some(b)) if a.trim_end_matches('/') != b.trim_end_matches('/') => {
            return Err(format!(
                "it was made at {a}, not {b}, and its content is encrypted for that account"
            ))
        }
        _ => {}
    }
    match (&prov.account, &opts.account) {
        // the labels stay out of the message: they may be derived from a key (js/account.mts)
        (Some(a), Some(b)) if a != b => Err(
            "it was made under another account than this request's, and its content is encrypted for that account".to_string()
        ),
        _ => Ok(()),
    }
}

fn dropped(
    item: &Item,
    b: &ServerToolBlock,
    why: &str,
    target: Provider,
    diags: &mut Vec<Diagnostic>,
) {
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ContinuityDropped,
            FaultClass::ProviderProjection,
            format!(
                "{} item of {} at {} is not sent to {target}: {why}",
                b.name,
                b.provider,
                describe(item.origin)
            ),
        )
        .at(item.origin),
    );
}

/// Why `b` cannot be replayed to `target` (`None`: it can). `calls` collects the Anthropic
/// call ids seen so far in the message.
fn replay_refusal(
    b: &ServerToolBlock,
    target: Provider,
    calls: &mut HashSet<String>,
) -> Option<&'static str> {
    match (target, b.provider.as_str()) {
        (Provider::Anthropic, "anthropic") => {
            let text = |k: &str| b.wire.get(k).and_then(serde_json::Value::as_str);
            match b.phase {
                ServerToolPhase::Call => {
                    let id = text("id").unwrap_or_default();
                    if !crate::ids::is_anthropic_server_tool_id(id) {
                        return Some("its id is not an Anthropic server-tool id (ANT-08)");
                    }
                    calls.insert(id.to_string());
                    None
                }
                ServerToolPhase::Result => match text("tool_use_id") {
                    Some(id) if calls.contains(id) => None,
                    _ => Some("its call is not earlier in the same message"),
                },
            }
        }
        (Provider::Gemini, "gemini") => None,
        (Provider::OpenAiResponses, "openai-responses") => {
            Some("requests are sent with `store: false`, and the API takes these items back only from its store")
        }
        _ => Some("another provider ran it"),
    }
}

fn as_text(item: Item, why: &str, diags: &mut Vec<Diagnostic>) -> Item {
    let Block::ServerTool(b) = &item.block else {
        return item;
    };
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ServerToolAsText,
            FaultClass::ProviderProjection,
            format!(
                "{} {} of {} at {} sent as text: {why}",
                b.name,
                b.phase.as_str(),
                b.provider,
                describe(item.origin)
            ),
        )
        .at(item.origin),
    );
    Item {
        detached: false,
        block: Block::Text(TextBlock::new(b.portable_text())),
        origin: item.origin,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn msg(blocks: Vec<Block>) -> Msg {
        Msg::made_up(
            Speaker::Ai,
            blocks
                .into_iter()
                .enumerate()
                .map(|(i, block)| Item {
                    block,
                    origin: Some((1, i)),
                    detached: false,
                })
                .collect(),
        )
    }

    fn kinds(m: &Msg) -> Vec<&str> {
        m.items.iter().map(|i| i.block.type_name()).collect()
    }

    fn anthropic_pair(call_id: &str, result_id: &str) -> Vec<Block> {
        vec![
            Block::ServerTool(ServerToolBlock::new(
                "anthropic",
                ServerToolPhase::Call,
                json!({"type": "server_tool_use", "id": call_id, "name": "web_search", "input": {"query": "q"}}),
            )),
            Block::ServerTool(ServerToolBlock::new(
                "anthropic",
                ServerToolPhase::Result,
                json!({"type": "web_search_tool_result", "tool_use_id": result_id, "content": []}),
            )),
        ]
    }

    #[test]
    fn blocks_go_back_to_their_provider_and_become_text_for_others() {
        for (target, kept) in [
            (Provider::Anthropic, true),
            (Provider::OpenAiChat, false),
            (Provider::OpenAiResponses, false),
            (Provider::Gemini, false),
            (Provider::DeepSeek, false),
        ] {
            let mut diags = Vec::new();
            let out = project(
                vec![msg(anthropic_pair("srvtoolu_1", "srvtoolu_1"))],
                &NormalizeOptions::new(target, "m"),
                &mut diags,
            );
            let want = if kept {
                ["server_tool"; 2]
            } else {
                ["text"; 2]
            };
            assert_eq!(kinds(&out[0]), want, "{target}");
            assert_eq!(diags.len(), if kept { 0 } else { 2 }, "{target}");
        }
        let gemini = Block::ServerTool(ServerToolBlock::new(
            "gemini",
            ServerToolPhase::Call,
            json!({"executableCode": {"language": "PYTHON", "code": "1+1"}}),
        ));
        let mut diags = Vec::new();
        let out = project(
            vec![msg(vec![gemini])],
            &NormalizeOptions::new(Provider::Gemini, "m"),
            &mut diags,
        );
        assert_eq!(kinds(&out[0]), ["server_tool"]);
    }

    #[test]
    fn an_anthropic_result_without_its_call_or_a_foreign_id_is_text() {
        let mut diags = Vec::new();
        let out = project(
            vec![msg(anthropic_pair("srvtoolu_1", "srvtoolu_2"))],
            &NormalizeOptions::new(Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(kinds(&out[0]), ["server_tool", "text"]);
        assert!(
            diags[0].message.contains("not earlier in the same message"),
            "{}",
            diags[0].message
        );
        let mut diags = Vec::new();
        let out = project(
            vec![msg(anthropic_pair("ws_1", "ws_1"))],
            &NormalizeOptions::new(Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(kinds(&out[0]), ["text", "text"]);
        assert_eq!(diags[0].code, DiagnosticCode::ServerToolAsText);
    }
}

#[cfg(test)]
mod ors_20 {
    use super::*;
    use crate::model::Transcript;
    use crate::normalize::work::from_transcript;
    use serde_json::json;

    fn compaction_msg(endpoint: Option<&str>) -> Vec<Msg> {
        let mut meta = json!({"provider": "openai", "api": "responses", "model": "gpt-5.5"});
        if let Some(e) = endpoint {
            meta["providerBaseURL"] = json!(e);
        }
        let t = Transcript::from_value(&json!([{"speaker": "ai", "metadata": meta, "blocks": [
            {"type": "server_tool", "provider": "openai-responses", "phase": "result",
             "wire": {"type": "compaction", "id": "cmp_1", "encrypted_content": "gAAA"}}]}]))
        .unwrap_or_default();
        from_transcript(t)
    }

    fn kept(target: Provider, endpoint: Option<&str>, made_at: Option<&str>) -> (bool, usize) {
        let mut o = NormalizeOptions::new(target, "gpt-5.6");
        o.endpoint = endpoint.map(str::to_string);
        let mut diags = Vec::new();
        let out = project(compaction_msg(made_at), &o, &mut diags);
        (
            out.first().is_some_and(|m| !m.items.is_empty()),
            diags.len(),
        )
    }

    #[test]
    fn ors_20_compaction_goes_back_only_to_the_same_provider_and_endpoint() {
        assert_eq!(kept(Provider::OpenAiResponses, None, None), (true, 0));
        let api = Some("https://api.openai.com/v1");
        assert_eq!(
            kept(
                Provider::OpenAiResponses,
                api,
                Some("https://api.openai.com/v1/")
            ),
            (true, 0)
        );
        assert_eq!(
            kept(
                Provider::OpenAiResponses,
                Some("https://gw.example/v1"),
                api
            ),
            (false, 1)
        );
        for other in [Provider::Anthropic, Provider::Gemini, Provider::OpenAiChat] {
            assert_eq!(kept(other, None, None), (false, 1), "{other}");
        }
    }
}
