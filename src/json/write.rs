//! JSON text out: compact JSON, byte for byte what `serde_json::to_vec` writes, but faster on
//! what request bodies are made of (long strings: tool outputs, file contents). Strings are
//! scanned for the bytes that need an escape (`"`, `\` and controls: [`super::escape_scan`]) and
//! copied in runs.
//!
//! The `_ascii` variants write every non-ASCII character as a `\u` escape instead (the same
//! JSON value): text handed to the host's `JSON.parse`. A JavaScript host decodes pure ASCII
//! from wasm memory about four times as fast as UTF-8 with any non-ASCII character in it (Node
//! 20, 4.8 MB body: 2.1 against 8.1 ms), and parses it no slower.

use serde_json::Value;
use std::borrow::Cow;

use super::escape_scan;

/// Appends `v` as compact JSON to `out`, exactly as `serde_json::to_writer` would.
///
/// ```ignore
/// let mut out = Vec::new();
/// write_value(&mut out, &serde_json::json!({"a": ["x\"y", 1, null]}));
/// assert_eq!(out, br#"{"a":["x\"y",1,null]}"#);
/// ```
pub(crate) fn write_value(out: &mut Vec<u8>, v: &Value) {
    write_value_in::<false>(out, v);
}

/// [`write_value`] with every non-ASCII character written as a `\u` escape (a surrogate pair
/// above U+FFFF): the same JSON value, in pure ASCII.
///
/// ```ignore
/// let mut out = Vec::new();
/// write_value_ascii(&mut out, &serde_json::json!({"é": "😀"}));
/// assert_eq!(out, br#"{"\u00e9":"\ud83d\ude00"}"#);
/// ```
#[cfg_attr(not(feature = "wasm-bind"), allow(dead_code))]
pub(crate) fn write_value_ascii(out: &mut Vec<u8>, v: &Value) {
    write_value_in::<true>(out, v);
}

pub(crate) fn write_value_in<const ASCII: bool>(out: &mut Vec<u8>, v: &Value) {
    match v {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        // Numbers keep the digits they were read with (arbitrary_precision), which is what
        // serde_json writes for them.
        Value::Number(n) => out.extend_from_slice(n.as_str().as_bytes()),
        Value::String(s) => write_str_in::<ASCII>(out, s),
        Value::Array(items) => {
            out.push(b'[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_value_in::<ASCII>(out, item);
            }
            out.push(b']');
        }
        Value::Object(members) => {
            out.push(b'{');
            for (i, (key, item)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_str_in::<ASCII>(out, key);
                out.push(b':');
                write_value_in::<ASCII>(out, item);
            }
            out.push(b'}');
        }
    }
}

/// The length in bytes of what [`write_value`] writes for `v` (to size a buffer exactly).
///
/// ```ignore
/// assert_eq!(written_len(&serde_json::json!({"a": "x\n"})), br#"{"a":"x\n"}"#.len());
/// ```
#[cfg(test)]
pub(crate) fn written_len(v: &Value) -> usize {
    written_len_in::<false>(v)
}

/// The length in bytes of what [`write_value_ascii`] writes for `v`.
#[cfg_attr(not(feature = "wasm-stream"), allow(dead_code))]
pub(crate) fn written_len_ascii(v: &Value) -> usize {
    written_len_in::<true>(v)
}

fn written_len_in<const ASCII: bool>(v: &Value) -> usize {
    let byte_len = |b: u8| match b {
        0x80.. if ASCII => ascii_escape_len(b),
        _ => escape(b).map_or(1, <[u8]>::len),
    };
    let str_len = |s: &str| 2 + s.bytes().map(byte_len).sum::<usize>();
    match v {
        Value::Null => 4,
        Value::Bool(true) => 4,
        Value::Bool(false) => 5,
        Value::Number(n) => n.as_str().len(),
        Value::String(s) => str_len(s),
        Value::Array(items) => {
            1 + items.len().max(1) + items.iter().map(written_len_in::<ASCII>).sum::<usize>()
        }
        Value::Object(members) => {
            1 + members.len().max(1)
                + members
                    .iter()
                    .map(|(k, item)| str_len(k) + 1 + written_len_in::<ASCII>(item))
                    .sum::<usize>()
        }
    }
}

/// `v` as compact JSON text: what `Value::to_string` gives, written by [`write_value`]
/// (tool-call arguments, which Chat Completions and Responses take as a string).
///
/// ```ignore
/// assert_eq!(to_string(&serde_json::json!({"path": "a\"b"})), r#"{"path":"a\"b"}"#);
/// ```
pub(crate) fn to_string(v: &Value) -> String {
    match String::from_utf8(to_vec(v)) {
        Ok(text) => text,
        // not reached: escapes are ASCII and every other byte is copied from a `str`
        Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
    }
}

/// `v` as compact JSON bytes ([`write_value`]).
pub(crate) fn to_vec(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    write_value(&mut out, v);
    out
}

/// The escape serde_json writes for `b`, if it needs one.
fn escape(b: u8) -> Option<&'static [u8]> {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    const CONTROLS: [[u8; 6]; 32] = {
        let mut t = [[0u8; 6]; 32];
        let mut i = 0;
        while i < 32 {
            t[i] = [b'\\', b'u', b'0', b'0', HEX[i >> 4], HEX[i & 0xF]];
            i += 1;
        }
        t
    };
    Some(match b {
        b'"' => b"\\\"",
        b'\\' => b"\\\\",
        0x08 => b"\\b",
        0x0C => b"\\f",
        b'\n' => b"\\n",
        b'\r' => b"\\r",
        b'\t' => b"\\t",
        0..=0x1F => &CONTROLS[b as usize],
        _ => return None,
    })
}

/// Appends `s` as a JSON string.
pub(crate) fn write_str(out: &mut Vec<u8>, s: &str) {
    write_str_in::<false>(out, s);
}

pub(crate) fn write_str_in<const ASCII: bool>(out: &mut Vec<u8>, s: &str) {
    let bytes = s.as_bytes();
    out.reserve(bytes.len() + 2);
    out.push(b'"');
    let mut run = 0; // start of the bytes not written yet
    let mut i = escape_scan::next::<ASCII>(bytes, 0);
    while let Some(&b) = bytes.get(i) {
        out.extend_from_slice(bytes.get(run..i).unwrap_or_default());
        if ASCII && b >= 0x80 {
            // every byte before it was ASCII or part of a character already escaped, so `i` is
            // where a character starts
            let c = s.get(i..).and_then(|rest| rest.chars().next());
            let width = c.map_or(1, char::len_utf8);
            match c {
                Some(c) => push_unicode_escape(out, c),
                // not reached: `i` starts a character
                None => out.push(b),
            }
            i += width;
        } else {
            match escape(b) {
                Some(esc) => out.extend_from_slice(esc),
                // not reached: the scan stops only at bytes that need an escape
                None => out.push(b),
            }
            i += 1;
        }
        run = i;
        i = escape_scan::next::<ASCII>(bytes, i);
    }
    out.extend_from_slice(bytes.get(run..).unwrap_or_default());
    out.push(b'"');
}

/// How many bytes of `\u` escapes the UTF-8 byte `b` (0x80 and up) stands for when written by
/// the `_ascii` writers: a character's first byte counts its escapes, the bytes after it none.
fn ascii_escape_len(b: u8) -> usize {
    match b {
        0x80..=0xBF => 0,
        0xF0.. => 12,
        _ => 6,
    }
}

/// `c` as `\uXXXX` (two of them, a surrogate pair, above U+FFFF).
fn push_unicode_escape(out: &mut Vec<u8>, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut units = [0u16; 2];
    for &unit in c.encode_utf16(&mut units).iter() {
        let nibble = |shift: u16| HEX[usize::from((unit >> shift) & 0xF)];
        out.extend_from_slice(&[b'\\', b'u', nibble(12), nibble(8), nibble(4), nibble(0)]);
    }
}

/// JSON text with every non-ASCII character written as a `\u` escape: the same JSON value in
/// pure ASCII (for the host's `JSON.parse`, see the module). Text already ASCII is returned as
/// it is. Outside string literals JSON text is ASCII, so only strings change.
///
/// ```ignore
/// assert_eq!(ascii_escaped(r#"{"a":"é"}"#), r#"{"a":"\u00e9"}"#);
/// ```
#[cfg_attr(not(feature = "wasm-bind"), allow(dead_code))]
pub(crate) fn ascii_escaped(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    let mut run = 0;
    for (i, c) in text.char_indices() {
        if !c.is_ascii() {
            out.extend_from_slice(text.as_bytes().get(run..i).unwrap_or_default());
            push_unicode_escape(&mut out, c);
            run = i + c.len_utf8();
        }
    }
    out.extend_from_slice(text.as_bytes().get(run..).unwrap_or_default());
    match String::from_utf8(out) {
        Ok(text) => Cow::Owned(text),
        // not reached: every byte written is ASCII
        Err(e) => Cow::Owned(String::from_utf8_lossy(e.as_bytes()).into_owned()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn same(v: &Value) {
        let written = to_vec(v);
        assert_eq!(
            String::from_utf8(written.clone()).unwrap(),
            serde_json::to_string(v).unwrap()
        );
        assert_eq!(written_len(v), written.len(), "{v}");
        assert_eq!(to_string(v), v.to_string());
    }

    #[test]
    fn every_byte_escapes_as_serde_json_escapes_it_at_every_offset() {
        for b in 0u8..=0x7F {
            for pad in 0..17 {
                let s = format!("{}{}{}", "a".repeat(pad), b as char, "é😀z".repeat(pad % 3));
                same(&Value::String(s));
            }
        }
        same(&Value::String("\u{7f}\u{2028}\u{FFFD}".into()));
    }

    /// The `_ascii` writers: pure ASCII, the same JSON value, lengths exact.
    fn same_in_ascii(v: &Value) {
        let mut written = Vec::new();
        write_value_ascii(&mut written, v);
        assert!(written.is_ascii(), "{v}");
        assert_eq!(written_len_ascii(v), written.len(), "{v}");
        let back: Value = serde_json::from_slice(&written).unwrap();
        assert_eq!(&back, v);
        let plain = serde_json::to_string(v).unwrap();
        assert_eq!(ascii_escaped(&plain).as_bytes(), &written[..], "{v}");
    }

    #[test]
    fn ascii_writers_escape_every_non_ascii_character_and_keep_the_value() {
        for pad in 0..17 {
            let a = "a".repeat(pad);
            for s in [
                "é",
                "😀",
                "漢字",
                "\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}\u{10ffff}",
                "\"\n\u{1}é",
            ] {
                same_in_ascii(&Value::String(format!("{a}{s}{a}{s}")));
            }
        }
        same_in_ascii(&json!({"ké": ["😀x", 1.5, null, {"漢": "\u{2028}"}], "plain": "abc"}));
        let mut out = Vec::new();
        write_value_ascii(&mut out, &json!({"é": "😀"}));
        assert_eq!(out, br#"{"\u00e9":"\ud83d\ude00"}"#);
        assert!(matches!(ascii_escaped("{\"a\":1}"), Cow::Borrowed(_)));
    }

    #[test]
    fn values_write_as_serde_json_writes_them() {
        let v: Value = serde_json::from_str(
            r#"{"a":[1,1.0,-0,1e400,123456789012345678901234567890,true,false,null],
               "k\"ey\n":{"":[],"x":{}},"long":"0123456789abcdef0123456789\"abcdef\\"}"#,
        )
        .unwrap();
        same(&v);
        same(&json!([]));
        same(&json!({}));
        same(&json!("\u{0}\u{1f}\u{20}"));
    }
}
