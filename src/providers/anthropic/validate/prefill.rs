//! The final assistant message, which asks the model to continue it (a prefill): `ANT-23` (it
//! does not end with whitespace) and `ANT-24` (Claude 4.6 and later take none).

use super::message::{block_type, Content, Msg, Role};
use crate::models::capabilities;
use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

const ANT_23_MSG: &str = "messages: final assistant content cannot end with trailing whitespace";
const ANT_24_MSG: &str = "This model does not support assistant message prefill. The conversation \
     must end with a user message.";

/// The index of the last message when it is an assistant message.
fn prefill_index(msgs: &[Msg<'_>]) -> Option<usize> {
    let i = msgs.len().checked_sub(1)?;
    msgs.get(i).filter(|m| m.is(Role::Assistant)).map(|_| i)
}

/// ANT-23: a final assistant message does not end with whitespace (its string content, or the
/// text of its last block).
pub(super) fn check_ant_23_prefill_whitespace(msgs: &[Msg<'_>], out: &mut Findings) {
    let Some(i) = prefill_index(msgs) else {
        return;
    };
    let Some(m) = msgs.get(i) else {
        return;
    };
    let (text, path) = match m.content {
        Content::Text(s) => (Some(s), Path::msg(i).k("content")),
        Content::Blocks(blocks) => {
            let b = blocks.len().saturating_sub(1);
            let text = blocks
                .last()
                .filter(|v| block_type(v) == Some("text"))
                .and_then(|v| v.get("text"))
                .and_then(|t| t.as_str());
            (text, Path::block(i, b).k("text"))
        }
        Content::Invalid => (None, Path::root()),
    };
    // Whitespace-only text is ANT-09's.
    if text.is_some_and(|t| !t.trim().is_empty() && t.ends_with(char::is_whitespace)) {
        out.push("ANT-23", path, ANT_23_MSG);
    }
}

/// ANT-24: the request ends with a user message when the capability table says the model takes
/// no prefill (Claude 4.6 and later, and `claude-*` models it does not name yet). A model name
/// the table does not know at all (a gateway alias) is not reported: what it takes is unknown.
pub(super) fn check_ant_24_no_prefill(msgs: &[Msg<'_>], model: Option<&str>, out: &mut Findings) {
    let Some(model) = model else {
        return;
    };
    if capabilities(Provider::Anthropic, model).is_none_or(|c| c.accepts_prefill) {
        return;
    }
    if let Some(i) = prefill_index(msgs) {
        out.push("ANT-24", Path::msg(i), ANT_24_MSG);
    }
}
