//! The server tools' tests: each provider's declarations, the checks, Gemini's choice.

use super::*;

fn plan(provider: Provider, model: &str, tools: &[&str]) -> Result<ServerToolPlan, Error> {
    let mut o = RenderOptions::new(provider, model);
    o.server_tools = tools
        .iter()
        .map(|t| serde_json::from_str(t).expect("tool"))
        .collect();
    o.server_tool_plan()
}

#[test]
fn each_provider_gets_its_own_declarations_or_a_note() {
    let both = [r#"{"type":"web_search"}"#, r#"{"type":"code_execution"}"#];
    for (provider, model, sent, notes) in [
        (Provider::Anthropic, "claude-sonnet-4-5", 2, 0),
        (Provider::OpenAiResponses, "gpt-5.2", 2, 0),
        (Provider::Gemini, "gemini-2.5-pro", 2, 0),
        (Provider::OpenAiChat, "gpt-5.2", 0, 2),
        (Provider::Mistral, "mistral-large-latest", 0, 2),
        (Provider::Kimi, "kimi-k2.6", 0, 2),
        (Provider::DeepSeek, "deepseek-chat", 0, 2),
        (Provider::OpenAiCompatible, "llama-3.3-70b", 0, 2),
    ] {
        let p = plan(provider, model, &both).expect("plans");
        assert_eq!((p.tools.len(), p.notes.len()), (sent, notes), "{provider}");
    }
    let chat = plan(
        Provider::OpenAiChat,
        "gpt-5-search-api",
        &[r#"{"type":"web_search","userLocation":{"country":"GB"}}"#],
    )
    .expect("plans");
    assert_eq!(
        chat.web_search_options,
        Some(
            serde_json::json!({"user_location": {"type": "approximate", "approximate": {"country": "GB"}}})
        )
    );
}

#[test]
fn bad_declarations_are_errors_at_their_path() {
    for (tools, path) in [
        (
            vec![r#"{"type":"web_search"}"#, r#"{"type":"web_search"}"#],
            "$.serverTools[1]",
        ),
        (
            vec![r#"{"type":"web_search","allowedDomains":["a"],"blockedDomains":["b"]}"#],
            "$.serverTools[0]",
        ),
        (
            vec![r#"{"type":"web_search","maxUses":0}"#],
            "$.serverTools[0].maxUses",
        ),
    ] {
        let e = plan(Provider::Anthropic, "claude-sonnet-4-5", &tools).expect_err("refused");
        assert_eq!((e.code(), e.path()), (ErrorCode::InvalidValue, path));
    }
    assert!(serde_json::from_str::<ServerTool>(r#"{"type":"web_fetch"}"#).is_err());
}

fn caps(model: &str) -> crate::models::ModelCaps {
    crate::models::capabilities_or_defaults(Provider::Gemini, model)
}

#[test]
fn gemini_2_drops_server_tools_next_to_functions_and_gemini_3_keeps_both() {
    let p = plan(
        Provider::Gemini,
        "gemini-2.5-pro",
        &[r#"{"type":"web_search"}"#],
    )
    .expect("plans");
    let (tools, flag, d) = p.for_gemini("gemini-2.5-pro", caps("gemini-2.5-pro"), 1);
    assert!(tools.is_empty() && !flag && d.is_some());
    let (tools, flag, d) = p.for_gemini("gemini-3-pro-preview", caps("gemini-3-pro-preview"), 1);
    assert!(tools.len() == 1 && flag && d.is_none());
    let (tools, flag, _) = p.for_gemini("gemini-2.5-pro", caps("gemini-2.5-pro"), 0);
    assert!(tools.len() == 1 && !flag);
}
