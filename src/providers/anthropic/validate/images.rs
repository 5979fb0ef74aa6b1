//! `ANT-19` on image blocks: source shape, media type, base64 data, size and leading bytes.

use serde_json::{Map, Value};

use super::STRUCT;
use crate::model::media_data::{base64_decoded_len, base64_prefix, sniff_image};
use crate::providers::validate_support::{Findings, Path};

/// Maximum decoded size of a base64 image.
const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

/// Accepted image media types.
const IMAGE_MEDIA_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// ANT-19 and shape checks for an image block.
pub(super) fn check_image(block: &Value, path: &Path, out: &mut Findings) {
    let spath = path.k("source");
    let Some(source) = block.get("source").and_then(Value::as_object) else {
        out.push(STRUCT, spath, "image block needs a `source` object");
        return;
    };
    match source.get("type").and_then(Value::as_str) {
        Some("base64") => check_base64_image(source, &spath, out),
        Some("url") => {
            if source
                .get("url")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(
                    STRUCT,
                    spath.k("url"),
                    "image source.url must be a non-empty string",
                );
            }
        }
        Some("file") => {
            if source
                .get("file_id")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(
                    STRUCT,
                    spath.k("file_id"),
                    "image source.file_id must be a non-empty string",
                );
            }
        }
        _ => out.push(
            STRUCT,
            spath.k("type"),
            "image source.type must be \"base64\", \"url\" or \"file\"",
        ),
    }
}

/// ANT-19 on a base64 source: media type, alphabet and padding, size, leading bytes.
fn check_base64_image(source: &Map<String, Value>, spath: &Path, out: &mut Findings) {
    let media = source.get("media_type").and_then(Value::as_str);
    let media = match media {
        Some(m) if IMAGE_MEDIA_TYPES.contains(&m) => Some(m),
        _ => {
            out.push(
                "ANT-19",
                spath.k("media_type"),
                "image media_type must be one of image/jpeg, image/png, image/gif, image/webp",
            );
            None
        }
    };
    let dpath = spath.k("data");
    let Some(data) = source.get("data").and_then(Value::as_str) else {
        out.push(STRUCT, dpath, "image source.data must be a base64 string");
        return;
    };
    let decoded_len = match base64_decoded_len(data) {
        Ok(n) => n,
        Err(why) => {
            out.push(
                "ANT-19",
                dpath,
                format!("image data is not valid base64: {why}"),
            );
            return;
        }
    };
    if decoded_len > MAX_IMAGE_BYTES {
        out.push(
            "ANT-19",
            dpath,
            format!("image exceeds 5 MB maximum: {decoded_len} bytes > {MAX_IMAGE_BYTES} bytes"),
        );
        return;
    }
    let Some(media) = media else {
        return;
    };
    match sniff_image(&base64_prefix(data)) {
        Some(actual) if actual == media => {}
        Some(_) => out.push(
            "ANT-19",
            dpath,
            format!("Image does not match the provided media type {media}"),
        ),
        None => out.push(
            "ANT-19",
            dpath,
            format!(
                "Image does not match the provided media type {media} (data is not a JPEG, \
                 PNG, GIF or WebP image)"
            ),
        ),
    }
}
