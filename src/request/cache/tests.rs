//! The cache plan's tests: what each provider gets, and the checks.

use super::*;
use crate::vocab::Provider;

fn plan(provider: Provider, cache: &str) -> Result<CachePlan, Error> {
    let mut o = RenderOptions::new(provider, "m");
    o.cache = Some(serde_json::from_str(cache).expect(cache));
    o.cache_plan()
}

#[test]
fn the_json_form_reads_what_it_writes_and_refuses_the_rest_with_the_expected_form() {
    for text in [
        r#"{"breakpoints":"auto"}"#,
        r#"{"breakpoints":["tools","messages"],"ttl":"1h","key":"k"}"#,
        r#"{"breakpoints":[],"ttl":"5m"}"#,
    ] {
        let c: CacheOptions = serde_json::from_str(text).expect(text);
        assert_eq!(serde_json::to_string(&c).ok().as_deref(), Some(text));
    }
    for bad in [
        r#"{"ttl":"24h"}"#,
        r#"{"breakpoints":["last"]}"#,
        r#"{"breakpoints":"manual"}"#,
        r#"{"keys":"x"}"#,
        r#"{"key":3}"#,
        "true",
    ] {
        let e = serde_json::from_str::<CacheOptions>(bad)
            .expect_err(bad)
            .to_string();
        assert!(e.starts_with("cache must be"), "{bad}: {e}");
    }
}

#[test]
fn anthropic_gets_one_mark_for_every_breakpoint_and_no_key() {
    let p = plan(Provider::Anthropic, r#"{"ttl":"1h","key":"k"}"#).expect("plan");
    assert_eq!(
        p.mark,
        Some(serde_json::json!({"type": "ephemeral", "ttl": "1h"}))
    );
    assert!(CachePoint::ALL.iter().all(|&c| p.mark_for(c).is_some()));
    assert_eq!(p.key, None);
    assert_eq!(p.notes.len(), 1, "the key is reported");
    let p = plan(Provider::Anthropic, r#"{"breakpoints":["system"]}"#).expect("plan");
    assert!(p.mark_for(CachePoint::System).is_some());
    assert!(p.mark_for(CachePoint::Messages).is_none());
    assert!(p
        .nothing_to_mark(CachePoint::System, "no system prompt")
        .is_some());
    assert!(p.nothing_to_mark(CachePoint::Tools, "no tools").is_none());
}

#[test]
fn openai_gets_the_key_shortened_to_a_stable_hash_when_too_long() {
    let long = "k".repeat(72);
    let p = plan(Provider::OpenAiChat, &format!(r#"{{"key":"{long}"}}"#)).expect("plan");
    let sent = p.key.clone().expect("a key");
    assert_eq!(sent.chars().count(), 19);
    assert_eq!(
        p.key,
        plan(Provider::OpenAiResponses, &format!(r#"{{"key":"{long}"}}"#))
            .expect("plan")
            .key
    );
    assert_eq!(p.notes[0].path.as_deref(), Some("$.cache.key"));
    let p = plan(Provider::OpenAiChat, r#"{"key":"session-42"}"#).expect("plan");
    assert_eq!(
        (p.key.as_deref(), p.notes.len(), p.mark),
        (Some("session-42"), 0, None)
    );
}

#[test]
fn implicit_caches_say_what_they_did_not_send_and_auto_says_nothing() {
    for provider in [
        Provider::Gemini,
        Provider::Mistral,
        Provider::Kimi,
        Provider::DeepSeek,
        Provider::OpenAiCompatible,
    ] {
        assert_eq!(plan(provider, "{}").expect("plan"), CachePlan::default());
        let p = plan(provider, r#"{"ttl":"5m","key":"k"}"#).expect("plan");
        assert_eq!((p.mark, p.key), (None, None));
        assert!(
            p.notes[0].message.contains("`cache.ttl` and `cache.key`"),
            "{}",
            p.notes[0].message
        );
    }
}

#[test]
fn extra_may_not_set_what_cache_sets() {
    let mut o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
    o.cache = Some(CacheOptions::default());
    o.extra.insert(
        "cache_control".into(),
        serde_json::json!({"type": "ephemeral"}),
    );
    let e = o.cache_plan().expect_err("conflict");
    assert_eq!(
        (e.code(), e.path()),
        (ErrorCode::InvalidValue, "$.extra.cache_control")
    );
    o.cache = Some(CacheOptions {
        breakpoints: CacheBreakpoints::List(vec![CachePoint::System]),
        ..CacheOptions::default()
    });
    assert!(
        o.cache_plan().is_ok(),
        "no automatic breakpoint: extra's is the caller's"
    );
}
