//! Finding the next byte a JSON string writer must escape: `"`, `\`, a control character, and
//! with `ASCII` any byte of a non-ASCII character ([`super::write`]). The transcript reader
//! (`model::node_text`) finds the end of a string literal with the same scan: in JSON text a
//! string ends at the first of these bytes, or holds an escape there.
//!
//! Request bodies are mostly long strings (tool outputs, file contents, arguments); the scan
//! checks eight bytes per step with integer arithmetic. (WebAssembly SIMD, sixteen bytes per
//! step, was measured no faster in Node 20: runs between escapes are short, so the cost is per
//! escape, not per byte.)

/// The index of the first byte at or after `from` that needs an escape, or `bytes.len()`.
///
/// ```ignore
/// assert_eq!(next::<false>(b"abc\"d", 0), 3);
/// assert_eq!(next::<true>("aé".as_bytes(), 0), 1);
/// assert_eq!(next::<false>(b"abc", 0), 3);
/// ```
#[inline]
pub(crate) fn next<const ASCII: bool>(bytes: &[u8], from: usize) -> usize {
    let mut i = from;
    while let Some(word) = bytes
        .get(i..i + 8)
        .and_then(|w| <[u8; 8]>::try_from(w).ok())
    {
        let word = u64::from_le_bytes(word);
        let mask = escape_mask(word) | if ASCII { word & HIGHS } else { 0 };
        if mask != 0 {
            // the lowest flag is always a byte that needs an escape (see `escape_mask`)
            return i + (mask.trailing_zeros() / 8) as usize;
        }
        i += 8;
    }
    next_by_bytes::<ASCII>(bytes, i)
}

/// Whether the byte `b` needs an escape ([`next`]'s test, one byte at a time).
#[inline]
const fn needs_escape<const ASCII: bool>(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\' || (ASCII && b >= 0x80)
}

/// [`next`], one byte per step (the tail shorter than a word).
fn next_by_bytes<const ASCII: bool>(bytes: &[u8], from: usize) -> usize {
    bytes
        .get(from..)
        .and_then(|rest| rest.iter().position(|&b| needs_escape::<ASCII>(b)))
        .map_or(bytes.len(), |k| from + k)
}

const ONES: u64 = 0x0101_0101_0101_0101;
const HIGHS: u64 = 0x8080_8080_8080_8080;

/// The high bit of each of the eight bytes of `x` (little-endian) that may need an escape:
/// below 0x20, a quote or a backslash (the classic "has a byte less than n" and "has a zero
/// byte" tests). No byte that needs one is missed, and the lowest bit set is always a byte that
/// needs one (a false flag can only sit above a true one).
#[inline]
const fn escape_mask(x: u64) -> u64 {
    let control = x.wrapping_sub(ONES * 0x20) & !x;
    let q = x ^ (ONES * b'"' as u64);
    let quote = q.wrapping_sub(ONES) & !q;
    let b = x ^ (ONES * b'\\' as u64);
    let backslash = b.wrapping_sub(ONES) & !b;
    (control | quote | backslash) & HIGHS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_mask_misses_nothing_and_its_lowest_bit_is_a_true_one() {
        let needs = |b: u8| b < 0x20 || b == b'"' || b == b'\\';
        let samples = [
            b'a', 0, 0x1F, 0x20, b'"', b'\\', 0x7F, 0x80, 0xFF, b'!', b'#', b']',
        ];
        for &x in &samples {
            for &y in &samples {
                for at in 0..8 {
                    for at2 in 0..8 {
                        let mut w = [b'a'; 8];
                        w[at] = x;
                        w[at2] = y;
                        let mask = escape_mask(u64::from_le_bytes(w));
                        for (k, &b) in w.iter().enumerate() {
                            if needs(b) {
                                assert_ne!(mask & (0x80 << (8 * k)), 0, "{w:?}");
                            }
                        }
                        if mask != 0 {
                            assert!(needs(w[(mask.trailing_zeros() / 8) as usize]), "{w:?}");
                        }
                    }
                }
            }
        }
    }

    /// Every byte value at every offset of texts up to forty bytes long, from every start.
    #[test]
    fn next_finds_the_first_byte_that_needs_an_escape() {
        fn check<const ASCII: bool>(text: &[u8]) {
            for from in 0..=text.len() {
                let want = next_by_bytes::<ASCII>(text, from);
                assert_eq!(next::<ASCII>(text, from), want, "{text:?} from {from}");
            }
        }
        for b in 0u8..=0xFF {
            for len in [1, 7, 8, 9, 15, 16, 17, 31, 33, 40] {
                for at in 0..len {
                    let mut text = vec![b'a'; len];
                    text[at] = b;
                    check::<false>(&text);
                    check::<true>(&text);
                }
            }
        }
        check::<false>(b"");
        assert_eq!(next::<true>("aé".as_bytes(), 0), 1);
        assert_eq!(next::<false>("aé\"".as_bytes(), 0), 3);
    }
}
