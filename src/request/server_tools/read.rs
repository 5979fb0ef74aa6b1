//! `serverTools` entries read from JSON by hand.

use serde::Deserialize;
use serde_json::Value;

use super::{ServerTool, ServerToolKind, UserLocation};

/// Read through a `Value` by hand: serde's derives, monomorphised for every reader the options
/// come through, cost the render module kilobytes.
impl<'de> Deserialize<'de> for ServerTool {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error as _;
        let Value::Object(mut o) = Value::deserialize(d)? else {
            return Err(D::Error::custom(EXPECTED));
        };
        let kind = match o.remove("type").as_ref().and_then(Value::as_str) {
            Some("web_search") => ServerToolKind::WebSearch,
            Some("code_execution") => ServerToolKind::CodeExecution,
            Some("tool_search_regex") => ServerToolKind::ToolSearchRegex,
            Some("tool_search_bm25") => ServerToolKind::ToolSearchBm25,
            Some(other) => {
                return Err(D::Error::custom(format!(
                    "{EXPECTED} (unknown server tool \"{other}\")"
                )))
            }
            None => return Err(D::Error::custom(format!("{EXPECTED} (type is missing)"))),
        };
        let mut t = ServerTool::new(kind);
        for (key, v) in o {
            match key.as_str() {
                "maxUses" => {
                    t.max_uses = match v.as_u64().map(u32::try_from) {
                        Some(Ok(n)) => Some(n),
                        _ => return Err(D::Error::custom("maxUses must be a whole number")),
                    }
                }
                "allowedDomains" => t.allowed_domains = strings(v, "allowedDomains")?,
                "blockedDomains" => t.blocked_domains = strings(v, "blockedDomains")?,
                "userLocation" => t.user_location = Some(user_location(v)?),
                other => {
                    return Err(D::Error::custom(format!(
                        "{EXPECTED} (unknown field `{other}`)"
                    )))
                }
            }
        }
        Ok(t)
    }
}

const EXPECTED: &str = "a server tool is {\"type\": \"web_search\" | \"code_execution\" | \"tool_search_regex\" | \"tool_search_bm25\"} with optional maxUses, allowedDomains, blockedDomains and userLocation";

fn strings<E: serde::de::Error>(v: Value, field: &str) -> Result<Vec<String>, E> {
    let list = match v {
        Value::Array(list) => list,
        _ => return Err(E::custom(format!("{field} must be a list of domain names"))),
    };
    list.into_iter()
        .map(|d| match d {
            Value::String(s) => Ok(s),
            _ => Err(E::custom(format!("{field} must be a list of domain names"))),
        })
        .collect()
}

fn user_location<E: serde::de::Error>(v: Value) -> Result<UserLocation, E> {
    const WANT: &str = "userLocation is {city?, region?, country?, timezone?} with string values";
    let Value::Object(o) = v else {
        return Err(E::custom(WANT));
    };
    let mut l = UserLocation::default();
    for (key, v) in o {
        let slot = match key.as_str() {
            "city" => &mut l.city,
            "region" => &mut l.region,
            "country" => &mut l.country,
            "timezone" => &mut l.timezone,
            _ => return Err(E::custom(WANT)),
        };
        match v {
            Value::String(s) => *slot = Some(s),
            _ => return Err(E::custom(WANT)),
        }
    }
    Ok(l)
}
