//! Property tests of the stream decoders:
//! - re-splitting every text, reasoning and argument delta of a golden stream at random points
//!   gives the same outcome, and so does interleaving different blocks' events where the wire
//!   format keys them (Anthropic block indexes, chat tool-call indexes and lanes, Responses item
//!   ids) — as long as blocks start in the same order;
//! - every prefix of every golden stream finishes without panic, and a prefix without the
//!   terminal event is incomplete with an `incomplete` error;
//! - arbitrary text, arbitrary JSON and event-shaped JSON never panic any decoder, and the
//!   message they give always reads back equal through the model writer and renders into a
//!   body the provider's strict validator accepts;
//! - a Bedrock event stream (`application/vnd.amazon.eventstream` frames of a golden stream)
//!   with random corruption (flipped bits, dropped, inserted or repeated bytes, a cut-off end)
//!   and cut anywhere never panics or hangs, decodes the same however it is cut, and gives a
//!   message that reads back equal and renders into a body the strict validator accepts.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod stream_support;

use proptest::prelude::*;
use serde_json::{json, Map, Value};
use stream_support::{decode, decode_mixed, goldens, values, Golden};
use turnwire::stream::{StreamDecoder, StreamOptions};
use turnwire::{render, validate_request_for_model, Provider, RenderOptions, Transcript};

/// A small deterministic generator (xorshift64*), seeded by proptest.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(seed | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

/// `s` cut at up to `max - 1` random char boundaries into non-empty pieces.
fn cut(s: &str, rng: &mut Rng, max: usize) -> Vec<String> {
    let bounds: Vec<usize> = s.char_indices().map(|(i, _)| i).skip(1).collect();
    let mut picks: Vec<usize> = (0..rng.below(max))
        .filter_map(|_| bounds.get(rng.below(bounds.len())).copied())
        .collect();
    picks.sort_unstable();
    picks.dedup();
    let mut out = Vec::new();
    let mut last = 0;
    for p in picks {
        out.push(s[last..p].to_string());
        last = p;
    }
    out.push(s[last..].to_string());
    out
}

/// A pointer into an event to the string that may be split, and what to drop from every piece
/// but the first (`first_only`) and every piece but the last (`last_only`).
struct Split {
    path: Vec<Value>,
    /// Paths that carry the same text as `path` and are cut with it (OpenRouter's
    /// `reasoning_details` text beside `reasoning`, ORT-02).
    mirrors: Vec<Vec<Value>>,
    first_only: Vec<Vec<Value>>,
    last_only: Vec<Vec<Value>>,
}

fn p(parts: &[Value]) -> Vec<Value> {
    parts.to_vec()
}

fn get<'a>(v: &'a Value, path: &[Value]) -> Option<&'a Value> {
    path.iter().try_fold(v, |v, k| match k {
        Value::String(s) => v.get(s.as_str()),
        Value::Number(n) => v.get(n.as_u64()? as usize),
        _ => None,
    })
}

fn get_mut<'a>(v: &'a mut Value, path: &[Value]) -> Option<&'a mut Value> {
    path.iter().try_fold(v, |v, k| match k {
        Value::String(s) => v.get_mut(s.as_str()),
        Value::Number(n) => v.get_mut(n.as_u64()? as usize),
        _ => None,
    })
}

fn remove(v: &mut Value, path: &[Value]) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    if let (Some(Value::Object(o)), Value::String(k)) = (get_mut(v, parent), last) {
        o.remove(k);
    }
}

/// Where an event of `provider` can be split, if anywhere.
fn splittable(provider: Provider, e: &Value) -> Option<Split> {
    let s = |x: &str| Value::from(x);
    match provider {
        Provider::Anthropic => {
            let field = match e["delta"]["type"].as_str()? {
                "text_delta" => "text",
                "thinking_delta" => "thinking",
                "input_json_delta" => "partial_json",
                // a compaction summary streams in pieces too (issue 31, ANT-44)
                "compaction_delta" => "content",
                _ => return None,
            };
            let first_only = if field == "content" {
                vec![p(&[s("delta"), s("encrypted_content")])]
            } else {
                vec![]
            };
            Some(Split {
                mirrors: vec![],
                path: p(&[s("delta"), s(field)]),
                first_only,
                last_only: vec![],
            })
        }
        Provider::OpenAiResponses => match e["type"].as_str()? {
            "response.output_text.delta"
            | "response.reasoning_summary_text.delta"
            | "response.function_call_arguments.delta" => Some(Split {
                mirrors: vec![],
                path: p(&[s("delta")]),
                first_only: vec![],
                last_only: vec![],
            }),
            _ => None,
        },
        Provider::BedrockConverse => {
            let d = &e["contentBlockDelta"]["delta"];
            let field = if d["text"].is_string() {
                vec![s("text")]
            } else if d["toolUse"]["input"].is_string() {
                vec![s("toolUse"), s("input")]
            } else if d["reasoningContent"]["text"].is_string() {
                vec![s("reasoningContent"), s("text")]
            } else {
                return None;
            };
            let mut path = p(&[s("contentBlockDelta"), s("delta")]);
            path.extend(field);
            Some(Split {
                path,
                mirrors: vec![],
                first_only: vec![],
                last_only: vec![],
            })
        }
        Provider::Gemini => {
            let parts = e["candidates"][0]["content"]["parts"].as_array()?;
            // a signed part is kept whole, as Gemini sent it (GEM-24): splitting it makes
            // other parts, so only unsigned text is re-split
            if parts.len() != 1
                || parts[0].get("text").is_none()
                || parts[0].get("thoughtSignature").is_some()
            {
                return None;
            }
            let part = |f: &str| {
                p(&[
                    s("candidates"),
                    0.into(),
                    s("content"),
                    s("parts"),
                    0.into(),
                    s(f),
                ])
            };
            Some(Split {
                mirrors: vec![],
                path: part("text"),
                first_only: vec![],
                last_only: vec![
                    p(&[s("candidates"), 0.into(), s("finishReason")]),
                    p(&[s("usageMetadata")]),
                ],
            })
        }
        // NDJSON lines: one text or reasoning piece per line; calls come whole.
        Provider::Ollama => {
            let m = &e["message"];
            let fields: Vec<&str> = ["content", "thinking"]
                .into_iter()
                .filter(|f| m[*f].as_str().is_some_and(|x| !x.is_empty()))
                .collect();
            match (fields.as_slice(), m.get("tool_calls")) {
                ([f], None) => Some(Split {
                    path: p(&[s("message"), s(f)]),
                    mirrors: vec![],
                    first_only: vec![],
                    last_only: ["done", "done_reason", "prompt_eval_count", "eval_count"]
                        .iter()
                        .map(|k| p(&[s(k)]))
                        .collect(),
                }),
                _ => None,
            }
        }
        _ => {
            let d = &e["choices"][0]["delta"];
            let last_only = vec![
                p(&[s("choices"), 0.into(), s("finish_reason")]),
                p(&[s("choices"), 0.into(), s("usage")]),
                p(&[s("usage")]),
            ];
            let fields: Vec<&str> = ["content", "reasoning_content", "reasoning"]
                .into_iter()
                .filter(|f| d[*f].as_str().is_some_and(|x| !x.is_empty()))
                .collect();
            let calls = d["tool_calls"].as_array().map_or(0, Vec::len);
            let details = p(&[s("choices"), 0.into(), s("delta"), s("reasoning_details")]);
            match (fields.as_slice(), calls) {
                ([f], 0) => {
                    // OpenRouter: one text item with the same text is cut with it; its
                    // signature comes with the last piece
                    let item = &d["reasoning_details"][0];
                    let one = d["reasoning_details"]
                        .as_array()
                        .is_some_and(|a| a.len() == 1);
                    let (mirrors, mut last) = if one && item["text"] == d[*f] {
                        let mut text = details.clone();
                        text.extend([0.into(), s("text")]);
                        let mut signature = details.clone();
                        signature.extend([0.into(), s("signature")]);
                        (vec![text], vec![signature])
                    } else if d.get("reasoning_details").is_some() {
                        return None;
                    } else {
                        (vec![], vec![])
                    };
                    last.extend(last_only);
                    Some(Split {
                        path: p(&[s("choices"), 0.into(), s("delta"), s(f)]),
                        mirrors,
                        first_only: vec![],
                        last_only: last,
                    })
                }
                ([], 1) if d["tool_calls"][0]["function"]["arguments"].is_string() => {
                    let call = |f: &[&str]| {
                        let mut v = p(&[
                            s("choices"),
                            0.into(),
                            s("delta"),
                            s("tool_calls"),
                            0.into(),
                        ]);
                        v.extend(f.iter().map(|x| s(x)));
                        v
                    };
                    Some(Split {
                        mirrors: vec![],
                        path: call(&["function", "arguments"]),
                        first_only: vec![
                            call(&["id"]),
                            call(&["type"]),
                            call(&["function", "name"]),
                            details,
                        ],
                        last_only,
                    })
                }
                _ => None,
            }
        }
    }
}

/// Every splittable event cut into random pieces.
fn resplit(provider: Provider, events: &[Value], rng: &mut Rng) -> Vec<Value> {
    let mut out = Vec::new();
    for e in events {
        let Some(split) = splittable(provider, e) else {
            out.push(e.clone());
            continue;
        };
        let text = get(e, &split.path)
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string();
        let pieces = cut(&text, rng, 5);
        let n = pieces.len();
        for (i, piece) in pieces.into_iter().enumerate() {
            let mut ev = e.clone();
            for path in &split.mirrors {
                if let Some(slot) = get_mut(&mut ev, path) {
                    *slot = Value::String(piece.clone());
                }
            }
            if let Some(slot) = get_mut(&mut ev, &split.path) {
                *slot = Value::String(piece);
            }
            if i > 0 {
                split
                    .first_only
                    .iter()
                    .for_each(|path| remove(&mut ev, path));
            }
            if i + 1 < n {
                split
                    .last_only
                    .iter()
                    .for_each(|path| remove(&mut ev, path));
            }
            out.push(ev);
        }
    }
    out
}

/// The block an event belongs to, for formats whose events are keyed; `None` for events that
/// keep their place (message start and end, usage, markers).
fn lane(provider: Provider, e: &Value) -> Option<String> {
    match provider {
        Provider::Anthropic => match e["type"].as_str()? {
            "content_block_start" | "content_block_delta" | "content_block_stop" => {
                Some(e["index"].to_string())
            }
            _ => None,
        },
        Provider::OpenAiResponses => {
            let t = e["type"].as_str()?;
            if t.starts_with("response.output_item") {
                Some(e["item"]["id"].as_str()?.to_string())
            } else if t.starts_with("response.") && e.get("item_id").is_some() {
                Some(e["item_id"].as_str()?.to_string())
            } else {
                None
            }
        }
        Provider::Gemini | Provider::Ollama => None,
        Provider::BedrockConverse => ["contentBlockStart", "contentBlockDelta", "contentBlockStop"]
            .iter()
            .find_map(|k| e.get(*k))
            .map(|b| b["contentBlockIndex"].to_string()),
        _ => {
            let c = &e["choices"][0];
            if !c["finish_reason"].is_null() || e["usage"].is_object() || c["usage"].is_object() {
                return None;
            }
            let d = &c["delta"];
            if let Some(calls) = d["tool_calls"].as_array() {
                return (calls.len() == 1).then(|| format!("tool:{}", calls[0]["index"]));
            }
            if d["content"].as_str().is_some_and(|x| !x.is_empty()) {
                return Some("text".into());
            }
            ["reasoning_content", "reasoning"]
                .iter()
                .any(|f| d[*f].as_str().is_some_and(|x| !x.is_empty()))
                .then(|| "reasoning".into())
        }
    }
}

/// Interleaves the events of different blocks between unkeyed events, keeping each block's
/// own order and the order in which blocks start.
fn interleave(provider: Provider, events: &[Value], rng: &mut Rng) -> Vec<Value> {
    let mut out = Vec::new();
    let mut run: Vec<(String, Value)> = Vec::new();
    let flush = |run: &mut Vec<(String, Value)>, out: &mut Vec<Value>, rng: &mut Rng| {
        // Lanes in start order, each a queue.
        let mut lanes: Vec<(String, std::collections::VecDeque<Value>)> = Vec::new();
        for (k, e) in run.drain(..) {
            match lanes.iter_mut().find(|(l, _)| *l == k) {
                Some((_, q)) => q.push_back(e),
                None => lanes.push((k, std::collections::VecDeque::from([e]))),
            }
        }
        let mut started = 0;
        loop {
            let eligible: Vec<usize> = (0..lanes.len())
                .filter(|&i| !lanes[i].1.is_empty() && i <= started)
                .collect();
            if eligible.is_empty() {
                break;
            }
            let i = eligible[rng.below(eligible.len())];
            if i == started {
                started += 1;
            }
            if let Some(e) = lanes[i].1.pop_front() {
                out.push(e);
            }
        }
    };
    for e in events {
        match lane(provider, e) {
            Some(k) => run.push((k, e.clone())),
            None => {
                flush(&mut run, &mut out, rng);
                out.push(e.clone());
            }
        }
    }
    flush(&mut run, &mut out, rng);
    out
}

fn outcome_json(provider: Provider, events: &[Value]) -> Value {
    decode_mixed(provider, events).to_value()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn resplitting_deltas_gives_the_same_outcome(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for g in goldens() {
            let events = values(&g);
            let expected = outcome_json(g.provider, &events);
            let split = resplit(g.provider, &events, &mut rng);
            prop_assert_eq!(&outcome_json(g.provider, &split), &expected, "{}", g.name());
        }
    }

    #[test]
    fn interleaving_blocks_after_resplitting_gives_the_same_outcome(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        for g in goldens() {
            let events = values(&g);
            let expected = outcome_json(g.provider, &events);
            let mixed = interleave(g.provider, &resplit(g.provider, &events, &mut rng), &mut rng);
            prop_assert_eq!(&outcome_json(g.provider, &mixed), &expected, "{}", g.name());
        }
    }
}

#[test]
fn interleaving_actually_reorders_events_of_parallel_calls() {
    // The property above is not vacuous: some seed moves events of one call past another's.
    let g = stream_support::golden(Provider::OpenAiChat, "parallel_tools");
    let events = values(&g);
    let moved = (0..50u64).any(|seed| {
        let mut rng = Rng::new(seed);
        interleave(
            g.provider,
            &resplit(g.provider, &events, &mut rng),
            &mut rng,
        ) != events
    });
    assert!(moved);
}

/// Whether the first `k` events hold the wire format's terminal event (or a provider error).
fn has_terminal(g: &Golden, k: usize) -> bool {
    g.events[..k].iter().any(|e| match g.provider {
        Provider::Anthropic => {
            e.contains("\"type\":\"message_stop\"") || e.contains("\"type\":\"error\"")
        }
        Provider::OpenAiResponses => [
            "\"type\":\"response.completed\"",
            "\"type\":\"response.incomplete\"",
            "\"type\":\"response.failed\"",
            "\"type\":\"error\"",
        ]
        .iter()
        .any(|m| e.contains(m)),
        Provider::Gemini => e.contains("\"finishReason\"") || e.starts_with("{\"error\""),
        Provider::Ollama => e.contains("\"done\":true") || e.starts_with("{\"error\""),
        Provider::BedrockConverse => {
            e.starts_with("{\"messageStop\"") || e.contains("Exception\":")
        }
        _ => e == "[DONE]" || e.contains("\"finish_reason\":\"") || e.starts_with("{\"error\""),
    })
}

#[test]
fn every_prefix_of_every_golden_stream_finishes_and_says_whether_it_is_complete() {
    let mut prefixes = 0;
    for g in goldens() {
        for k in 0..=g.events.len() {
            let (o, _) = decode(g.provider, &g.events[..k]);
            prefixes += 1;
            if !has_terminal(&g, k) {
                assert!(o.incomplete, "{} [..{k}]", g.name());
                assert!(
                    o.errors.iter().any(|e| e.code() == "incomplete"),
                    "{} [..{k}]",
                    g.name()
                );
                assert_eq!(
                    o.message.metadata.as_ref().unwrap().extra["incomplete"],
                    json!(true)
                );
            }
            // Always a storable message.
            let text = Transcript::new(vec![o.message.clone()]).to_json();
            assert_eq!(Transcript::from_json(&text).unwrap().messages[0], o.message);
        }
    }
    assert!(prefixes > 300);
}

/// JSON built from the words the decoders look for, so that random values reach deep paths.
fn arb_event() -> impl Strategy<Value = Value> {
    let words = prop::sample::select(vec![
        "type",
        "index",
        "delta",
        "text",
        "thinking",
        "signature",
        "partial_json",
        "content_block",
        "id",
        "name",
        "input",
        "message",
        "usage",
        "stop_reason",
        "choices",
        "tool_calls",
        "function",
        "arguments",
        "finish_reason",
        "content",
        "reasoning_content",
        "reasoning",
        "refusal",
        "item",
        "item_id",
        "output_index",
        "summary",
        "encrypted_content",
        "call_id",
        "response",
        "candidates",
        "parts",
        "functionCall",
        "args",
        "thoughtSignature",
        "thought",
        "finishReason",
        "usageMetadata",
        "error",
        "status",
        "code",
        "summary_index",
        "data",
        "incomplete_details",
        "message_start",
        "content_block_start",
        "content_block_delta",
        "content_block_stop",
        "message_delta",
        "message_stop",
        "text_delta",
        "thinking_delta",
        "signature_delta",
        "input_json_delta",
        "tool_use",
        "redacted_thinking",
        "compaction",
        "compaction_delta",
        "fallback",
        "from",
        "to",
        "model",
        "stop_details",
        "fallback_credit_token",
        "input_transformations",
        "response.output_item.added",
        "response.output_item.done",
        "response.output_text.delta",
        "response.function_call_arguments.delta",
        "response.function_call_arguments.done",
        "response.reasoning_summary_text.delta",
        "response.reasoning_summary_part.added",
        "response.completed",
        "response.incomplete",
        "response.failed",
        "reasoning",
        "function_call",
        // ORS-18/19/20: the Codex items and labels of a Responses stream
        "phase",
        "commentary",
        "final_answer",
        "compaction",
        "custom_tool_call",
        "apply_patch_call",
        "shell_call",
        "local_shell_call",
        "tool_search_call",
        "program",
        "operation",
        "action",
        "commands",
        "execution",
        "client",
        "fingerprint",
        // issue 32: Bedrock ConverseStream events
        "messageStart",
        "contentBlockStart",
        "contentBlockDelta",
        "contentBlockStop",
        "messageStop",
        "metadata",
        "contentBlockIndex",
        "start",
        "toolUse",
        "toolUseId",
        "reasoningContent",
        "redactedContent",
        "stopReason",
        "inputTokens",
        "outputTokens",
        "cacheReadInputTokens",
        "throttlingException",
        "output",
        "p",
        "STOP",
        "MAX_TOKENS",
        "stop",
        "tool_calls",
        "length",
        "[DONE]",
        "{",
        "{\"a\":",
        "}",
        "0",
        "",
    ]);
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (0u64..4).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        words.clone().prop_map(Value::from),
        ".{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(5, 48, 6, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::vec((words.clone(), inner), 0..6).prop_map(|kv| {
                Value::Object(
                    kv.into_iter()
                        .map(|(k, v)| (k.to_string(), v))
                        .collect::<Map<_, _>>(),
                )
            }),
        ]
    })
}

/// Every provider with a stream decoder: `Provider::ALL` and those not in it yet (issue 32's
/// `bedrock-converse`).
fn decoded_providers() -> Vec<Provider> {
    let mut all = Provider::ALL.to_vec();
    if !all.contains(&Provider::BedrockConverse) {
        all.push(Provider::BedrockConverse);
    }
    all
}

/// Decodes, checks the outcome is storable and renders into a valid body for its provider.
fn decode_and_check(
    provider: Provider,
    pushes: &[Result<String, Value>],
) -> Result<(), TestCaseError> {
    let mut d = StreamDecoder::new(
        provider,
        StreamOptions::for_model(provider.reference_model()),
    );
    for p in pushes {
        let _ = match p {
            Ok(s) => d.push(s),
            Err(v) => d.push_value(v),
        };
    }
    check_message(provider, d.finish())
}

/// Checks an outcome's message is storable and renders into a valid body for its provider.
fn check_message(
    provider: Provider,
    o: turnwire::stream::StreamOutcome,
) -> Result<(), TestCaseError> {
    let _ = o.to_value();
    let t = Transcript::new(vec![o.message.clone()]);
    let back = Transcript::from_json(&t.to_json()).unwrap();
    prop_assert_eq!(&back.messages[0], &o.message);
    let mut msgs = vec![turnwire::model::Message::new(
        turnwire::model::Speaker::Human,
        vec![turnwire::model::Block::Text(
            turnwire::model::TextBlock::new("go"),
        )],
    )];
    msgs.push(o.message);
    let opts = RenderOptions::from_value(json!({
        "provider": provider.as_str(), "model": provider.reference_model(), "thinking": {"enabled": true}
    }))
    .unwrap();
    let out = render(&Transcript::new(msgs), &opts).unwrap();
    let v = validate_request_for_model(provider, provider.reference_model(), &out.body);
    prop_assert!(v.is_empty(), "{provider}: {v:#?}");
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_shrink_iters: 500, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(events in prop::collection::vec(".{0,40}", 0..8)) {
        for provider in decoded_providers() {
            let pushes: Vec<Result<String, Value>> = events.iter().cloned().map(Ok).collect();
            decode_and_check(provider, &pushes)?;
        }
    }

    #[test]
    fn arbitrary_event_shaped_json_never_panics(events in prop::collection::vec(arb_event(), 0..10)) {
        for provider in decoded_providers() {
            let pushes: Vec<Result<String, Value>> = events.iter().cloned().map(Err).collect();
            decode_and_check(provider, &pushes)?;
            let as_text: Vec<Result<String, Value>> = events.iter().map(|e| Ok(e.to_string())).collect();
            decode_and_check(provider, &as_text)?;
        }
    }

    #[test]
    fn golden_streams_with_random_events_mixed_in_never_panic(
        seed in any::<u64>(),
        noise in prop::collection::vec(arb_event(), 1..6),
    ) {
        let mut rng = Rng::new(seed);
        let all = goldens();
        let g = &all[rng.below(all.len())];
        let mut events: Vec<Result<String, Value>> = g.events.iter().cloned().map(Ok).collect();
        for n in noise {
            let at = rng.below(events.len() + 1);
            events.insert(at, Err(n));
        }
        decode_and_check(g.provider, &events)?;
    }
}

/// One part of a generated Gemini chunk: text (a thought or not, signed or not, possibly the
/// empty signature-only part), or a call with or without Gemini's id.
#[derive(Debug, Clone)]
enum GeminiPart {
    Text {
        text: String,
        thought: bool,
        signed: bool,
    },
    Call {
        name: &'static str,
        id: Option<String>,
        signed: bool,
    },
}

fn gemini_part() -> impl Strategy<Value = GeminiPart> {
    prop_oneof![
        3 => ("[a-z ]{0,6}", any::<bool>(), any::<bool>())
            .prop_map(|(text, thought, signed)| GeminiPart::Text { text, thought, signed }),
        // the trailing signature-only part a streamed answer often ends with (GEM-24)
        1 => Just(GeminiPart::Text { text: String::new(), thought: false, signed: true }),
        // parallel calls of one tool, with Gemini 3's ids (GEM-22) or none (Gemini 2.x)
        2 => (prop::sample::select(vec!["read", "ls"]), prop::option::of("[a-z0-9]{8}"), any::<bool>())
            .prop_map(|(name, id, signed)| GeminiPart::Call { name, id, signed }),
    ]
}

impl GeminiPart {
    fn wire(&self, n: usize) -> Value {
        let sig = format!("U0lH{n:04}");
        let mut part = match self {
            GeminiPart::Text { text, thought, .. } => {
                let mut p = json!({ "text": text });
                if *thought {
                    p["thought"] = json!(true);
                }
                p
            }
            GeminiPart::Call { name, id, .. } => {
                let mut call = json!({"name": name, "args": {"n": n}});
                if let Some(id) = id {
                    call["id"] = json!(id);
                }
                json!({ "functionCall": call })
            }
        };
        if matches!(
            self,
            GeminiPart::Text { signed: true, .. } | GeminiPart::Call { signed: true, .. }
        ) {
            part["thoughtSignature"] = json!(sig);
        }
        part
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, max_shrink_iters: 500, ..ProptestConfig::default() })]

    /// GEM-22 and GEM-24 in the decoder: every signed part comes out as a block of its own with
    /// its signature (nothing joins it), every call keeps Gemini's id, and the message renders
    /// into a valid Gemini 3 body (ids echoed and paired).
    #[test]
    fn gemini_signed_parts_stay_whole_and_call_ids_are_kept(
        chunks in prop::collection::vec(prop::collection::vec(gemini_part(), 1..4), 1..6),
    ) {
        let mut n = 0;
        let mut events = Vec::new();
        let mut signed = Vec::new();
        let mut ids = Vec::new();
        for (k, parts) in chunks.iter().enumerate() {
            let wire: Vec<Value> = parts
                .iter()
                .map(|p| {
                    n += 1;
                    let w = p.wire(n);
                    if let Some(s) = w.get("thoughtSignature") {
                        // a signed text part's block holds exactly its text; a call, no text
                        let text = w["text"].as_str().map(str::to_string);
                        signed.push((s.as_str().unwrap().to_string(), text));
                    }
                    if let GeminiPart::Call { id: Some(id), .. } = p {
                        ids.push(id.clone());
                    }
                    w
                })
                .collect();
            let mut chunk = json!({"candidates": [{"content": {"role": "model", "parts": wire}}], "responseId": "r1"});
            if k + 1 == chunks.len() {
                chunk["candidates"][0]["finishReason"] = json!("STOP");
            }
            events.push(Ok(chunk.to_string()));
        }
        let mut d = StreamDecoder::new(Provider::Gemini, StreamOptions::for_model("gemini-3-pro-preview"));
        for e in &events {
            let _ = d.push(e.as_ref().unwrap());
        }
        let o = d.finish();
        let metas: Vec<(String, Option<String>)> = o
            .message
            .blocks
            .iter()
            .filter_map(|b| match b {
                turnwire::model::Block::Text(t) => Some((t.meta.as_ref()?, Some(t.text.clone()))),
                turnwire::model::Block::Thinking(t) => Some((t.meta.as_ref()?, Some(t.thought.clone()))),
                turnwire::model::Block::ToolCall(c) => Some((c.meta.as_ref()?, None)),
                _ => None,
            })
            .map(|(m, text)| match m {
                turnwire::model::ProviderMeta::GeminiThoughtSignature { thought_signature } => (thought_signature.clone(), text),
                other => panic!("{other:?}"),
            })
            .collect();
        // each signature once, in order, on exactly its part's text: nothing joined a signed part
        prop_assert_eq!(&metas, &signed);
        let kept: Vec<String> = o
            .message
            .blocks
            .iter()
            .filter_map(|b| match b {
                turnwire::model::Block::ToolCall(c) if !c.id.starts_with("gemini_call_") => Some(c.id.clone()),
                _ => None,
            })
            .collect();
        prop_assert_eq!(&kept, &ids);
        decode_and_check(Provider::Gemini, &events)?;
    }
}

/// A golden Converse stream as event-stream bytes, or (`invoke`) a golden Anthropic stream as
/// Bedrock InvokeModel `chunk` frames, corrupted at random.
fn corrupted_event_stream(rng: &mut Rng, invoke: bool) -> Vec<u8> {
    let provider = if invoke {
        Provider::Anthropic
    } else {
        Provider::BedrockConverse
    };
    let all: Vec<Golden> = goldens()
        .into_iter()
        .filter(|g| g.provider == provider)
        .collect();
    let g = &all[rng.below(all.len())];
    let mut bytes = if invoke {
        stream_support::event_stream::encode_invoke(&g.events)
    } else {
        stream_support::event_stream::encode(&g.events).0
    };
    for _ in 0..1 + rng.below(3) {
        let at = rng.below(bytes.len());
        match rng.below(5) {
            0 => bytes[at] ^= 1 << rng.below(8),
            1 => {
                bytes.remove(at);
            }
            2 => bytes.insert(at, rng.next() as u8),
            3 => {
                let n = rng.below(40).min(bytes.len() - at);
                let copy: Vec<u8> = bytes[at..at + n].to_vec();
                bytes.splice(at..at, copy);
            }
            _ => bytes.truncate(at),
        }
        if bytes.is_empty() {
            break;
        }
    }
    bytes
}

/// Decodes bytes cut at `cuts` (Converse, or `invoke`: Claude on Bedrock InvokeModel): the
/// outcome, and whether every push returned.
fn decode_bytes(bytes: &[u8], cuts: &[usize], invoke: bool) -> (StreamDecoder, Value) {
    let p = if invoke {
        Provider::Anthropic
    } else {
        Provider::BedrockConverse
    };
    let mut o = StreamOptions::for_model(p.reference_model());
    if invoke {
        o.host = Some(turnwire::Host::Bedrock);
    }
    let mut d = StreamDecoder::new(p, o);
    let mut at = 0;
    for &c in cuts.iter().chain([bytes.len()].iter()) {
        let _ = d.push_bytes(&bytes[at..c]);
        at = c;
    }
    let v = d.outcome().to_value();
    (d, v)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, max_shrink_iters: 200, ..ProptestConfig::default() })]

    #[test]
    fn corrupted_event_streams_never_panic_and_decode_the_same_however_cut(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let invoke = rng.below(2) == 1;
        let bytes = corrupted_event_stream(&mut rng, invoke);
        let (whole, expected) = decode_bytes(&bytes, &[], invoke);
        let mut cuts: Vec<usize> = (0..rng.below(6)).map(|_| rng.below(bytes.len() + 1)).collect();
        cuts.sort_unstable();
        let (cut, again) = decode_bytes(&bytes, &cuts, invoke);
        prop_assert_eq!(&again, &expected);
        prop_assert_eq!(whole.finish().to_value(), cut.finish().to_value());
        // and the message is storable and renders into a valid body of its wire
        let (d, _) = decode_bytes(&bytes, &cuts, invoke);
        check_message(if invoke { Provider::Anthropic } else { Provider::BedrockConverse }, d.finish())?;
    }
}
