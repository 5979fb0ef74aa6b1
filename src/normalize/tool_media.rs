//! Media returned by tools, for targets whose tool results cannot carry it (OpenAI Chat and
//! the chat dialects: OAC-07, images only in user messages; Gemini 2.x; Gemini 3 for media
//! types `functionResponse.parts` refuses). The media moves into a user message right after
//! the tool results, each group labelled with the call it came from; the results keep their
//! text. Anthropic and OpenAI Responses take any media inside the result, Gemini 3 images, PDF
//! and plain text.

use super::diagnostic::{Diagnostic, DiagnosticCode, FaultClass};
use super::options::{NormalizeOptions, Profile, ToolResultMedia};
use super::work::{Item, Msg};
use crate::model::{Block, Speaker, TextBlock};

pub(crate) fn place(
    msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let takes = Profile::for_options(opts).tool_result_media;
    if takes == ToolResultMedia::Any {
        return msgs;
    }
    let must_move =
        |i: &Item| matches!(&i.block, Block::Media(media) if !takes.takes(&media.mime_type));
    let mut out = Vec::with_capacity(msgs.len());
    for mut m in msgs {
        if m.speaker != Speaker::Tool || !m.items.iter().any(must_move) {
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
                Block::Media(media) if !takes.takes(&media.mime_type) => {
                    let (call, tool) = current.clone().unwrap_or_default();
                    if labelled.as_deref() != Some(call.as_str()) {
                        moved.push(Item {
                            detached: false,
                            block: Block::Text(TextBlock::new(format!(
                                "Attachment returned by the `{tool}` tool call above:"
                            ))),
                            origin: None,
                        });
                        labelled = Some(call.clone());
                    }
                    diags.push(
                        Diagnostic::new(
                            DiagnosticCode::MediaMoved,
                            FaultClass::ProviderProjection,
                            format!(
                                "{} returned by call `{call}` cannot be in a tool result for {} `{}`; sent in a user message after the tool results",
                                media.mime_type, opts.target, opts.model
                            ),
                        )
                        .at(item.origin)
                        .call(call),
                    );
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
