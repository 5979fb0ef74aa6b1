//! The IEEE CRC32 (the gzip / zlib one: reflected polynomial 0xEDB88320, initial and final
//! value all ones) that guards each event-stream frame, from a table built at compile time.

/// The 256 remainders of one byte, built by the compiler.
const TABLE: [u32; 256] = table();

const fn table() -> [u32; 256] {
    let mut t = [0u32; 256];
    let mut i = 0;
    while i < 256 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
            k += 1;
        }
        t[i] = c;
        i += 1;
    }
    t
}

/// The CRC32 of `bytes`.
///
/// ```ignore
/// assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
/// ```
pub(crate) fn crc32(bytes: &[u8]) -> u32 {
    let mut c = u32::MAX;
    for &b in bytes {
        // the index is masked to 0..=255: it cannot leave the table
        c = TABLE[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8);
    }
    !c
}

#[cfg(test)]
mod tests {
    use super::crc32;

    #[test]
    fn crc32_of_the_check_string_is_the_ieee_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
    }

    #[test]
    fn crc32_of_nothing_is_zero_and_of_one_byte_is_its_table_entry() {
        assert_eq!(crc32(b""), 0);
        // zlib: crc32(0, "a", 1)
        assert_eq!(crc32(b"a"), 0xE8B7_BE43);
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }
}
