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
    // the same for another provider: `betas` is an ordinary extra field for a compatible
    // server (OpenAI's own Chat Completions refuses it, OAC-30)
    let mut chat = RenderOptions::new(Provider::OpenAiCompatible, "some-model");
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
        json!([{"type": "text", "text": "one\n\ntwo"}])
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

fn fallback_turn() -> Value {
    json!([
        say("human", "write the exploit"),
        {"speaker": "ai", "metadata": {"provider": "anthropic", "model": "claude-fable-5-1"}, "blocks": [
            {"type": "server_tool", "provider": "anthropic", "phase": "call",
             "wire": {"type": "fallback", "from": {"model": "claude-fable-5-1"}, "to": {"model": "claude-opus-5"}, "trigger": {"type": "refusal", "category": "cyber"}}},
            {"type": "text", "text": "I can explain the vulnerability class instead."}
        ]},
        say("human", "ok"),
    ])
}

#[test]
fn ant_43_fallback_blocks_stay_in_place_for_anthropic_and_are_left_out_elsewhere() {
    let t = transcript(fallback_turn());
    let r = render(&t, &options("claude-fable-5-1")).unwrap();
    assert_eq!(
        r.body["messages"][1]["content"][0],
        json!({"type": "fallback", "from": {"model": "claude-fable-5-1"}, "to": {"model": "claude-opus-5"}, "trigger": {"type": "refusal", "category": "cyber"}})
    );
    assert_eq!(r.body["messages"][1]["content"][1]["type"], "text");
    assert_eq!(
        r.headers.get("anthropic-beta"),
        Some("server-side-fallback-2026-07-01")
    );
    assert!(codes(&r).is_empty(), "{:?}", r.diagnostics);
    assert_valid("claude-fable-5-1", &r.body);
    let chat = render(&t, &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2")).unwrap();
    assert_eq!(
        chat.body["messages"][1]["content"],
        "I can explain the vulnerability class instead."
    );
    assert_eq!(codes(&chat), ["block_omitted"]);
    assert!(chat.headers.is_empty());
}

#[test]
fn ant_44_compaction_blocks_replay_content_never_encrypted_content_and_skip_failed_ones() {
    let t = transcript(json!([
        say("human", "go on"),
        {"speaker": "ai", "blocks": [
            {"type": "server_tool", "provider": "anthropic", "phase": "call",
             "wire": {"type": "compaction", "content": "We fixed the build.", "encrypted_content": "opaque"}},
            {"type": "server_tool", "provider": "anthropic", "phase": "call",
             "wire": {"type": "compaction", "content": null, "encrypted_content": null}},
            {"type": "text", "text": "Continuing."}
        ]},
        say("human", "next"),
    ]));
    let r = render(&t, &options("claude-opus-5")).unwrap();
    assert_eq!(
        r.body["messages"][1]["content"],
        json!([{"type": "compaction", "content": "We fixed the build."}, {"type": "text", "text": "Continuing."}])
    );
    assert_eq!(codes(&r), ["continuity_dropped", "block_omitted"]);
    assert_eq!(r.headers.get("anthropic-beta"), Some("compact-2026-01-12"));
    assert_valid("claude-opus-5", &r.body);
    let gem = render(
        &t,
        &RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview"),
    )
    .unwrap();
    assert_eq!(
        gem.body["contents"][1]["parts"][0]["text"],
        "We fixed the build."
    );
    assert_eq!(codes(&gem), ["server_tool_as_text", "block_omitted"]);
}

#[test]
fn ant_43_refusal_stop_details_credit_token_and_fallback_provenance_are_decoded() {
    use turnwire::stream::{StopReason, StreamDecoder, StreamOptions};
    let events = [
        json!({"type": "message_start", "message": {"id": "msg_1", "model": "claude-fable-5-1", "content": [], "usage": {"input_tokens": 10},
            "input_transformations": [{"type": "thinking_dropped", "path": "messages.1.content.0", "reason": "prefix_binding_mismatch"}, {"type": "from_the_future"}]}}),
        json!({"type": "content_block_start", "index": 0, "content_block": {"type": "fallback", "from": {"model": "claude-fable-5-1"}, "to": {"model": "claude-opus-5"}, "trigger": {"type": "refusal", "category": "cyber"}}}),
        json!({"type": "content_block_stop", "index": 0}),
        json!({"type": "content_block_start", "index": 1, "content_block": {"type": "thinking", "thinking": "", "signature": ""}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "thinking_delta", "thinking": "hm"}}),
        json!({"type": "content_block_delta", "index": 1, "delta": {"type": "signature_delta", "signature": "sig"}}),
        json!({"type": "content_block_stop", "index": 1}),
        json!({"type": "content_block_start", "index": 2, "content_block": {"type": "compaction", "content": null, "encrypted_content": null}}),
        json!({"type": "content_block_delta", "index": 2, "delta": {"type": "compaction_delta", "content": "Summary.", "encrypted_content": "e"}}),
        json!({"type": "content_block_stop", "index": 2}),
        json!({"type": "message_delta", "delta": {"stop_reason": "refusal", "stop_details": {"type": "refusal", "category": "cyber", "explanation": null, "fallback_credit_token": "fct_1", "fallback_has_prefill_claim": true, "recommended_model": "claude-opus-5"}},
            "usage": {"output_tokens": 3}, "input_transformations": []}),
        json!({"type": "message_stop"}),
    ];
    let mut d = StreamDecoder::new(
        Provider::Anthropic,
        StreamOptions::for_model("claude-fable-5-1"),
    );
    for e in &events {
        d.push(&e.to_string()).unwrap();
    }
    let out = d.finish();
    assert_eq!(out.stop_reason, StopReason::Refusal);
    let v = out.to_value();
    let meta = &v["message"]["metadata"];
    assert_eq!(meta["stopDetails"]["fallback_credit_token"], "fct_1");
    // the final message_delta's list replaces message_start's
    assert_eq!(meta["inputTransformations"], json!([]));
    let blocks = &v["message"]["blocks"];
    assert_eq!(blocks[0]["wire"]["type"], "fallback");
    assert_eq!(blocks[1]["provenance"]["model"], "claude-opus-5");
    assert_eq!(blocks[2]["wire"]["content"], "Summary.");
    // a whole (not streamed) answer gives the same facts
    let mut whole = StreamDecoder::new(
        Provider::Anthropic,
        StreamOptions::for_model("claude-fable-5-1"),
    );
    whole
        .push(&json!({"type": "message", "id": "msg_2", "model": "claude-fable-5-1", "content": [{"type": "text", "text": "no"}],
            "stop_reason": "refusal", "stop_details": {"type": "refusal", "category": null, "explanation": "x", "fallback_credit_token": "fct_2"},
            "input_transformations": [{"type": "thinking_mismatch_allowed", "path": "messages.1.content.0", "reason": "prefix_binding_mismatch"}]}).to_string())
        .unwrap();
    let v = whole.finish().to_value();
    assert_eq!(
        v["message"]["metadata"]["stopDetails"]["fallback_credit_token"],
        "fct_2"
    );
    assert_eq!(
        v["message"]["metadata"]["inputTransformations"][0]["type"],
        "thinking_mismatch_allowed"
    );
    assert_eq!(v["stopReason"], "refusal");
}

#[test]
fn ant_45_forced_tool_choice_is_sent_as_auto_to_fable_5_1_and_mythos_5_1() {
    let mut o = options("claude-fable-5-1");
    o.tools = vec![turnwire::ToolDeclaration::new(
        "run",
        "Run",
        json!({"type": "object"}),
    )];
    for choice in [json!("required"), json!({"name": "run"})] {
        o.tool_choice = Some(serde_json::from_value(choice.clone()).unwrap());
        for model in ["claude-fable-5-1", "claude-mythos-5-1-20260901"] {
            o.model = model.into();
            let r = render(&hi(), &o).unwrap();
            assert_eq!(
                r.body["tool_choice"],
                json!({"type": "auto"}),
                "{model} {choice}"
            );
            assert_eq!(codes(&r), ["tool_choice_lowered"], "{model}");
            assert_valid(model, &r.body);
        }
        // Fable 5 takes it
        o.model = "claude-fable-5".into();
        let r = render(&hi(), &o).unwrap();
        assert_ne!(r.body["tool_choice"]["type"], "auto");
    }
    let body = json!({"model": "claude-fable-5-1", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "run", "input_schema": {"type": "object"}}], "tool_choice": {"type": "any"}});
    let v = validate_request_for_model(Provider::Anthropic, "claude-fable-5-1", &body);
    assert!(
        v.iter().any(|v| v.rule == "ANT-45"
            && v.message
                == "tool_choice: type \"tool\" and \"any\" are not supported for this model."),
        "{v:?}"
    );
}

#[test]
fn ant_46_clear_thinking_edit_moves_first_and_is_left_out_with_thinking_off() {
    let mut o = options("claude-opus-5");
    o.provider_options = json!({"anthropic": {"thinking": {"type": "adaptive"}, "context_management": {"edits": [
        {"type": "clear_tool_uses_20250919"}, {"type": "clear_thinking_20251015", "keep": "all"}]}}})
    .as_object()
    .unwrap()
    .clone();
    let r = render(&hi(), &o).unwrap();
    assert_eq!(
        r.body["context_management"]["edits"][0]["type"],
        "clear_thinking_20251015"
    );
    assert_eq!(codes(&r), ["context_edits_reordered"]);
    assert_valid("claude-opus-5", &r.body);
    // a conversation reports it as a full render does
    let mut convo = Conversation::new();
    convo.append_value(&say("human", "hi")).unwrap();
    assert_eq!(
        convo.render(&o).unwrap().diagnostics,
        render(convo.transcript(), &o).unwrap().diagnostics
    );
    // thinking off: left out
    let mut off = options("claude-opus-5");
    off.provider_options = json!({"anthropic": {"context_management": {"edits": [{"type": "clear_thinking_20251015"}]}}})
        .as_object()
        .unwrap()
        .clone();
    let r = render(&hi(), &off).unwrap();
    assert_eq!(r.body["context_management"]["edits"], json!([]));
    assert_eq!(codes(&r), ["request_field_dropped"]);
    assert_valid("claude-opus-5", &r.body);
    // the validator's texts
    let body = json!({"model": "claude-opus-5", "max_tokens": 64, "messages": [{"role": "user", "content": "hi"}],
        "context_management": {"edits": [{"type": "clear_tool_uses_20250919"}, {"type": "clear_thinking_20251015"}]}});
    let v = validate_request_for_model(Provider::Anthropic, "claude-opus-5", &body);
    let texts: Vec<&str> = v
        .iter()
        .filter(|v| v.rule == "ANT-46")
        .map(|v| v.message.as_str())
        .collect();
    assert_eq!(
        texts,
        [
            "`clear_thinking_20251015` strategy requires `thinking` to be enabled or adaptive",
            "`clear_thinking_20251015` must be the first entry of `context_management.edits`"
        ]
    );
}

/// Regression (properties, issue 31): an assistant message merged into one holding a `fallback`
/// block stands after it on the wire, so its thinking is the `to` model's; the render drops it
/// as the render of the imported body does.
#[test]
fn ant_43_thinking_merged_after_a_fallback_block_is_judged_as_the_to_models() {
    let meta = json!({"provider": "anthropic", "model": "claude-sonnet-4-5"});
    let t = transcript(json!([
        say("human", "go"),
        {"speaker": "ai", "metadata": meta, "blocks": [
            {"type": "thinking", "thought": "t1", "signature": "sig1"},
            {"type": "server_tool", "provider": "anthropic", "phase": "call",
             "wire": {"type": "fallback", "from": {"model": "claude-sonnet-4-5"}, "to": {"model": "claude-opus-5"}}},
            {"type": "text", "text": "a"}]},
        {"speaker": "ai", "metadata": meta, "blocks": [
            {"type": "thinking", "thought": "t2", "signature": "sig2"},
            {"type": "text", "text": "b"}]},
        say("human", "next"),
    ]));
    let mut o = options("claude-sonnet-4-5");
    o.thinking =
        Some(serde_json::from_value(json!({"enabled": true, "budgetTokens": 2048})).unwrap());
    let r = render(&t, &o).unwrap();
    let kinds: Vec<&str> = r.body["messages"][1]["content"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["thinking", "fallback", "text", "text"]);
    assert_valid("claude-sonnet-4-5", &r.body);
    let imported = turnwire::import::from_request_body(
        Provider::Anthropic,
        &r.body,
        &turnwire::import::ImportSource::default(),
    )
    .unwrap();
    let again = render(&imported.transcript, &o).unwrap();
    assert_eq!(again.body["messages"], r.body["messages"]);
}
