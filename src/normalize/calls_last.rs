//! For targets whose calls are items that their outputs must follow directly (OpenAI
//! Responses, ORS-02/ORS-10), an assistant message that goes on after a tool call (text or
//! reasoning stored after the call) is split there: the part up to the calls, their results,
//! then the rest. Responses input is a flat list of items, so this reproduces the order the
//! model produced them in; nothing is reordered or dropped.
//!
//! Meta and Mistral models on Bedrock Converse take no text beside a `toolUse` in one turn
//! (BDR-10): a call turn's text and code are left out there, each with a `block_omitted`
//! diagnostic at its path (no other place in an alternating history can hold them); the role
//! order pass calls that step last, after its merges.

use crate::fast_map::HashMap;

use super::options::{NormalizeOptions, Profile};
use super::work::{describe_message, Item, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass, Provider};

/// Whether the message has a non-call block after a call.
fn goes_on_after_calls(m: &Msg) -> bool {
    let mut seen_call = false;
    for i in &m.items {
        match i.block {
            Block::ToolCall(_) => seen_call = true,
            _ if seen_call => return true,
            _ => {}
        }
    }
    false
}

/// Splits the items after each run of calls that more content follows.
fn segments(items: Vec<Item>) -> Vec<Vec<Item>> {
    let mut out: Vec<Vec<Item>> = vec![Vec::new()];
    let mut last_was_call = false;
    for item in items {
        let is_call = matches!(item.block, Block::ToolCall(_));
        if last_was_call && !is_call {
            out.push(Vec::new());
        }
        last_was_call = is_call;
        if let Some(seg) = out.last_mut() {
            seg.push(item);
        }
    }
    out
}

/// The results of a tool message, each with the items attached to it, by call id, and the call
/// ids in their order.
fn result_groups(tool: Msg) -> (Msg, HashMap<String, Vec<Item>>, Vec<String>) {
    let mut groups: HashMap<String, Vec<Item>> = HashMap::default();
    let mut order: Vec<String> = Vec::new();
    let mut current: Option<String> = None;
    let mut template = tool;
    for item in std::mem::take(&mut template.items) {
        match &item.block {
            Block::ToolResponse(r) => {
                current = Some(r.call_id.clone());
                order.push(r.call_id.clone());
                groups.entry(r.call_id.clone()).or_default().push(item);
            }
            _ => {
                if let Some(g) = current.as_ref().and_then(|c| groups.get_mut(c)) {
                    g.push(item);
                }
            }
        }
    }
    (template, groups, order)
}

/// Whether the target takes no text beside a call in one assistant turn (BDR-10).
fn calls_alone(opts: &NormalizeOptions) -> bool {
    opts.target == Provider::BedrockConverse
        && crate::models::bedrock_model(&opts.model)
            .0
            .no_text_beside_tool_use()
}

/// BDR-10: leaves out the text and code of each assistant turn that calls a tool, where the
/// target refuses them. Runs after role order, whose merges can bring text next to calls.
pub(crate) fn leave_text_out_of_call_turns(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if !calls_alone(opts) {
        return msgs;
    }
    msgs.into_iter()
        .map(|mut m| {
            let calls = m.speaker == Speaker::Ai
                && m.items.iter().any(|i| matches!(i.block, Block::ToolCall(_)));
            if calls {
                m.items.retain(|i| {
                    let text = matches!(i.block, Block::Text(_) | Block::Code(_));
                    if text {
                        let mut d = Diagnostic::new(
                            DiagnosticCode::BlockOmitted,
                            FaultClass::ProviderProjection,
                            "text beside a tool call left out: Meta and Mistral models on Bedrock refuse text and toolUse blocks in one turn (BDR-10)".to_string(),
                        );
                        if let Some((msg, block)) = i.origin {
                            d = d.at_path(format!("$[{msg}].blocks[{block}]"));
                        }
                        diags.push(d);
                    }
                    !text
                });
            }
            m
        })
        .collect()
}

/// Splits assistant messages that go on after their calls (Responses).
pub(crate) fn order(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if !Profile::for_options(opts).calls_last {
        return msgs;
    }
    let mut out = Vec::with_capacity(msgs.len());
    let mut msgs = msgs.into_iter().peekable();
    while let Some(mut m) = msgs.next() {
        if m.speaker != Speaker::Ai || !goes_on_after_calls(&m) {
            out.push(m);
            continue;
        }
        diags.push(
            Diagnostic::new(
                DiagnosticCode::BlockMoved,
                FaultClass::ProviderProjection,
                format!(
                    "assistant {} goes on after a tool call; {} needs each call's output right after it, so the message is split after its calls",
                    describe_message(m.origin),
                    opts.target
                ),
            )
            .at_message(m.origin),
        );
        let tool = if msgs.peek().is_some_and(|n| n.speaker == Speaker::Tool) {
            msgs.next()
        } else {
            None
        };
        let (tool_template, mut groups, order) = match tool {
            Some(t) => {
                let (template, groups, order) = result_groups(t);
                (Some(template), groups, order)
            }
            None => (None, HashMap::default(), Vec::new()),
        };
        for seg in segments(std::mem::take(&mut m.items)) {
            let results: Vec<Item> = seg
                .iter()
                .filter_map(|i| match &i.block {
                    Block::ToolCall(c) => groups.remove(&c.id),
                    _ => None,
                })
                .flatten()
                .collect();
            out.push(m.sibling(Speaker::Ai, seg));
            if let (false, Some(t)) = (results.is_empty(), &tool_template) {
                out.push(t.sibling(Speaker::Tool, results));
            }
        }
        // Results of no call in this message cannot occur after adjacency; kept, not lost.
        let rest: Vec<Item> = order
            .iter()
            .filter_map(|c| groups.remove(c))
            .flatten()
            .collect();
        if let (false, Some(t)) = (rest.is_empty(), &tool_template) {
            out.push(t.sibling(Speaker::Tool, rest));
        }
    }
    out
}
