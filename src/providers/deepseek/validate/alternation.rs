//! `DSK-01`: `deepseek-reasoner` wants user and assistant messages interleaved.

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;

/// DSK-01 on a `deepseek-reasoner` body. System and developer messages are skipped; a tool
/// message counts as neither user nor assistant, so it separates the messages around it (the
/// assistant → tool → assistant of a tool loop is interleaved). Two user messages, or two
/// assistant messages, next to each other in what remains are reported at the second one.
pub(super) fn check_dsk_01_alternation(msgs: &[WireMsg<'_>], out: &mut Findings) {
    let mut prev: Option<(usize, Option<&str>)> = None;
    for m in msgs {
        let role = m.role();
        if matches!(role, Some("system" | "developer")) {
            continue;
        }
        if let (Some((pidx, Some(prole))), Some(r)) = (prev, role) {
            if prole == r && matches!(r, "user" | "assistant") {
                out.push(
                    "DSK-01",
                    m.path().k("role"),
                    format!(
                        "deepseek-reasoner does not support successive user or assistant \
                         messages (messages[{pidx}] and messages[{}] in your input). You should \
                         interleave the user/assistant messages in the message sequence.",
                        m.idx
                    ),
                );
            }
        }
        prev = Some((m.idx, role));
    }
}
