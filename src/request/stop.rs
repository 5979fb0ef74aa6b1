//! Stop sequences: what each provider takes of `stopSequences`, and a diagnostic naming each
//! one left out ([`super::controls`] resolves them with the other request controls).

use super::controls::note;
use super::options::RenderOptions;
use crate::models::ModelCaps;
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode};

impl RenderOptions {
    /// The stop sequences the provider takes, with a note for each one left out.
    pub(super) fn stop_sequences(
        &self,
        caps: ModelCaps,
        notes: &mut Vec<Diagnostic>,
    ) -> Vec<String> {
        if self.stop_sequences.is_empty() {
            return Vec::new();
        }
        let target = self.provider;
        if target == Provider::OpenAiResponses
            || (target == Provider::OpenAiChat && caps.fixed_sampling)
        {
            notes.push(note(
                DiagnosticCode::StopSequencesAdjusted,
                format!(
                    "{} takes no stop sequences; {} left out of this request",
                    if target == Provider::OpenAiResponses {
                        "OpenAI Responses".to_string()
                    } else {
                        self.model.clone()
                    },
                    count(self.stop_sequences.len())
                ),
            ));
            return Vec::new();
        }
        let (max_count, max_len) = target.stop_limits();
        let mut kept: Vec<String> = Vec::new();
        for (i, s) in self.stop_sequences.iter().enumerate() {
            let why = if s.is_empty() {
                Some("it is empty".to_string())
            } else if target == Provider::Anthropic && s.trim().is_empty() {
                Some("Anthropic needs a character that is not whitespace (ANT-38)".to_string())
            } else if max_len.is_some_and(|m| s.len() > m) {
                Some(format!(
                    "{target} takes at most {} bytes each",
                    max_len.unwrap_or_default()
                ))
            } else if kept.contains(s) {
                Some("it repeats an earlier one".to_string())
            } else if max_count.is_some_and(|m| kept.len() >= m) {
                Some(format!(
                    "{target} takes at most {}",
                    max_count.unwrap_or_default()
                ))
            } else {
                None
            };
            match why {
                Some(why) => notes.push(
                    note(
                        DiagnosticCode::StopSequencesAdjusted,
                        format!("stop sequence {i} ({s:?}) was left out: {why}"),
                    )
                    .at_path(format!("$.stopSequences[{i}]")),
                ),
                None => kept.push(s.clone()),
            }
        }
        kept
    }
}

fn count(n: usize) -> String {
    if n == 1 {
        "the stop sequence was".into()
    } else {
        format!("the {n} stop sequences were")
    }
}
