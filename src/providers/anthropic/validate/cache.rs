//! `ANT-18`: at most 4 `cache_control` markers in one request.

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};

/// Maximum number of `cache_control` markers in one request.
const MAX_CACHE_MARKERS: usize = 4;

/// ANT-18: at most 4 cache_control markers (tools, then system, then messages).
pub(super) fn check_ant_18_cache_markers(obj: &Map<String, Value>, out: &mut Findings) {
    let mut markers: Vec<Path> = Vec::new();
    let has_marker = |v: &Value| v.get("cache_control").is_some_and(|c| !c.is_null());
    if let Some(Value::Array(tools)) = obj.get("tools") {
        for (t, tool) in tools.iter().enumerate() {
            if has_marker(tool) {
                markers.push(Path::root().k("tools").i(t).k("cache_control"));
            }
        }
    }
    if let Some(Value::Array(blocks)) = obj.get("system") {
        for (b, block) in blocks.iter().enumerate() {
            if has_marker(block) {
                markers.push(Path::root().k("system").i(b).k("cache_control"));
            }
        }
    }
    if let Some(Value::Array(msgs)) = obj.get("messages") {
        for (i, m) in msgs.iter().enumerate() {
            let Some(Value::Array(blocks)) = m.get("content") else {
                continue;
            };
            for (b, block) in blocks.iter().enumerate() {
                if has_marker(block) {
                    markers.push(Path::block(i, b).k("cache_control"));
                }
                if let Some(Value::Array(items)) = block.get("content") {
                    for (k, item) in items.iter().enumerate() {
                        if has_marker(item) {
                            markers.push(Path::block(i, b).k("content").i(k).k("cache_control"));
                        }
                    }
                }
            }
        }
    }
    let found = markers.len();
    if let Some(fifth) = markers.into_iter().nth(MAX_CACHE_MARKERS) {
        out.push(
            "ANT-18",
            fifth,
            format!(
                "A maximum of {MAX_CACHE_MARKERS} blocks with cache_control may be provided. \
                 Found {found}."
            ),
        );
    }
}
