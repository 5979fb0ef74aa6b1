//! How the cost of appending one user turn to a held `Conversation` and rendering its body in
//! parts (what `renderBlob` does) grows with the history: natively, on histories in the JSON
//! history shape (for instance the agent-shaped sessions of `../shared/bench`, converted).
//!
//! ```text
//! cargo run --release --example append_scaling -- options.json 2000.json 10000.json
//! ```
//!
//! For each history it prints the median and the best of the timed steps, each on a fresh
//! conversation that holds the history and rendered it once (untimed), as the benchmark does.

use std::time::Instant;

use turnwire::model::{Block, Message, Speaker, TextBlock};
use turnwire::{Conversation, RenderOptions, Transcript};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let options = RenderOptions::from_json(&std::fs::read_to_string(
        args.get(1).ok_or("usage: options.json history.json…")?,
    )?)?;
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(30);
    for path in args.iter().skip(2) {
        let transcript = Transcript::from_json(&std::fs::read_to_string(path)?)?;
        let n = transcript.messages.len();
        let turn = Message::new(
            Speaker::Human,
            vec![Block::Text(TextBlock::new("Now run the tests again."))],
        );
        if std::env::var_os("PROFILE").is_some() {
            // One held conversation, many appends: for a profiler to see the appends only.
            let mut c = Conversation::from_transcript(transcript.clone());
            c.write_body_parts(&options, &mut |_| {})?;
            for i in 0..runs {
                let who = if i % 2 == 0 {
                    Speaker::Human
                } else {
                    Speaker::Ai
                };
                c.append(Message::new(
                    who,
                    vec![Block::Text(TextBlock::new("next step"))],
                ));
                c.write_body_parts(&options, &mut |_| {})?;
            }
            continue;
        }
        let mut times = Vec::with_capacity(runs);
        for _ in 0..runs {
            let mut c = Conversation::from_transcript(transcript.clone());
            c.write_body_parts(&options, &mut |_| {})?;
            if std::env::var_os("SETTLE").is_some() {
                // Let the allocator settle after the setup's frees (glibc consolidates its
                // small free chunks on the next large request) before the clock starts.
                std::hint::black_box(vec![0u8; 1 << 20]);
            }
            let t = Instant::now();
            c.append(turn.clone());
            let appended = t.elapsed().as_secs_f64() * 1e3;
            let mut len = 0;
            c.write_body_parts(&options, &mut |parts| len = parts.len())?;
            times.push(t.elapsed().as_secs_f64() * 1e3);
            if std::env::var_os("SPLIT").is_some() {
                let t2 = Instant::now();
                c.append(Message::new(
                    Speaker::Ai,
                    vec![Block::Text(TextBlock::new("On it."))],
                ));
                c.append(turn.clone());
                c.write_body_parts(&options, &mut |_| {})?;
                println!(
                    "  a second append + render: {:.3} ms",
                    t2.elapsed().as_secs_f64() * 1e3
                );
                let s = c.last_render_stats();
                println!(
                    "  append {appended:.3} ms, total {:.3} ms; {s:?}",
                    t.elapsed().as_secs_f64() * 1e3
                );
            }
            std::hint::black_box(len);
        }
        times.sort_by(f64::total_cmp);
        let median = times.get(runs / 2).copied().unwrap_or_default();
        let best = times.first().copied().unwrap_or_default();
        println!("{n:6} messages: append + body parts median {median:.3} ms, best {best:.3} ms");
    }
    Ok(())
}
