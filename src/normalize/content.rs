//! Content hygiene: no empty or whitespace-only text, no empty messages, tool arguments that are
//! JSON objects, and no completed tool result without content.

use serde_json::{Map, Value};

use super::work::{describe, describe_message, Msg};
use crate::model::{Block, ProviderMeta};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Placeholder content of a completed tool result that returned nothing.
pub const EMPTY_RESULT_TEXT: &str = "(no output)";
/// Placeholder of an error without text.
pub const EMPTY_ERROR_TEXT: &str = "(the tool reported an error without a message)";

fn blank(s: &str) -> bool {
    s.trim().is_empty()
}

/// Whether a block has anything to send.
fn is_empty_block(block: &Block) -> bool {
    match block {
        // a signed empty text part is Gemini continuity, replayed where it belongs (an empty
        // signature is none)
        Block::Text(t) => blank(&t.text) && !has_signature(&t.meta),
        Block::Code(c) => blank(&c.code),
        Block::Media(m) => blank(&m.data),
        Block::Thinking(t) => blank(&t.thought) && !has_opaque_payload(&t.meta),
        _ => false,
    }
}

fn has_signature(meta: &Option<ProviderMeta>) -> bool {
    match meta {
        Some(ProviderMeta::GeminiThoughtSignature { thought_signature }) => {
            !thought_signature.is_empty()
        }
        // a phase labels text; it is nothing to send on its own (ORS-18)
        Some(ProviderMeta::OpenAiPhase { .. }) | None => false,
        Some(_) => true,
    }
}

fn has_opaque_payload(meta: &Option<ProviderMeta>) -> bool {
    match meta {
        Some(ProviderMeta::AnthropicRedacted { data }) => !data.is_empty(),
        // Thinking with its display omitted still carries a signature to replay (ANT-14).
        Some(ProviderMeta::AnthropicSignature { signature }) => !signature.is_empty(),
        Some(ProviderMeta::OpenAiReasoning {
            encrypted_content: Some(e),
            ..
        }) => !e.is_empty(),
        // OpenRouter's encrypted items carry reasoning with no text (ORT-02)
        Some(ProviderMeta::OpenRouterReasoningDetails { details }) => !details.is_empty(),
        _ => false,
    }
}

pub(crate) fn clean(msgs: Vec<Msg>, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    let mut out = Vec::with_capacity(msgs.len());
    for mut msg in msgs {
        let had_items = !msg.items.is_empty();
        msg.items.retain(|item| {
            if let Block::Other(v) = &item.block {
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::BlockOmitted,
                        FaultClass::ProviderProjection,
                        format!(
                            "block of unknown type `{}` at {} cannot be sent to any provider; left out ({} bytes of JSON)",
                            item.block.type_name(),
                            describe(item.origin),
                            v.to_string().len()
                        ),
                    )
                    .at(item.origin),
                );
                return false;
            }
            if is_empty_block(&item.block) {
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::EmptyTextRemoved,
                        FaultClass::CanonicalState,
                        format!(
                            "empty or whitespace-only {} block at {} removed",
                            item.block.type_name(),
                            describe(item.origin)
                        ),
                    )
                    .at(item.origin),
                );
                false
            } else {
                true
            }
        });
        for item in &mut msg.items {
            match &mut item.block {
                Block::ToolCall(call) => {
                    // No arguments at all is how a call without parameters is often stored.
                    if matches!(call.parameters, None | Some(Value::Null)) {
                        call.parameters = Some(Value::Object(Map::new()));
                    } else if let Some((fixed, repairs)) = object_parameters(&call.parameters) {
                        // Arguments given as JSON text may hold lone surrogate escapes.
                        if !repairs.is_empty() {
                            let root = match item.origin {
                                Some((m, b)) => format!("$[{m}].blocks[{b}].parameters"),
                                None => "$.parameters".to_string(),
                            };
                            for mut d in crate::json::report::surrogates(&repairs, &root) {
                                d.block_index = item.origin.map(|(_, b)| b);
                                diags.push(d);
                            }
                        }
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::ParametersNormalized,
                                FaultClass::CanonicalState,
                                format!(
                                    "arguments of call `{}` at {} were not a JSON object; sent as {}",
                                    call.id,
                                    describe(item.origin),
                                    fixed
                                ),
                            )
                            .at(item.origin)
                            .call(call.id.clone()),
                        );
                        call.parameters = Some(fixed);
                    }
                }
                Block::ToolResponse(r) => {
                    if let Some(err) = &r.error {
                        if blank(err) {
                            r.error = Some(EMPTY_ERROR_TEXT.to_string());
                            diags.push(filled(item.origin, &r.call_id, "error text"));
                        }
                    } else if r.status() == crate::model::ToolStatus::Complete
                        && result_is_empty(r.result.as_ref())
                    {
                        r.result = Some(Value::String(EMPTY_RESULT_TEXT.to_string()));
                        diags.push(filled(item.origin, &r.call_id, "result"));
                    }
                }
                _ => {}
            }
        }
        if msg.items.is_empty() {
            let why = if had_items {
                "has no content left"
            } else {
                "has no blocks"
            };
            diags.push(
                Diagnostic::new(
                    DiagnosticCode::EmptyMessageRemoved,
                    FaultClass::CanonicalState,
                    format!(
                        "`{}` {} {why}; removed",
                        msg.speaker.as_str(),
                        describe_message(msg.origin)
                    ),
                )
                .at_message(msg.origin),
            );
            continue;
        }
        out.push(msg);
    }
    out
}

fn filled(origin: Option<(usize, usize)>, call_id: &str, what: &str) -> Diagnostic {
    Diagnostic::new(
        DiagnosticCode::EmptyResultFilled,
        FaultClass::CanonicalState,
        format!(
            "tool result for `{call_id}` at {} had an empty {what}; a placeholder was sent",
            describe(origin)
        ),
    )
    .at(origin)
    .call(call_id.to_string())
}

/// Whether a completed result has nothing a provider could show.
fn result_is_empty(result: Option<&Value>) -> bool {
    match result {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => blank(s),
        Some(Value::Array(a)) => a.is_empty(),
        _ => false,
    }
}

/// `Some(object)` when arguments must change to become a JSON object; `None` when they already
/// are. Arguments given as JSON text are parsed as such (unpaired surrogate escapes repaired:
/// the repairs come back with the object).
fn object_parameters(params: &Option<Value>) -> Option<(Value, Vec<crate::json::SurrogateRepair>)> {
    match params {
        Some(Value::Object(_)) => None,
        None | Some(Value::Null) => Some((Value::Object(Map::new()), Vec::new())),
        Some(Value::String(s)) => match crate::json::parse(s, "$", "the arguments") {
            Ok(crate::json::Parsed {
                value: v @ Value::Object(_),
                repairs,
            }) => Some((v, repairs)),
            _ if blank(s) => Some((Value::Object(Map::new()), Vec::new())),
            _ => Some((wrap(Value::String(s.clone())), Vec::new())),
        },
        Some(other) => Some((wrap(other.clone()), Vec::new())),
    }
}

fn wrap(v: Value) -> Value {
    let mut m = Map::new();
    m.insert("input".into(), v);
    Value::Object(m)
}

#[cfg(test)]
mod tests;
