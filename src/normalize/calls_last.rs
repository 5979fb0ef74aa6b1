//! For targets whose calls are items that their outputs must follow directly (OpenAI
//! Responses, ORS-02/ORS-10), an assistant message's tool calls come last: text stored after a
//! call (a model that kept talking after requesting a tool) moves to just before the first call,
//! so the message reads text → calls → outputs. Reasoning before that text stays where it was.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::{NormalizeOptions, Profile};
use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker};

pub(crate) fn order(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if !Profile::for_options(opts).calls_last {
        return msgs;
    }
    msgs.into_iter()
        .map(|mut m| {
            let Some(first_call) = m.items.iter().position(|i| matches!(i.block, Block::ToolCall(_))) else {
                return m;
            };
            if m.speaker != Speaker::Ai
                || m.items[first_call..].iter().all(|i| matches!(i.block, Block::ToolCall(_)))
            {
                return m;
            }
            let items = std::mem::take(&mut m.items);
            let (head, tail): (Vec<Item>, Vec<Item>) = {
                let mut head = Vec::with_capacity(items.len());
                let mut tail = Vec::new();
                for (i, item) in items.into_iter().enumerate() {
                    if i >= first_call && matches!(item.block, Block::ToolCall(_)) {
                        tail.push(item);
                    } else {
                        if i > first_call {
                            diags.push(
                                Diagnostic::new(
                                    DiagnosticCode::BlockMoved,
                                    FaultClass::ProviderProjection,
                                    format!(
                                        "{} at {} came after a tool call; {} needs a call's output right after it, so it moved before the calls",
                                        item.block.type_name(),
                                        describe(item.origin),
                                        opts.target
                                    ),
                                )
                                .at(item.origin),
                            );
                        }
                        head.push(item);
                    }
                }
                (head, tail)
            };
            m.items = head;
            m.items.extend(tail);
            m
        })
        .collect()
}
