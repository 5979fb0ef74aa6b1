//! Repairs made while reading, as diagnostics: one per string (or value), with its JSON path,
//! and a single summary once there are very many.

use std::fmt::Write as _;

use super::locate;
use super::parse::SurrogateRepair;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Reading diagnostics of one code listed one by one; any further ones are counted in one
/// summary diagnostic (`count`, no `path`).
pub const MAX_LISTED: usize = 32;

/// The input message a transcript path is in: `$[i]…` or `$.messages[i]…` (`None` for the
/// paths of render options, `$.system`, `$.tools[0]…`).
pub(crate) fn message_of(path: &str) -> Option<usize> {
    let rest = path
        .strip_prefix("$[")
        .or_else(|| path.strip_prefix("$.messages["))?;
    rest.split(']').next()?.parse().ok()
}

/// Moves read repairs with an edit of the messages: the repairs of the `removed` messages
/// (`start..start + removed`) go, and those of later messages follow them to their new index
/// (`inserted` messages took the removed ones' place). A summary of repairs past the listing
/// cap names no message and stays.
pub(crate) fn rebase(list: &mut Vec<Diagnostic>, start: usize, removed: usize, inserted: usize) {
    let end = start.saturating_add(removed);
    list.retain(|d| d.message_index.is_none_or(|i| i < start || i >= end));
    for d in list.iter_mut() {
        let Some(i) = d.message_index.filter(|&i| i >= end) else {
            continue;
        };
        let moved = i - removed + inserted;
        d.message_index = Some(moved);
        if let Some(path) = &mut d.path {
            *path = moved_path(path, i, moved);
        }
    }
}

/// `path` (`$[12].blocks[0]`, `$.messages[12]…`) with its message index `from` made `to`.
fn moved_path(path: &str, from: usize, to: usize) -> String {
    for root in ["$[", "$.messages["] {
        let old = format!("{root}{from}]");
        if let Some(rest) = path.strip_prefix(old.as_str()) {
            return format!("{root}{to}]{rest}");
        }
    }
    path.to_string()
}

/// One diagnostic per repaired string; `root` is the document's path (`$`, `$[12]` for an
/// appended message), and the input message is read from the full path.
pub(crate) fn surrogates(repairs: &[SurrogateRepair], root: &str) -> Vec<Diagnostic> {
    repairs
        .iter()
        .map(|r| {
            let path = locate::format(root, &r.path);
            let mut units = String::new();
            for (i, u) in r.units.iter().take(4).enumerate() {
                let sep = if i > 0 { ", " } else { "" };
                let _ = write!(units, "{sep}U+{u:04X}");
            }
            if r.units.len() > 4 {
                units.push_str(", …");
            }
            let what = if r.units.len() == 1 {
                format!("an unpaired UTF-16 surrogate ({units})")
            } else {
                format!("{} unpaired UTF-16 surrogates ({units})", r.units.len())
            };
            let how = if r.identifier {
                "replaced by U+FFFD followed by its hex code, so the id stays distinct"
            } else {
                "replaced by U+FFFD"
            };
            let mut d = Diagnostic::new(
                DiagnosticCode::LoneSurrogateReplaced,
                FaultClass::CanonicalState,
                format!("{path} held {what} (half of a character, cut from its pair); {how}: providers refuse a request carrying it"),
            )
            .at_message(message_of(&path))
            .at_path(path);
            if r.units.len() > 1 {
                d.count = Some(r.units.len());
            }
            d
        })
        .collect()
}

/// Appends `new` to `list`, listing at most [`MAX_LISTED`] diagnostics per code with a path;
/// beyond that, one summary diagnostic per code counts the rest.
pub(crate) fn push_capped(list: &mut Vec<Diagnostic>, new: impl IntoIterator<Item = Diagnostic>) {
    for d in new {
        let listed = list
            .iter()
            .filter(|x| x.code == d.code && x.path.is_some())
            .count();
        if listed < MAX_LISTED {
            list.push(d);
            continue;
        }
        match list
            .iter_mut()
            .find(|x| x.code == d.code && x.path.is_none())
        {
            Some(summary) => {
                let n = summary.count.unwrap_or(0) + 1;
                summary.count = Some(n);
                summary.message = summary_message(d.code, n);
            }
            None => {
                let mut summary = Diagnostic::new(d.code, d.fault, summary_message(d.code, 1));
                summary.count = Some(1);
                list.push(summary);
            }
        }
    }
}

fn summary_message(code: DiagnosticCode, n: usize) -> String {
    let what = match code {
        DiagnosticCode::LoneSurrogateReplaced => "strings with unpaired UTF-16 surrogates were",
        DiagnosticCode::NonJsonValueReplaced => "values JSON cannot carry were",
        _ => "inputs were",
    };
    format!(
        "{n} more {what} repaired the same way (only the first {MAX_LISTED} are listed with their paths)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::locate::Seg;

    fn repair(i: usize) -> SurrogateRepair {
        SurrogateRepair {
            path: vec![Seg::Index(i), Seg::Key("text".into())],
            units: vec![0xD83D],
            identifier: false,
        }
    }

    #[test]
    fn each_string_is_listed_with_its_path_and_message() {
        let d = surrogates(&[repair(3)], "$");
        assert_eq!(d[0].code, DiagnosticCode::LoneSurrogateReplaced);
        assert_eq!(d[0].path.as_deref(), Some("$[3].text"));
        assert_eq!(d[0].message_index, Some(3));
        assert!(d[0].message.contains("U+D83D"));
        assert_eq!(message_of("$.messages[7].blocks[0]"), Some(7));
        assert_eq!(message_of("$.tools[0].name"), None);
    }

    #[test]
    fn very_many_are_summarised() {
        let mut list = Vec::new();
        let many: Vec<SurrogateRepair> = (0..100).map(repair).collect();
        push_capped(&mut list, surrogates(&many, "$"));
        assert_eq!(list.len(), MAX_LISTED + 1);
        let summary = list.last().map(|d| (d.path.clone(), d.count));
        assert_eq!(summary, Some((None, Some(100 - MAX_LISTED))));
    }
}
