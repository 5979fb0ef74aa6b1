//! Diagnostics: every repair and every lossy projection, as typed data.

use serde::Serialize;

use super::{Pass, Provider, SyntheticReason};

/// The three fault classes of REQ-915-040.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum FaultClass {
    /// The canonical history itself is damaged (wrong speaker, duplicates, orphans, empty text).
    CanonicalState,
    /// Pairing or ordering had to be repaired (missing completions, misplaced results).
    PairingOrdering,
    /// The target provider cannot express something as it is (thinking from another model,
    /// images in tool results, role alternation, id formats).
    ProviderProjection,
}

/// A stable diagnostic code. The string form never changes.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub enum DiagnosticCode {
    /// A block was under the wrong speaker and was moved (REQ-915-047).
    SpeakerRepaired,
    /// A second identical tool call was dropped.
    DuplicateCallDropped,
    /// Two different calls shared one canonical id; the later one was given a distinct id.
    DuplicateCallIdRenamed,
    /// A second completion for the same call was dropped (REQ-915-009).
    DuplicateResultDropped,
    /// A result whose call is gone was kept as plain text.
    OrphanResultAsText,
    /// A result whose call is gone was dropped.
    OrphanResultDropped,
    /// A call was reconstructed for a result whose call is gone.
    OrphanCallReconstructed,
    /// A call had no completion; a synthetic one was added (REQ-915-011).
    SyntheticResultAdded,
    /// A result was moved next to its call (REQ-915-008).
    ResultMoved,
    /// An empty or whitespace-only text block was removed.
    EmptyTextRemoved,
    /// A message with no content left was removed.
    EmptyMessageRemoved,
    /// A completed tool result had no content; a placeholder was put in.
    EmptyResultFilled,
    /// Tool-call arguments were not a JSON object and were converted.
    ParametersNormalized,
    /// An assistant turn ended in thinking (aborted); the trailing thinking was removed.
    AbortedTurnTrimmed,
    /// Thinking the target cannot replay was dropped.
    ThinkingDropped,
    /// Thinking the target cannot replay was turned into plain text.
    ThinkingAsText,
    /// A continuity token (signature, encrypted reasoning) was not replayed.
    ContinuityDropped,
    /// Another model's thinking text was sent as reasoning because the target requires
    /// reasoning on that turn.
    ReasoningReused,
    /// The target requires a continuity artifact the history lacks; turnwire supplied the
    /// documented placeholder (Gemini 3 thought signature, empty `reasoning_content`).
    ContinuitySynthesized,
    /// The request runs with thinking off because the history requires it.
    ThinkingDisabledForRequest,
    /// Consecutive messages of the same provider role were merged.
    MessagesMerged,
    /// A user turn was inserted at the start because the provider needs one.
    LeadingUserInserted,
    /// An assistant turn was inserted between tool results and a user message (Mistral).
    AssistantBridgeInserted,
    /// A system message was moved into the provider's system slot.
    SystemHoisted,
    /// A block type the provider cannot take was left out.
    BlockOmitted,
    /// Media from a tool result was carried in a following user message.
    MediaMoved,
    /// A block moved within its message because the provider needs another order.
    BlockMoved,
    /// Media bytes did not match the declared media type; the real type was sent.
    MediaTypeCorrected,
    /// The target has no place for a request feature the options ask for (structured output
    /// on DeepSeek or Claude before 4.5, a forced tool call beside structured output on Gemini
    /// 2.x): it was left out, so the request still goes out (a failover keeps working). `path`
    /// names the option. (An unavailable server tool is `server_tool_unavailable`.)
    FeatureUnavailable,
    /// A tool name was changed to fit the provider's name rules.
    ToolNameProjected,
    /// A tool name in the history had whitespace around it (or was only whitespace) and no
    /// declared tool is spelled so: the name without it was used, so the call names the
    /// declared tool (a name of spaces is the empty name, projected to `tool` like it).
    ToolNameTrimmed,
    /// A sampling setting the request's thinking mode forbids was left out.
    SamplingAdjusted,
    /// A tool the history calls was added to the request's tool declarations.
    ToolDeclared,
    /// A string held an unpaired UTF-16 surrogate (half an emoji, cut by a JavaScript
    /// `slice`); it was replaced by U+FFFD (in identifiers followed by its hex code, so ids
    /// stay distinct). `path` names the string.
    LoneSurrogateReplaced,
    /// A JavaScript value JSON cannot carry (a circular reference, a `BigInt`, a function, a
    /// symbol, a `Map`…) was converted or left out as documented. `path` names the value.
    NonJsonValueReplaced,
    /// The request had no output token limit; turnwire chose one that leaves room for the
    /// thinking budget within the model's output limit.
    MaxTokensChosen,
    /// A thinking setting was not sent as asked: a budget outside the range the model takes was
    /// moved into it, a budget the model refuses (adaptive-only Claude, Gemini with a level) or
    /// an effort it does not take was left out, or an effort was sent at the nearest level the
    /// model takes. `path` names the setting (`$.thinking.effort`, `$.thinking.budgetTokens`).
    ThinkingBudgetAdjusted,
    /// The history ends with an assistant message and the model takes no prefill (Claude 4.6+,
    /// ANT-24; deepseek-reasoner, DSK-06): the message was kept and a user turn with the
    /// continuation text was appended after it.
    ContinuationUserInserted,
    /// The final assistant text (a prefill) ended with whitespace, which Anthropic refuses
    /// (ANT-23); the trailing whitespace was trimmed.
    PrefillWhitespaceTrimmed,
    /// An importer met a part the canonical transcript has no block for (a server tool's
    /// block, an unknown part type); it was kept as an opaque block, which renders leave out.
    /// `path` names the part.
    ImportOpaque,
    /// An importer read a value in another form than it had (a URL image without a media type,
    /// a tool result's parts joined); `path` names the value.
    ImportConverted,
    /// A request body was rendered for a provider of another API, which has no place for one
    /// of its other fields (`stream`, `metadata`, …): the field was left out. `path` names it.
    RequestFieldDropped,
    /// A forced `toolChoice` the model cannot take (deepseek-reasoner always thinks, and
    /// DeepSeek refuses a forced choice with thinking) was sent as `auto`.
    ToolChoiceLowered,
    /// A stop sequence the provider does not take (empty, whitespace only for Anthropic,
    /// beyond its count or length limit, or any on a target without stop sequences) was left
    /// out. `path` names it.
    StopSequencesAdjusted,
    /// A `cache` setting the provider does not take was not sent, or was sent in the form the
    /// provider takes (a cache key too long for OpenAI, sent as a stable hash); a listed
    /// breakpoint with nothing to mark was left out. `path` names the setting.
    CacheAdjusted,
    /// A `Conversation` rendering with `cache` sent a message of its previous request to the
    /// same target differently (a repair reached back, or the history was edited): the prefix
    /// the provider cached ends before it. `path` names the message in the body. The one
    /// diagnostic a stateless render cannot give: it compares with the previous request.
    CachePrefixChanged,
    /// A server-tool block (a web search, a code run) another provider ran, or one its own
    /// provider cannot take back in this request, was sent as assistant text: its query,
    /// sources, code and output.
    ServerToolAsText,
    /// A `serverTools` entry the target does not have, or not with this model or these
    /// options, was not declared (or declared without the options it lacks). `path` names it.
    ServerToolUnavailable,
    /// A request field that the provider takes as an HTTP header, not in the body (Anthropic
    /// `betas`, `user_profile_id`, `workspace_id`, given through `providerOptions` or `extra`),
    /// was moved into the render's `headers`. `path` names it.
    HeaderParamMoved,
    /// A system message inside the conversation was moved to the place the target takes it
    /// (Anthropic: right before the next assistant message, ANT-25), or merged into the one
    /// before it.
    SystemMoved,
    /// Context-management edits given in an order the provider refuses were reordered
    /// (Anthropic: `clear_thinking` first, ANT-46).
    ContextEditsReordered,
    /// A signed thinking block is sent after a repair that changed what comes before it
    /// (`system`, `tools`, or an earlier message, against the history as given), to a model
    /// that binds thinking to its conversation prefix (Fable 5.1 and others, ANT-52): the API
    /// drops the block (`drop_block`, which the render sends) or refuses the request. Names the
    /// first such block and the repair; `count` is how many blocks follow it.
    ThinkingPrefixChanged,
    /// A tool change (a tool added or removed mid-conversation, a tool a tool result loaded)
    /// the target cannot take was left out: the request declares the tools in force at the end
    /// of the history instead (ANT-53). The message names the tool.
    ToolChangeProjected,
}

/// Which completion a dedupe kept and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct DedupeDecision {
    /// Input position of the kept completion, in words.
    pub kept: String,
    /// Input position of the dropped completion, in words.
    pub dropped: String,
    /// Input (message, block) index of the kept completion; absent for a synthesised one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kept_at: Option<(usize, usize)>,
    /// Input (message, block) index of the dropped completion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dropped_at: Option<(usize, usize)>,
    /// Why the kept one won.
    pub rationale: String,
}

/// One diagnostic record (REQ-915-039/040): every repair and every lossy projection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct Diagnostic {
    /// Stable code.
    pub code: DiagnosticCode,
    /// Fault class.
    pub fault: FaultClass,
    /// Human-readable explanation.
    pub message: String,
    /// Index of the input message concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub message_index: Option<usize>,
    /// Index of the block within that input message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_index: Option<usize>,
    /// Canonical call id concerned.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The id emitted on the wire for that call (and its result).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub emitted_id: Option<String>,
    /// Dedupe decision and rationale.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dedupe: Option<DedupeDecision>,
    /// Reason code of a synthetic completion.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub synthetic_reason: Option<SyntheticReasonCode>,
    /// The provider format rendered for.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub provider: Option<Provider>,
    /// JSON path of the input value concerned (`$[3].blocks[0].result`, `$.system` for
    /// render options), when a repair was made while reading it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// How many occurrences this one diagnostic stands for, when it summarises several.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
    /// The normaliser pass that made this repair; absent for what was repaired while reading
    /// the input or projecting it for the provider.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pass: Option<Pass>,
}

/// Why turnwire made up a tool completion ([`SyntheticReason`]), serialised by its stable
/// string.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(
    feature = "wasm-bind",
    derive(tsify::Tsify),
    tsify(
        type = "\"missing_result\" | \"pending_result\" | \"open_at_end\" | \"reconstructed_call\" | \"compacted\""
    )
)]
pub struct SyntheticReasonCode(pub SyntheticReason);

impl Serialize for SyntheticReasonCode {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.as_str())
    }
}

impl Diagnostic {
    /// A diagnostic with only code, class and message set.
    ///
    /// ```
    /// use turnwire::{Diagnostic, DiagnosticCode, FaultClass};
    /// let d = Diagnostic::new(DiagnosticCode::ResultMoved, FaultClass::PairingOrdering, "moved");
    /// assert_eq!(serde_json::to_value(&d)?["code"], "result_moved");
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn new(code: DiagnosticCode, fault: FaultClass, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            fault,
            message: message.into(),
            message_index: None,
            block_index: None,
            call_id: None,
            emitted_id: None,
            dedupe: None,
            synthetic_reason: None,
            provider: None,
            path: None,
            count: None,
            pass: None,
        }
    }

    /// Sets the input position.
    pub fn at(mut self, origin: Option<(usize, usize)>) -> Self {
        if let Some((m, b)) = origin {
            self.message_index = Some(m);
            self.block_index = Some(b);
        }
        self
    }

    /// Sets the input message index only.
    pub fn at_message(mut self, index: Option<usize>) -> Self {
        self.message_index = index;
        self
    }

    /// Sets the JSON path of the input value concerned.
    pub fn at_path(mut self, path: impl Into<String>) -> Self {
        self.path = Some(path.into());
        self
    }

    /// Sets the canonical call id.
    pub fn call(mut self, id: impl Into<String>) -> Self {
        self.call_id = Some(id.into());
        self
    }
}

impl DiagnosticCode {
    /// The stable string form (the same as its JSON form).
    pub const fn as_str(self) -> &'static str {
        match self {
            DiagnosticCode::SpeakerRepaired => "speaker_repaired",
            DiagnosticCode::DuplicateCallDropped => "duplicate_call_dropped",
            DiagnosticCode::DuplicateCallIdRenamed => "duplicate_call_id_renamed",
            DiagnosticCode::DuplicateResultDropped => "duplicate_result_dropped",
            DiagnosticCode::OrphanResultAsText => "orphan_result_as_text",
            DiagnosticCode::OrphanResultDropped => "orphan_result_dropped",
            DiagnosticCode::OrphanCallReconstructed => "orphan_call_reconstructed",
            DiagnosticCode::SyntheticResultAdded => "synthetic_result_added",
            DiagnosticCode::ResultMoved => "result_moved",
            DiagnosticCode::EmptyTextRemoved => "empty_text_removed",
            DiagnosticCode::EmptyMessageRemoved => "empty_message_removed",
            DiagnosticCode::EmptyResultFilled => "empty_result_filled",
            DiagnosticCode::ParametersNormalized => "parameters_normalized",
            DiagnosticCode::AbortedTurnTrimmed => "aborted_turn_trimmed",
            DiagnosticCode::ThinkingDropped => "thinking_dropped",
            DiagnosticCode::ThinkingAsText => "thinking_as_text",
            DiagnosticCode::ContinuityDropped => "continuity_dropped",
            DiagnosticCode::ReasoningReused => "reasoning_reused",
            DiagnosticCode::ContinuitySynthesized => "continuity_synthesized",
            DiagnosticCode::ThinkingDisabledForRequest => "thinking_disabled_for_request",
            DiagnosticCode::MessagesMerged => "messages_merged",
            DiagnosticCode::LeadingUserInserted => "leading_user_inserted",
            DiagnosticCode::AssistantBridgeInserted => "assistant_bridge_inserted",
            DiagnosticCode::SystemHoisted => "system_hoisted",
            DiagnosticCode::BlockOmitted => "block_omitted",
            DiagnosticCode::MediaMoved => "media_moved",
            DiagnosticCode::BlockMoved => "block_moved",
            DiagnosticCode::MediaTypeCorrected => "media_type_corrected",
            DiagnosticCode::FeatureUnavailable => "feature_unavailable",
            DiagnosticCode::ToolNameProjected => "tool_name_projected",
            DiagnosticCode::ToolNameTrimmed => "tool_name_trimmed",
            DiagnosticCode::SamplingAdjusted => "sampling_adjusted",
            DiagnosticCode::ToolChoiceLowered => "tool_choice_lowered",
            DiagnosticCode::StopSequencesAdjusted => "stop_sequences_adjusted",
            DiagnosticCode::CacheAdjusted => "cache_adjusted",
            DiagnosticCode::CachePrefixChanged => "cache_prefix_changed",
            DiagnosticCode::ServerToolAsText => "server_tool_as_text",
            DiagnosticCode::ServerToolUnavailable => "server_tool_unavailable",
            DiagnosticCode::ToolDeclared => "tool_declared",
            DiagnosticCode::LoneSurrogateReplaced => "lone_surrogate_replaced",
            DiagnosticCode::NonJsonValueReplaced => "non_json_value_replaced",
            DiagnosticCode::MaxTokensChosen => "max_tokens_chosen",
            DiagnosticCode::ThinkingBudgetAdjusted => "thinking_budget_adjusted",
            DiagnosticCode::ContinuationUserInserted => "continuation_user_inserted",
            DiagnosticCode::PrefillWhitespaceTrimmed => "prefill_whitespace_trimmed",
            DiagnosticCode::ImportOpaque => "import_opaque",
            DiagnosticCode::ImportConverted => "import_converted",
            DiagnosticCode::RequestFieldDropped => "request_field_dropped",
            DiagnosticCode::HeaderParamMoved => "header_param_moved",
            DiagnosticCode::SystemMoved => "system_moved",
            DiagnosticCode::ContextEditsReordered => "context_edits_reordered",
            DiagnosticCode::ThinkingPrefixChanged => "thinking_prefix_changed",
            DiagnosticCode::ToolChangeProjected => "tool_change_projected",
        }
    }
}
