//! Aborted assistant turns: a turn cut off after thinking and before any text or tool call.
//!
//! No provider accepts an assistant message that ends in thinking (ANT-16), and an assistant
//! message with only thinking carries nothing to answer. The turn's thinking is removed (named in
//! a diagnostic: what was cut off cannot be replayed as it was); a message left empty is removed.

use super::options::{NormalizeOptions, Profile};
use super::work::{describe_message, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

pub(crate) fn trim(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    all_diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    // Pieces of one turn are merged only where the provider needs strict alternation.
    let merges = Profile::for_options(opts).alternation;
    let mut diags: Vec<Diagnostic> = Vec::new();
    // Walk backwards, so "continued" looks at the next message that survives.
    let mut out: Vec<Msg> = Vec::with_capacity(msgs.len());
    for mut m in msgs.into_iter().rev() {
        // An assistant message followed by another one is a turn stored in pieces, not an
        // aborted turn, where the provider merges the pieces (strict alternation).
        let continued = merges && out.last().is_some_and(|n| n.speaker == Speaker::Ai);
        if m.speaker == Speaker::Ai && !continued {
            let mut removed = 0usize;
            let mut chars = 0usize;
            while let Some(last) = m.items.last() {
                let Block::Thinking(t) = &last.block else {
                    break;
                };
                chars += t.thought.chars().count();
                removed += 1;
                m.items.pop();
            }
            if removed > 0 {
                // The rest of an aborted turn's thinking cannot be replayed either: thinking in
                // the latest assistant message must stay exactly as produced (ANT-14).
                let before = m.items.len();
                m.items.retain(|i| !matches!(i.block, Block::Thinking(_)));
                removed += before - m.items.len();
                let gone = m.items.is_empty();
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::AbortedTurnTrimmed,
                        FaultClass::CanonicalState,
                        format!(
                            "assistant {} ended in thinking ({chars} characters) with nothing after it (an aborted turn); {}",
                            describe_message(m.origin),
                            if gone {
                                "the message was removed".to_string()
                            } else {
                                format!("its {removed} thinking block(s) were removed")
                            }
                        ),
                    )
                    .at_message(m.origin),
                );
                if gone {
                    continue;
                }
            }
        }
        out.push(m);
    }
    out.reverse();
    all_diags.extend(diags.into_iter().rev());
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::{json, Value};

    fn thinking(s: &str) -> Value {
        json!({"type": "thinking", "thought": s, "signature": "sig"})
    }

    #[test]
    fn trailing_thinking_removes_all_thinking_of_the_message() {
        let mut diags = Vec::new();
        let out = trim(
            msgs(json!([
                {"speaker": "human", "blocks": [text("go")]},
                {"speaker": "ai", "blocks": [thinking("plan"), call("c1"), thinking("a"), thinking("bcd")]}
            ])),
            &crate::normalize::NormalizeOptions::new(crate::vocab::Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(shape(&out), ["human: text", "ai: call(c1)"]);
        assert_eq!(codes(&diags), ["aborted_turn_trimmed"]);
        assert_eq!(diags[0].message_index, Some(1));
        // only the trailing run's characters are counted
        assert!(
            diags[0].message.contains("(4 characters)")
                && diags[0]
                    .message
                    .contains("its 3 thinking block(s) were removed"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn thinking_only_message_removed() {
        let mut diags = Vec::new();
        let out = trim(
            msgs(json!([
                {"speaker": "human", "blocks": [text("go")]},
                {"speaker": "ai", "blocks": [thinking("a"), thinking("b")]}
            ])),
            &crate::normalize::NormalizeOptions::new(crate::vocab::Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(shape(&out), ["human: text"]);
        assert_eq!(codes(&diags), ["aborted_turn_trimmed"]);
        assert!(
            diags[0].message.contains("the message was removed"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn thinking_followed_by_content_kept() {
        let mut diags = Vec::new();
        let out = trim(
            msgs(json!([
                {"speaker": "ai", "blocks": [thinking("a"), text("answer")]},
                {"speaker": "ai", "blocks": [thinking("b"), call("c1")]}
            ])),
            &crate::normalize::NormalizeOptions::new(crate::vocab::Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(shape(&out), ["ai: thinking text", "ai: thinking call(c1)"]);
        assert_eq!(codes(&diags), NO_CODES);
    }

    #[test]
    fn only_assistant_messages_are_trimmed() {
        let mut diags = Vec::new();
        let out = trim(
            msgs(json!([{"speaker": "human", "blocks": [text("hi"), thinking("a")]}])),
            &crate::normalize::NormalizeOptions::new(crate::vocab::Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(shape(&out), ["human: text thinking"]);
        assert_eq!(codes(&diags), NO_CODES);
    }
}
