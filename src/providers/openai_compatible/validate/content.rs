//! Content the server does not take: `GRQ-02` (array content on assistant messages) and image
//! parts when [`CompatRules::images`] is off (reported as `OAC-08`, an unknown part type).

use serde_json::Value;

use super::rules::CompatRules;
use super::view::WireMsg;
use crate::providers::validate_support::Findings;

/// GRQ-02: assistant `content` is a string or null when the server wants strings only.
pub(super) fn check_grq_02_assistant_string(
    msgs: &[WireMsg<'_>],
    rules: &CompatRules,
    out: &mut Findings,
) {
    if !rules.assistant_content_string_only {
        return;
    }
    for m in msgs.iter().filter(|m| m.is("assistant")) {
        if m.obj.get("content").is_some_and(Value::is_array) {
            out.push(
                "GRQ-02",
                m.path().k("content"),
                format!("('messages.{}.content' : value must be a string)", m.idx),
            );
        }
    }
}

/// Image parts in user messages when the server takes none (other roles: OAC-07 already).
pub(super) fn check_images(msgs: &[WireMsg<'_>], rules: &CompatRules, out: &mut Findings) {
    if rules.images {
        return;
    }
    for m in msgs.iter().filter(|m| m.is("user")) {
        let Some(parts) = m.obj.get("content").and_then(Value::as_array) else {
            continue;
        };
        for (p, part) in parts.iter().enumerate() {
            if part.get("type").and_then(Value::as_str) == Some("image_url") {
                out.push(
                    "OAC-08",
                    m.path().k("content").i(p).k("type"),
                    "Invalid value: 'image_url'. This server does not accept image input \
                     (CompatRules::images is false).",
                );
            }
        }
    }
}
