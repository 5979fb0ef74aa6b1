//! JSON text in: parsing that repairs what a provider history can hold but serde_json refuses
//! (unpaired UTF-16 surrogates), and errors that name the JSON path of the problem.
//!
//! Every reader of JSON text goes through [`parse`] (transcripts, appended messages, render
//! options, request bodies, arguments given as JSON strings): the clean path is serde_json
//! alone; text it refuses is scanned for unpaired surrogates, rewritten, parsed again, and each
//! repaired string is reported by its path ([`report`]). Nesting is read up to
//! [`MAX_DEPTH`] (512) levels ([`depth`]), in readers and stream decoders alike.

pub(crate) mod depth;
pub(crate) mod escape_scan;
mod locate;
pub(crate) mod obj;
pub(crate) mod out;
mod parse;
pub(crate) mod report;
pub(crate) mod scan;
pub(crate) mod surrogates;
pub(crate) mod write;

pub use depth::MAX_DEPTH;
pub(crate) use locate::write_path_key;
#[cfg(test)]
pub(crate) use parse::parse_with;
pub(crate) use parse::{parse, parse_bytes, parse_with_own, OwnRead, Parsed, SurrogateRepair};

/// Formats a path below `root` (`$`, `$[12]`).
pub(crate) fn format_path(root: &str, segs: &[locate::Seg]) -> String {
    locate::format(root, segs)
}

/// The JSON path of each byte offset of a text (for validators reporting raw bytes).
pub(crate) fn paths_at(text: &[u8], offsets: &[usize], root: &str) -> Vec<String> {
    locate::paths_at(text, offsets)
        .iter()
        .map(|p| locate::format(root, p))
        .collect()
}
