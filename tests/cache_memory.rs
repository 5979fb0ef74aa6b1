//! Issue 12: what a `Conversation` keeps per render target. The cache holds the wire messages
//! before its boundary as their JSON text (what it splices) and what a render needs to know
//! about them, not the messages again as value trees: about one body's bytes per target.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod fixture_support;

use serde_json::Value;
use turnwire::memory::{self, BudgetAllocator};
use turnwire::{Conversation, Provider, RenderOptions, Transcript};

#[global_allocator]
static ALLOC: BudgetAllocator = BudgetAllocator::new();

#[test]
fn a_render_cache_holds_about_one_body_per_target() {
    // the fixture's agent session, with tool results and texts of the sizes agents store
    let filler = "fn main() { println!(\"{}\", 42); } // ".repeat(80);
    let mut input = fixture_support::agent_session(600, 6, false);
    for m in &mut input {
        for b in m["blocks"].as_array_mut().unwrap() {
            for key in ["result", "text", "thought"] {
                if let Some(Value::String(s)) = b.get_mut(key) {
                    s.push_str(&filler);
                }
            }
        }
    }
    let mut c =
        Conversation::from_transcript(Transcript::from_value(&Value::Array(input)).unwrap());
    c.set_cache_targets(Provider::ALL.len());
    for provider in Provider::ALL {
        let o = RenderOptions::new(provider, provider.reference_model());
        let before = memory::live_bytes();
        let body = c.render_body(&o).unwrap();
        let len = body.len();
        drop(body);
        let held = memory::live_bytes().saturating_sub(before);
        assert!(
            held <= len * 3 / 2,
            "{provider}: the cache holds {held} bytes for a {len}-byte body"
        );
        assert!(c.render_body(&o).is_ok());
        assert!(c.last_render_stats().incremental, "{provider}");
    }
}
