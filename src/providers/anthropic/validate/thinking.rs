//! Extended-thinking rules: `ANT-10`, `ANT-11`, `ANT-13`, `ANT-15`, `ANT-16` and `ANT-17`.

use serde_json::Value;

use super::message::{block_type, is_thinking_block, Content, Msg, Role, PAIRING};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

const ANT_10_TAIL: &str = "When `thinking` is enabled, a final `assistant` message must start \
     with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). \
     We recommend you include thinking blocks from previous turns. To avoid this requirement, \
     disable `thinking`.";

const ANT_15_MSG: &str = "When thinking is disabled, an `assistant` message in the final position \
     cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.";

const ANT_16_MSG: &str = "The final block in an assistant message cannot be `thinking`.";

/// A thinking block has a string `thinking` and a signature (ANT-13).
pub(super) fn check_thinking_block(block: &Value, path: &Path, out: &mut Findings) {
    if !block.get("thinking").is_some_and(Value::is_string) {
        out.push(
            STRUCT,
            path.k("thinking"),
            "thinking block needs a string `thinking`",
        );
    }
    check_ant_13_signature(block, path, out);
}

/// ANT-10: thinking on, the request ends in an open tool loop (the last message is a user
/// message with tool_result blocks) or with an assistant message to continue (prefill), so the
/// first assistant message of that turn starts with thinking (a tool loop is one assistant
/// turn: later steps of the loop need no thinking of their own).
pub(super) fn check_ant_10_open_loop_starts_with_thinking(
    msgs: &[Msg<'_>],
    thinking_on: bool,
    out: &mut Findings,
) {
    if !thinking_on || msgs.len() < 2 {
        return;
    }
    let last_idx = msgs.len() - 1;
    let Some(last) = msgs.get(last_idx) else {
        return;
    };
    // An open loop: the last message is a user message carrying tool_result blocks (they
    // should come first, but a misplaced result still opens the loop; ANT-05 reports that).
    let open_loop = last.is(Role::User) && last.blocks_of(PAIRING.result).next().is_some();
    // A final assistant message (prefill) is continued by the model: it must start with
    // thinking as well.
    let prefill = last.is(Role::Assistant);
    if !open_loop && !prefill {
        return;
    }
    // A tool loop is one assistant turn: it starts after the last user message that carries
    // no tool_result blocks, and its first assistant message must start with thinking.
    let turn_start = msgs
        .iter()
        .rposition(|m| m.is(Role::User) && m.blocks_of(PAIRING.result).next().is_none())
        .map_or(0, |i| i + 1);
    let Some(a) =
        (turn_start..msgs.len()).find(|&i| msgs.get(i).is_some_and(|m| m.is(Role::Assistant)))
    else {
        return;
    };
    let Some(asst) = msgs.get(a) else {
        return;
    };
    let (path, found) = match asst.content {
        Content::Text(_) => (Path::msg(a).k("content"), "text".to_string()),
        Content::Blocks(blocks) => match blocks.first() {
            Some(first) if is_thinking_block(first) => return,
            Some(first) => (
                Path::block(a, 0).k("type"),
                block_type(first).unwrap_or("unknown").to_string(),
            ),
            None => return,
        },
        Content::Invalid => return,
    };
    out.push(
        "ANT-10",
        path,
        format!("Expected `thinking` or `redacted_thinking`, but found `{found}`. {ANT_10_TAIL}"),
    );
}

/// ANT-11: an assistant message that holds thinking starts with a thinking block.
pub(super) fn check_ant_11_thinking_first(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) || !msg.has_thinking() {
            continue;
        }
        if let Some((_, first)) = msg.blocks().next() {
            if !is_thinking_block(first) {
                out.push(
                    "ANT-11",
                    Path::block(i, 0),
                    format!(
                        "If an assistant message contains any thinking blocks, the first block \
                         must be thinking or redacted_thinking. Found {}.",
                        block_type(first).unwrap_or("unknown")
                    ),
                );
            }
        }
    }
}

/// ANT-13: thinking blocks carry a non-empty signature.
fn check_ant_13_signature(block: &Value, path: &Path, out: &mut Findings) {
    let spath = path.k("signature");
    match block.get("signature") {
        None | Some(Value::Null) => out.push("ANT-13", spath, "thinking.signature: Field required"),
        Some(Value::String(s)) if !s.is_empty() => {
            // ANT-51: another provider's signature (a UUID from DeepSeek's /anthropic endpoint)
            if let Some(minter) = crate::vocab::foreign_signature_minter(s) {
                out.push(
                    "ANT-51",
                    spath,
                    format!("Invalid `signature` in `thinking` block (the signature is {minter})"),
                );
            }
        }
        Some(_) => out.push(
            "ANT-13",
            spath,
            "thinking.signature must be a non-empty string",
        ),
    }
}

/// ANT-15: with thinking off, a final assistant message holds no thinking.
pub(super) fn check_ant_15_final_thinking_when_off(
    msgs: &[Msg<'_>],
    thinking_on: bool,
    out: &mut Findings,
) {
    if thinking_on {
        return;
    }
    let Some((i, last)) = msgs.iter().enumerate().next_back() else {
        return;
    };
    if !last.is(Role::Assistant) {
        return;
    }
    if let Some((b, _)) = last.blocks().find(|(_, b)| is_thinking_block(b)) {
        out.push("ANT-15", Path::block(i, b), ANT_15_MSG);
    }
}

/// ANT-16: an assistant message does not end with a thinking block.
pub(super) fn check_ant_16_not_ending_with_thinking(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) {
            continue;
        }
        if let Some((b, last)) = msg.blocks().last() {
            if is_thinking_block(last) {
                out.push("ANT-16", Path::block(i, b), ANT_16_MSG);
            }
        }
    }
}

/// ANT-17: redacted_thinking blocks carry non-empty `data`.
pub(super) fn check_ant_17_redacted(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("data") {
        Some(Value::String(s)) if !s.is_empty() => {}
        _ => out.push(
            "ANT-17",
            path.k("data"),
            "redacted_thinking.data must be a non-empty string",
        ),
    }
}
