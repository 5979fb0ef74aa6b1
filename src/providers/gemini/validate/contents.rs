//! The content view the Gemini rules work on: roles and the data kind of every part, read once
//! from `contents` with shape errors reported on the way.

use serde_json::{Map, Value};

use super::parts::{check_part, PartKind};
use super::STRUCT;
use crate::providers::validate_support::{Findings, Path};

/// Fields of a `Content`.
const CONTENT_FIELDS: [&str; 2] = ["role", "parts"];

/// A content role Gemini accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Role {
    /// `user`.
    User,
    /// `model`.
    Model,
}

impl Role {
    /// The role as written on the wire.
    pub(super) fn name(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Model => "model",
        }
    }
}

/// One part with its index and data kind.
pub(super) struct Part<'a> {
    /// Index in `parts`.
    pub(super) idx: usize,
    /// The part value.
    pub(super) value: &'a Value,
    /// Which data field it carries.
    pub(super) kind: PartKind,
}

impl<'a> Part<'a> {
    /// The object of the part's data field `key` (`functionCall`, `functionResponse`, …).
    pub(super) fn data(&self, key: &str) -> Option<&'a Map<String, Value>> {
        self.value.get(key).and_then(Value::as_object)
    }
}

/// One content as far as it could be read.
pub(super) struct Content<'a> {
    /// Index in `contents`.
    pub(super) idx: usize,
    /// The role, when it is a known one.
    pub(super) role: Option<Role>,
    /// The parts as far as they could be read.
    pub(super) parts: Vec<Part<'a>>,
}

impl<'a> Content<'a> {
    /// `$.contents[idx]`.
    pub(super) fn path(&self) -> Path {
        Path::root().k("contents").i(self.idx)
    }

    /// `$.contents[idx].parts[p]`.
    pub(super) fn part_path(&self, p: usize) -> Path {
        self.path().k("parts").i(p)
    }

    /// Whether the content has `role`.
    pub(super) fn is(&self, role: Role) -> bool {
        self.role == Some(role)
    }

    /// Parts of one kind.
    pub(super) fn parts_of(&self, kind: PartKind) -> impl Iterator<Item = &Part<'a>> {
        self.parts.iter().filter(move |p| p.kind == kind)
    }

    /// Whether any part is a `functionCall`.
    pub(super) fn has_calls(&self) -> bool {
        self.parts_of(PartKind::FunctionCall).next().is_some()
    }

    /// Whether any part is a `functionResponse`.
    pub(super) fn has_responses(&self) -> bool {
        self.parts_of(PartKind::FunctionResponse).next().is_some()
    }

    /// A model content with `functionCall` parts (a function call turn).
    pub(super) fn is_call_turn(&self) -> bool {
        self.is(Role::Model) && self.has_calls()
    }
}

/// Reads `contents`; reports shape errors and the per-part rules; `None` when there is nothing
/// to check further.
pub(super) fn parse_contents<'a>(
    obj: &'a Map<String, Value>,
    out: &mut Findings,
) -> Option<Vec<Content<'a>>> {
    let path = Path::root().k("contents");
    let contents = match obj.get("contents") {
        None | Some(Value::Null) => {
            out.push(
                "GEM-09",
                path,
                "* GenerateContentRequest.contents: contents is not specified",
            );
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "contents must be an array of Content objects");
            return None;
        }
    };
    if contents.is_empty() {
        out.push(
            "GEM-09",
            path,
            "* GenerateContentRequest.contents: contents is not specified",
        );
        return None;
    }
    let parsed = contents
        .iter()
        .enumerate()
        .map(|(i, c)| parse_content(i, c, out))
        .collect();
    Some(parsed)
}

/// Reads one content: role (GEM-04), parts (GEM-09) and every part.
fn parse_content<'a>(idx: usize, v: &'a Value, out: &mut Findings) -> Content<'a> {
    let path = Path::root().k("contents").i(idx);
    let mut content = Content {
        idx,
        role: None,
        parts: Vec::new(),
    };
    let Some(obj) = v.as_object() else {
        out.push(STRUCT, path, "content must be a JSON object");
        return content;
    };
    for key in obj.keys() {
        if !CONTENT_FIELDS.contains(&key.as_str()) {
            out.push(
                STRUCT,
                path.clone(),
                format!(
                    "Invalid JSON payload received. Unknown name \"{key}\" at 'contents[{idx}]': \
                     Cannot find field."
                ),
            );
        }
    }
    content.role = match obj.get("role").and_then(Value::as_str) {
        Some("user") => Some(Role::User),
        Some("model") => Some(Role::Model),
        other => {
            let found = other.map_or_else(|| "no role".to_string(), |r| format!("{r:?}"));
            out.push(
                "GEM-04",
                path.k("role"),
                format!("role must be \"user\" or \"model\", found {found} [inferred]"),
            );
            None
        }
    };
    let ppath = path.k("parts");
    let parts = match obj.get("parts") {
        None | Some(Value::Null) => {
            out.push(
                "GEM-09",
                ppath,
                "Unable to submit request because it must include at least one parts field",
            );
            return content;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, ppath, "parts must be an array of Part objects");
            return content;
        }
    };
    if parts.is_empty() {
        out.push(
            "GEM-09",
            ppath,
            format!(
                "* GenerateContentRequest.contents[{idx}].parts: contents.parts must not be empty."
            ),
        );
        return content;
    }
    for (p, part) in parts.iter().enumerate() {
        let loc = format!("contents[{idx}].parts[{p}]");
        let kind = check_part(part, &ppath.i(p), &loc, content.role, out);
        content.parts.push(Part {
            idx: p,
            value: part,
            kind,
        });
    }
    content
}
