//! `GRQ-01`: no reasoning fields on messages unless the server accepts the one used.

use super::rules::CompatRules;
use super::view::WireMsg;
use crate::providers::validate_support::{Findings, Path};

/// Reasoning fields seen on chat messages across providers and gateways; a member whose name
/// starts with `reasoning` or `thinking` but is not listed is reported at the message path.
const KNOWN: [&str; 9] = [
    "reasoning_content",
    "reasoning",
    "reasoning_details",
    "reasoning_text",
    "reasoning_opaque",
    "reasoning_signature",
    "thinking",
    "thinking_blocks",
    "thinking_signature",
];

/// GRQ-01: a message member named like a reasoning field is reported unless it is
/// `rules.reasoning_field` (or, with `rules.reasoning_details`, OpenRouter's
/// `reasoning_details`) on an assistant message.
pub(super) fn check_grq_01_reasoning_fields(
    msgs: &[WireMsg<'_>],
    rules: &CompatRules,
    out: &mut Findings,
) {
    for m in msgs {
        let role = m.role().unwrap_or("?");
        for key in m.obj.keys() {
            if !(key.starts_with("reasoning") || key.starts_with("thinking")) {
                continue;
            }
            if role == "assistant" && rules.reasoning_field.as_deref() == Some(key.as_str()) {
                continue;
            }
            // OpenRouter takes its details back (ORT-02)
            if role == "assistant" && rules.reasoning_details && key == super::openrouter::DETAILS {
                continue;
            }
            let path = match KNOWN.iter().find(|k| **k == key.as_str()) {
                Some(k) => m.path().k(k),
                None => Path::msg(m.idx),
            };
            out.push(
                "GRQ-01",
                path,
                format!(
                    "'messages.{i}' : for 'role:{role}' the following must be satisfied\
                     [('messages.{i}' : property '{key}' is unsupported)]",
                    i = m.idx
                ),
            );
        }
    }
}
