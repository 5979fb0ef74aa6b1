//! A broken provider rule found in a request body.

use serde::Serialize;

/// One violation of a provider rule (ids from `provider-rules.md`, e.g. `ANT-04`, `OAC-02`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct Violation {
    /// The rule id.
    pub rule: &'static str,
    /// JSON path of the offending part of the body.
    pub path: String,
    /// What is wrong, in the provider's words where known.
    pub message: String,
}

impl Violation {
    /// Builds a violation.
    ///
    /// ```
    /// use turnwire::Violation;
    /// let v = Violation::new("ANT-01", "$.messages[0].role", "first message must use the user role");
    /// assert_eq!(v.rule, "ANT-01");
    /// ```
    pub fn new(rule: &'static str, path: impl Into<String>, message: impl Into<String>) -> Self {
        Violation {
            rule,
            path: path.into(),
            message: message.into(),
        }
    }
}
