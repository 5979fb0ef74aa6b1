//! Tool interaction status, inferred from a response block (REQ-915-048).

use serde_json::Value;

/// The lifecycle state of one tool interaction: `errored`, `complete` or `pending`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum ToolStatus {
    /// The tool failed or was cancelled (`error` is present).
    Errored,
    /// The tool finished.
    Complete,
    /// No outcome recorded yet.
    Pending,
}

impl ToolStatus {
    /// REQ-915-048 precedence: (1) `error` present → errored; (2) else `isComplete == true` →
    /// complete; (3) else `result` non-null → complete; (4) else pending.
    ///
    /// ```
    /// use turnwire::model::ToolStatus;
    /// assert_eq!(ToolStatus::infer(false, None, Some(&serde_json::json!("ok"))), ToolStatus::Complete);
    /// assert_eq!(ToolStatus::infer(false, Some(false), None), ToolStatus::Pending);
    /// ```
    pub fn infer(has_error: bool, is_complete: Option<bool>, result: Option<&Value>) -> ToolStatus {
        if has_error {
            ToolStatus::Errored
        } else if is_complete == Some(true) || matches!(result, Some(v) if !v.is_null()) {
            ToolStatus::Complete
        } else {
            ToolStatus::Pending
        }
    }

    /// The stable string form.
    pub const fn as_str(self) -> &'static str {
        match self {
            ToolStatus::Errored => "errored",
            ToolStatus::Complete => "complete",
            ToolStatus::Pending => "pending",
        }
    }
}
