//! The host table: one row per (host, wire API) — where each wire is served, what the host
//! changes about the request body, how a request reaches it (URL template, auth) and which
//! continuity family its signatures and encrypted reasoning belong to. The source of truth
//! for Rust and for the JavaScript half (`js/hosts.generated.mts`, written from [`json`] by
//! `turnwire hosts --json`). Sources of every URL and auth fact: docs/provider-rules-added.md,
//! section "Hosts".

use serde_json::{json, Value};

use crate::error::{Error, ErrorCode};
use crate::vocab::{Host, Provider, WireApi};

/// Where the request names the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ModelAt {
    /// `"model": …` in the body.
    Body,
    /// In the URL (`/model/{id}/invoke`, `…/models/{m}:streamRawPredict`).
    Url,
}

/// Where the request names the API version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VersionAt {
    /// No version.
    None,
    /// A header (`anthropic-version: 2023-06-01`).
    Header(&'static str, &'static str),
    /// The body's `anthropic_version` member.
    Body(&'static str),
}

/// Where Anthropic beta names go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BetasAt {
    /// The wire has no betas.
    None,
    /// The `anthropic-beta` header.
    Header,
    /// The body's `anthropic_beta` array (Bedrock InvokeModel).
    Body,
}

/// How a request authenticates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Auth {
    /// The key in a header of this name (`x-api-key`, `api-key`, `x-goog-api-key`).
    Header(&'static str),
    /// `Authorization: Bearer <token>` (an API key or an OAuth / Entra access token).
    Bearer,
    /// AWS Signature Version 4 (service `bedrock`).
    SigV4,
    /// No auth (a local server).
    None,
}

/// What a host refuses that its wire's first party takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// `tool_choice` `{"type":"auto"}` / `{"type":"any"}` (DeepSeek's `/anthropic`).
    ToolChoiceAutoAny,
    /// `reasoning.effort` off the model's allow-list (xAI, XAI-02).
    EffortOffAllowList,
}

/// One (host, wire API) row of the table.
#[derive(Debug, Clone, Copy)]
pub(crate) struct HostRow {
    /// The host.
    pub host: Host,
    /// The wire API it serves here.
    pub wire: WireApi,
    /// The provider names a caller may render for with this host on this wire (a Chat
    /// Completions host takes its own dialect and `openai-compatible`).
    pub providers: &'static [Provider],
    /// Where the model is named.
    pub model: ModelAt,
    /// Where the API version is named.
    pub version: VersionAt,
    /// Whether `stream` is a body member (false: the URL says it, Bedrock's
    /// `invoke-with-response-stream`).
    pub stream_in_body: bool,
    /// Where Anthropic betas go.
    pub betas: BetasAt,
    /// What the host refuses.
    pub refuses: &'static [Refusal],
    /// The continuity family: signatures and encrypted reasoning verify only within it.
    pub family: &'static str,
    /// Whether the host mints its own thinking signatures on an Anthropic-compatible wire
    /// (kept only for the same host and model, required back there, never sent elsewhere).
    pub mints_own_signatures: bool,
    /// URL patterns that say a base URL is this host: `host-glob[/path-prefix]`, where `*`
    /// stands for one or more characters of a host name; a pattern with `:port` compares the
    /// port too.
    pub url_patterns: &'static [&'static str],
    /// The base URL, with `{region}`, `{project}`, `{resource}` placeholders.
    pub base_url: &'static str,
    /// Accepted auth, the usual one first.
    pub auth: &'static [Auth],
}

const ANTHROPIC_VERSION: VersionAt = VersionAt::Header("anthropic-version", "2023-06-01");
const CHAT_OPENAI: &[Provider] = &[Provider::OpenAiChat, Provider::OpenAiCompatible];
const COMPAT: &[Provider] = &[Provider::OpenAiCompatible];
const MESSAGES: &[Provider] = &[Provider::Anthropic];
const RESPONSES: &[Provider] = &[Provider::OpenAiResponses];
const VERTEX_URLS: &[&str] = &[
    "aiplatform.googleapis.com",
    "*-aiplatform.googleapis.com",
    "aiplatform.*.rep.googleapis.com",
];

/// A row with the first-party defaults of a body-model, header-version wire.
const fn row(
    host: Host,
    wire: WireApi,
    providers: &'static [Provider],
    url_patterns: &'static [&'static str],
    base_url: &'static str,
    auth: &'static [Auth],
) -> HostRow {
    let messages = matches!(wire, WireApi::Messages);
    HostRow {
        host,
        wire,
        providers,
        model: ModelAt::Body,
        version: if messages {
            ANTHROPIC_VERSION
        } else {
            VersionAt::None
        },
        // generateContent says it in the URL (`:streamGenerateContent`)
        stream_in_body: !matches!(wire, WireApi::GenerateContent),
        betas: if messages {
            BetasAt::Header
        } else {
            BetasAt::None
        },
        refuses: &[],
        family: host.as_str(),
        mints_own_signatures: false,
        url_patterns,
        base_url,
        auth,
    }
}

/// Every row, in [`Host::ALL`] order.
pub(crate) const ROWS: &[HostRow] = &[
    row(
        Host::Anthropic,
        WireApi::Messages,
        MESSAGES,
        &["api.anthropic.com"],
        "https://api.anthropic.com",
        &[Auth::Header("x-api-key"), Auth::Bearer],
    ),
    row(
        Host::OpenAi,
        WireApi::ChatCompletions,
        CHAT_OPENAI,
        &["api.openai.com"],
        "https://api.openai.com/v1",
        &[Auth::Bearer],
    ),
    row(
        Host::OpenAi,
        WireApi::Responses,
        RESPONSES,
        &["api.openai.com"],
        "https://api.openai.com/v1",
        &[Auth::Bearer],
    ),
    HostRow {
        model: ModelAt::Url,
        ..row(
            Host::Google,
            WireApi::GenerateContent,
            &[Provider::Gemini],
            &["generativelanguage.googleapis.com"],
            "https://generativelanguage.googleapis.com/v1beta",
            &[Auth::Header("x-goog-api-key")],
        )
    },
    row(
        Host::Mistral,
        WireApi::ChatCompletions,
        &[Provider::Mistral, Provider::OpenAiCompatible],
        &["api.mistral.ai"],
        "https://api.mistral.ai/v1",
        &[Auth::Bearer],
    ),
    // InvokeModel with the Anthropic body: the URL names the model and whether it streams
    // (`/model/{id}/invoke`, `/invoke-with-response-stream`); the body the version and betas.
    HostRow {
        model: ModelAt::Url,
        version: VersionAt::Body("bedrock-2023-05-31"),
        stream_in_body: false,
        betas: BetasAt::Body,
        ..row(
            Host::Bedrock,
            WireApi::Messages,
            MESSAGES,
            &[
                "bedrock-runtime.*.amazonaws.com",
                "bedrock-runtime-fips.*.amazonaws.com",
            ],
            "https://bedrock-runtime.{region}.amazonaws.com",
            &[Auth::SigV4, Auth::Bearer],
        )
    },
    // Converse (`/model/{modelId}/converse`, `/converse-stream`): the model and whether it
    // streams in the URL, no version; a Claude beta goes in `additionalModelRequestFields`
    // (the Converse render's).
    HostRow {
        model: ModelAt::Url,
        stream_in_body: false,
        ..row(
            Host::Bedrock,
            WireApi::Converse,
            &[Provider::BedrockConverse],
            &[
                "bedrock-runtime.*.amazonaws.com",
                "bedrock-runtime-fips.*.amazonaws.com",
            ],
            "https://bedrock-runtime.{region}.amazonaws.com",
            &[Auth::SigV4, Auth::Bearer],
        )
    },
    row(
        Host::BedrockMantle,
        WireApi::Messages,
        MESSAGES,
        &["bedrock-mantle.*.api.aws/anthropic"],
        "https://bedrock-mantle.{region}.api.aws/anthropic",
        &[Auth::Bearer],
    ),
    row(
        Host::BedrockMantle,
        WireApi::Responses,
        RESPONSES,
        &["bedrock-mantle.*.api.aws/openai"],
        "https://bedrock-mantle.{region}.api.aws/openai/v1",
        &[Auth::Bearer],
    ),
    row(
        Host::BedrockMantle,
        WireApi::ChatCompletions,
        COMPAT,
        &["bedrock-mantle.*.api.aws"],
        "https://bedrock-mantle.{region}.api.aws/v1",
        &[Auth::Bearer],
    ),
    // Claude on Vertex: `{base}/projects/{project}/locations/{region}/publishers/anthropic/
    // models/{model}:rawPredict` or `:streamRawPredict` (the base is the vertex-sdk's `baseURL`;
    // the JS path table, js/host-http.mts, adds the rest); `stream` stays in the body, betas in
    // the header.
    HostRow {
        model: ModelAt::Url,
        version: VersionAt::Body("vertex-2023-10-16"),
        ..row(
            Host::Vertex,
            WireApi::Messages,
            MESSAGES,
            VERTEX_URLS,
            "https://{region}-aiplatform.googleapis.com/v1",
            &[Auth::Bearer, Auth::Header("x-goog-api-key")],
        )
    },
    HostRow {
        model: ModelAt::Url,
        ..row(
            Host::Vertex,
            WireApi::GenerateContent,
            &[Provider::Gemini],
            VERTEX_URLS,
            "https://{region}-aiplatform.googleapis.com/v1",
            &[Auth::Bearer, Auth::Header("x-goog-api-key")],
        )
    },
    row(
        Host::Azure,
        WireApi::ChatCompletions,
        CHAT_OPENAI,
        &["*.openai.azure.com", "*.cognitiveservices.azure.com"],
        "https://{resource}.openai.azure.com/openai/v1",
        &[Auth::Header("api-key"), Auth::Bearer],
    ),
    row(
        Host::Azure,
        WireApi::Responses,
        RESPONSES,
        &["*.openai.azure.com", "*.cognitiveservices.azure.com"],
        "https://{resource}.openai.azure.com/openai/v1",
        &[Auth::Header("api-key"), Auth::Bearer],
    ),
    row(
        Host::Foundry,
        WireApi::Messages,
        MESSAGES,
        &["*.services.ai.azure.com/anthropic"],
        "https://{resource}.services.ai.azure.com/anthropic",
        &[Auth::Header("x-api-key"), Auth::Bearer],
    ),
    row(
        Host::Foundry,
        WireApi::ChatCompletions,
        CHAT_OPENAI,
        &["*.services.ai.azure.com"],
        "https://{resource}.services.ai.azure.com/openai/v1",
        &[Auth::Header("api-key"), Auth::Bearer],
    ),
    row(
        Host::Foundry,
        WireApi::Responses,
        RESPONSES,
        &["*.services.ai.azure.com/openai"],
        "https://{resource}.services.ai.azure.com/openai/v1",
        &[Auth::Header("api-key"), Auth::Bearer],
    ),
    row(
        Host::OpenRouter,
        WireApi::ChatCompletions,
        CHAT_OPENAI,
        &["openrouter.ai", "*.openrouter.ai"],
        "https://openrouter.ai/api/v1",
        &[Auth::Bearer],
    ),
    row(
        Host::Xai,
        WireApi::ChatCompletions,
        COMPAT,
        &["api.x.ai"],
        "https://api.x.ai/v1",
        &[Auth::Bearer],
    ),
    HostRow {
        refuses: &[Refusal::EffortOffAllowList],
        ..row(
            Host::Xai,
            WireApi::Responses,
            RESPONSES,
            &["api.x.ai"],
            "https://api.x.ai/v1",
            &[Auth::Bearer],
        )
    },
    row(
        Host::DeepSeek,
        WireApi::ChatCompletions,
        &[Provider::DeepSeek, Provider::OpenAiCompatible],
        &["api.deepseek.com"],
        "https://api.deepseek.com",
        &[Auth::Bearer],
    ),
    HostRow {
        refuses: &[Refusal::ToolChoiceAutoAny],
        mints_own_signatures: true,
        ..row(
            Host::DeepSeek,
            WireApi::Messages,
            MESSAGES,
            &["api.deepseek.com/anthropic"],
            "https://api.deepseek.com/anthropic",
            &[Auth::Header("x-api-key")],
        )
    },
    row(
        Host::Kimi,
        WireApi::ChatCompletions,
        &[Provider::Kimi, Provider::OpenAiCompatible],
        &["api.moonshot.ai", "api.moonshot.cn"],
        "https://api.moonshot.ai/v1",
        &[Auth::Bearer],
    ),
    HostRow {
        mints_own_signatures: true,
        ..row(
            Host::Kimi,
            WireApi::Messages,
            MESSAGES,
            &[
                "api.moonshot.ai/anthropic",
                "api.moonshot.cn/anthropic",
                "api.kimi.com/coding",
            ],
            "https://api.moonshot.ai/anthropic",
            &[Auth::Header("x-api-key"), Auth::Bearer],
        )
    },
    row(
        Host::Zai,
        WireApi::ChatCompletions,
        COMPAT,
        &["api.z.ai", "open.bigmodel.cn"],
        "https://api.z.ai/api/paas/v4",
        &[Auth::Bearer],
    ),
    HostRow {
        mints_own_signatures: true,
        ..row(
            Host::Zai,
            WireApi::Messages,
            MESSAGES,
            &["api.z.ai/api/anthropic", "open.bigmodel.cn/api/anthropic"],
            "https://api.z.ai/api/anthropic",
            &[Auth::Header("x-api-key"), Auth::Bearer],
        )
    },
    row(
        Host::Ollama,
        WireApi::ChatCompletions,
        COMPAT,
        &["localhost:11434", "127.0.0.1:11434"],
        "http://localhost:11434/v1",
        &[Auth::None],
    ),
    // Ollama's native `/api/chat` (NDJSON streams; `stream` in the body, true by default).
    row(
        Host::Ollama,
        WireApi::OllamaChat,
        &[Provider::Ollama],
        &["localhost:11434", "127.0.0.1:11434"],
        "http://localhost:11434",
        &[Auth::None],
    ),
];

/// The row of `host` for `provider`'s wire, if the host serves it.
pub(crate) fn row_for(host: Host, provider: Provider) -> Option<&'static HostRow> {
    ROWS.iter()
        .find(|r| r.host == host && r.providers.contains(&provider))
}

/// The host a render goes to: the caller's `host` when it serves `provider`, else
/// `invalid_value` ("vertex serves anthropic, gemini"); without one, the provider's own
/// ([`Host::of`]; none for `openai-compatible`).
pub(crate) fn resolve(
    host: Option<Host>,
    provider: Provider,
    path: &str,
) -> Result<Option<&'static HostRow>, Error> {
    let Some(host) = host else {
        return Ok(Host::of(provider).and_then(|h| row_for(h, provider)));
    };
    row_for(host, provider).map(Some).ok_or_else(|| {
        Error::new(
            ErrorCode::InvalidValue,
            path,
            format!(
                "host `{host}` does not serve provider `{provider}`; {host} serves {}",
                served_by(host).join(", ")
            ),
        )
    })
}

/// The provider names a host serves, in the table's order.
///
/// ```
/// use turnwire::{hosts, Host};
/// assert_eq!(hosts::served_by(Host::Vertex), ["anthropic", "gemini"]);
/// ```
pub fn served_by(host: Host) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for r in ROWS.iter().filter(|r| r.host == host) {
        for p in r.providers {
            if !names.contains(&p.as_str()) {
                names.push(p.as_str());
            }
        }
    }
    names
}

/// The host a base URL belongs to, by the table's URL patterns (the most specific pattern
/// wins); `None` for any other URL (a proxy, a mock, a self-hosted server).
///
/// ```
/// use turnwire::{hosts, Host};
/// assert_eq!(hosts::of_url("https://bedrock-runtime.us-east-1.amazonaws.com"), Some(Host::Bedrock));
/// assert_eq!(hosts::of_url("https://api.deepseek.com/anthropic/v1/messages"), Some(Host::DeepSeek));
/// assert_eq!(hosts::of_url("http://127.0.0.1:8080"), None);
/// ```
pub fn of_url(url: &str) -> Option<Host> {
    row_of_url(url).map(|r| r.host)
}

/// The row a base URL belongs to (see [`of_url`]).
pub(crate) fn row_of_url(url: &str) -> Option<&'static HostRow> {
    let (authority, path) = split_url(url);
    let mut best: Option<(&'static HostRow, usize)> = None;
    for r in ROWS {
        for p in r.url_patterns {
            if matches(p, &authority, path) && best.is_none_or(|(_, len)| p.len() > len) {
                best = Some((r, p.len()));
            }
        }
    }
    best.map(|(r, _)| r)
}

/// A URL's lower-cased authority (no user) and its path.
fn split_url(url: &str) -> (String, &str) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let authority = &rest[..end];
    let authority = authority.rsplit('@').next().unwrap_or(authority);
    let path = rest[end..].split(['?', '#']).next().unwrap_or_default();
    (authority.to_ascii_lowercase(), path)
}

/// Whether `pattern` (`host-glob[:port][/path-prefix]`) matches.
fn matches(pattern: &str, authority: &str, path: &str) -> bool {
    let (host_pat, prefix) = match pattern.find('/') {
        Some(i) => (&pattern[..i], &pattern[i..]),
        None => (pattern, ""),
    };
    let host = if host_pat.contains(':') {
        authority
    } else {
        authority.split(':').next().unwrap_or(authority)
    };
    let host_ok = match host_pat.split_once('*') {
        None => host == host_pat,
        Some((head, tail)) => {
            host.len() > head.len() + tail.len()
                && host.starts_with(head)
                && host.ends_with(tail)
                && !host[head.len()..host.len() - tail.len()].contains(['/', ':'])
        }
    };
    host_ok
        && (prefix.is_empty()
            || path == prefix
            || path
                .strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with('/')))
}

/// The continuity family of a provenance's host name (`vertex`, `bedrock`…): the host's own
/// family; an unknown name is its own family.
pub(crate) fn family_of(host: &str) -> &str {
    host.parse::<Host>()
        .ok()
        .and_then(|h| ROWS.iter().find(|r| r.host == h))
        .map_or(host, |r| r.family)
}

/// Whether signatures minted on this host are its own (Anthropic-compatible third parties).
pub(crate) fn mints_own_signatures(host: &str) -> bool {
    host.parse::<Host>()
        .is_ok_and(|h| ROWS.iter().any(|r| r.host == h && r.mints_own_signatures))
}

/// The whole table as JSON, the form `turnwire hosts --json` prints and
/// `js/hosts.generated.mts` holds: `{"hosts": [names], "rows": [{host, wire, providers,
/// model, version, streamInBody, betas, refuses, family, mintsOwnSignatures, urlPatterns,
/// baseUrl, auth}], "defaults": {provider: host}}`.
///
/// ```
/// let t = turnwire::hosts::json();
/// assert_eq!(t["rows"][0]["host"], "anthropic");
/// ```
pub fn json() -> Value {
    let rows: Vec<Value> = ROWS.iter().map(row_json).collect();
    // every provider of the table (also those not yet in `Provider::ALL`) with its own host
    let defaults: serde_json::Map<String, Value> = ROWS
        .iter()
        .flat_map(|r| r.providers.iter())
        .filter_map(|p| Host::of(*p).map(|h| (p.as_str().to_string(), Value::from(h.as_str()))))
        .collect();
    json!({
        "hosts": Host::ALL.iter().map(|h| h.as_str()).collect::<Vec<_>>(),
        "rows": rows,
        "defaults": defaults,
    })
}

fn row_json(r: &HostRow) -> Value {
    let version = match r.version {
        VersionAt::None => Value::Null,
        VersionAt::Header(name, value) => json!({"header": name, "value": value}),
        VersionAt::Body(value) => json!({"body": "anthropic_version", "value": value}),
    };
    let auth: Vec<Value> = r
        .auth
        .iter()
        .map(|a| match a {
            Auth::Header(name) => json!({"header": name}),
            Auth::Bearer => json!("bearer"),
            Auth::SigV4 => json!("sigv4"),
            Auth::None => json!("none"),
        })
        .collect();
    json!({
        "host": r.host.as_str(),
        "wire": r.wire.name(),
        "providers": r.providers.iter().map(|p| p.as_str()).collect::<Vec<_>>(),
        "model": match r.model { ModelAt::Body => "body", ModelAt::Url => "url" },
        "version": version,
        "streamInBody": r.stream_in_body,
        "betas": match r.betas { BetasAt::None => Value::Null, BetasAt::Header => "header".into(), BetasAt::Body => "body".into() },
        "refuses": r.refuses.iter().map(|x| match x {
            Refusal::ToolChoiceAutoAny => "tool_choice:auto,any",
            Refusal::EffortOffAllowList => "reasoning.effort:allow-list",
        }).collect::<Vec<_>>(),
        "family": r.family,
        "mintsOwnSignatures": r.mints_own_signatures,
        "urlPatterns": r.url_patterns,
        "baseUrl": r.base_url,
        "auth": auth,
    })
}

/// The TypeScript module `js/hosts.generated.mts`: the table of [`json`] as a typed constant.
pub fn typescript() -> String {
    let body = serde_json::to_string_pretty(&json()).unwrap_or_default();
    format!(
        "// Generated by `turnwire hosts --ts` from src/hosts.rs (the source of truth). Do not edit.\n\
         // The format: src/hosts.rs `json()`.\n\n\
         export const HOST_TABLE = {body} as const;\n\n\
         export type HostName = (typeof HOST_TABLE.hosts)[number];\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_default_host_serves_its_provider_and_places_the_model_as_the_wire_does() {
        for p in Provider::ALL {
            let Some(h) = Host::of(p) else { continue };
            let r = row_for(h, p).unwrap_or_else(|| panic!("{h} serves {p}"));
            assert_eq!(r.wire, WireApi::of(p));
            assert_eq!(
                r.model == ModelAt::Body,
                WireApi::of(p).owned_fields().contains(&"model"),
                "{p}"
            );
        }
    }

    #[test]
    fn every_host_has_a_row_and_patterns_have_one_star_at_most() {
        for h in Host::ALL {
            assert!(ROWS.iter().any(|r| r.host == h), "{h}");
        }
        for r in ROWS {
            for p in r.url_patterns {
                assert!(p.matches('*').count() <= 1, "{p}");
                assert!(
                    of_url(&format!("https://{}", p.replace('*', "x1"))).is_some(),
                    "{p}"
                );
            }
        }
    }
}
