//! Unit tests of [`super`].

use super::*;
use crate::normalize::test_support::*;
use crate::vocab::Provider;
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
        diags[0]
            .message
            .ends_with("comes from anthropic / claude-opus-4-1, not anthropic / claude-sonnet-4-5"),
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
