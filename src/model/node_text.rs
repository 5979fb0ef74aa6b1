//! The history shape read from JSON text by a parser of its own, for the common case: a
//! well-formed document with no unpaired surrogate escape, nested at most 128 levels, no
//! member named as serde_json's private number token. It builds a [`Node`] whose `Value` is
//! exactly what serde_json parses from the text, without serde's visitor calls or a `Value`
//! tree for the messages and blocks, and scans strings eight bytes per step (serde_json scans
//! four in WebAssembly, where `usize` is 32 bits). Anything else makes it give up, and serde_json
//! parses the text (and reports the error); text it gave up on at an unpaired surrogate is
//! repaired (`json::parse_with_own`) and read again.

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

use super::node::{Members, Node};
use crate::json::{escape_scan, OwnRead};

/// The name serde_json gives a number read as a map when `arbitrary_precision` is on: a member
/// so named takes serde_json's path.
const NUMBER_TOKEN: &str = "$serde_json::private::Number";

/// serde_json's default nesting limit: deeper text takes its path (which reads up to
/// `json::MAX_DEPTH`).
const MAX_NESTING: usize = 128;

/// Reads a whole transcript document, or says why serde_json's path must read it (see the
/// module doc).
///
/// ```ignore
/// assert!(matches!(read_transcript(r#"[{"speaker":"human","blocks":[]}]"#), OwnRead::Read(_)));
/// assert!(matches!(read_transcript(r#"[{"a":"\ud800"}]"#), OwnRead::LoneSurrogate));
/// assert!(matches!(read_transcript("[1,]"), OwnRead::GaveUp));
/// ```
pub(crate) fn read_transcript(text: &str) -> OwnRead<Node<'_>> {
    let mut r = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
        lone_surrogate: false,
        scratch: String::new(),
    };
    match r.node(Shape::Transcript) {
        Some(node) => {
            r.skip_space();
            if r.at == r.bytes.len() {
                OwnRead::Read(node)
            } else {
                OwnRead::GaveUp
            }
        }
        None if r.lone_surrogate => OwnRead::LoneSurrogate,
        None => OwnRead::GaveUp,
    }
}

/// What the history shape expects at a place in the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    /// The document: a message list or the wrapper object.
    Transcript,
    /// A list of messages.
    Messages,
    /// A message.
    Message,
    /// A message's blocks.
    Blocks,
    /// A block.
    Block,
    /// An object of plain members (metadata, provenance).
    Flat,
    /// No structure: read as a `Value`.
    Any,
}

impl Shape {
    /// What the items of an array at this place are.
    fn item(self) -> Shape {
        match self {
            Shape::Transcript | Shape::Messages => Shape::Message,
            Shape::Blocks => Shape::Block,
            _ => Shape::Any,
        }
    }

    /// What the member `key` of an object at this place is.
    fn member(self, key: &str) -> Shape {
        match (self, key) {
            (Shape::Transcript, "messages") => Shape::Messages,
            (Shape::Message, "blocks") => Shape::Blocks,
            (Shape::Message, "metadata") | (Shape::Block, "provenance") => Shape::Flat,
            _ => Shape::Any,
        }
    }
}

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    depth: usize,
    /// Whether it stopped at an unpaired surrogate escape.
    lone_surrogate: bool,
    /// Where escaped strings are unescaped.
    scratch: String,
}

impl<'a> Reader<'a> {
    fn skip_space(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace (not consumed).
    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.bytes.get(self.at).copied()
    }

    /// Consumes `b` after whitespace.
    fn eat(&mut self, b: u8) -> Option<()> {
        (self.peek()? == b).then(|| self.at += 1)
    }

    /// Consumes the literal `word` (`true`, `false`, `null`).
    fn word(&mut self, word: &str) -> Option<()> {
        let end = self.at + word.len();
        (self.bytes.get(self.at..end)? == word.as_bytes()).then(|| self.at = end)
    }

    /// A value where the history shape expects `shape`.
    fn node(&mut self, shape: Shape) -> Option<Node<'a>> {
        if shape == Shape::Any {
            return self.value().map(Node::Value);
        }
        match self.peek()? {
            b'{' => self.nested(|r| r.members(shape).map(Node::Object)),
            b'[' => self.nested(|r| {
                let item = shape.item();
                r.items(|r| r.node(item)).map(Node::Array)
            }),
            _ => self.value().map(Node::Value),
        }
    }

    /// A JSON value as a `serde_json::Value`.
    fn value(&mut self) -> Option<Value> {
        match self.peek()? {
            b'{' => self.nested(|r| {
                let mut map = Map::new();
                r.object(|r, key| {
                    let v = r.value()?;
                    map.insert(key.into_owned(), v);
                    Some(())
                })?;
                Some(Value::Object(map))
            }),
            b'[' => self.nested(|r| r.items(Reader::value).map(Value::Array)),
            b'"' => self.string().map(|s| Value::String(s.into_owned())),
            b't' => self.word("true").map(|()| Value::Bool(true)),
            b'f' => self.word("false").map(|()| Value::Bool(false)),
            b'n' => self.word("null").map(|()| Value::Null),
            _ => self.number().map(Value::Number),
        }
    }

    /// Runs `read` one nesting level deeper (giving up past serde_json's limit).
    fn nested<T>(&mut self, read: impl FnOnce(&mut Self) -> Option<T>) -> Option<T> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return None;
        }
        let out = read(self);
        self.depth -= 1;
        out
    }

    /// An object's members, each read as the shape gives it; a repeated name keeps its first
    /// place and its last value.
    fn members(&mut self, shape: Shape) -> Option<Members<'a>> {
        let mut members: Members<'a> = Vec::new();
        self.object(|r, key| {
            let node = r.node(shape.member(&key))?;
            match members.iter_mut().find(|(k, _)| *k == key) {
                Some((_, slot)) => *slot = node,
                None => members.push((key, node)),
            }
            Some(())
        })?;
        Some(members)
    }

    /// An object: `{`, then `member(name)` for each member (which reads its value).
    fn object(
        &mut self,
        mut member: impl FnMut(&mut Self, Cow<'a, str>) -> Option<()>,
    ) -> Option<()> {
        self.eat(b'{')?;
        if self.eat(b'}').is_some() {
            return Some(());
        }
        loop {
            if self.peek()? != b'"' {
                return None;
            }
            let key = self.string()?;
            // serde_json reads a number through a map with this one member
            if key == NUMBER_TOKEN {
                return None;
            }
            self.eat(b':')?;
            member(self, key)?;
            match self.peek()? {
                b',' => self.at += 1,
                b'}' => {
                    self.at += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// An array's items, each read by `item`.
    fn items<T>(&mut self, mut item: impl FnMut(&mut Self) -> Option<T>) -> Option<Vec<T>> {
        self.eat(b'[')?;
        let mut items = Vec::new();
        if self.eat(b']').is_some() {
            return Some(items);
        }
        loop {
            items.push(item(self)?);
            match self.peek()? {
                b',' => self.at += 1,
                b']' => {
                    self.at += 1;
                    return Some(items);
                }
                _ => return None,
            }
        }
    }

    /// A string at the cursor: borrowed from the text unless it holds escapes. An escaped one
    /// is unescaped into the reader's scratch and copied out at its exact length (as
    /// serde_json does): its bytes stay allocated as long as the transcript lives.
    fn string(&mut self) -> Option<Cow<'a, str>> {
        let start = self.at + 1;
        let end = escape_scan::next::<false>(self.bytes, start);
        if self.bytes.get(end)? == &b'"' {
            self.at = end + 1;
            return Some(Cow::Borrowed(self.text.get(start..end)?));
        }
        let mut scratch = std::mem::take(&mut self.scratch);
        scratch.clear();
        scratch.push_str(self.text.get(start..end)?);
        self.at = end;
        let done = loop {
            match *self.bytes.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    break Some(Cow::Owned(scratch.as_str().to_owned()));
                }
                b'\\' => {
                    if self.escape(&mut scratch).is_none() {
                        break None;
                    }
                }
                // a raw control character: serde_json's error
                _ => break None,
            }
            let end = escape_scan::next::<false>(self.bytes, self.at);
            scratch.push_str(self.text.get(self.at..end)?);
            self.at = end;
        };
        self.scratch = scratch;
        done
    }

    /// The escape at the cursor (`\n`, `\u00e9`, a surrogate pair), appended to `out`.
    fn escape(&mut self, out: &mut String) -> Option<()> {
        let c = match *self.bytes.get(self.at + 1)? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let unit = self.hex4(self.at + 2)?;
                self.at += 6;
                let c = match unit {
                    0xD800..=0xDBFF => {
                        // only a pair: a lone surrogate needs the repair
                        let low = match self.bytes.get(self.at..self.at + 2) {
                            Some(b"\\u") => self.hex4(self.at + 2)?,
                            _ => 0,
                        };
                        if !(0xDC00..=0xDFFF).contains(&low) {
                            self.lone_surrogate = true;
                            return None;
                        }
                        self.at += 6;
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))?
                    }
                    0xDC00..=0xDFFF => {
                        self.lone_surrogate = true;
                        return None;
                    }
                    _ => char::from_u32(unit)?,
                };
                out.push(c);
                return Some(());
            }
            _ => return None,
        };
        out.push(c);
        self.at += 2;
        Some(())
    }

    /// Four hex digits at `at`.
    fn hex4(&self, at: usize) -> Option<u32> {
        let digits = self.text.get(at..at + 4)?;
        if !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        u32::from_str_radix(digits, 16).ok()
    }

    /// A number, its digits kept as written (serde_json's `arbitrary_precision`).
    fn number(&mut self) -> Option<Number> {
        let start = self.at;
        let digits = |r: &mut Self| {
            let from = r.at;
            while r.bytes.get(r.at).is_some_and(u8::is_ascii_digit) {
                r.at += 1;
            }
            r.at > from
        };
        if self.bytes.get(self.at) == Some(&b'-') {
            self.at += 1;
        }
        match self.bytes.get(self.at)? {
            b'0' => self.at += 1,
            b'1'..=b'9' => {
                digits(self);
            }
            _ => return None,
        }
        if self.bytes.get(self.at) == Some(&b'.') {
            self.at += 1;
            if !digits(self) {
                return None;
            }
        }
        if let Some(b'e' | b'E') = self.bytes.get(self.at) {
            self.at += 1;
            if let Some(b'+' | b'-') = self.bytes.get(self.at) {
                self.at += 1;
            }
            if !digits(self) {
                return None;
            }
        }
        self.text.get(start..self.at)?.parse().ok()
    }
}

#[cfg(test)]
mod tests;
