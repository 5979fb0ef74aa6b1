//! DeepSeek's chat endpoint takes text only: content parts other than `text` are reported as
//! `OAC-08` (a part type the server does not know), with DeepSeek's deserializer text.

use serde_json::Value;

use crate::providers::openai_compatible::validate::view::WireMsg;
use crate::providers::validate_support::Findings;

/// Part types OpenAI accepts (so the OAC checks let them through) that DeepSeek rejects.
/// `image_url` outside user messages is OAC-07's already.
fn openai_only(role: &str, ty: &str) -> bool {
    match role {
        "user" => matches!(ty, "image_url" | "input_audio" | "file"),
        "assistant" => ty == "refusal",
        _ => false,
    }
}

/// OAC-08 (DeepSeek): every content part is `text`.
pub(super) fn check_text_only_parts(msgs: &[WireMsg<'_>], out: &mut Findings) {
    for m in msgs {
        let (Some(role), Some(parts)) = (m.role(), m.obj.get("content").and_then(Value::as_array))
        else {
            continue;
        };
        for (p, part) in parts.iter().enumerate() {
            let Some(ty) = part.get("type").and_then(Value::as_str) else {
                continue;
            };
            if openai_only(role, ty) {
                out.push(
                    "OAC-08",
                    m.path().k("content").i(p).k("type"),
                    format!(
                        "Failed to deserialize the JSON body into the target type: messages[{}]: \
                         unknown variant `{ty}`, expected `text`",
                        m.idx
                    ),
                );
            }
        }
    }
}
