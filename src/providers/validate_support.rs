//! Shared machinery of the strict request validators: owned JSON paths and findings sorted into
//! document order.

use serde_json::Value;

use crate::providers::Violation;

/// One step of a JSON path.
#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Idx(usize),
}

/// An owned JSON path (`$.messages[3].content[0].id`), built only when a violation is reported.
#[derive(Debug, Clone, Default)]
pub(crate) struct Path(Vec<Seg>);

impl Path {
    /// The body itself (`$`).
    pub(crate) fn root() -> Self {
        Path(Vec::new())
    }

    /// The path of member `key` below this one.
    pub(crate) fn k(&self, key: &'static str) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key));
        Path(segs)
    }

    /// The path of element `idx` below this one.
    pub(crate) fn i(&self, idx: usize) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Idx(idx));
        Path(segs)
    }

    /// `$.messages[i]`.
    pub(crate) fn msg(i: usize) -> Self {
        Path::root().k("messages").i(i)
    }

    /// `$.messages[i].content[b]`.
    pub(crate) fn block(i: usize, b: usize) -> Self {
        Path::msg(i).k("content").i(b)
    }

    /// The path as providers write it inside their messages, dot-separated without `$`
    /// (`messages.1.content.0`).
    pub(crate) fn dotted(&self) -> String {
        let segs: Vec<String> = self
            .0
            .iter()
            .map(|seg| match seg {
                Seg::Key(k) => (*k).to_string(),
                Seg::Idx(i) => i.to_string(),
            })
            .collect();
        segs.join(".")
    }

    fn render(&self) -> String {
        let mut s = String::from("$");
        for seg in &self.0 {
            match seg {
                Seg::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Seg::Idx(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// Position of the path in the document: object members by their position in the object,
    /// array elements by index; steps that do not exist sort last.
    fn order_key(&self, body: &Value) -> Vec<usize> {
        let mut cur = Some(body);
        let mut key = Vec::with_capacity(self.0.len());
        for seg in &self.0 {
            let (pos, next) = match (seg, cur) {
                (Seg::Key(k), Some(Value::Object(m))) => (
                    m.keys().position(|x| x == k).unwrap_or(usize::MAX),
                    m.get(*k),
                ),
                (Seg::Idx(i), Some(Value::Array(a))) => (*i, a.get(*i)),
                _ => (usize::MAX, None),
            };
            key.push(pos);
            cur = next;
        }
        key
    }
}

/// Violations collected in check order, sorted into document order at the end.
#[derive(Default)]
pub(crate) struct Findings(Vec<(Path, Violation)>);

impl Findings {
    /// Records one violation of `rule` at `path`.
    pub(crate) fn push(&mut self, rule: &'static str, path: Path, message: impl Into<String>) {
        let rendered = path.render();
        self.0.push((path, Violation::new(rule, rendered, message)));
    }

    /// The violations in document order (a stable sort: findings at one path keep check order).
    pub(crate) fn finish(self, body: &Value) -> Vec<Violation> {
        let mut keyed: Vec<(Vec<usize>, Violation)> = self
            .0
            .into_iter()
            .map(|(p, v)| (p.order_key(body), v))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        keyed.into_iter().map(|(_, v)| v).collect()
    }
}

/// Whether `c` may appear in a tool id or name (`[a-zA-Z0-9_-]`).
pub(crate) fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}
