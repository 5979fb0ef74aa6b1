//! The rule every provider enforces before any other: the body is JSON text of Unicode scalar
//! values. An unpaired UTF-16 surrogate — escaped (`"\ud83d"`, what `JSON.stringify` writes
//! for half an emoji) or as raw bytes — is refused with a parse error (ANT-22, OAC-10, ORS-11,
//! GEM-12, MIS-07, KIM-05, DSK-05 in `provider-rules.md`), and the session stays broken until
//! the history is repaired.

use super::{validate_request, validate_request_for_model, Provider, Violation};
use crate::error::Error;
use crate::json;

/// The rule id and the provider's words for each kind of unpaired surrogate: a high one without
/// its low half, a low one alone, raw bytes.
pub(crate) struct Rule {
    id: &'static str,
    lone_high: &'static str,
    lone_low: &'static str,
    raw: &'static str,
}

pub(crate) const ANTHROPIC: Rule = Rule {
    id: "ANT-22",
    lone_high: "The request body is not valid JSON: no low surrogate in string",
    lone_low: "The request body is not valid JSON: invalid high surrogate in string",
    raw: "The request body is not valid JSON: str is not valid UTF-8: surrogates not allowed",
};
pub(crate) const DEEPSEEK: Rule = Rule {
    id: "DSK-05",
    lone_high: "Failed to parse the request body as JSON: unexpected end of hex escape",
    lone_low: "Failed to parse the request body as JSON: lone leading surrogate in hex escape",
    raw: "Failed to parse the request body as JSON: invalid unicode code point",
};
/// A rule whose provider words are the same for every kind.
const fn one_text(id: &'static str, text: &'static str) -> Rule {
    Rule {
        id,
        lone_high: text,
        lone_low: text,
        raw: text,
    }
}
/// OpenAI's generic parse error [inferred for surrogates: no thread quotes the exact text].
const OPENAI_PARSE: &str = "We could not parse the JSON body of your request. [inferred]";
pub(crate) const OPENAI_CHAT: Rule = one_text("OAC-10", OPENAI_PARSE);
pub(crate) const OPENAI_RESPONSES: Rule = one_text("ORS-11", OPENAI_PARSE);
pub(crate) const GEMINI: Rule = one_text(
    "GEM-12",
    "Invalid JSON payload received. [inferred: Gemini may accept it, strict rule]",
);
const UNPAIRED: &str = "the request body carries an unpaired UTF-16 surrogate [inferred]";
pub(crate) const MISTRAL: Rule = one_text("MIS-07", UNPAIRED);
pub(crate) const KIMI: Rule = one_text("KIM-05", UNPAIRED);
/// Bedrock's parse error (`Malformed input request`), not captured for a surrogate [inferred].
pub(crate) const BEDROCK: Rule = one_text(
    "BDR-SCHEMA",
    "Malformed input request: the request body is not valid UTF-8 JSON (an unpaired surrogate) [inferred]",
);
/// Ollama (Go `encoding/json`): an unpaired surrogate escape decodes to U+FFFD, so the text
/// is taken changed rather than refused [doc: Go's `encoding/json`, "replaced by U+FFFD"].
pub(crate) const OLLAMA: Rule = one_text(
    "OLL-06",
    "accepted with the unpaired surrogate replaced by U+FFFD (Go encoding/json): the text changes [doc]",
);
/// OpenAI-compatible servers: vLLM fails on encoding, llama.cpp answers 500 (retried
/// forever by clients), serde-based servers answer like DeepSeek.
pub(crate) const COMPATIBLE: Rule = Rule {
    id: "OAC-10",
    lone_high: "surrogate U+D800..U+DBFF must be followed by U+DC00..U+DFFF (llama.cpp; serde servers: unexpected end of hex escape)",
    lone_low: "surrogate U+DC00..U+DFFF must follow U+D800..U+DBFF (llama.cpp; serde servers: lone leading surrogate in hex escape)",
    raw: "'utf-8' codec can't encode character: surrogates not allowed (vLLM, LiteLLM)",
};

fn rule(provider: Provider) -> &'static Rule {
    super::validators::validator(provider).surrogates
}

fn violation(r: &Rule, path: String, unit: u16, raw: bool) -> Violation {
    let text = if raw {
        r.raw
    } else if (0xD800..=0xDBFF).contains(&unit) {
        r.lone_high
    } else {
        r.lone_low
    };
    let form = if raw { "raw bytes of" } else { "escaped" };
    Violation::new(
        r.id,
        path,
        format!("{text} ({form} unpaired surrogate U+{unit:04X})"),
    )
}

/// Checks a body as it goes on the wire — JSON text or its bytes — against every strict rule
/// of `provider`: first the JSON text rule (no unpaired surrogate, escaped or raw; one
/// violation per occurrence, with the JSON path of its string), then, on the text with those
/// replaced, every rule [`validate_request_for_model`] checks. Fails only when the bytes are
/// not JSON at all (`invalid_json`, with the path where the text broke).
///
/// ```
/// use turnwire::{validate_request_text, Provider};
/// let body = br#"{"model":"claude-sonnet-4-5","max_tokens":16,"messages":[{"role":"user","content":"cut \ud83d"}]}"#;
/// let v = validate_request_text(Provider::Anthropic, None, body)?;
/// assert_eq!((v[0].rule, v[0].path.as_str()), ("ANT-22", "$.messages[0].content"));
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn validate_request_text(
    provider: Provider,
    model: Option<&str>,
    body: &[u8],
) -> Result<Vec<Violation>, Error> {
    validate_request_text_for_host(provider, model, None, body)
}

/// Like [`validate_request_text`], for a body sent to `host` (see
/// `validate_request_for_host`: the host's envelope, then the body in its wire's shape).
///
/// ```
/// use turnwire::{validate_request_text_for_host, Host, Provider};
/// let body = br#"{"anthropic_version":"vertex-2023-10-16","max_tokens":64,"messages":[{"role":"user","content":"hi"}]}"#;
/// assert!(validate_request_text_for_host(Provider::Anthropic, Some("claude-sonnet-4-5"), Some(Host::Vertex), body)?.is_empty());
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn validate_request_text_for_host(
    provider: Provider,
    model: Option<&str>,
    host: Option<crate::Host>,
    body: &[u8],
) -> Result<Vec<Violation>, Error> {
    let (parsed, raw) = json::parse_bytes(body, "$", "the request body")?;
    let r = rule(provider);
    let mut out = Vec::new();
    for repair in &parsed.repairs {
        let path = json::format_path("$", &repair.path);
        for &unit in &repair.units {
            out.push(violation(r, path.clone(), unit, false));
        }
    }
    if !raw.is_empty() {
        let offsets: Vec<usize> = raw.iter().map(|s| s.offset).collect();
        for (s, path) in raw.iter().zip(json::paths_at(body, &offsets, "$")) {
            out.push(violation(r, path, s.unit, true));
        }
    }
    out.extend(match (host, model) {
        (Some(h), m) => {
            super::validate_request_for_host(provider, h, m.unwrap_or_default(), &parsed.value)
        }
        (None, Some(m)) => validate_request_for_model(provider, m, &parsed.value),
        (None, None) => validate_request(provider, &parsed.value),
    });
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_provider_flags_escaped_and_raw_surrogates() {
        for p in Provider::ALL.iter().copied() {
            let v = validate_request_text(p, None, br#"{"x":"a\ude00"}"#).unwrap_or_default();
            assert!(
                v.iter().any(|v| v.rule == rule(p).id && v.path == "$.x"),
                "{p}"
            );
            let mut bytes = br#"{"x":"a"#.to_vec();
            bytes.extend_from_slice(&[0xED, 0xA0, 0xBD, b'"', b'}']);
            let v = validate_request_text(p, None, &bytes).unwrap_or_default();
            assert!(
                v.iter()
                    .any(|v| v.rule == rule(p).id && v.message.contains("raw")),
                "{p}"
            );
        }
    }

    #[test]
    fn anthropic_words_follow_the_kind_of_surrogate() {
        let v = validate_request_text(Provider::Anthropic, None, br#"{"a":"\ud83d","b":"\ude00"}"#)
            .unwrap_or_default();
        assert!(v[0].message.contains("no low surrogate in string"));
        assert!(v[1].message.contains("invalid high surrogate in string"));
        assert_eq!(v[1].path, "$.b");
    }
}
