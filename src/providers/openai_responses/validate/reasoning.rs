//! Reasoning continuity: `ORS-03` (a reasoning item is followed by its item), `ORS-04` (an `fc_`
//! id needs its reasoning item) and `ORS-05` (`store: false` ⇒ nothing referenced by id alone).

use super::items::{Item, Kind, Role};
use crate::providers::validate_support::Findings;

/// Whether a reasoning item may be immediately followed by `kind`: the assistant message or
/// function call it belongs to (or a built-in tool call the model made).
fn may_follow_reasoning(kind: Kind) -> bool {
    matches!(
        kind,
        Kind::Message(Some(Role::Assistant))
            | Kind::FunctionCall
            | Kind::ClientCall(_)
            | Kind::BuiltIn(true)
    )
}

/// `'rs_…' ` for messages, or nothing when the item has no string id.
fn quoted_id(item: &Item<'_>) -> String {
    item.id().map_or(String::new(), |id| format!("'{id}' "))
}

/// ORS-03: every reasoning item is immediately followed by an assistant message or a function
/// call (not by another reasoning item, a user/system/developer message or an output, and not
/// last in input).
pub(super) fn check_ors_03_reasoning_followed(items: &[Item<'_>], out: &mut Findings) {
    for item in items.iter().filter(|i| i.kind == Kind::Reasoning) {
        let next = items.get(item.idx + 1);
        if next.is_some_and(|n| may_follow_reasoning(n.kind)) {
            continue;
        }
        let detail = match next {
            None => "it is the last input item".to_string(),
            Some(n) => format!(
                "it is followed by a {} item at input[{}]",
                n.kind.describe(),
                n.idx
            ),
        };
        out.push(
            "ORS-03",
            item.path(),
            format!(
                "Item {}of type 'reasoning' was provided without its required following item \
                 ({detail}; a reasoning item must be immediately followed by the assistant \
                 message or function_call it belongs to).",
                quoted_id(item)
            ),
        );
    }
}

/// ORS-04: a function call carrying an `fc_` id has a reasoning item before it in the same run
/// of calls (strict: the id is sent only when its reasoning item is sent too).
pub(super) fn check_ors_04_fc_id_needs_reasoning(items: &[Item<'_>], out: &mut Findings) {
    for item in items.iter().filter(|i| i.kind == Kind::FunctionCall) {
        let Some(id) = item.id().filter(|id| id.starts_with("fc_")) else {
            continue;
        };
        let before = items.get(..item.idx).unwrap_or_default();
        let preceded = before
            .iter()
            .rev()
            .find(|i| {
                !matches!(
                    i.kind,
                    Kind::FunctionCall | Kind::ClientCall(_) | Kind::BuiltIn(true)
                )
            })
            .is_some_and(|i| i.kind == Kind::Reasoning);
        if !preceded {
            out.push(
                "ORS-04",
                item.path().k("id"),
                format!(
                    "Item '{id}' of type 'function_call' was provided without its required \
                     'reasoning' item (strict: send the fc_ id only when a reasoning item \
                     precedes the call in the same run of calls; otherwise omit the id and pair \
                     by call_id)."
                ),
            );
        }
    }
}

/// ORS-05: with `store: false`, no `item_reference` items and every reasoning item carries its
/// `encrypted_content` (ids alone cannot be resolved).
pub(super) fn check_ors_05_unstored(items: &[Item<'_>], store_false: bool, out: &mut Findings) {
    if !store_false {
        return;
    }
    for item in items {
        let path = match item.kind {
            Kind::ItemReference => item.path(),
            Kind::Reasoning => {
                let inline = item
                    .str_field("encrypted_content")
                    .is_some_and(|s| !s.is_empty());
                if inline {
                    continue;
                }
                item.path().k("encrypted_content")
            }
            _ => continue,
        };
        let id = item.id().unwrap_or("");
        let what = if item.kind == Kind::Reasoning {
            "a reasoning item replayed with `store: false` must carry its `encrypted_content`"
        } else {
            "`item_reference` items cannot be resolved with `store: false`"
        };
        out.push(
            "ORS-05",
            path,
            format!(
                "Item with id '{id}' not found. Items are not persisted when `store` is set to \
                 false. Try again with `store` set to true, or remove this item from your input. \
                 ({what})"
            ),
        );
    }
}
