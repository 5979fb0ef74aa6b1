//! Focused tests of the OpenAI Responses adapter: reasoning replay, call/output pairing with
//! projected ids, media in outputs, request-level fields and system placement.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::{
    render, validate_request, DiagnosticCode, Provider, RenderOptions, Rendered, ThinkingOptions,
    Transcript,
};

const PNG: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

fn render_for(t: Value, o: &RenderOptions) -> Rendered {
    let out = render(&Transcript::from_value(&t).unwrap(), o).unwrap();
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![],
        "{:#}",
        out.body
    );
    out
}

fn options(model: &str) -> RenderOptions {
    RenderOptions::new(Provider::OpenAiResponses, model)
}

fn items(out: &Rendered) -> &Vec<Value> {
    out.body["input"].as_array().unwrap()
}

fn types(out: &Rendered) -> Vec<&str> {
    items(out)
        .iter()
        .map(|i| i["type"].as_str().unwrap())
        .collect()
}

/// A gpt-5.2 turn with a reasoning item (encrypted), a call, its result, and a follow-up.
fn gpt_tool_turn() -> Value {
    json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list the repo"}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "api": "responses", "model": "gpt-5.2"},
         "blocks": [
            {"type": "thinking", "thought": "List first.", "reasoningId": "rs_0a1b", "encryptedContent": "gAAAAABo-opaque"},
            {"type": "tool_call", "id": "call_Ls01", "name": "list_dir", "parameters": {"path": "."}}
         ]},
        {"speaker": "tool", "blocks": [{"type": "tool_response", "callId": "call_Ls01", "toolName": "list_dir", "result": ["src"]}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and src?"}]}
    ])
}

#[test]
fn reasoning_item_is_replayed_for_the_same_model_right_before_its_call() {
    let out = render_for(gpt_tool_turn(), &options("gpt-5.2"));
    assert_eq!(
        types(&out),
        [
            "message",
            "reasoning",
            "function_call",
            "function_call_output",
            "message"
        ]
    );
    assert_eq!(
        items(&out)[1],
        json!({"type": "reasoning",
               "summary": [{"type": "summary_text", "text": "List first."}],
               "encrypted_content": "gAAAAABo-opaque"})
    );
    assert_eq!(items(&out)[2]["call_id"], "call_Ls01");
    // a reasoning item in input needs its encrypted content back on the next turn
    assert_eq!(out.body["include"], json!(["reasoning.encrypted_content"]));

    // another model cannot decrypt it: left out, and said so
    let other = render_for(gpt_tool_turn(), &options("gpt-5-mini"));
    assert_eq!(
        types(&other),
        [
            "message",
            "function_call",
            "function_call_output",
            "message"
        ]
    );
    assert!(other
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ThinkingDropped));
    assert!(other.body.get("include").is_none());
}

#[test]
fn calls_and_outputs_pair_by_projected_call_ids_and_never_carry_fc_ids() {
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "gather inputs"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "functions.read_file:0", "name": "read_file", "parameters": {"path": "a"}},
            {"type": "tool_call", "id": "fc_67f1a2b3c4d5|call_Zq8XyWvU", "name": "read_file", "parameters": {"path": "b"}},
            {"type": "tool_call", "id": "toolu_vrtx_01KKabcDEF", "name": "fs.stat", "parameters": "a"}
        ]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "functions.read_file:0", "result": "A"},
            {"type": "tool_response", "callId": "fc_67f1a2b3c4d5|call_Zq8XyWvU", "result": "B"},
            {"type": "tool_response", "callId": "toolu_vrtx_01KKabcDEF", "result": {"size": 1}}
        ]}
    ]);
    let out = render_for(t, &options("gpt-5.2"));
    let calls: Vec<&Value> = items(&out)
        .iter()
        .filter(|i| i["type"] == "function_call")
        .collect();
    let outputs: Vec<&Value> = items(&out)
        .iter()
        .filter(|i| i["type"] == "function_call_output")
        .collect();
    assert_eq!((calls.len(), outputs.len()), (3, 3));
    for (c, o) in calls.iter().zip(&outputs) {
        let id = c["call_id"].as_str().unwrap();
        assert!(
            id.starts_with("call_") && id.len() <= 64,
            "{id} is a Responses call id"
        );
        assert_eq!(o["call_id"], id, "output pairs with its call");
        assert!(c.get("id").is_none(), "no item id on replayed calls");
        assert!(serde_json::from_str::<Value>(c["arguments"].as_str().unwrap()).is_ok());
    }
    assert_eq!(
        out.id_map.get("toolu_vrtx_01KKabcDEF"),
        calls[2]["call_id"].as_str()
    );
    assert_eq!(calls[2]["name"], "fs_stat");
    assert_eq!(outputs[2]["output"], r#"{"size":1}"#);
    assert!(!out.body.to_string().contains("\"fc_"), "{}", out.body);
}

#[test]
fn media_returned_by_a_tool_stays_in_its_function_call_output() {
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "screenshot it"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "toolu_01Shot", "name": "screenshot", "parameters": {}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "toolu_01Shot", "toolName": "screenshot", "result": "captured"},
            {"type": "media", "mimeType": "image/png", "data": PNG, "encoding": "base64", "caption": "viewport 1280x800"},
            {"type": "media", "mimeType": "application/pdf", "data": "JVBERi0xLjQK", "encoding": "base64", "filename": "report.pdf"}
        ]}
    ]);
    let out = render_for(t, &options("gpt-5.2"));
    let output = items(&out)
        .iter()
        .find(|i| i["type"] == "function_call_output")
        .unwrap();
    assert_eq!(
        output["output"],
        json!([
            {"type": "input_text", "text": "captured\n\nviewport 1280x800"},
            {"type": "input_image", "image_url": format!("data:image/png;base64,{PNG}"), "detail": "auto"},
            {"type": "input_file", "filename": "report.pdf", "file_data": "data:application/pdf;base64,JVBERi0xLjQK"}
        ])
    );
    // nothing moved to a user message
    assert_eq!(types(&out).last(), Some(&"function_call_output"));
    assert!(out
        .diagnostics
        .iter()
        .all(|d| d.code != DiagnosticCode::MediaMoved));
}

#[test]
fn requests_are_stateless_and_ask_for_encrypted_reasoning_when_thinking() {
    let t = json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]);
    let mut o = options("gpt-5.2");
    o.max_tokens = Some(1000);
    o.temperature = Some(0.5);
    o.extra.insert("store".into(), json!(true));
    let e = render(&Transcript::from_value(&t).unwrap(), &o).unwrap_err();
    assert_eq!(e.path(), "$.extra.store", "extra may not set store");
    o.extra.remove("store");
    o.extra.insert("stream".into(), json!(true));
    let plain = render_for(t.clone(), &o);
    assert_eq!(plain.body["store"], false);
    assert!(plain.body.get("reasoning").is_none());
    assert!(plain.body.get("include").is_none());
    let keys: Vec<&str> = plain
        .body
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        ["model", "input", "store", "max_output_tokens", "stream"]
    );

    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: Some("high".into()),
        summary: None,
    });
    let thinking = render_for(t.clone(), &o);
    assert_eq!(
        thinking.body["reasoning"],
        json!({"effort": "high", "summary": "auto"})
    );
    assert_eq!(
        thinking.body["include"],
        json!(["reasoning.encrypted_content"])
    );
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        ..Default::default()
    });
    assert_eq!(render_for(t, &o).body["reasoning"]["effort"], "medium");
}

#[test]
fn leading_system_goes_to_instructions_and_later_ones_stay_in_place_as_developer() {
    let t = json!([
        {"speaker": "system", "blocks": [{"type": "text", "text": "Be careful."}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "what is cargo check?"}]},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "A type check."}]},
        {"speaker": "system", "blocks": [{"type": "text", "text": "Verbose mode on."}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "and clippy?"}]}
    ]);
    let mut o = options("gpt-5.2");
    o.system = Some("You are a coding agent.".into());
    let out = render_for(t, &o);
    assert_eq!(
        out.body["instructions"],
        "You are a coding agent.\n\nBe careful."
    );
    assert_eq!(
        items(&out)[2],
        json!({"type": "message", "role": "developer", "content": "Verbose mode on."})
    );
    assert_eq!(
        items(&out)[1],
        json!({"type": "message", "role": "assistant", "content": "A type check."})
    );
    assert!(out
        .diagnostics
        .iter()
        .all(|d| d.code != DiagnosticCode::SystemHoisted));
}

#[test]
fn assistant_blocks_become_items_in_block_order() {
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "go"}]},
        {"speaker": "ai", "metadata": {"provider": "openai", "api": "responses", "model": "gpt-5.2"},
         "blocks": [
            {"type": "thinking", "thought": "", "reasoningId": "rs_1", "encryptedContent": "gAAA-1"},
            {"type": "text", "text": "First,"},
            {"type": "code", "language": "sh", "code": "ls"},
            {"type": "tool_call", "id": "call_A", "name": "ls", "parameters": {}},
            {"type": "tool_call", "id": "call_B", "name": "ls", "parameters": {"all": true}}
         ]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "call_A", "result": "a"},
            {"type": "tool_response", "callId": "call_B", "result": "b"}
        ]}
    ]);
    let out = render_for(t, &options("gpt-5.2"));
    assert_eq!(
        types(&out),
        [
            "message",
            "reasoning",
            "message",
            "function_call",
            "function_call",
            "function_call_output",
            "function_call_output"
        ]
    );
    // an empty thought is an empty summary; the encrypted content carries the reasoning
    assert_eq!(items(&out)[1]["summary"], json!([]));
    assert_eq!(items(&out)[1]["encrypted_content"], "gAAA-1");
    // one run of text is one message, its content a string (the SDK's input message form)
    assert_eq!(items(&out)[2]["content"], json!("First,\n\n```sh\nls\n```"));
}

/// ORS-12: the same provenance-carrying turn pasted twice (its reasoning item id and all)
/// renders as id-less items, so no item id can collide.
#[test]
fn ors_12_pasted_duplicate_turn_renders_without_colliding_ids() {
    let turn = json!({"speaker": "ai", "metadata": {"provider": "openai", "api": "responses", "model": "gpt-5.2"},
    "blocks": [
        {"type": "thinking", "thought": "Greet.", "reasoningId": "rs_0a1b", "encryptedContent": "gAAAAABo-opaque"},
        {"type": "text", "text": "Hello!"}
    ]});
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]},
        turn,
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi again"}]},
        turn,
        {"speaker": "human", "blocks": [{"type": "text", "text": "and?"}]}
    ]);
    let out = render_for(t, &options("gpt-5.2"));
    assert!(items(&out).iter().all(|i| i.get("id").is_none()));
    // both copies are sent: nothing is dropped
    assert_eq!(
        types(&out),
        [
            "message",
            "reasoning",
            "message",
            "message",
            "reasoning",
            "message",
            "message"
        ]
    );
}

/// A Codex history (gpt-5.5 via Responses): commentary, an `apply_patch_call`, a `shell_call`, a
/// custom tool call and a program, each with its output, then the final answer.
fn codex_input() -> Value {
    json!([
        {"role": "user", "content": "fix the failing test"},
        {"type": "message", "role": "assistant", "phase": "commentary", "id": "msg_01",
         "content": [{"type": "output_text", "text": "Patching the test."}]},
        {"type": "apply_patch_call", "id": "apc_01", "call_id": "call_p1", "status": "completed",
         "operation": {"type": "update_file", "path": "src/lib.rs", "diff": "@@\n-a\n+b\n"}},
        {"type": "apply_patch_call_output", "id": "apco_01", "call_id": "call_p1", "status": "completed", "output": "Done"},
        {"type": "shell_call", "id": "sh_01", "call_id": "call_s1", "status": "completed",
         "caller": {"type": "direct"},
         "action": {"commands": ["cargo test"], "timeout_ms": 60000}},
        {"type": "shell_call_output", "call_id": "call_s1", "max_output_length": 4096,
         "output": [{"stdout": "ok", "stderr": "", "outcome": {"type": "exit", "exit_code": 0}}]},
        {"type": "custom_tool_call", "id": "fc_wrong_prefix", "call_id": "call_c1", "name": "grep",
         "namespace": "fs", "input": "fn main"},
        {"type": "custom_tool_call_output", "call_id": "call_c1", "output": "src/main.rs:1"},
        {"type": "program", "id": "prog_01", "call_id": "call_g1", "code": "await tools.grep('x')", "fingerprint": "fp_9"},
        {"type": "program_output", "id": "progo_01", "call_id": "call_g1", "result": "[]", "status": "completed"},
        {"type": "local_shell_call", "id": "lsh_01", "call_id": "call_l1", "status": "completed",
         "action": {"type": "exec", "command": ["ls"], "env": {}}},
        {"type": "local_shell_call_output", "id": "call_l1", "output": "{\"stdout\":\"a\"}"},
        {"type": "message", "role": "assistant", "phase": "final_answer",
         "content": [{"type": "output_text", "text": "Fixed."}]},
        {"role": "user", "content": "thanks"}
    ])
}

fn codex_transcript() -> Transcript {
    turnwire::import::from_responses_input(
        &codex_input(),
        None,
        &turnwire::import::ImportSource::default(),
    )
    .unwrap()
    .transcript
}

#[test]
fn ors_18_phase_is_imported_and_resent_on_each_assistant_message() {
    let t = codex_transcript();
    let out = render(&t, &options("gpt-5.5")).unwrap();
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
    let messages: Vec<&Value> = items(&out)
        .iter()
        .filter(|i| i["role"] == "assistant")
        .collect();
    assert_eq!(
        messages,
        [
            &json!({"type": "message", "role": "assistant", "content": "Patching the test.", "phase": "commentary"}),
            &json!({"type": "message", "role": "assistant", "content": "Fixed.", "phase": "final_answer"})
        ]
    );
    // the JSON history keeps it
    let back = Transcript::from_json(&t.to_json()).unwrap();
    assert_eq!(back, t);
    assert!(t.to_json().contains(r#""phase":"commentary""#));
}

#[test]
fn ors_18_phase_means_nothing_to_other_providers_and_is_left_out_with_a_diagnostic() {
    let t = codex_transcript();
    for p in [Provider::Anthropic, Provider::Gemini, Provider::OpenAiChat] {
        let out = render(&t, &RenderOptions::new(p, p.reference_model())).unwrap();
        assert!(
            !out.body.to_string().contains("commentary"),
            "{p}: {}",
            out.body
        );
        assert!(
            out.diagnostics
                .iter()
                .any(|d| d.code == DiagnosticCode::ContinuityDropped
                    && d.message.contains("openai_phase")),
            "{p}: {:?}",
            out.diagnostics
        );
    }
}

#[test]
fn ors_19_codex_client_tool_items_come_back_as_the_same_items_without_their_ids() {
    let out = render(&codex_transcript(), &options("gpt-5.5")).unwrap();
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
    let tools: Vec<Value> = items(&out)
        .iter()
        .filter(|i| i["type"] != "message")
        .cloned()
        .collect();
    // every item as it was read, but the optional item ids (ORS-05/07/12: never replayed)
    let mut want: Vec<Value> = codex_input()
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i.get("type").is_some_and(|t| t != "message"))
        .cloned()
        .collect();
    for w in &mut want {
        let t = w["type"].as_str().unwrap().to_string();
        if !matches!(
            t.as_str(),
            "local_shell_call" | "local_shell_call_output" | "program" | "program_output"
        ) {
            w.as_object_mut().unwrap().remove("id");
        }
    }
    assert_eq!(tools.len(), want.len(), "{:#}", out.body);
    for (got, want) in tools.iter().zip(&want) {
        assert_eq!(got, want);
    }
    assert!(!out.body.to_string().contains("fc_wrong_prefix"));
}

#[test]
fn ors_19_codex_edits_and_shell_calls_reach_claude_and_gemini_as_tool_calls() {
    let t = codex_transcript();
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.tools =
        serde_json::from_value(json!([{"name": "read_file", "parameters": {"type": "object"}}]))
            .unwrap();
    let out = render(&t, &o).unwrap();
    assert_eq!(validate_request(Provider::Anthropic, &out.body), vec![]);
    let body = out.body.to_string();
    for needle in [
        r#""name":"apply_patch""#,
        r#""operation":{"type":"update_file","path":"src/lib.rs","diff":"@@\n-a\n+b\n"}"#,
        r#""name":"shell""#,
        r#""commands":["cargo test"]"#,
        r#""input":{"input":"fn main"}"#,
        r#""code":"await tools.grep('x')""#,
    ] {
        assert!(body.contains(needle), "{needle} in {body}");
    }
    // the tools the history calls are declared on the target (declarations pass)
    let declared: Vec<&str> = out.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for name in ["apply_patch", "shell", "grep", "program", "local_shell"] {
        assert!(declared.contains(&name), "{name}: {declared:?}");
    }
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ContinuityDropped
            && d.message.contains("apply_patch_call")));
    let g = render(&t, &RenderOptions::new(Provider::Gemini, "gemini-2.5-pro")).unwrap();
    assert_eq!(validate_request(Provider::Gemini, &g.body), vec![]);
    assert!(
        g.body
            .to_string()
            .contains(r#""functionCall":{"name":"apply_patch","args":{"operation""#),
        "{}",
        g.body
    );
}

#[test]
fn ors_20_compaction_goes_back_to_the_same_endpoint_only() {
    let input = json!([
        {"type": "compaction", "id": "cmp_01", "encrypted_content": "gAAAAABcompacted"},
        {"role": "user", "content": "go on"}
    ]);
    let source = turnwire::import::ImportSource::default();
    let t = turnwire::import::from_responses_input(&input, None, &source)
        .unwrap()
        .transcript;
    let out = render(&t, &options("gpt-5.5")).unwrap();
    assert_eq!(
        validate_request(Provider::OpenAiResponses, &out.body),
        vec![]
    );
    assert_eq!(
        items(&out)[0],
        json!({"type": "compaction", "encrypted_content": "gAAAAABcompacted"})
    );
    let mut elsewhere = options("gpt-5.5");
    elsewhere.endpoint = Some("https://gateway.example/v1".into());
    let mut made_at = t.clone();
    made_at.messages[0]
        .metadata
        .get_or_insert_with(Default::default)
        .provenance
        .endpoint = Some("https://api.openai.com/v1".into());
    let out = render(&made_at, &elsewhere).unwrap();
    assert_eq!(types(&out), ["message"]);
    assert!(out
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ContinuityDropped && d.message.contains("compaction")));
    let claude = render(
        &t,
        &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"),
    )
    .unwrap();
    assert!(!claude.body.to_string().contains("gAAAAABcompacted"));
    assert!(claude
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ContinuityDropped && d.message.contains("compaction")));
}

/// ORS-20 / ORS-06 (issue 31, continuity keys): a compaction item and encrypted reasoning go
/// back only under the account that made them, when both sides name one (an unknown account
/// on either side: the provider and endpoint decide, as for Claude and Gemini tokens).
#[test]
fn ors_20_compaction_and_encrypted_reasoning_stay_with_their_account() {
    let input = json!([
        {"type": "compaction", "id": "cmp_01", "encrypted_content": "gAAAAABcompacted"},
        {"role": "user", "content": "go on"},
        {"type": "reasoning", "id": "rs_1", "encrypted_content": "gAAAAABreasoned", "summary": []},
        {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]},
        {"role": "user", "content": "thanks"}
    ]);
    let source = turnwire::import::ImportSource {
        model: Some("gpt-5.5".into()),
        account: Some("acme-prod".into()),
        ..Default::default()
    };
    let t = turnwire::import::from_responses_input(&input, None, &source)
        .unwrap()
        .transcript;
    let sent = |account: Option<&str>| {
        let mut o = options("gpt-5.5");
        o.account = account.map(str::to_string);
        let out = render(&t, &o).unwrap();
        assert_eq!(
            validate_request(Provider::OpenAiResponses, &out.body),
            vec![]
        );
        let body = out.body.to_string();
        let dropped = out
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ContinuityDropped)
            .count();
        (
            body.contains("gAAAAABcompacted"),
            body.contains("gAAAAABreasoned"),
            dropped,
        )
    };
    assert_eq!(sent(Some("acme-prod")), (true, true, 0));
    assert_eq!(sent(None), (true, true, 0));
    let (compaction, reasoning, dropped) = sent(Some("acme-staging"));
    assert_eq!((compaction, reasoning), (false, false));
    assert!(dropped >= 1);
}

#[test]
fn ors_21_an_imported_breakpoint_is_named_not_dropped_silently() {
    let input = json!([{"type": "message", "role": "user", "content": [
        {"type": "input_text", "text": "long prefix", "prompt_cache_breakpoint": {"mode": "explicit"}}]}]);
    let imported = turnwire::import::from_responses_input(
        &input,
        None,
        &turnwire::import::ImportSource::default(),
    )
    .unwrap();
    assert!(
        imported
            .diagnostics
            .iter()
            .any(|d| d.path.as_deref() == Some("$[0].content[0].prompt_cache_breakpoint")),
        "{:?}",
        imported.diagnostics
    );
}

#[test]
fn ors_19_a_client_tool_call_whose_arguments_were_edited_goes_as_a_function_call() {
    let t = json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "patch it"}]},
        {"speaker": "ai", "blocks": [
            {"type": "tool_call", "id": "call_p1", "name": "apply_patch", "parameters": {"path": "a.rs", "note": "edited"},
             "openaiItem": {"type": "apply_patch_call", "status": "completed"}},
            {"type": "tool_call", "id": "call_c1", "name": "grep", "parameters": {"pattern": "x"},
             "openaiItem": {"type": "custom_tool_call"}}
        ]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "call_p1", "result": "ok", "openaiItem": {"type": "apply_patch_call_output", "status": "completed"}},
            {"type": "tool_response", "callId": "call_c1", "result": "a.rs"}
        ]}
    ]);
    let out = render_for(t, &options("gpt-5.5"));
    assert_eq!(
        types(&out),
        [
            "message",
            "function_call",
            "custom_tool_call",
            "function_call_output",
            "custom_tool_call_output"
        ]
    );
    assert_eq!(
        items(&out)[1]["arguments"],
        r#"{"path":"a.rs","note":"edited"}"#
    );
    assert_eq!(items(&out)[2]["input"], r#"{"pattern":"x"}"#);
}
