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

fn say(speaker: &str, text: &str) -> Value {
    json!({"speaker": speaker, "blocks": [{"type": "text", "text": text}]})
}

#[test]
fn ant_25_system_messages_stay_in_place_for_models_that_take_them() {
    let t = transcript(json!([
        say("system", "be brief"),
        say("human", "hi"),
        say("ai", "hello"),
        say("human", "more"),
        say("system", "now verbose"),
    ]));
    for model in [
        "claude-opus-4-8",
        "claude-opus-5-5",
        "claude-fable-5-1",
        "claude-sonnet-5-5",
    ] {
        let r = render(&t, &options(model)).unwrap();
        assert_eq!(r.body["system"], "be brief", "{model}");
        assert_eq!(
            r.body["messages"][3],
            json!({"role": "system", "content": [{"type": "text", "text": "now verbose"}]}),
            "{model}"
        );
        assert!(codes(&r).is_empty(), "{model}: {:?}", codes(&r));
        assert_valid(model, &r.body);
    }
    // Sonnet 5 and older models: hoisted, as before
    for model in ["claude-sonnet-5", "claude-sonnet-4-5"] {
        let r = render(&t, &options(model)).unwrap();
        assert_eq!(r.body["system"], "be brief\n\nnow verbose", "{model}");
        assert_eq!(codes(&r), ["system_hoisted"], "{model}");
        assert_valid(model, &r.body);
    }
}

#[test]
fn ant_25_system_messages_move_before_the_next_assistant_message_or_merge() {
    let t = transcript(json!([
        say("human", "hi"),
        say("system", "one"),
        say("system", "two"),
        say("human", "still there?"),
        say("ai", "yes"),
        say("system", "after the assistant"),
        say("ai", "and more"),
        say("human", "ok"),
    ]));
    let r = render(&t, &options("claude-opus-5")).unwrap();
    let roles: Vec<&str> = r.body["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap())
        .collect();
    assert_eq!(roles, ["user", "system", "assistant", "user"]);
    assert_eq!(
        r.body["messages"][0]["content"].as_array().unwrap().len(),
        2
    );
    assert_eq!(
        r.body["messages"][1]["content"],
        json!([{"type": "text", "text": "one"}, {"type": "text", "text": "two"}])
    );
    assert_eq!(r.body["system"], "after the assistant");
    assert_eq!(
        codes(&r),
        [
            "system_moved",
            "system_moved",
            "system_hoisted",
            "messages_merged",
            "messages_merged"
        ]
    );
    assert_valid("claude-opus-5", &r.body);
}

#[test]
fn ant_25_a_system_message_between_a_call_and_its_result_does_not_open_the_call() {
    let t = transcript(json!([
        say("human", "run it"),
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "run", "parameters": {}}]},
        say("system", "be terse"),
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "c1", "result": "done"}]},
    ]));
    let mut o = options("claude-opus-4-8");
    o.tools = vec![turnwire::ToolDeclaration::new(
        "run",
        "Run",
        json!({"type": "object"}),
    )];
    let r = render(&t, &o).unwrap();
    assert!(codes(&r).is_empty(), "{:?}", r.diagnostics);
    assert_eq!(r.body["messages"][2]["content"][0]["type"], "tool_result");
    assert_eq!(r.body["messages"][2]["content"][0]["content"], "done");
    assert_eq!(r.body["messages"][3]["role"], "system");
    assert_valid("claude-opus-4-8", &r.body);
    // the model's call states agree: the call is answered
    let calls = turnwire::model::tool_calls(&t.messages);
    assert_eq!(calls[0].status, turnwire::model::ToolStatus::Complete);
}

#[test]
fn ant_25_a_conversation_places_system_messages_as_a_full_render_does() {
    let o = options("claude-opus-4-8");
    let steps = [
        say("human", "hi"),
        say("ai", "hello"),
        say("human", "one"),
        say("system", "s1"),
        say("human", "two"),
        say("ai", "reply"),
        say("system", "s2"),
        say("human", "three"),
        say("system", "s3"),
        say("system", "s4"),
        say("ai", "reply"),
        say("human", "four"),
    ];
    let mut convo = Conversation::new();
    for (k, m) in steps.iter().enumerate() {
        convo.append_value(m).unwrap();
        let full = render(convo.transcript(), &o).unwrap();
        let got = convo.render(&o).unwrap();
        assert_eq!(got.body, full.body, "step {k}");
        assert_eq!(got.diagnostics, full.diagnostics, "step {k}");
        assert_eq!(
            convo.render_body(&o).unwrap(),
            render_body(convo.transcript(), &o).unwrap(),
            "step {k}"
        );
        if k > 0 {
            assert_valid("claude-opus-4-8", &full.body);
        }
    }
}
