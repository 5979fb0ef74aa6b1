//! Tool-name projection: any name → `^[a-zA-Z0-9_-]{1,64}$` (OAC-05, ANT-20), injectively.

use crate::fast_map::{HashMap, HashSet};

use super::format::is_id_char;
use super::hash::digest;

/// The longest tool name every provider accepts.
const MAX_NAME_LEN: usize = 64;
/// The name used for an empty tool name (OAC-04).
const EMPTY_NAME: &str = "tool";
/// Base62 characters of digest appended to cut or colliding names.
const NAME_DIGEST_LEN: usize = 8;

/// Projects tool names to `^[a-zA-Z0-9_-]{1,64}$`, consistently and injectively. Create one per
/// render and feed it every name (declared tools first, so that they keep their spelling).
///
/// Valid names are kept verbatim unless an earlier, different name already took that spelling.
/// Characters outside `[A-Za-z0-9_-]` become `_`; an empty name becomes `tool`; a name over 64
/// characters is cut and given a `_` + digest suffix. The same input always gets the same output
/// from one projector, and two different inputs never get the same output: on a collision the
/// later name gets `_` + a short digest of the original name (+ a counter if still taken).
///
/// # Examples
///
/// ```
/// use turnwire::ids::ToolNameProjector;
/// let mut names = ToolNameProjector::new();
/// assert_eq!(names.project("read_file"), "read_file");
/// assert_eq!(names.project("fs.read"), "fs_read");
/// assert_ne!(names.project("fs/read"), "fs_read"); // collision → different name
/// assert_eq!(names.project("fs.read"), "fs_read"); // stable
/// assert_eq!(names.renamed().len(), 2);
/// ```
#[derive(Debug, Clone, Default)]
pub struct ToolNameProjector {
    /// original → projected, for every name seen.
    assigned: HashMap<String, String>,
    /// Every projected name handed out.
    used: HashSet<String>,
    /// (original, projected) where they differ, in first-seen order.
    renamed: Vec<(String, String)>,
    /// Names must start with a letter or an underscore (Gemini, GEM-10).
    leading_letter: bool,
}

impl ToolNameProjector {
    /// An empty projector.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::ToolNameProjector;
    /// let names = ToolNameProjector::new();
    /// assert!(names.renamed().is_empty());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// A projector whose names also start with a letter or an underscore, as Gemini requires
    /// (GEM-10): a name starting with a digit or `-` gets a leading `_`.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::ToolNameProjector;
    /// let mut names = ToolNameProjector::leading_letter();
    /// assert_eq!(names.project("1password-get"), "_1password-get");
    /// assert_eq!(names.project("read_file"), "read_file");
    /// ```
    pub fn leading_letter() -> Self {
        Self {
            leading_letter: true,
            ..Self::default()
        }
    }

    /// Whether `name` is valid as it is under this projector's rules.
    fn acceptable(&self, name: &str) -> bool {
        is_valid_tool_name(name)
            && (!self.leading_letter
                || name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
    }

    /// Returns a name matching `^[a-zA-Z0-9_-]{1,64}$` for `name` (see the type docs for the
    /// rules). Deterministic and injective within this projector.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::ToolNameProjector;
    /// let mut names = ToolNameProjector::new();
    /// assert_eq!(names.project("mcp__github__create_issue"), "mcp__github__create_issue");
    /// assert_eq!(names.project("github.create:issue"), "github_create_issue");
    /// assert_eq!(names.project(""), "tool");
    /// assert_eq!(names.project(&"x".repeat(100)).len(), 64);
    /// ```
    pub fn project(&mut self, name: &str) -> String {
        if let Some(projected) = self.assigned.get(name) {
            return projected.clone();
        }
        let mut base = sanitize_tool_name(name);
        if !self.acceptable(&base) {
            base = format!("_{base}").chars().take(MAX_NAME_LEN).collect();
        }
        let projected = if self.used.contains(&base) {
            self.disambiguate(name, &base)
        } else {
            base
        };
        self.used.insert(projected.clone());
        self.assigned.insert(name.to_owned(), projected.clone());
        if projected != name {
            self.renamed.push((name.to_owned(), projected.clone()));
        }
        projected
    }

    /// Claims every already-valid name for itself before any invalid name is projected, so a
    /// sanitised name never takes the spelling of a real tool.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::ToolNameProjector;
    /// let mut names = ToolNameProjector::new();
    /// names.reserve(["fs_read"]);
    /// assert_ne!(names.project("fs.read"), "fs_read");
    /// assert_eq!(names.project("fs_read"), "fs_read");
    /// ```
    pub fn reserve<'a>(&mut self, names: impl IntoIterator<Item = &'a str>) {
        for name in names {
            if self.acceptable(name)
                && !self.assigned.contains_key(name)
                && !self.used.contains(name)
            {
                self.used.insert(name.to_owned());
                self.assigned.insert(name.to_owned(), name.to_owned());
            }
        }
    }

    /// The `(original, projected)` pairs where the name changed, in first-seen order.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::ToolNameProjector;
    /// let mut names = ToolNameProjector::new();
    /// names.project("ok_name");
    /// names.project("bad name");
    /// assert_eq!(names.renamed(), vec![("bad name".to_string(), "bad_name".to_string())]);
    /// ```
    pub fn renamed(&self) -> Vec<(String, String)> {
        self.renamed.clone()
    }

    /// `base` + `_` + digest of `original` (+ counter), cut to fit 64, first one not yet used.
    fn disambiguate(&self, original: &str, base: &str) -> String {
        let tag = digest(original, NAME_DIGEST_LEN);
        let mut candidate = with_suffix(base, &format!("_{tag}"));
        let mut n: u64 = 1;
        while self.used.contains(&candidate) {
            candidate = with_suffix(base, &format!("_{tag}{n}"));
            n = n.wrapping_add(1);
        }
        candidate
    }
}

/// Whether `name` matches `^[a-zA-Z0-9_-]{1,64}$`.
pub(crate) fn is_valid_tool_name(name: &str) -> bool {
    !name.is_empty() && name.len() <= MAX_NAME_LEN && name.chars().all(is_id_char)
}

/// The stateless part of tool-name projection: valid names verbatim, invalid characters → `_`,
/// empty → `tool`, over 64 characters → cut + `_` + digest of the original.
pub(crate) fn sanitize_tool_name(name: &str) -> String {
    if is_valid_tool_name(name) {
        return name.to_owned();
    }
    if name.is_empty() {
        return EMPTY_NAME.to_owned();
    }
    let clean: String = name
        .chars()
        .map(|c| if is_id_char(c) { c } else { '_' })
        .collect();
    if clean.len() <= MAX_NAME_LEN {
        clean
    } else {
        with_suffix(&clean, &format!("_{}", digest(name, NAME_DIGEST_LEN)))
    }
}

/// The longest prefix of `base` that leaves room for `suffix` within 64 characters, + `suffix`.
/// `base` and `suffix` are ASCII.
fn with_suffix(base: &str, suffix: &str) -> String {
    let keep = MAX_NAME_LEN.saturating_sub(suffix.len());
    let mut out: String = base.chars().take(keep).collect();
    out.push_str(suffix);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_names_are_kept() {
        let mut p = ToolNameProjector::new();
        for name in ["a", "read_file", "A-b_9", &"x".repeat(64)] {
            assert_eq!(p.project(name), name);
        }
        assert!(p.renamed().is_empty());
    }

    #[test]
    fn invalid_characters_become_underscores() {
        let mut p = ToolNameProjector::new();
        assert_eq!(p.project("a.b/c:d e"), "a_b_c_d_e");
        assert_eq!(p.project("héllo"), "h_llo");
    }

    #[test]
    fn empty_becomes_tool() {
        let mut p = ToolNameProjector::new();
        assert_eq!(p.project(""), "tool");
        assert_eq!(p.renamed(), vec![(String::new(), "tool".to_string())]);
    }

    #[test]
    fn long_names_are_cut_with_digest() {
        let mut p = ToolNameProjector::new();
        let a = "a".repeat(65);
        let b = format!("{}b", "a".repeat(64));
        let pa = p.project(&a);
        let pb = p.project(&b);
        assert_eq!(pa.len(), 64);
        assert_eq!(pb.len(), 64);
        assert!(pa.starts_with(&"a".repeat(55)));
        assert_ne!(pa, pb);
        assert!(is_valid_tool_name(&pa) && is_valid_tool_name(&pb));
    }

    #[test]
    fn collisions_get_distinct_names_and_are_stable() {
        let mut p = ToolNameProjector::new();
        let first = p.project("a.b");
        let second = p.project("a:b");
        let third = p.project("a_b");
        assert_eq!(first, "a_b");
        assert!(second.starts_with("a_b_"));
        assert!(third.starts_with("a_b_"));
        assert_ne!(second, third);
        assert_eq!(p.project("a:b"), second);
        assert_eq!(p.project("a_b"), third);
        assert_eq!(p.renamed().len(), 3);
    }

    #[test]
    fn counter_resolves_digest_collisions() {
        let mut p = ToolNameProjector::new();
        let tag = digest("a:b", NAME_DIGEST_LEN);
        // Pre-occupy the first disambiguated spelling with a verbatim name.
        let pre = format!("a_b_{tag}");
        assert_eq!(p.project(&pre), pre);
        assert_eq!(p.project("a.b"), "a_b");
        assert_eq!(p.project("a:b"), format!("a_b_{tag}1"));
    }

    #[test]
    fn renamed_is_in_first_seen_order() {
        let mut p = ToolNameProjector::new();
        p.project("z.z");
        p.project("ok");
        p.project("a.a");
        p.project("z.z");
        assert_eq!(
            p.renamed(),
            vec![
                ("z.z".to_string(), "z_z".to_string()),
                ("a.a".to_string(), "a_a".to_string())
            ]
        );
    }
}
