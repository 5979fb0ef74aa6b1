//! The lexical families of provider tool-call ids (provider-rules.md X4).

use super::tool_name::is_valid_tool_name;

/// The lexical family of provider tool-call ids (provider-rules.md §9 X4).
///
/// # Examples
///
/// ```
/// use turnwire::ids::IdFormat;
/// assert!(IdFormat::OpenAi.is_valid("call_abc123"));
/// assert!(IdFormat::Anthropic.is_valid("toolu_01ABC"));
/// assert!(IdFormat::Kimi.is_valid("functions.read_file:0"));
/// assert!(IdFormat::Mistral.is_valid("a1B2c3D4e"));
/// assert!(!IdFormat::Mistral.is_valid("call_abc123"));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IdFormat {
    /// OpenAI Chat Completions (and compatible servers): `call_` prefix, at most 40 characters,
    /// all in `[A-Za-z0-9_-]` (REQ-915-018, OAC-03, OAC-04).
    OpenAi,
    /// Anthropic Messages: `toolu_` prefix, `^[a-zA-Z0-9_-]{1,64}$` (REQ-915-019, ANT-07,
    /// ANT-08).
    Anthropic,
    /// Kimi / Moonshot: `functions.{name}:{index}`, `index` the 0-based ordinal of the call
    /// across the conversation (REQ-915-020, KIM-01).
    Kimi,
    /// Mistral: exactly 9 characters of `[A-Za-z0-9]` (REQ-915-021, MIS-01).
    Mistral,
    /// OpenAI Responses `call_id`: `call_` prefix, at most 64 characters, all in
    /// `[A-Za-z0-9_-]` (ORS-08).
    Responses,
    /// A generic OpenAI-compatible server's own rule: at most `max_len` characters, either
    /// `call_`-prefixed `[A-Za-z0-9_-]` or, with `alphanumeric`, ASCII letters and digits only.
    Compat {
        /// The longest id the server takes.
        max_len: u8,
        /// Only `[A-Za-z0-9]`.
        alphanumeric: bool,
    },
}

/// Whether `id` is an Anthropic server-tool call id: `^srvtoolu_[a-zA-Z0-9_]+$` (ANT-08).
///
/// ```
/// assert!(turnwire::ids::is_anthropic_server_tool_id("srvtoolu_01A9"));
/// assert!(!turnwire::ids::is_anthropic_server_tool_id("toolu_01A9"));
/// ```
pub fn is_anthropic_server_tool_id(id: &str) -> bool {
    id.strip_prefix("srvtoolu_").is_some_and(|rest| {
        !rest.is_empty() && rest.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'_')
    })
}

impl IdFormat {
    /// Whether `id` is lexically valid for this format: prefix, character set and length (for
    /// [`IdFormat::Kimi`], the `functions.<name>:<digits>` shape with `<name>` a valid tool
    /// name). A bare prefix (`call_`, `toolu_`) is not valid.
    ///
    /// # Examples
    ///
    /// ```
    /// use turnwire::ids::IdFormat;
    /// assert!(IdFormat::OpenAi.is_valid("call_PTLP8xhu3uwZk4l3nlnrrJha"));
    /// assert!(!IdFormat::OpenAi.is_valid(&format!("call_{}", "x".repeat(36)))); // 41 chars
    /// assert!(IdFormat::Responses.is_valid(&format!("call_{}", "x".repeat(59)))); // 64 chars
    /// assert!(!IdFormat::Anthropic.is_valid("toolu_a.b"));
    /// assert!(!IdFormat::Kimi.is_valid("functions.read:"));
    /// assert!(!IdFormat::Mistral.is_valid("abc123"));
    /// ```
    pub fn is_valid(self, id: &str) -> bool {
        match self {
            IdFormat::Kimi => is_valid_kimi(id),
            IdFormat::Mistral => {
                id.len() == MISTRAL_LEN && id.chars().all(|c| c.is_ascii_alphanumeric())
            }
            IdFormat::Compat {
                alphanumeric: true,
                max_len,
            } => {
                !id.is_empty()
                    && id.len() <= usize::from(max_len)
                    && id.chars().all(|c| c.is_ascii_alphanumeric())
            }
            IdFormat::OpenAi
            | IdFormat::Anthropic
            | IdFormat::Responses
            | IdFormat::Compat { .. } => {
                let (prefix, max_len) = self.prefix_and_max_len();
                id.len() <= max_len
                    && id.strip_prefix(prefix).is_some_and(|body| !body.is_empty())
                    && id.chars().all(is_id_char)
            }
        }
    }

    /// The required prefix and maximum total length of the prefixed formats (`("", 0)` for the
    /// others).
    pub(crate) const fn prefix_and_max_len(self) -> (&'static str, usize) {
        match self {
            IdFormat::OpenAi => ("call_", 40),
            IdFormat::Anthropic => ("toolu_", 64),
            IdFormat::Responses => ("call_", 64),
            IdFormat::Compat {
                alphanumeric: true, ..
            } => ("", 0),
            IdFormat::Compat { max_len, .. } => ("call_", max_len as usize),
            IdFormat::Kimi | IdFormat::Mistral => ("", 0),
        }
    }
}

/// The length of a Mistral tool-call id.
pub(crate) const MISTRAL_LEN: usize = 9;

/// The prefix of a Kimi tool-call id.
pub(crate) const KIMI_PREFIX: &str = "functions.";

/// `[A-Za-z0-9_-]`: the character set shared by OpenAI/Anthropic ids and tool names.
pub(crate) const fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// `functions.<name>:<digits>` with `<name>` a valid tool name.
fn is_valid_kimi(id: &str) -> bool {
    id.strip_prefix(KIMI_PREFIX)
        .and_then(|rest| rest.rsplit_once(':'))
        .is_some_and(|(name, index)| {
            is_valid_tool_name(name)
                && !index.is_empty()
                && index.chars().all(|c| c.is_ascii_digit())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn openai_requires_prefix_charset_and_length() {
        let f = IdFormat::OpenAi;
        assert!(f.is_valid("call_abc123"));
        assert!(f.is_valid(&format!("call_{}", "a".repeat(35))));
        assert!(!f.is_valid(&format!("call_{}", "a".repeat(36))));
        assert!(!f.is_valid("call_"));
        assert!(!f.is_valid("toolu_abc"));
        assert!(!f.is_valid("call_a|b"));
        assert!(!f.is_valid(""));
    }

    #[test]
    fn responses_allows_64() {
        let f = IdFormat::Responses;
        assert!(f.is_valid(&format!("call_{}", "a".repeat(59))));
        assert!(!f.is_valid(&format!("call_{}", "a".repeat(60))));
        assert!(!f.is_valid("fc_abc"));
    }

    #[test]
    fn anthropic_requires_toolu_and_pattern() {
        let f = IdFormat::Anthropic;
        assert!(f.is_valid("toolu_01ABC"));
        assert!(f.is_valid("toolu_vrtx_01ABC"));
        assert!(f.is_valid(&format!("toolu_{}", "a".repeat(58))));
        assert!(!f.is_valid(&format!("toolu_{}", "a".repeat(59))));
        assert!(!f.is_valid("call_abc"));
        assert!(!f.is_valid("toolu_a:b"));
        assert!(!f.is_valid("toolu_é"));
    }

    #[test]
    fn kimi_shape() {
        let f = IdFormat::Kimi;
        assert!(f.is_valid("functions.read:0"));
        assert!(f.is_valid("functions.read-file_2:17"));
        assert!(!f.is_valid("functions.:0"));
        assert!(!f.is_valid("functions.read:"));
        assert!(!f.is_valid("functions.read:1a"));
        assert!(!f.is_valid("functions.a.b:1"));
        assert!(!f.is_valid("functions_read_0"));
        assert!(!f.is_valid("read:0"));
    }

    #[test]
    fn mistral_is_nine_alphanumerics() {
        let f = IdFormat::Mistral;
        assert!(f.is_valid("abcDEF123"));
        assert!(!f.is_valid("abcDEF12"));
        assert!(!f.is_valid("abcDEF1234"));
        assert!(!f.is_valid("abc_EF123"));
        assert!(!f.is_valid("abcdefgh\u{e9}"));
    }
}
