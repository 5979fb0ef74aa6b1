//! The HTTP headers a request body depends on. Some request parameters are headers, never body
//! fields (Anthropic `betas` → `anthropic-beta`, `user_profile_id` →
//! `anthropic-user-profile-id`, `workspace_id` → `anthropic-workspace-id`: the SDK's "Header
//! param"s, ANT-42). A caller that gives one through `providerOptions` or `extra` gets it moved
//! out of the body into the render's `headers` (`header_param_moved`); the render adds the beta
//! values the body itself needs (a replayed `fallback` block, …).

use serde_json::Value;

use super::{note, RenderOptions};
use crate::error::{Error, ErrorCode};
use crate::vocab::DiagnosticCode;

/// The headers the caller's options give, and the notes on moving them out of the body.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct HeaderPlan {
    /// (header, value) in the provider's order of header params.
    pub headers: Vec<(String, String)>,
    /// One `header_param_moved` per parameter moved.
    pub notes: Vec<Diagnostic>,
}

use crate::vocab::Diagnostic;

/// The `anthropic-beta` header.
pub(crate) const BETA_HEADER: &str = "anthropic-beta";

impl HeaderPlan {
    /// The headers to send with a body that needs the beta values `betas` (the caller's first,
    /// each value once, comma-joined as the SDK joins them).
    ///
    /// ```ignore
    /// plan.with_betas(&["server-side-fallback-2026-07-01"]) // [("anthropic-beta", "…")]
    /// ```
    pub(crate) fn with_betas(&self, betas: &[&str]) -> Vec<(String, String)> {
        let mut out = self.headers.clone();
        if betas.is_empty() {
            return out;
        }
        let at = out.iter().position(|(h, _)| h == BETA_HEADER);
        let mut values: Vec<String> = at
            .and_then(|i| out.get(i))
            .map(|(_, v)| v.split(',').map(|s| s.trim().to_string()).collect())
            .unwrap_or_default();
        values.retain(|v| !v.is_empty());
        for b in betas {
            if !values.iter().any(|v| v == b) {
                values.push((*b).to_string());
            }
        }
        let joined = values.join(",");
        match at.and_then(|i| out.get_mut(i)) {
            Some(slot) => slot.1 = joined,
            None => out.insert(0, (BETA_HEADER.to_string(), joined)),
        }
        out
    }
}

impl RenderOptions {
    /// The header params the caller gave as body fields (`providerOptions.<provider>` first,
    /// then `extra`), as headers; an error for a value that is not a header's (`betas`: a
    /// string or an array of strings; the others: a string).
    pub(crate) fn header_plan(&self) -> Result<HeaderPlan, Error> {
        let mut plan = HeaderPlan::default();
        let patch = self
            .provider_options
            .get(self.provider.as_str())
            .and_then(Value::as_object);
        for (param, header) in self.provider.header_params() {
            let (value, at) = match patch.and_then(|p| p.get(*param)) {
                Some(v) => (v, format!("$.providerOptions.{}.{param}", self.provider)),
                None => match self.extra.get(*param) {
                    Some(v) => (v, format!("$.extra.{param}")),
                    None => continue,
                },
            };
            let text = match value {
                Value::String(s) => s.clone(),
                Value::Array(items) if *param == "betas" => {
                    let mut parts = Vec::with_capacity(items.len());
                    for (i, item) in items.iter().enumerate() {
                        match item.as_str() {
                            Some(s) => parts.push(s),
                            None => {
                                return Err(Error::new(
                                    ErrorCode::InvalidType,
                                    format!("{at}[{i}]"),
                                    "each beta is a string",
                                ))
                            }
                        }
                    }
                    parts.join(",")
                }
                Value::Null => continue,
                _ => {
                    return Err(Error::new(
                        ErrorCode::InvalidType,
                        at,
                        format!(
                            "`{param}` is the `{header}` header: a string{}",
                            if *param == "betas" {
                                " or an array of strings"
                            } else {
                                ""
                            }
                        ),
                    ))
                }
            };
            plan.notes.push(
                note(
                    DiagnosticCode::HeaderParamMoved,
                    format!("`{param}` is not a body field of {} but the `{header}` header (ANT-42); it was moved into the render's headers", self.provider),
                )
                .at_path(at),
            );
            plan.headers.push(((*header).to_string(), text));
        }
        Ok(plan)
    }
}

/// Whether `key` is one of `provider`'s header params (left out of the body).
pub(crate) fn is_header_param(provider: crate::vocab::Provider, key: &str) -> bool {
    provider.header_params().iter().any(|(p, _)| *p == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vocab::Provider;
    use serde_json::json;

    fn options(provider_options: Value, extra: Value) -> RenderOptions {
        let mut o = RenderOptions::new(Provider::Anthropic, "claude-opus-5");
        if let Value::Object(m) = provider_options {
            o.provider_options = m.into_iter().collect();
        }
        if let Value::Object(m) = extra {
            o.extra = m;
        }
        o
    }

    #[test]
    fn ant_42_betas_and_user_profile_id_become_headers() {
        let o = options(
            json!({"anthropic": {"betas": ["a-1", "b-2"], "top_k": 3}}),
            json!({"user_profile_id": "up_1"}),
        );
        let plan = o.header_plan().expect("valid");
        assert_eq!(
            plan.headers,
            vec![
                ("anthropic-beta".to_string(), "a-1,b-2".to_string()),
                ("anthropic-user-profile-id".to_string(), "up_1".to_string())
            ]
        );
        assert_eq!(plan.notes.len(), 2);
        assert_eq!(plan.notes[0].code, DiagnosticCode::HeaderParamMoved);
        assert_eq!(
            plan.notes[0].path.as_deref(),
            Some("$.providerOptions.anthropic.betas")
        );
        assert_eq!(
            plan.with_betas(&["b-2", "c-3"])[0],
            ("anthropic-beta".to_string(), "a-1,b-2,c-3".to_string())
        );
    }

    #[test]
    fn ant_42_a_beta_that_is_not_a_string_is_an_error() {
        let o = options(json!({"anthropic": {"betas": [1]}}), json!({}));
        let e = o.header_plan().expect_err("not a string");
        assert_eq!(e.path(), "$.providerOptions.anthropic.betas[0]");
    }

    #[test]
    fn other_providers_have_no_header_params() {
        let mut o = options(json!({}), json!({"betas": ["x"]}));
        o.provider = Provider::OpenAiChat;
        assert_eq!(o.header_plan().expect("valid"), HeaderPlan::default());
    }
}
