//! `ANT-42`: the request parameters Anthropic takes as HTTP headers (`betas` →
//! `anthropic-beta`, `user_profile_id` → `anthropic-user-profile-id`, `workspace_id` →
//! `anthropic-workspace-id`) are not body fields: in the body they are refused like any unknown
//! field.

use serde_json::{Map, Value};

use crate::providers::validate_support::{Findings, Path};
use crate::vocab::Provider;

/// ANT-42: no header param in the body.
pub(super) fn check_ant_42_header_params(obj: &Map<String, Value>, out: &mut Findings) {
    for (param, _) in Provider::Anthropic.header_params() {
        if obj.contains_key(*param) {
            out.push(
                "ANT-42",
                Path::root().k(param),
                format!("{param}: Extra inputs are not permitted"),
            );
        }
    }
}
