//! `ANT-25`: `role: "system"` messages inside `messages` (the SDK's `SystemMessageParam`, since
//! 2026-05-28). Only some models take them; where they stand is restricted; their content is
//! text (and, in the beta, the tool-change blocks).

use serde_json::Value;

use super::message::{block_type, Msg, Role};
use crate::models::capabilities;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// The API's text for a system message on a model that does not take one
/// (anthropics/claude-code#61412, 2026-05-22).
pub(super) const ANT_25_MODEL_MSG: &str = "role 'system' is not supported on this model";

/// ANT-25: each system message inside the conversation is on a model that takes it, follows a
/// user message and precedes an assistant message or ends the array; the first message is
/// never one (ANT-01 reports that).
pub(super) fn check_ant_25_system_messages(
    msgs: &[Msg<'_>],
    model: Option<&str>,
    out: &mut Findings,
) {
    let refused = model
        .and_then(|m| capabilities(Provider::Anthropic, m))
        .is_some_and(|c| !c.system_messages);
    for (i, m) in msgs.iter().enumerate() {
        if !m.is(Role::System) {
            continue;
        }
        if refused {
            out.push("ANT-25", Path::msg(i).k("role"), ANT_25_MODEL_MSG);
        }
        // anthropics/claude-code#73821 (2026-07-03)
        if msgs
            .get(i + 1)
            .is_some_and(|next| !next.is(Role::Assistant))
        {
            out.push(
                "ANT-25",
                Path::msg(i),
                format!("messages.{i}: role 'system' must precede an 'assistant' message or end the array"),
            );
        }
        // "immediately after a user turn" (What's new in Claude 4.8); no error text captured
        if i > 0 && !msgs.get(i - 1).is_some_and(|prev| prev.is(Role::User)) {
            out.push(
                "ANT-25",
                Path::msg(i),
                format!("messages.{i}: role 'system' must follow a 'user' message"),
            );
        }
        for (b, block) in m.blocks() {
            if !is_system_block(block) {
                out.push(
                    "ANT-25",
                    Path::block(i, b).k("type"),
                    "a system message holds text blocks (and tool_addition / tool_removal blocks)",
                );
            }
        }
    }
}

/// Whether a block is allowed in a system message.
fn is_system_block(block: &Value) -> bool {
    matches!(
        block_type(block),
        Some("text" | "tool_addition" | "tool_removal")
    )
}
