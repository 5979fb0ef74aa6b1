//! Property tests of provider switch chains: a simulated agent whose provider and model change on
//! every turn (random sequences over every implemented wire format, A→B→A→C…, 20+ turns; the
//! models drawn from every row of the capability table, `models::known_models`), each model
//! answering in its own format (its id style, its own thinking continuity, parallel calls), with
//! cancelled calls, late and duplicated results and open tool loops. On every turn:
//! - the request passes the target's strict validator for that model (so a capability row and
//!   its provider's validator cannot disagree);
//! - nothing real is lost (user texts, calls and real results are in the body or named in a
//!   diagnostic);
//! - rendering again gives byte-identical bodies;
//! - every id projected earlier for a provider is projected the same way later.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::collections::HashMap;

use proptest::prelude::*;
use serde_json::{json, Value};
use turnwire::{
    models::known_models, render, validate_request_for_model, Provider, RenderOptions,
    ThinkingOptions, Transcript,
};

#[derive(Debug, Clone, Copy)]
enum Fate {
    Complete,
    Error,
    Cancelled,
    Late,
    Duplicated,
}

#[derive(Debug, Clone)]
struct Turn {
    provider: usize,
    /// Which of the provider's capability rows (modulo their number) answers.
    model: usize,
    thinking: bool,
    text: bool,
    calls: Vec<Fate>,
    user_follows: bool,
}

fn fate() -> impl Strategy<Value = Fate> {
    prop_oneof![
        5 => Just(Fate::Complete),
        1 => Just(Fate::Error),
        1 => Just(Fate::Cancelled),
        1 => Just(Fate::Late),
        1 => Just(Fate::Duplicated),
    ]
}

fn turn() -> impl Strategy<Value = Turn> {
    (
        0usize..64,
        0usize..64,
        any::<bool>(),
        any::<bool>(),
        prop::collection::vec(fate(), 0..4),
        prop::bool::weighted(0.7),
    )
        .prop_map(
            |(provider, model, thinking, text, calls, user_follows)| Turn {
                provider,
                model,
                thinking,
                text,
                calls,
                user_follows,
            },
        )
}

/// The simulated conversation and the tokens that must not be lost.
struct Session {
    history: Vec<Value>,
    counter: usize,
    /// Results that arrive after the next user message.
    late: Vec<Value>,
}

impl Session {
    fn token(&mut self) -> String {
        self.counter += 1;
        format!("tok{}_", self.counter)
    }

    fn user(&mut self) {
        let t = format!("user says {}", self.token());
        self.history
            .push(json!({"speaker": "human", "blocks": [{"type": "text", "text": t}]}));
        let late = std::mem::take(&mut self.late);
        if !late.is_empty() {
            self.history
                .push(json!({"speaker": "tool", "blocks": late}));
        }
    }

    /// The call id the provider itself would have produced.
    fn native_id(&mut self, p: Provider, name: &str, k: usize) -> String {
        let n = self.counter;
        match p {
            Provider::Anthropic => format!("toolu_01T{n}K{k}"),
            Provider::OpenAiChat => format!("call_c{n}k{k}"),
            Provider::OpenAiResponses => format!("call_r{n}k{k}"),
            Provider::Gemini => String::new(),
            Provider::Mistral => format!("{:0>9}", format!("M{n}K{k}"))
                .chars()
                .take(9)
                .collect(),
            Provider::Kimi => format!("functions.{name}:{n}"),
            Provider::DeepSeek => format!("call_00_d{n}k{k}"),
            _ => format!("call_{k}"),
        }
    }

    fn answer(&mut self, p: Provider, model: &str, t: &Turn) {
        let (provider, api) = match p {
            Provider::OpenAiChat => ("openai", "chat-completions"),
            Provider::OpenAiResponses => ("openai", "responses"),
            other => (other.as_str(), ""),
        };
        let mut meta = json!({"provider": provider, "model": model});
        if !api.is_empty() {
            meta["api"] = json!(api);
        }
        let mut blocks = Vec::new();
        if t.thinking {
            let thought = format!("think {}", self.token());
            let block = match p {
                Provider::Anthropic => {
                    json!({"type": "thinking", "thought": thought, "signature": format!("sig{}", self.counter)})
                }
                Provider::OpenAiResponses => {
                    json!({"type": "thinking", "thought": thought, "reasoningId": format!("rs_{}", self.counter), "encryptedContent": "gAAAAB"})
                }
                Provider::Kimi | Provider::DeepSeek => {
                    json!({"type": "thinking", "thought": thought, "sourceField": "reasoning_content"})
                }
                _ => json!({"type": "thinking", "thought": thought}),
            };
            blocks.push(block);
        }
        if t.text || t.calls.is_empty() {
            blocks
                .push(json!({"type": "text", "text": format!("assistant says {}", self.token())}));
        }
        let mut results = Vec::new();
        for (k, fate) in t.calls.iter().enumerate() {
            let name = if k % 2 == 0 { "read_file" } else { "run_shell" };
            self.counter += 1;
            let id = self.native_id(p, name, k);
            let mut call = json!({"type": "tool_call", "id": id, "name": name, "parameters": {"arg": self.token()}});
            if p == Provider::Gemini && k == 0 {
                call["thoughtSignature"] = json!(format!("Q2lR{}", self.counter));
            }
            blocks.push(call);
            let result = format!("result {}", self.token());
            let response =
                json!({"type": "tool_response", "callId": id, "toolName": name, "result": result});
            match fate {
                Fate::Complete => results.push(response),
                Fate::Error => results.push(json!({"type": "tool_response", "callId": id, "toolName": name, "result": null, "error": format!("failed {}", self.token())})),
                Fate::Cancelled => {}
                Fate::Late => self.late.push(response),
                Fate::Duplicated => {
                    results.push(response.clone());
                    self.late.push(response);
                }
            }
        }
        self.history
            .push(json!({"speaker": "ai", "metadata": meta, "blocks": blocks}));
        if !results.is_empty() {
            self.history
                .push(json!({"speaker": "tool", "blocks": results}));
        }
        if t.user_follows {
            self.user();
        }
    }
}

/// The model of `turn`: one of its provider's rows in the capability table.
fn target(t: &Turn) -> (Provider, String) {
    let providers = Provider::ALL;
    let p = providers[t.provider % providers.len()];
    let rows: Vec<String> = known_models()
        .into_iter()
        .filter(|(q, _)| *q == p)
        .map(|(_, m)| m)
        .collect();
    assert!(!rows.is_empty(), "{p} has no row in the capability table");
    (p, rows[t.model % rows.len()].clone())
}

fn options(p: Provider, model: &str, thinking: bool) -> RenderOptions {
    let mut o = RenderOptions::new(p, model);
    o.max_tokens = Some(8192);
    if thinking {
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: Some(2048),
            effort: Some("low".into()),
            summary: None,
        });
    }
    o
}

fn strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

fn lost(history: &[Value], out: &turnwire::Rendered) -> Option<String> {
    let mut body = Vec::new();
    strings(&out.body, &mut body);
    let body = body.join("\u{1}");
    let diags: String = out
        .diagnostics
        .iter()
        .map(|d| format!("{} {}", d.message, d.call_id.clone().unwrap_or_default()))
        .collect::<Vec<_>>()
        .join("\u{1}");
    for (mi, m) in history.iter().enumerate() {
        for (bi, b) in m["blocks"].as_array().unwrap().iter().enumerate() {
            let needle = match b["type"].as_str().unwrap() {
                "text" if m["speaker"] == "human" => b["text"].as_str().map(str::to_string),
                "tool_call" => b["parameters"]["arg"].as_str().map(str::to_string),
                "tool_response" => b["result"]
                    .as_str()
                    .or(b["error"].as_str())
                    .map(str::to_string),
                _ => None,
            };
            let Some(needle) = needle else { continue };
            let id = b["id"]
                .as_str()
                .or(b["callId"].as_str())
                .unwrap_or_default();
            let named = out
                .diagnostics
                .iter()
                .any(|d| d.message_index == Some(mi) && d.block_index == Some(bi));
            if !body.contains(&needle) && !named && (id.is_empty() || !diags.contains(id)) {
                return Some(needle);
            }
        }
    }
    None
}

fn run_chain(turns: &[Turn], thinking: bool) -> Result<(), TestCaseError> {
    let mut s = Session {
        history: Vec::new(),
        counter: 0,
        late: Vec::new(),
    };
    s.user();
    let mut seen: HashMap<(Provider, bool), HashMap<String, String>> = HashMap::new();
    for t in turns {
        let (p, model) = target(t);
        let o = options(p, &model, thinking);
        let transcript = Transcript::from_value(&Value::Array(s.history.clone())).unwrap();
        let out = render(&transcript, &o).unwrap();
        let violations = validate_request_for_model(p, &o.model, &out.body);
        prop_assert!(
            violations.is_empty(),
            "{p} {model}: {violations:#?}\nbody: {:#}\nhistory: {:#}",
            out.body,
            Value::Array(s.history.clone())
        );
        if let Some(needle) = lost(&s.history, &out) {
            return Err(TestCaseError::fail(format!(
                "{p}: {needle:?} lost\nbody: {:#}",
                out.body
            )));
        }
        prop_assert_eq!(
            render(&transcript, &o).unwrap().body_bytes(),
            out.body_bytes()
        );
        // Gemini 3 gets the ids Gemini minted back, Gemini 2.x none (GEM-22): ids are stable
        // per provider and per that capability
        let echoes = turnwire::models::capabilities_or_defaults(p, &model).function_call_ids;
        let ids = seen.entry((p, echoes)).or_default();
        for (canonical, id) in ids.iter() {
            prop_assert_eq!(
                out.id_map.get(canonical),
                Some(id.as_str()),
                "{}: id of {} changed",
                p,
                canonical
            );
        }
        for (canonical, id) in &out.id_map.0 {
            ids.insert(canonical.clone(), id.clone());
        }
        s.answer(p, &model, t);
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("TURNWIRE_SWITCH_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 500, ..ProptestConfig::default() })]

    #[test]
    fn switching_provider_every_turn_keeps_every_request_valid(turns in prop::collection::vec(turn(), 20..28), thinking in any::<bool>()) {
        run_chain(&turns, thinking)?;
    }
}

/// Round robin over the providers; each provider's turns walk through its capability rows, so
/// every row of the table is a target at least once (and answers the turns after it).
#[test]
fn round_robin_through_every_row_of_the_capability_table() {
    let n = Provider::ALL.len();
    let rows = Provider::ALL
        .iter()
        .map(|p| known_models().iter().filter(|(q, _)| q == p).count())
        .max()
        .unwrap();
    let turns: Vec<Turn> = (0..n * rows.max(4))
        .map(|i| Turn {
            provider: i % n,
            model: i / n,
            thinking: true,
            text: i % 3 == 0,
            calls: vec![
                Fate::Complete,
                if i % 4 == 0 {
                    Fate::Cancelled
                } else {
                    Fate::Late
                },
                Fate::Duplicated,
            ],
            user_follows: i % 5 != 4,
        })
        .collect();
    for thinking in [false, true] {
        run_chain(&turns, thinking).unwrap();
    }
}
