//! Issue 11 (importers), round trips: every golden transcript rendered by turnwire for a
//! provider and read back with that provider's importer renders again byte for byte the same
//! for that provider, and what the importer read keeps every continuity token.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::import::{from_request_body, ImportSource};
use turnwire::{render, render_body, DiagnosticCode, Provider, RenderOptions, Transcript};

mod fixture_support;
use fixture_support::cases;

/// Renders every golden transcript for `provider`, imports the body, renders the import.
fn round_trip(provider: Provider) {
    let mut checked = 0;
    for dir in cases() {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let transcript =
            Transcript::from_json(&std::fs::read_to_string(dir.join("transcript.json")).unwrap())
                .unwrap();
        let options =
            RenderOptions::from_value(fixture_support::options_for(&dir, provider)).unwrap();
        let Ok(first) = render(&transcript, &options) else {
            continue; // the goldens that are errors
        };
        // Gemini and Converse bodies do not name their model (it is in the URL); the others'
        // own `model` is used.
        let in_url = matches!(provider, Provider::Gemini | Provider::BedrockConverse);
        let source = ImportSource {
            model: in_url.then(|| options.model.clone()),
            endpoint: options.endpoint.clone(),
            host: None,
            account: None,
        };
        let imported = from_request_body(provider, &first.body, &source)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let again = imported.options.clone().expect("a body has options");
        let second =
            render_body(&imported.transcript, &again).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            String::from_utf8(second).unwrap(),
            String::from_utf8(first.body_bytes()).unwrap(),
            "{name}: the imported body renders differently for {provider}"
        );
        // Nothing of turnwire's own body is opaque (a URL image's media type may be inferred).
        let opaque: Vec<_> = imported
            .diagnostics
            .iter()
            .filter(|d| d.code == DiagnosticCode::ImportOpaque)
            .collect();
        assert!(opaque.is_empty(), "{name}: {opaque:?}");
        checked += 1;
    }
    assert!(checked >= 50, "{checked} goldens checked");
}

#[test]
fn issue_32_bedrock_converse_bodies_round_trip_byte_for_byte() {
    round_trip(Provider::BedrockConverse);
}

#[test]
fn issue_11_anthropic_bodies_round_trip_byte_for_byte() {
    round_trip(Provider::Anthropic);
}

#[test]
fn issue_11_chat_dialect_bodies_round_trip_byte_for_byte() {
    for p in [
        Provider::OpenAiChat,
        Provider::Mistral,
        Provider::Kimi,
        Provider::DeepSeek,
        Provider::OpenAiCompatible,
    ] {
        round_trip(p);
    }
}

#[test]
fn issue_11_responses_bodies_round_trip_byte_for_byte() {
    round_trip(Provider::OpenAiResponses);
}

#[test]
fn issue_11_gemini_bodies_round_trip_byte_for_byte() {
    round_trip(Provider::Gemini);
}

#[test]
fn oll_ollama_chat_bodies_round_trip_byte_for_byte() {
    round_trip(Provider::Ollama);
}
