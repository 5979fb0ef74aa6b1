//! The final assistant message (a prefill: the model is asked to continue it). Models that take
//! no prefill (Claude 4.6 and later, ANT-24; deepseek-reasoner, DSK-06) get a user turn after
//! it, so the partial answer stays in the history and the model is asked to go on from it:
//! nothing is dropped. Anthropic models that take a prefill refuse one that ends with
//! whitespace (ANT-23): the trailing whitespace is trimmed.

use super::options::{NormalizeOptions, Profile};
use super::work::{describe, describe_message, Msg};
use crate::model::{Block, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Settles a final assistant message for the target: a continuation user turn after it when the
/// model takes no prefill, else (Anthropic) its trailing whitespace trimmed.
pub(crate) fn settle(
    mut msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let Some(last) = msgs.last_mut().filter(|m| m.speaker == Speaker::Ai) else {
        return msgs;
    };
    if !opts.caps.accepts_prefill {
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuationUserInserted,
                FaultClass::ProviderProjection,
                format!(
                    "{} on {} takes no assistant prefill (the conversation must end with a user \
                     message); the final assistant {} is kept and a user turn {:?} was appended \
                     after it",
                    opts.model,
                    opts.target,
                    describe_message(last.origin),
                    opts.continuation_text
                ),
            )
            .at_message(last.origin),
        );
        msgs.push(Msg::made_up_text(Speaker::Human, &opts.continuation_text));
        return msgs;
    }
    if !Profile::for_options(opts).prefill_without_trailing_whitespace {
        return msgs;
    }
    let Some(item) = last.items.last_mut() else {
        return msgs;
    };
    let Block::Text(t) = &mut item.block else {
        return msgs;
    };
    let kept = t.text.trim_end().len();
    // Whitespace-only text was removed by content hygiene; never leave a block empty.
    if kept == 0 || kept == t.text.len() {
        return msgs;
    }
    let removed = t.text.len() - kept;
    t.text.truncate(kept);
    diags.push(
        Diagnostic::new(
            DiagnosticCode::PrefillWhitespaceTrimmed,
            FaultClass::ProviderProjection,
            format!(
                "{removed} byte(s) of trailing whitespace were trimmed from the final assistant \
                 text at {} (a prefill): {} refuses a prefill that ends with whitespace; the \
                 whitespace carries nothing the model needs to continue the text",
                describe(item.origin),
                opts.target
            ),
        )
        .at(item.origin),
    );
    msgs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::options::DEFAULT_CONTINUATION_TEXT;
    use crate::normalize::test_support::*;
    use crate::vocab::Provider;
    use serde_json::json;

    fn run(v: serde_json::Value, o: &NormalizeOptions) -> (Vec<Msg>, Vec<String>) {
        let mut diags = Vec::new();
        let out = settle(msgs(v), o, &mut diags);
        (out, codes(&diags))
    }

    fn prefill(t: &str) -> serde_json::Value {
        json!([
            {"speaker": "human", "blocks": [text("Write a haiku.")]},
            {"speaker": "ai", "blocks": [text(t)]}
        ])
    }

    #[test]
    fn ant_24_claude_4_6_gets_a_continuation_user_turn() {
        let o = NormalizeOptions::new(Provider::Anthropic, "claude-opus-4-6");
        let (out, c) = run(prefill("Borrow checker hums "), &o);
        assert_eq!(shape(&out), ["human: text", "ai: text", "human: text"]);
        // the partial answer is kept as it is
        assert_eq!(
            texts(&out),
            [
                "Write a haiku.",
                "Borrow checker hums ",
                DEFAULT_CONTINUATION_TEXT
            ]
        );
        assert_eq!(out[2].origin, None);
        assert_eq!(c, ["continuation_user_inserted"]);
    }

    #[test]
    fn dsk_06_deepseek_reasoner_gets_a_continuation_user_turn() {
        let mut o = NormalizeOptions::new(Provider::DeepSeek, "deepseek-reasoner");
        o.continuation_text = "go on".into();
        let (out, c) = run(prefill("Borrow"), &o);
        assert_eq!(texts(&out), ["Write a haiku.", "Borrow", "go on"]);
        assert_eq!(c, ["continuation_user_inserted"]);
        // deepseek-chat takes a final assistant message
        let o = NormalizeOptions::new(Provider::DeepSeek, "deepseek-chat");
        let (out, c) = run(prefill("Borrow"), &o);
        assert_eq!(out.len(), 2);
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn ant_23_prefill_trailing_whitespace_trimmed_for_anthropic_only() {
        let (out, c) = run(
            prefill("Borrow checker hums \n"),
            &opts(Provider::Anthropic),
        );
        assert_eq!(texts(&out), ["Write a haiku.", "Borrow checker hums"]);
        assert_eq!(c, ["prefill_whitespace_trimmed"]);
        let (out, c) = run(
            prefill("Borrow checker hums \n"),
            &opts(Provider::OpenAiChat),
        );
        assert_eq!(texts(&out)[1], "Borrow checker hums \n");
        assert_eq!(c, NO_CODES);
    }

    #[test]
    fn history_ending_with_user_or_tool_is_left_alone() {
        let o = NormalizeOptions::new(Provider::Anthropic, "claude-opus-4-6");
        let input = json!([
            {"speaker": "human", "blocks": [text("a ")]},
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]}
        ]);
        let (out, c) = run(input, &o);
        assert_eq!(out.len(), 3);
        assert_eq!(c, NO_CODES);
    }
}
