//! Prompt caching (`cache`): where the request marks what the provider may cache, with which
//! lifetime, and the routing key it is cached under, resolved once per render.
//!
//! - **Anthropic** caches a prefix only up to a block marked `cache_control` (at most four per
//!   request, ANT-18). `"tools"` marks the last tool declaration, `"system"` the system prompt
//!   (sent as one text block to carry the mark), `"messages"` asks for the API's automatic
//!   breakpoint (top-level `cache_control`: the API marks the last cacheable block and moves the
//!   mark forward every turn, reading the previous turn's entry within 20 blocks). `"auto"` is
//!   all three: three of the four slots. Every mark gets the same `ttl`, so the TTL order rule
//!   (ANT-28) holds by construction.
//! - **OpenAI** (Chat, Responses) caches every prefix of 1,024 tokens or more by itself; `key`
//!   becomes `prompt_cache_key` (at most 64 characters: a longer key is sent as a stable hash of
//!   itself, with a diagnostic).
//! - **OpenAI Responses and Chat, `gpt-5.6` and later** also take explicit breakpoints (ORS-21,
//!   OAC-31): `"system"` and `"tools"` mark the end of the system prompt — sent as a leading
//!   developer message (Chat: the system message) whose `input_text` (`text`) part carries
//!   `prompt_cache_breakpoint: {"mode": "explicit"}`, the prefix that holds the tools too — and `"messages"` is the API's implicit breakpoint
//!   (its default, nothing to send). A list without `"messages"` sends
//!   `prompt_cache_options: {"mode": "explicit"}` (no implicit breakpoint) when a breakpoint is
//!   written. One breakpoint at most, under the API's four. The only lifetime is the default
//!   `30m`: `ttl` is not sent; neither is the deprecated `prompt_cache_retention`.
//! - **Bedrock Converse**, Claude and Nova models: `cachePoint` blocks (`{"type": "default",
//!   "ttl"?}`, BDR-18) after the last tool declaration (`"tools"`, not for Nova) and after the
//!   system prompt (`"system"`). Converse has no automatic breakpoint and a point inside the
//!   history would move every turn (no byte-identical prefix): `"messages"` in a list is not
//!   sent, with a diagnostic. Other Bedrock models cache implicitly, as below.
//! - **Gemini, Mistral, Kimi, DeepSeek, compatible servers** cache prefixes implicitly and take
//!   no marks; what the caller set explicitly (a breakpoint list, a `ttl`, a `key`) is not sent,
//!   with a diagnostic. `"auto"` alone sends nothing and says nothing.
//!
//! What stays cacheable turn after turn is the byte-identical prefix: turnwire renders the same
//! history to the same bytes, so appending a turn only appends to the request.

use std::fmt;

use serde::de::{self, Deserializer};
use serde::ser::SerializeMap;
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};

use super::options::RenderOptions;
use crate::error::{Error, ErrorCode};
use crate::vocab::CacheStyle;
use crate::vocab::{Diagnostic, DiagnosticCode};

/// The longest `prompt_cache_key` OpenAI takes (OAC-20, ORS-17).
pub const MAX_CACHE_KEY_CHARS: usize = 64;

/// A part of the request the provider may cache up to and including.
///
/// ```
/// use turnwire::{CacheOptions, CachePoint};
/// let c: CacheOptions = serde_json::from_str(r#"{"breakpoints": ["tools"]}"#)?;
/// assert!(c.breakpoints.includes(CachePoint::Tools));
/// assert!(!c.breakpoints.includes(CachePoint::Messages));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CachePoint {
    /// The tool declarations (the last one carries the mark).
    Tools,
    /// The system prompt.
    System,
    /// The history up to its last block (Anthropic's automatic breakpoint).
    Messages,
}

impl CachePoint {
    const ALL: [CachePoint; 3] = [CachePoint::Tools, CachePoint::System, CachePoint::Messages];

    fn name(self) -> &'static str {
        match self {
            CachePoint::Tools => "tools",
            CachePoint::System => "system",
            CachePoint::Messages => "messages",
        }
    }
}

/// Where the request's cache breakpoints go: `"auto"` (tools, system and messages, where the
/// request has them) or a list of [`CachePoint`]s.
///
/// ```
/// use turnwire::{CacheBreakpoints, CachePoint};
/// assert!(CacheBreakpoints::Auto.includes(CachePoint::System));
/// assert!(!CacheBreakpoints::List(vec![]).includes(CachePoint::System));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum CacheBreakpoints {
    /// Tools, system and messages, where the request has them.
    #[default]
    Auto,
    /// Only these.
    List(Vec<CachePoint>),
}

impl CacheBreakpoints {
    /// Whether the breakpoints include `point`.
    pub fn includes(&self, point: CachePoint) -> bool {
        match self {
            CacheBreakpoints::Auto => true,
            CacheBreakpoints::List(list) => list.contains(&point),
        }
    }
}

/// How long a cache entry lives: `"5m"` (Anthropic's default) or `"1h"`.
///
/// ```
/// assert_eq!(turnwire::CacheTtl::OneHour.as_str(), "1h");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheTtl {
    /// Five minutes, refreshed on every read.
    FiveMinutes,
    /// One hour (writes cost 2× base input instead of 1.25×).
    OneHour,
}

impl CacheTtl {
    /// The wire value.
    pub fn as_str(self) -> &'static str {
        match self {
            CacheTtl::FiveMinutes => "5m",
            CacheTtl::OneHour => "1h",
        }
    }
}

impl fmt::Display for CacheTtl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Prompt caching for a request (see the module's documentation for what each provider gets).
///
/// ```
/// use turnwire::{CacheBreakpoints, CacheOptions, CachePoint, CacheTtl};
/// let c: CacheOptions = serde_json::from_str(r#"{"breakpoints": ["system", "messages"], "ttl": "1h"}"#)?;
/// assert_eq!(c.breakpoints, CacheBreakpoints::List(vec![CachePoint::System, CachePoint::Messages]));
/// assert_eq!(c.ttl, Some(CacheTtl::OneHour));
/// let auto: CacheOptions = serde_json::from_str("{}")?;
/// assert_eq!(auto.breakpoints, CacheBreakpoints::Auto);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CacheOptions {
    /// Where the breakpoints go (Anthropic).
    pub breakpoints: CacheBreakpoints,
    /// How long the entries live (Anthropic); the provider's default when absent.
    pub ttl: Option<CacheTtl>,
    /// A routing key requests that share a prefix should share (OpenAI `prompt_cache_key`).
    pub key: Option<String>,
}

const EXPECTED: &str = "cache must be {breakpoints?: \"auto\" | (\"tools\" | \"system\" | \"messages\")[], ttl?: \"5m\" | \"1h\", key?: string}";

impl<'de> Deserialize<'de> for CacheOptions {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let Value::Object(o) = Value::deserialize(d)? else {
            return Err(de::Error::custom(EXPECTED));
        };
        CacheOptions::read(o).map_err(de::Error::custom)
    }
}

impl CacheOptions {
    fn read(o: Map<String, Value>) -> Result<CacheOptions, String> {
        let mut c = CacheOptions::default();
        for (k, v) in o {
            match (k.as_str(), v) {
                ("breakpoints", Value::String(s)) if s == "auto" => {}
                ("breakpoints", Value::Array(list)) => {
                    let mut points = Vec::with_capacity(list.len());
                    for item in list {
                        let point = CachePoint::ALL
                            .into_iter()
                            .find(|p| item.as_str() == Some(p.name()))
                            .ok_or_else(|| format!("{EXPECTED}; found the breakpoint {item}"))?;
                        if !points.contains(&point) {
                            points.push(point);
                        }
                    }
                    c.breakpoints = CacheBreakpoints::List(points);
                }
                ("ttl", Value::String(s)) if s == "5m" => c.ttl = Some(CacheTtl::FiveMinutes),
                ("ttl", Value::String(s)) if s == "1h" => c.ttl = Some(CacheTtl::OneHour),
                ("key", Value::String(s)) => c.key = Some(s),
                (_, Value::Null) if ["breakpoints", "ttl", "key"].contains(&k.as_str()) => {}
                (k, v) => return Err(format!("{EXPECTED}; found `{k}`: {v}")),
            }
        }
        Ok(c)
    }
}

impl Serialize for CacheOptions {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(None)?;
        match &self.breakpoints {
            CacheBreakpoints::Auto => m.serialize_entry("breakpoints", "auto")?,
            CacheBreakpoints::List(list) => {
                let names: Vec<&str> = list.iter().map(|p| p.name()).collect();
                m.serialize_entry("breakpoints", &names)?;
            }
        }
        if let Some(ttl) = self.ttl {
            m.serialize_entry("ttl", ttl.as_str())?;
        }
        if let Some(key) = &self.key {
            m.serialize_entry("key", key)?;
        }
        m.end()
    }
}

/// What a render sends for `cache`.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct CachePlan {
    /// The mark every Anthropic breakpoint gets, when any is sent.
    pub mark: Option<Value>,
    /// Which Anthropic breakpoints are asked for.
    pub breakpoints: CacheBreakpoints,
    /// Whether the caller listed the breakpoints (a listed one the request cannot carry is
    /// reported; `"auto"` places them where they fit).
    pub listed: bool,
    /// The `prompt_cache_key` to send.
    pub key: Option<String>,
    /// OpenAI Responses and Chat, gpt-5.6+ (ORS-21, OAC-31): the `prompt_cache_breakpoint` to
    /// put on the system prompt, when `"system"` or `"tools"` is asked for.
    pub system_breakpoint: Option<Value>,
    /// OpenAI Responses and Chat, gpt-5.6+: the caller listed breakpoints without `"messages"`, so a
    /// request that writes an explicit breakpoint turns the implicit one off
    /// (`prompt_cache_options.mode: "explicit"`).
    pub explicit_only: bool,
    /// What was adjusted or not sent, as diagnostics.
    pub notes: Vec<Diagnostic>,
}

impl CachePlan {
    /// The mark for `point`, when the request asks for one there.
    pub fn mark_for(&self, point: CachePoint) -> Option<&Value> {
        self.mark
            .as_ref()
            .filter(|_| self.breakpoints.includes(point))
    }

    /// The diagnostic of a listed breakpoint the request had nothing to put on.
    pub fn nothing_to_mark(&self, point: CachePoint, what: &str) -> Option<Diagnostic> {
        (self.listed && self.mark_for(point).is_some()).then(|| {
            note(
                format!(
                    "the cache breakpoint `{}` was not sent: the request has {what}",
                    point.name()
                ),
                "$.cache.breakpoints",
            )
        })
    }
}

impl CachePlan {
    /// The diagnostic of a listed `"system"` / `"tools"` breakpoint a Responses request had no
    /// system prompt to put on (ORS-21).
    pub fn unmarked_system(&self) -> Option<Diagnostic> {
        (self.listed && self.system_breakpoint.is_some()).then(|| {
            note(
                "the cache breakpoint on the system prompt (`system` / `tools`) was not sent: the request has no system prompt to carry it".to_string(),
                "$.cache.breakpoints",
            )
        })
    }
}

fn note(message: String, path: &str) -> Diagnostic {
    super::controls::note(DiagnosticCode::CacheAdjusted, message).at_path(path)
}

/// A stable short form of a cache key too long for OpenAI: `tw-` and 16 hex digits of its
/// 64-bit FNV-1a hash (the same key always gives the same short key).
fn short_key(key: &str) -> String {
    format!("tw-{:016x}", crate::ids::hash::fnv1a(key.as_bytes()))
}

impl RenderOptions {
    /// Resolves `cache` for this request's provider.
    pub(crate) fn cache_plan(&self) -> Result<CachePlan, Error> {
        let Some(c) = &self.cache else {
            return Ok(CachePlan::default());
        };
        let listed = matches!(c.breakpoints, CacheBreakpoints::List(_));
        let mut plan = CachePlan {
            breakpoints: c.breakpoints.clone(),
            listed,
            ..CachePlan::default()
        };
        let mut not_sent: Vec<&str> = Vec::new();
        let explicit = matches!(
            self.provider,
            crate::vocab::Provider::OpenAiResponses | crate::vocab::Provider::OpenAiChat
        ) && crate::models::explicit_cache_breakpoints(&self.model);
        // Converse: Claude and Nova take cache points; other models cache implicitly.
        let style = match self.provider.cache_style() {
            CacheStyle::Points
                if !crate::models::bedrock_model(&self.model)
                    .0
                    .takes_cache_points() =>
            {
                CacheStyle::Implicit
            }
            style => style,
        };
        match style {
            CacheStyle::Points => {
                let mut point = Map::new();
                point.insert("type".into(), "default".into());
                if let Some(ttl) = c.ttl {
                    point.insert("ttl".into(), ttl.as_str().into());
                }
                plan.mark = Some(Value::Object(point));
                if c.key.is_some() {
                    not_sent.push("key");
                }
            }
            CacheStyle::Breakpoints => {
                let mut mark = Map::new();
                mark.insert("type".into(), "ephemeral".into());
                if let Some(ttl) = c.ttl {
                    mark.insert("ttl".into(), ttl.as_str().into());
                }
                plan.mark = Some(Value::Object(mark));
                if c.breakpoints.includes(CachePoint::Messages) {
                    self.no_extra("cache_control")?;
                }
                if c.key.is_some() {
                    not_sent.push("key");
                }
            }
            CacheStyle::Key => {
                if explicit {
                    let marks_system = c.breakpoints.includes(CachePoint::System)
                        || c.breakpoints.includes(CachePoint::Tools);
                    if marks_system {
                        plan.system_breakpoint = Some(serde_json::json!({"mode": "explicit"}));
                    }
                    plan.explicit_only = listed && !c.breakpoints.includes(CachePoint::Messages);
                } else if listed {
                    not_sent.push("breakpoints");
                }
                if c.ttl.is_some() {
                    not_sent.push("ttl");
                }
                plan.key = self.cache_key(c, &mut plan.notes)?;
            }
            CacheStyle::Implicit => {
                if listed {
                    not_sent.push("breakpoints");
                }
                if c.ttl.is_some() {
                    not_sent.push("ttl");
                }
                if c.key.is_some() {
                    not_sent.push("key");
                }
            }
        }
        if !not_sent.is_empty() {
            let how = match style {
                CacheStyle::Breakpoints => "Anthropic has no cache key; it caches up to the breakpoints",
                CacheStyle::Points => "Bedrock has no cache key; it caches up to the cache points",
                CacheStyle::Key if explicit => {
                    "OpenAI's cache breakpoints live for 30 minutes, the only lifetime it takes"
                }
                CacheStyle::Key => {
                    "OpenAI caches every long enough prefix by itself and takes no breakpoints or lifetime"
                }
                CacheStyle::Implicit => "this provider caches prefixes implicitly and takes no cache fields",
            };
            let fields: Vec<String> = not_sent.iter().map(|f| format!("`cache.{f}`")).collect();
            plan.notes.push(note(
                format!(
                    "{how}; {} not sent to `{}`",
                    fields.join(" and "),
                    self.provider
                ),
                "$.cache",
            ));
        }
        Ok(plan)
    }

    /// The key to send as `prompt_cache_key`, shortened when OpenAI would refuse it.
    fn cache_key(
        &self,
        c: &CacheOptions,
        notes: &mut Vec<Diagnostic>,
    ) -> Result<Option<String>, Error> {
        let Some(key) = &c.key else {
            return Ok(None);
        };
        if key.trim().is_empty() {
            notes.push(note(
                "an empty `cache.key` routes nothing; not sent".into(),
                "$.cache.key",
            ));
            return Ok(None);
        }
        self.no_extra("prompt_cache_key")?;
        let chars = key.chars().count();
        if chars <= MAX_CACHE_KEY_CHARS {
            return Ok(Some(key.clone()));
        }
        let short = short_key(key);
        notes.push(note(
            format!("`cache.key` has {chars} characters and OpenAI takes at most {MAX_CACHE_KEY_CHARS} (OAC-20); sent as `{short}`, a stable hash of it"),
            "$.cache.key",
        ));
        Ok(Some(short))
    }

    /// `extra` may not also set a field `cache` sets.
    fn no_extra(&self, field: &str) -> Result<(), Error> {
        if self.extra.contains_key(field) {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                format!("$.extra.{field}"),
                format!("`{field}` is set by `cache` for this request; leave it out of `extra` or leave `cache` out"),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
