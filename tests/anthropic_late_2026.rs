//! Issue 31, Anthropic's shapes of late 2026: headers the body depends on (ANT-42),
//! mid-conversation system messages (ANT-25), refusal fallback blocks (ANT-43), server-side
//! compaction and context editing (ANT-44, ANT-46), forced tool choice on Fable 5.1 / Mythos
//! 5.1 (ANT-45), citations (ANT-47). Each test is named after the rule it proves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{
    render, render_body, validate_request_for_model, Conversation, DiagnosticCode, Provider,
    RenderOptions, Transcript,
};

fn transcript(v: Value) -> Transcript {
    Transcript::from_value(&v).unwrap()
}

fn hi() -> Transcript {
    transcript(json!([{"speaker": "human", "blocks": [{"type": "text", "text": "plan it"}]}]))
}

fn options(model: &str) -> RenderOptions {
    RenderOptions::new(Provider::Anthropic, model)
}

fn codes(r: &turnwire::Rendered) -> Vec<&'static str> {
    r.diagnostics.iter().map(|d| d.code.as_str()).collect()
}

#[track_caller]
fn assert_valid(model: &str, body: &Value) {
    let v = validate_request_for_model(Provider::Anthropic, model, body);
    assert!(v.is_empty(), "{v:?}\n{body:#}");
}

#[test]
fn ant_42_betas_and_user_profile_id_go_in_headers_not_the_body() {
    let mut o = options("claude-opus-5");
    o.provider_options = json!({"anthropic": {"betas": ["context-management-2025-06-27", "fast-mode-2026-02-01"], "top_k": 4}})
        .as_object()
        .unwrap()
        .clone();
    o.extra = json!({"user_profile_id": "up_01", "workspace_id": "wrkspc_01"})
        .as_object()
        .unwrap()
        .clone();
    let r = render(&hi(), &o).unwrap();
    for k in ["betas", "user_profile_id", "workspace_id"] {
        assert!(r.body.get(k).is_none(), "{k} left in the body");
    }
    assert_eq!(r.body["top_k"], 4);
    assert_eq!(
        r.headers.0,
        [
            (
                "anthropic-beta",
                "context-management-2025-06-27,fast-mode-2026-02-01"
            ),
            ("anthropic-user-profile-id", "up_01"),
            ("anthropic-workspace-id", "wrkspc_01"),
        ]
        .map(|(h, v)| (h.to_string(), v.to_string()))
    );
    assert_eq!(
        codes(&r)
            .iter()
            .filter(|c| **c == "header_param_moved")
            .count(),
        3
    );
    assert_eq!(
        r.to_value()["headers"]["anthropic-user-profile-id"],
        "up_01"
    );
    assert_valid("claude-opus-5", &r.body);
    // no header params: no headers member at all
    let plain = render(&hi(), &options("claude-opus-5")).unwrap();
    assert!(plain.headers.is_empty());
    assert!(plain.to_value().get("headers").is_none());
    // the same for another provider: `betas` is an ordinary extra field there
    let mut chat = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    chat.extra = json!({"betas": ["x"]}).as_object().unwrap().clone();
    let r = render(&hi(), &chat).unwrap();
    assert_eq!(r.body["betas"], json!(["x"]));
    assert!(r.headers.is_empty());
}

#[test]
fn ant_42_a_conversation_reports_the_same_headers_as_a_full_render() {
    let mut o = options("claude-opus-5");
    o.provider_options = json!({"anthropic": {"betas": "fast-mode-2026-02-01"}})
        .as_object()
        .unwrap()
        .clone();
    let mut convo = Conversation::new();
    for k in 0..6 {
        let speaker = if k % 2 == 0 { "human" } else { "ai" };
        convo
            .append_value(&json!({"speaker": speaker, "blocks": [{"type": "text", "text": format!("turn {k}")}]}))
            .unwrap();
        if speaker == "human" {
            let got = convo.render(&o).unwrap();
            let full = render(convo.transcript(), &o).unwrap();
            assert_eq!(got.headers, full.headers, "turn {k}");
            assert_eq!(
                convo.render_body(&o).unwrap(),
                render_body(convo.transcript(), &o).unwrap()
            );
        }
    }
    assert_eq!(
        render(convo.transcript(), &o)
            .unwrap()
            .headers
            .get("anthropic-beta"),
        Some("fast-mode-2026-02-01")
    );
}

#[test]
fn diagnostic_codes_of_issue_31_are_stable() {
    assert_eq!(
        DiagnosticCode::HeaderParamMoved.as_str(),
        "header_param_moved"
    );
    assert_eq!(DiagnosticCode::SystemMoved.as_str(), "system_moved");
}
