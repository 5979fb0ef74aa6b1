//! Stream decoder golden files: `tests/fixtures/streams/<provider>/<case>.events` (one SSE
//! `data:` payload per line, in the provider's recorded format) decoded with the provider's
//! reference model must give `<case>.expected.json` byte for byte: the outcome (the message in
//! the canonical JSON history shape, usage, stopReason, incomplete, errors) and every delta
//! `push` returned.
//!
//! Re-bless after an intended change: `TURNWIRE_BLESS=1 cargo test --test stream_decode`, then
//! review the diff.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use serde_json::{json, Value};
use stream_support::{decode, golden, goldens};
use turnwire::model::{Block, ProviderMeta};
use turnwire::stream::StopReason;
use turnwire::{Provider, Transcript};

fn golden_text(g: &stream_support::Golden) -> String {
    let (outcome, deltas) = decode(g.provider, &g.events);
    let v = json!({"outcome": outcome.to_value(), "deltas": deltas});
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

#[test]
fn every_golden_stream_decodes_to_its_expected_outcome() {
    let bless = std::env::var_os("TURNWIRE_BLESS").is_some();
    let all = goldens();
    assert!(all.len() >= 35, "only {} golden streams", all.len());
    let mut failures = Vec::new();
    for g in &all {
        let expected_path = g.path.with_extension("expected.json");
        let actual = golden_text(g);
        if bless {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(_) => failures.push(format!(
                "{}: differs from {}",
                g.name(),
                expected_path.display()
            )),
            Err(_) => failures.push(format!("{}: no {}", g.name(), expected_path.display())),
        }
    }
    assert!(
        failures.is_empty(),
        "{} golden stream(s) differ (TURNWIRE_BLESS=1 to re-bless):\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn every_decoded_message_reads_back_equal_through_the_model_writer() {
    for g in goldens() {
        let (outcome, _) = decode(g.provider, &g.events);
        let text = Transcript::new(vec![outcome.message.clone()]).to_json();
        let back = Transcript::from_json(&text).unwrap();
        assert_eq!(back.messages, vec![outcome.message.clone()], "{}", g.name());
        assert_eq!(back.to_json(), text, "{}", g.name());
    }
}

#[test]
fn complete_streams_have_no_errors_and_incomplete_ones_say_why() {
    for g in goldens() {
        let (o, _) = decode(g.provider, &g.events);
        let partial = g.case.starts_with("truncated") || g.case == "error" || g.case == "failed";
        assert_eq!(o.incomplete, partial, "{}", g.name());
        if partial {
            assert!(!o.errors.is_empty(), "{}", g.name());
            assert_eq!(
                o.message.metadata.as_ref().unwrap().extra["incomplete"],
                json!(true)
            );
        } else {
            assert!(o.errors.is_empty(), "{}: {:?}", g.name(), o.errors);
        }
    }
}

fn meta_of(b: &Block) -> Option<&ProviderMeta> {
    match b {
        Block::Text(t) => t.meta.as_ref(),
        Block::Thinking(t) => t.meta.as_ref(),
        Block::ToolCall(c) => c.meta.as_ref(),
        _ => None,
    }
}

#[test]
fn gemini_parallel_calls_keep_the_signature_on_the_first_call_only() {
    let g = golden(Provider::Gemini, "parallel_tools");
    let (o, _) = decode(g.provider, &g.events);
    let calls: Vec<&Block> = o.message.blocks.iter().collect();
    assert_eq!(calls.len(), 3);
    assert!(matches!(
        meta_of(calls[0]),
        Some(ProviderMeta::GeminiThoughtSignature { .. })
    ));
    assert!(meta_of(calls[1]).is_none() && meta_of(calls[2]).is_none());
    assert_eq!(
        call_ids(&o),
        [
            "gemini_call_Lo3wdrVbM8Fhc0LSk7tU-Dn_0",
            "gemini_call_Lo3wdrVbM8Fhc0LSk7tU-Dn_1",
            "gemini_call_Lo3wdrVbM8Fhc0LSk7tU-Dn_2"
        ]
    );
    assert_eq!(o.stop_reason, StopReason::ToolUse);
}

/// The text blocks of an outcome: their text and whether they are signed.
fn texts(o: &turnwire::stream::StreamOutcome) -> Vec<(&str, bool)> {
    o.message
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::Text(t) => Some((t.text.as_str(), t.meta.is_some())),
            _ => None,
        })
        .collect()
}

/// The ids of an outcome's calls, in order.
fn call_ids(o: &turnwire::stream::StreamOutcome) -> Vec<&str> {
    o.message
        .blocks
        .iter()
        .filter_map(|b| match b {
            Block::ToolCall(c) => Some(c.id.as_str()),
            _ => None,
        })
        .collect()
}

#[test]
fn gem_24_signature_only_text_part_stays_its_own_part() {
    // the signature arrives alone, on `{"text": "", "thoughtSignature"}` in the last chunk: it
    // is kept with its (empty) part, not moved onto the text before it
    let g = golden(Provider::Gemini, "signed_text");
    let (o, _) = decode(g.provider, &g.events);
    assert_eq!(o.message.blocks.len(), 2);
    assert_eq!(
        texts(&o),
        [("Hello! What are we building today?", false), ("", true)]
    );
}

#[test]
fn gem_24_signed_text_part_joins_no_unsigned_text() {
    // a signed piece of answer text is its own block; the unsigned text after it is another
    let g = golden(Provider::Gemini, "thought_text");
    let (o, _) = decode(g.provider, &g.events);
    assert_eq!(texts(&o), [("9.8 is larger", true), (".", false)]);
}

#[test]
fn gem_22_gemini_call_ids_are_kept_as_the_canonical_ids() {
    let g = golden(Provider::Gemini, "call_ids");
    let (o, _) = decode(g.provider, &g.events);
    // parallel calls of one tool: Gemini's ids tell them apart
    assert_eq!(call_ids(&o), ["k3v9d1qa", "p0x7m2zb"]);
}

#[test]
fn anthropic_redacted_thinking_is_kept_as_typed_redacted_data() {
    let g = golden(Provider::Anthropic, "redacted_thinking");
    let (o, _) = decode(g.provider, &g.events);
    assert!(matches!(
        o.message.blocks.first().and_then(meta_of),
        Some(ProviderMeta::AnthropicRedacted { .. })
    ));
    assert!(matches!(
        o.message.blocks.get(1).and_then(meta_of),
        Some(ProviderMeta::AnthropicSignature { .. })
    ));
}

#[test]
fn chat_dialects_keep_their_own_tool_call_ids_and_reasoning_field() {
    let cases = [
        (
            Provider::Kimi,
            "reasoning_tools",
            "functions.list_files:0",
            Some("reasoning_content"),
        ),
        (Provider::Mistral, "parallel_tools", "D681PevKs", None),
        (
            Provider::DeepSeek,
            "reasoning_tools",
            "call_00_Kf3Hq8Zt2Vn5Rw7Yb9Mc1Px4",
            Some("reasoning_content"),
        ),
        (
            Provider::OpenAiCompatible,
            "reasoning_tools",
            "call_7q2Rk9Xw4Lm1Pz8Nc3Vb6Ht0",
            Some("reasoning"),
        ),
        (
            Provider::Mistral,
            "thinking_tools",
            "Tq8Zr3Wm1",
            Some("thinking"),
        ),
    ];
    for (p, case, first_id, field) in cases {
        let g = golden(p, case);
        let (o, _) = decode(p, &g.events);
        let id = o.message.blocks.iter().find_map(|b| match b {
            Block::ToolCall(c) => Some(c.id.clone()),
            _ => None,
        });
        assert_eq!(id.as_deref(), Some(first_id), "{}", g.name());
        let source = o.message.blocks.iter().find_map(|b| match b {
            Block::Thinking(t) => t.source_field.clone(),
            _ => None,
        });
        assert_eq!(source.as_deref(), field, "{}", g.name());
    }
}

#[test]
fn usage_counts_are_additive_across_providers() {
    // Prompt = input + cache read + cache write for every provider's convention.
    let cases = [
        (Provider::Anthropic, "thinking_tools", 1201 + 2048 + 4096),
        (Provider::OpenAiChat, "text", 1214),
        (Provider::DeepSeek, "reasoning_tools", 1320),
        (Provider::Kimi, "reasoning_tools", 245),
        (Provider::OpenAiResponses, "reasoning_tools", 2210),
        (Provider::Gemini, "thought_tools", 2210),
    ];
    for (p, case, prompt) in cases {
        let (o, _) = decode(p, &golden(p, case).events);
        let u = o.usage;
        let sum = [u.input_tokens, u.cache_read_tokens, u.cache_write_tokens]
            .iter()
            .map(|c| c.unwrap_or(0))
            .sum::<u32>();
        assert_eq!(sum, prompt, "{}/{case}: {u:?}", p.as_str());
        assert!(
            u.output_tokens >= u.reasoning_tokens,
            "{}/{case}",
            p.as_str()
        );
    }
}

#[test]
fn provider_error_events_become_typed_provider_errors() {
    let cases = [
        (Provider::Anthropic, "error", "overloaded_error"),
        (Provider::OpenAiChat, "error", "server_error"),
        (Provider::OpenAiResponses, "error", "rate_limit_exceeded"),
        (Provider::OpenAiResponses, "failed", "server_error"),
        (Provider::Gemini, "error", "UNAVAILABLE"),
    ];
    for (p, case, error_type) in cases {
        let (o, _) = decode(p, &golden(p, case).events);
        let found = o.errors.iter().find_map(|e| match e {
            turnwire::stream::StreamError::Provider { error_type, .. } => Some(error_type.clone()),
            _ => None,
        });
        assert_eq!(found.as_deref(), Some(error_type), "{}/{case}", p.as_str());
        assert_eq!(o.stop_reason, StopReason::Error);
        assert!(o.incomplete);
        // What arrived before the error is kept.
        assert!(
            p == Provider::OpenAiResponses && case == "error" || !o.message.blocks.is_empty(),
            "{}/{case}",
            p.as_str()
        );
    }
}

#[test]
fn truncated_streams_keep_unfinished_calls_with_their_raw_arguments() {
    let (o, _) = decode(
        Provider::Anthropic,
        &golden(Provider::Anthropic, "truncated").events,
    );
    let codes: Vec<&str> = o.errors.iter().map(|e| e.code()).collect();
    assert_eq!(codes, ["incomplete", "unfinished_tool_call"]);
    let Some(Block::ToolCall(c)) = o.message.blocks.last() else {
        panic!()
    };
    assert_eq!(c.parameters, Some(json!({})));
    assert_eq!(
        c.extra["rawArguments"],
        Value::from("{\"query\": \"serde j")
    );
    assert_eq!(o.stop_reason, StopReason::Incomplete);
}

#[test]
fn ors_18_19_20_a_codex_stream_keeps_phase_client_tools_and_compaction_for_the_next_request() {
    let g = golden(Provider::OpenAiResponses, "codex_tools");
    let (outcome, _) = decode(g.provider, &g.events);
    let mut t = Transcript::from_json(
        r#"[{"speaker":"human","blocks":[{"type":"text","text":"fix the test"}]}]"#,
    )
    .unwrap();
    t.messages.push(outcome.message.clone());
    let mut o = turnwire::RenderOptions::new(Provider::OpenAiResponses, "gpt-5.5-2026-04-23");
    o.tools = serde_json::from_value(json!([{"name": "grep", "parameters": {"type": "object"}}]))
        .unwrap();
    let out = turnwire::render(&t, &o).unwrap();
    assert_eq!(
        turnwire::validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
    let items = out.body["input"].as_array().unwrap();
    let types: Vec<&str> = items.iter().map(|i| i["type"].as_str().unwrap()).collect();
    assert_eq!(
        types,
        [
            "message",
            "compaction",
            "message",
            "apply_patch_call",
            "shell_call",
            "custom_tool_call",
            "apply_patch_call_output",
            "shell_call_output",
            "custom_tool_call_output"
        ]
    );
    assert_eq!(items[2]["phase"], "commentary");
    assert_eq!(items[5]["input"], "fn add");
    // the calls had no results: the synthetic completions take each call's own output type
    assert_eq!(items[6]["status"], "failed");
    assert_eq!(items[7]["output"][0]["outcome"]["exit_code"], 1);
}

#[test]
fn ort_02_openrouter_reasoning_details_are_joined_into_the_thinking_block() {
    let g = golden(Provider::OpenAiChat, "openrouter_reasoning_details");
    let (o, _) = decode(g.provider, &g.events);
    let Some(Block::Thinking(t)) = o.message.blocks.first() else {
        panic!("no thinking block first: {:?}", o.message.blocks)
    };
    assert_eq!(t.thought, "The user wants the weather in Oslo.");
    assert_eq!(
        t.meta,
        Some(ProviderMeta::OpenRouterReasoningDetails {
            details: vec![json!({
                "type": "reasoning.text",
                "text": "The user wants the weather in Oslo.",
                "format": "anthropic-claude-v1",
                "index": 0,
                "signature": "EqQBCkgIBxABGAIiQJx0c2lnbmF0dXJlLWJ5dGVz"
            })]
        })
    );
    // Gemini 3: the text item and the encrypted item that signs the call, in order
    let g = golden(
        Provider::OpenAiCompatible,
        "openrouter_gemini_reasoning_details",
    );
    let (o, _) = decode(g.provider, &g.events);
    let Some(Block::Thinking(t)) = o.message.blocks.first() else {
        panic!("no thinking block first: {:?}", o.message.blocks)
    };
    let Some(ProviderMeta::OpenRouterReasoningDetails { details }) = &t.meta else {
        panic!("no details: {:?}", t.meta)
    };
    let kinds: Vec<&str> = details.iter().filter_map(|d| d["type"].as_str()).collect();
    assert_eq!(kinds, ["reasoning.text", "reasoning.encrypted"]);
    assert_eq!(details[1]["id"], "tool_weather_Zp4Qm9Tr2Ls7Vx1Kc8Bn");
}

#[test]
fn ort_02_details_without_reasoning_text_give_the_thought_and_keep_encrypted_items() {
    let chunk = |delta: Value| {
        json!({"id": "gen-1", "model": "openai/gpt-5.2", "choices": [{"index": 0, "delta": delta, "finish_reason": null}]})
        .to_string()
    };
    let events = [
        chunk(
            json!({"reasoning_details": [{"type": "reasoning.summary", "summary": "Plan the answer.", "format": "openai-responses-v1", "index": 0}]}),
        ),
        chunk(
            json!({"reasoning_details": [{"type": "reasoning.encrypted", "data": "gAAAAB", "id": "rs_1", "format": "openai-responses-v1", "index": 1}]}),
        ),
        chunk(json!({"content": "Done."})),
        "[DONE]".to_string(),
    ];
    let (o, _) = decode(Provider::OpenAiCompatible, &events);
    let Some(Block::Thinking(t)) = o.message.blocks.first() else {
        panic!("{:?}", o.message.blocks)
    };
    assert_eq!(t.thought, "Plan the answer.");
    assert_eq!(t.source_field.as_deref(), Some("reasoning_details"));
    let Some(ProviderMeta::OpenRouterReasoningDetails { details }) = &t.meta else {
        panic!("{:?}", t.meta)
    };
    assert_eq!(details.len(), 2);
    assert_eq!(details[1]["data"], "gAAAAB");
}
