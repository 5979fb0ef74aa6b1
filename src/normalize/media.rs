//! Media the target cannot take becomes a short text note (never an empty message).

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::work::{describe, Msg};
use crate::model::{Block, MediaBlock, MediaEncoding, TextBlock};
use crate::providers::Provider;

/// Image types every supported provider takes.
pub const IMAGE_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];

/// Whether `target` can carry this media block (in user content or a tool result).
pub fn supported(target: Provider, m: &MediaBlock) -> bool {
    let mime = m.mime_type.to_ascii_lowercase();
    let mime = if mime == "image/jpg" {
        "image/jpeg".to_string()
    } else {
        mime
    };
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

pub(crate) fn project(msgs: Vec<Msg>, target: Provider, diags: &mut Vec<Diagnostic>) -> Vec<Msg> {
    msgs.into_iter()
        .map(|mut m| {
            for item in &mut m.items {
                let Block::Media(media) = &item.block else {
                    continue;
                };
                if supported(target, media) {
                    continue;
                }
                let name = media
                    .filename
                    .as_deref()
                    .map(|f| format!(" `{f}`"))
                    .unwrap_or_default();
                let caption = media
                    .caption
                    .as_deref()
                    .map(|c| format!(": {c}"))
                    .unwrap_or_default();
                let note = format!("[{} attachment{name} not shown{caption}]", media.mime_type);
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::BlockOmitted,
                        FaultClass::ProviderProjection,
                        format!(
                            "{} media at {} cannot be sent to {target}; replaced by a text note",
                            media.mime_type,
                            describe(item.origin)
                        ),
                    )
                    .at(item.origin),
                );
                item.block = Block::Text(TextBlock::new(note));
            }
            m
        })
        .collect()
}
