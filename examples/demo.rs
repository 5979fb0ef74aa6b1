//! `make demo`: renders every session in a folder for every implemented provider, runs the
//! strict validator on each body and prints a readable summary.
//!
//! ```text
//! cargo run --example demo -- examples/sessions
//! ```

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use serde_json::Value;
use turnwire::model::{Block, Speaker};
use turnwire::{
    render, validate_request_for_model, Provider, RenderOptions, ThinkingOptions, Transcript,
};

/// The model each provider is rendered for in the demo.
fn demo_options(provider: Provider) -> RenderOptions {
    match provider {
        Provider::Anthropic => {
            let mut o = RenderOptions::new(provider, "claude-sonnet-4-5");
            o.max_tokens = Some(8192);
            o.thinking = Some(ThinkingOptions {
                enabled: true,
                budget_tokens: Some(2048),
                effort: None,
                summary: None,
            });
            o
        }
        _ => {
            let mut o = RenderOptions::new(provider, provider.reference_model());
            o.max_tokens = Some(8192);
            o
        }
    }
}

fn sessions(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    Ok(files)
}

/// Counts of the rendered body: wire messages, tool calls, tool results.
fn shape(provider: Provider, body: &Value) -> (usize, usize, usize) {
    let msgs = body["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let mut calls = 0;
    let mut results = 0;
    for m in msgs {
        match provider {
            Provider::Anthropic => {
                for b in m["content"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                {
                    match b["type"].as_str() {
                        Some("tool_use") => calls += 1,
                        Some("tool_result") => results += 1,
                        _ => {}
                    }
                }
            }
            _ => {
                calls += m["tool_calls"].as_array().map_or(0, Vec::len);
                if m["role"] == "tool" {
                    results += 1;
                }
            }
        }
    }
    (msgs.len(), calls, results)
}

fn main() -> ExitCode {
    let dir = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "examples/sessions".into());
    let files = match sessions(Path::new(&dir)) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("demo: {e}");
            return ExitCode::from(2);
        }
    };
    let mut renders = 0;
    let mut failures = 0;
    let mut unreadable = 0;
    for file in &files {
        let name = file.file_stem().and_then(|s| s.to_str()).unwrap_or("?");
        let text = std::fs::read_to_string(file).unwrap_or_default();
        let transcript = match Transcript::from_json(&text) {
            Ok(t) => t,
            Err(e) => {
                println!("━━ {name}: cannot read: {e}\n");
                unreadable += 1;
                continue;
            }
        };
        let calls_in = transcript
            .messages
            .iter()
            .flat_map(|m| &m.blocks)
            .filter(|b| matches!(b, Block::ToolCall(_)))
            .count();
        let providers_in: Vec<String> = {
            let mut seen = Vec::new();
            for m in transcript
                .messages
                .iter()
                .filter(|m| m.speaker == Speaker::Ai)
            {
                if let Some(p) = m.provenance().model {
                    if seen.last() != Some(&p) {
                        seen.push(p);
                    }
                }
            }
            seen
        };
        println!("━━ {name}");
        println!(
            "   input: {} messages, {} tool calls{}",
            transcript.messages.len(),
            calls_in,
            if providers_in.is_empty() {
                String::new()
            } else {
                format!(", produced by {}", providers_in.join(" → "))
            }
        );
        for provider in Provider::ALL {
            renders += 1;
            let opts = demo_options(provider);
            let out = match render(&transcript, &opts) {
                Ok(o) => o,
                Err(e) => {
                    failures += 1;
                    println!("   {:<12} ERROR {e}", provider.as_str());
                    continue;
                }
            };
            let (messages, calls, results) = shape(provider, &out.body);
            let synthetic = out
                .diagnostics
                .iter()
                .filter(|d| d.code == turnwire::DiagnosticCode::SyntheticResultAdded)
                .count();
            let violations = validate_request_for_model(provider, &opts.model, &out.body);
            let verdict = if violations.is_empty() {
                "valid ✓".to_string()
            } else {
                format!("INVALID ✗ ({})", violations.len())
            };
            if !violations.is_empty() {
                failures += 1;
            }
            println!(
                "   {:<12} {:<18} {messages} messages · {calls} calls · {results} results ({synthetic} synthetic) · {} diagnostics · {verdict}",
                provider.as_str(),
                opts.model,
                out.diagnostics.len()
            );
            let mut by_code: BTreeMap<&str, (usize, String)> = BTreeMap::new();
            for d in &out.diagnostics {
                let e = by_code
                    .entry(d.code.as_str())
                    .or_insert((0, d.message.clone()));
                e.0 += 1;
            }
            for (code, (n, example)) in by_code {
                let times = if n > 1 {
                    format!(" ×{n}")
                } else {
                    String::new()
                };
                println!("      · {code}{times}: {example}");
            }
            for v in &violations {
                println!("      ✗ {} at {}: {}", v.rule, v.path, v.message);
            }
            let ids: Vec<String> = out
                .id_map
                .0
                .iter()
                .take(3)
                .map(|(c, p)| format!("{c} → {p}"))
                .collect();
            if !ids.is_empty() {
                let more = out.id_map.0.len().saturating_sub(3);
                let more = if more > 0 {
                    format!(" (+{more} more)")
                } else {
                    String::new()
                };
                println!("      ids: {}{more}", ids.join(", "));
            }
        }
        println!();
    }
    println!(
        "{renders} renders of {} sessions: {} valid, {failures} failed{}",
        files.len(),
        renders - failures,
        if unreadable > 0 {
            format!(", {unreadable} session file(s) unreadable")
        } else {
            String::new()
        }
    );
    if failures > 0 || unreadable > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
