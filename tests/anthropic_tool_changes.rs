//! Issue 31, Anthropic's tool changes mid-conversation, deferred tools and tool search
//! (ANT-53, ANT-54): read, replayed in place, projected elsewhere. Each test is named after the
//! rule it proves.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::import::{from_request_body, ImportSource};
use turnwire::model::{Block, ToolChangeKind};
use turnwire::{
    render, render_body, validate_request_for_model, Conversation, DiagnosticCode, Provider,
    RenderOptions, ToolDeclaration, Transcript,
};

fn tool(name: &str, deferred: bool) -> ToolDeclaration {
    let mut t = ToolDeclaration::new(name, "a tool", json!({"type": "object"}));
    t.defer_loading = deferred.then_some(true);
    t
}

fn options(provider: Provider, model: &str, tools: &[(&str, bool)]) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.tools = tools.iter().map(|(n, d)| tool(n, *d)).collect();
    o
}

/// A history whose system message withdraws `deploy` and offers `rollback`, and whose tool
/// result loads `status`.
fn history() -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "deploy it"}]},
        {"speaker": "ai", "blocks": [{"type": "tool_call", "id": "c1", "name": "deploy", "parameters": {}}]},
        {"speaker": "tool", "blocks": [
            {"type": "tool_response", "callId": "c1", "toolName": "deploy", "result": "done"},
            {"type": "tool_change", "change": "add", "name": "status"}
        ]},
        {"speaker": "system", "blocks": [
            {"type": "tool_change", "change": "remove", "name": "deploy"},
            {"type": "tool_change", "change": "add", "name": "rollback"}
        ]},
        {"speaker": "ai", "blocks": [{"type": "text", "text": "Deployed."}]},
        {"speaker": "human", "blocks": [{"type": "text", "text": "thanks"}]}
    ]))
    .unwrap()
}

const TOOLS: [(&str, bool); 3] = [("deploy", false), ("rollback", true), ("status", true)];

fn names(body: &Value, key: &str, list: &str) -> Vec<String> {
    body[list]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t.pointer(key).and_then(Value::as_str).map(str::to_string))
        .collect()
}

#[test]
fn ant_53_tool_changes_replay_in_place_with_their_beta_header() {
    let o = options(Provider::Anthropic, "claude-opus-5", &TOOLS);
    let r = render(&history(), &o).unwrap();
    let system = &r.body["messages"][3];
    assert_eq!(system["role"], "system");
    assert_eq!(
        system["content"],
        json!([
            {"type": "tool_removal", "tool": {"type": "tool_reference", "name": "deploy"}},
            {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "rollback"}}
        ])
    );
    assert_eq!(
        r.body["messages"][2]["content"][0]["content"][1],
        json!({"type": "tool_reference", "tool_name": "status"})
    );
    assert_eq!(
        r.headers.get("anthropic-beta"),
        Some("mid-conversation-tool-changes-2026-07-01")
    );
    assert_eq!(r.body["tools"][1]["defer_loading"], true);
    assert!(r.diagnostics.is_empty(), "{:?}", r.diagnostics);
    let v = validate_request_for_model(Provider::Anthropic, "claude-opus-5", &r.body);
    assert!(v.is_empty(), "{v:?}");
}

#[test]
fn ant_53_other_targets_get_the_tools_in_force_at_the_end() {
    for p in Provider::ALL {
        let model = if p == Provider::Anthropic {
            "claude-sonnet-4-5"
        } else {
            "m"
        };
        let o = options(p, model, &TOOLS);
        let r = render(&history(), &o).unwrap();
        let projected = r
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ToolChangeProjected)
            .count();
        let text = r.body.to_string();
        assert!(
            !text.contains("tool_addition") && !text.contains("tool_removal"),
            "{p}"
        );
        // Anthropic, Gemini and Converse (BDR-03, BDR-12) need the called `deploy` declared; the
        // chat APIs do not
        let declared = match p {
            Provider::Gemini => names(&r.body["tools"][0], "/name", "functionDeclarations"),
            Provider::Anthropic | Provider::OpenAiResponses => names(&r.body, "/name", "tools"),
            Provider::BedrockConverse => names(&r.body["toolConfig"], "/toolSpec/name", "tools"),
            _ => names(&r.body, "/function/name", "tools"),
        };
        let keeps_deploy = matches!(
            p,
            Provider::Anthropic | Provider::Gemini | Provider::BedrockConverse
        );
        assert_eq!(
            declared.contains(&"deploy".to_string()),
            keeps_deploy,
            "{p}: {declared:?}"
        );
        assert!(declared.contains(&"rollback".to_string()), "{p}");
        // Anthropic keeps the tool result's `tool_reference` (GA); the others project it too;
        // where the removed `deploy` stays declared, a diagnostic says so
        let expected = match p {
            Provider::Anthropic => 2 + 1,
            Provider::Gemini | Provider::BedrockConverse => 3 + 1,
            _ => 3,
        };
        assert_eq!(projected, expected, "{p}: {:?}", r.diagnostics);
        let v = validate_request_for_model(p, model, &r.body);
        assert!(v.is_empty(), "{p}: {v:?}");
    }
}

#[test]
fn ant_53_a_change_naming_an_undeclared_tool_is_left_out_and_the_validator_flags_it() {
    let o = options(Provider::Anthropic, "claude-opus-5", &[("deploy", false)]);
    let r = render(&history(), &o).unwrap();
    let text = r.body.to_string();
    assert!(
        !text.contains("rollback") && !text.contains("\"status\""),
        "{text}"
    );
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::ToolChangeProjected && d.message.contains("ANT-53")));
    let mut body = r.body.clone();
    body["messages"][3]["content"][0]["tool"]["name"] = json!("nope");
    let v = validate_request_for_model(Provider::Anthropic, "claude-opus-5", &body);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(v[0].rule, "ANT-53");
    assert!(v[0].message.contains("tool_reference_unresolved"));
}

#[test]
fn ant_54_every_tool_deferred_is_sent_loaded() {
    let o = options(
        Provider::Anthropic,
        "claude-opus-5",
        &[("a", true), ("b", true)],
    );
    let t = Transcript::from_value(
        &json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]),
    )
    .unwrap();
    let r = render(&t, &o).unwrap();
    assert!(r.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .all(|t| t.get("defer_loading").is_none()));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code == DiagnosticCode::FeatureUnavailable));
    let mut body = r.body.clone();
    for t in body["tools"].as_array_mut().unwrap() {
        t["defer_loading"] = json!(true);
    }
    let v = validate_request_for_model(Provider::Anthropic, "claude-opus-5", &body);
    assert_eq!(v.len(), 1, "{v:?}");
    assert_eq!(
        (v[0].rule, v[0].message.as_str()),
        ("ANT-54", "All tools cannot be deferred")
    );
    // with a tool search declared, the deferred tools stay deferred
    let mut o = o;
    o.server_tools = serde_json::from_value(json!([{"type": "tool_search_bm25"}])).unwrap();
    let r = render(&t, &o).unwrap();
    assert_eq!(r.body["tools"][0]["defer_loading"], true);
    assert_eq!(
        r.body["tools"][2],
        json!({"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"})
    );
}

#[test]
fn ant_53_the_importer_reads_tool_changes_tool_references_and_deferred_tools() {
    let body = json!({
        "model": "claude-opus-5", "max_tokens": 64,
        "tools": [
            {"name": "deploy", "input_schema": {"type": "object"}},
            {"name": "rollback", "input_schema": {"type": "object"}, "defer_loading": true},
            {"name": "status", "input_schema": {"type": "object"}, "defer_loading": true},
            {"type": "tool_search_tool_regex_20251119", "name": "tool_search_tool_regex"}
        ],
        "messages": [
            {"role": "user", "content": "deploy it"},
            {"role": "assistant", "content": [
                {"type": "server_tool_use", "id": "srvtoolu_1", "name": "tool_search_tool_regex", "input": {"query": "deploy"}},
                {"type": "tool_search_tool_result", "tool_use_id": "srvtoolu_1", "content": {"type": "tool_search_tool_search_result", "tool_references": [{"type": "tool_reference", "tool_name": "deploy"}]}},
                {"type": "tool_use", "id": "toolu_1", "name": "deploy", "input": {}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": [
                {"type": "text", "text": "done"}, {"type": "tool_reference", "tool_name": "status"}]}]},
            {"role": "system", "content": [
                {"type": "tool_removal", "tool": {"type": "tool_reference", "name": "deploy"}},
                {"type": "tool_addition", "tool": {"type": "tool_reference", "name": "rollback"}}]},
            {"role": "assistant", "content": [{"type": "text", "text": "Deployed."}]},
            {"role": "user", "content": "thanks"}
        ]
    });
    let imported = from_request_body(Provider::Anthropic, &body, &ImportSource::default()).unwrap();
    assert!(
        imported
            .diagnostics
            .iter()
            .all(|d| d.code != DiagnosticCode::ImportOpaque),
        "{:?}",
        imported.diagnostics
    );
    let changes: Vec<(ToolChangeKind, String)> = imported
        .transcript
        .messages
        .iter()
        .flat_map(|m| &m.blocks)
        .filter_map(|b| match b {
            Block::ToolChange(c) => Some((c.change, c.describe())),
            _ => None,
        })
        .collect();
    assert_eq!(
        changes,
        [
            (ToolChangeKind::Add, "status".to_string()),
            (ToolChangeKind::Remove, "deploy".to_string()),
            (ToolChangeKind::Add, "rollback".to_string())
        ]
    );
    let o = imported.options.unwrap();
    assert_eq!(o.tools[1].defer_loading, Some(true));
    assert_eq!(o.server_tools.len(), 1);
    // rendered back to the same model: the same messages and tools
    let r = render(&imported.transcript, &o).unwrap();
    assert_eq!(
        r.body["messages"],
        body["messages"]
            .clone()
            .as_array()
            .map(|m| {
                let mut m = m.clone();
                m[0]["content"] = json!([{"type": "text", "text": "deploy it"}]);
                m[5]["content"] = json!([{"type": "text", "text": "thanks"}]);
                m[4]["content"] = json!([{"type": "text", "text": "Deployed."}]);
                Value::Array(m)
            })
            .unwrap()
    );
    assert_eq!(r.body["tools"], body["tools"]);
    // and the transcript's JSON keeps the blocks
    let again = Transcript::from_json(&imported.transcript.to_json()).unwrap();
    assert_eq!(again, imported.transcript);
}

#[test]
fn ant_53_a_conversation_falls_back_to_a_full_render_when_the_history_changes_tools() {
    let o = options(Provider::OpenAiChat, "gpt-5.2", &TOOLS);
    let t = history();
    let mut convo = Conversation::new();
    for m in &t.messages {
        convo.append(m.clone());
        let speaker = m.speaker;
        if speaker == turnwire::model::Speaker::Human {
            assert_eq!(
                convo.render_body(&o).unwrap(),
                render_body(convo.transcript(), &o).unwrap()
            );
        }
    }
}

#[test]
fn tool_change_projected_code_is_stable() {
    assert_eq!(
        DiagnosticCode::ToolChangeProjected.as_str(),
        "tool_change_projected"
    );
}

#[test]
fn ant_53_a_tool_added_with_its_definition_goes_in_place_with_the_inline_tools_beta() {
    let t = Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "list files"}]},
        {"speaker": "system", "blocks": [{"type": "tool_change", "change": "add", "name": "ls",
            "definition": {"name": "ls", "description": "List files", "input_schema": {"type": "object"}}}]}
    ]))
    .unwrap();
    let o = options(Provider::Anthropic, "claude-opus-5", &[("deploy", false)]);
    let r = render(&t, &o).unwrap();
    assert_eq!(
        r.body["messages"][1]["content"][0]["tool"]["type"],
        "tool_definition"
    );
    assert_eq!(
        r.headers.get("anthropic-beta"),
        Some("mid-conversation-tool-changes-2026-07-01,inline-tools-2026-09-15")
    );
    // elsewhere the definition is declared from it
    let o = options(Provider::OpenAiChat, "gpt-5.2", &[("deploy", false)]);
    let r = render(&t, &o).unwrap();
    assert_eq!(r.body["tools"][1]["function"]["name"], "ls");
    assert_eq!(r.body["tools"][1]["function"]["description"], "List files");
}
