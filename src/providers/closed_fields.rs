//! ANT-50, OAC-30, ORS-30, GEM-30, MIS-20 (`docs/provider-rules-added.md` §12): every top-level
//! field of a body is one the API knows, of a JSON type it takes. The field tables are written
//! from the pinned official SDKs' request types (`request_fields.rs`); the Chat Completions
//! dialects of Kimi, DeepSeek and compatible servers, which take fields of their own, are
//! checked only for the type of the OpenAI fields they share.

use serde_json::Value;

use super::request_field_types::{Field, Json};
use super::request_fields as sdk;
use super::Violation;
use crate::vocab::Provider;

/// Fields of Anthropic's API version `2023-06-01` (the `anthropic-version` turnwire sends) that
/// @anthropic-ai/sdk 1.0.0 left out of its types when it moved to version `2026-10-21`.
#[rustfmt::skip]
const ANTHROPIC_2023_06_01: &[Field] = &[
    Field::new("temperature", Json::NUMBER),
    Field::new("top_k", Json::NUMBER),
    Field::new("top_p", Json::NUMBER),
];

/// How one API's body is checked.
struct Closed {
    rule: &'static str,
    /// The fields the API knows, in tables.
    fields: &'static [&'static [Field]],
    /// Whether a field of no table is refused (`false`: dialects with fields of their own).
    closed: bool,
    /// The API's words for an unknown field.
    unknown: fn(&str) -> String,
    /// The API's words for a field of the wrong type.
    wrong_type: fn(&str, Json, &Value) -> String,
}

/// Pydantic's words for the first type of `takes` (Anthropic, Mistral).
fn pydantic_type(takes: Json) -> &'static str {
    [
        (Json::NUMBER, "number"),
        (Json::STRING, "string"),
        (Json::BOOL, "boolean"),
        (Json::ARRAY, "list"),
        (Json::OBJECT, "dictionary"),
    ]
    .iter()
    .find(|(t, _)| t.or(takes) == takes)
    .map(|(_, n)| *n)
    .unwrap_or("value")
}

fn openai_wrong_type(name: &str, takes: Json, v: &Value) -> String {
    format!(
        "Invalid type for '{name}': expected {}, but got {} instead.",
        takes.describe(),
        Json::describe_value(v)
    )
}

const ANTHROPIC: Closed = Closed {
    rule: "ANT-50",
    fields: &[sdk::ANTHROPIC, ANTHROPIC_2023_06_01],
    closed: true,
    unknown: |name| format!("{name}: Extra inputs are not permitted"),
    wrong_type: |name, takes, _| {
        format!("{name}: Input should be a valid {}", pydantic_type(takes))
    },
};

const OPENAI_CHAT: Closed = Closed {
    rule: "OAC-30",
    fields: &[sdk::OPENAI_CHAT],
    closed: true,
    unknown: |name| format!("Unrecognized request argument supplied: {name}"),
    wrong_type: openai_wrong_type,
};

const CHAT_DIALECT: Closed = Closed {
    closed: false,
    ..OPENAI_CHAT
};

const OPENAI_RESPONSES: Closed = Closed {
    rule: "ORS-30",
    fields: &[sdk::OPENAI_RESPONSES],
    closed: true,
    unknown: |name| format!("Unknown parameter: '{name}'."),
    wrong_type: openai_wrong_type,
};

const MISTRAL: Closed = Closed {
    rule: "MIS-20",
    fields: &[sdk::MISTRAL],
    closed: true,
    unknown: |name| format!("body.{name}: Extra inputs are not permitted"),
    wrong_type: |name, takes, _| {
        format!(
            "body.{name}: Input should be a valid {}",
            pydantic_type(takes)
        )
    },
};

/// The members of `ConverseRequest` but `modelId` (the URL's), from the AWS SDKs' Converse
/// input (`@aws-sdk/client-bedrock-runtime` `ConverseStreamCommandInput`).
#[rustfmt::skip]
const CONVERSE_FIELDS: &[Field] = &[
    Field::new("messages", Json::ARRAY),
    Field::new("system", Json::ARRAY),
    Field::new("inferenceConfig", Json::OBJECT),
    Field::new("toolConfig", Json::OBJECT),
    Field::new("guardrailConfig", Json::OBJECT),
    Field::new("additionalModelRequestFields", Json::ANY),
    Field::new("promptVariables", Json::OBJECT),
    Field::new("additionalModelResponseFieldPaths", Json::ARRAY),
    Field::new("requestMetadata", Json::OBJECT),
    Field::new("performanceConfig", Json::OBJECT),
    Field::new("serviceTier", Json::OBJECT),
    Field::new("outputConfig", Json::OBJECT),
];

/// Bedrock Converse: AWS's words are not captured for a top-level field (boto3 refuses it
/// before sending), so the texts are ours [inferred].
const CONVERSE: Closed = Closed {
    rule: "BDR-SCHEMA",
    fields: &[CONVERSE_FIELDS],
    closed: true,
    unknown: |name| {
        format!("Malformed input request: extraneous key [{name}] is not permitted, please reformat your input and try again. [inferred]")
    },
    wrong_type: |name, takes, v| {
        format!(
            "Malformed input request: {name}: expected {}, but got {} [inferred]",
            takes.describe(),
            Json::describe_value(v)
        )
    },
};

/// The members of Ollama's `api.ChatRequest` (api/types.go, 2026-08).
#[rustfmt::skip]
const OLLAMA_FIELDS: &[Field] = &[
    Field::new("model", Json::STRING),
    Field::new("messages", Json::ARRAY.or(Json::NULL)),
    Field::new("stream", Json::BOOL.or(Json::NULL)),
    Field::new("format", Json::ANY),
    Field::new("keep_alive", Json::STRING.or(Json::NUMBER).or(Json::NULL)),
    Field::new("tools", Json::ARRAY.or(Json::NULL)),
    Field::new("options", Json::OBJECT.or(Json::NULL)),
    Field::new("think", Json::ANY),
    Field::new("truncate", Json::BOOL.or(Json::NULL)),
    Field::new("shift", Json::BOOL.or(Json::NULL)),
    Field::new("logprobs", Json::BOOL),
    Field::new("top_logprobs", Json::NUMBER),
];

/// Ollama: gin's `ShouldBindJSON` ignores members it does not know (open), and answers a
/// member of the wrong type with Go's `encoding/json` error.
const OLLAMA: Closed = Closed {
    rule: "OLL-SCHEMA",
    fields: &[OLLAMA_FIELDS],
    closed: false,
    unknown: |name| format!("unknown field `{name}` (ignored by Ollama)"),
    wrong_type: |name, _, v| {
        format!(
            "json: cannot unmarshal {} into Go struct field ChatRequest.{name}",
            crate::providers::ollama::validate::go_kind(v)
        )
    },
};

/// Gemini (protobuf JSON): `generationConfig` is checked member by member too, and a field
/// may be spelled in the proto's snake_case as well as in camelCase.
const GEMINI: Closed = Closed {
    rule: "GEM-30",
    fields: &[sdk::GEMINI],
    closed: true,
    unknown: |name| {
        format!("Invalid JSON payload received. Unknown name \"{name}\": Cannot find field.")
    },
    wrong_type: gemini_wrong_type,
};

const GEMINI_GENERATION: Closed = Closed {
    fields: &[sdk::GEMINI_GENERATION],
    unknown: |name| {
        format!("Invalid JSON payload received. Unknown name \"{name}\" at 'generation_config': Cannot find field.")
    },
    wrong_type: |name, takes, v| gemini_wrong_type(&format!("generation_config.{name}"), takes, v),
    ..GEMINI
};

fn gemini_wrong_type(name: &str, takes: Json, v: &Value) -> String {
    let proto = match pydantic_type(takes) {
        "number" => "TYPE_FLOAT",
        "string" => "TYPE_STRING",
        "boolean" => "TYPE_BOOL",
        "list" => "TYPE_REPEATED",
        _ => "TYPE_MESSAGE",
    };
    format!("Invalid value at '{}' ({proto}), {v}", snake(name))
}

/// `generationConfig` → `generation_config`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `generation_config` → `generationConfig`.
fn camel(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut up = false;
    for c in name.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The check of `provider`'s bodies.
fn closed(provider: Provider) -> &'static Closed {
    match provider {
        Provider::Anthropic => &ANTHROPIC,
        Provider::OpenAiChat => &OPENAI_CHAT,
        Provider::OpenAiResponses => &OPENAI_RESPONSES,
        Provider::Gemini => &GEMINI,
        Provider::Mistral => &MISTRAL,
        Provider::Kimi | Provider::DeepSeek | Provider::OpenAiCompatible => &CHAT_DIALECT,
        Provider::BedrockConverse => &CONVERSE,
        Provider::Ollama => &OLLAMA,
    }
}

/// The members of `obj` (at `at`, `$` or `$.generationConfig`) checked against `c`.
fn check_members(
    obj: &serde_json::Map<String, Value>,
    at: &str,
    c: &Closed,
    gemini: bool,
    out: &mut Vec<Violation>,
) {
    for (name, value) in obj {
        let key = if gemini { camel(name) } else { name.clone() };
        let field = c
            .fields
            .iter()
            .flat_map(|t| t.iter())
            .find(|f| f.name == key);
        let path = format!("{at}.{name}");
        match field {
            Some(f) if !f.takes.admits(value) => {
                out.push(Violation::new(
                    c.rule,
                    path,
                    (c.wrong_type)(name, f.takes, value),
                ));
            }
            Some(_) => {}
            None if !c.closed => {}
            // (Anthropic's header params, `betas` and the like, are ANT-42's: reported once)
            None => out.push(Violation::new(c.rule, path, (c.unknown)(name))),
        }
    }
}

/// Every top-level field of `body` (and, for Gemini, of its `generationConfig`) checked against
/// the API's field list: unknown fields and fields of the wrong JSON type.
pub(crate) fn check(provider: Provider, body: &Value) -> Vec<Violation> {
    let Some(obj) = body.as_object() else {
        return Vec::new();
    };
    let c = closed(provider);
    let gemini = provider == Provider::Gemini;
    let mut out = Vec::new();
    check_members(obj, "$", c, gemini, &mut out);
    if gemini {
        for key in ["generationConfig", "generation_config"] {
            if let Some(Value::Object(g)) = obj.get(key) {
                check_members(g, &format!("$.{key}"), &GEMINI_GENERATION, true, &mut out);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_convert_between_the_proto_spellings() {
        assert_eq!(snake("generationConfig"), "generation_config");
        assert_eq!(camel("generation_config"), "generationConfig");
        assert_eq!(camel("tools"), "tools");
    }

    #[test]
    fn pydantic_words_name_the_first_type() {
        assert_eq!(pydantic_type(Json::NULL.or(Json::NUMBER)), "number");
        assert_eq!(pydantic_type(Json::ARRAY.or(Json::STRING)), "string");
        assert_eq!(pydantic_type(Json::OBJECT), "dictionary");
    }

    #[test]
    fn a_dialect_checks_only_types() {
        let v = check(
            Provider::Kimi,
            &json!({"thinking": {"type": "enabled"}, "temperature": "hot"}),
        );
        assert_eq!(v.len(), 1);
        assert_eq!(v[0].path, "$.temperature");
    }
}
