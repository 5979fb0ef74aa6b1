//! Continuity tokens held in a nested `providerMeta` or `meta` object — the ordered-transcripts
//! spec's `ProviderMeta` (`{"provider": "gemini", "thoughtSignature": …}`), turnwire's own
//! serde form (`{"kind": "gemini_thought_signature", "thought_signature": …}`) or an untagged
//! object of the flat names — lifted to the flat fields the block reader takes (`signature`,
//! `redactedData`, `thoughtSignature`, `reasoningId` + `encryptedContent`), so a Rust agent's
//! stored signature is replayed like any other. An object whose meaning is not clear (an
//! unknown provider, a token the block type does not carry, a flat field that says otherwise)
//! stays in the block's `extra`, where the normaliser reports it as a token left unread.

use serde_json::{Map, Value};

use crate::model::node::{get, take, Members, Node};

/// The members that may hold a nested token.
pub(crate) const NESTED_META_KEYS: [&str; 2] = ["providerMeta", "meta"];

/// Which block carries which flat token fields.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Carrier {
    /// A text part or a tool call: a Gemini signature only.
    SignedPart,
    /// A thinking block: any token.
    Thinking,
}

/// The flat fields `meta` stands for, or `None` when its meaning is not clear.
fn flat_fields(meta: &Map<String, Value>) -> Option<Vec<(&'static str, Value)>> {
    let s = |keys: &[&str]| {
        keys.iter()
            .find_map(|k| meta.get(*k).filter(|v| v.is_string()).cloned())
    };
    let tag = meta
        .get("provider")
        .or_else(|| meta.get("kind"))
        .and_then(Value::as_str);
    let fields: Vec<(&'static str, Option<Value>)> = match tag {
        Some("anthropic") => vec![
            ("signature", s(&["signature"])),
            ("redactedData", s(&["data", "redactedData"])),
        ],
        Some("anthropic_signature") => vec![("signature", s(&["signature"]))],
        Some("anthropic_redacted") => vec![("redactedData", s(&["data"]))],
        Some("gemini" | "google" | "gemini_thought_signature") => {
            vec![(
                "thoughtSignature",
                s(&["thoughtSignature", "thought_signature"]),
            )]
        }
        Some("open_ai" | "openai" | "openai_reasoning") => vec![
            ("reasoningId", s(&["id", "reasoningId"])),
            (
                "encryptedContent",
                s(&["encrypted_content", "encryptedContent"]),
            ),
        ],
        Some(_) => return None,
        None => vec![
            ("signature", s(&["signature"])),
            ("redactedData", s(&["redactedData"])),
            (
                "thoughtSignature",
                s(&["thoughtSignature", "thought_signature"]),
            ),
            ("reasoningId", s(&["reasoningId"])),
            (
                "encryptedContent",
                s(&["encryptedContent", "encrypted_content"]),
            ),
        ],
    };
    let found: Vec<(&'static str, Value)> = fields
        .into_iter()
        .filter_map(|(k, v)| v.map(|v| (k, v)))
        .collect();
    (!found.is_empty()).then_some(found)
}

/// Lifts a nested token of `obj` to its flat fields (see the module docs).
pub(super) fn lift(obj: &mut Members<'_>, carrier: Carrier) {
    for key in NESTED_META_KEYS {
        let Some(Node::Value(Value::Object(_)) | Node::Object(_)) = get(obj, key) else {
            continue;
        };
        let Some(node) = take(obj, key) else { continue };
        let value = node.into_value();
        let fields = value.as_object().and_then(flat_fields).filter(|fields| {
            fields.iter().all(|(k, v)| {
                (carrier == Carrier::Thinking || *k == "thoughtSignature")
                    && get(obj, k).is_none_or(|flat| flat.clone().into_value() == *v)
            })
        });
        match fields {
            Some(fields) => {
                for (k, v) in fields {
                    if get(obj, k).is_none() {
                        obj.push((k.into(), Node::Value(v)));
                    }
                }
            }
            None => obj.push((key.into(), Node::Value(value))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn members(v: Value) -> Members<'static> {
        Node::Value(v).into_members().unwrap_or_default()
    }

    fn lifted(v: Value, carrier: Carrier) -> Value {
        let mut m = members(v);
        lift(&mut m, carrier);
        Node::Object(m).into_value()
    }

    #[test]
    fn every_shape_of_a_gemini_signature_is_lifted() {
        for meta in [
            json!({"provider": "gemini", "thoughtSignature": "sig"}),
            json!({"kind": "gemini_thought_signature", "thought_signature": "sig"}),
            json!({"thoughtSignature": "sig"}),
        ] {
            let out = lifted(
                json!({"text": "x", "providerMeta": meta}),
                Carrier::SignedPart,
            );
            assert_eq!(out, json!({"text": "x", "thoughtSignature": "sig"}));
        }
    }

    #[test]
    fn a_token_the_block_does_not_carry_stays() {
        let v = json!({"text": "x", "meta": {"provider": "anthropic", "signature": "s"}});
        assert_eq!(lifted(v.clone(), Carrier::SignedPart), v);
        let unknown = json!({"thought": "t", "meta": {"provider": "bedrock", "token": "s"}});
        assert_eq!(lifted(unknown.clone(), Carrier::Thinking), unknown);
    }

    #[test]
    fn openai_reasoning_is_lifted_for_thinking() {
        let v = json!({"thought": "", "meta": {"provider": "open_ai", "id": "rs_1", "encrypted_content": "e"}});
        assert_eq!(
            lifted(v, Carrier::Thinking),
            json!({"thought": "", "reasoningId": "rs_1", "encryptedContent": "e"})
        );
    }

    #[test]
    fn a_flat_field_that_says_otherwise_keeps_the_nested_one_unread() {
        let v = json!({"thought": "t", "signature": "a", "meta": {"provider": "anthropic", "signature": "b"}});
        assert_eq!(lifted(v.clone(), Carrier::Thinking), v);
    }
}
