//! Speaker repair (REQ-915-047): every block ends up under the speaker that can carry it.
//!
//! Tool calls belong to `ai`, tool responses to `tool`, user text and media to `human`; text and
//! media right after a response in a tool message are that response's attachments (a tool's
//! further output parts) and stay with it, as does a tool change there (a loaded tool); other
//! tool changes belong to `system`. A message holding blocks of several kinds (the cancelled fan-out persisted as one tool message with both
//! calls and responses, 864 failure mode A) is split, in order, into one message per run.

use super::work::{describe, Item, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// The speaker a block belongs under. `stored` is the speaker it was stored under;
/// `after_response` says whether the previous block of the message was a tool response (or media
/// attached to one).
fn home(block: &Block, stored: Speaker, after_response: bool) -> Speaker {
    match block {
        Block::ToolCall(_) | Block::Thinking(_) | Block::ServerTool(_) => Speaker::Ai,
        Block::ToolResponse(_) => Speaker::Tool,
        // media or a text note right after a tool response is that response's attachment
        Block::Media(_) if after_response => Speaker::Tool,
        // a tool a tool result loads (`tool_reference`) stays with it; every other tool change
        // is a system message's
        Block::ToolChange(_) if after_response && stored == Speaker::Tool => Speaker::Tool,
        Block::ToolChange(_) => Speaker::System,
        Block::Text(_) if after_response && stored == Speaker::Tool => Speaker::Tool,
        Block::Media(_) => Speaker::Human,
        Block::Text(_) | Block::Code(_) | Block::Other(_) if stored == Speaker::Tool => {
            Speaker::Human
        }
        Block::Text(_) | Block::Code(_) | Block::Other(_) => stored,
    }
}

pub(crate) fn repair(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let mut out = Vec::with_capacity(msgs.len());
    for mut msg in msgs {
        // Most messages are stored under the right speaker: keep them as they are.
        let mut after_response = false;
        let all_home = msg.items.iter().all(|item| {
            let to = home(&item.block, msg.speaker, after_response);
            after_response = to == Speaker::Tool;
            to == msg.speaker
        });
        if all_home {
            out.push(msg);
            continue;
        }
        let mut runs: Vec<(Speaker, Vec<Item>)> = Vec::new();
        let mut after_response = false;
        for item in std::mem::take(&mut msg.items) {
            let to = home(&item.block, msg.speaker, after_response);
            after_response = to == Speaker::Tool;
            if to != msg.speaker {
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::SpeakerRepaired,
                        FaultClass::CanonicalState,
                        format!(
                            "{} block at {} was stored under `{}`; moved to a `{}` message",
                            item.block.type_name(),
                            describe(item.origin),
                            msg.speaker.as_str(),
                            to.as_str()
                        ),
                    )
                    .at(item.origin)
                    .maybe_call(&item.block),
                );
            }
            match runs.last_mut() {
                Some((s, items)) if *s == to => items.push(item),
                _ => runs.push((to, vec![item])),
            }
        }
        if runs.is_empty() {
            out.push(msg);
            continue;
        }
        for (speaker, items) in runs {
            out.push(msg.sibling(speaker, items));
        }
    }
    out
}

impl Diagnostic {
    /// Attaches the call id of a tool block, if it is one.
    pub(crate) fn maybe_call(self, block: &Block) -> Diagnostic {
        match block {
            Block::ToolCall(c) => self.call(c.id.clone()),
            Block::ToolResponse(r) => self.call(r.call_id.clone()),
            _ => self,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::json;

    fn run(v: serde_json::Value) -> (Vec<String>, Vec<String>) {
        let mut diags = Vec::new();
        let out = repair(msgs(v), &mut diags);
        (shape(&out), codes(&diags))
    }

    #[test]
    fn well_placed_blocks_are_untouched() {
        let (s, c) = run(json!([
            {"speaker": "human", "blocks": [text("go"), png()]},
            {"speaker": "ai", "blocks": [{"type": "thinking", "thought": "hm"}, text("ok"), call("c1")]},
            {"speaker": "tool", "blocks": [result("c1"), png()]},
            {"speaker": "system", "blocks": [text("be brief")]}
        ]));
        assert_eq!(
            s,
            [
                "human: text media(image/png)",
                "ai: thinking text call(c1)",
                "tool: result(c1) media(image/png)",
                "system: text"
            ]
        );
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn a_text_note_after_a_response_stays_with_it_text_before_any_response_moves() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [text("before"), result("c1"), text("note"), png(), text("caption")]}
        ]));
        assert_eq!(
            s,
            ["human: text", "tool: result(c1) text media(image/png) text"]
        );
        assert_eq!(c, ["speaker_repaired"]);
    }

    #[test]
    fn calls_in_tool_message_move_to_ai_before_results() {
        let mut diags = Vec::new();
        let out = repair(
            msgs(json!([
                {"speaker": "tool", "blocks": [call("c1"), call("c2"), result("c1"), result("c2")]}
            ])),
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            ["ai: call(c1) call(c2)", "tool: result(c1) result(c2)"]
        );
        assert_eq!(codes(&diags), ["speaker_repaired", "speaker_repaired"]);
        assert_eq!(diags[1].call_id.as_deref(), Some("c2"));
        assert_eq!(
            (diags[1].message_index, diags[1].block_index),
            (Some(0), Some(1))
        );
        // both halves keep the input message's origin
        assert_eq!(
            out.iter().map(|m| m.origin).collect::<Vec<_>>(),
            [Some(0), Some(0)]
        );
    }

    #[test]
    fn text_after_a_response_stays_with_it_code_moves_to_human_after() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [result("c1"), text("and also"), {"type": "code", "code": "x"}]}
        ]));
        assert_eq!(s, ["tool: result(c1) text", "human: code"]);
        assert_eq!(c, ["speaker_repaired"]);
    }

    #[test]
    fn media_after_a_response_stays_as_its_attachment() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [result("c1"), png(), png(), result("c2")]}
        ]));
        assert_eq!(
            s,
            ["tool: result(c1) media(image/png) media(image/png) result(c2)"]
        );
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn media_not_after_a_response_goes_to_human() {
        let (s, c) = run(json!([
            {"speaker": "tool", "blocks": [png(), result("c1"), text("see"), png()]}
        ]));
        assert_eq!(
            s,
            [
                "human: media(image/png)",
                "tool: result(c1) text media(image/png)"
            ]
        );
        assert_eq!(c, ["speaker_repaired"]);
    }

    #[test]
    fn response_in_ai_message_splits_it_in_order() {
        let (s, c) = run(json!([
            {"speaker": "ai", "blocks": [call("c1"), result("c1"), text("done")]}
        ]));
        assert_eq!(s, ["ai: call(c1)", "tool: result(c1)", "ai: text"]);
        assert_eq!(c, ["speaker_repaired"]);
    }

    #[test]
    fn call_and_thinking_in_human_message_move_to_ai() {
        let (s, c) = run(json!([
            {"speaker": "human", "blocks": [text("hi"), {"type": "thinking", "thought": "hm"}, call("c1")]}
        ]));
        assert_eq!(s, ["human: text", "ai: thinking call(c1)"]);
        assert_eq!(c, ["speaker_repaired", "speaker_repaired"]);
    }

    #[test]
    fn message_without_blocks_is_left_for_content_hygiene() {
        let (s, c) = run(json!([{"speaker": "ai", "blocks": []}]));
        assert_eq!(s, ["ai: "]);
        assert_eq!(c, NO_CODES);
    }
}
