//! Full render vs `Conversation`'s incremental render of a synthetic 2,000-message agent
//! session, after one append. Run with `cargo run --release --example incremental_bench`.
//!
//! The session has the shape of `bench/lib/session.mjs`: episodes of a user message, 0-4 tool
//! rounds (an assistant message with signed thinking, sometimes a short text and 1-5 parallel
//! calls, then one tool message with every result, 0.2-5 KB each) and a final answer (thinking
//! and text). For each target the conversation holds the first 2,000 messages, rendered once;
//! then each measured step appends the next message and renders (the time of that render is
//! the incremental time). The full time is `render_body` of the same transcript.

use std::time::{Duration, Instant};

use serde_json::{json, Value};
use turnwire::{render_body, Conversation, Provider, RenderOptions, ToolDeclaration, Transcript};

const MESSAGES: usize = 2_000;
const STEPS: usize = 60;

fn steps() -> usize {
    std::env::var("BENCH_STEPS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(STEPS)
}

/// A small seeded generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn int(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    fn log_int(&mut self, lo: usize, hi: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((lo as f64).ln() + u * ((hi as f64).ln() - (lo as f64).ln())).exp() as usize
    }
    fn text(&mut self, chars: usize) -> String {
        const WORDS: [&str; 16] = [
            "the", "parser", "token", "buffer", "error", "result", "render", "message", "cache",
            "stream", "state", "fn", "match", "déjà", "→", "build",
        ];
        let mut s = String::with_capacity(chars + 8);
        while s.len() < chars {
            s.push_str(WORDS[self.int(0, WORDS.len() - 1)]);
            s.push(' ');
        }
        s
    }
    fn words(&mut self, lo: usize, hi: usize) -> String {
        let n = self.int(lo, hi);
        self.text(n)
    }
    fn output(&mut self, lo: usize, hi: usize) -> String {
        let n = self.log_int(lo, hi);
        self.text(n)
    }
    fn signature(&mut self, lo: usize, hi: usize) -> String {
        let n = self.int(lo, hi);
        self.b64(n)
    }
    fn b64(&mut self, len: usize) -> String {
        const B64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        (0..len)
            .map(|_| B64[self.int(0, 63)] as char)
            .collect::<String>()
            + "=="
    }
}

const TOOLS: [&str; 6] = [
    "read_file",
    "grep",
    "bash",
    "edit_file",
    "write_file",
    "list_dir",
];

fn session(rng: &mut Rng, at_least: usize) -> Vec<Value> {
    let meta = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let mut out = Vec::new();
    let mut calls = 0usize;
    while out.len() < at_least {
        out.push(
            json!({"speaker": "human", "blocks": [{"type": "text", "text": rng.words(40, 400)}]}),
        );
        for _ in 0..rng.int(0, 4) {
            let mut blocks = vec![
                json!({"type": "thinking", "thought": rng.words(200, 2000), "signature": rng.signature(300, 550)}),
            ];
            if rng.int(0, 2) == 0 {
                blocks.push(json!({"type": "text", "text": rng.words(20, 200)}));
            }
            let mut results = Vec::new();
            for _ in 0..rng.int(1, 5) {
                calls += 1;
                let id = format!("toolu_01{:022}", calls);
                let name = TOOLS[rng.int(0, TOOLS.len() - 1)];
                blocks.push(json!({"type": "tool_call", "id": id, "name": name, "parameters": {"path": format!("src/f{calls}.rs")}}));
                results.push(json!({"type": "tool_response", "callId": id, "toolName": name, "result": rng.output(200, 5000)}));
            }
            out.push(json!({"speaker": "ai", "metadata": meta, "blocks": blocks}));
            out.push(json!({"speaker": "tool", "blocks": results}));
        }
        out.push(json!({"speaker": "ai", "metadata": meta, "blocks": [
            {"type": "thinking", "thought": rng.words(200, 2000), "signature": rng.signature(300, 550)},
            {"type": "text", "text": rng.words(100, 1500)}
        ]}));
    }
    out
}

/// A digest of a body (FNV-1a over the bytes, and the length).
fn digest(bytes: &[u8]) -> (u64, usize) {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h = (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3);
    }
    (h, bytes.len())
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() -> Result<(), turnwire::Error> {
    // INCREMENTAL_ONLY=1 skips the full renders (for profiling); BENCH_STEPS sets the appends.
    let only_incremental = std::env::var_os("INCREMENTAL_ONLY").is_some();
    let steps = steps();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let all = session(&mut rng, MESSAGES + steps + 10);
    let tools: Vec<ToolDeclaration> = TOOLS
        .iter()
        .map(|t| ToolDeclaration::new(*t, "a tool", json!({"type": "object"})))
        .collect();
    println!(
        "{MESSAGES}-message session, then {steps} appends, each followed by one render (medians)\n"
    );
    println!(
        "{:<18} {:>12} {:>16} {:>9} {:>9} {:>13} {:>12}",
        "target", "full render", "after 1 append", "speedup", "body", "incremental", "msgs/render"
    );
    for provider in [
        Provider::Anthropic,
        Provider::OpenAiChat,
        Provider::OpenAiResponses,
        Provider::Gemini,
    ] {
        let mut o = RenderOptions::new(provider, provider.reference_model());
        o.system = Some("You are a coding agent.".into());
        o.tools = tools.clone();
        let mut convo = Conversation::new();
        for m in &all[..MESSAGES] {
            convo.append_value(m)?;
        }
        convo.render_body(&o)?;
        let (mut incremental, mut bodies, mut hits, mut rendered) = (Vec::new(), Vec::new(), 0, 0);
        for m in &all[MESSAGES..MESSAGES + steps] {
            convo.append_value(m)?;
            let t = Instant::now();
            let got = convo.render_body(&o)?;
            incremental.push(t.elapsed());
            let stats = convo.last_render_stats();
            hits += usize::from(stats.incremental);
            rendered += stats.messages_rendered;
            if !only_incremental {
                bodies.push(digest(&got));
            }
        }
        // The same transcripts rendered in full, and the bodies compared.
        let (mut full, mut size) = (Vec::new(), 0);
        let mut transcript = Transcript::from_value(&Value::Array(all[..MESSAGES].to_vec()))?;
        for (k, m) in all[MESSAGES..MESSAGES + steps].iter().enumerate() {
            if only_incremental {
                break;
            }
            transcript
                .messages
                .extend(Transcript::from_value(&json!([m]))?.messages);
            let t = Instant::now();
            let want = render_body(&transcript, &o)?;
            full.push(t.elapsed());
            assert_eq!(bodies[k], digest(&want), "{provider}: the bodies differ");
            size = want.len();
        }
        let i = median(incremental);
        let f = if only_incremental { i } else { median(full) };
        println!(
            "{:<18} {:>9.2} ms {:>13.1} µs {:>8.0}× {:>6.2} MB {:>9}/{steps} {:>12.1}",
            provider.as_str(),
            f.as_secs_f64() * 1e3,
            i.as_secs_f64() * 1e6,
            f.as_secs_f64() / i.as_secs_f64(),
            size as f64 / 1e6,
            hits,
            rendered as f64 / steps as f64
        );
    }
    Ok(())
}
