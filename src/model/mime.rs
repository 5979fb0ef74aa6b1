//! Media types as providers want them written.

/// The media type with `image/jpg` spelled as providers want it.
pub(crate) fn media_type(mime: &str) -> String {
    let m = mime.to_ascii_lowercase();
    if m == "image/jpg" {
        "image/jpeg".into()
    } else {
        m
    }
}

/// The essence of a media type, as [`media_type`] writes it: parameters left out
/// (`text/plain; charset=utf-8` → `text/plain`), lower case, `image/jpg` → `image/jpeg`.
pub(crate) fn media_essence(mime: &str) -> String {
    media_type(mime.split(';').next().unwrap_or_default().trim())
}
