//! Orphan results: results whose call is nowhere in the history (typically after compaction,
//! REQ-915-026…028). By default their content is kept as plain text, so nothing is lost; the
//! `drop` and `reconstruct-call` policies are options.

use std::collections::HashSet;

use serde_json::{Map, Value};

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::OrphanPolicy;
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker, TextBlock, ToolCallBlock, ToolResponseBlock};

/// Name given to a reconstructed call whose result did not record its tool name.
pub const UNKNOWN_TOOL_NAME: &str = "unknown_tool";

pub(crate) fn handle(
    msgs: Vec<Msg>,
    policy: OrphanPolicy,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let calls: HashSet<String> = msgs
        .iter()
        .flat_map(|m| m.items.iter())
        .filter_map(|i| match &i.block {
            Block::ToolCall(c) => Some(c.id.clone()),
            _ => None,
        })
        .collect();
    let mut out = Vec::with_capacity(msgs.len());
    for mut msg in msgs {
        if msg.speaker != Speaker::Tool {
            out.push(msg);
            continue;
        }
        // Split the message's items into the ones that stay and orphan groups
        // (an orphan response plus the attachments that follow it).
        let mut kept: Vec<Item> = Vec::new();
        let mut orphans: Vec<Vec<Item>> = Vec::new();
        let mut in_orphan = false;
        for item in std::mem::take(&mut msg.items) {
            match &item.block {
                Block::ToolResponse(r) if !calls.contains(&r.call_id) => {
                    in_orphan = true;
                    orphans.push(vec![item]);
                }
                Block::ToolResponse(_) => {
                    in_orphan = false;
                    kept.push(item);
                }
                _ if in_orphan => {
                    if let Some(group) = orphans.last_mut() {
                        group.push(item);
                    }
                }
                _ => kept.push(item),
            }
        }
        let template = msg.sibling(Speaker::Tool, Vec::new());
        if !kept.is_empty() {
            msg.items = kept;
            out.push(msg);
        }
        for group in orphans {
            let mut group = group.into_iter();
            let Some(head) = group.next() else { continue };
            let attachments: Vec<Item> = group.collect();
            let Block::ToolResponse(resp) = &head.block else {
                continue;
            };
            let resp = resp.clone();
            let name = resp.tool_name.clone().unwrap_or_default();
            let base = Diagnostic::new(
                DiagnosticCode::OrphanResultAsText,
                FaultClass::CanonicalState,
                String::new(),
            )
            .at(head.origin)
            .call(resp.call_id.clone());
            match policy {
                OrphanPolicy::Text => {
                    diags.push(Diagnostic {
                        message: format!(
                            "result at {} answers call `{}` which is not in the history; kept as plain user text",
                            describe(head.origin),
                            resp.call_id
                        ),
                        ..base
                    });
                    let mut items = vec![Item {
                        block: Block::Text(TextBlock::new(orphan_text(&resp))),
                        origin: head.origin,
                    }];
                    items.extend(attachments);
                    out.push(template.sibling(Speaker::Human, items));
                }
                OrphanPolicy::Drop => {
                    diags.push(Diagnostic {
                        code: DiagnosticCode::OrphanResultDropped,
                        message: format!(
                            "result at {} answers call `{}` (tool `{name}`) which is not in the history; dropped with {} attachment(s)",
                            describe(head.origin),
                            resp.call_id,
                            attachments.len()
                        ),
                        ..base
                    });
                }
                OrphanPolicy::ReconstructCall => {
                    let tool = if name.is_empty() {
                        UNKNOWN_TOOL_NAME.to_string()
                    } else {
                        name.clone()
                    };
                    diags.push(Diagnostic {
                        code: DiagnosticCode::OrphanCallReconstructed,
                        message: format!(
                            "result at {} answers call `{}` which is not in the history; a call to `{tool}` with empty arguments was reconstructed before it",
                            describe(head.origin),
                            resp.call_id
                        ),
                        ..base
                    });
                    let call =
                        ToolCallBlock::new(resp.call_id.clone(), tool, Value::Object(Map::new()));
                    out.push(template.sibling(
                        Speaker::Ai,
                        vec![Item {
                            block: Block::ToolCall(call),
                            origin: None,
                        }],
                    ));
                    let mut items = vec![head];
                    items.extend(attachments);
                    out.push(template.sibling(Speaker::Tool, items));
                }
            }
        }
    }
    out
}

/// The plain-text form of an orphan result.
fn orphan_text(r: &ToolResponseBlock) -> String {
    let name = r.tool_name.as_deref().unwrap_or("unknown");
    let mut s = format!(
        "[Result of tool `{name}` (call {}); its call is no longer in the conversation]\n",
        r.call_id
    );
    s.push_str(&crate::providers::common::result_text(r));
    s
}
