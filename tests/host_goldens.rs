//! Issue 32, host goldens: `tests/fixtures/<case>/hosts.json` holds, for every (host,
//! provider) pair of the host table that is not the provider's own host and whose render
//! differs from the wire golden (`<case>/<provider>.json`), what differs:
//!
//! ```text
//! {"bedrock/anthropic": {"bodyPatch": <RFC 7386 merge patch over the wire golden's body>,
//!                        "headers": <the render's headers, when they differ>,
//!                        "diagnostics": <the render's diagnostics, when they differ>},
//!  "vertex/anthropic": {"error": {code, path, message}} … }
//! ```
//!
//! One file per case instead of one per (case, host, provider) (about 1,000 files, most equal
//! to their wire golden byte for byte): a merge patch says exactly what the host changes
//! (`"model": null`, `"anthropic_version": "bedrock-2023-05-31"`). The test checks that the
//! patch applied to the wire golden's body is the host's body, and validates that body with
//! `validate_request_for_host`. Re-bless: `TURNWIRE_BLESS=1 cargo test --test host_goldens`.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use serde_json::{json, Map, Value};
use turnwire::{
    hosts, render, validate_request_for_host, Host, Provider, RenderOptions, Transcript,
};

mod fixture_support;
use fixture_support::{cases, options_for};

/// The render of a case for `provider` (with `host`), as `{body, headers, diagnostics}` or
/// `{error}`.
fn rendered(dir: &Path, provider: Provider, host: Option<Host>) -> (Value, Option<RenderOptions>) {
    let transcript =
        Transcript::from_json(&std::fs::read_to_string(dir.join("transcript.json")).unwrap());
    let options = RenderOptions::from_value(options_for(dir, provider));
    let result: Result<(), turnwire::Error> = match (transcript, options) {
        (Ok(t), Ok(mut o)) => {
            o.host = host;
            match render(&t, &o) {
                Ok(out) => {
                    let v = out.to_value();
                    return (
                        json!({"body": v["body"], "headers": v.get("headers").cloned().unwrap_or(Value::Null), "diagnostics": v["diagnostics"]}),
                        Some(o),
                    );
                }
                Err(e) => Err(e),
            }
        }
        (Err(e), _) | (_, Err(e)) => Err(e),
    };
    let e = result.unwrap_err();
    (
        json!({"error": {"code": e.code().as_str(), "path": e.path(), "message": e.message()}}),
        None,
    )
}

/// The RFC 7386 merge patch that turns `from` into `to`.
fn merge_diff(from: &Value, to: &Value) -> Value {
    match (from, to) {
        (Value::Object(a), Value::Object(b)) => {
            let mut patch = Map::new();
            for k in a.keys() {
                if !b.contains_key(k) {
                    patch.insert(k.clone(), Value::Null);
                }
            }
            for (k, v) in b {
                match a.get(k) {
                    Some(old) if old == v => {}
                    Some(old) if old.is_object() && v.is_object() => {
                        patch.insert(k.clone(), merge_diff(old, v));
                    }
                    _ => {
                        patch.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(patch)
        }
        _ => to.clone(),
    }
}

/// RFC 7386: applies `patch` to `target`.
fn merge_apply(target: &mut Value, patch: &Value) {
    let Value::Object(p) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    let t = target.as_object_mut().unwrap();
    for (k, v) in p {
        if v.is_null() {
            t.remove(k);
        } else {
            merge_apply(t.entry(k.clone()).or_insert(Value::Null), v);
        }
    }
}

/// The pairs of the table that are not a provider's own host.
fn pairs() -> Vec<(Host, Provider)> {
    let table = hosts::json();
    let mut out = Vec::new();
    for row in table["rows"].as_array().unwrap() {
        let host: Host = row["host"].as_str().unwrap().parse().unwrap();
        for p in row["providers"].as_array().unwrap() {
            let provider: Provider = p.as_str().unwrap().parse().unwrap();
            if Host::of(provider) != Some(host) {
                out.push((host, provider));
            }
        }
    }
    out
}

/// The `hosts.json` of one case, and what fails validation.
fn host_golden(dir: &Path) -> (Value, Vec<String>) {
    let mut entries = Map::new();
    let mut problems = Vec::new();
    for (host, provider) in pairs() {
        let (wire, _) = rendered(dir, provider, None);
        let (hosted, options) = rendered(dir, provider, Some(host));
        let key = format!("{host}/{provider}");
        // every hosted body is validated for its host, also one the host leaves as it is
        if let (Some(o), Some(body)) = (&options, hosted.get("body")) {
            for v in validate_request_for_host(provider, host, &o.model, body) {
                problems.push(format!("{key}: {} at {}: {}", v.rule, v.path, v.message));
            }
        }
        if wire == hosted {
            continue;
        }
        let entry = match (&wire.get("body"), &hosted.get("body")) {
            (Some(wire_body), Some(body)) => {
                let patch = merge_diff(wire_body, body);
                let mut patched = (*wire_body).clone();
                merge_apply(&mut patched, &patch);
                assert_eq!(
                    &&patched, body,
                    "{key}: the merge patch does not give the body"
                );
                let mut e = json!({"bodyPatch": patch});
                if wire["headers"] != hosted["headers"] {
                    e["headers"] = hosted["headers"].clone();
                }
                if wire["diagnostics"] != hosted["diagnostics"] {
                    e["diagnostics"] = hosted["diagnostics"].clone();
                }
                e
            }
            _ => hosted,
        };
        entries.insert(key, entry);
    }
    (Value::Object(entries), problems)
}

#[test]
fn host_goldens_match_for_every_case() {
    let bless = std::env::var_os("TURNWIRE_BLESS").is_some();
    let mut failures = Vec::new();
    for dir in cases() {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        let (value, problems) = host_golden(&dir);
        failures.extend(problems.into_iter().map(|p| format!("{case}: {p}")));
        let text = serde_json::to_string_pretty(&value).unwrap() + "\n";
        let path = dir.join("hosts.json");
        if bless {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == text => {}
            Ok(_) => failures.push(format!(
                "{case}: hosts.json differs (re-bless with TURNWIRE_BLESS=1 if intended)"
            )),
            Err(_) => failures.push(format!("{case}: missing {}", path.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn host_goldens_merge_patch_round_trips() {
    let a =
        json!({"model": "m", "max_tokens": 1, "thinking": {"type": "enabled", "budget_tokens": 2}});
    let b = json!({"max_tokens": 1, "anthropic_version": "v", "thinking": {"type": "enabled"}});
    let p = merge_diff(&a, &b);
    assert_eq!(
        p,
        json!({"model": null, "anthropic_version": "v", "thinking": {"budget_tokens": null}})
    );
    let mut c = a.clone();
    merge_apply(&mut c, &p);
    assert_eq!(c, b);
}
