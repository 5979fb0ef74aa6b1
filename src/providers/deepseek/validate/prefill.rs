//! `DSK-06`: `deepseek-reasoner` takes no assistant message at the end of the request, except
//! one in prefix mode (`"prefix": true`, beta endpoint).

use serde_json::Value;

use crate::models::capabilities;
use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;
use crate::vocab::Provider;

const DSK_06_MSG: &str = "The last message of deepseek-reasoner must be a user message, or an \
     assistant message with prefix mode on (refer to \
     https://api-docs.deepseek.com/guides/chat_prefix_completion).";

/// DSK-06 on a body whose model takes no prefill: reported at a final assistant message without
/// `"prefix": true`.
pub(super) fn check_dsk_06_last_message(body: &Value, msgs: &[WireMsg<'_>], out: &mut Findings) {
    let Some(model) = body.get("model").and_then(Value::as_str) else {
        return;
    };
    if capabilities(Provider::DeepSeek, model).is_none_or(|c| c.accepts_prefill) {
        return;
    }
    let Some(last) = msgs.last().filter(|m| m.is("assistant")) else {
        return;
    };
    if last.field("prefix").and_then(Value::as_bool) != Some(true) {
        out.push("DSK-06", last.path(), DSK_06_MSG);
    }
}
