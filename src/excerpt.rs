//! Bad values quoted in error messages, bounded: a 4 MiB string given where a provider name
//! belongs is quoted as its first characters and its length, never whole (an error message is
//! logged, shown, sent back to a client). [`crate::Error::new`] applies this to every error, so
//! the readers (and serde's own messages, which quote unknown fields and variants) need not.

/// The longest value quoted whole, in bytes.
const WHOLE: usize = 80;
/// How much of a longer value is quoted, in bytes (at most; cut at a character boundary).
const HEAD: usize = 48;
/// The longest error message or path kept whole, in bytes; longer ones keep their start and
/// end around a note of what was left out.
const MAX_ERROR_TEXT: usize = 2048;

/// The first `max` bytes of `s` or fewer, cut at a character boundary.
fn head(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// The last `max` bytes of `s` or fewer, cut at a character boundary.
fn tail(s: &str, max: usize) -> &str {
    let mut start = s.len().saturating_sub(max);
    while !s.is_char_boundary(start) {
        start += 1;
    }
    &s[start..]
}

/// `value` as an error message shows it: whole when short, else its start, `…` and its length
/// (`xxxx… (4194304 bytes)`).
pub(crate) fn excerpt(value: &str) -> String {
    if value.len() <= WHOLE {
        value.to_string()
    } else {
        format!("{}… ({} bytes)", head(value, HEAD), value.len())
    }
}

/// A message whose quoted values (between backquotes, as turnwire's readers and serde quote
/// them, or double quotes) longer than 80 bytes are cut to their start and their length:
/// ``found `xxxx…` (4194304 bytes)``. An unpaired quote leaves the rest as it is.
pub(crate) fn bound_quotes(text: String) -> String {
    let long = |q: char| {
        let mut parts = text.split(q).skip(1).step_by(2);
        parts.any(|inside| inside.len() > WHOLE)
    };
    if !long('`') && !long('"') {
        return text;
    }
    let mut out = String::with_capacity(MAX_ERROR_TEXT);
    let mut rest = text.as_str();
    while let Some(open) = rest.find(['`', '"']) {
        let q = &rest[open..open + 1];
        out.push_str(&rest[..open + 1]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(q) else {
            rest = after;
            break;
        };
        let inside = &after[..close];
        if inside.len() > WHOLE {
            out.push_str(head(inside, HEAD));
            out.push('…');
            out.push_str(q);
            out.push_str(&format!(" ({} bytes)", inside.len()));
        } else {
            out.push_str(inside);
            out.push_str(q);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    out
}

/// An error's message or path of at most 2 KiB: a longer one keeps its start and its end.
pub(crate) fn bounded(text: String) -> String {
    if text.len() <= MAX_ERROR_TEXT {
        return text;
    }
    let keep = MAX_ERROR_TEXT / 2 - 32;
    let (start, end) = (head(&text, keep), tail(&text, keep));
    let left_out = text.len() - start.len() - end.len();
    format!("{start} … [{left_out} bytes left out] … {end}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_values_are_shown_whole() {
        assert_eq!(excerpt("anthropic"), "anthropic");
        let edge = "y".repeat(WHOLE);
        assert_eq!(excerpt(&edge), edge);
        let message = format!("unknown provider `{edge}`; \"x\" and `y`");
        assert_eq!(bound_quotes(message.clone()), message);
    }

    #[test]
    fn long_values_are_shown_as_their_start_and_length() {
        let big = "x".repeat(4 << 20);
        assert_eq!(
            excerpt(&big),
            format!("{}… (4194304 bytes)", "x".repeat(HEAD))
        );
        let head = "x".repeat(HEAD);
        assert_eq!(
            bound_quotes(format!("unknown provider `{big}`, expected `anthropic`")),
            format!("unknown provider `{head}…` (4194304 bytes), expected `anthropic`")
        );
        assert_eq!(
            bound_quotes(format!("found \"{big}\"")),
            format!("found \"{head}…\" (4194304 bytes)")
        );
    }

    #[test]
    fn an_unpaired_quote_leaves_the_rest_to_bounded() {
        let big = "x".repeat(10_000);
        let text = bound_quotes(format!("`short` then `{big}"));
        assert_eq!(text.len(), 10_000 + "`short` then `".len());
        assert!(bounded(text).len() <= MAX_ERROR_TEXT);
    }

    #[test]
    fn cuts_fall_on_character_boundaries() {
        let big = "é".repeat(1000);
        let e = excerpt(&big);
        assert!(e.starts_with(&"é".repeat(HEAD / 2)), "{e}");
        assert!(e.ends_with("(2000 bytes)"), "{e}");
        let b = bounded("€".repeat(5000));
        assert!(b.len() <= MAX_ERROR_TEXT, "{}", b.len());
        assert!(b.starts_with('€') && b.ends_with('€'));
        assert!(b.contains("bytes left out"));
    }

    #[test]
    fn bounded_keeps_short_text_and_both_ends_of_long_text() {
        assert_eq!(bounded("short".into()), "short");
        let b = bounded(format!("start {} end", "z".repeat(10_000)));
        assert!(b.starts_with("start ") && b.ends_with(" end"));
        assert!(b.len() <= MAX_ERROR_TEXT);
    }
}
