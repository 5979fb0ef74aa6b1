//! Media returned by tools, for targets whose tool results cannot carry it (OpenAI Chat and
//! the chat dialects: OAC-07, images only in user messages; Gemini 2.x; Gemini 3 for media
//! types `functionResponse.parts` refuses). The media moves into a user message right after
//! the tool results, each group labelled with the call it came from; the results keep their
//! text. Anthropic and OpenAI Responses take any media inside the result, Gemini 3 images, PDF
//! and plain text.

use super::options::{NormalizeOptions, Profile, ToolResultMedia};
use super::work::{Item, Msg};
use crate::model::{Block, Speaker, TextBlock};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Whether a tool message holds media its results cannot carry: of a type the target refuses
/// there, or before any result (no result to carry it).
fn has_media_to_move(items: &[Item], takes: ToolResultMedia) -> bool {
    let mut after_result = false;
    for i in items {
        match &i.block {
            Block::ToolResponse(_) => after_result = true,
            Block::Media(media) if !after_result || !takes.takes(&media.mime_type) => return true,
            _ => {}
        }
    }
    false
}

pub(crate) fn place(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let takes = Profile::for_options(opts).tool_result_media;
    if takes == ToolResultMedia::Any {
        return msgs;
    }
    let mut out = Vec::with_capacity(msgs.len());
    for mut m in msgs {
        if m.speaker != Speaker::Tool || !has_media_to_move(&m.items, takes) {
            out.push(m);
            continue;
        }
        let mut kept = Vec::with_capacity(m.items.len());
        let mut moved: Vec<Item> = Vec::new();
        let mut current: Option<(String, String)> = None; // (call id, tool name)
        let mut labelled: Option<String> = None;
        for item in std::mem::take(&mut m.items) {
            match &item.block {
                Block::ToolResponse(r) => {
                    current = Some((
                        r.call_id.clone(),
                        r.tool_name.clone().unwrap_or_else(|| "tool".into()),
                    ));
                    kept.push(item);
                }
                Block::Media(media) if current.is_none() || !takes.takes(&media.mime_type) => {
                    let (call, tool) = current.clone().unwrap_or_default();
                    if labelled.as_deref() != Some(call.as_str()) {
                        let label = if call.is_empty() {
                            "Attachment returned with the tool results above:".to_string()
                        } else {
                            format!("Attachment returned by the `{tool}` tool call above:")
                        };
                        moved.push(Item {
                            detached: false,
                            block: Block::Text(TextBlock::new(label)),
                            origin: None,
                        });
                        labelled = Some(call.clone());
                    }
                    let why = if call.is_empty() {
                        "in a tool message before any result has no result to go in".to_string()
                    } else {
                        format!(
                            "returned by call `{call}` cannot be in a tool result for {} `{}`",
                            opts.target, opts.model
                        )
                    };
                    let d = Diagnostic::new(
                        DiagnosticCode::MediaMoved,
                        FaultClass::ProviderProjection,
                        format!(
                            "{} {why}; sent in a user message after the tool results",
                            media.mime_type
                        ),
                    )
                    .at(item.origin);
                    diags.push(if call.is_empty() { d } else { d.call(call) });
                    moved.push(item);
                }
                _ => kept.push(item),
            }
        }
        let user = m.sibling(Speaker::Human, moved);
        m.items = kept;
        out.push(m);
        out.push(user);
    }
    out
}
