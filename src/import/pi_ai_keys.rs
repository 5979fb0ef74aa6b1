//! The members turnwire adds to pi-ai messages to keep what pi-ai has no place for: written by
//! `to_pi_ai` (`export/`) and read back by `from_pi_ai` (here), so the exporter depends on the
//! importer and never the reverse.

/// The member of a pi-ai text part that keeps a server-tool block for the way back.
pub(crate) const SERVER_TOOL_KEY: &str = "turnwireServerTool";

/// The member of a pi-ai `toolResult` message that keeps a structured (non-text) result.
pub const STRUCTURED_RESULT: &str = "turnwireResult";

/// The member of a pi-ai tool call that keeps a canonical id pi-ai's `call|item` reading would
/// change.
pub const CALL_ID: &str = "turnwireId";

/// The member of a pi-ai assistant message that keeps turnwire's provenance of it exactly.
pub const PROVENANCE: &str = "turnwireProvenance";

/// The member that names a continuity token's kind when the message has no provenance, so no
/// `api` says how to read it (pi-ai ignores the member; `from_pi_ai` reads it).
pub const TOKEN_KIND: &str = "turnwireMeta";

/// The member of a pi-ai text part that keeps an OpenAI Responses message `phase` (ORS-18).
pub const PHASE: &str = "turnwirePhase";

/// The member of a pi-ai tool call or `toolResult` message that keeps the OpenAI Responses
/// client-tool item behind it (ORS-19).
pub const OPENAI_ITEM: &str = "turnwireItem";

/// The member of a pi-ai thinking part that keeps OpenRouter's `reasoning_details` array whole
/// (ORT-02).
pub const REASONING_DETAILS: &str = "turnwireReasoningDetails";
