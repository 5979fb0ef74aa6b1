//! Issue 11, the AI SDK: `from_ai_sdk` / `to_ai_sdk` round trips and `repair_model_messages`.
//! A history repaired for a provider, written as AI SDK `ModelMessage[]` and read back, renders
//! byte for byte what the original renders, for every golden transcript and provider: the
//! continuity tokens survive under the AI SDK's `providerOptions` keys.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use serde_json::json;
use turnwire::export::{repair_model_messages, to_ai_sdk};
use turnwire::import::{from_ai_sdk, ImportSource};
use turnwire::model::{Block, ProviderMeta};
use turnwire::{normalize, render, render_body, validate_request, Provider, RenderOptions};

#[test]
fn issue_11_every_golden_repaired_exported_and_imported_renders_the_same_bytes() {
    let mut checked = 0;
    for case in fixture_support::rendered() {
        let (name, p, t, o) = (&case.name, case.provider, &case.transcript, &case.options);
        {
            let n = normalize(t, &o.resolved_normalize_options().unwrap());
            let exported = to_ai_sdk(&n.into_history());
            assert!(
                exported.diagnostics.is_empty(),
                "{name} {p}: {:?}",
                exported.diagnostics
            );
            let source = ImportSource {
                model: Some(o.model.clone()),
                endpoint: o.endpoint.clone(),
                host: None,
                account: None,
            };
            let imported = from_ai_sdk(&json!(exported.messages), Some(p), &source).unwrap();
            let second =
                render_body(&imported.transcript, o).unwrap_or_else(|e| panic!("{name} {p}: {e}"));
            // GEM-22: a call gets Gemini's id back only where its turn carries Google's
            // signature (the AI SDK does not say which model made a turn), so foreign ids are not
            // echoed: the same bytes for Gemini too.
            let first = case.body.clone();
            assert_eq!(
                String::from_utf8(second).unwrap(),
                String::from_utf8(first).unwrap(),
                "{name} {p}: {:#}",
                json!(exported.messages)
            );
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
}

#[test]
fn issue_11_ai_sdk_continuity_keys_read_and_written() {
    let messages = json!([
        {"role": "system", "content": "be brief"},
        {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "image": "iVBORw0KGgo=", "mediaType": "image/png"}]},
        {"role": "assistant", "content": [
            {"type": "reasoning", "text": "a", "providerOptions": {"openai": {"itemId": "rs_1", "reasoningEncryptedContent": null}}},
            {"type": "reasoning", "text": "b", "providerOptions": {"openai": {"itemId": "rs_1", "reasoningEncryptedContent": "enc"}}},
            {"type": "text", "text": "ok", "providerOptions": {"openai": {"itemId": "msg_1"}}},
            {"type": "tool-call", "toolCallId": "call_1", "toolName": "ls", "input": {"path": "."}}
        ]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "call_1", "toolName": "ls",
          "output": {"type": "content", "value": [{"type": "text", "text": "a.rs"}, {"type": "media", "data": "iVBORw0KGgo=", "mediaType": "image/png"}]}}]},
        {"role": "assistant", "content": [
            {"type": "reasoning", "text": "", "providerOptions": {"anthropic": {"redactedData": "xyz"}}},
            {"type": "tool-call", "toolCallId": "c2", "toolName": "web", "input": {}, "providerExecuted": true},
            {"type": "text", "text": "done", "providerOptions": {"google": {"thoughtSignature": "c2ln"}}}
        ]}
    ]);
    let source = ImportSource {
        model: Some("gpt-5.2".into()),
        endpoint: None,
        host: None,
        account: None,
    };
    let imported = from_ai_sdk(&messages, Some(Provider::OpenAiResponses), &source).unwrap();
    let t = &imported.transcript;
    // the two parts of one reasoning item are one block with both summaries and the content
    match &t.messages[2].blocks[0] {
        Block::Thinking(th) => {
            assert_eq!(th.thought, "a\n\nb");
            assert_eq!(
                th.meta,
                Some(ProviderMeta::OpenAiReasoning {
                    id: Some("rs_1".into()),
                    encrypted_content: Some("enc".into())
                })
            );
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(t.messages[2].blocks.len(), 3);
    assert!(matches!(
        &t.messages[3].blocks[..],
        [Block::ToolResponse(_), Block::Media(_)]
    ));
    match &t.messages[4].blocks[0] {
        Block::Thinking(th) => {
            assert_eq!(
                th.meta,
                Some(ProviderMeta::AnthropicRedacted { data: "xyz".into() })
            );
            let p = th.provenance.as_ref().unwrap();
            assert_eq!(
                p.provider.as_deref(),
                Some("anthropic"),
                "signed for the provider of its namespace"
            );
        }
        other => panic!("{other:?}"),
    }
    // the provider-executed call is opaque, and reported
    assert_eq!(imported.diagnostics.len(), 1, "{:?}", imported.diagnostics);
    assert_eq!(
        imported.diagnostics[0].path.as_deref(),
        Some("$[4].content[1]")
    );
    // written back, the keys are where the AI SDK's providers read them
    let out = to_ai_sdk(t);
    assert_eq!(
        out.messages[2]["content"][0]["providerOptions"],
        json!({"openai": {"itemId": "rs_1", "reasoningEncryptedContent": "enc"}})
    );
    assert_eq!(
        out.messages[4]["content"][0]["providerOptions"],
        json!({"anthropic": {"redactedData": "xyz"}})
    );
    assert_eq!(
        out.messages[4]["content"][1]["providerOptions"],
        json!({"google": {"thoughtSignature": "c2ln"}})
    );
    assert_eq!(out.messages[3]["content"][0]["output"]["type"], "content");
    assert_eq!(
        out.messages[3]["content"][0]["output"]["value"][1]["type"],
        "file-data"
    );
    // every provider renders the imported history validly
    for p in Provider::ALL {
        let body = render(t, &RenderOptions::new(p, p.reference_model()))
            .unwrap()
            .body;
        assert!(validate_request(p, &body).is_empty(), "{p}: {body:#}");
    }
}

#[test]
fn issue_11_repair_model_messages_answers_every_call_before_the_next_user_turn() {
    // What makes the AI SDK throw MissingToolResultsError: a call, then a user message.
    let messages = json!([
        {"role": "user", "content": "list src"},
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": "c1", "toolName": "ls", "input": {}},
            {"type": "tool-call", "toolCallId": "c2", "toolName": "cat", "input": {"path": "a"}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "ls", "output": {"type": "text", "value": "a"}}]},
        {"role": "user", "content": "never mind"}
    ]);
    for p in Provider::ALL {
        let out = repair_model_messages(
            &messages,
            &RenderOptions::new(p, p.reference_model()),
            &ImportSource::default(),
        )
        .unwrap();
        let roles: Vec<&str> = out
            .messages
            .iter()
            .map(|m| m["role"].as_str().unwrap())
            .collect();
        assert_eq!(&roles[..3], ["user", "assistant", "tool"], "{p}");
        let results = out.messages[2]["content"].as_array().unwrap();
        assert_eq!(results.len(), 2, "{p}: both calls answered");
        let c2 = out
            .id_map
            .iter()
            .find(|(c, _)| c == "c2")
            .map(|(_, p)| p.as_str());
        assert_eq!(
            results[1]["toolCallId"].as_str(),
            c2.or(Some("c2")),
            "{p}: in the target's id format"
        );
    }
}

#[test]
fn issue_11_repair_model_messages_renames_tools_the_target_refuses_in_calls_and_results() {
    let messages = json!([
        {"role": "user", "content": "read a.rs"},
        {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "fs.read", "input": {}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "c1", "toolName": "fs.read", "output": {"type": "text", "value": "x"}}]}
    ]);
    let mut options = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    options.tools = vec![turnwire::ToolDeclaration::new(
        "fs.read",
        "Read a file",
        json!({"type": "object"}),
    )];
    let out = repair_model_messages(&messages, &options, &ImportSource::default()).unwrap();
    let (original, sent) = out.tool_names.first().cloned().unwrap();
    assert_eq!(original, "fs.read");
    assert!(
        sent.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-'),
        "{sent}"
    );
    assert_eq!(out.messages[1]["content"][0]["toolName"], sent.as_str());
    assert_eq!(out.messages[2]["content"][0]["toolName"], sent.as_str());
    // turnwire's names fit every provider (the same name after a switch): Gemini gets it too
    let mut gemini = RenderOptions::new(Provider::Gemini, "gemini-2.5-pro");
    gemini.tools = options.tools.clone();
    let out = repair_model_messages(&messages, &gemini, &ImportSource::default()).unwrap();
    assert_eq!(out.tool_names, [("fs.read".to_string(), sent)]);
    // a name every provider takes stays, and nothing is listed
    let plain = serde_json::to_string(&messages)
        .unwrap()
        .replace("fs.read", "read_file");
    options.tools = vec![turnwire::ToolDeclaration::new(
        "read_file",
        "Read a file",
        json!({"type": "object"}),
    )];
    let out = repair_model_messages(
        &serde_json::from_str(&plain).unwrap(),
        &options,
        &ImportSource::default(),
    )
    .unwrap();
    assert!(out.tool_names.is_empty(), "{:?}", out.tool_names);
    assert_eq!(out.messages[1]["content"][0]["toolName"], "read_file");
}

/// GEM-22: an AI SDK history read for Gemini 3 attributes a turn to Gemini only where it carries
/// Google's thought signature (Gemini 3 signs every call turn): another model's call ids are
/// never echoed as `functionCall.id`, Gemini's are.
#[test]
fn gem_22_ai_sdk_calls_without_googles_signature_get_no_gemini_call_ids() {
    let messages = json!([
        {"role": "user", "content": "read both"},
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": "toolu_01AbC", "toolName": "read", "input": {"path": "a"}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "toolu_01AbC", "toolName": "read",
          "output": {"type": "text", "value": "A"}}]},
        {"role": "assistant", "content": [
            {"type": "tool-call", "toolCallId": "k3v9d1qa", "toolName": "read", "input": {"path": "b"},
             "providerOptions": {"google": {"thoughtSignature": "CiQB0e2Kc2ln"}}}]},
        {"role": "tool", "content": [{"type": "tool-result", "toolCallId": "k3v9d1qa", "toolName": "read",
          "output": {"type": "text", "value": "B"}}]}
    ]);
    let source = ImportSource {
        model: Some("gemini-3-pro-preview".into()),
        ..Default::default()
    };
    let imported = from_ai_sdk(&messages, Some(Provider::Gemini), &source).unwrap();
    let o = RenderOptions::new(Provider::Gemini, "gemini-3-pro-preview");
    let out = render(&imported.transcript, &o).unwrap();
    assert_eq!(validate_request(Provider::Gemini, &out.body), vec![]);
    let contents = out.body["contents"].as_array().unwrap();
    assert_eq!(contents[1]["parts"][0]["functionCall"].get("id"), None);
    assert_eq!(contents[2]["parts"][0]["functionResponse"].get("id"), None);
    assert_eq!(contents[3]["parts"][0]["functionCall"]["id"], "k3v9d1qa");
    assert_eq!(
        contents[4]["parts"][0]["functionResponse"]["id"],
        "k3v9d1qa"
    );
}
