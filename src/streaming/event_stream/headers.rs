//! The headers of an event-stream frame: `[name length u8][name][type u8][value]`, one after
//! the other, filling the frame's header section exactly.
//!
//! | type | value |
//! |---|---|
//! | 0, 1 | true, false (no bytes) |
//! | 2 | byte (i8) |
//! | 3 | short (i16 BE) |
//! | 4 | integer (i32 BE) |
//! | 5 | long (i64 BE) |
//! | 6 | bytes (u16 BE length, then the bytes) |
//! | 7 | string (u16 BE length, then UTF-8) |
//! | 8 | timestamp (i64 BE, milliseconds since the epoch) |
//! | 9 | UUID (16 bytes) |

/// One header's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum HeaderValue {
    /// Types 0 (true) and 1 (false).
    Bool(bool),
    /// Type 2.
    Byte(i8),
    /// Type 3.
    Short(i16),
    /// Type 4.
    Int(i32),
    /// Type 5.
    Long(i64),
    /// Type 6.
    Bytes(Vec<u8>),
    /// Type 7.
    String(String),
    /// Type 8: milliseconds since the Unix epoch.
    Timestamp(i64),
    /// Type 9.
    Uuid([u8; 16]),
}

/// A frame's headers, in order (a repeated name is kept twice; readers take the first).
pub(crate) type Headers = Vec<(String, HeaderValue)>;

/// Reads a header section. The error says what is wrong and at which byte of the section.
pub(crate) fn parse(section: &[u8]) -> Result<Headers, String> {
    let mut r = Reader {
        bytes: section,
        at: 0,
    };
    let mut out = Vec::new();
    while r.at < section.len() {
        let start = r.at;
        let name_len = usize::from(r.u8("a header name length")?);
        let name = r.take(name_len, "a header name")?;
        let name = std::str::from_utf8(name)
            .map_err(|_| format!("the header name at byte {start} is not UTF-8"))?
            .to_string();
        let kind = r.u8("a header value type")?;
        let value = r.value(kind, &name)?;
        out.push((name, value));
    }
    Ok(out)
}

/// A cursor over the header section that reports, never panics, when the section is short.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        match end.and_then(|e| self.bytes.get(self.at..e)) {
            Some(s) => {
                self.at += n;
                Ok(s)
            }
            None => Err(format!(
                "the header section ends inside {what} (byte {} of {})",
                self.at,
                self.bytes.len()
            )),
        }
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], String> {
        let s = self.take(N, what)?;
        let mut a = [0u8; N];
        a.copy_from_slice(s);
        Ok(a)
    }

    fn u8(&mut self, what: &str) -> Result<u8, String> {
        Ok(self.array::<1>(what)?[0])
    }

    fn value(&mut self, kind: u8, name: &str) -> Result<HeaderValue, String> {
        let what = format!("the value of header `{name}`");
        Ok(match kind {
            0 => HeaderValue::Bool(true),
            1 => HeaderValue::Bool(false),
            2 => HeaderValue::Byte(i8::from_be_bytes(self.array(&what)?)),
            3 => HeaderValue::Short(i16::from_be_bytes(self.array(&what)?)),
            4 => HeaderValue::Int(i32::from_be_bytes(self.array(&what)?)),
            5 => HeaderValue::Long(i64::from_be_bytes(self.array(&what)?)),
            6 | 7 => {
                let len = usize::from(u16::from_be_bytes(self.array(&what)?));
                let bytes = self.take(len, &what)?;
                if kind == 6 {
                    HeaderValue::Bytes(bytes.to_vec())
                } else {
                    let s = std::str::from_utf8(bytes)
                        .map_err(|_| format!("header `{name}`: its string value is not UTF-8"))?;
                    HeaderValue::String(s.to_string())
                }
            }
            8 => HeaderValue::Timestamp(i64::from_be_bytes(self.array(&what)?)),
            9 => HeaderValue::Uuid(self.array(&what)?),
            other => {
                return Err(format!(
                    "header `{name}` has the unknown value type {other} (known: 0 to 9)"
                ))
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{parse, HeaderValue};

    #[test]
    fn event_stream_header_types_0_to_9_are_read() {
        let mut s = Vec::new();
        let mut put = |name: &str, kind: u8, value: &[u8]| {
            s.push(name.len() as u8);
            s.extend_from_slice(name.as_bytes());
            s.push(kind);
            s.extend_from_slice(value);
        };
        put("t", 0, &[]);
        put("f", 1, &[]);
        put("b", 2, &[0xCF]);
        put("s", 3, &[0, 42]);
        put("i", 4, &[0, 0, 0xA0, 0x0C]);
        put("l", 5, &[0, 0, 0, 0, 2, 0x87, 0x57, 0xB2]);
        put("y", 6, &[0, 2, 0xFF, 0]);
        put(
            ":event-type",
            7,
            &[
                0, 11, b'm', b'e', b's', b's', b'a', b'g', b'e', b'S', b't', b'o', b'p',
            ],
        );
        put("ts", 8, &[0, 0, 0, 0, 0, 0x84, 0x5F, 0xED]);
        put(
            "u",
            9,
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
        );
        let h = parse(&s).unwrap();
        let values: Vec<HeaderValue> = h.into_iter().map(|(_, v)| v).collect();
        assert_eq!(
            values,
            [
                HeaderValue::Bool(true),
                HeaderValue::Bool(false),
                HeaderValue::Byte(-49),
                HeaderValue::Short(42),
                HeaderValue::Int(40972),
                HeaderValue::Long(42_424_242),
                HeaderValue::Bytes(vec![0xFF, 0]),
                HeaderValue::String("messageStop".into()),
                HeaderValue::Timestamp(8_675_309),
                HeaderValue::Uuid([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
            ]
        );
    }

    #[test]
    fn event_stream_unknown_header_type_is_an_error() {
        let e = parse(&[1, b'x', 10, 0]).unwrap_err();
        assert!(e.contains("unknown value type 10"), "{e}");
    }

    #[test]
    fn event_stream_header_cut_short_is_an_error_at_every_length() {
        let whole = [2, b'h', b'i', 7, 0, 3, b'a', b'b', b'c'];
        assert!(parse(&whole).is_ok());
        for n in 1..whole.len() {
            assert!(parse(&whole[..n]).is_err(), "{n}");
        }
    }

    #[test]
    fn event_stream_string_header_that_is_not_utf8_is_an_error() {
        assert!(parse(&[1, b'x', 7, 0, 1, 0xFF]).is_err());
        assert!(parse(&[1, 0xFF, 0]).is_err());
    }
}
