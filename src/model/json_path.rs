//! JSON paths for error messages, built without allocating until an error needs one.

use std::fmt;

/// A position inside a JSON document: `$`, `$.messages`, `$[3].blocks[0].id`.
///
/// Paths borrow their parent, so walking a document costs nothing until an error is
/// rendered with `to_string()`.
///
/// ```
/// use turnwire::model::JsonPath;
/// let root = JsonPath::Root;
/// let msg = root.index(3);
/// let id = msg.key("blocks").index(0).key("id").to_string();
/// assert_eq!(id, "$[3].blocks[0].id");
/// ```
#[derive(Debug, Clone, Copy)]
pub enum JsonPath<'a> {
    /// The document itself.
    Root,
    /// A named member of an object.
    Key(&'a JsonPath<'a>, &'a str),
    /// An element of an array.
    Index(&'a JsonPath<'a>, usize),
}

impl<'a> JsonPath<'a> {
    /// The path of member `key` below this one.
    pub fn key(&'a self, key: &'a str) -> JsonPath<'a> {
        JsonPath::Key(self, key)
    }

    /// The path of element `index` below this one.
    pub fn index(&'a self, index: usize) -> JsonPath<'a> {
        JsonPath::Index(self, index)
    }
}

impl fmt::Display for JsonPath<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JsonPath::Root => f.write_str("$"),
            JsonPath::Key(parent, key) => {
                parent.fmt(f)?;
                let mut step = String::new();
                crate::json::write_path_key(&mut step, key);
                f.write_str(&step)
            }
            JsonPath::Index(parent, i) => {
                parent.fmt(f)?;
                write!(f, "[{i}]")
            }
        }
    }
}
