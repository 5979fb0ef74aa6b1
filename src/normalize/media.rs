//! Media the target can take, in a form it accepts.
//!
//! - A type the target cannot carry becomes a short text note (never an empty message).
//! - Base64 data that is not valid base64, or an "image" whose bytes are no JPEG, PNG, GIF or
//!   WebP, becomes a note: the provider would reject the whole request (ANT-19).
//! - An image whose bytes say another image type than its MIME type gets the real type
//!   ("Image does not match the provided media type").
//! - An image over Anthropic's 5 MB limit becomes a note when rendering for Anthropic.

use super::options::NormalizeOptions;
use super::work::{describe, Item, Msg};
use crate::model::media_data::{base64_decoded_len, base64_prefix, sniff_image};
use crate::model::split_data_url;
use crate::model::{Block, MediaBlock, MediaEncoding, TextBlock};
use crate::vocab::{Audio, Carry, Images, Provider};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

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

/// Whether the target can carry this media type and encoding (in user content or a tool
/// result).
pub fn supported(opts: &NormalizeOptions, m: &MediaBlock) -> bool {
    let mime = canonical_mime(&m.mime_type);
    let image = IMAGE_TYPES.contains(&mime.as_str());
    let base64 = m.encoding == MediaEncoding::Base64 || split_data_url(&m.data).is_some();
    let remote = !base64;
    let s = opts.target.media();
    let sent = |carry: Carry| match carry {
        Carry::No => false,
        Carry::Inline => base64,
        Carry::Any => base64 || remote,
    };
    let images = match s.images {
        Images::No => false,
        Images::Yes => true,
        Images::OptIn => opts.compat_images,
    };
    (image && images && (base64 || s.remote))
        || (mime == "application/pdf" && sent(s.pdf) && (base64 || s.remote))
        || match s.audio {
            Audio::No => false,
            Audio::Inline(types) => base64 && types.contains(&mime.as_str()),
            Audio::AnyInline => base64 && mime.starts_with("audio/"),
        }
        || (s.video && base64 && mime.starts_with("video/"))
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
            None if m.data.starts_with("data:") => {
                return Verdict::Note("its data: URL is not base64-encoded".into())
            }
            // a remote URL: the provider fetches it
            None if m.data.starts_with("https://") || m.data.starts_with("http://") => {
                return Verdict::Keep
            }
            None => return Verdict::Note("its URL is neither http(s) nor a data: URL".into()),
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
        detached: false,
        block: Block::Text(TextBlock::new(caption.to_string())),
        origin,
    })
}

pub(crate) fn project(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let target = opts.target;
    msgs.into_iter()
        .map(|mut m| {
            let mut items = Vec::with_capacity(m.items.len());
            for mut item in std::mem::take(&mut m.items) {
                let Block::Media(media) = &mut item.block else {
                    items.push(item);
                    continue;
                };
                let verdict = if supported(opts, media) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::normalize::test_support::*;
    use serde_json::{json, Value};

    /// The first bytes of a JPEG (`FF D8 FF E0 00 10`).
    const JPEG: &str = "/9j/4AAQ";

    fn media(mime: &str, data: &str) -> Value {
        json!({"type": "media", "mimeType": mime, "data": data})
    }

    fn run(target: Provider, blocks: Value) -> (Vec<Msg>, Vec<String>) {
        let mut diags = Vec::new();
        let out = project(
            msgs(json!([{"speaker": "human", "blocks": blocks}])),
            &crate::normalize::NormalizeOptions::new(target, "m"),
            &mut diags,
        );
        let c = codes(&diags);
        (out, c)
    }

    fn media_at(out: &[Msg], b: usize) -> MediaBlock {
        match block(out, 0, b) {
            Block::Media(m) => m.clone(),
            other => panic!("expected media, found {other:?}"),
        }
    }

    #[test]
    fn supported_images_and_remote_urls_kept_as_they_are() {
        for target in [Provider::Anthropic, Provider::OpenAiChat] {
            let (out, c) = run(
                target,
                json!([
                    png(),
                    media("image/jpg", JPEG),
                    media("IMAGE/PNG", &format!("data:image/png;base64,{PNG}")),
                    media("image/png", "https://example.com/not-even-a-png.txt")
                ]),
            );
            assert_eq!(
                shape(&out),
                ["human: media(image/png) media(image/jpg) media(IMAGE/PNG) media(image/png)"]
            );
            assert_eq!(c, NO_CODES, "{target}");
        }
    }

    #[test]
    fn unsupported_type_becomes_a_note() {
        let (out, c) = run(
            Provider::Anthropic,
            json!([{"type": "media", "mimeType": "video/mp4", "data": "AAAA", "filename": "clip.mp4"}]),
        );
        assert_eq!(shape(&out), ["human: text"]);
        assert_eq!(texts(&out), ["[video/mp4 attachment `clip.mp4` not shown]"]);
        assert_eq!(c, ["block_omitted"]);
    }

    #[test]
    fn pdf_support_depends_on_target_and_encoding() {
        let blocks = json!([
            media("application/pdf", "JVBERi0x"),
            media("application/pdf", "https://example.com/doc.pdf")
        ]);
        let (out, c) = run(Provider::Anthropic, blocks.clone());
        assert_eq!(
            shape(&out),
            ["human: media(application/pdf) media(application/pdf)"]
        );
        assert_eq!(c, NO_CODES);

        let (out, c) = run(Provider::OpenAiChat, blocks);
        assert_eq!(shape(&out), ["human: media(application/pdf) text"]);
        assert_eq!(
            texts(&out),
            ["[application/pdf attachment at https://example.com/doc.pdf not shown]"]
        );
        assert_eq!(c, ["block_omitted"]);
    }

    #[test]
    fn wrong_image_type_corrected_from_the_bytes() {
        let (out, c) = run(
            Provider::Anthropic,
            json!([
                media("image/jpeg", PNG),
                media("image/gif", &format!("data:image/jpeg;base64,{PNG}"))
            ]),
        );
        assert_eq!(shape(&out), ["human: media(image/png) media(image/png)"]);
        assert_eq!(media_at(&out, 0).data, PNG);
        assert_eq!(
            media_at(&out, 1).data,
            format!("data:image/png;base64,{PNG}")
        );
        assert_eq!(c, ["media_type_corrected", "media_type_corrected"]);
    }

    #[test]
    fn invalid_base64_becomes_a_note() {
        let (out, c) = run(
            Provider::OpenAiChat,
            json!([
                media("image/png", "not base64!"),
                media("image/png", "data:image/png;base64,iVBORw0KGgo"),
                media("application/pdf", "%PDF")
            ]),
        );
        assert_eq!(shape(&out), ["human: text text text"]);
        assert_eq!(c, ["block_omitted", "block_omitted", "block_omitted"]);
        assert_eq!(texts(&out)[0], "[image/png attachment not shown]");
    }

    #[test]
    fn image_bytes_of_no_known_type_become_a_note() {
        let mut diags = Vec::new();
        let out = project(
            msgs(json!([{"speaker": "human", "blocks": [media("image/png", "AAAA")]}])),
            &crate::normalize::NormalizeOptions::new(Provider::Anthropic, "m"),
            &mut diags,
        );
        assert_eq!(shape(&out), ["human: text"]);
        assert_eq!(codes(&diags), ["block_omitted"]);
        assert!(
            diags[0]
                .message
                .contains("not a JPEG, PNG, GIF or WebP image"),
            "{}",
            diags[0].message
        );
    }

    #[test]
    fn caption_becomes_text_after_the_media_or_part_of_its_note() {
        let (out, c) = run(
            Provider::Anthropic,
            json!([
                {"type": "media", "mimeType": "image/png", "data": PNG, "caption": "a dot"},
                {"type": "media", "mimeType": "image/png", "data": PNG, "caption": "  "},
                {"type": "media", "mimeType": "video/mp4", "data": "AAAA", "caption": "a film"}
            ]),
        );
        assert_eq!(
            shape(&out),
            ["human: media(image/png) text media(image/png) text"]
        );
        assert_eq!(
            texts(&out),
            ["a dot", "[video/mp4 attachment not shown: a film]"]
        );
        assert_eq!(c, ["block_omitted"]);
    }

    #[test]
    fn oversize_image_becomes_a_note_only_for_anthropic() {
        // a PNG signature followed by zero bytes, just over 5 MB decoded
        let len = (ANTHROPIC_MAX_IMAGE_BYTES / 3 + 1) * 4;
        let data = format!("iVBORw0KGgoA{}", "A".repeat(len - 12));
        let blocks = json!([media("image/png", &data)]);
        let (out, c) = run(Provider::OpenAiChat, blocks.clone());
        assert_eq!(shape(&out), ["human: media(image/png)"]);
        assert_eq!(c, NO_CODES);
        let (out, c) = run(Provider::Anthropic, blocks);
        assert_eq!(shape(&out), ["human: text"]);
        assert_eq!(c, ["block_omitted"]);
    }
}
