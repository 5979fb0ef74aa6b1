//! `Conversation`'s incremental render is the full render, byte for byte.
//!
//! Generated conversations (the damaged-transcript operations of `tests/properties.rs`, plus
//! system prompts, media, late results and calls for old ids, tool names that collide once
//! projected, and many finished turns so that boundaries move) are appended one message at a
//! time; after every append the conversation renders for one to three targets (any provider,
//! random options) and each result must equal `render` of the whole transcript: body bytes,
//! body value, id map, tool names, diagnostics (also through `write_request`, the body as bytes
//! and the rest as a report) — and the same error when there is one.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use proptest::prelude::*;
use serde_json::{json, Value};
use turnwire::{
    render, render_body, Conversation, ForeignThinking, OrphanPolicy, Provider, RenderOptions,
    RenderStats, ThinkingOptions, Transcript,
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
    Answer(ThinkingKind),
    Assistant {
        thinking: ThinkingKind,
        text: bool,
        ids: IdStyle,
        results: Vec<ResultKind>,
    },
    System,
    HumanMedia(bool),
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
    LateResult(usize),
    CallForOldId(usize),
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
        3 => Just(IdStyle::Hist),
        1 => Just(IdStyle::OpenAi),
        1 => Just(IdStyle::Anthropic),
        1 => Just(IdStyle::Empty),
        1 => Just(IdStyle::Long),
        1 => Just(IdStyle::Special),
        1 => Just(IdStyle::Kimi),
        1 => Just(IdStyle::Mistral),
    ]
}

fn result_kind() -> impl Strategy<Value = ResultKind> {
    prop_oneof![
        6 => Just(ResultKind::Complete),
        1 => Just(ResultKind::Error),
        1 => Just(ResultKind::Pending),
        1 => Just(ResultKind::Missing),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let n = 0usize..64;
    prop_oneof![
        8 => Just(Op::Human),
        5 => thinking_kind().prop_map(Op::Answer),
        8 => (thinking_kind(), any::<bool>(), id_style(), prop::collection::vec(result_kind(), 0..4))
            .prop_map(|(thinking, text, ids, results)| Op::Assistant { thinking, text, ids, results }),
        1 => Just(Op::System),
        1 => any::<bool>().prop_map(Op::HumanMedia),
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
        1 => n.clone().prop_map(Op::LateResult),
        1 => n.clone().prop_map(Op::CallForOldId),
        1 => any::<bool>().prop_map(|only_thinking| Op::Aborted { only_thinking }),
        1 => n.prop_map(Op::Truncate),
    ]
}

const NAMES: [&str; 4] = ["read_file", "fs.grep", "fs_grep", "9lives"];

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
            Op::Answer(thinking) => {
                let mut blocks: Vec<Value> = self.thinking_block(*thinking).into_iter().collect();
                blocks.push(json!({"type": "text", "text": format!("answer {}", self.token())}));
                self.msgs.push(json!({"speaker": "ai", "metadata": Self::metadata(*thinking), "blocks": blocks}));
            }
            Op::System => {
                let t = format!("be brief {}", self.token());
                self.msgs
                    .push(json!({"speaker": "system", "blocks": [{"type": "text", "text": t}]}));
            }
            Op::HumanMedia(remote) => {
                let t = format!("look {}", self.token());
                let media = if *remote {
                    json!({"type": "media", "mimeType": "image/png", "encoding": "url", "data": "https://example.com/a.png"})
                } else {
                    json!({"type": "media", "mimeType": "application/pdf", "data": "JVBERi0x"})
                };
                self.msgs.push(
                    json!({"speaker": "human", "blocks": [{"type": "text", "text": t}, media]}),
                );
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
                    let name = NAMES[(k + self.counter) % NAMES.len()];
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
                self.msgs.insert(at, json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": format!("gone_{}", i % 3), "toolName": "read_file", "result": format!("orphan {tok}")}]}));
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
            Op::LateResult(i) => {
                // a result (a copy or a new one) for an earlier call, at the end
                let c = self.find("tool_call");
                if let Some(&(mi, bi)) = c.get(i % c.len().max(1)) {
                    let call = self.msgs[mi]["blocks"][bi].clone();
                    let tok = self.token();
                    self.msgs.push(json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": call["id"], "toolName": call["name"], "result": format!("late {tok}")}]}));
                }
            }
            Op::CallForOldId(i) => {
                // a new call reusing an id seen earlier (a call's or an orphan's), answered
                let ids: Vec<Value> = self
                    .find("tool_call")
                    .into_iter()
                    .map(|(mi, bi)| self.msgs[mi]["blocks"][bi]["id"].clone())
                    .chain(
                        self.find("tool_response")
                            .into_iter()
                            .map(|(mi, bi)| self.msgs[mi]["blocks"][bi]["callId"].clone()),
                    )
                    .collect();
                if let Some(id) = ids.get(i % ids.len().max(1)).cloned() {
                    let tok = self.token();
                    let name = NAMES[i % NAMES.len()];
                    self.msgs.push(json!({"speaker": "ai", "blocks": [{"type": "tool_call", "id": id, "name": name, "parameters": {"arg": tok}}]}));
                    if i % 2 == 0 {
                        self.msgs.push(json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": id, "toolName": name, "result": format!("again {tok}")}]}));
                    }
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
struct Target {
    provider: usize,
    thinking: bool,
    foreign_text: bool,
    orphans: OrphanPolicy,
    declare_tools: bool,
    system: bool,
    /// Another model of the provider, and other compat settings.
    alt_model: bool,
    /// Temperature, top_p and an extra field.
    sampling: bool,
    /// Render the object (`render`) rather than the bytes (`render_body`) on odd steps.
    object: bool,
    /// Prompt caching on (breakpoints `"auto"`, a key; a one-hour lifetime with `alt_model`).
    cache: bool,
}

fn target() -> impl Strategy<Value = Target> {
    (
        0usize..Provider::ALL.len(),
        any::<bool>(),
        any::<bool>(),
        prop_oneof![
            Just(OrphanPolicy::Text),
            Just(OrphanPolicy::Drop),
            Just(OrphanPolicy::ReconstructCall)
        ],
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                provider,
                thinking,
                foreign_text,
                orphans,
                declare_tools,
                system,
                object,
                (alt_model, sampling, cache),
            )| Target {
                cache,
                provider,
                thinking,
                foreign_text,
                orphans,
                declare_tools,
                system,
                alt_model,
                sampling,
                object,
            },
        )
}

fn options(t: &Target) -> RenderOptions {
    let p = Provider::ALL[t.provider];
    let model = match p {
        _ if !t.alt_model => p.reference_model(),
        // explicit prompt cache breakpoints on the system prompt (ORS-21)
        Provider::OpenAiResponses if t.cache => "gpt-5.6",
        Provider::Anthropic => "claude-opus-4-6",
        Provider::OpenAiChat | Provider::OpenAiResponses => "gpt-4o",
        Provider::Gemini => "gemini-2.5-pro",
        Provider::Mistral => "magistral-medium-latest",
        Provider::Kimi => "kimi-k2-turbo-preview",
        Provider::DeepSeek => "deepseek-chat",
        _ => "qwen3-32b",
    };
    let mut o = RenderOptions::new(p, model);
    o.max_tokens = Some(8192);
    if t.alt_model && p == Provider::OpenAiCompatible {
        o.compat = Some(turnwire::CompatOptions {
            max_id_len: 12,
            alphanumeric_ids: true,
            reasoning_field: Some("reasoning".into()),
            images: false,
        });
    }
    if t.sampling {
        o.temperature = Some(0.5);
        o.top_p = Some(0.5);
        o.extra.insert("stream".into(), json!(true));
    }
    if t.thinking {
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: Some(2048),
            effort: Some("low".into()),
            summary: None,
        });
    }
    if t.foreign_text {
        o.foreign_thinking = ForeignThinking::Text;
    }
    o.orphan_results = t.orphans;
    if t.declare_tools {
        o.tools = vec![turnwire::ToolDeclaration::new(
            "read_file",
            "Read a file",
            json!({"type": "object"}),
        )];
        if t.alt_model {
            // a declared name that must be projected, and one a history name collides with
            o.tools.push(turnwire::ToolDeclaration::new(
                "fs grep!",
                "Search",
                json!({"type": "object"}),
            ));
        }
    }
    if t.system {
        o.system = Some("You are terse.".into());
    }
    if t.cache {
        // Anthropic marks the envelope (tools, system, the automatic breakpoint): a tail
        // render must give it exactly as the full render does.
        o.cache = Some(turnwire::CacheOptions {
            ttl: t.alt_model.then_some(turnwire::CacheTtl::OneHour),
            key: Some("session".into()),
            ..turnwire::CacheOptions::default()
        });
    }
    o
}

/// A request's envelope (the body without its history) and history messages, as JSON text.
type Sent = (String, Vec<String>);

fn sent_of(o: &RenderOptions, body: &[u8]) -> Sent {
    let key = fixture_support::history_key(o.provider);
    let mut members = match serde_json::from_slice::<Value>(body) {
        Ok(Value::Object(m)) => m,
        _ => serde_json::Map::new(),
    };
    let history = match members.remove(key) {
        Some(Value::Array(list)) => list.iter().map(Value::to_string).collect(),
        _ => Vec::new(),
    };
    (Value::Object(members).to_string(), history)
}

/// The reference for `cache_prefix_changed`: the first history message of the previous request
/// to the same options, but its last, that this one does not send the same (same envelope).
fn prefix_change(before: Option<&Sent>, now: &Sent) -> Option<usize> {
    let before = before.filter(|b| b.0 == now.0)?;
    (0..before.1.len().saturating_sub(1)).find(|&i| now.1.get(i) != before.1.get(i))
}

/// `got`'s diagnostics without the `cache_prefix_changed` one a Conversation adds, and that
/// one's path.
fn split_cache_note(mut got: turnwire::Rendered) -> (turnwire::Rendered, Vec<Option<String>>) {
    let (notes, rest): (Vec<_>, Vec<_>) = std::mem::take(&mut got.diagnostics)
        .into_iter()
        .partition(|d| d.code.as_str() == "cache_prefix_changed");
    got.diagnostics = rest;
    (got, notes.into_iter().map(|d| d.path).collect())
}

fn check(ops: &[Op], targets: &[Target]) -> Result<(), TestCaseError> {
    let input = build(ops);
    let mut convo = Conversation::new();
    // what the last request with each options sent (cache on)
    let mut last: std::collections::HashMap<String, Sent> = std::collections::HashMap::new();
    for (k, msg) in input.iter().enumerate() {
        convo.append_value(msg).unwrap();
        let transcript = Transcript::from_value(&Value::Array(input[..=k].to_vec())).unwrap();
        prop_assert_eq!(convo.transcript(), &transcript);
        for (ti, t) in targets.iter().enumerate() {
            // skip some steps for some targets, so caches see several appends at once
            if (k + ti) % (ti + 1) != 0 && k + 1 != input.len() {
                continue;
            }
            let o = options(t);
            let context = |c: &Conversation| {
                format!(
                    "{} after {} messages (stats {:?})\ninput: {:#}",
                    o.provider,
                    k + 1,
                    c.last_render_stats(),
                    Value::Array(input[..=k].to_vec())
                )
            };
            let okey = serde_json::to_string(&o).unwrap();
            // the cache_prefix_changed a Conversation reports (cache on), by the reference
            let mut expect_change = |body: &[u8]| {
                o.cache.as_ref()?;
                let now = sent_of(&o, body);
                let change = prefix_change(last.get(&okey), &now);
                last.insert(okey.clone(), now);
                change
            };
            let key = fixture_support::history_key(o.provider);
            if t.object && k % 2 == 1 {
                let want = render(&transcript, &o);
                let got = convo.render(&o);
                match (want, got) {
                    (Ok(w), Ok(g)) => {
                        let change = expect_change(&w.body_bytes());
                        prop_assert_eq!(
                            convo.last_render_stats().cache_prefix_changed,
                            change,
                            "{}",
                            context(&convo)
                        );
                        let (g, notes) = split_cache_note(g);
                        prop_assert_eq!(
                            notes,
                            change
                                .map(|i| Some(format!("$.{key}[{i}]")))
                                .into_iter()
                                .collect::<Vec<_>>(),
                            "{}",
                            context(&convo)
                        );
                        prop_assert_eq!(&w.body_bytes(), &g.body_bytes(), "{}", context(&convo));
                        prop_assert_eq!(&w.id_map, &g.id_map, "{}", context(&convo));
                        prop_assert_eq!(&w.tool_names, &g.tool_names, "{}", context(&convo));
                        prop_assert_eq!(&w.diagnostics, &g.diagnostics, "{}", context(&convo));
                        prop_assert_eq!(&w, &g, "{}", context(&convo));
                    }
                    (Err(w), Err(g)) => prop_assert_eq!(format!("{w:?}"), format!("{g:?}")),
                    (w, g) => {
                        prop_assert!(false, "{:?} vs {:?}: {}", w.err(), g.err(), context(&convo))
                    }
                }
            } else {
                let want = render_body(&transcript, &o);
                let got = convo.render_body(&o);
                match (want, got) {
                    (Ok(w), Ok(g)) => {
                        prop_assert!(
                            w == g,
                            "{}\nwant: {}\ngot:  {}",
                            context(&convo),
                            String::from_utf8_lossy(&w),
                            String::from_utf8_lossy(&g)
                        );
                        let change = expect_change(&w);
                        prop_assert_eq!(
                            convo.last_render_stats().cache_prefix_changed,
                            change,
                            "{}",
                            context(&convo)
                        );
                    }
                    (Err(w), Err(g)) => prop_assert_eq!(format!("{w:?}"), format!("{g:?}")),
                    (w, g) => {
                        prop_assert!(false, "{:?} vs {:?}: {}", w.err(), g.err(), context(&convo))
                    }
                }
                // the whole result too, from the same caches
                if k % 3 == 0 {
                    if let (Ok(w), Ok(g)) = (render(&transcript, &o), convo.render(&o)) {
                        // the same history as the render just before: nothing changed since
                        let (g, notes) = split_cache_note(g);
                        prop_assert!(notes.is_empty(), "{}", context(&convo));
                        prop_assert_eq!(&w, &g, "{}", context(&convo));
                    }
                }
                // the body as bytes and the rest of the result (what streamTurn sends)
                if k % 3 == 1 {
                    let mut body = Vec::new();
                    let got = convo.write_request(&o, &mut |parts| {
                        parts.iter().for_each(|p| body.extend_from_slice(p))
                    });
                    if let (Ok(w), Ok(g)) = (render(&transcript, &o), got) {
                        prop_assert_eq!(&w.body_bytes(), &body, "{}", context(&convo));
                        prop_assert!(
                            g.diagnostics
                                .iter()
                                .all(|d| d.code.as_str() != "cache_prefix_changed"),
                            "{}",
                            context(&convo)
                        );
                        prop_assert_eq!(&w.into_parts().1, &g, "{}", context(&convo));
                    }
                }
            }
        }
    }
    Ok(())
}

fn cases() -> u32 {
    std::env::var("TURNWIRE_PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(2_500)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), max_shrink_iters: 4000, ..ProptestConfig::default() })]

    #[test]
    fn incremental_render_equals_full_render_after_every_append(
        ops in prop::collection::vec(op(), 1..40),
        targets in prop::collection::vec(target(), 1..4),
    ) {
        check(&ops, &targets)?;
    }
}

/// A long, well-formed agent session: user, tool rounds, answer.
fn session(turns: usize) -> Vec<Value> {
    let mut out = Vec::new();
    for t in 0..turns {
        out.push(
            json!({"speaker": "human", "blocks": [{"type": "text", "text": format!("task {t}")}]}),
        );
        for r in 0..(t % 3) {
            let id = format!("toolu_01t{t}r{r}");
            out.push(json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
                {"type": "thinking", "thought": format!("plan {t}/{r}"), "signature": format!("sig{t}{r}")},
                {"type": "tool_call", "id": id, "name": "read_file", "parameters": {"path": format!("f{t}{r}.rs")}}
            ]}));
            out.push(json!({"speaker": "tool", "blocks": [
                {"type": "tool_response", "callId": id, "toolName": "read_file", "result": format!("contents {t}/{r}")}
            ]}));
        }
        out.push(json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
            {"type": "text", "text": format!("done with {t}")}
        ]}));
    }
    out
}

/// The options the session tests render with: `read_file` declared, thinking on or off.
fn session_options(provider: Provider, thinking: bool) -> RenderOptions {
    let mut o = RenderOptions::new(provider, provider.reference_model());
    o.tools = vec![turnwire::ToolDeclaration::new(
        "read_file",
        "Read a file",
        json!({"type": "object"}),
    )];
    if thinking {
        o.thinking = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: Some(2048),
            effort: None,
            summary: None,
        });
    }
    o
}

#[test]
fn after_an_append_only_the_tail_is_rendered() {
    let base = session(60);
    for provider in Provider::ALL {
        let input = fixture_support::minted_for(provider, &base);
        for thinking in [false, true] {
            let o = session_options(provider, thinking);
            let mut convo = Conversation::new();
            let mut incremental = 0;
            for (k, msg) in input.iter().enumerate() {
                convo.append_value(msg).unwrap();
                let got = convo.render_body(&o).unwrap();
                assert_eq!(
                    got,
                    render_body(convo.transcript(), &o).unwrap(),
                    "{provider}"
                );
                let stats = convo.last_render_stats().clone();
                // (with thinking on, Anthropic renders an assistant message last as a
                // prefill, which can turn thinking off for the whole request)
                let prefill = thinking && msg["speaker"] == "ai";
                if k >= 8 && !prefill {
                    // the previous turns come from the cache: only this turn is rendered
                    assert!(stats.fallback.is_none(), "{provider} at {k}: {stats:?}");
                    assert!(stats.incremental, "{provider} at {k}: {stats:?}");
                    assert!(stats.messages_rendered <= 7, "{provider} at {k}: {stats:?}");
                    assert!(
                        stats.fragments_reused >= k / 2,
                        "{provider} at {k}: {stats:?}"
                    );
                    incremental += 1;
                }
            }
            assert!(incremental > input.len() / 3, "{provider}");
        }
    }
}

#[test]
fn each_target_keeps_its_own_cache() {
    let input = session(20);
    let targets: Vec<RenderOptions> = Provider::ALL
        .iter()
        .map(|p| RenderOptions::new(*p, p.reference_model()))
        .collect();
    let mut convo = Conversation::new();
    // a round robin over every provider: a cache each (the default keeps the last 4)
    convo.set_cache_targets(targets.len());
    for msg in &input {
        convo.append_value(msg).unwrap();
        for o in &targets {
            let want = render(convo.transcript(), o).unwrap();
            assert_eq!(convo.render(o).unwrap(), want);
        }
    }
    for o in &targets {
        convo.render_body(o).unwrap();
        assert!(convo.last_render_stats().incremental, "{}", o.provider);
    }
}

#[test]
fn a_late_result_for_a_cached_call_falls_back_to_the_full_render() {
    let mut input = session(10);
    input.push(json!({"speaker": "tool", "blocks": [
        {"type": "tool_response", "callId": "toolu_01t4r0", "toolName": "read_file", "result": "late"}
    ]}));
    let o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    let mut convo = Conversation::new();
    for msg in &input {
        convo.append_value(msg).unwrap();
        assert_eq!(
            convo.render(&o).unwrap(),
            render(convo.transcript(), &o).unwrap()
        );
    }
    let stats = convo.last_render_stats();
    assert!(!stats.incremental, "{stats:?}");
    assert!(stats.fallback.is_some(), "{stats:?}");
}

#[test]
fn errors_are_the_full_renders() {
    let mut convo = Conversation::new();
    let o = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    let e = convo.render_body(&o).unwrap_err();
    assert_eq!(
        format!("{e:?}"),
        format!("{:?}", render_body(convo.transcript(), &o).unwrap_err())
    );
    convo
        .append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)
        .unwrap();
    let bad = RenderOptions::new(Provider::OpenAiChat, " ");
    assert_eq!(
        format!("{:?}", convo.render_body(&bad).unwrap_err()),
        format!("{:?}", render_body(convo.transcript(), &bad).unwrap_err())
    );
    let e = convo
        .append_json(r#"{"speaker":"robot","blocks":[]}"#)
        .unwrap_err();
    assert_eq!(e.path(), "$[1].speaker");
    assert_eq!(convo.len(), 1);
}

#[test]
fn a_conversation_started_from_a_transcript_renders_like_one_grown_from_empty() {
    let input = session(25);
    let o = RenderOptions::new(Provider::OpenAiResponses, "gpt-5.2");
    for start in [0, 1, 7, 30, input.len()] {
        let t = Transcript::from_value(&Value::Array(input[..start].to_vec())).unwrap();
        let mut convo = Conversation::from_transcript(t);
        if start > 0 {
            assert_eq!(
                convo.render_body(&o).unwrap(),
                render_body(convo.transcript(), &o).unwrap()
            );
        }
        for msg in &input[start..] {
            convo.append_value(msg).unwrap();
            assert_eq!(
                convo.render_body(&o).unwrap(),
                render_body(convo.transcript(), &o).unwrap()
            );
        }
        assert_eq!(convo.len(), input.len());
        // a render of the same transcript again reuses everything before the last turn
        convo.render_body(&o).unwrap();
        assert!(convo.last_render_stats().incremental);
    }
}

/// An agent-shaped session: each user turn is a tool loop of steps (signed thinking, sometimes
/// text, one to three parallel calls), every result stored as its own tool message, one call
/// in seven interrupted (no result), and the next user message right after the last results
/// (no closing answer), as coding agents store them.
#[test]
fn agent_shaped_sessions_stay_incremental_through_tool_loops_interrupted_calls_and_new_turns() {
    let base = fixture_support::agent_session(160, 6, false);
    for provider in Provider::ALL {
        let input = fixture_support::minted_for(provider, &base);
        for thinking in [false, true] {
            let o = session_options(provider, thinking);
            let mut convo = Conversation::new();
            let (mut renders, mut incremental, mut rendered) = (0usize, 0usize, 0usize);
            for (k, msg) in input.iter().enumerate() {
                convo.append_value(msg).unwrap();
                let stats = render_as_stateless(
                    &mut convo,
                    &o,
                    &format!("{provider} thinking={thinking} at {k}"),
                );
                if k >= 20 {
                    renders += 1;
                    incremental += usize::from(stats.incremental);
                    rendered += stats.messages_rendered;
                }
            }
            // every render after the first turns reuses the cache and renders a few messages
            let hit_rate = incremental as f64 / renders as f64;
            let mean = rendered as f64 / renders as f64;
            assert!(
                hit_rate >= 0.95,
                "{provider} thinking={thinking}: hit rate {hit_rate:.2}"
            );
            assert!(
                mean <= 12.0,
                "{provider} thinking={thinking}: {mean:.1} messages rendered on average"
            );
        }
    }
}

/// A conversation loaded from a stored history.
fn loaded(input: &[Value]) -> Conversation {
    Conversation::from_transcript(Transcript::from_value(&Value::Array(input.to_vec())).unwrap())
}

/// Renders `convo`, checks the body against the stateless render of its transcript, and gives
/// the render's stats.
fn render_as_stateless(convo: &mut Conversation, o: &RenderOptions, label: &str) -> RenderStats {
    let got = convo.render_body(o).unwrap();
    assert_eq!(got, render_body(convo.transcript(), o).unwrap(), "{label}");
    convo.last_render_stats().clone()
}

/// An agent's stored session (tool loops, no closing answer: one turn from Anthropic's point of
/// view, since a user message right after results joins the loop) loaded, then used turn after
/// turn: the model answers, the user writes the next task. Every render after the load's first
/// stays incremental; closing the long turn does not render the history again.
#[test]
fn a_loaded_agent_session_used_turn_after_turn_stays_incremental() {
    let base = fixture_support::agent_session(120, 6, false);
    for provider in Provider::ALL {
        let input = fixture_support::minted_for(provider, &base);
        for thinking in [false, true] {
            let o = session_options(provider, thinking);
            let mut convo = loaded(&input);
            convo.render_body(&o).unwrap();
            convo.render_body(&o).unwrap();
            for k in 0..6 {
                convo.append_value(&json!({"speaker": "human", "blocks": [{"type": "text", "text": format!("turn {k}")}]})).unwrap();
                let stats = render_as_stateless(
                    &mut convo,
                    &o,
                    &format!("{provider} thinking={thinking} turn {k}"),
                );
                assert!(
                    stats.incremental && stats.messages_rendered <= 8,
                    "{provider} thinking={thinking} turn {k}: {stats:?}"
                );
                let answer = json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [{"type": "text", "text": format!("answer {k}")}]});
                convo
                    .append_value(&fixture_support::minted_for(provider, &[answer])[0])
                    .unwrap();
            }
        }
    }
}

/// The same, where the open tool loop was started by a model whose thinking the target cannot
/// replay: while it is open, Anthropic requests run with thinking off (ANT-10); the next turn
/// runs with it on again, and its body is still exactly the stateless render's.
#[test]
fn a_new_turn_after_a_loop_that_ran_with_thinking_off_renders_exactly() {
    let mut input = session(6);
    input.push(json!({"speaker": "human", "blocks": [{"type": "text", "text": "task 6"}]}));
    for step in 0..4 {
        let id = format!("call_x{step}");
        input.push(json!({"speaker": "ai", "metadata": {"provider": "openai", "model": "gpt-5.2"}, "blocks": [
            {"type": "tool_call", "id": id, "name": "read_file", "parameters": {"path": format!("x{step}.rs")}}
        ]}));
        input.push(json!({"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": id, "toolName": "read_file", "result": format!("x {step}")}
        ]}));
    }
    for provider in Provider::ALL {
        for thinking in [false, true] {
            let o = session_options(provider, thinking);
            let mut convo = Conversation::new();
            for msg in &input {
                convo.append_value(msg).unwrap();
                convo.render_body(&o).unwrap();
            }
            for k in 0..3 {
                convo.append_value(&json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [{"type": "text", "text": format!("answer {k}")}]})).unwrap();
                convo.append_value(&json!({"speaker": "human", "blocks": [{"type": "text", "text": format!("turn {k}")}]})).unwrap();
                render_as_stateless(
                    &mut convo,
                    &o,
                    &format!("{provider} thinking={thinking} turn {k}"),
                );
            }
        }
    }
}

#[test]
fn a_user_turn_after_an_interrupted_tool_loop_stays_incremental() {
    // Finished turns, then one the user interrupted after its results, then the next task:
    // the cached boundary sits inside that tool loop, and a new user turn takes it back to
    // where the loop's turn opened instead of rendering everything again.
    let mut input = session(20);
    input.push(json!({"speaker": "human", "blocks": [{"type": "text", "text": "task 20"}]}));
    input.push(json!({"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-sonnet-4-5"}, "blocks": [
        {"type": "thinking", "thought": "plan", "signature": "sig-i"},
        {"type": "tool_call", "id": "toolu_01int", "name": "read_file", "parameters": {"path": "i.rs"}}
    ]}));
    input.push(json!({"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "toolu_01int", "toolName": "read_file", "result": "fn i() {}"}]}));
    input.push(
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "stop, do task 21"}]}),
    );
    for provider in Provider::ALL {
        for thinking in [false, true] {
            let o = session_options(provider, thinking);
            let mut convo = loaded(&input);
            convo.render_body(&o).unwrap();
            convo.append_value(&json!({"speaker": "human", "blocks": [{"type": "text", "text": "and task 22"}]})).unwrap();
            let got = convo.render_body(&o).unwrap();
            assert_eq!(
                got,
                render_body(convo.transcript(), &o).unwrap(),
                "{provider}"
            );
            let stats = convo.last_render_stats();
            assert!(
                stats.incremental,
                "{provider} thinking={thinking}: {stats:?}"
            );
            assert!(
                stats.messages_rendered <= 6,
                "{provider} thinking={thinking}: {stats:?}"
            );
        }
    }
}

#[test]
fn cached_body_parts_keep_their_bytes_join_into_the_full_body_and_stay_few() {
    // What JS renderBlob relies on: a cached piece's id always stands for the same bytes, the
    // pieces join into the full render's body, and most of the body comes from the cache.
    use std::collections::HashMap;
    use turnwire::BodyPart;
    let base = fixture_support::agent_session(300, 6, false);
    for provider in Provider::ALL {
        let input = fixture_support::minted_for(provider, &base);
        let o = session_options(provider, true);
        let mut convo = Conversation::new();
        let mut seen: HashMap<u64, Vec<u8>> = HashMap::new();
        let (mut fresh_total, mut body_total) = (0usize, 0usize);
        for (k, msg) in input.iter().enumerate() {
            convo.append_value(msg).unwrap();
            let mut body = Vec::new();
            let (mut fresh, mut pieces) = (0, 0);
            convo
                .write_body_parts(&o, &mut |parts| {
                    for p in parts {
                        body.extend_from_slice(p.bytes());
                        match p {
                            BodyPart::Fresh(b) => fresh += b.len(),
                            BodyPart::Cached { id, bytes, halves } => {
                                let known = seen.entry(*id).or_insert_with(|| bytes.to_vec());
                                assert_eq!(
                                    known.as_slice(),
                                    *bytes,
                                    "{provider}: piece {id} changed"
                                );
                                // a merged piece is its halves' bytes, one after the other
                                if let Some((a, b)) = halves {
                                    if let (Some(a), Some(b)) = (seen.get(a), seen.get(b)) {
                                        assert_eq!([a.as_slice(), b.as_slice()].concat(), *bytes);
                                    }
                                }
                                pieces += 1;
                            }
                        }
                    }
                })
                .unwrap();
            assert_eq!(
                body,
                render_body(convo.transcript(), &o).unwrap(),
                "{provider} at {k}"
            );
            // grown message by message, the cache is a few merged pieces, not one per move
            assert!(
                pieces <= 16,
                "{provider} at {k}: {pieces} cached pieces in one body"
            );
            if k >= 100 {
                fresh_total += fresh;
                body_total += body.len();
            }
        }
        // past the first turns, most bytes of each render come from the cache
        assert!(
            fresh_total * 4 < body_total,
            "{provider}: {fresh_total} fresh of {body_total} bytes"
        );
    }
}

#[derive(Debug, Clone)]
enum Edit {
    /// Keep this many messages (modulo the length + 1).
    Truncate(usize),
    /// Put input message `from` (modulo) at index `at` (modulo the length).
    Replace { at: usize, from: usize },
    /// Remove `delete` messages from `start` (both modulo) and insert input messages `from..`.
    Splice {
        start: usize,
        delete: usize,
        from: usize,
        insert: usize,
    },
    /// Append input message `from` (modulo).
    Append(usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        any::<usize>().prop_map(Edit::Truncate),
        (any::<usize>(), any::<usize>()).prop_map(|(at, from)| Edit::Replace { at, from }),
        (any::<usize>(), 0usize..4, any::<usize>(), 0usize..4).prop_map(
            |(start, delete, from, insert)| Edit::Splice {
                start,
                delete,
                from,
                insert
            }
        ),
        any::<usize>().prop_map(Edit::Append),
    ]
}

/// Applies `e` to the conversation and to the plain list of messages it mirrors.
fn apply_edit(e: &Edit, convo: &mut Conversation, mirror: &mut Vec<Value>, pool: &[Value]) {
    let pick = |i: usize| pool[i % pool.len()].clone();
    let len = mirror.len();
    match e {
        Edit::Truncate(n) => {
            let n = n % (len + 1);
            let removed = convo.truncate(n);
            assert_eq!(removed.len(), len - n);
            mirror.truncate(n);
        }
        Edit::Replace { at, from } => {
            if len == 0 {
                return;
            }
            let at = at % len;
            let m = pick(*from);
            convo.replace_value(at, m.clone()).unwrap();
            mirror[at] = m;
        }
        Edit::Splice {
            start,
            delete,
            from,
            insert,
        } => {
            let start = start % (len + 1);
            let end = (start + delete).min(len);
            let new: Vec<Value> = (0..*insert).map(|k| pick(from + k)).collect();
            let removed = convo.splice_values(start, *delete, new.clone()).unwrap();
            assert_eq!(removed.len(), end - start);
            mirror.splice(start..end, new);
        }
        Edit::Append(from) => {
            let m = pick(*from);
            convo.append_value(&m).unwrap();
            mirror.push(m);
        }
    }
}

/// After any sequence of edits (truncate, replace, splice, append), a conversation renders
/// exactly what a full render of its transcript gives, for every target it caches.
fn check_edits(ops: &[Op], edits: &[Edit], targets: &[Target]) -> Result<(), TestCaseError> {
    let pool = build(ops);
    if pool.is_empty() {
        return Ok(());
    }
    let mut convo = Conversation::new();
    let mut mirror: Vec<Value> = Vec::new();
    // grow the history with renders so that the caches have boundaries to lose
    for (k, msg) in pool.iter().enumerate() {
        convo.append_value(msg).unwrap();
        mirror.push(msg.clone());
        if k % 3 == 2 {
            for t in targets {
                let _ = convo.render_body(&options(t));
            }
        }
    }
    for (step, e) in edits.iter().enumerate() {
        apply_edit(e, &mut convo, &mut mirror, &pool);
        let transcript = Transcript::from_value(&Value::Array(mirror.clone())).unwrap();
        prop_assert_eq!(convo.transcript(), &transcript);
        let t = &targets[step % targets.len()];
        let o = options(t);
        let want = render(&transcript, &o);
        // an edit may change what an earlier request sent: cache_prefix_changed is the
        // Conversation's own (checked against the reference in `check`)
        let got = convo.render(&o).map(|g| split_cache_note(g).0);
        match (want, got) {
            (Ok(w), Ok(g)) => prop_assert_eq!(
                &w,
                &g,
                "{} after edit {} {:?} (stats {:?})",
                o.provider,
                step,
                e,
                convo.last_render_stats()
            ),
            (Err(w), Err(g)) => prop_assert_eq!(format!("{w:?}"), format!("{g:?}")),
            (w, g) => prop_assert!(false, "{:?} vs {:?} after {:?}", w.err(), g.err(), e),
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases() / 5, max_shrink_iters: 4000, ..ProptestConfig::default() })]

    #[test]
    fn edit_then_render_equals_full_render(
        ops in prop::collection::vec(op(), 1..40),
        edits in prop::collection::vec(edit(), 1..12),
        targets in prop::collection::vec(target(), 1..4),
    ) {
        check_edits(&ops, &edits, &targets)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// An edit near the end — the last user message replaced (edit and resend), or the last
    /// message dropped and another appended (regenerate) — renders exactly the full render and
    /// costs about what an append costs: incremental, and at most one message more rendered.
    #[test]
    fn an_edit_near_the_end_costs_about_what_an_append_costs(
        len in 40usize..160,
        provider in 0usize..Provider::ALL.len(),
        thinking in any::<bool>(),
        regenerate in any::<bool>(),
    ) {
        let o = session_options(Provider::ALL[provider], thinking);
        let mut convo = Conversation::new();
        for m in fixture_support::agent_session(len, 6, false) {
            convo.append_value(&m).unwrap();
        }
        let user = |text: &str| json!({"speaker": "human", "blocks": [{"type": "text", "text": text}]});
        // a few finished turns after the tool loop, each rendered, as an agent renders them
        for turn in 0..3 {
            convo.append_value(&user(&format!("one more thing ({turn})"))).unwrap();
            convo.render_body(&o).unwrap();
            convo.append_value(&json!({"speaker": "ai", "blocks": [{"type": "text", "text": "done"}]})).unwrap();
            convo.render_body(&o).unwrap();
        }
        // the append this is measured against: the user's next message
        convo.append_value(&user("next")).unwrap();
        let body = convo.render_body(&o).unwrap();
        prop_assert_eq!(&body, &render_body(convo.transcript(), &o).unwrap());
        let append = convo.last_render_stats().clone();
        prop_assert!(append.incremental, "{:?}", append);
        if regenerate {
            convo.truncate(convo.len() - 1);
            convo.append_value(&user("next, differently")).unwrap();
        } else {
            convo.replace_value(convo.len() - 1, user("next, shorter")).unwrap();
        }
        let body = convo.render_body(&o).unwrap();
        prop_assert_eq!(&body, &render_body(convo.transcript(), &o).unwrap());
        let edit = convo.last_render_stats().clone();
        prop_assert!(edit.incremental, "{:?}", edit);
        prop_assert!(edit.messages_rendered <= append.messages_rendered + 1, "edit {:?} vs append {:?}", edit, append);
    }
}
