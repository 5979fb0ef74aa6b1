//! Parsing JSON text with repair: unpaired surrogates replaced (and remembered), errors located
//! by JSON path.

use std::fmt::Write as _;

use serde::Deserialize;
use serde_json::de::StrRead;
use serde_json::Value;

use super::locate::{self, Seg};
use super::surrogates::{self, LoneSurrogate};
use crate::error::{Error, ErrorCode};

use super::depth::{self, DeepError, MAX_DEPTH};

/// Member names whose string values are identifiers: call ids, result ids, tool names. An
/// unpaired surrogate in one of them becomes U+FFFD followed by the unit's four hex digits
/// (`"a\ud800"` → `"a\u{FFFD}d800"`), so two ids that differed only there stay different.
const IDENTIFIER_KEYS: [&str; 8] = [
    "id",
    "callId",
    "call_id",
    "tool_call_id",
    "tool_use_id",
    "toolCallId",
    "name",
    "toolName",
];

/// One string of a document that held unpaired surrogates, and what they were.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SurrogateRepair {
    /// Where the string is, below the document's root.
    pub path: Vec<Seg>,
    /// The replaced units, in order.
    pub units: Vec<u16>,
    /// Whether the string is an identifier (replacement followed by the hex code).
    pub identifier: bool,
}

/// A parsed document and the repairs reading it took.
#[derive(Debug)]
pub(crate) struct Parsed {
    pub value: Value,
    pub repairs: Vec<SurrogateRepair>,
}

/// Parses JSON text, replacing every unpaired surrogate escape. `root` is the document's own
/// path for the caller (`$`, `$[12]` for an appended message) and `what` names it in errors
/// ("the transcript"). A syntax error names the JSON path where the text broke.
///
/// The clean path is serde_json alone: only text it refuses is scanned for lone surrogates
/// (serde_json refuses every one of them), rewritten and parsed again.
pub(crate) fn parse(text: &str, root: &str, what: &str) -> Result<Parsed, Error> {
    let (value, repairs) = parse_with(text, root, what, |de| Value::deserialize(de))?;
    Ok(Parsed { value, repairs })
}

/// [`parse`] with a reader of its own: `read` builds its value straight from the text (and is
/// run again on the rewritten text when the first read met an unpaired surrogate).
pub(crate) fn parse_with<T>(
    text: &str,
    root: &str,
    what: &str,
    read: impl for<'d> Fn(&mut serde_json::Deserializer<StrRead<'d>>) -> Result<T, serde_json::Error>,
) -> Result<(T, Vec<SurrogateRepair>), Error> {
    parse_with_own(text, root, what, |_| OwnRead::GaveUp, read)
}

/// What a reader of its own made of a text ([`parse_with_own`]).
#[derive(Debug)]
pub(crate) enum OwnRead<T> {
    /// The value, exactly what serde_json's path reads.
    Read(T),
    /// It stopped at an unpaired surrogate escape: the text needs the repair.
    LoneSurrogate,
    /// Anything else (an error, or text it leaves to serde_json) goes serde_json's path.
    GaveUp,
}

impl<T> OwnRead<T> {
    /// The value made into another.
    pub(crate) fn map<U>(self, f: impl FnOnce(T) -> U) -> OwnRead<U> {
        match self {
            OwnRead::Read(v) => OwnRead::Read(f(v)),
            OwnRead::LoneSurrogate => OwnRead::LoneSurrogate,
            OwnRead::GaveUp => OwnRead::GaveUp,
        }
    }
}

/// [`parse_with`] with a faster reader of its own tried first. `own` reads well-formed text,
/// and the text again once its unpaired surrogates are repaired; serde_json's `read` takes
/// whatever `own` gives up on, and reports the errors. `own` must read exactly what `read`
/// reads wherever it reads anything.
///
/// ```ignore
/// let (n, repairs) = parse_with_own(r#"["cut \ud83d"]"#, "$", "the transcript",
///     |t| own_reader(t), |de| serde_reader(de))?;
/// ```
pub(crate) fn parse_with_own<T>(
    text: &str,
    root: &str,
    what: &str,
    own: impl Fn(&str) -> OwnRead<T>,
    read: impl for<'d> Fn(&mut serde_json::Deserializer<StrRead<'d>>) -> Result<T, serde_json::Error>,
) -> Result<(T, Vec<SurrogateRepair>), Error> {
    let serde_first = || depth::from_str_with(text, &read);
    // serde_json's error on the text, unless it reads it; not asked when `own` stopped at an
    // unpaired surrogate (serde_json refuses every one of them)
    let first = match own(text) {
        OwnRead::Read(value) => return Ok((value, Vec::new())),
        OwnRead::LoneSurrogate => None,
        OwnRead::GaveUp => match serde_first() {
            Ok(value) => return Ok((value, Vec::new())),
            Err(e) => Some(e),
        },
    };
    let lone = surrogates::escaped(text.as_bytes());
    if lone.is_empty() {
        let first = match first {
            Some(e) => e,
            None => match serde_first() {
                Ok(value) => return Ok((value, Vec::new())),
                Err(e) => e,
            },
        };
        return Err(located(text, &first, root, what));
    }
    let (fixed, repairs) = rewrite(text, &lone);
    if let OwnRead::Read(value) = own(&fixed) {
        return Ok((value, repairs));
    }
    match depth::from_str_with(&fixed, &read) {
        Ok(value) => Ok((value, repairs)),
        Err(e) => Err(located(&fixed, &e, root, what)),
    }
}

/// Bytes in: the raw surrogate form (WTF-8) is replaced by U+FFFD's bytes (same length), then
/// the text is parsed as [`parse`] does. Returns the raw ones found, for validators that must
/// report them. Other invalid UTF-8 is an error naming the path where it is.
pub(crate) fn parse_bytes(
    bytes: &[u8],
    root: &str,
    what: &str,
) -> Result<(Parsed, Vec<LoneSurrogate>), Error> {
    let raw = surrogates::raw(bytes);
    let fixed: std::borrow::Cow<'_, [u8]> = if raw.is_empty() {
        bytes.into()
    } else {
        let mut b = bytes.to_vec();
        for r in &raw {
            if let Some(slot) = b.get_mut(r.offset..r.offset + 3) {
                slot.copy_from_slice("\u{FFFD}".as_bytes());
            }
        }
        b.into()
    };
    let text = std::str::from_utf8(&fixed).map_err(|e| {
        let at = e.valid_up_to();
        let path = locate::paths_at(&fixed, &[at]).pop().unwrap_or_default();
        Error::new(
            ErrorCode::InvalidJson,
            locate::format(root, &path),
            format!("{what} is not UTF-8 (byte {at})"),
        )
    })?;
    Ok((parse(text, root, what)?, raw))
}

/// The text with each unpaired escape replaced, and one repair per string concerned.
fn rewrite(text: &str, lone: &[LoneSurrogate]) -> (String, Vec<SurrogateRepair>) {
    let offsets: Vec<usize> = lone.iter().map(|l| l.offset).collect();
    let paths = locate::paths_at(text.as_bytes(), &offsets);
    let mut out = String::with_capacity(text.len() + 4 * lone.len());
    let mut repairs: Vec<SurrogateRepair> = Vec::new();
    let mut at = 0;
    for (l, path) in lone.iter().zip(paths) {
        // Escapes are ASCII, so these offsets are character boundaries.
        out.push_str(text.get(at..l.offset).unwrap_or_default());
        let identifier =
            matches!(path.last(), Some(Seg::Key(k)) if IDENTIFIER_KEYS.contains(&k.as_str()));
        out.push_str("\\ufffd");
        if identifier {
            let _ = write!(out, "{:04x}", l.unit);
        }
        at = l.offset + l.len;
        match repairs.last_mut() {
            Some(r) if r.path == path => r.units.push(l.unit),
            _ => repairs.push(SurrogateRepair {
                path,
                units: vec![l.unit],
                identifier,
            }),
        }
    }
    out.push_str(text.get(at..).unwrap_or_default());
    (out, repairs)
}

/// A serde_json error as a typed error at the JSON path where the text broke.
fn located(text: &str, e: &DeepError, root: &str, what: &str) -> Error {
    let offset = match e {
        DeepError::Json(e) => locate::offset_of(text.as_bytes(), e.line(), e.column()),
        DeepError::TooDeep(at) => *at,
    };
    let path = locate::paths_at(text.as_bytes(), &[offset])
        .pop()
        .unwrap_or_default();
    let path = locate::format(root, &path);
    let message = match e {
        DeepError::TooDeep(_) => {
            format!("{what} nests arrays and objects deeper than {MAX_DEPTH} levels at {path}")
        }
        DeepError::Json(e) => format!("{what} is not valid JSON at {path}: {e}"),
    };
    Error::new(ErrorCode::InvalidJson, path, message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn repaired(text: &str) -> (Value, Vec<(String, Vec<u16>, bool)>) {
        match parse(text, "$", "the input") {
            Ok(p) => (
                p.value,
                p.repairs
                    .into_iter()
                    .map(|r| (locate::format("$", &r.path), r.units, r.identifier))
                    .collect(),
            ),
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn clean_text_parses_without_repairs() {
        let (v, r) = repaired(r#"{"a":"😀 \ud83d\ude00"}"#);
        assert_eq!(v["a"], "😀 😀");
        assert!(r.is_empty());
    }

    #[test]
    fn lone_surrogates_become_the_replacement_character() {
        let (v, r) = repaired(r#"[{"blocks":[{"text":"cut \ud83d","x":["\ude00\ud83d"]}]}]"#);
        assert_eq!(v[0]["blocks"][0]["text"], "cut \u{FFFD}");
        assert_eq!(v[0]["blocks"][0]["x"][0], "\u{FFFD}\u{FFFD}");
        assert_eq!(
            r,
            [
                ("$[0].blocks[0].text".to_string(), vec![0xD83D], false),
                (
                    "$[0].blocks[0].x[0]".to_string(),
                    vec![0xDE00, 0xD83D],
                    false
                ),
            ]
        );
    }

    #[test]
    fn identifiers_keep_the_unit_so_they_stay_distinct() {
        let (v, r) = repaired(r#"[{"id":"a\ud800"},{"id":"a\ud801"},{"callId":"a\ud800"}]"#);
        assert_eq!(v[0]["id"], "a\u{FFFD}d800");
        assert_eq!(v[1]["id"], "a\u{FFFD}d801");
        assert_eq!(v[2]["callId"], v[0]["id"]);
        assert!(r.iter().all(|(_, _, identifier)| *identifier));
    }

    #[test]
    fn errors_name_the_path() {
        let e = parse(r#"[{"blocks":[{"text": tru}]}]"#, "$", "the transcript").err();
        let e = e.map(|e| (e.code(), e.path().to_string()));
        assert_eq!(
            e,
            Some((ErrorCode::InvalidJson, "$[0].blocks[0].text".to_string()))
        );
        let e = parse(r#"{"a": [1, 2"#, "$[4]", "the message").err();
        assert_eq!(e.map(|e| e.path().to_string()), Some("$[4].a[1]".into()));
    }

    #[test]
    fn too_deep_names_the_path_and_the_limit() {
        let deep = format!(
            r#"{{"args":{}{}}}"#,
            "[".repeat(MAX_DEPTH + 5),
            "]".repeat(MAX_DEPTH + 5)
        );
        let e = parse(&deep, "$", "the message").err();
        let path = e.as_ref().map(|e| e.path().to_string()).unwrap_or_default();
        assert!(path.starts_with("$.args[0][0]"), "{path}");
        assert!(e.is_some_and(|e| e.message().contains("deeper than 512")));
    }

    #[test]
    fn raw_surrogate_bytes_are_replaced_and_reported() {
        let mut bytes = br#"{"a":"x"#.to_vec();
        bytes.extend_from_slice(&[0xED, 0xB8, 0x80]); // U+DE00 in WTF-8
        bytes.extend_from_slice(br#""}"#);
        let parsed = parse_bytes(&bytes, "$", "the body");
        let (p, raw) = match parsed {
            Ok(x) => x,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(p.value["a"], "x\u{FFFD}");
        assert_eq!(raw.len(), 1);
        let bad = parse_bytes(&[b'"', 0xFF, b'"'], "$", "the body").err();
        assert!(bad.is_some_and(|e| e.code() == ErrorCode::InvalidJson));
    }
}
