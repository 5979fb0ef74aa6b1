//! Thinking and continuity policy for the render target (REQ-915-023…025).
//!
//! A thinking block is replayed as thinking only when the target can verify it: an Anthropic
//! signature (or redacted data) produced by the same provider and model, on a request with
//! thinking on. Everything else is dropped or turned into plain text by option, and continuity
//! tokens of other providers (Gemini thought signatures, OpenAI reasoning items) are not
//! replayed. Every decision is a diagnostic.

use super::continuity::{self, Fate};
use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::{ForeignThinking, NormalizeOptions, Profile, ThinkingReplay};
use super::work::{current_turn_start, describe, Item, Msg};
use crate::model::{Block, Provenance, ProviderMeta, Speaker, TextBlock};

/// Replaces a thinking block the target cannot take, per policy. Returns the replacement item.
fn convert(
    item: Item,
    why: &str,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Option<Item> {
    let Block::Thinking(t) = &item.block else {
        return Some(item);
    };
    let as_text = opts.foreign_thinking == ForeignThinking::Text && !t.thought.trim().is_empty();
    let (code, action) = if as_text {
        (DiagnosticCode::ThinkingAsText, "sent as plain text")
    } else {
        (DiagnosticCode::ThinkingDropped, "left out")
    };
    diags.push(
        Diagnostic::new(
            code,
            FaultClass::ProviderProjection,
            format!(
                "thinking at {} ({} characters) {action}: {why}",
                describe(item.origin),
                t.thought.chars().count()
            ),
        )
        .at(item.origin),
    );
    if as_text {
        Some(Item {
            detached: false,
            block: Block::Text(TextBlock::new(format!(
                "<thinking>\n{}\n</thinking>",
                t.thought
            ))),
            origin: item.origin,
        })
    } else {
        None
    }
}

/// Per-block policy (see [`super::continuity`]): keep what the target can verify, reuse
/// reasoning text where the target requires it, convert or drop the rest, strip tokens meant for
/// another model.
pub(crate) fn apply(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::for_options(opts);
    let required = required_reasoning(&msgs, profile);
    let mut out = Vec::with_capacity(msgs.len());
    for (i, mut m) in msgs.into_iter().enumerate() {
        let prov = m.provenance();
        let needs = required.contains(&i);
        let mut items = Vec::with_capacity(m.items.len());
        for mut item in std::mem::take(&mut m.items) {
            let block_prov = block_provenance(&item.block).unwrap_or_default().or(&prov);
            match &mut item.block {
                Block::Thinking(t) => match continuity::thinking(t, &prov, opts, profile, needs) {
                    Fate::Keep => items.push(item),
                    Fate::Reuse(why) => {
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::ReasoningReused,
                                FaultClass::ProviderProjection,
                                format!("thinking at {}: {why}", describe(item.origin)),
                            )
                            .at(item.origin),
                        );
                        items.push(item);
                    }
                    Fate::Convert(why) => items.extend(convert(item, &why, opts, diags)),
                },
                Block::Text(TextBlock { meta, text, .. }) => {
                    keep_or_strip(meta, &block_prov, item.origin, opts, profile, diags);
                    // an empty text part only carried its signature: nothing is left to send
                    if meta.is_some() || !text.trim().is_empty() {
                        items.push(item);
                    }
                }
                Block::ToolCall(c) => {
                    keep_or_strip(&mut c.meta, &block_prov, item.origin, opts, profile, diags);
                    items.push(item);
                }
                _ => items.push(item),
            }
        }
        if profile.thinking == ThinkingReplay::ReasoningItems {
            items = lone_reasoning(items, opts, diags);
        }
        m.items = items;
        if m.items.is_empty() {
            continue;
        }
        out.push(m);
    }
    out
}

/// ORS-03: a reasoning item must be followed by the message or call it belongs to; one directly
/// followed by more thinking lost that item (an interrupted step) and is converted.
fn lone_reasoning(
    items: Vec<Item>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Item> {
    let followed_by_thinking: Vec<bool> = (0..items.len())
        .map(|i| matches!(items.get(i + 1).map(|n| &n.block), Some(Block::Thinking(_))))
        .collect();
    items
        .into_iter()
        .zip(followed_by_thinking)
        .filter_map(|(item, lone)| match (&item.block, lone) {
            (Block::Thinking(_), true) => convert(
                item,
                "a reasoning item must be followed by the message or call it belongs to, and this one is followed by more reasoning",
                opts,
                diags,
            ),
            _ => Some(item),
        })
        .collect()
}

fn block_provenance(b: &Block) -> Option<Provenance> {
    match b {
        Block::Text(t) => t.provenance.clone(),
        Block::ToolCall(c) => c.provenance.clone(),
        Block::Thinking(t) => t.provenance.clone(),
        _ => None,
    }
}

/// The assistant messages that must carry reasoning: with a `reasoning_content` target that
/// requires it, every message with tool calls. (DeepSeek documents the need for the current tool
/// loop, Kimi's servers reject any tool-call message without it, DSK-03 / KIM-03; sending it on
/// every tool-call turn satisfies both.)
pub(crate) fn required_reasoning(msgs: &[Msg], profile: Profile) -> Vec<usize> {
    if profile.thinking != (ThinkingReplay::ReasoningField { required: true }) {
        return Vec::new();
    }
    (0..msgs.len())
        .filter(|&i| {
            msgs.get(i)
                .is_some_and(|m| m.speaker == Speaker::Ai && m.has_calls())
        })
        .collect()
}

/// A continuity token on a call or text part: kept for the model that made it, else dropped.
fn keep_or_strip(
    meta: &mut Option<ProviderMeta>,
    prov: &Provenance,
    origin: Option<(usize, usize)>,
    opts: &NormalizeOptions,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(m) = meta.as_ref() else { return };
    let verdict = match m {
        ProviderMeta::GeminiThoughtSignature { thought_signature } => {
            continuity::gemini_token(thought_signature, prov, opts, profile)
        }
        other => Err(format!("a {} does not belong on this part", other.kind())),
    };
    if let Err(why) = verdict {
        let kind = m.kind();
        *meta = None;
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuityDropped,
                FaultClass::ProviderProjection,
                format!(
                    "{kind} at {} is not replayed to {}: {why}",
                    describe(origin),
                    opts.target
                ),
            )
            .at(origin),
        );
    }
}

/// ANT-11 after merging: a message that holds thinking must start with it; thinking that does
/// not lead its message is converted or dropped.
pub(crate) fn enforce_leading(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    if Profile::for_options(opts).thinking != ThinkingReplay::AnthropicSigned {
        return msgs;
    }
    msgs.into_iter()
        .map(|mut m| {
            let leads = matches!(m.items.first().map(|i| &i.block), Some(Block::Thinking(_)));
            let has = m.items.iter().any(|i| matches!(i.block, Block::Thinking(_)));
            if m.speaker == Speaker::Ai && has && !leads {
                let items = std::mem::take(&mut m.items);
                m.items = items
                    .into_iter()
                    .filter_map(|it| match it.block {
                        Block::Thinking(_) => convert(
                            it,
                            "a message with thinking must start with it, and this one starts with other content",
                            opts,
                            diags,
                        ),
                        _ => Some(it),
                    })
                    .collect();
            }
            m
        })
        .collect()
}

/// ANT-10: with thinking on, a request that continues an open tool loop (or ends with an
/// assistant message to continue) needs the first assistant message of that turn — a tool loop
/// is one assistant turn — to start with the model's own thinking. When it does not (the loop was opened by another model), the request runs with
/// thinking off and says why. Returns whether thinking stays on.
pub(crate) fn request_setting(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    opener: Option<super::TurnOpener>,
    diags: &mut Vec<Diagnostic>,
) -> (Vec<Msg>, bool) {
    if !opts.thinking_enabled
        || Profile::for_options(opts).thinking != ThinkingReplay::AnthropicSigned
    {
        return (msgs, opts.thinking_enabled);
    }
    // The loop is open when the request ends with tool results, including results that share
    // the final user message with the user's words (Anthropic folds them into one message).
    let n = msgs.len();
    let speaker_at = |back: usize| {
        n.checked_sub(back)
            .and_then(|i| msgs.get(i))
            .map(|m| m.speaker)
    };
    let open_loop = speaker_at(1) == Some(Speaker::Tool)
        || (speaker_at(1) == Some(Speaker::Human) && speaker_at(2) == Some(Speaker::Tool));
    // A history that ends with an assistant message asks the model to continue it (prefill):
    // with thinking on, that message must start with thinking too.
    let prefill = speaker_at(1) == Some(Speaker::Ai);
    if !open_loop && !prefill {
        return (msgs, true);
    }
    // A tool loop is one assistant turn: the turn starts after the last user message that is
    // not folded into tool results, and its first assistant message must start with thinking.
    let turn_start = current_turn_start(&msgs, true);
    let caller = msgs
        .iter()
        .skip(turn_start)
        .find(|m| m.speaker == Speaker::Ai);
    // The turn may have opened before these messages (a tail inside a tool loop).
    let (starts_with_thinking, caller_origin) = match opener.filter(|_| turn_start == 0) {
        Some(o) => (o.thinking, o.origin),
        None => (
            caller
                .and_then(|m| m.items.first())
                .is_some_and(|i| matches!(i.block, Block::Thinking(_))),
            caller.and_then(|m| m.origin),
        ),
    };
    if starts_with_thinking {
        return (msgs, true);
    }
    diags.push(
        Diagnostic::new(
            DiagnosticCode::ThinkingDisabledForRequest,
            FaultClass::ProviderProjection,
            format!(
                "{} does not start with thinking signed by {} / {}; Anthropic requires it with thinking on, so this request runs with thinking off",
                if open_loop {
                    "the first assistant message of the open tool loop"
                } else {
                    "the assistant turn being continued (a prefill)"
                },
                opts.target,
                opts.model
            ),
        )
        .at_message(caller_origin),
    );
    let off = NormalizeOptions {
        thinking_enabled: false,
        ..opts.clone()
    };
    (apply(msgs, &off, diags), false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use crate::providers::Provider;
    use serde_json::{json, Value};

    const MODEL: &str = "claude-sonnet-4-5";

    fn on() -> NormalizeOptions {
        NormalizeOptions {
            thinking_enabled: true,
            ..opts(Provider::Anthropic)
        }
    }

    fn signed(thought: &str) -> Value {
        json!({"type": "thinking", "thought": thought, "signature": "sig"})
    }

    fn ai_from(model: &str, blocks: Value) -> Value {
        json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": model}, "blocks": blocks})
    }

    fn run(v: Value, o: &NormalizeOptions) -> (Vec<Msg>, Vec<Diagnostic>) {
        let mut diags = Vec::new();
        let out = apply(msgs(v), o, &mut diags);
        (out, diags)
    }

    fn settle(v: Value, o: &NormalizeOptions) -> (Vec<String>, bool, Vec<String>) {
        let mut diags = Vec::new();
        let (out, on) = request_setting(msgs(v), o, None, &mut diags);
        (shape(&out), on, codes(&diags))
    }

    #[test]
    fn same_model_signed_thinking_kept_only_with_thinking_on() {
        let input = json!([ai_from(
            MODEL,
            json!([signed("hm"), {"type": "thinking", "thought": "", "redactedData": "xx"}, text("a")])
        )]);
        let (out, diags) = run(input.clone(), &on());
        assert_eq!(shape(&out), ["ai: thinking thinking text"]);
        assert_eq!(codes(&diags), NO_CODES);

        let (out, diags) = run(input, &opts(Provider::Anthropic));
        assert_eq!(shape(&out), ["ai: text"]);
        assert_eq!(codes(&diags), ["thinking_dropped", "thinking_dropped"]);
        assert!(
            diags[0]
                .message
                .ends_with("thinking is off for this request"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn thinking_the_target_cannot_verify_dropped() {
        let (out, diags) = run(
            json!([
                ai_from("claude-opus-4-1", json!([signed("a"), text("x")])),
                // block provenance wins over the message's
                ai_from(
                    "claude-opus-4-1",
                    json!([
                        {"type": "thinking", "thought": "b", "signature": "s", "provenance": {"provider": "claude", "model": MODEL}},
                        text("y")
                    ])
                )
            ]),
            &on(),
        );
        assert_eq!(shape(&out), ["ai: text", "ai: thinking text"]);
        assert_eq!(codes(&diags), ["thinking_dropped"]);
        assert!(
            diags[0].message.ends_with(
                "comes from anthropic / claude-opus-4-1, not anthropic / claude-sonnet-4-5"
            ),
            "{}",
            diags[0].message
        );

        let openai = NormalizeOptions {
            thinking_enabled: true,
            ..opts(Provider::OpenAiChat)
        };
        let (out, diags) = run(
            json!([ai_from(MODEL, json!([signed("a"), text("x")]))]),
            &openai,
        );
        assert_eq!(shape(&out), ["ai: text"]);
        assert!(
            diags[0]
                .message
                .ends_with("openai-chat takes no reasoning back"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn endpoint_must_match_when_both_are_known() {
        let from = |url: &str| {
            json!([{"speaker": "ai", "blocks": [signed("a"), text("x")],
                    "metadata": {"provider": "anthropic", "model": MODEL, "providerBaseURL": url}}])
        };
        let o = NormalizeOptions {
            endpoint: Some("https://api.anthropic.com".into()),
            ..on()
        };
        let (out, _) = run(from("https://api.anthropic.com/"), &o);
        assert_eq!(shape(&out), ["ai: thinking text"]);
        let (out, diags) = run(from("https://proxy.example"), &o);
        assert_eq!(shape(&out), ["ai: text"]);
        assert_eq!(codes(&diags), ["thinking_dropped"]);
    }

    #[test]
    fn unattributed_signed_thinking_kept_only_when_trusted() {
        let input = json!([{"speaker": "ai", "blocks": [signed("a"), text("x")]}]);
        let (out, diags) = run(input.clone(), &on());
        assert_eq!(shape(&out), ["ai: text"]);
        assert!(
            diags[0].message.contains("provenance is unknown"),
            "{}",
            diags[0].message
        );

        let trusting = NormalizeOptions {
            trust_unattributed_thinking: true,
            ..on()
        };
        let (out, diags) = run(input, &trusting);
        assert_eq!(shape(&out), ["ai: thinking text"]);
        assert_eq!(codes(&diags), NO_CODES);
    }

    #[test]
    fn unsigned_thinking_dropped_or_sent_as_text_by_policy() {
        let input = json!([
            ai_from(
                MODEL,
                json!([
                    {"type": "thinking", "thought": "hmm"},
                    {"type": "thinking", "thought": "", "reasoningId": "rs_1", "encryptedContent": "e"},
                    text("x")
                ])
            ),
            ai_from(MODEL, json!([{"type": "thinking", "thought": "only"}]))
        ]);
        // default: dropped, and a message left empty goes with it
        let (out, diags) = run(input.clone(), &on());
        assert_eq!(shape(&out), ["ai: text"]);
        assert_eq!(
            codes(&diags),
            ["thinking_dropped", "thinking_dropped", "thinking_dropped"]
        );

        let as_text = NormalizeOptions {
            foreign_thinking: ForeignThinking::Text,
            ..on()
        };
        let (out, diags) = run(input, &as_text);
        assert_eq!(shape(&out), ["ai: text text", "ai: text"]);
        assert_eq!(
            texts(&out),
            [
                "<thinking>\nhmm\n</thinking>",
                "x",
                "<thinking>\nonly\n</thinking>"
            ]
        );
        // nothing to show for encrypted reasoning without text: still dropped
        assert_eq!(
            codes(&diags),
            ["thinking_as_text", "thinking_dropped", "thinking_as_text"]
        );
    }

    #[test]
    fn gemini_tokens_stripped_from_text_and_calls() {
        let (out, diags) = run(
            json!([{"speaker": "ai", "blocks": [
                {"type": "text", "text": "x", "thoughtSignature": "g1"},
                {"type": "tool_call", "id": "c1", "name": "ls", "parameters": {}, "thoughtSignature": "g2"}
            ]}]),
            &on(),
        );
        assert_eq!(shape(&out), ["ai: text call(c1)"]);
        assert!(matches!(block(&out, 0, 0), Block::Text(t) if t.meta.is_none()));
        assert!(matches!(block(&out, 0, 1), Block::ToolCall(c) if c.meta.is_none()));
        assert_eq!(codes(&diags), ["continuity_dropped", "continuity_dropped"]);
        assert!(
            diags[1]
                .message
                .starts_with("gemini_thought_signature at message 0 block 1"),
            "{}",
            diags[1].message
        );
    }

    #[test]
    fn enforce_leading_drops_thinking_after_other_content() {
        let mut diags = Vec::new();
        let out = enforce_leading(
            msgs(json!([
                {"speaker": "ai", "blocks": [text("merged"), signed("late"), text("x")]},
                {"speaker": "ai", "blocks": [signed("first"), text("y"), signed("second")]},
                {"speaker": "human", "blocks": [text("z"), signed("not ai")]}
            ])),
            &on(),
            &mut diags,
        );
        assert_eq!(
            shape(&out),
            [
                "ai: text text",
                "ai: thinking text thinking",
                "human: text thinking"
            ]
        );
        assert_eq!(codes(&diags), ["thinking_dropped"]);
        assert_eq!(diags[0].block_index, Some(1));
    }

    #[test]
    fn request_setting_turns_thinking_off_when_the_continued_message_lacks_it() {
        let earlier = json!([
            {"speaker": "human", "blocks": [text("a")]},
            ai_from(MODEL, json!([signed("t"), text("b")])),
            {"speaker": "human", "blocks": [text("c")]}
        ]);
        let with = |tail: Value| {
            let mut v = earlier.clone();
            v.as_array_mut()
                .expect("an array")
                .extend(tail.as_array().expect("an array").iter().cloned());
            v
        };
        let open_loop = with(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]}
        ]));
        let folded = with(json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "human", "blocks": [text("also")]}
        ]));
        let prefill = with(json!([{"speaker": "ai", "blocks": [text("Sure,")]}]));
        for (name, input) in [
            ("open loop", open_loop),
            ("folded", folded),
            ("prefill", prefill),
        ] {
            let mut diags = Vec::new();
            let (out, stays_on) = request_setting(msgs(input), &on(), None, &mut diags);
            assert!(!stays_on, "{name}");
            // with thinking off, earlier signed thinking cannot be replayed either
            assert_eq!(shape(&out)[1], "ai: text", "{name}");
            assert_eq!(
                codes(&diags),
                ["thinking_disabled_for_request", "thinking_dropped"],
                "{name}"
            );
            assert_eq!(diags[0].message_index, Some(3), "{name}");
        }
    }

    #[test]
    fn request_setting_keeps_thinking_when_allowed() {
        let loop_with_thinking = json!([
            {"speaker": "human", "blocks": [text("a")]},
            ai_from(MODEL, json!([signed("t"), call("c1")])),
            {"speaker": "tool", "blocks": [result("c1")]}
        ]);
        let (s, stays_on, c) = settle(loop_with_thinking, &on());
        assert_eq!(
            s,
            ["human: text", "ai: thinking call(c1)", "tool: result(c1)"]
        );
        assert!(stays_on);
        assert_eq!(c, NO_CODES);

        let closed = json!([
            {"speaker": "ai", "blocks": [call("c1")]},
            {"speaker": "tool", "blocks": [result("c1")]},
            {"speaker": "ai", "blocks": [text("done")]},
            {"speaker": "human", "blocks": [text("thanks")]}
        ]);
        let (_, stays_on, c) = settle(closed, &on());
        assert!(stays_on);
        assert_eq!(c, NO_CODES);

        // nothing to decide when thinking is off or the target cannot take it
        let prefill = json!([{"speaker": "ai", "blocks": [text("Sure,")]}]);
        let (_, stays_on, c) = settle(prefill.clone(), &opts(Provider::Anthropic));
        assert!(!stays_on);
        assert_eq!(c, NO_CODES);
        let openai = NormalizeOptions {
            thinking_enabled: true,
            ..opts(Provider::OpenAiChat)
        };
        let (_, stays_on, c) = settle(prefill, &openai);
        assert!(stays_on);
        assert_eq!(c, NO_CODES);
    }
}
