//! Orphan results: results whose call is nowhere in the history (typically after compaction,
//! REQ-915-026…028). By default their content is kept as plain text, so nothing is lost; the
//! `drop` and `reconstruct-call` policies are options.

use crate::fast_map::HashSet;

use serde_json::{Map, Value};

use super::options::OrphanPolicy;
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker, TextBlock, ToolCallBlock, ToolResponseBlock};
use crate::vocab::SyntheticReason;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass, SyntheticReasonCode};

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
                Block::ToolResponse(r) if item.detached || !calls.contains(&r.call_id) => {
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
            let why = if head.detached {
                format!(
                    "was stored before call `{}`, which has its own result",
                    resp.call_id
                )
            } else {
                format!(
                    "answers call `{}` which is not in the history",
                    resp.call_id
                )
            };
            let base = Diagnostic::new(
                DiagnosticCode::OrphanResultAsText,
                FaultClass::CanonicalState,
                String::new(),
            )
            .at(head.origin)
            .call(resp.call_id.clone());
            // A detached result's call exists: a reconstructed call would duplicate its id.
            let policy = match policy {
                OrphanPolicy::ReconstructCall if head.detached => OrphanPolicy::Text,
                p => p,
            };
            match policy {
                OrphanPolicy::Text => {
                    diags.push(Diagnostic {
                        message: format!(
                            "result at {} {why}; kept as plain user text",
                            describe(head.origin)
                        ),
                        ..base
                    });
                    let mut items = vec![Item {
                        detached: false,
                        block: Block::Text(TextBlock::new(orphan_text(&resp))),
                        origin: head.origin,
                    }];
                    items.extend(attachments);
                    out.push(template.sibling(Speaker::Human, items));
                }
                OrphanPolicy::Drop => {
                    // the tools it loaded (tool changes, ANT-53) go with it: named
                    let loaded: Vec<String> = attachments
                        .iter()
                        .filter_map(|i| match &i.block {
                            Block::ToolChange(c) => Some(format!("`{}`", c.describe())),
                            _ => None,
                        })
                        .collect();
                    let loaded = match loaded.is_empty() {
                        true => String::new(),
                        false => format!(" (it loaded {})", loaded.join(", ")),
                    };
                    diags.push(Diagnostic {
                        code: DiagnosticCode::OrphanResultDropped,
                        message: format!(
                            "result at {} (tool `{name}`) {why}; dropped with {} attachment(s){loaded}",
                            describe(head.origin),
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
                            "result at {} {why}; a call to `{tool}` with empty arguments was reconstructed before it",
                            describe(head.origin)
                        ),
                        synthetic_reason: Some(SyntheticReasonCode(SyntheticReason::ReconstructedCall)),
                        ..base
                    });
                    let call =
                        ToolCallBlock::new(resp.call_id.clone(), tool, Value::Object(Map::new()));
                    out.push(Msg::made_up(
                        Speaker::Ai,
                        vec![Item {
                            detached: false,
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
    s.push_str(&r.text());
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::json;

    fn history() -> Vec<Msg> {
        msgs(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [
                {"type": "tool_response", "callId": "gone", "toolName": "grep", "result": "a.rs:1"},
                png(),
                result("c1")
            ]}
        ]))
    }

    #[test]
    fn orphan_kept_as_text_with_its_attachments_by_default() {
        let mut diags = Vec::new();
        let out = handle(history(), OrphanPolicy::default(), &mut diags);
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1)",
                "tool: result(c1)",
                "human: text media(image/png)"
            ]
        );
        assert_eq!(
            texts(&out),
            ["[Result of tool `grep` (call gone); its call is no longer in the conversation]\na.rs:1"]
        );
        assert_eq!(codes(&diags), ["orphan_result_as_text"]);
        assert_eq!(diags[0].call_id.as_deref(), Some("gone"));
        assert_eq!(
            (diags[0].message_index, diags[0].block_index),
            (Some(1), Some(0))
        );
    }

    #[test]
    fn drop_policy_removes_orphan_and_attachments() {
        let mut diags = Vec::new();
        let out = handle(history(), OrphanPolicy::Drop, &mut diags);
        assert_eq!(shape(&out), ["ai: call(c1)", "tool: result(c1)"]);
        assert_eq!(codes(&diags), ["orphan_result_dropped"]);
        assert!(
            diags[0].message.contains("1 attachment(s)"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn reconstruct_policy_adds_a_call_right_before_the_result() {
        let mut diags = Vec::new();
        let out = handle(history(), OrphanPolicy::ReconstructCall, &mut diags);
        assert_eq!(
            shape(&out),
            [
                "ai: call(c1)",
                "tool: result(c1)",
                "ai: call(gone)",
                "tool: result(gone) media(image/png)"
            ]
        );
        assert_eq!(codes(&diags), ["orphan_call_reconstructed"]);
        let Block::ToolCall(c) = block(&out, 2, 0) else {
            panic!("expected a call")
        };
        assert_eq!(
            (c.name.as_str(), c.parameters.clone()),
            ("grep", Some(json!({})))
        );
    }

    #[test]
    fn reconstructed_call_without_tool_name_is_unknown_tool() {
        let mut diags = Vec::new();
        let out = handle(
            msgs(
                json!([{"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "z", "result": 1}]}]),
            ),
            OrphanPolicy::ReconstructCall,
            &mut diags,
        );
        let Block::ToolCall(c) = block(&out, 0, 0) else {
            panic!("expected a call")
        };
        assert_eq!(c.name, UNKNOWN_TOOL_NAME);
    }

    #[test]
    fn result_whose_call_comes_later_is_no_orphan() {
        let mut diags = Vec::new();
        let out = handle(
            msgs(json!([
                {"speaker": "tool", "blocks": [result("c1")]},
                {"speaker": "ai", "blocks": [call("c1")]}
            ])),
            OrphanPolicy::Drop,
            &mut diags,
        );
        assert_eq!(shape(&out), ["tool: result(c1)", "ai: call(c1)"]);
        assert_eq!(codes(&diags), NO_CODES);
    }
}
