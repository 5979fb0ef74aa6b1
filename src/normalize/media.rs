//! Media the target can take, in a form it accepts.
//!
//! - A type the target cannot carry becomes a short text note (never an empty message).
//! - Base64 data that is not valid base64, or an "image" whose bytes are no JPEG, PNG, GIF or
//!   WebP, becomes a note: the provider would reject the whole request (ANT-19).
//! - An image whose bytes say another image type than its MIME type gets the real type
//!   ("Image does not match the provided media type").
//! - An image over Anthropic's 5 MB limit becomes a note when rendering for Anthropic.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Item, Msg};
use crate::model::media_data::{base64_decoded_len, base64_prefix, sniff_image};
use crate::model::{Block, MediaBlock, MediaEncoding, TextBlock};
use crate::providers::common::split_data_url;
use crate::providers::Provider;

/// Image types every supported provider takes.
pub const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// Anthropic's limit on one base64 image, in decoded bytes.
pub const ANTHROPIC_MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;

fn canonical_mime(mime: &str) -> String {
    let m = mime.to_ascii_lowercase();
    if m == "image/jpg" {
        "image/jpeg".into()
    } else {
        m
    }
}

/// Whether `target` can carry this media type and encoding (in user content or a tool result).
pub fn supported(target: Provider, m: &MediaBlock) -> bool {
    let mime = canonical_mime(&m.mime_type);
    if IMAGE_TYPES.contains(&mime.as_str()) {
        return true;
    }
    match target {
        Provider::Anthropic => mime == "application/pdf",
        Provider::OpenAiChat => {
            m.encoding == MediaEncoding::Base64
                && matches!(
                    mime.as_str(),
                    "application/pdf" | "audio/wav" | "audio/mpeg" | "audio/mp3"
                )
        }
        _ => false,
    }
}

/// What has to happen to one media block.
enum Verdict {
    Keep,
    Retype(String),
    Note(String),
}

/// Checks the bytes of base64 media (plain or in a `data:` URL).
fn check_bytes(target: Provider, m: &MediaBlock) -> Verdict {
    let (declared, payload) = match m.encoding {
        MediaEncoding::Base64 => (canonical_mime(&m.mime_type), m.data.as_str()),
        MediaEncoding::Url => match split_data_url(&m.data) {
            Some((mime, data)) => (canonical_mime(mime), data),
            None => return Verdict::Keep, // a remote URL: the provider fetches it
        },
    };
    let len = match base64_decoded_len(payload) {
        Ok(n) => n,
        Err(why) => return Verdict::Note(format!("its data is not valid base64 ({why})")),
    };
    if !declared.starts_with("image/") {
        return Verdict::Keep;
    }
    if target == Provider::Anthropic && len > ANTHROPIC_MAX_IMAGE_BYTES {
        return Verdict::Note(format!(
            "it is {len} bytes, over Anthropic's 5 MB image limit"
        ));
    }
    match sniff_image(&base64_prefix(payload)) {
        Some(actual) if actual == declared => Verdict::Keep,
        Some(actual) => Verdict::Retype(actual.to_string()),
        None => Verdict::Note("its bytes are not a JPEG, PNG, GIF or WebP image".into()),
    }
}

fn note_text(media: &MediaBlock) -> String {
    let name = media
        .filename
        .as_deref()
        .map(|f| format!(" `{f}`"))
        .unwrap_or_default();
    let url = match media.encoding {
        MediaEncoding::Url if !media.data.starts_with("data:") => format!(" at {}", media.data),
        _ => String::new(),
    };
    let caption = media
        .caption
        .as_deref()
        .map(|c| format!(": {c}"))
        .unwrap_or_default();
    format!(
        "[{} attachment{name}{url} not shown{caption}]",
        media.mime_type
    )
}

/// A caption has no field in any provider's media part: it travels as text right after it.
fn caption_item(media: &MediaBlock, origin: Option<(usize, usize)>) -> Option<Item> {
    let caption = media.caption.as_deref().filter(|c| !c.trim().is_empty())?;
    Some(Item {
        block: Block::Text(TextBlock::new(caption.to_string())),
        origin,
    })
}

pub(crate) fn project(msgs: Vec<Msg>, target: Provider, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    msgs.into_iter()
        .map(|mut m| {
            let mut items = Vec::with_capacity(m.items.len());
            for mut item in std::mem::take(&mut m.items) {
                let Block::Media(media) = &mut item.block else {
                    items.push(item);
                    continue;
                };
                let verdict = if supported(target, media) {
                    check_bytes(target, media)
                } else {
                    Verdict::Note(format!("{target} cannot take {} attachments", media.mime_type))
                };
                match verdict {
                    Verdict::Keep => {}
                    Verdict::Retype(actual) => {
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::MediaTypeCorrected,
                                FaultClass::CanonicalState,
                                format!(
                                    "media at {} says {} but its bytes are {actual}; sent as {actual}",
                                    describe(item.origin),
                                    media.mime_type
                                ),
                            )
                            .at(item.origin),
                        );
                        if let Some((_, payload)) = split_data_url(&media.data) {
                            media.data = format!("data:{actual};base64,{payload}");
                        }
                        media.mime_type = actual;
                    }
                    Verdict::Note(why) => {
                        diags.push(
                            Diagnostic::new(
                                DiagnosticCode::BlockOmitted,
                                FaultClass::ProviderProjection,
                                format!(
                                    "{} media at {} cannot be sent: {why}; replaced by a text note",
                                    media.mime_type,
                                    describe(item.origin)
                                ),
                            )
                            .at(item.origin),
                        );
                        item.block = Block::Text(TextBlock::new(note_text(media)));
                        items.push(item);
                        continue;
                    }
                }
                let caption = caption_item(media, item.origin);
                items.push(item);
                items.extend(caption);
            }
            m.items = items;
            m
        })
        .collect()
}
