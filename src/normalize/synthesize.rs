//! Continuity the target requires but the history lacks, supplied as documented placeholders
//! (every one a diagnostic):
//!
//! - Gemini 3 (GEM-05): the first function call of each step of the current tool loop carries
//!   a thought signature. Calls another model made get the placeholder Google documents for
//!   history it did not produce (GEM-07) — in every turn, not only the current one: Gemini
//!   checks only the current turn, but a call that carried the placeholder while its turn was
//!   current keeps it afterwards, so the next request repeats the previous one's bytes and its
//!   cached prefix holds (implicit caching).
//! - DeepSeek thinking mode (DSK-03) and Kimi thinking models (KIM-03): every assistant message
//!   with tool calls carries `reasoning_content`. A message with no
//!   reasoning text at all gets an empty one (whether DeepSeek accepts the empty string for
//!   history another provider produced is an open question in provider-rules.md §10; it is the
//!   only value that does not invent reasoning).

use super::options::{NormalizeOptions, Profile};
use super::thinking::required_reasoning;
use super::work::{describe_message, Item, Msg};
use crate::model::{Block, ProviderMeta, Speaker, ThinkingBlock};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// The thought signature Gemini documents for function calls it did not produce.
pub const GEMINI_PLACEHOLDER_SIGNATURE: &str = "skip_thought_signature_validator";

/// The wire field reasoning text is sent in by `reasoning_content` targets.
pub const REASONING_CONTENT_FIELD: &str = "reasoning_content";

pub(crate) fn supply(
    mut msgs: Vec<Msg>,
    opts: &NormalizeOptions,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Msg> {
    let profile = Profile::for_options(opts);
    if profile.placeholder_signatures {
        for m in msgs.iter_mut().filter(|m| m.speaker == Speaker::Ai) {
            let origin = m.origin;
            let Some(first_call) = m.items.iter_mut().find_map(|i| match &mut i.block {
                Block::ToolCall(c) => Some(c),
                _ => None,
            }) else {
                continue;
            };
            if first_call.meta.is_none() {
                first_call.meta = Some(ProviderMeta::GeminiThoughtSignature {
                    thought_signature: GEMINI_PLACEHOLDER_SIGNATURE.to_string(),
                });
                diags.push(
                    Diagnostic::new(
                        DiagnosticCode::ContinuitySynthesized,
                        FaultClass::ProviderProjection,
                        format!(
                            "call `{}` in {} opens a step of a tool loop without a thought signature from {}; it carries Gemini's documented placeholder",
                            first_call.id,
                            describe_message(origin),
                            opts.model
                        ),
                    )
                    .at_message(origin)
                    .call(first_call.id.clone()),
                );
            }
        }
    }
    for i in required_reasoning(&msgs, profile) {
        let Some(m) = msgs.get_mut(i) else { continue };
        if m.items
            .iter()
            .any(|it| matches!(it.block, Block::Thinking(_)))
        {
            continue;
        }
        diags.push(
            Diagnostic::new(
                DiagnosticCode::ContinuitySynthesized,
                FaultClass::ProviderProjection,
                format!(
                    "{} needs reasoning_content on the tool-call turn in {}, which has no reasoning text; an empty one is sent",
                    opts.target,
                    describe_message(m.origin)
                ),
            )
            .at_message(m.origin),
        );
        m.items.insert(
            0,
            Item {
                detached: false,
                block: Block::Thinking(ThinkingBlock {
                    source_field: Some(REASONING_CONTENT_FIELD.to_string()),
                    ..ThinkingBlock::default()
                }),
                origin: None,
            },
        );
    }
    msgs
}
