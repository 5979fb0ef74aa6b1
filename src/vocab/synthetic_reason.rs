//! Why turnwire made up a tool completion.

/// Why turnwire made up a tool completion. The string form is stable.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum SyntheticReason {
    /// The conversation moved on without any result for the call (cancelled, lost).
    MissingResult,
    /// Only a pending (never completed) response existed.
    PendingResult,
    /// The call is still open at the end of the history being rendered.
    OpenAtEnd,
    /// A call reconstructed for a result whose call was lost (compaction).
    ReconstructedCall,
    /// The call's result was removed when the history was compacted (its summary says so).
    Compacted,
}

impl SyntheticReason {
    /// The stable string form.
    pub const fn as_str(self) -> &'static str {
        match self {
            SyntheticReason::MissingResult => "missing_result",
            SyntheticReason::PendingResult => "pending_result",
            SyntheticReason::OpenAtEnd => "open_at_end",
            SyntheticReason::ReconstructedCall => "reconstructed_call",
            SyntheticReason::Compacted => "compacted",
        }
    }

    /// Parses the stable string form.
    pub fn parse(s: &str) -> Option<SyntheticReason> {
        Some(match s {
            "missing_result" => SyntheticReason::MissingResult,
            "pending_result" => SyntheticReason::PendingResult,
            "open_at_end" => SyntheticReason::OpenAtEnd,
            "reconstructed_call" => SyntheticReason::ReconstructedCall,
            "compacted" => SyntheticReason::Compacted,
            _ => return None,
        })
    }
}
