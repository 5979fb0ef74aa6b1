//! Values several formats share: media given by URL (a data URL or an address) and tool-call
//! arguments given as JSON text.

use serde_json::Value;

use super::context::Reader;
use crate::model::{split_data_url, MediaBlock, MediaEncoding};

/// A data URL is inline base64 with its media type; another URL keeps its address, its media
/// type inferred from the extension (reported as `import_converted`).
pub(crate) fn url_media(r: &mut Reader, url: &str, image: bool, at: &str) -> MediaBlock {
    if let Some((mime, data)) = split_data_url(url) {
        return MediaBlock::new(mime, data, MediaEncoding::Base64);
    }
    let mime = media_type_of_url(url, image);
    r.note(
        at,
        format!("a URL part names no media type; `{mime}` was taken from the URL"),
    );
    MediaBlock::new(mime, url, MediaEncoding::Url)
}

/// Tool-call arguments: JSON text is parsed; text that is not JSON is kept as it is (the
/// normaliser converts it and says so); any other value is taken as it is.
pub(crate) fn arguments(value: Option<&Value>, at: &str) -> Option<Value> {
    match value {
        Some(Value::String(text)) => Some(
            crate::json::parse(text, at, "the arguments")
                .map_or_else(|_| Value::String(text.clone()), |p| p.value),
        ),
        other => other.cloned(),
    }
}

/// The media type of a URL by its extension (`image/*` formats, PDF), for formats whose URL
/// parts carry none.
pub(crate) fn media_type_of_url(url: &str, image: bool) -> &'static str {
    let path = url
        .split(['?', '#'])
        .next()
        .unwrap_or(url)
        .to_ascii_lowercase();
    let ext = path.rsplit('.').next().unwrap_or_default();
    match ext {
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "pdf" => "application/pdf",
        "txt" => "text/plain",
        _ if image => "image/jpeg",
        _ => "application/pdf",
    }
}
