//! Canonical tool-call ids → one provider's id format, injectively and in call order.

use crate::fast_map::HashSet;

use super::format::{is_id_char, IdFormat, KIMI_PREFIX, MISTRAL_LEN};
use super::hash::{digest, U128_BASE62_DIGITS};
use super::tool_name::sanitize_tool_name;

/// Prefixes other providers (or turnwire's own history) put on tool-call ids. Longest first
/// where one is a prefix of another, so that exactly one is stripped.
const FOREIGN_PREFIXES: [&str; 6] = [
    "hist_tool_",
    "toolu_vrtx_",
    "toolu_",
    "call_",
    "fc_",
    "functions.",
];

/// Seed for the digest of an empty canonical id (followed by the call's ordinal).
const EMPTY_ID_MARKER: &str = "turnwire:empty-tool-call-id:";

/// Projects canonical tool-call ids to one [`IdFormat`], in call order. Create one per render
/// and feed it every call of the transcript in order; use the returned id for both the call and
/// its result (REQ-915-015, REQ-915-017).
///
/// The projection is deterministic and injective over all calls fed to one projector
/// (REQ-915-016, REQ-915-049, REQ-915-022), and an id depends only on its own call and the calls
/// before it, so ids already sent never change when the conversation grows.
///
/// # Examples
///
/// ```
/// use turnwire::ids::{IdFormat, IdProjector};
/// let mut ids = IdProjector::new(IdFormat::Anthropic);
/// assert_eq!(ids.project("toolu_01ABC", "read"), "toolu_01ABC"); // own id kept
/// assert_eq!(ids.project("hist_tool_abc", "read"), "toolu_abc"); // foreign prefix swapped
/// let hashed = ids.project("mcp.server:tool/1", "read"); // illegal characters → digest
/// assert!(IdFormat::Anthropic.is_valid(&hashed));
/// ```
#[derive(Debug, Clone)]
pub struct IdProjector {
    /// The target format.
    format: IdFormat,
    /// How many calls were projected so far (the next call's 0-based ordinal).
    ordinal: u64,
    /// Every id handed out by this projector.
    used: HashSet<String>,
}

impl IdProjector {
    /// A projector for `format` that has seen no calls.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::{IdFormat, IdProjector};
    /// let mut ids = IdProjector::new(IdFormat::Kimi);
    /// assert_eq!(ids.project("anything", "read"), "functions.read:0");
    /// ```
    pub fn new(format: IdFormat) -> Self {
        Self {
            format,
            ordinal: 0,
            used: HashSet::default(),
        }
    }

    /// Projects the next call; calls MUST be fed in transcript order. `tool_name` is the call's
    /// (already projected) tool name, used by [`IdFormat::Kimi`].
    ///
    /// - OpenAi / Anthropic / Responses: an id already valid for the format is kept verbatim;
    ///   else one known foreign prefix (`hist_tool_`, `call_`, `toolu_`, `toolu_vrtx_`, `fc_`,
    ///   `functions.`) is swapped for the format's prefix if the rest is legal and fits; else
    ///   prefix + 22 base62 characters of a 128-bit digest of the canonical id.
    /// - Mistral: 9 alphanumerics kept verbatim, else 9 base62 characters of the digest.
    /// - Kimi: `functions.{tool_name}:{ordinal}` (`tool` for an empty name).
    /// - An empty canonical id hashes a fixed marker plus the call's ordinal.
    /// - An id this projector already handed out is never reused: the digest of
    ///   `canonical_id + "#" + n` (n = 1, 2, …) is tried instead.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::{IdFormat, IdProjector};
    /// let mut ids = IdProjector::new(IdFormat::Mistral);
    /// let a = ids.project("call_PTLP8xhu3uwZk4l3nlnrrJha", "search");
    /// let b = ids.project("call_PTLP8xhu3uwZk4l3nlnrrJha", "search"); // same id twice
    /// assert!(IdFormat::Mistral.is_valid(&a) && IdFormat::Mistral.is_valid(&b));
    /// assert_ne!(a, b);
    /// ```
    pub fn project(&mut self, canonical_id: &str, tool_name: &str) -> String {
        let ordinal = self.ordinal;
        self.ordinal = self.ordinal.wrapping_add(1);
        let id = match self.format {
            // The ordinal is unique per call and a projected tool name has no `:`, so this is
            // unique without consulting `used`.
            IdFormat::Kimi => format!("{KIMI_PREFIX}{}:{ordinal}", sanitize_tool_name(tool_name)),
            IdFormat::Mistral => {
                let readable = (canonical_id.len() == MISTRAL_LEN
                    && canonical_id.chars().all(|c| c.is_ascii_alphanumeric()))
                .then(|| canonical_id.to_owned());
                self.assign(readable, &seed(canonical_id, ordinal), |d| {
                    digest(d, MISTRAL_LEN)
                })
            }
            IdFormat::Compat {
                alphanumeric: true,
                max_len,
            } => {
                let len = usize::from(max_len).clamp(1, U128_BASE62_DIGITS);
                let readable = self
                    .format
                    .is_valid(canonical_id)
                    .then(|| canonical_id.to_owned());
                self.assign(readable, &seed(canonical_id, ordinal), |d| digest(d, len))
            }
            IdFormat::OpenAi
            | IdFormat::Anthropic
            | IdFormat::Responses
            | IdFormat::Compat { .. } => {
                let (prefix, max_len) = self.format.prefix_and_max_len();
                let digest_len = max_len.saturating_sub(prefix.len()).min(U128_BASE62_DIGITS);
                let readable = self.readable_prefixed(canonical_id, prefix, max_len);
                self.assign(readable, &seed(canonical_id, ordinal), |d| {
                    format!("{prefix}{}", digest(d, digest_len))
                })
            }
        };
        self.used.insert(id.clone());
        id
    }

    /// The human-readable candidate for a prefixed format: the id itself if valid, else
    /// `prefix` + the id without one foreign prefix if legal and short enough.
    fn readable_prefixed(
        &self,
        canonical_id: &str,
        prefix: &str,
        max_len: usize,
    ) -> Option<String> {
        if self.format.is_valid(canonical_id) {
            return Some(canonical_id.to_owned());
        }
        let rest = FOREIGN_PREFIXES
            .iter()
            .find_map(|p| canonical_id.strip_prefix(p))
            .unwrap_or(canonical_id);
        let legal = !rest.is_empty()
            && rest.chars().all(is_id_char)
            && prefix.len().saturating_add(rest.len()) <= max_len;
        legal.then(|| format!("{prefix}{rest}"))
    }

    /// The first unused of: `readable`, `hashed(seed)`, `hashed(seed#1)`, `hashed(seed#2)`, …
    fn assign(
        &self,
        readable: Option<String>,
        seed: &str,
        hashed: impl Fn(&str) -> String,
    ) -> String {
        if let Some(id) = readable.filter(|id| !self.used.contains(id)) {
            return id;
        }
        let mut candidate = hashed(seed);
        let mut n: u64 = 1;
        while self.used.contains(&candidate) {
            candidate = hashed(&format!("{seed}#{n}"));
            n = n.wrapping_add(1);
        }
        candidate
    }
}

/// What a call's digest is computed from: the canonical id, or for an empty id a fixed marker
/// plus the call's ordinal (deterministic, and distinct per empty call).
fn seed(canonical_id: &str, ordinal: u64) -> String {
    if canonical_id.is_empty() {
        format!("{EMPTY_ID_MARKER}{ordinal}")
    } else {
        canonical_id.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PREFIXED: [IdFormat; 3] = [IdFormat::OpenAi, IdFormat::Anthropic, IdFormat::Responses];

    fn project_all(format: IdFormat, ids: &[&str]) -> Vec<String> {
        let mut p = IdProjector::new(format);
        ids.iter().map(|id| p.project(id, "t")).collect()
    }

    #[test]
    fn own_ids_are_kept() {
        assert_eq!(
            project_all(IdFormat::OpenAi, &["call_abc123"]),
            ["call_abc123"]
        );
        assert_eq!(
            project_all(IdFormat::Responses, &["call_abc123"]),
            ["call_abc123"]
        );
        assert_eq!(
            project_all(IdFormat::Anthropic, &["toolu_01ABC"]),
            ["toolu_01ABC"]
        );
        assert_eq!(
            project_all(IdFormat::Anthropic, &["toolu_vrtx_01ABC"]),
            ["toolu_vrtx_01ABC"]
        );
        assert_eq!(
            project_all(IdFormat::Mistral, &["a1B2c3D4e"]),
            ["a1B2c3D4e"]
        );
    }

    #[test]
    fn foreign_prefixes_are_swapped() {
        let cases = [
            ("hist_tool_abc", "call_abc", "toolu_abc"),
            ("toolu_01ABC", "call_01ABC", "toolu_01ABC"),
            ("toolu_vrtx_01ABC", "call_01ABC", "toolu_vrtx_01ABC"),
            ("call_xyz", "call_xyz", "toolu_xyz"),
            ("fc_123", "call_123", "toolu_123"),
            ("functions.read", "call_read", "toolu_read"),
            ("abc123", "call_abc123", "toolu_abc123"),
        ];
        for (canonical, openai, anthropic) in cases {
            assert_eq!(project_all(IdFormat::OpenAi, &[canonical]), [openai]);
            assert_eq!(project_all(IdFormat::Anthropic, &[canonical]), [anthropic]);
        }
    }

    #[test]
    fn illegal_or_long_ids_are_hashed() {
        for format in PREFIXED {
            let (prefix, max_len) = format.prefix_and_max_len();
            for canonical in [
                "functions.read:0",
                "a|b",
                "x".repeat(80).as_str(),
                "call_",
                "é",
            ] {
                let id = project_all(format, &[canonical]).concat();
                assert!(id.starts_with(prefix), "{id}");
                assert_eq!(id.len(), prefix.len() + U128_BASE62_DIGITS, "{id}");
                assert!(id.len() <= max_len);
                assert!(format.is_valid(&id), "{id}");
            }
        }
        let id = project_all(IdFormat::Mistral, &["call_PTLP8xhu3uwZk4l3nlnrrJha"]).concat();
        assert!(IdFormat::Mistral.is_valid(&id), "{id}");
    }

    #[test]
    fn hashed_form_is_the_digest_of_the_canonical_id() {
        let id = project_all(IdFormat::OpenAi, &["a:b"]).concat();
        assert_eq!(id, format!("call_{}", digest("a:b", 22)));
        let id = project_all(IdFormat::Mistral, &["a:b"]).concat();
        assert_eq!(id, digest("a:b", 9));
    }

    #[test]
    fn collisions_fall_back_to_digest_then_counter() {
        // `call_abc` (kept) and `toolu_abc` (→ `call_abc`) collide: the second is hashed.
        let ids = project_all(IdFormat::OpenAi, &["call_abc", "toolu_abc"]);
        assert_eq!(
            ids,
            [
                "call_abc".to_string(),
                format!("call_{}", digest("toolu_abc", 22))
            ]
        );
        // The same canonical id three times: verbatim, digest, digest of `#1`.
        let ids = project_all(IdFormat::OpenAi, &["call_abc"; 3]);
        assert_eq!(
            ids,
            [
                "call_abc".to_string(),
                format!("call_{}", digest("call_abc", 22)),
                format!("call_{}", digest("call_abc#1", 22)),
            ]
        );
        let ids = project_all(IdFormat::Mistral, &["a:b", "a:b", "a:b"]);
        assert_eq!(
            ids,
            [digest("a:b", 9), digest("a:b#1", 9), digest("a:b#2", 9)]
        );
    }

    #[test]
    fn empty_ids_hash_marker_and_ordinal() {
        let ids = project_all(IdFormat::Anthropic, &["", "x", ""]);
        assert_eq!(
            ids[0],
            format!("toolu_{}", digest("turnwire:empty-tool-call-id:0", 22))
        );
        assert_eq!(
            ids[2],
            format!("toolu_{}", digest("turnwire:empty-tool-call-id:2", 22))
        );
        assert_ne!(ids[0], ids[2]);
    }

    #[test]
    fn kimi_uses_name_and_global_ordinal() {
        let mut p = IdProjector::new(IdFormat::Kimi);
        assert_eq!(p.project("call_1", "read"), "functions.read:0");
        assert_eq!(p.project("call_1", "read"), "functions.read:1");
        assert_eq!(p.project("", ""), "functions.tool:2");
        assert_eq!(p.project("x", "a.b"), "functions.a_b:3");
    }

    #[test]
    fn ids_do_not_depend_on_later_calls() {
        let all = ["call_a", "toolu_a", "", "x.y", "call_a", ""];
        for format in [
            IdFormat::OpenAi,
            IdFormat::Anthropic,
            IdFormat::Responses,
            IdFormat::Mistral,
            IdFormat::Kimi,
        ] {
            let full = project_all(format, &all);
            for n in 0..all.len() {
                assert_eq!(project_all(format, &all[..n]), full[..n]);
            }
        }
    }
}
