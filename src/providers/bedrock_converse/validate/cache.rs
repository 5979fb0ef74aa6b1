//! BDR-18: where `cachePoint` blocks may stand, how many Claude takes, and their lifetimes.

use serde_json::Value;

use super::{Family, CLAUDE_SAYS};
use crate::models::BedrockFamily;
use crate::providers::validate_support::{Findings, Path};

/// Claude's limit on cache marks (ANT-18), which a cache point is on Bedrock.
const MAX_POINTS: usize = 4;

/// Every cache point rule, in the order tools, system, messages (Claude's processing order).
pub(super) fn check(body: &Value, family: Family, out: &mut Findings) {
    let mut points: Vec<(Path, Option<&str>)> = Vec::new();
    let tools_at = Path::root().k("toolConfig").k("tools");
    if let Some(tools) = body.pointer("/toolConfig/tools").and_then(Value::as_array) {
        for (k, t) in tools.iter().enumerate() {
            if t.get("cachePoint").is_none() {
                continue;
            }
            if family == Family::Known(BedrockFamily::Nova) {
                out.push(
                    "BDR-18",
                    tools_at.i(k),
                    format!("Malformed input request: #/toolConfig/tools/{k}: extraneous key [cachePoint] is not permitted, please reformat your input and try again."),
                );
                continue;
            }
            list_point(tools, k, tools_at.i(k), family, &mut points, out);
        }
    }
    if let Some(system) = body.get("system").and_then(Value::as_array) {
        let at = Path::root().k("system");
        for (k, b) in system.iter().enumerate() {
            if b.get("cachePoint").is_some() {
                list_point(system, k, at.i(k), family, &mut points, out);
            }
        }
    }
    for (i, m) in body
        .get("messages")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let Some(blocks) = m.get("content").and_then(Value::as_array) else {
            continue;
        };
        for (b, block) in blocks.iter().enumerate() {
            if block.get("cachePoint").is_some() {
                list_point(blocks, b, Path::block(i, b), family, &mut points, out);
            }
            let nested = block
                .pointer("/toolResult/content")
                .and_then(Value::as_array);
            for (k, c) in nested.into_iter().flatten().enumerate() {
                if c.get("cachePoint").is_some() {
                    out.push(
                        "BDR-18",
                        Path::block(i, b).k("toolResult").k("content").i(k),
                        "A cachePoint cannot be placed inside toolResult content: put it after the toolResult block. [inferred]",
                    );
                }
            }
        }
    }
    if family == Family::Known(BedrockFamily::Claude) {
        claude_limits(points, out);
    }
}

/// One cache point at `list[k]`: its shape, never first, never after reasoning; Claude: never
/// right after a document that is not a PDF; other known families take none.
fn list_point<'v>(
    list: &'v [Value],
    k: usize,
    at: Path,
    family: Family,
    points: &mut Vec<(Path, Option<&'v str>)>,
    out: &mut Findings,
) {
    let point = list.get(k).and_then(|b| b.get("cachePoint"));
    let ttl = point.and_then(|p| p.get("ttl")).and_then(Value::as_str);
    let shape_ok = point.and_then(|p| p.get("type")).and_then(Value::as_str) == Some("default")
        && matches!(ttl, None | Some("5m" | "1h"));
    if !shape_ok {
        out.push(
            "BDR-18",
            at.k("cachePoint"),
            "A cachePoint is {\"type\": \"default\"} with an optional ttl of \"5m\" or \"1h\". [inferred]",
        );
    }
    if matches!(family, Family::Known(f) if !f.takes_cache_points()) {
        out.push(
            "BDR-18",
            at,
            "This model doesn't support prompt caching: remove the cachePoint blocks and try again. [inferred]",
        );
        return;
    }
    let before = k.checked_sub(1).and_then(|j| list.get(j));
    match before {
        None => out.push(
            "BDR-18",
            at,
            "There is nothing available to cache.",
        ),
        Some(b) if b.get("reasoningContent").is_some() => out.push(
            "BDR-18",
            at,
            "Cache point cannot be inserted after reasoning block. Please remove the invalid cache point and try again.",
        ),
        Some(b)
            if family == Family::Known(BedrockFamily::Claude)
                && b.pointer("/document/format").and_then(Value::as_str).is_some_and(|f| f != "pdf") =>
        {
            out.push(
                "BDR-18",
                at,
                "A cachePoint cannot follow a document that is not a PDF on Claude models. [inferred]",
            )
        }
        Some(_) => points.push((at, ttl)),
    }
}

/// Claude: at most 4 points (ANT-18), no `1h` point after a `5m` one (ANT-28).
fn claude_limits(points: Vec<(Path, Option<&str>)>, out: &mut Findings) {
    let found = points.len();
    let mut short_seen = false;
    for (n, (at, ttl)) in points.into_iter().enumerate() {
        if ttl == Some("1h") && short_seen {
            out.push(
                "BDR-18",
                at.k("cachePoint").k("ttl"),
                format!("{CLAUDE_SAYS}{}.cache_control.ttl: a ttl='1h' cache_control block must not come after a ttl='5m' cache_control block. Note that blocks are processed in the following order: `tools`, `system`, `messages`.", at.dotted()),
            );
        }
        short_seen |= ttl != Some("1h");
        if n == MAX_POINTS {
            out.push(
                "BDR-18",
                at,
                format!("{CLAUDE_SAYS}A maximum of {MAX_POINTS} blocks with cache_control may be provided. Found {found}."),
            );
        }
    }
}
