//! Exporters: the canonical transcript written back in another library's history shape, so a
//! repaired history can be handed to that library and stored.

mod ai_sdk;
mod pi_ai;

pub use crate::import::pi_ai_keys::{CALL_ID, PROVENANCE, STRUCTURED_RESULT, TOKEN_KIND};
pub use ai_sdk::to_ai_sdk;
pub use pi_ai::{to_pi_ai, PiAiContext};

use serde_json::Value;

use crate::error::Error;
use crate::import::{from_ai_sdk, ImportSource};
use crate::model::{Block, Message, Speaker, TextBlock, Transcript};
use crate::normalize::normalize;
use crate::request::RenderOptions;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// What an exporter wrote: the messages in the library's shape, and what it left out.
#[derive(Debug, Clone, PartialEq)]
pub struct Exported {
    /// The messages.
    pub messages: Vec<Value>,
    /// Blocks the shape has no place for (`block_omitted`), and, for a repair, every repair.
    pub diagnostics: Vec<Diagnostic>,
    /// For a repair: each call id of the input → the id written, in the target's id format
    /// (what its API accepts), in call order; empty for a plain export.
    pub id_map: Vec<(String, String)>,
    /// For a repair: each tool name `options.tools` declares that the target's API refuses →
    /// the name written instead (in the messages' calls and results too); map the model's calls
    /// back through it. Empty for a plain export.
    pub tool_names: Vec<(String, String)>,
}

/// Repairs AI SDK `ModelMessage[]` for the model `options` names, as a render for it would,
/// and writes them back as `ModelMessage[]`: every tool call answered right after it (no
/// `MissingToolResultsError`), continuity the model cannot replay dropped or turned into text,
/// system messages first; for Gemini, an assistant turn between tool results and the user's next
/// message (the AI SDK would send them as two user contents in a row). Call ids are written in
/// the target's id format (`id_map` maps the input's to them). For code that calls
/// `generateText` / `streamText` directly.
///
/// ```
/// use turnwire::{export::repair_model_messages, import::ImportSource, Provider, RenderOptions};
/// let messages = serde_json::json!([
///   {"role": "user", "content": "list src"},
///   {"role": "assistant", "content": [{"type": "tool-call", "toolCallId": "c1", "toolName": "ls", "input": {}}]},
///   {"role": "user", "content": "never mind"}
/// ]);
/// let options = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
/// let out = repair_model_messages(&messages, &options, &ImportSource::default())?;
/// assert_eq!(out.messages[2]["role"], "tool"); // the open call got its result
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn repair_model_messages(
    messages: &Value,
    options: &RenderOptions,
    source: &ImportSource,
) -> Result<Exported, Error> {
    let imported = from_ai_sdk(messages, Some(options.provider), source)?;
    let nopts = crate::request::Resolved::of(options)?.normalize;
    let n = normalize(&imported.transcript, &nopts);
    let mut diagnostics = imported.diagnostics;
    diagnostics.extend(n.diagnostics.iter().cloned());
    let mut history = n.into_history();
    if options.provider == crate::Provider::Gemini {
        bridge_results_and_user(&mut history, &nopts.bridge_text, &mut diagnostics);
    }
    let mut out = to_ai_sdk(&history);
    diagnostics.append(&mut out.diagnostics);
    out.diagnostics = diagnostics;
    // The ids the target's API accepts, as a render for it projects them (the AI SDK's
    // providers send the history's ids as they are).
    if let Ok(rendered) = crate::render::render(&history, options) {
        out.id_map = rendered.id_map.0;
        out.tool_names = rendered.tool_names.0;
        project(&mut out.messages, "toolCallId", &out.id_map);
        project(&mut out.messages, "toolName", &out.tool_names);
    }
    Ok(out)
}

/// Rewrites `key` (`toolCallId`, `toolName`) of every part that has it through `map`.
fn project(messages: &mut [Value], key: &str, map: &[(String, String)]) {
    if map.is_empty() {
        return;
    }
    let projected: crate::fast_map::HashMap<&str, &str> =
        map.iter().map(|(c, p)| (c.as_str(), p.as_str())).collect();
    for m in messages {
        let Some(Value::Array(parts)) = m.get_mut("content") else {
            continue;
        };
        for part in parts {
            let Some(Value::String(value)) = part.get_mut(key) else {
                continue;
            };
            if let Some(p) = projected.get(value.as_str()) {
                *value = (*p).to_string();
            }
        }
    }
}

/// The AI SDK has no message for tool results and the user's next words together (Gemini's
/// render joins them in one user content), and its Google provider sends them as two user
/// contents in a row, which Gemini refuses (GEM-04): a short assistant turn goes between them.
fn bridge_results_and_user(
    history: &mut Transcript,
    text: &str,
    diagnostics: &mut Vec<Diagnostic>,
) {
    let mut i = 1;
    while i < history.messages.len() {
        let pair = (history.messages[i - 1].speaker, history.messages[i].speaker);
        if pair == (Speaker::Tool, Speaker::Human) {
            history.messages.insert(
                i,
                Message::new(Speaker::Ai, vec![Block::Text(TextBlock::new(text))]),
            );
            diagnostics.push(
                Diagnostic::new(
                    DiagnosticCode::AssistantBridgeInserted,
                    FaultClass::PairingOrdering,
                    format!("an assistant turn (`{text}`) was inserted between tool results and the user's next message: the AI SDK sends them to Gemini as two user contents in a row"),
                )
                .at_message(Some(i)),
            );
            i += 1;
        }
        i += 1;
    }
}
