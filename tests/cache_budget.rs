//! Issue 15, point 4 (memory): a `Conversation` keeps render caches for a bounded number of
//! targets (`DEFAULT_CACHE_TARGETS`, configurable), dropping the least recently rendered first,
//! so rendering for every provider costs a bounded multiple of the history. Dropping a cache
//! never changes a result: that target renders in full once, then incrementally again.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::{render_body, Conversation, Provider, RenderOptions, DEFAULT_CACHE_TARGETS};

fn conversation() -> Conversation {
    let mut c = Conversation::new();
    for (speaker, text) in [
        ("human", "hi"),
        ("ai", "hello"),
        ("human", "list files"),
        ("ai", "done"),
        ("human", "thanks"),
    ] {
        c.append_json(&format!(
            r#"{{"speaker":"{speaker}","blocks":[{{"type":"text","text":"{text}"}}]}}"#
        ))
        .unwrap();
    }
    c
}

fn target(p: Provider) -> RenderOptions {
    RenderOptions::new(p, p.reference_model())
}

/// Renders for `p` and says whether its cache was used; the body must equal a full render.
fn cached(c: &mut Conversation, p: Provider) -> bool {
    let o = target(p);
    let body = c.render_body(&o).unwrap();
    assert_eq!(body, render_body(c.transcript(), &o).unwrap(), "{p}");
    c.last_render_stats().incremental
}

#[test]
fn issue_15_caches_are_kept_for_the_most_recently_rendered_targets_only() {
    let mut c = conversation();
    assert_eq!(c.cache_targets(), DEFAULT_CACHE_TARGETS);
    let [a, b, cc, d, e, ..] = Provider::ALL;
    for p in [a, b, cc, d] {
        assert!(!cached(&mut c, p), "{p}: first render is full");
        assert!(cached(&mut c, p), "{p}: second render uses the cache");
    }
    // `a` is rendered again, so `b` is now the least recently rendered: `e` evicts `b`
    assert!(cached(&mut c, a));
    assert!(!cached(&mut c, e));
    assert!(cached(&mut c, a), "kept: recently rendered");
    assert!(!cached(&mut c, b), "dropped: least recently rendered");
    assert!(cached(&mut c, b), "cached again after one full render");
}

#[test]
fn issue_15_a_round_robin_over_every_provider_fits_when_the_budget_says_so() {
    let mut c = conversation();
    c.set_cache_targets(Provider::ALL.len());
    for p in Provider::ALL {
        cached(&mut c, p);
    }
    for p in Provider::ALL {
        assert!(cached(&mut c, p), "{p}");
    }
    // lowering the budget drops the least recently rendered at once
    c.set_cache_targets(2);
    let last_two = &Provider::ALL[Provider::ALL.len() - 2..];
    for p in Provider::ALL {
        let expected = last_two.contains(&p);
        if expected {
            assert!(cached(&mut c, p), "{p}");
        }
    }
    assert!(!cached(&mut c, Provider::ALL[0]));
    c.set_cache_targets(0);
    assert_eq!(c.cache_targets(), 1, "at least one");
}
