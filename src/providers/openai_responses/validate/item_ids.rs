//! `ORS-12`: input item ids are unique within the request.

use crate::fast_map::HashSet;

use super::items::Item;
use crate::providers::validate_support::Findings;

/// ORS-12: no two input items carry the same `id` (reported at the second and later ones).
pub(super) fn check_ors_12_unique_item_ids(items: &[Item<'_>], out: &mut Findings) {
    let mut seen = HashSet::default();
    for item in items {
        if let Some(id) = item.id().filter(|id| !id.is_empty()) {
            if !seen.insert(id) {
                out.push(
                    "ORS-12",
                    item.path().k("id"),
                    format!(
                        "Duplicate item found with id {id}. Remove duplicate items from your \
                         input and try again."
                    ),
                );
            }
        }
    }
}
