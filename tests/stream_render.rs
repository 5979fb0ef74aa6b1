//! End to end: a message decoded from a golden stream, appended after a user message with its
//! tool results, renders for the same provider into a body the strict validator accepts, with
//! the turn's continuity artifacts replayed and the provider's own call ids sent back. The
//! partial message of every interrupted stream renders into a valid body for every provider.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use stream_support::{decode, golden, goldens};
use turnwire::model::{Block, Message, Speaker, TextBlock, ToolResponseBlock};
use turnwire::{render, validate_request_for_model, Provider, RenderOptions, Rendered, Transcript};

fn user(text: &str) -> Message {
    Message::new(Speaker::Human, vec![Block::Text(TextBlock::new(text))])
}

/// One result per call of `ai`.
fn results(ai: &Message) -> Message {
    let blocks = ai
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolCall(c) => Some(Block::ToolResponse(ToolResponseBlock::new(
                c.id.clone(),
                c.name.clone(),
                json!({"ok": true, "for": c.id}),
            ))),
            _ => None,
        })
        .collect();
    Message::new(Speaker::Tool, blocks)
}

fn call_ids(ai: &Message) -> Vec<String> {
    ai.blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolCall(c) => Some(c.id.clone()),
            _ => None,
        })
        .collect()
}

fn render_checked(t: &Transcript, provider: Provider, model: &str, thinking: bool) -> Rendered {
    let mut o = json!({"provider": provider.as_str(), "model": model});
    if thinking {
        o["thinking"] = json!({"enabled": true});
    }
    let options = RenderOptions::from_value(o).unwrap();
    let out = render(t, &options).unwrap_or_else(|e| panic!("{provider}: {e}"));
    let violations = validate_request_for_model(provider, model, &out.body);
    assert!(
        violations.is_empty(),
        "{provider} / {model}: {violations:#?}\n{}",
        serde_json::to_string_pretty(&out.body).unwrap()
    );
    out
}

/// Decodes `<provider>/<case>`, appends it after a user message with results for its calls,
/// renders for the same provider and model, and checks the body.
fn same_provider_turn(provider: Provider, case: &str) -> (Message, Rendered) {
    let g = golden(provider, case);
    let (outcome, _) = decode(provider, &g.events);
    assert!(!outcome.incomplete, "{}", g.name());
    let ai = outcome.message;
    let t = Transcript::new(vec![user("Do the task."), ai.clone(), results(&ai)]);
    let out = render_checked(&t, provider, provider.reference_model(), true);
    (ai, out)
}

fn body_text(out: &Rendered) -> String {
    out.body.to_string()
}

fn assert_original_ids_sent(provider: Provider, ai: &Message, out: &Rendered) {
    let body = body_text(out);
    let ids = call_ids(ai);
    assert!(!ids.is_empty());
    for id in ids {
        assert!(
            body.contains(&format!("\"{id}\"")),
            "{provider}: {id} not sent back"
        );
    }
}

#[test]
fn anthropic_turn_replays_its_signed_thinking_and_tool_use_ids() {
    let (ai, out) = same_provider_turn(Provider::Anthropic, "thinking_tools");
    let content = &out.body["messages"][1]["content"];
    assert_eq!(content[0]["type"], "thinking");
    let Block::Thinking(t) = &ai.blocks[0] else {
        panic!()
    };
    let Some(turnwire::model::ProviderMeta::AnthropicSignature { signature }) = &t.meta else {
        panic!()
    };
    assert_eq!(content[0]["signature"], Value::from(signature.clone()));
    assert_eq!(content[0]["thinking"], Value::from(t.thought.clone()));
    assert_original_ids_sent(Provider::Anthropic, &ai, &out);
    assert!(out.body.get("thinking").is_some(), "thinking stays on");
}

#[test]
fn anthropic_parallel_tool_turn_renders_with_original_ids() {
    let (ai, out) = same_provider_turn(Provider::Anthropic, "parallel_tools");
    assert_original_ids_sent(Provider::Anthropic, &ai, &out);
}

#[test]
fn responses_turn_replays_its_encrypted_reasoning_item_and_call_ids() {
    let (ai, out) = same_provider_turn(Provider::OpenAiResponses, "reasoning_tools");
    let input = out.body["input"].as_array().unwrap();
    let reasoning: Vec<&Value> = input.iter().filter(|i| i["type"] == "reasoning").collect();
    assert_eq!(reasoning.len(), 1, "{input:#?}");
    assert!(reasoning[0]["encrypted_content"]
        .as_str()
        .unwrap()
        .starts_with("gAAAAAB"));
    assert_eq!(
        reasoning[0]["summary"][0]["text"],
        "**Planning**\n\nList the directory, then read the README."
    );
    assert_original_ids_sent(Provider::OpenAiResponses, &ai, &out);
    let (ai, out) = same_provider_turn(Provider::OpenAiResponses, "parallel_tools");
    assert_original_ids_sent(Provider::OpenAiResponses, &ai, &out);
}

#[test]
fn gemini_turn_replays_the_signature_on_the_first_function_call_part() {
    for case in ["thought_tools", "parallel_tools"] {
        let (ai, out) = same_provider_turn(Provider::Gemini, case);
        let parts = &out.body["contents"][1]["parts"];
        let first_call = ai
            .blocks
            .iter()
            .find_map(|b| match b {
                Block::ToolCall(c) => Some(c),
                _ => None,
            })
            .unwrap();
        let Some(turnwire::model::ProviderMeta::GeminiThoughtSignature { thought_signature }) =
            &first_call.meta
        else {
            panic!("{case}")
        };
        assert!(parts[0].get("functionCall").is_some(), "{case}: {parts:#}");
        assert_eq!(
            parts[0]["thoughtSignature"],
            Value::from(thought_signature.clone())
        );
        assert!(parts[1].get("thoughtSignature").is_none(), "{case}");
    }
}

#[test]
fn deepseek_and_kimi_turns_replay_reasoning_content_and_their_ids() {
    for (p, reasoning) in [
        (
            Provider::DeepSeek,
            "The user wants the weather in Hangzhou; call the tool.",
        ),
        (
            Provider::Kimi,
            "Need both the file list and the README; call both tools.",
        ),
    ] {
        let (ai, out) = same_provider_turn(p, "reasoning_tools");
        let assistant = out.body["messages"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["role"] == "assistant")
            .unwrap();
        assert_eq!(assistant["reasoning_content"], reasoning, "{p}");
        assert_original_ids_sent(p, &ai, &out);
    }
}

#[test]
fn chat_dialect_turns_render_with_their_own_ids() {
    for (p, case) in [
        (Provider::OpenAiChat, "parallel_tools"),
        (Provider::OpenAiChat, "text_tools"),
        (Provider::Mistral, "parallel_tools"),
        (Provider::Mistral, "thinking_tools"),
        (Provider::OpenAiCompatible, "reasoning_tools"),
        (Provider::OpenAiCompatible, "tools_without_ids"),
    ] {
        let (ai, out) = same_provider_turn(p, case);
        assert_original_ids_sent(p, &ai, &out);
    }
}

#[test]
fn every_decoded_turn_renders_for_every_provider() {
    // A switch on the next turn: any provider's decoded message, results appended, rendered
    // for every other provider.
    for g in goldens() {
        let (outcome, _) = decode(g.provider, &g.events);
        let ai = outcome.message;
        let mut msgs = vec![user("Do the task."), ai.clone()];
        if !call_ids(&ai).is_empty() {
            msgs.push(results(&ai));
        }
        msgs.push(user("Thanks, go on."));
        let t = Transcript::new(msgs);
        for target in Provider::ALL {
            render_checked(&t, target, target.reference_model(), true);
        }
    }
}

#[test]
fn partial_messages_of_interrupted_streams_render_for_every_provider() {
    let partial: Vec<_> = goldens()
        .into_iter()
        .filter(|g| g.case.starts_with("truncated") || g.case == "error" || g.case == "failed")
        .collect();
    assert!(partial.len() >= 8);
    for g in partial {
        let (outcome, _) = decode(g.provider, &g.events);
        assert!(outcome.incomplete, "{}", g.name());
        let t = Transcript::new(vec![user("Do the task."), outcome.message.clone()]);
        for target in Provider::ALL {
            for thinking in [false, true] {
                let out = render_checked(&t, target, target.reference_model(), thinking);
                // What arrived is not lost: the text and every finished or unfinished call are
                // in the body (calls as the provider's ids, projected).
                for b in &outcome.message.blocks {
                    if let Block::Text(tb) = b {
                        assert!(
                            body_text(&out).contains(&tb.text),
                            "{} → {target}: text lost",
                            g.name()
                        );
                    }
                }
                let calls = call_ids(&outcome.message).len();
                assert!(
                    out.id_map.0.len() >= calls || target == Provider::Gemini,
                    "{} → {target}",
                    g.name()
                );
            }
        }
    }
}
