//! Issue 32, the host table (`src/hosts.rs`): every (host, wire) row renders the envelope the
//! host takes and the body passes `validate_request_for_host`; unknown hosts and hosts that do
//! not serve the provider are `invalid_value`; the URL patterns name the host of a base URL;
//! and `js/hosts.generated.mts` is the generator's output.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};
use turnwire::import::{from_request_body, ImportSource};
use turnwire::{
    hosts, render, validate_request_for_host, ErrorCode, Host, Provider, RenderOptions,
    ThinkingOptions, ToolChoice, ToolDeclaration, Transcript,
};

fn hello() -> Transcript {
    Transcript::from_value(&json!([
        {"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}
    ]))
    .unwrap()
}

#[test]
fn hosts_every_row_renders_its_envelope_and_validates() {
    let table = hosts::json();
    for row in table["rows"].as_array().unwrap() {
        let host: Host = row["host"].as_str().unwrap().parse().unwrap();
        for p in row["providers"].as_array().unwrap() {
            let provider: Provider = p.as_str().unwrap().parse().unwrap();
            let mut o = RenderOptions::new(provider, provider.reference_model());
            o.host = Some(host);
            // generateContent and Converse refuse `stream` in `extra` before any host edit
            if row["streamInBody"] == true || row["wire"] == "messages" {
                o.extra.insert("stream".into(), json!(true));
            }
            let r = render(&hello(), &o).unwrap_or_else(|e| panic!("{host}/{provider}: {e}"));
            let body = r.body.as_object().unwrap();
            let model_in_body = row["model"] == "body" && provider != Provider::Gemini; // generateContent never names it
            assert_eq!(
                body.contains_key("model"),
                model_in_body,
                "{host}/{provider}"
            );
            assert_eq!(
                body.contains_key("stream"),
                row["streamInBody"] == true,
                "{host}/{provider}"
            );
            // the host's own URL patterns name it at its base URL
            let base = row["baseUrl"].as_str().unwrap();
            let base = base
                .replace("{region}", "us-east-1")
                .replace("{project}", "p")
                .replace("{resource}", "acme");
            assert_eq!(hosts::of_url(&base), Some(host), "{base}");
            match &row["version"] {
                Value::Object(v) if v.contains_key("body") => {
                    assert_eq!(body["anthropic_version"], v["value"], "{host}/{provider}")
                }
                _ => assert!(!body.contains_key("anthropic_version"), "{host}/{provider}"),
            }
            let found = validate_request_for_host(provider, host, &o.model, &r.body);
            assert!(found.is_empty(), "{host}/{provider}: {found:?}");
        }
    }
}

#[test]
fn hosts_bedrock_claude_envelope_moves_betas_into_the_body() {
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.host = Some(Host::Bedrock);
    o.extra
        .insert("betas".into(), json!(["context-1m-2025-08-07"]));
    o.extra.insert("stream".into(), json!(true));
    let r = render(&hello(), &o).unwrap();
    assert_eq!(r.body["anthropic_version"], "bedrock-2023-05-31");
    assert_eq!(r.body["anthropic_beta"], json!(["context-1m-2025-08-07"]));
    assert!(r.body.get("model").is_none() && r.body.get("stream").is_none());
    assert!(r.headers.0.iter().all(|(h, _)| h != "anthropic-beta"));
    assert!(r
        .diagnostics
        .iter()
        .any(|d| d.code.as_str() == "request_field_dropped" && d.message.contains("stream")));
    // Vertex keeps `stream` in the body (`:streamRawPredict`) and betas in the header
    o.host = Some(Host::Vertex);
    let r = render(&hello(), &o).unwrap();
    assert_eq!(r.body["anthropic_version"], "vertex-2023-10-16");
    assert_eq!(r.body["stream"], true);
    assert!(r.body.get("anthropic_beta").is_none());
    assert!(r.headers.0.iter().any(|(h, _)| h == "anthropic-beta"));
}

#[test]
fn hosts_unknown_host_is_invalid_value_naming_the_list() {
    let e = RenderOptions::from_json(
        r#"{"provider": "anthropic", "model": "claude-sonnet-4-5", "host": "aws"}"#,
    )
    .unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidValue);
    assert!(
        e.message().contains("unknown host `aws`"),
        "{}",
        e.message()
    );
    assert!(
        e.message().contains("bedrock, bedrock-mantle, vertex"),
        "{}",
        e.message()
    );
}

#[test]
fn hosts_a_host_that_does_not_serve_the_wire_is_invalid_value() {
    let mut o = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    o.host = Some(Host::Vertex);
    let e = render(&hello(), &o).unwrap_err();
    assert_eq!(e.code(), ErrorCode::InvalidValue);
    assert_eq!(e.path(), "$.host");
    assert!(
        e.message().contains("vertex serves anthropic, gemini"),
        "{}",
        e.message()
    );
    let v = validate_request_for_host(Provider::OpenAiChat, Host::Vertex, "gpt-5.2", &json!({}));
    assert_eq!(v[0].rule, "HST-00");
}

#[test]
fn hosts_hst_01_envelope_violations() {
    let body = json!({"model": "claude-sonnet-4-5", "max_tokens": 64, "stream": true,
        "messages": [{"role": "user", "content": "hi"}]});
    let v = validate_request_for_host(
        Provider::Anthropic,
        Host::Bedrock,
        "claude-sonnet-4-5",
        &body,
    );
    let paths: Vec<&str> = v
        .iter()
        .filter(|v| v.rule == "HST-01")
        .map(|v| v.path.as_str())
        .collect();
    assert_eq!(paths, ["$.anthropic_version", "$.model", "$.stream"]);
    let wrong = json!({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64,
        "messages": [{"role": "user", "content": "hi"}]});
    let v = validate_request_for_host(
        Provider::Anthropic,
        Host::Vertex,
        "claude-sonnet-4-5",
        &wrong,
    );
    assert!(v
        .iter()
        .any(|v| v.rule == "HST-01" && v.message.contains("vertex-2023-10-16")));
}

fn with_tool(provider: Provider, model: &str, host: Host, choice: ToolChoice) -> RenderOptions {
    let mut o = RenderOptions::new(provider, model);
    o.host = Some(host);
    o.tools = vec![ToolDeclaration::new(
        "ls",
        "list",
        json!({"type": "object"}),
    )];
    o.tool_choice = Some(choice);
    o
}

#[test]
fn hosts_hst_02_deepseek_anthropic_endpoint_leaves_out_tool_choice_auto_and_any() {
    for choice in [ToolChoice::Auto, ToolChoice::Required] {
        let o = with_tool(
            Provider::Anthropic,
            "deepseek-v4-pro",
            Host::DeepSeek,
            choice,
        );
        let r = render(&hello(), &o).unwrap();
        assert!(r.body.get("tool_choice").is_none(), "{}", r.body);
        assert!(r
            .diagnostics
            .iter()
            .any(|d| d.code.as_str() == "feature_unavailable" && d.message.contains("HST-02")));
        assert!(
            validate_request_for_host(Provider::Anthropic, Host::DeepSeek, &o.model, &r.body)
                .is_empty()
        );
    }
    let named = with_tool(
        Provider::Anthropic,
        "deepseek-v4-pro",
        Host::DeepSeek,
        ToolChoice::Tool("ls".into()),
    );
    let r = render(&hello(), &named).unwrap();
    assert_eq!(r.body["tool_choice"]["type"], "tool");
    // first-party Anthropic keeps it
    let o = with_tool(
        Provider::Anthropic,
        "claude-sonnet-4-5",
        Host::Anthropic,
        ToolChoice::Auto,
    );
    assert_eq!(
        render(&hello(), &o).unwrap().body["tool_choice"]["type"],
        "auto"
    );
    let v = validate_request_for_host(
        Provider::Anthropic,
        Host::DeepSeek,
        "deepseek-v4-pro",
        &json!({"model": "deepseek-v4-pro", "max_tokens": 8, "tool_choice": {"type": "any"},
            "tools": [{"name": "ls", "input_schema": {"type": "object"}}],
            "messages": [{"role": "user", "content": "hi"}]}),
    );
    assert!(v.iter().any(|v| v.rule == "HST-02"), "{v:?}");
}

#[test]
fn hosts_xai_02_responses_effort_off_the_allow_list_is_left_out() {
    let mut o = RenderOptions::new(Provider::OpenAiResponses, "grok-4");
    o.host = Some(Host::Xai);
    o.thinking = Some(ThinkingOptions {
        enabled: true,
        budget_tokens: None,
        effort: Some("high".into()),
        summary: None,
    });
    let r = render(&hello(), &o).unwrap();
    assert!(r.body["reasoning"].get("effort").is_none(), "{}", r.body);
    assert_eq!(r.body["include"], json!(["reasoning.encrypted_content"]));
    assert!(r.diagnostics.iter().any(|d| d.message.contains("XAI-02")));
    o.model = "grok-3-mini".into();
    let r = render(&hello(), &o).unwrap();
    assert_eq!(r.body["reasoning"]["effort"], "high");
}

#[test]
fn hosts_url_patterns_name_the_host_of_a_base_url() {
    let cases = [
        ("https://api.anthropic.com/v1/messages", Some(Host::Anthropic)),
        ("https://bedrock-runtime.eu-west-1.amazonaws.com/model/x/invoke", Some(Host::Bedrock)),
        ("https://bedrock-mantle.us-east-1.api.aws/anthropic/v1/messages", Some(Host::BedrockMantle)),
        ("https://aiplatform.googleapis.com/v1beta1/projects/p/locations/global/publishers/google", Some(Host::Vertex)),
        ("https://us-central1-aiplatform.googleapis.com", Some(Host::Vertex)),
        ("https://EUROPE-WEST4-aiplatform.googleapis.com:443/v1/", Some(Host::Vertex)),
        ("https://aiplatform.eu.rep.googleapis.com/v1", Some(Host::Vertex)),
        ("https://generativelanguage.googleapis.com/v1beta", Some(Host::Google)),
        ("https://acme.openai.azure.com/openai/v1", Some(Host::Azure)),
        ("https://acme.services.ai.azure.com/anthropic/v1/messages", Some(Host::Foundry)),
        ("https://openrouter.ai/api/v1", Some(Host::OpenRouter)),
        ("https://api.x.ai/v1", Some(Host::Xai)),
        ("https://api.deepseek.com/anthropic", Some(Host::DeepSeek)),
        ("https://api.moonshot.ai/anthropic", Some(Host::Kimi)),
        ("https://api.z.ai/api/anthropic", Some(Host::Zai)),
        ("http://localhost:11434/v1", Some(Host::Ollama)),
        ("http://localhost:8080/v1", None),
        ("http://127.0.0.1:8080", None),
        ("https://gateway.example.com/generativelanguage.googleapis.com", None),
        ("https://notaiplatform.googleapis.com.evil.example", None),
        ("https://-aiplatform.googleapis.com", None),
        ("", None),
    ];
    for (url, host) in cases {
        assert_eq!(hosts::of_url(url), host, "{url}");
    }
}

#[test]
fn hosts_import_reads_the_host_from_the_source_or_the_body() {
    let body = json!({"anthropic_version": "bedrock-2023-05-31", "max_tokens": 64, "messages": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "thinking", "thinking": "t", "signature": "c2ln"}, {"type": "text", "text": "yo"}]},
        {"role": "user", "content": "more"}]});
    let source = ImportSource {
        model: Some("claude-sonnet-4-5".into()),
        ..Default::default()
    };
    let imported = from_request_body(Provider::Anthropic, &body, &source).unwrap();
    let ai = &imported.transcript.messages[1];
    let prov = &ai.metadata.as_ref().unwrap().provenance;
    assert_eq!(prov.host.as_deref(), Some("bedrock"));
    let source = ImportSource {
        model: Some("claude-sonnet-4-5".into()),
        host: Some(Host::Vertex),
        ..Default::default()
    };
    let imported = from_request_body(Provider::Anthropic, &body, &source).unwrap();
    let prov = &imported.transcript.messages[1]
        .metadata
        .as_ref()
        .unwrap()
        .provenance;
    assert_eq!(prov.host.as_deref(), Some("vertex"));
}

#[test]
fn hosts_provenance_json_keeps_its_host_and_old_json_loads() {
    let t = Transcript::from_json(
        r#"[{"speaker": "ai", "metadata": {"provider": "anthropic", "host": "bedrock"}, "blocks": [{"type": "text", "text": "x"}]}]"#,
    )
    .unwrap();
    assert_eq!(t.to_value()[0]["metadata"]["host"], "bedrock");
    let old = Transcript::from_json(
        r#"[{"speaker": "ai", "metadata": {"provider": "anthropic"}, "blocks": [{"type": "text", "text": "x"}]}]"#,
    )
    .unwrap();
    assert!(old.to_value()[0]["metadata"].get("host").is_none());
}

#[test]
fn hosts_generated_js_module_is_the_generators_output() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = root.join("js/hosts.generated.mts");
    let want = hosts::typescript();
    if std::env::var_os("TURNWIRE_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        have == want,
        "js/hosts.generated.mts is not `turnwire hosts --ts`'s output: regenerate it with TURNWIRE_BLESS=1 cargo test --test hosts"
    );
}

#[test]
fn hosts_a_conversation_renders_each_hosts_envelope_as_render_does_turn_after_turn() {
    let turns = [
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "hello"}]}),
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "and now?"}]}),
        json!({"speaker": "ai", "blocks": [{"type": "text", "text": "still here"}]}),
        json!({"speaker": "human", "blocks": [{"type": "text", "text": "bye"}]}),
    ];
    let table = hosts::json();
    for row in table["rows"].as_array().unwrap() {
        let host: Host = row["host"].as_str().unwrap().parse().unwrap();
        for p in row["providers"].as_array().unwrap() {
            let provider: Provider = p.as_str().unwrap().parse().unwrap();
            // plain, and with a tool choice some hosts refuse (HST-02: left out of every body)
            let plain = json!({"provider": provider.as_str(), "model": provider.reference_model(), "host": host.as_str()});
            let mut with_tools = plain.clone();
            with_tools["tools"] = json!([{"name": "grep", "parameters": {"type": "object"}}]);
            with_tools["toolChoice"] = json!("auto");
            for options in [plain, with_tools] {
                let o = RenderOptions::from_json(&options.to_string()).unwrap();
                let mut convo = turnwire::Conversation::new();
                for (k, t) in turns.iter().enumerate() {
                    convo.append_value(t).unwrap();
                    if k % 2 == 1 {
                        continue;
                    }
                    let whole =
                        render(&Transcript::from_value(&json!(turns[..=k])).unwrap(), &o).unwrap();
                    let got = convo.render(&o).unwrap();
                    assert_eq!(
                        got.body,
                        whole.body,
                        "{host}/{provider} after {} messages",
                        k + 1
                    );
                    assert_eq!(got.headers.0, whole.headers.0, "{host}/{provider}");
                }
            }
        }
    }
}
