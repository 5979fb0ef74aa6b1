//! The `cache` option a request body implies: Anthropic's `cache_control` marks (the last
//! tool's, the system prompt's, the request's automatic one) and OpenAI's `prompt_cache_key`.
//! A mark turnwire cannot place again (on another tool, another system block, a message block)
//! is reported, not dropped silently.

use serde_json::{Map, Value};

use super::context::Reader;
use crate::request::{CacheBreakpoints, CacheOptions, CachePoint, CacheTtl};

/// The cache marks of an Anthropic body, as `cache` options (none when it has no mark).
pub(crate) fn anthropic_cache(body: &Map<String, Value>, r: &mut Reader) -> Option<CacheOptions> {
    let mut points = Vec::new();
    let mut ttls: Vec<Option<CacheTtl>> = Vec::new();
    let mut found = |point: CachePoint, mark: &Value| {
        points.push(point);
        ttls.push(match mark.get("ttl").and_then(Value::as_str) {
            Some("1h") => Some(CacheTtl::OneHour),
            Some("5m") => Some(CacheTtl::FiveMinutes),
            _ => None,
        });
    };
    let marked = |v: &Value| v.get("cache_control").filter(|c| !c.is_null()).cloned();
    for (list, point) in [("tools", CachePoint::Tools), ("system", CachePoint::System)] {
        let Some(Value::Array(items)) = body.get(list) else {
            continue;
        };
        for (i, item) in items.iter().enumerate() {
            let Some(mark) = marked(item) else { continue };
            if i + 1 == items.len() {
                found(point, &mark);
            } else {
                r.note(
                    &format!("$.{list}[{i}].cache_control"),
                    format!("a cache breakpoint on {list}[{i}] is not kept: `cache.breakpoints: [\"{}\"]` marks the last one", list),
                );
            }
        }
    }
    if let Some(Value::Array(msgs)) = body.get("messages") {
        for (i, m) in msgs.iter().enumerate() {
            let Some(Value::Array(blocks)) = m.get("content") else {
                continue;
            };
            for (b, block) in blocks.iter().enumerate() {
                if marked(block).is_some() {
                    r.note(
                        &format!("$.messages[{i}].content[{b}].cache_control"),
                        "a cache breakpoint on a message block is not kept: `cache.breakpoints: [\"messages\"]` asks for the API's automatic one, on the last block",
                    );
                }
            }
        }
    }
    if let Some(mark) = body.get("cache_control").filter(|c| !c.is_null()) {
        found(CachePoint::Messages, mark);
    }
    let ttl = *ttls.first()?;
    if ttls.iter().any(|t| *t != ttl) {
        r.note(
            "$",
            "the cache marks ask for different lifetimes; `cache.ttl` keeps the first one's",
        );
    }
    Some(CacheOptions {
        breakpoints: CacheBreakpoints::List(points),
        ttl,
        key: None,
    })
}

/// `prompt_cache_key` as `cache.key`; a breakpoint on the leading developer (Responses) or
/// system (Chat) message (where a render puts the system prompt's, ORS-21, OAC-31) as the
/// `"system"` breakpoint, alone when
/// `prompt_cache_options.mode` is `explicit`.
pub(crate) fn openai_cache(body: &Map<String, Value>) -> Option<CacheOptions> {
    let key = body
        .get("prompt_cache_key")
        .and_then(Value::as_str)
        .map(str::to_string);
    let marked = system_breakpoint(body);
    if key.is_none() && !marked {
        return None;
    }
    let explicit = body
        .get("prompt_cache_options")
        .and_then(|o| o.get("mode"))
        .and_then(Value::as_str)
        == Some("explicit");
    let breakpoints = if marked && explicit {
        CacheBreakpoints::List(vec![CachePoint::System])
    } else {
        CacheBreakpoints::Auto
    };
    Some(CacheOptions {
        key,
        breakpoints,
        ..CacheOptions::default()
    })
}

/// Whether the body's first item carries the system prompt's `prompt_cache_breakpoint` where a
/// render puts it: Responses' leading developer message (ORS-21), Chat's leading system
/// message (OAC-31).
pub(crate) fn system_breakpoint(body: &Map<String, Value>) -> bool {
    let first = |list: &str| {
        body.get(list)
            .and_then(Value::as_array)
            .and_then(|a| a.first())
    };
    let (Some(first), role) = (match first("input") {
        Some(item) => (Some(item), "developer"),
        None => (first("messages"), "system"),
    }) else {
        return false;
    };
    first.get("role").and_then(Value::as_str) == Some(role)
        && first
            .get("content")
            .and_then(Value::as_array)
            .is_some_and(|parts| {
                parts.iter().any(|p| {
                    p.get("prompt_cache_breakpoint")
                        .is_some_and(|b| !b.is_null())
                })
            })
}

/// ORS-21 / OAC-31: a block keeps no cache breakpoint. The one on the system prompt's leading
/// item of a body is read into `cache.breakpoints` (`system_mark`); every other one in the
/// parts under `keys` of `items` is named.
pub(crate) fn breakpoint_notes(
    r: &mut Reader,
    items: &Value,
    path: &str,
    system_mark: bool,
    keys: &[&str],
) {
    let Some(items) = items.as_array() else {
        return;
    };
    for (i, item) in items.iter().enumerate() {
        if i == 0 && system_mark {
            continue;
        }
        for key in keys {
            let parts = item.get(*key).and_then(Value::as_array);
            for (j, part) in parts.into_iter().flatten().enumerate() {
                if part
                    .get("prompt_cache_breakpoint")
                    .is_some_and(|b| !b.is_null())
                {
                    r.note(
                        &format!("{path}[{i}].{key}[{j}].prompt_cache_breakpoint"),
                        "a block keeps no cache breakpoint: turnwire places them from the `cache` option (ORS-21, OAC-31: `system` / `tools` mark the system prompt for gpt-5.6 and later)",
                    );
                }
            }
        }
    }
}
