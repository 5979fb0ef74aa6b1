//! Where a stateless render from JSON text spends its time, phase by phase, natively (best of
//! 15 runs each): the parse alone, reading the transcript, rendering it, text to body.
//!
//! ```text
//! cargo run --release --example phase_bench -- session.json options.json
//! PROFILE=1 perf record -g target/release/examples/phase_bench session.json options.json
//! ```
//!
//! `options.json` maps a name to render options (`{"anthropic": {"provider": …}}`). With
//! `PROFILE` set it only renders (`render_body`), 60 times per entry, for a profiler to look at.

use std::time::Instant;

use serde_json::Value;
use turnwire::{render_body, render_owned, RenderOptions, Transcript};

fn time<T>(label: &str, mut f: impl FnMut() -> T) {
    let mut best = f64::MAX;
    for _ in 0..15 {
        let t = Instant::now();
        let out = f();
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
        drop(out);
    }
    println!("{label:44} {best:8.3} ms");
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let text = std::fs::read_to_string(args.get(1).ok_or("usage: session.json options.json")?)?;
    let options = std::fs::read_to_string(args.get(2).ok_or("usage: session.json options.json")?)?;
    let options: serde_json::Map<String, Value> = serde_json::from_str(&options)?;
    let transcript = Transcript::from_json(&text)?;
    if std::env::var_os("PROFILE").is_some() {
        for o in options.values() {
            let o = RenderOptions::from_json(&o.to_string())?;
            for _ in 0..60 {
                drop(render_body(&transcript, &o)?);
            }
        }
        return Ok(());
    }
    time("parse only (serde IgnoredAny)", || {
        serde_json::from_str::<serde::de::IgnoredAny>(&text).is_ok()
    });
    time("parse into a serde_json::Value", || {
        serde_json::from_str::<Value>(&text).is_ok()
    });
    time("Transcript::from_json", || {
        Transcript::from_json(&text).is_ok()
    });
    for (name, o) in &options {
        let o = RenderOptions::from_json(&o.to_string())?;
        time(&format!("{name}: clone the transcript"), || {
            transcript.clone()
        });
        time(&format!("{name}: render_owned(clone)"), || {
            render_owned(transcript.clone(), &o).map(|r| r.body_bytes().len())
        });
        time(&format!("{name}: render_body(borrowed)"), || {
            render_body(&transcript, &o).map(|b| b.len())
        });
        time(&format!("{name}: text → body bytes"), || {
            Transcript::from_json(&text).and_then(|t| render_body(&t, &o))
        });
    }
    Ok(())
}
