//! The JSON path of a byte offset in JSON text, for errors and repairs found before (or
//! instead of) a parse: `$[3].blocks[0].result` rather than "line 1 column 48211".
//!
//! A small tokenizer that only tracks where it is (container stack, member names, element
//! indexes). It runs only when something was found, but then over the text up to it (a lone
//! surrogate deep in a long history): strings are skipped eight bytes at a time and member names are
//! decoded only for the paths reported. It never fails — on broken text it reports the
//! deepest position it reached.

use std::fmt::Write as _;

/// One step of a path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Seg {
    /// A member of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// Formats `root` followed by `segs` the way [`crate::model::JsonPath`] does
/// (`$[3].blocks[0]["odd key"]`).
pub(crate) fn format(root: &str, segs: &[Seg]) -> String {
    let mut out = String::from(root);
    for s in segs {
        match s {
            Seg::Key(k) => write_path_key(&mut out, k),
            Seg::Index(i) => {
                let _ = write!(out, "[{i}]");
            }
        }
    }
    out
}

/// Where the tokenizer is inside one container.
#[derive(Debug)]
enum Frame {
    Array {
        index: usize,
        in_value: bool,
    },
    /// `key`: the byte range of the current member name's quoted text, decoded only when a
    /// path is reported.
    Object {
        key: Option<(usize, usize)>,
        in_value: bool,
    },
}

fn current(text: &[u8], stack: &[Frame]) -> Vec<Seg> {
    stack
        .iter()
        .filter_map(|f| match f {
            Frame::Array {
                index,
                in_value: true,
            } => Some(Seg::Index(*index)),
            Frame::Object {
                key: Some(k),
                in_value: true,
            } => Some(Seg::Key(key_at(text, *k))),
            _ => None,
        })
        .collect()
}

/// The member name whose quoted text is `text[start..end]`.
fn key_at(text: &[u8], (start, end): (usize, usize)) -> String {
    key_text(text.get(start..end).unwrap_or_default())
}

/// The end of the string starting with the quote at `start` (index after its closing quote,
/// or the text length when it is not closed).
pub(super) fn string_end(text: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    // Jump from one quote or backslash to the next: strings are most of a history's bytes.
    while let Some(k) = super::scan::quote_or_backslash(text, i) {
        i = k;
        match text.get(i) {
            Some(b'"') => return i + 1,
            _ => i += 2,
        }
    }
    text.len()
}

/// A member name from its quoted text; escapes decoded, anything undecodable replaced.
fn key_text(quoted: &[u8]) -> String {
    match serde_json::from_slice::<String>(quoted) {
        Ok(k) => k,
        Err(_) => {
            let inner = quoted
                .get(1..quoted.len().saturating_sub(1))
                .unwrap_or(quoted);
            String::from_utf8_lossy(inner).into_owned()
        }
    }
}

/// The path of the value at each offset (ascending offsets; one path per offset). An offset
/// inside a member name gives the member's path; an offset between tokens gives the path of
/// the container position it is in.
pub(crate) fn paths_at(text: &[u8], offsets: &[usize]) -> Vec<Vec<Seg>> {
    let mut out = Vec::with_capacity(offsets.len());
    let mut next = offsets.iter().copied().peekable();
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if next.peek().is_none() {
            return out;
        }
        let b = text[i];
        // The extent of the token at `i`, and what it does to the stack.
        let end = match b {
            b'"' => string_end(text, i),
            b'{' | b'[' | b'}' | b']' | b',' | b':' => i + 1,
            b' ' | b'\t' | b'\n' | b'\r' => i + 1,
            _ => {
                let mut j = i + 1;
                while j < text.len()
                    && !matches!(
                        text[j],
                        b'"' | b'{'
                            | b'['
                            | b'}'
                            | b']'
                            | b','
                            | b':'
                            | b' '
                            | b'\t'
                            | b'\n'
                            | b'\r'
                    )
                {
                    j += 1;
                }
                j
            }
        };
        let is_key = b == b'"'
            && matches!(
                stack.last(),
                Some(Frame::Object {
                    in_value: false,
                    ..
                })
            );
        if is_key {
            if let Some(Frame::Object { key, .. }) = stack.last_mut() {
                *key = Some((i, end));
            }
        }
        let structural = matches!(b, b'}' | b']' | b',' | b':' | b' ' | b'\t' | b'\n' | b'\r');
        if !is_key && !structural {
            // a value (scalar, string or container) starts here
            mark_value(&mut stack);
        }
        // Report every offset that falls inside this token.
        while let Some(&t) = next.peek() {
            if t >= end {
                break;
            }
            let mut path = current(text, &stack);
            if is_key {
                if let Some(Frame::Object { key: Some(k), .. }) = stack.last() {
                    path.push(Seg::Key(key_at(text, *k)));
                }
            }
            out.push(path);
            next.next();
        }
        match b {
            b'{' => {
                stack.push(Frame::Object {
                    key: None,
                    in_value: false,
                });
            }
            b'[' => {
                stack.push(Frame::Array {
                    index: 0,
                    in_value: false,
                });
            }
            b'}' | b']' => {
                stack.pop();
            }
            b',' => match stack.last_mut() {
                Some(Frame::Array { index, in_value }) => {
                    *index += 1;
                    *in_value = false;
                }
                Some(Frame::Object { key, in_value }) => {
                    *key = None;
                    *in_value = false;
                }
                None => {}
            },
            b':' => {
                if let Some(Frame::Object { in_value, .. }) = stack.last_mut() {
                    *in_value = true;
                }
            }
            _ => {}
        }
        i = end;
    }
    // Offsets at or past the end: the position the text broke off at.
    for _ in next {
        out.push(current(text, &stack));
    }
    out
}

/// A value starts in the innermost array: it is inside element `index`.
fn mark_value(stack: &mut [Frame]) {
    if let Some(Frame::Array { in_value, .. }) = stack.last_mut() {
        *in_value = true;
    }
}

/// The byte offset of a serde_json error position (1-based line, column of the last byte
/// read; column 0 means the error was at a line start).
pub(crate) fn offset_of(text: &[u8], line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match memchr::memchr(b'\n', text.get(start..).unwrap_or_default()) {
            Some(k) => start += k + 1,
            None => break,
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// Appends the path step of member `key`: `.key` for plain names, `["odd key"]` otherwise.
pub(crate) fn write_path_key(out: &mut String, key: &str) {
    let plain = !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    if plain {
        out.push('.');
        out.push_str(key);
    } else {
        out.push('[');
        out.push_str(&serde_json::Value::String(key.to_string()).to_string());
        out.push(']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str, needle: &str) -> String {
        let offset = text.find(needle).unwrap_or(usize::MAX);
        let paths = paths_at(text.as_bytes(), &[offset]);
        format("$", &paths[0])
    }

    #[test]
    fn values_members_and_elements() {
        let t =
            r#"[{"speaker":"human","blocks":[{"type":"text","text":"HERE"}]},{"a":[1,2,[3,"X"]]}]"#;
        assert_eq!(at(t, "HERE"), "$[0].blocks[0].text");
        assert_eq!(at(t, "\"X\""), "$[1].a[2][1]");
        assert_eq!(at(t, "2,"), "$[1].a[1]");
        assert_eq!(at(t, "\"speaker\""), "$[0].speaker");
    }

    #[test]
    fn odd_keys_are_quoted_and_escapes_decoded() {
        let t = r#"{"a b":{"\u00e9":"HERE"}}"#;
        assert_eq!(at(t, "HERE"), r#"$["a b"]["é"]"#);
    }

    #[test]
    fn several_offsets_in_one_pass() {
        let t = r#"{"x":"A","y":["B","C"]}"#;
        let offsets = [t.find('A'), t.find('B'), t.find('C')].map(|o| o.unwrap_or(0));
        let paths: Vec<String> = paths_at(t.as_bytes(), &offsets)
            .iter()
            .map(|p| format("$", p))
            .collect();
        assert_eq!(paths, ["$.x", "$.y[0]", "$.y[1]"]);
    }

    #[test]
    fn broken_text_reports_where_it_stopped() {
        let t = r#"[{"blocks":[{"text":"#;
        assert_eq!(
            format("$", &paths_at(t.as_bytes(), &[t.len()])[0]),
            "$[0].blocks[0].text"
        );
    }

    #[test]
    fn serde_positions_become_offsets() {
        let t = "[\n  1,\n  x]";
        let err = serde_json::from_str::<serde_json::Value>(t).err();
        let (line, column) = err.map(|e| (e.line(), e.column())).unwrap_or_default();
        let offset = offset_of(t.as_bytes(), line, column);
        assert_eq!(&t[offset..offset + 1], "x");
        assert_eq!(format("$", &paths_at(t.as_bytes(), &[offset])[0]), "$[1]");
    }
}
