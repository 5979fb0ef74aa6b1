//! The generation of a Claude model, read from its id: which model's thinking another can read.
//! A Claude model reads the thinking blocks of older Claude models but not of newer ones
//! (provider-changes-2026.md A1: "newer reads older" — Fable 5.1 reads Opus 5, Fable 5, Mythos 5,
//! Opus 4.8 and older; an older model silently drops a newer model's blocks).

/// `(major, minor)` of a Claude model id: `claude-opus-4-7` → (4, 7), `claude-fable-5-1` →
/// (5, 1), `claude-opus-5` → (5, 0), `claude-3-7-sonnet-latest` → (3, 7),
/// `claude-sonnet-4-5-20250929` → (4, 5) (a date is not a version), also behind a host's prefix
/// (`us.anthropic.claude-opus-4-8-v1:0`). `None` for anything else.
///
/// ```
/// use turnwire::models::claude_generation;
/// assert_eq!(claude_generation("claude-opus-4-7"), Some((4, 7)));
/// assert_eq!(claude_generation("anthropic/claude-3-7-sonnet-latest"), Some((3, 7)));
/// assert!(claude_generation("claude-fable-5-1") > claude_generation("claude-opus-5"));
/// assert_eq!(claude_generation("gpt-5.2"), None);
/// ```
pub fn claude_generation(model: &str) -> Option<(u32, u32)> {
    let id = model.to_ascii_lowercase();
    let rest = id.split_once("claude-")?.1;
    let mut numbers = rest
        .split(['-', '.', '@', ':'])
        .filter(|p| !p.is_empty() && p.len() <= 2 && p.bytes().all(|b| b.is_ascii_digit()))
        .filter_map(|p| p.parse::<u32>().ok());
    let major = numbers.next()?;
    Some((major, numbers.next().unwrap_or(0)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_of_every_naming_scheme() {
        assert_eq!(
            claude_generation("claude-sonnet-4-5-20250929"),
            Some((4, 5))
        );
        assert_eq!(claude_generation("claude-opus-5"), Some((5, 0)));
        assert_eq!(claude_generation("claude-3-5-haiku-latest"), Some((3, 5)));
        assert_eq!(
            claude_generation("us.anthropic.claude-opus-4-8-v1:0"),
            Some((4, 8))
        );
        assert_eq!(claude_generation("claude"), None);
    }
}
