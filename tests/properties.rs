//! Property tests over generated damaged transcripts (≥ 10,000 cases per provider).
//!
//! A transcript is built from a list of operations: conversation steps (user text, assistant
//! turns with thinking of various origins, parallel calls with ids in many styles, results that
//! complete, fail, stay pending or never arrive) and damage (drop / duplicate / move a result,
//! result before its call, calls stored in the tool message, orphan results, reused ids, empty
//! text, consecutive same speaker, aborted turns, truncation). For every provider:
//! - the body passes the strict validator;
//! - nothing real is lost: every user text, real call and real result is in the body or named
//!   in a diagnostic;
//! - two renders are byte-identical;
//! - appending a turn leaves every earlier projected id unchanged.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use proptest::prelude::*;
use serde_json::{json, Value};
use turnwire::{
    render, validate_request_for_model, ErrorCode, ForeignThinking, OrphanPolicy, Provider,
    RenderOptions, ThinkingOptions, Transcript,
};

#[derive(Debug, Clone, Copy)]
enum ThinkingKind {
    None,
    SignedSameModel,
    SignedOtherModel,
    SignedUnattributed,
    Gemini,
    OpenAi,
    Unsigned,
}

#[derive(Debug, Clone, Copy)]
enum IdStyle {
    Hist,
    OpenAi,
    Anthropic,
    Empty,
    Long,
    Special,
    Kimi,
    Mistral,
}

#[derive(Debug, Clone, Copy)]
enum ResultKind {
    Complete,
    Error,
    Pending,
    Missing,
}

#[derive(Debug, Clone)]
enum Op {
    Human,
    Assistant {
        thinking: ThinkingKind,
        text: bool,
        ids: IdStyle,
        results: Vec<ResultKind>,
    },
    DropResult(usize),
    DuplicateResult(usize),
    MoveResultLater(usize),
    ResultBeforeCall(usize),
    CallsIntoToolMessage(usize),
    OrphanResult(usize),
    ReuseId(usize),
    EmptyText(usize),
    ConsecutiveAi(usize),
    ToolCallInHuman(usize),
    Aborted {
        only_thinking: bool,
    },
    Truncate(usize),
}

fn thinking_kind() -> impl Strategy<Value = ThinkingKind> {
    prop_oneof![
        Just(ThinkingKind::None),
        Just(ThinkingKind::SignedSameModel),
        Just(ThinkingKind::SignedOtherModel),
        Just(ThinkingKind::SignedUnattributed),
        Just(ThinkingKind::Gemini),
        Just(ThinkingKind::OpenAi),
        Just(ThinkingKind::Unsigned),
    ]
}

fn id_style() -> impl Strategy<Value = IdStyle> {
    prop_oneof![
        Just(IdStyle::Hist),
        Just(IdStyle::OpenAi),
        Just(IdStyle::Anthropic),
        Just(IdStyle::Empty),
        Just(IdStyle::Long),
        Just(IdStyle::Special),
        Just(IdStyle::Kimi),
        Just(IdStyle::Mistral),
    ]
}

fn result_kind() -> impl Strategy<Value = ResultKind> {
    prop_oneof![
        4 => Just(ResultKind::Complete),
        1 => Just(ResultKind::Error),
        1 => Just(ResultKind::Pending),
        1 => Just(ResultKind::Missing),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let n = 0usize..64;
    prop_oneof![
        6 => Just(Op::Human),
        8 => (thinking_kind(), any::<bool>(), id_style(), prop::collection::vec(result_kind(), 0..5))
            .prop_map(|(thinking, text, ids, results)| Op::Assistant { thinking, text, ids, results }),
        1 => n.clone().prop_map(Op::DropResult),
        1 => n.clone().prop_map(Op::DuplicateResult),
        1 => n.clone().prop_map(Op::MoveResultLater),
        1 => n.clone().prop_map(Op::ResultBeforeCall),
        1 => n.clone().prop_map(Op::CallsIntoToolMessage),
        1 => n.clone().prop_map(Op::OrphanResult),
        1 => n.clone().prop_map(Op::ReuseId),
        1 => n.clone().prop_map(Op::EmptyText),
        1 => n.clone().prop_map(Op::ConsecutiveAi),
        1 => n.clone().prop_map(Op::ToolCallInHuman),
        1 => any::<bool>().prop_map(|only_thinking| Op::Aborted { only_thinking }),
        1 => n.prop_map(Op::Truncate),
    ]
}

/// Builds the transcript JSON from the operations. Every text and result carries a unique token
/// (`tok17`) so the loss check can look for it in the body.
struct Builder {
    msgs: Vec<Value>,
    counter: usize,
}

impl Builder {
    fn token(&mut self) -> String {
        self.counter += 1;
        format!("tok{}_", self.counter)
    }

    fn id(&mut self, style: IdStyle, name: &str) -> String {
        let n = self.token();
        match style {
            IdStyle::Hist => format!("hist_tool_{n}"),
            IdStyle::OpenAi => format!("call_{n}AbC"),
            IdStyle::Anthropic => format!("toolu_01{n}"),
            IdStyle::Empty => String::new(),
            IdStyle::Long => format!("fc_{n}|call_{}", "x".repeat(70)),
            IdStyle::Special => format!("mcp.server/{name}:{n}"),
            IdStyle::Kimi => format!("functions.{name}:{}", self.counter % 7),
            IdStyle::Mistral => {
                format!("{:0>9}", n.replace("tok", "M").replace('_', ""))[..9].to_string()
            }
        }
    }

    fn metadata(kind: ThinkingKind) -> Value {
        match kind {
            ThinkingKind::SignedSameModel => {
                json!({"provider": "anthropic", "model": "claude-sonnet-4-5"})
            }
            ThinkingKind::SignedOtherModel => {
                json!({"provider": "anthropic", "model": "claude-opus-4-6"})
            }
            ThinkingKind::Gemini => json!({"provider": "gemini", "model": "gemini-3-pro-preview"}),
            ThinkingKind::OpenAi => json!({"provider": "openai", "model": "gpt-5.2"}),
            _ => json!({}),
        }
    }

    fn thinking_block(&mut self, kind: ThinkingKind) -> Option<Value> {
        let thought = format!("think {}", self.token());
        Some(match kind {
            ThinkingKind::None => return None,
            ThinkingKind::SignedSameModel
            | ThinkingKind::SignedOtherModel
            | ThinkingKind::SignedUnattributed => {
                json!({"type": "thinking", "thought": thought, "signature": format!("sig{}", self.counter)})
            }
            ThinkingKind::Gemini => {
                json!({"type": "thinking", "thought": thought, "thoughtSignature": "Q2lR"})
            }
            ThinkingKind::OpenAi => {
                json!({"type": "thinking", "thought": thought, "reasoningId": "rs_1", "encryptedContent": "gAAA"})
            }
            ThinkingKind::Unsigned => json!({"type": "thinking", "thought": thought}),
        })
    }

    /// Positions (message, block) of every block of `kind`.
    fn find(&self, kind: &str) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (mi, m) in self.msgs.iter().enumerate() {
            for (bi, b) in m["blocks"].as_array().unwrap().iter().enumerate() {
                if b["type"] == kind {
                    out.push((mi, bi));
                }
            }
        }
        out
    }

    fn take_block(&mut self, (mi, bi): (usize, usize)) -> Value {
        self.msgs[mi]["blocks"].as_array_mut().unwrap().remove(bi)
    }

    fn apply(&mut self, op: &Op) {
        match op {
            Op::Human => {
                let t = format!("user says {}", self.token());
                self.msgs
                    .push(json!({"speaker": "human", "blocks": [{"type": "text", "text": t}]}));
            }
            Op::Assistant {
                thinking,
                text,
                ids,
                results,
            } => {
                let mut blocks: Vec<Value> = self.thinking_block(*thinking).into_iter().collect();
                if *text {
                    blocks.push(
                        json!({"type": "text", "text": format!("assistant says {}", self.token())}),
                    );
                }
                let mut calls = Vec::new();
                for (k, kind) in results.iter().enumerate() {
                    let name = if k % 2 == 0 { "read_file" } else { "fs.grep" };
                    let id = self.id(*ids, name);
                    blocks.push(json!({"type": "tool_call", "id": id, "name": name, "parameters": {"arg": self.token()}}));
                    calls.push((id, name, *kind));
                }
                if blocks.is_empty() {
                    blocks.push(
                        json!({"type": "text", "text": format!("assistant says {}", self.token())}),
                    );
                }
                self.msgs.push(json!({"speaker": "ai", "metadata": Self::metadata(*thinking), "blocks": blocks}));
                let mut tool = Vec::new();
                for (id, name, kind) in calls {
                    let tok = self.token();
                    match kind {
                        ResultKind::Complete => tool.push(json!({"type": "tool_response", "callId": id, "toolName": name, "result": format!("result {tok}")})),
                        ResultKind::Error => tool.push(json!({"type": "tool_response", "callId": id, "toolName": name, "result": null, "error": format!("failed {tok}")})),
                        ResultKind::Pending => tool.push(json!({"type": "tool_response", "callId": id, "toolName": name, "result": null, "isComplete": false})),
                        ResultKind::Missing => {}
                    }
                }
                if !tool.is_empty() {
                    self.msgs.push(json!({"speaker": "tool", "blocks": tool}));
                }
            }
            Op::DropResult(i) => {
                let r = self.find("tool_response");
                if let Some(&p) = r.get(i % r.len().max(1)) {
                    self.take_block(p);
                }
            }
            Op::DuplicateResult(i) => {
                let r = self.find("tool_response");
                if let Some(&(mi, bi)) = r.get(i % r.len().max(1)) {
                    let b = self.msgs[mi]["blocks"][bi].clone();
                    let at = (mi + 1 + i % 3).min(self.msgs.len());
                    self.msgs
                        .insert(at, json!({"speaker": "tool", "blocks": [b]}));
                }
            }
            Op::MoveResultLater(i) => {
                let r = self.find("tool_response");
                if let Some(&p) = r.get(i % r.len().max(1)) {
                    let b = self.take_block(p);
                    let at = (p.0 + 2 + i % 3).min(self.msgs.len());
                    self.msgs
                        .insert(at, json!({"speaker": "tool", "blocks": [b]}));
                }
            }
            Op::ResultBeforeCall(i) => {
                let r = self.find("tool_response");
                if let Some(&p) = r.get(i % r.len().max(1)) {
                    let b = self.take_block(p);
                    let at = p.0.saturating_sub(1 + i % 2);
                    self.msgs
                        .insert(at, json!({"speaker": "tool", "blocks": [b]}));
                }
            }
            Op::CallsIntoToolMessage(i) => {
                let c = self.find("tool_call");
                if let Some(&(mi, _)) = c.get(i % c.len().max(1)) {
                    // 864 mode A: the calls are repeated inside the tool message with the results
                    let calls: Vec<Value> = self.msgs[mi]["blocks"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|b| b["type"] == "tool_call")
                        .cloned()
                        .collect();
                    if self
                        .msgs
                        .get(mi + 1)
                        .is_some_and(|m| m["speaker"] == "tool")
                    {
                        let blocks = self.msgs[mi + 1]["blocks"].as_array_mut().unwrap();
                        for (k, call) in calls.into_iter().enumerate() {
                            blocks.insert(k, call);
                        }
                    } else {
                        self.msgs
                            .insert(mi + 1, json!({"speaker": "tool", "blocks": calls}));
                    }
                }
            }
            Op::OrphanResult(i) => {
                let tok = self.token();
                let at = i % (self.msgs.len() + 1);
                self.msgs.insert(at, json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": format!("gone_{tok}"), "toolName": "read_file", "result": format!("orphan {tok}")}]}));
            }
            Op::ReuseId(i) => {
                let c = self.find("tool_call");
                if c.len() >= 2 {
                    let (a, b) = (c[i % c.len()], c[(i + 1) % c.len()]);
                    let id = self.msgs[a.0]["blocks"][a.1]["id"].clone();
                    self.msgs[b.0]["blocks"][b.1]["id"] = id;
                }
            }
            Op::EmptyText(i) => {
                let at = i % (self.msgs.len() + 1);
                let text = if i % 2 == 0 { "" } else { "  \n " };
                let speaker = if i % 3 == 0 { "ai" } else { "human" };
                self.msgs.insert(
                    at,
                    json!({"speaker": speaker, "blocks": [{"type": "text", "text": text}]}),
                );
            }
            Op::ConsecutiveAi(i) => {
                let at = i % (self.msgs.len() + 1);
                let t = format!("assistant aside {}", self.token());
                self.msgs.insert(
                    at,
                    json!({"speaker": "ai", "blocks": [{"type": "text", "text": t}]}),
                );
            }
            Op::ToolCallInHuman(i) => {
                let c = self.find("tool_call");
                if let Some(&p) = c.get(i % c.len().max(1)) {
                    let b = self.take_block(p);
                    let t = format!("user note {}", self.token());
                    self.msgs.insert(
                        p.0,
                        json!({"speaker": "human", "blocks": [{"type": "text", "text": t}, b]}),
                    );
                }
            }
            Op::Aborted { only_thinking } => {
                let thought = format!("cut off {}", self.token());
                let mut blocks = Vec::new();
                if !only_thinking {
                    blocks
                        .push(json!({"type": "text", "text": format!("partial {}", self.token())}));
                }
                blocks.push(json!({"type": "thinking", "thought": thought}));
                self.msgs.push(json!({"speaker": "ai", "blocks": blocks}));
            }
            Op::Truncate(i) => {
                let keep = self.msgs.len().saturating_sub(i % 3);
                self.msgs.truncate(keep);
            }
        }
    }
}

fn build(ops: &[Op]) -> Vec<Value> {
    let mut b = Builder {
        msgs: Vec::new(),
        counter: 0,
    };
    for op in ops {
        b.apply(op);
    }
    b.msgs
}

#[derive(Debug, Clone)]
struct Knobs {
    thinking: bool,
    foreign_text: bool,
    orphans: OrphanPolicy,
    /// Declare only `read_file`, so calls to `fs.grep` (and reconstructed calls) are undeclared.
    declare_tools: bool,
}

fn knobs() -> impl Strategy<Value = Knobs> {
    (
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            Just(OrphanPolicy::Text),
            Just(OrphanPolicy::Drop),
            Just(OrphanPolicy::ReconstructCall)
        ],
        any::<bool>(),
    )
        .prop_map(|(thinking, foreign_text, orphans, declare_tools)| Knobs {
            thinking,
            foreign_text,
            orphans,
            declare_tools,
        })
}

fn options(p: Provider, k: &Knobs) -> RenderOptions {
    let mut o = RenderOptions::new(p, p.reference_model());
    o.max_tokens = Some(8192);
    if k.thinking {
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: Some(2048),
            effort: Some("low".into()),
        });
    }
    if k.foreign_text {
        o.foreign_thinking = ForeignThinking::Text;
    }
    o.orphan_results = k.orphans;
    if k.declare_tools {
        o.tools = vec![turnwire::ToolDeclaration::new(
            "read_file",
            "Read a file",
            json!({"type": "object"}),
        )];
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

/// Every real user text, call and result of the input is in the body or named in a diagnostic.
fn check_nothing_lost(input: &[Value], out: &turnwire::Rendered) -> Result<(), String> {
    let mut body_strings = Vec::new();
    strings(&out.body, &mut body_strings);
    let body_text = body_strings.join("\u{1}");
    let diag_text: String = out
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {} {}",
                d.message,
                d.call_id.clone().unwrap_or_default(),
                d.block_index.map(|_| "").unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\u{1}");
    let mentioned = |needle: &str, mi: usize, bi: usize| {
        out.diagnostics
            .iter()
            .any(|d| d.message_index == Some(mi) && d.block_index == Some(bi))
            || (!needle.is_empty() && diag_text.contains(needle))
    };
    for (mi, m) in input.iter().enumerate() {
        for (bi, b) in m["blocks"].as_array().unwrap().iter().enumerate() {
            match b["type"].as_str().unwrap() {
                "text" => {
                    let t = b["text"].as_str().unwrap();
                    let human = m["speaker"] == "human";
                    if human
                        && !t.trim().is_empty()
                        && !body_text.contains(t)
                        && !mentioned(t, mi, bi)
                    {
                        return Err(format!("user text {t:?} at {mi}/{bi} lost"));
                    }
                }
                "tool_call" => {
                    let id = b["id"].as_str().unwrap();
                    let arg = b["parameters"]["arg"].as_str().unwrap_or_default();
                    if !body_text.contains(arg) && !mentioned(id, mi, bi) {
                        return Err(format!("call {id:?} at {mi}/{bi} lost"));
                    }
                }
                "tool_response" => {
                    let payload = b["result"].as_str().or(b["error"].as_str());
                    if let Some(p) = payload {
                        if !body_text.contains(p)
                            && !mentioned(b["callId"].as_str().unwrap(), mi, bi)
                        {
                            return Err(format!("result {p:?} at {mi}/{bi} lost"));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    Ok(())
}

/// Whether anything must reach the body: text, a call, or a result (unless every result is an
/// orphan dropped by policy; without calls, every result is an orphan).
fn has_real_content(input: &[Value], orphans: OrphanPolicy) -> bool {
    input
        .iter()
        .flat_map(|m| m["blocks"].as_array().unwrap())
        .any(|b| match b["type"].as_str() {
            Some("text") => !b["text"].as_str().unwrap_or_default().trim().is_empty(),
            Some("thinking") => false,
            Some("tool_response") => orphans != OrphanPolicy::Drop,
            _ => true,
        })
}

fn check(provider: Provider, ops: &[Op], k: &Knobs) -> Result<(), TestCaseError> {
    let input = build(ops);
    let transcript = Transcript::from_value(&Value::Array(input.clone())).unwrap();
    let o = options(provider, k);
    let out = match render(&transcript, &o) {
        Ok(out) => out,
        Err(e) => {
            prop_assert_eq!(e.code(), ErrorCode::EmptyTranscript, "{}", e);
            prop_assert!(
                !has_real_content(&input, k.orphans),
                "empty_transcript for a transcript with content: {:#}",
                Value::Array(input)
            );
            return Ok(());
        }
    };
    let violations = validate_request_for_model(provider, &o.model, &out.body);
    prop_assert!(
        violations.is_empty(),
        "{provider}: {:#?}\nbody: {:#}\ninput: {:#}",
        violations,
        out.body,
        Value::Array(input.clone())
    );
    if let Err(e) = check_nothing_lost(&input, &out) {
        return Err(TestCaseError::fail(format!(
            "{provider}: {e}\nbody: {:#}\ninput: {:#}",
            out.body,
            Value::Array(input)
        )));
    }
    let again = render(&transcript, &o).unwrap();
    prop_assert_eq!(out.body_bytes(), again.body_bytes());
    // appending a turn never changes an earlier projected id
    let mut longer = input.clone();
    longer.push(json!({"speaker": "human", "blocks": [{"type": "text", "text": "one more"}]}));
    longer.push(json!({"speaker": "ai", "blocks": [{"type": "tool_call", "id": "appended_call", "name": "read_file", "parameters": {}}]}));
    longer.push(json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "appended_call", "toolName": "read_file", "result": "x"}]}));
    let later = render(&Transcript::from_value(&Value::Array(longer)).unwrap(), &o).unwrap();
    for (canonical, id) in &out.id_map.0 {
        prop_assert_eq!(
            later.id_map.get(canonical),
            Some(id.as_str()),
            "{} changed",
            canonical
        );
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("TURNWIRE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 2000, ..ProptestConfig::default() })]

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_anthropic(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::Anthropic, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_openai_chat(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::OpenAiChat, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_openai_responses(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::OpenAiResponses, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_gemini(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::Gemini, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_mistral(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::Mistral, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_kimi(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::Kimi, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_deepseek(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::DeepSeek, &ops, &k)?;
    }

    #[test]
    fn damaged_transcripts_render_valid_lossless_stable_bodies_for_openai_compatible(ops in prop::collection::vec(op(), 1..24), k in knobs()) {
        check(Provider::OpenAiCompatible, &ops, &k)?;
    }
}
