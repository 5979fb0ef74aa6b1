//! The `turnwire` command line: render and validate, errors with code and path on stderr.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn run(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_turnwire"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The command may exit on bad arguments before it reads its input: a broken pipe is fine.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    child.wait_with_output().unwrap()
}

const HISTORY: &str = r#"[
  {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
  {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "hist_tool_1", "name": "ls", "parameters": {}}]}
]"#;

#[test]
fn render_prints_body_id_map_and_diagnostics() {
    let out = run(
        &[
            "render",
            "--provider",
            "openai-chat",
            "--model",
            "gpt-5.2",
            "-",
        ],
        HISTORY,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["body"]["model"], "gpt-5.2");
    assert_eq!(v["idMap"]["hist_tool_1"], "call_1");
    assert_eq!(v["diagnostics"][0]["code"], "synthetic_result_added");
}

#[test]
fn render_takes_options_json_and_a_wrapper_object() {
    let wrapped = format!(r#"{{"messages": {HISTORY}}}"#);
    let out = run(
        &[
            "render",
            "--provider",
            "anthropic",
            "--options",
            r#"{"model": "claude-sonnet-4-5", "maxTokens": 100, "system": "be brief"}"#,
        ],
        &wrapped,
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["body"]["max_tokens"], 100);
    assert_eq!(v["body"]["system"], "be brief");
}

#[test]
fn render_reads_a_file() {
    let path = std::env::temp_dir().join(format!("turnwire-cli-{}.json", std::process::id()));
    std::fs::write(&path, HISTORY).unwrap();
    let out = run(
        &[
            "render",
            "--provider",
            "anthropic",
            "--model",
            "claude-sonnet-4-5",
            path.to_str().unwrap(),
        ],
        "",
    );
    std::fs::remove_file(&path).ok();
    assert!(out.status.success());
}

#[test]
fn errors_go_to_stderr_with_code_and_path() {
    let out = run(
        &["render", "--provider", "openai-chat", "--model", "m", "-"],
        r#"[{"speaker": "bot", "blocks": []}]"#,
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("error[invalid_value] at $[0].speaker"),
        "{err}"
    );
    let out = run(
        &["render", "--provider", "nope", "--model", "m", "-"],
        HISTORY,
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[unknown_provider]"));
    let out = run(&["render", "--provider", "anthropic", "-"], HISTORY);
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[missing_field] at $.model"));
    let out = run(&["frobnicate"], "");
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn validate_exits_non_zero_on_violations() {
    let bad =
        r#"{"model": "m", "max_tokens": 10, "messages": [{"role": "assistant", "content": "hi"}]}"#;
    let out = run(&["validate", "--provider", "anthropic", "-"], bad);
    assert_eq!(out.status.code(), Some(1));
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v[0]["rule"], "ANT-01");
    let good =
        r#"{"model": "m", "max_tokens": 10, "messages": [{"role": "user", "content": "hi"}]}"#;
    let out = run(&["validate", "--provider", "anthropic", "-"], good);
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "[]");
}

#[test]
fn issue_11_import_reads_a_request_body_back_into_a_transcript_and_options() {
    let body = r#"{"model": "gpt-5.2", "max_completion_tokens": 100, "messages": [
      {"role": "user", "content": "go"},
      {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}]},
      {"role": "tool", "tool_call_id": "call_1", "content": "a.rs"}]}"#;
    let out = run(&["import", "--provider", "openai-chat", "-"], body);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["transcript"][1]["blocks"][0]["id"], "call_1");
    assert_eq!(v["transcript"][2]["blocks"][0]["toolName"], "ls");
    assert_eq!(v["options"]["maxTokens"], 100);
    assert_eq!(v["diagnostics"], serde_json::json!([]));
    // a Gemini body names no model: a typed error with its path
    let out = run(
        &["import", "--provider", "gemini", "-"],
        r#"{"contents": []}"#,
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error[missing_field] at $.model"));
}
