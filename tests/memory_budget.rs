//! Issue 15, point 4 (out of memory): with the counting allocator installed and a budget the
//! test sets, running out of memory is an `out_of_memory` error, never an abort; a
//! `Conversation` drops its render caches, keeps every message, and renders again (the same
//! bytes as a fresh render) once memory is available. The budget is global, so one test runs
//! every step in order.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use turnwire::memory::{self, BudgetAllocator};
use turnwire::{render_body, Conversation, ErrorCode, Provider, RenderOptions, Transcript};

#[global_allocator]
static ALLOC: BudgetAllocator = BudgetAllocator::new();

/// A history of tool turns with `turns` × ~8 KB of text.
fn history(turns: usize) -> Conversation {
    let mut c = Conversation::new();
    let filler = "lorem ipsum dolor sit amet ".repeat(300);
    for i in 0..turns {
        c.append_json(&format!(
            r#"{{"speaker":"human","blocks":[{{"type":"text","text":"{i} {filler}"}}]}}"#
        ))
        .unwrap();
        c.append_json(&format!(
            r#"{{"speaker":"ai","blocks":[{{"type":"text","text":"{filler}"}},{{"type":"tool_call","id":"call_{i}","name":"read","parameters":{{"path":"f{i}"}}}}]}}"#
        ))
        .unwrap();
        c.append_json(&format!(
            r#"{{"speaker":"tool","blocks":[{{"type":"tool_result","call_id":"call_{i}","content":[{{"type":"text","text":"{filler}"}}]}}]}}"#
        ))
        .unwrap();
    }
    c
}

fn target(p: Provider) -> RenderOptions {
    RenderOptions::new(p, p.reference_model())
}

#[test]
fn issue_15_out_of_memory_is_a_typed_error_and_the_conversation_stays_usable() {
    memory::set_budget(None);
    let mut c = history(60);
    let messages = c.transcript().to_value();
    c.set_cache_targets(Provider::ALL.len());

    // What one full render of this history costs at its peak, without a budget.
    let before = memory::live_bytes();
    memory::reset_peak();
    let reference = render_body(c.transcript(), &target(Provider::Anthropic)).unwrap();
    let one_render = memory::peak_bytes() - before;
    assert!(
        one_render > 1 << 20,
        "the history is big enough to measure: {one_render}"
    );
    drop(reference);

    // A budget of the history plus half a render: rendering for every provider runs out.
    let base = memory::live_bytes();
    let budget = base + one_render / 2;
    memory::set_budget(Some(budget));
    memory::reset_peak();
    let mut failed = None;
    for p in Provider::ALL {
        if let Err(e) = c.render_body(&target(p)) {
            failed = Some((p, e));
            break;
        }
    }
    let (p, e) = failed.expect("rendering for every provider outgrew the budget");
    assert_eq!(e.code(), ErrorCode::OutOfMemory, "{p}: {e}");
    assert_eq!(e.code().as_str(), "out_of_memory");
    assert_eq!(e.path(), "$");
    assert!(e.message().contains("over the budget"), "{e}");
    assert!(e.message().contains("180 messages are intact"), "{e}");
    // It stopped within one render of the budget, not at the end of the work.
    let overshoot = memory::peak_bytes().saturating_sub(budget);
    assert!(overshoot <= one_render, "{overshoot} > {one_render}");
    // The caches were freed: back to about the history's size.
    assert!(
        memory::live_bytes() <= base + one_render / 4,
        "{} after the failure, {base} before",
        memory::live_bytes()
    );

    // The conversation is usable: its messages are intact, reads work over the budget…
    assert_eq!(c.len(), 180);
    assert_eq!(c.transcript().to_value(), messages);

    // …appending while over the budget fails cleanly, leaving it unchanged…
    memory::set_budget(Some(memory::live_bytes() / 2));
    let e = c
        .append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"more"}]}"#)
        .unwrap_err();
    assert_eq!(e.code(), ErrorCode::OutOfMemory);
    assert_eq!(c.len(), 180);
    let e = Transcript::from_json(r#"[{"speaker":"human","blocks":[]}]"#).unwrap_err();
    assert_eq!(
        e.code(),
        ErrorCode::OutOfMemory,
        "reading a transcript checks too"
    );

    // …and with memory available again every provider renders the fresh render's bytes.
    memory::set_budget(None);
    c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"more"}]}"#)
        .unwrap();
    for p in Provider::ALL {
        let o = target(p);
        assert_eq!(
            c.render_body(&o).unwrap(),
            render_body(c.transcript(), &o).unwrap(),
            "{p}"
        );
    }
}
