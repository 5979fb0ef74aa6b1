//! Golden files: `tests/fixtures/<case>/transcript.json` rendered for every implemented
//! provider must equal `tests/fixtures/<case>/<provider>.json` byte for byte, and every body must
//! pass the provider's strict validator.
//!
//! Options: `options.json` (render options without provider/model) applies to every provider;
//! `options.<provider>.json` is merged over it for one provider. Default models:
//! `claude-sonnet-4-5` (anthropic), `gpt-5.2` (openai-chat).
//!
//! Re-bless after an intended change: `TURNWIRE_BLESS=1 cargo test --test golden` (or
//! `make bless`), then review the diff.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::json;
use turnwire::{
    render, render_body, validate_request_text, validate_request_with_headers, Provider,
    RenderOptions, Transcript,
};

mod fixture_support;
use fixture_support::{cases, options_for};

/// The golden text of one render: `{body, idMap, diagnostics}` or `{error}`, pretty, with a
/// trailing newline.
fn golden_text(dir: &Path, provider: Provider) -> (String, Vec<String>) {
    let transcript =
        Transcript::from_json(&std::fs::read_to_string(dir.join("transcript.json")).unwrap());
    let options = RenderOptions::from_value(options_for(dir, provider));
    let (value, problems) = match (transcript, options) {
        (Ok(t), Ok(o)) => match render(&t, &o) {
            Ok(out) => {
                // issue 12 (same input, same bytes): the body written straight from the
                // adapter's tree is the body `render` builds as a `Value`, written
                assert_eq!(
                    render_body(&t, &o).unwrap(),
                    out.body_bytes(),
                    "{}: render_body differs from render's body",
                    dir.display()
                );
                // the bytes as sent, so the JSON text rules (unpaired surrogates) are checked too
                let mut found =
                    validate_request_text(provider, Some(&o.model), &out.body_bytes()).unwrap();
                // and what the body needs in its headers (ANT-52's beta)
                found.extend(validate_request_with_headers(
                    provider,
                    &o.model,
                    &out.body,
                    &out.headers.0,
                ));
                let problems = found
                    .into_iter()
                    .map(|v| format!("{} at {}: {}", v.rule, v.path, v.message))
                    .collect();
                (out.to_value(), problems)
            }
            Err(e) => (
                json!({"error": {"code": e.code().as_str(), "path": e.path(), "message": e.message()}}),
                vec![],
            ),
        },
        (Err(e), _) | (_, Err(e)) => (
            json!({"error": {"code": e.code().as_str(), "path": e.path(), "message": e.message()}}),
            vec![],
        ),
    };
    (
        serde_json::to_string_pretty(&value).unwrap() + "\n",
        problems,
    )
}

#[test]
fn golden_files_match_for_every_case_and_provider() {
    let bless = std::env::var_os("TURNWIRE_BLESS").is_some();
    let cases = cases();
    assert!(
        cases.len() >= 20,
        "expected at least 20 fixture cases, found {}",
        cases.len()
    );
    let mut failures = Vec::new();
    for dir in &cases {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        for provider in Provider::ALL {
            let (text, problems) = golden_text(dir, provider);
            for p in problems {
                failures.push(format!("{case}/{provider}: body fails validation: {p}"));
            }
            let path = dir.join(format!("{}.json", provider.as_str()));
            if bless {
                std::fs::write(&path, &text).unwrap();
                continue;
            }
            match std::fs::read_to_string(&path) {
                Ok(expected) if expected == text => {}
                Ok(_) => failures.push(format!(
                    "{case}/{provider}: output differs from {} (re-bless with TURNWIRE_BLESS=1 if intended)",
                    path.display()
                )),
                Err(_) => failures.push(format!("{case}/{provider}: missing {}", path.display())),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn renders_are_byte_identical_when_repeated() {
    for dir in cases() {
        for provider in Provider::ALL {
            assert_eq!(
                golden_text(&dir, provider).0,
                golden_text(&dir, provider).0,
                "{}",
                dir.display()
            );
        }
    }
}
