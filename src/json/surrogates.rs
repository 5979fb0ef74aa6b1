//! Unpaired UTF-16 surrogates in JSON text.
//!
//! JavaScript strings are UTF-16 and can hold half of a surrogate pair on its own: an agent cut
//! a tool output with `slice` in the middle of an emoji. `JSON.stringify` writes such a unit as
//! an escape (`"\ud83d"`): valid JSON text, but no Unicode scalar value, so serde_json refuses
//! it and providers answer 400 ("no low surrogate in string"). Bytes can carry one too, in the
//! generalised UTF-8 form (WTF-8: `ED A0..BF 80..BF`), which is not UTF-8 at all.
//!
//! These scanners find them without parsing: the clean path costs one pass over the
//! backslashes (escapes) or over the `0xED` bytes (raw form).

/// One unpaired surrogate found in a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LoneSurrogate {
    /// Byte offset of its escape (`\uD83D`) or of its first raw byte.
    pub offset: usize,
    /// Length in bytes: 6 for an escape, 3 for the raw form.
    pub len: usize,
    /// The UTF-16 code unit, `0xD800..=0xDFFF`.
    pub unit: u16,
}

impl LoneSurrogate {
    fn escape(offset: usize, unit: u16) -> Self {
        LoneSurrogate {
            offset,
            len: 6,
            unit,
        }
    }
}

/// Reads four hex digits.
fn hex4(digits: &[u8]) -> Option<u16> {
    if digits.len() != 4 {
        return None;
    }
    let mut unit: u16 = 0;
    for &d in digits {
        let v = match d {
            b'0'..=b'9' => d - b'0',
            b'a'..=b'f' => d - b'a' + 10,
            b'A'..=b'F' => d - b'A' + 10,
            _ => return None,
        };
        unit = (unit << 4) | u16::from(v);
    }
    Some(unit)
}

/// The unit of a `\uXXXX` escape starting at `at`, when there is one.
fn escape_at(text: &[u8], at: usize) -> Option<u16> {
    if text.get(at) != Some(&b'\\') || text.get(at + 1) != Some(&b'u') {
        return None;
    }
    text.get(at + 2..at + 6).and_then(hex4)
}

/// Whether the backslash at `at` starts an escape: it does when the run of backslashes that
/// ends with it is odd (`\\u` is an escaped backslash followed by a plain `u`).
fn starts_escape(text: &[u8], at: usize) -> bool {
    let run = text.get(..=at).map_or(0, |head| {
        head.iter().rev().take_while(|&&b| b == b'\\').count()
    });
    run % 2 == 1
}

/// Every `\uXXXX` escape of an unpaired surrogate, in text order: a high surrogate not
/// followed by a low one, or a low surrogate not preceded by a high one. Escaped backslashes
/// (`\\u…`) are skipped, so only real escapes count. Meant for JSON text, where a backslash
/// outside a string is a syntax error anyway.
///
/// The scan looks for `\u` only: agent histories hold hundreds of thousands of `\n` and `\"`
/// escapes but very few `\u` ones (`JSON.stringify` writes those only for control characters and
/// lone surrogates), so the clean path is one pass of [`super::scan::each_backslash_u`].
///
/// ```ignore
/// let found = escaped(br#"["\ud83d\ude00", "cut \ud83d", "\\ud83d"]"#);
/// assert_eq!(found.len(), 1);
/// ```
pub(crate) fn escaped(text: &[u8]) -> Vec<LoneSurrogate> {
    let mut out = Vec::new();
    // The low half of a pair just seen: its own `\u` match is not a new escape.
    let mut paired_low = None;
    super::scan::each_backslash_u(text, |at| {
        if paired_low == Some(at) || !starts_escape(text, at) {
            return;
        }
        let Some(unit) = escape_at(text, at) else {
            return;
        };
        match unit {
            0xD800..=0xDBFF => {
                if matches!(escape_at(text, at + 6), Some(0xDC00..=0xDFFF)) {
                    paired_low = Some(at + 6);
                } else {
                    out.push(LoneSurrogate::escape(at, unit));
                }
            }
            0xDC00..=0xDFFF => out.push(LoneSurrogate::escape(at, unit)),
            _ => {}
        }
    });
    out
}

/// Every surrogate encoded directly in the bytes (`ED A0..BF 80..BF`), in order. UTF-8 has no
/// such sequence, so each one is reported, paired or not.
pub(crate) fn raw(bytes: &[u8]) -> Vec<LoneSurrogate> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(found) = bytes.get(pos..).and_then(|rest| memchr::memchr(0xED, rest)) {
        let at = pos + found;
        pos = at + 1;
        if let (Some(&b1), Some(&b2)) = (bytes.get(at + 1), bytes.get(at + 2)) {
            if (0xA0..=0xBF).contains(&b1) && (0x80..=0xBF).contains(&b2) {
                let unit = 0xD000 | (u16::from(b1 & 0x3F) << 6) | u16::from(b2 & 0x3F);
                out.push(LoneSurrogate {
                    offset: at,
                    len: 3,
                    unit,
                });
                pos = at + 3;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn units(text: &str) -> Vec<u16> {
        escaped(text.as_bytes()).iter().map(|s| s.unit).collect()
    }

    #[test]
    fn pairs_and_plain_escapes_are_not_reported() {
        assert!(units(r#"["\ud83d\ude00", "\uD83D\uDE00", "é\u00e9", "\n\"\\"]"#).is_empty());
        assert!(units("[\"😀 U+10FFFF: \u{10FFFF}\"]").is_empty());
    }

    #[test]
    fn lone_high_low_and_reversed_pairs_are_reported() {
        assert_eq!(units(r#"["cut \ud83d"]"#), [0xD83D]);
        assert_eq!(units(r#"["\ude00 tail"]"#), [0xDE00]);
        // low then high: both unpaired
        assert_eq!(units(r#"["\ude00\ud83d"]"#), [0xDE00, 0xD83D]);
        // high, high, low: the first is alone, the second pairs
        assert_eq!(units(r#"["\ud83d\ud83d\ude00"]"#), [0xD83D]);
        // at the very end of the text
        assert_eq!(units(r#"\ud800"#), [0xD800]);
    }

    #[test]
    fn escaped_backslashes_do_not_start_an_escape() {
        assert!(units(r#"["\\ud83d", "\\\\ud83d"]"#).is_empty());
        assert_eq!(units(r#"["\\\ud83d"]"#), [0xD83D]);
    }

    #[test]
    fn offsets_point_at_the_escape() {
        let text = r#"{"a":"x\udc00"}"#;
        let found = escaped(text.as_bytes());
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].offset..found[0].offset + 6], r"\udc00");
    }

    #[test]
    fn raw_surrogate_bytes_are_found() {
        let mut bytes = b"[\"a".to_vec();
        bytes.extend_from_slice(&[0xED, 0xA0, 0xBD]); // U+D83D in WTF-8
        bytes.extend_from_slice("\u{D7FF}\u{E000}\"]".as_bytes()); // ED 9F BF is valid UTF-8
        let found = raw(&bytes);
        assert_eq!(found.len(), 1);
        assert_eq!((found[0].offset, found[0].unit), (3, 0xD83D));
    }
}
