//! Prompt-cache marks (`cache_control`): how many (ANT-18), their shape and where they may sit
//! (ANT-40), not on empty text (ANT-27), and their lifetimes in order (ANT-28).

use serde_json::{Map, Value};

use super::message::block_type;
use crate::providers::validate_support::{Findings, Path};

/// Maximum number of `cache_control` marks in one request, the automatic one included.
const MAX_CACHE_MARKERS: usize = 4;

/// One `cache_control` mark, in the order the API processes them (tools, system, messages,
/// then the request's automatic one).
struct Mark<'a> {
    /// Where the mark is.
    at: Path,
    /// The mark itself.
    value: &'a Value,
    /// The block that carries it (none for the request's automatic mark).
    block: Option<&'a Value>,
}

/// Every check on the request's cache marks.
pub(super) fn check_cache_marks(obj: &Map<String, Value>, out: &mut Findings) {
    let marks = collect(obj, out);
    for m in &marks {
        check_ant_40_shape(m, out);
        check_ant_27_empty_text(m, out);
    }
    check_ant_28_ttl_order(&marks, out);
    check_ant_18_count(marks, out);
}

fn collect<'a>(obj: &'a Map<String, Value>, out: &mut Findings) -> Vec<Mark<'a>> {
    let mut marks = Vec::new();
    let mut push = |at: Path, block: &'a Value| {
        if let Some(value) = block.get("cache_control").filter(|c| !c.is_null()) {
            marks.push(Mark {
                at: at.k("cache_control"),
                value,
                block: Some(block),
            });
        }
    };
    if let Some(Value::Array(tools)) = obj.get("tools") {
        for (t, tool) in tools.iter().enumerate() {
            push(Path::root().k("tools").i(t), tool);
        }
    }
    if let Some(Value::Array(blocks)) = obj.get("system") {
        for (b, block) in blocks.iter().enumerate() {
            push(Path::root().k("system").i(b), block);
        }
    }
    if let Some(Value::Array(msgs)) = obj.get("messages") {
        for (i, m) in msgs.iter().enumerate() {
            if m.get("cache_control").is_some_and(|c| !c.is_null()) {
                let at = Path::msg(i).k("cache_control");
                let text = format!("{}: Extra inputs are not permitted", at.dotted());
                out.push("ANT-40", at, text);
            }
            let Some(Value::Array(blocks)) = m.get("content") else {
                continue;
            };
            for (b, block) in blocks.iter().enumerate() {
                push(Path::block(i, b), block);
                if let Some(Value::Array(items)) = block.get("content") {
                    for (k, item) in items.iter().enumerate() {
                        push(Path::block(i, b).k("content").i(k), item);
                    }
                }
            }
        }
    }
    if let Some(value) = obj.get("cache_control").filter(|c| !c.is_null()) {
        marks.push(Mark {
            at: Path::root().k("cache_control"),
            value,
            block: None,
        });
    }
    marks
}

/// ANT-40: a mark is `{"type": "ephemeral", "ttl"?: "5m" | "1h"}` and sits on a block that
/// can carry one (not thinking; the message object itself is reported while collecting).
fn check_ant_40_shape(m: &Mark<'_>, out: &mut Findings) {
    let dotted = m.at.dotted();
    if let Some(kind @ ("thinking" | "redacted_thinking")) = m.block.and_then(block_type) {
        let at = m.at.clone();
        let parent = dotted.trim_end_matches(".cache_control");
        out.push(
            "ANT-40",
            at,
            format!("{parent}.{kind}.cache_control: Extra inputs are not permitted"),
        );
        return;
    }
    let Some(mark) = m.value.as_object() else {
        out.push(
            "ANT-40",
            m.at.clone(),
            format!("{dotted}: Input should be a valid dictionary"),
        );
        return;
    };
    if mark.get("type").and_then(Value::as_str) != Some("ephemeral") {
        out.push(
            "ANT-40",
            m.at.k("type"),
            format!("{dotted}.type: Input should be 'ephemeral'"),
        );
    }
    match mark.get("ttl") {
        None | Some(Value::Null) => {}
        Some(Value::String(t)) if t == "5m" || t == "1h" => {}
        Some(_) => out.push(
            "ANT-40",
            m.at.k("ttl"),
            format!("{dotted}.ttl: Input should be '5m' or '1h'"),
        ),
    }
    for key in mark.keys().filter(|k| *k != "type" && *k != "ttl") {
        out.push(
            "ANT-40",
            m.at.clone(),
            format!("{dotted}.{key}: Extra inputs are not permitted"),
        );
    }
}

/// ANT-27: no mark on an empty text block.
fn check_ant_27_empty_text(m: &Mark<'_>, out: &mut Findings) {
    let Some(block) = m.block.filter(|b| block_type(b) == Some("text")) else {
        return;
    };
    if block
        .get("text")
        .and_then(Value::as_str)
        .is_some_and(str::is_empty)
    {
        let parent = m.at.dotted();
        let parent = parent.trim_end_matches(".cache_control");
        out.push(
            "ANT-27",
            m.at.clone(),
            format!("{parent}: cache_control cannot be set for empty text blocks"),
        );
    }
}

/// The lifetime a mark asks for: `1h`, or `5m` (also when it names none).
fn is_one_hour(mark: &Value) -> bool {
    mark.get("ttl").and_then(Value::as_str) == Some("1h")
}

/// ANT-28: no `1h` mark after a `5m` one, in the order tools, system, messages.
fn check_ant_28_ttl_order(marks: &[Mark<'_>], out: &mut Findings) {
    let Some(first_short) = marks.iter().position(|m| !is_one_hour(m.value)) else {
        return;
    };
    if let Some(late) = marks[first_short..].iter().find(|m| is_one_hour(m.value)) {
        out.push(
            "ANT-28",
            late.at.k("ttl"),
            format!(
                "{}.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.",
                late.at.dotted()
            ),
        );
    }
}

/// ANT-18: at most 4 marks.
fn check_ant_18_count(marks: Vec<Mark<'_>>, out: &mut Findings) {
    let found = marks.len();
    if let Some(fifth) = marks.into_iter().nth(MAX_CACHE_MARKERS) {
        out.push(
            "ANT-18",
            fifth.at,
            format!(
                "A maximum of {MAX_CACHE_MARKERS} blocks with cache_control may be provided. \
                 Found {found}."
            ),
        );
    }
}
