//! Issue 31, "restarting tool ids": clients that number calls per turn (`exec_0`, `exec_1` in
//! every turn, as some Kimi clients write them) must not lose real results to deduplication or
//! pair a result with another turn's call — however the results are stored.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{render, Conversation, Provider, RenderOptions, Transcript};

fn call(id: &str, path: &str) -> Value {
    json!({"type": "tool_call", "id": id, "name": "read", "parameters": {"p": path}})
}
fn result(id: &str, text: &str) -> Value {
    json!({"type": "tool_response", "callId": id, "toolName": "read", "result": text})
}
fn say(speaker: &str, text: &str) -> Value {
    json!({"speaker": speaker, "blocks": [{"type": "text", "text": text}]})
}

/// Two turns, each calling `exec_0` on `a`/`c` and `exec_1` on `b`/`d`, results `A`…`D`.
fn histories() -> Vec<(&'static str, Value)> {
    let t1 = json!({"speaker": "ai", "blocks": [call("exec_0", "a"), call("exec_1", "b")]});
    let r1 = json!({"speaker": "tool", "blocks": [result("exec_0", "A"), result("exec_1", "B")]});
    let t2 = json!({"speaker": "ai", "blocks": [call("exec_0", "c"), call("exec_1", "d")]});
    let r2 = json!({"speaker": "tool", "blocks": [result("exec_0", "C"), result("exec_1", "D")]});
    let together = json!({"speaker": "tool", "blocks": [
        result("exec_0", "A"), result("exec_1", "B"), result("exec_0", "C"), result("exec_1", "D")]});
    vec![
        (
            "each turn's results after its calls",
            json!([
                say("human", "a, b"),
                t1,
                r1,
                say("ai", "done"),
                say("human", "c, d"),
                t2,
                r2
            ]),
        ),
        (
            "the second batch right after the first",
            json!([say("human", "a, b"), t1, r1, t2, r2]),
        ),
        (
            "every result stored together at the end",
            json!([
                say("human", "a, b"),
                t1,
                say("ai", "done"),
                say("human", "c, d"),
                t2,
                together
            ]),
        ),
    ]
}

/// (the path each call reads, the result its answer carries), in body order.
fn pairs(provider: Provider, body: &Value) -> Vec<(String, String)> {
    let mut calls: Vec<(String, String)> = Vec::new();
    let mut results: Vec<(String, String)> = Vec::new();
    for m in body["messages"].as_array().unwrap() {
        match provider {
            Provider::Anthropic => {
                for b in m["content"].as_array().into_iter().flatten() {
                    match b["type"].as_str() {
                        Some("tool_use") => calls.push((
                            b["id"].as_str().unwrap().into(),
                            b["input"]["p"].as_str().unwrap().into(),
                        )),
                        Some("tool_result") => results.push((
                            b["tool_use_id"].as_str().unwrap().into(),
                            b["content"].as_str().unwrap().into(),
                        )),
                        _ => {}
                    }
                }
            }
            _ => {
                for c in m["tool_calls"].as_array().into_iter().flatten() {
                    let args: Value =
                        serde_json::from_str(c["function"]["arguments"].as_str().unwrap()).unwrap();
                    calls.push((
                        c["id"].as_str().unwrap().into(),
                        args["p"].as_str().unwrap().into(),
                    ));
                }
                if m["role"] == "tool" {
                    results.push((
                        m["tool_call_id"].as_str().unwrap().into(),
                        m["content"].as_str().unwrap().into(),
                    ));
                }
            }
        }
    }
    calls
        .into_iter()
        .map(|(id, p)| {
            let r = results
                .iter()
                .find(|(rid, _)| *rid == id)
                .map(|(_, r)| r.clone())
                .unwrap_or_default();
            (p, r)
        })
        .collect()
}

#[test]
fn restarting_ids_every_result_answers_its_own_call() {
    let want: Vec<(String, String)> = [("a", "A"), ("b", "B"), ("c", "C"), ("d", "D")]
        .map(|(p, r)| (p.into(), r.into()))
        .to_vec();
    for (case, history) in histories() {
        let t = Transcript::from_value(&history).unwrap();
        for (provider, model) in [
            (Provider::Kimi, "kimi-k2.5"),
            (Provider::Anthropic, "claude-sonnet-4-5"),
        ] {
            let mut o = RenderOptions::new(provider, model);
            o.max_tokens = Some(1000);
            let r = render(&t, &o).unwrap();
            assert_eq!(pairs(provider, &r.body), want, "{case}, {provider}");
            let lost: Vec<_> = r
                .diagnostics
                .iter()
                .filter(|d| {
                    matches!(
                        d.code.as_str(),
                        "duplicate_result_dropped"
                            | "synthetic_result_added"
                            | "orphan_result_dropped"
                    )
                })
                .collect();
            assert!(lost.is_empty(), "{case}, {provider}: {lost:?}");
            let mut c = Conversation::new();
            for m in t.messages.clone() {
                c.append(m);
            }
            assert_eq!(
                c.render(&o).unwrap().body,
                r.body,
                "{case}, {provider}: incremental"
            );
        }
    }
}
