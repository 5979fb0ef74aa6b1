//! JSON nested deeper than serde_json's own limit (128), up to [`MAX_DEPTH`]: agents store tool
//! arguments and results that deep (ASTs, nested configs). The clean path is serde_json alone;
//! only a document it refused for its depth is measured (one pass over its bytes) and, within
//! the limit, parsed again without serde_json's limit.

use serde::Deserialize;
use serde_json::de::StrRead;
use serde_json::Value;

use super::locate::string_end;

/// The deepest nesting of arrays and objects a JSON text may have, in every reader and stream
/// decoder. A deeper document is an `invalid_json` error naming the path where it went too
/// deep.
pub const MAX_DEPTH: usize = 512;

/// Why a text did not parse.
#[derive(Debug)]
pub(crate) enum DeepError {
    /// serde_json's error (syntax, or a surrogate it refuses).
    Json(serde_json::Error),
    /// The nesting goes past [`MAX_DEPTH`] at this byte offset.
    TooDeep(usize),
}

impl std::fmt::Display for DeepError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DeepError::Json(e) => write!(f, "{e}"),
            DeepError::TooDeep(at) => write!(
                f,
                "arrays and objects nested deeper than {MAX_DEPTH} levels (byte {at})"
            ),
        }
    }
}

/// Parses JSON text nested up to [`MAX_DEPTH`] levels.
pub(crate) fn from_str(text: &str) -> Result<Value, DeepError> {
    from_str_with(text, |de| Value::deserialize(de))
}

/// Reads JSON text with `read` (one whole document, nested up to [`MAX_DEPTH`] levels): what
/// [`from_str`] does for a `Value`, for readers that build their own types from the text.
pub(crate) fn from_str_with<T>(
    text: &str,
    read: impl for<'d> Fn(&mut serde_json::Deserializer<StrRead<'d>>) -> Result<T, serde_json::Error>,
) -> Result<T, DeepError> {
    let mut de = serde_json::Deserializer::from_str(text);
    match read(&mut de).and_then(|v| de.end().map(|()| v)) {
        Ok(v) => Ok(v),
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            if let Some(at) = too_deep_at(text.as_bytes(), MAX_DEPTH) {
                return Err(DeepError::TooDeep(at));
            }
            let mut de = serde_json::Deserializer::from_str(text);
            de.disable_recursion_limit();
            let value = read(&mut de).map_err(DeepError::Json)?;
            de.end().map_err(DeepError::Json)?;
            Ok(value)
        }
        Err(e) => Err(DeepError::Json(e)),
    }
}

/// The byte offset where the nesting of arrays and objects (outside strings) first goes past
/// `max` levels, if it does.
pub(crate) fn too_deep_at(text: &[u8], max: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = 0;
    while let Some(&b) = text.get(i) {
        match b {
            b'"' => {
                i = string_end(text, i);
                continue;
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nested(levels: usize) -> String {
        format!("{}1{}", "[".repeat(levels), "]".repeat(levels))
    }

    #[test]
    fn past_serde_json_limit_up_to_max_depth_parses() {
        assert!(from_str(&nested(200)).is_ok());
        assert!(from_str(&nested(MAX_DEPTH)).is_ok());
        let too_deep = from_str(&nested(MAX_DEPTH + 1));
        assert!(matches!(too_deep, Err(DeepError::TooDeep(at)) if at == MAX_DEPTH));
    }

    #[test]
    fn brackets_inside_strings_do_not_count() {
        let text = format!(r#"{{"a": "{}\"[[", "b": 1}}"#, "[".repeat(1000));
        assert_eq!(too_deep_at(text.as_bytes(), 2), None);
        assert!(from_str(&text).is_ok());
    }
}
