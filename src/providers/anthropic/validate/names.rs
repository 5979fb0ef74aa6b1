//! Id and name patterns: `ANT-08` (tool ids) and `ANT-20` (declared tool names, names used in
//! history).

use crate::fast_map::HashSet;

use serde_json::Value;

use super::message::Msg;
use crate::providers::validate_support::{is_id_char, Findings, Path};

/// Strict id length limit (Bedrock `toolUseId` is 1..64; first-party has no captured maximum).
const MAX_ID_LEN: usize = 64;

/// Tool names: provider-rules.md quotes both 64 (older pattern) and 128 (newer limit); the strict
/// validator uses 64 so a body valid here is valid for both.
const MAX_TOOL_NAME_LEN: usize = 64;

/// ANT-08: `^[a-zA-Z0-9_-]{1,64}$` on tool_use ids and tool_result references.
pub(super) fn check_ant_08_id(id: &str, path: &Path, out: &mut Findings) {
    if id.is_empty() {
        out.push(
            "ANT-08",
            path.clone(),
            "String should have at least 1 character",
        );
    } else if !id.chars().all(is_id_char) {
        out.push(
            "ANT-08",
            path.clone(),
            "String should match pattern '^[a-zA-Z0-9_-]+$'",
        );
    } else if id.len() > MAX_ID_LEN {
        out.push(
            "ANT-08",
            path.clone(),
            format!(
                "String should have at most {MAX_ID_LEN} characters (strict limit), found {}",
                id.len()
            ),
        );
    }
}

/// ANT-20: declared tool names match `^[a-zA-Z0-9_-]{1,64}$`.
pub(super) fn check_ant_20_tool_name(name: &str, path: &Path, out: &mut Findings) {
    if name.is_empty() || !name.chars().all(is_id_char) {
        out.push(
            "ANT-20",
            path.clone(),
            "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
        );
    } else if name.len() > MAX_TOOL_NAME_LEN {
        out.push(
            "ANT-20",
            path.clone(),
            format!(
                "String should have at most {MAX_TOOL_NAME_LEN} characters (strict limit), found \
                 {}",
                name.len()
            ),
        );
    }
}

/// ANT-20: with `tools` sent, every tool_use name in history is declared.
pub(super) fn check_ant_20_history_names(
    msgs: &[Msg<'_>],
    declared: Option<&HashSet<&str>>,
    out: &mut Findings,
) {
    let Some(declared) = declared else {
        return;
    };
    for (i, msg) in msgs.iter().enumerate() {
        for (b, block) in msg.blocks_of("tool_use") {
            if let Some(name) = block.get("name").and_then(Value::as_str) {
                if !declared.contains(name) {
                    out.push(
                        "ANT-20",
                        Path::block(i, b).k("name"),
                        format!("tool_use name {name:?} is not declared in `tools`"),
                    );
                }
            }
        }
    }
}
