//! `GEM-22` function call ids: where ids are used, every `functionResponse.id` is the id of a
//! call of the function call turn it answers (the matching itself is part of `GEM-01`'s walk in
//! `turns.rs`); and the stable `v1` API takes no `id` on either part.

use super::contents::Content;
use super::parts::PartKind;
use crate::providers::validate_support::Findings;
use crate::vocab::{Pairing, WireApi};

/// Where Gemini keeps function calls and their responses.
const PAIRING: Pairing = WireApi::GenerateContent.pairing();

/// Gemini's words for a response whose id is not its call's (router-for-me/CLIProxyAPI#5199).
pub(super) const GEM_22_MISMATCH: &str = "functionResponse.id does not match functionCall.id";

/// GEM-22 on the stable `v1` API: `Invalid JSON payload received. Unknown name "id" at
/// 'contents[N].parts[M].function_call': Cannot find field.` for every call or response that
/// carries an `id` (pydantic/pydantic-ai#5493, livekit/agents#3900).
pub(super) fn check_gem_22_no_ids_on_stable_v1(contents: &[Content<'_>], out: &mut Findings) {
    for c in contents {
        for part in &c.parts {
            let (key, id, proto) = match part.kind {
                PartKind::FunctionCall => (PAIRING.call, PAIRING.call_id, "function_call"),
                PartKind::FunctionResponse => {
                    (PAIRING.result, PAIRING.result_id, "function_response")
                }
                _ => continue,
            };
            if part.data(key).is_some_and(|d| d.contains_key(id)) {
                out.push(
                    "GEM-22",
                    c.part_path(part.idx).k(key).k(id),
                    format!(
                        "Invalid JSON payload received. Unknown name \"id\" at \
                         'contents[{}].parts[{}].{proto}': Cannot find field. (the stable `v1` \
                         API takes no call ids; `v1beta` / `v1beta1` do)",
                        c.idx, part.idx
                    ),
                );
            }
        }
    }
}
