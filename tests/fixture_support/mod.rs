//! The golden fixtures (`tests/fixtures/<case>/`): their directories and the render options of
//! a case for a provider. Shared by the golden test and the importers' round trips.
#![allow(dead_code, clippy::unwrap_used, clippy::panic)]

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use turnwire::Provider;

/// Member names the history shape gives meaning (and a few it does not), for generated JSON.
pub const SHAPE_KEYS: &[&str] = &[
    "speaker",
    "blocks",
    "type",
    "text",
    "id",
    "name",
    "parameters",
    "callId",
    "result",
    "error",
    "isComplete",
    "messages",
    "metadata",
    "thought",
    "signature",
    "mimeType",
    "data",
    "encoding",
    "provenance",
    "synthetic",
];

/// String values the history shape gives meaning, for generated JSON.
pub const SHAPE_STRINGS: &[&str] = &[
    "text",
    "thinking",
    "tool_call",
    "tool_response",
    "media",
    "human",
    "ai",
    "tool",
    "system",
    "",
    "c1",
    "base64",
    "url",
];

pub fn read_json(path: &Path) -> Option<Value> {
    let text = std::fs::read_to_string(path).ok()?;
    Some(serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())))
}

/// `options.json` merged with `options.<provider>.json` over the provider's reference model.
pub fn options_for(dir: &Path, provider: Provider) -> Value {
    let mut o = json!({"provider": provider.as_str(), "model": provider.reference_model()});
    for file in [
        "options.json".to_string(),
        format!("options.{}.json", provider.as_str()),
    ] {
        if let Some(Value::Object(extra)) = read_json(&dir.join(file)) {
            for (k, v) in extra {
                o[k] = v;
            }
        }
    }
    o
}

/// Every case directory with a `transcript.json`, sorted.
pub fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.join("transcript.json").is_file())
        .collect();
    dirs.sort();
    dirs
}

/// One golden case rendered for one provider.
pub struct Rendered {
    pub name: String,
    pub provider: Provider,
    pub transcript: turnwire::Transcript,
    pub options: turnwire::RenderOptions,
    /// The body bytes the render wrote.
    pub body: Vec<u8>,
}

/// Every golden case × provider whose golden is a body (not an error).
pub fn rendered() -> Vec<Rendered> {
    let mut out = Vec::new();
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(dir.join("transcript.json")).unwrap();
        let transcript = turnwire::Transcript::from_json(&text).unwrap();
        for provider in Provider::ALL {
            let options = turnwire::RenderOptions::from_value(options_for(&dir, provider)).unwrap();
            if let Ok(r) = turnwire::render(&transcript, &options) {
                out.push(Rendered {
                    name: name.clone(),
                    provider,
                    transcript: transcript.clone(),
                    options,
                    body: r.body_bytes(),
                });
            }
        }
    }
    out
}

/// An agent session as agents store it: tool loops of one to three parallel calls with signed
/// thinking (Claude's), one tool message per result, now and then a call that never got its
/// result (interrupted), and a new user task every `task_every` steps — after a closing answer
/// when `answer_before_task`, right after the results otherwise.
pub fn agent_session(messages: usize, task_every: usize, answer_before_task: bool) -> Vec<Value> {
    let claude = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let mut out = vec![json!({"speaker": "human", "blocks": [{"type": "text", "text": "task 0"}]})];
    let mut step = 0usize;
    while out.len() < messages {
        step += 1;
        let calls = 1 + step % 3;
        let mut blocks = vec![
            json!({"type": "thinking", "thought": format!("plan {step}"), "signature": format!("sig{step}")}),
        ];
        if step % 2 == 0 {
            blocks.push(json!({"type": "text", "text": format!("step {step}")}));
        }
        for c in 0..calls {
            blocks.push(json!({"type": "tool_call", "id": format!("toolu_01s{step}c{c}"), "name": "read_file", "parameters": {"path": format!("f{step}{c}.rs")}}));
        }
        out.push(json!({"speaker": "ai", "metadata": claude, "blocks": blocks}));
        for c in 0..calls {
            if (step * 3 + c) % 7 == 0 {
                continue; // interrupted: this call never got a result
            }
            out.push(json!({"speaker": "tool", "blocks": [
                {"type": "tool_response", "callId": format!("toolu_01s{step}c{c}"), "toolName": "read_file", "result": format!("contents {step}/{c}")}
            ]}));
        }
        if step % task_every == 0 {
            if answer_before_task {
                out.push(json!({"speaker": "ai", "metadata": claude, "blocks": [{"type": "text", "text": format!("done {step}")}]}));
            }
            out.push(json!({"speaker": "human", "blocks": [{"type": "text", "text": format!("task {}", step / task_every)}]}));
        }
    }
    out
}

/// The body member that holds a provider's history.
pub fn history_key(provider: Provider) -> &'static str {
    match provider {
        Provider::OpenAiResponses => "input",
        Provider::Gemini => "contents",
        _ => "messages",
    }
}

/// A session as `provider` itself would have stored it: the sessions above are Claude's
/// (`anthropic` / `claude-sonnet-4-5`), which Bedrock Converse keeps only when Bedrock minted
/// them (BDR-16), so for Converse their turns are Bedrock's reference model's. Other
/// providers get the session as it is.
#[allow(dead_code)]
pub fn minted_for(provider: Provider, session: &[Value]) -> Vec<Value> {
    let mut out = session.to_vec();
    if provider != Provider::BedrockConverse {
        return out;
    }
    for m in &mut out {
        if m["metadata"]["provider"] == "anthropic" && m["metadata"]["model"] == "claude-sonnet-4-5"
        {
            m["metadata"] = serde_json::json!({"provider": provider.as_str(), "model": provider.reference_model()});
        }
    }
    out
}
