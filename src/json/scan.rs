//! Byte searches over JSON text, eight bytes at a time in plain integer arithmetic (SWAR).
//!
//! WebAssembly builds have no vector instructions to lean on, and the texts these run over
//! hold a backslash or a quote every few dozen bytes (`\n` and `\"` escapes, short strings):
//! a general searcher (`memchr`, `memmem`) pays its set-up on every one of those hits, where
//! these loops just move to the next bit of a mask. Measured in Node on a 6.8 MB agent
//! history: see `docs/research/issue-12-next-steps.md`.

const ONES: u64 = 0x0101_0101_0101_0101;
const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each of the eight bytes of `x` (little-endian) equal to `b`, and no other
/// bit: exact, so several hits in one word can be read one after another.
#[inline]
const fn eq_mask(x: u64, b: u8) -> u64 {
    let t = x ^ (ONES * b as u64);
    !(((t & LOW7).wrapping_add(LOW7)) | t) & HIGHS
}

/// The word of eight bytes at `at`, when there are eight.
#[inline]
fn word_at(text: &[u8], at: usize) -> Option<u64> {
    text.get(at..at + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
        .map(u64::from_le_bytes)
}

/// The index of the first `"` or `\` at or after `from`.
///
/// ```ignore
/// assert_eq!(quote_or_backslash(br#"abc\"d""#, 0), Some(3));
/// ```
pub(crate) fn quote_or_backslash(text: &[u8], from: usize) -> Option<usize> {
    let mut i = from;
    while let Some(x) = word_at(text, i) {
        let mask = eq_mask(x, b'"') | eq_mask(x, b'\\');
        if mask != 0 {
            return Some(i + (mask.trailing_zeros() / 8) as usize);
        }
        i += 8;
    }
    let tail = text.get(i..)?;
    tail.iter()
        .position(|&b| b == b'"' || b == b'\\')
        .map(|k| i + k)
}

/// Whether `text` holds U+FFFD (the bytes `EF BF BD`): what a UTF-16 string's unpaired
/// surrogates become in UTF-8, so a text without one came from a well-formed string.
///
/// ```ignore
/// assert!(has_replacement_char("a\u{FFFD}b".as_bytes()));
/// assert!(!has_replacement_char("a\u{FFFC}b".as_bytes()));
/// ```
#[cfg_attr(not(feature = "wasm-bind"), allow(dead_code))]
pub(crate) fn has_replacement_char(text: &[u8]) -> bool {
    let at = |k: usize| text.get(k..k + 3) == Some(&[0xEF, 0xBF, 0xBD][..]);
    let mut i = 0;
    while let Some(x) = word_at(text, i) {
        let mut hits = eq_mask(x, 0xEF);
        while hits != 0 {
            if at(i + (hits.trailing_zeros() / 8) as usize) {
                return true;
            }
            hits &= hits - 1;
        }
        i += 8;
    }
    (i..text.len()).any(at)
}

/// Calls `found` with the index of every backslash followed by a `u`, in order (escaped
/// backslashes included: the caller tells a real escape by the run of backslashes before it).
///
/// ```ignore
/// let mut at = Vec::new();
/// each_backslash_u(br#"a\u0041\\ub\n"#, |i| at.push(i));
/// assert_eq!(at, [1, 8]);
/// ```
pub(crate) fn each_backslash_u(text: &[u8], mut found: impl FnMut(usize)) {
    let mut i = 0;
    // whether the byte before the current word is a backslash
    let mut carried = false;
    while let Some(x) = word_at(text, i) {
        let backslashes = eq_mask(x, b'\\');
        // a `u` whose previous byte is a backslash: this word's backslashes moved up one byte,
        // and the previous word's last byte for the first one
        let mut hits = ((backslashes << 8) | if carried { 0x80 } else { 0 }) & eq_mask(x, b'u');
        while hits != 0 {
            let k = (hits.trailing_zeros() / 8) as usize;
            found(i + k - 1);
            hits &= hits - 1;
        }
        carried = backslashes >> 63 != 0;
        i += 8;
    }
    for j in i.max(1)..text.len() {
        if text.get(j) == Some(&b'u') && text.get(j - 1) == Some(&b'\\') {
            found(j - 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_backslash_u(text: &[u8]) -> Vec<usize> {
        (1..text.len())
            .filter(|&j| text[j] == b'u' && text[j - 1] == b'\\')
            .map(|j| j - 1)
            .collect()
    }

    fn naive_quote_or_backslash(text: &[u8], from: usize) -> Option<usize> {
        (from..text.len()).find(|&j| text[j] == b'"' || text[j] == b'\\')
    }

    #[test]
    fn masks_are_exact_for_every_byte() {
        for b in 0..=255u8 {
            for other in [
                0u8,
                0x7F,
                0x80,
                0xFF,
                b'"',
                b'\\',
                b'u',
                b ^ 1,
                b.wrapping_add(0x80),
            ] {
                let x = u64::from_le_bytes([other, b, other, b, b, other, other, b]);
                let want = (0..8).fold(0u64, |m, k| {
                    if x.to_le_bytes()[k] == b {
                        m | (0x80 << (8 * k))
                    } else {
                        m
                    }
                });
                assert_eq!(eq_mask(x, b), want, "byte {b:#x} among {other:#x}");
            }
        }
    }

    #[test]
    fn searches_agree_with_a_byte_by_byte_loop_at_every_alignment() {
        let pieces: [&[u8]; 8] = [
            b"\\",
            b"u",
            b"\"",
            b"a",
            b"\\u",
            b"\\\\u",
            b"\xc3\xa9",
            b"x\\ny",
        ];
        // every sequence of up to five pieces, each text long enough to cross word borders
        let mut texts: Vec<Vec<u8>> = vec![Vec::new()];
        for _ in 0..4 {
            let mut longer = Vec::new();
            for t in &texts {
                for p in pieces {
                    let mut n = t.clone();
                    n.extend_from_slice(p);
                    longer.push(n);
                }
            }
            texts.extend(longer);
        }
        assert!(texts.len() > 6000, "{} texts", texts.len());
        for t in &texts {
            for pad in 0..9 {
                let mut text = vec![b'.'; pad];
                text.extend_from_slice(t);
                text.extend_from_slice(&text.clone());
                let mut got = Vec::new();
                each_backslash_u(&text, |i| got.push(i));
                assert_eq!(
                    got,
                    naive_backslash_u(&text),
                    "{:?}",
                    String::from_utf8_lossy(&text)
                );
                for from in 0..text.len() {
                    assert_eq!(
                        quote_or_backslash(&text, from),
                        naive_quote_or_backslash(&text, from)
                    );
                }
            }
        }
    }

    #[test]
    fn a_replacement_char_is_found_at_every_offset_and_nothing_else_is() {
        let near_misses: [&[u8]; 5] = [
            b"\xEF\xBF\xBC",
            b"\xEF\xBE\xBD",
            b"\xEE\xBF\xBD",
            b"\xEF",
            b"\xEF\xBF",
        ];
        for pad in 0..20 {
            for tail in 0..4 {
                let mut text = vec![b'a'; pad];
                text.extend_from_slice("\u{FFFD}".as_bytes());
                text.extend(std::iter::repeat_n(b'z', tail));
                assert!(has_replacement_char(&text), "pad {pad} tail {tail}");
                for miss in near_misses {
                    let mut text = vec![b'a'; pad];
                    text.extend_from_slice(miss);
                    text.extend(std::iter::repeat_n(b'z', tail));
                    assert!(
                        !has_replacement_char(&text),
                        "{miss:?} pad {pad} tail {tail}"
                    );
                }
            }
        }
        assert!(!has_replacement_char(b""));
        assert!(!has_replacement_char("\u{FFFC}\u{FFFE}\u{EFBF}".as_bytes()));
    }
}
